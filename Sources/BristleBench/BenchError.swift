import BristleHost

/// Why a benchmark case could not run or save its picture; `exitStatus` follows sysexits.
public struct BenchError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var hint: String?
    public var exitStatus: Int32

    public init(_ message: String, hint: String? = nil, exitStatus: Int32) {
        self.message = message
        self.hint = hint
        self.exitStatus = exitStatus
    }

    public var description: String { message }
}
