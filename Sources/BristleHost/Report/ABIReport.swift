/// What `bristle abi` prints: the host's ABI version and, for every struct of the header, its
/// size, alignment, first minor and size in every published minor, and each field's offset,
/// size, C type and minor (schema `bristle-abi/1`, documented in docs/ABI.md); then the
/// constants and scalar typedefs. Built from ``ABILayout``.
public struct ABIReport: Encodable, Sendable {
    public struct Version: Encodable, Sendable {
        public var major: UInt32
        public var minor: UInt32
        public var patch: UInt32
    }

    public struct Field: Encodable, Sendable {
        public var name: String
        public var offset: Int
        public var size: Int
        public var align: Int
        public var type: String
        public var since: String
    }

    public struct Struct: Encodable, Sendable {
        public var name: String
        public var size: Int
        public var align: Int
        public var since: String
        /// True when the struct starts with `struct_size` (it may grow in later minors).
        public var versioned: Bool
        /// The size in every published minor from `since` on, keyed "1.0", "1.1", ...
        public var sizes: [String: Int]
        public var fields: [Field]
    }

    public struct Constant: Encodable, Sendable {
        public var name: String
        public var value: ABIConstant.Value
        public var type: String
        public var since: String
    }

    public struct Typedef: Encodable, Sendable {
        public var name: String
        public var type: String
    }

    /// The schema identifier.
    public static let schema = "bristle-abi/1"

    public var schema = ABIReport.schema
    public var abi: Version
    public var published: [String]
    public var structs: [Struct]
    public var constants: [Constant]
    public var typedefs: [Typedef]

    /// The report of the ABI this host was built with.
    public init() {
        func minor(_ m: UInt32) -> String { "1.\(m)" }
        abi = Version(major: BRISTLE_VERSION_MAJOR, minor: BRISTLE_VERSION_MINOR, patch: BRISTLE_VERSION_PATCH)
        published = ABILayout.publishedMinors.map(minor)
        structs = ABILayout.structs.map { s in
            Struct(name: s.name, size: s.size, align: s.alignment, since: minor(s.since), versioned: s.isVersioned,
                   sizes: Dictionary(uniqueKeysWithValues: s.publishedSizes.map { (minor($0.minor), $0.size) }),
                   fields: s.fields.map {
                       Field(name: $0.name, offset: $0.offset, size: $0.size, align: $0.alignment, type: $0.cType,
                             since: minor($0.since))
                   })
        }
        constants = ABILayout.constants.map {
            Constant(name: $0.name, value: $0.value, type: $0.cType, since: minor($0.since))
        }
        typedefs = ABILayout.typedefs.map { Typedef(name: $0.name, type: $0.cType) }
    }

    /// The report as aligned text tables.
    public var text: String {
        var out = "Bristle ABI \(abi.major).\(abi.minor).\(abi.patch) (published minors: "
            + published.joined(separator: ", ") + ")\n"
        for s in structs {
            let sizes = published.compactMap { v in s.sizes[v].map { "\(v): \($0)" } }.joined(separator: ", ")
            out += "\n\(s.name): size \(s.size), align \(s.align), since \(s.since)"
                + (s.versioned ? ", versioned" : "") + "; size in \(sizes)\n"
            let nameWidth = s.fields.map(\.name.count).max() ?? 0
            for f in s.fields {
                out += "  " + Self.pad(String(f.offset), 4, right: true) + "  " + Self.pad(String(f.size), 2, right: true)
                    + "  " + Self.pad(f.name, nameWidth) + "  " + f.type
                    + (f.since == "1.0" ? "" : "  (since \(f.since))") + "\n"
            }
        }
        out += "\nconstants:\n"
        let width = constants.map(\.name.count).max() ?? 0
        for c in constants {
            let value: String
            switch c.value {
            case .number(let n): value = String(n)
            case .string(let s): value = "\"\(s)\""
            }
            out += "  " + Self.pad(c.name, width) + "  " + value + (c.since == "1.0" ? "" : "  (since \(c.since))") + "\n"
        }
        out += "\ntypedefs:\n" + typedefs.map { "  \($0.name) = \($0.type)\n" }.joined()
        return out
    }

    private static func pad(_ s: String, _ width: Int, right: Bool = false) -> String {
        let fill = String(repeating: " ", count: max(0, width - s.count))
        return right ? fill + s : s + fill
    }
}

extension ABIConstant.Value: Encodable {
    /// A number or a string, as the header defines it.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .number(let n): try container.encode(n)
        case .string(let s): try container.encode(s)
        }
    }
}
