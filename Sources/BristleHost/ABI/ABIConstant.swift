/// One `#define` of the header with its value: a number with its C type, or a string.
public struct ABIConstant: Sendable, Equatable {
    /// The value as the header defines it.
    public enum Value: Sendable, Equatable {
        case number(Int64)
        case string(String)
    }

    public let name: String
    public let value: Value
    /// The C type of the value: `uint32_t`, `bristle_status_t`, `const char *`...
    public let cType: String
    /// The minor version that added it.
    public let since: UInt32
}
