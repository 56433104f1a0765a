/// Why reading or writing a PNG failed.
///
/// ``description`` is a sentence for a person: it names the file, what failed and, where
/// there is one, what to do about it. ``kind`` is for code that reacts to the failure.
public struct PNGError: Error, CustomStringConvertible, Equatable, Sendable {
    public enum Kind: String, Equatable, Hashable, Sendable, CaseIterable {
        /// Reading: there is no file at the path (or a folder on the way is missing).
        case notFound
        /// Reading: the path names a directory, a FIFO, a device or a socket.
        case notRegularFile
        /// Reading: the file exists but is not a PNG (wrong signature, empty, other format).
        case notPNG
        /// Reading: the file starts like a PNG but is damaged or truncated.
        case corrupt
        /// The image is larger than ``PNGCodec/maximumSide`` or ``PNGCodec/maximumPixelCount``.
        case tooLarge
        /// Writing: the file cannot be created there (missing folder, a directory in the
        /// way, a folder that does not accept new files).
        case cannotCreate
        /// An operating-system read, write, flush or rename failed (disk full, I/O error,
        /// permission denied).
        case io
        /// The caller passed impossible arguments (zero size, short buffer, small stride).
        case invalidArgument
    }

    /// Whether the failure happened while reading or while writing.
    public enum Operation: String, Equatable, Hashable, Sendable {
        case read, write
    }

    public var kind: Kind
    /// The path as the caller gave it (or `"file descriptor N"` for descriptor writes).
    public var path: String
    /// What went wrong, without the path, e.g. `the folder "/tmp/nope" does not exist`.
    public var message: String
    public var operation: Operation

    public init(kind: Kind, path: String, message: String, operation: Operation) {
        self.kind = kind
        self.path = path
        self.message = message
        self.operation = operation
    }

    /// For example: `cannot write PNG "/tmp/nope/out.png": the folder "/tmp/nope" does not
    /// exist; create it first or choose another folder`.
    public var description: String {
        "cannot \(operation.rawValue) PNG \"\(path)\": \(message)"
    }
}
