/// One struct of the ABI as this host sees it: its size and alignment, the minor version that
/// introduced it, and its fields in declaration order. Sizes in earlier minors follow from the
/// fields' `since` (a minor only appends fields), so the table of every published minor's size
/// is computed, not typed in, and the tests check it against the 1.0 and 1.1 headers.
public struct ABIStruct: Sendable {
    /// The C typedef name, e.g. `bristle_sample_t`.
    public let name: String
    /// The minor version that introduced the struct.
    public let since: UInt32
    /// `sizeof` in this host's minor.
    public let size: Int
    /// `_Alignof` the struct.
    public let alignment: Int
    /// The fields in declaration (and offset) order.
    public let fields: [ABIField]
    /// The struct's size in its first minor: the smallest `struct_size` a reader accepts
    /// (stored: the host checks it on every service call).
    public let minimumSize: UInt32

    /// Describes the imported C struct `T`; `fields` lists every member through key paths.
    init<T>(_ type: T.Type, _ name: String, since: UInt32 = 0,
            _ fields: (ABIFieldList<T>) -> [ABIField]) {
        self.name = name
        self.since = since
        size = MemoryLayout<T>.size
        alignment = MemoryLayout<T>.alignment
        let list = fields(ABIFieldList<T>())
        self.fields = list
        minimumSize = UInt32(Self.size(of: list, inMinor: since))
    }

    /// True for a struct that starts with `struct_size` and may grow in later minors.
    public var isVersioned: Bool { fields.first?.name == "struct_size" }

    /// The field called `name`.
    public func field(_ name: String) -> ABIField? { fields.first { $0.name == name } }

    /// `sizeof` the struct in minor `minor` of major 1, or nil when it did not exist yet: the
    /// end of its last field of that minor, rounded up to the alignment of those fields.
    public func size(inMinor minor: UInt32) -> Int? {
        minor >= since ? Self.size(of: fields, inMinor: minor) : nil
    }

    private static func size(of fields: [ABIField], inMinor minor: UInt32) -> Int {
        let present = fields.filter { $0.since <= minor }
        let end = present.map(\.end).max() ?? 0
        let align = present.map(\.alignment).max() ?? 1
        return (end + align - 1) / align * align
    }

    /// True when a writer's `struct_size` covers the field `name` (BRISTLE_HAS_FIELD).
    public func has(_ name: String, structSize: UInt32) -> Bool {
        guard let f = field(name) else { return false }
        return Int(structSize) >= f.end
    }

    /// Each published minor from the struct's first on, with its size there.
    public var publishedSizes: [(minor: UInt32, size: Int)] {
        ABILayout.publishedMinors.compactMap { m in size(inMinor: m).map { (m, $0) } }
    }

    /// The published sizes in words: "72 in 1.0, 72 in 1.1, 72 in 1.2".
    public var publishedSizesText: String {
        publishedSizes.map { "\($0.size) in 1.\($0.minor)" }.joined(separator: ", ")
    }

    /// The advice that ends every size problem.
    var mirrorAdvice: String {
        "the plugin's mirrored \(name) is likely wrong: compare it field by field with `bristle abi`"
    }

    /// Why a reader cannot use a `struct_size` a plugin wrote (smaller than the struct's first
    /// published size, so fields every reader needs are missing), or nil when it can.
    public func tooSmall(_ structSize: UInt32) -> String? {
        guard structSize < minimumSize else { return nil }
        return "its struct_size is \(structSize), smaller than every published size of \(name) "
            + "(\(publishedSizesText)); \(mirrorAdvice)"
    }

    /// Why a `struct_size` a plugin wrote for this struct cannot be right, or nil when it can.
    /// A plugin that declares a published minor writes the size of one of the published minors
    /// exactly (anything else means its mirrored struct has a field too many or too few); a
    /// plugin that declares a later minor than this host's writes at least this host's size
    /// (the struct may have grown since, never shrunk).
    public func sizeProblem(_ structSize: UInt32, declaredMinor: UInt32) -> String? {
        if declaredMinor > ABILayout.hostMinor {
            guard Int(structSize) < size else { return nil }
            return "its struct_size is \(structSize), smaller than \(name) in this host's ABI "
                + "1.\(ABILayout.hostMinor) (\(size)), although the plugin declares ABI 1.\(declaredMinor) and "
                + "structs only grow; \(mirrorAdvice)"
        }
        guard !publishedSizes.contains(where: { $0.size == Int(structSize) }) else { return nil }
        return "its struct_size is \(structSize), which matches no published size of \(name) "
            + "(\(publishedSizesText)); \(mirrorAdvice)"
    }
}
