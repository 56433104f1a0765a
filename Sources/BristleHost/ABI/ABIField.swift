/// One field of an ABI struct as this host was compiled with it: where it lies, how big it is,
/// its C type as the header spells it, and the minor version that added it.
public struct ABIField: Sendable, Equatable {
    /// The C member name.
    public let name: String
    /// The C type without the member name, as in a cast: `uint32_t`, `const char *`,
    /// `bristle_status_t (*)(const bristle_brush_t *, double, double)`.
    public let cType: String
    /// Bytes from the start of the struct.
    public let offset: Int
    /// `sizeof` the field.
    public let size: Int
    /// `_Alignof` the field's type.
    public let alignment: Int
    /// The minor version of ABI major 1 that appended the field (0 for fields of 1.0).
    public let since: UInt32

    /// One past the field's last byte.
    public var end: Int { offset + size }
}

/// Builds the ``ABIField`` list of one imported C struct `T` from key paths, so every offset
/// and size is the one the Swift compiler imported from the header.
struct ABIFieldList<T> {
    /// The field at `path`, named and typed as in the header, added in minor `since`.
    func callAsFunction<V>(_ path: KeyPath<T, V>, _ name: String, _ cType: String,
                           since: UInt32 = 0) -> ABIField {
        guard let offset = MemoryLayout<T>.offset(of: path) else {
            preconditionFailure("\(name) is not a stored field of \(T.self)")
        }
        return ABIField(name: name, cType: cType, offset: offset, size: MemoryLayout<V>.size,
                        alignment: MemoryLayout<V>.alignment, since: since)
    }
}
