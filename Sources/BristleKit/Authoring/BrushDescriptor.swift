/// What a brush is, as hosts list it (`bristle_descriptor_t`).
public struct BrushDescriptor: Sendable {
    /// Stable reverse-DNS id, e.g. "org.example.charcoal": printable ASCII, no spaces, at most
    /// 255 bytes. Change it only when behaviour changes incompatibly.
    public var id: String
    /// Human-readable name. Not empty.
    public var name: String
    /// Who made it.
    public var vendor: String
    /// The brush's own version, e.g. "1.0.0".
    public var version: String
    /// One or two sentences.
    public var description: String
    /// Keywords ("pencil", "shape").
    public var tags: [String]
    /// What the brush asks of the host.
    public var capabilities: Capabilities

    public init(id: String, name: String, vendor: String = "", version: String = "1.0.0",
                description: String = "", tags: [String] = [],
                capabilities: Capabilities = [.continuous, .deterministic]) {
        self.id = id
        self.name = name
        self.vendor = vendor
        self.version = version
        self.description = description
        self.tags = tags
        self.capabilities = capabilities
    }

    /// Problems that make the descriptor unusable (empty when it is valid), following the
    /// rules of `bristle_descriptor_t`.
    var problems: [String] {
        var found: [String] = []
        let bytes = Array(id.utf8)
        if bytes.isEmpty || bytes.count > 255 || !bytes.allSatisfy({ $0 > 0x20 && $0 < 0x7f }) {
            found.append("brush id \"\(id)\" must be 1 to 255 printable ASCII characters without spaces")
        }
        if name.isEmpty { found.append("brush \(id) has an empty name") }
        for text in [name, vendor, version, description] + tags where text.utf8.contains(0) {
            found.append("brush \(id): a descriptor string contains a NUL byte")
        }
        return found
    }
}
