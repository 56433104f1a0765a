import BristleHost

/// The `descriptor` group: each brush's descriptor is complete, well formed, uses only known
/// flags, and matches what its instances report.
enum DescriptorTests {
    static let all: [ConformanceTest] = [
        ConformanceTest("descriptor.required-fields", tier: .basic, scope: .brush,
                        "struct_size covers ABI 1.0; id, name, vendor, version, description are non-NULL UTF-8; name is not empty; tags are NULL-terminated (at most 64), non-empty and unique.") { ctx throws(CheckFailure) in
            let (_, d) = try raw(ctx)
            let p = d.pointee
            if let problem = ABILayout.descriptor.tooSmall(p.struct_size) { return .fail(problem) }
            let fields: [(String, UnsafePointer<CChar>?)] = [("id", p.id), ("name", p.name), ("vendor", p.vendor),
                                                             ("version", p.version), ("description", p.description)]
            for (name, value) in fields {
                guard value != nil else { return .fail("\(name) is NULL (use \"\" for none)") }
                guard CStrings.text(value) != nil else { return .fail("\(name) is not valid UTF-8") }
            }
            guard CStrings.text(p.name)?.isEmpty == false else { return .fail("name is empty") }
            if let tags = p.tags {
                var seen: Set<String> = []
                var i = 0
                while let tag = tags[i] {
                    guard i < 64 else { return .fail("tags has more than 64 entries (missing NULL terminator?)") }
                    guard let text = CStrings.text(tag) else { return .fail("tag \(i) is not valid UTF-8") }
                    guard !text.isEmpty else { return .fail("tag \(i) is empty") }
                    guard seen.insert(text).inserted else { return .fail("the tag '\(text)' appears twice") }
                    i += 1
                }
            }
            return .pass
        },
        ConformanceTest("descriptor.id-syntax", tier: .basic, scope: .brush,
                        "The id is reverse-DNS: printable ASCII without spaces, at most 255 bytes, dot-separated non-empty labels.") { ctx throws(CheckFailure) in
            let (_, d) = try raw(ctx)
            guard let id = CStrings.text(d.pointee.id) else { return .fail("the id is NULL or not UTF-8") }
            let bytes = Array(id.utf8)
            guard !bytes.isEmpty, bytes.count <= 255 else { return .fail("the id '\(id)' is empty or longer than 255 bytes") }
            if let bad = bytes.first(where: { $0 <= 0x20 || $0 >= 0x7F }) {
                return .fail("the id '\(id)' contains byte 0x\(String(bad, radix: 16)); use printable ASCII without spaces")
            }
            let labels = id.split(separator: ".", omittingEmptySubsequences: false)
            guard labels.count >= 2, labels.allSatisfy({ !$0.isEmpty }) else {
                return .fail("the id '\(id)' is not reverse-DNS (e.g. org.example.charcoal)")
            }
            return .pass
        },
        ConformanceTest("descriptor.known-flags", tier: .basic, scope: .brush,
                        "A brush built for ABI 1.0 sets only the capability bits 1.0 defines.") { ctx throws(CheckFailure) in
            let (_, d) = try raw(ctx)
            let known = BRISTLE_BRUSH_CONTINUOUS | BRISTLE_BRUSH_WANTS_PREDICTED | BRISTLE_BRUSH_WANTS_TICKS
                | BRISTLE_BRUSH_DETERMINISTIC
            let unknown = d.pointee.flags & ~known
            guard unknown != 0 else { return .pass }
            guard d.pointee.abi.minor <= BRISTLE_VERSION_MINOR else {
                return .skip("the brush declares ABI minor \(d.pointee.abi.minor); bits 0x\(String(unknown, radix: 16)) may be defined there")
            }
            return .fail("flags sets unknown bits 0x\(String(unknown, radix: 16)) for ABI 1.\(d.pointee.abi.minor)")
        },
        ConformanceTest("descriptor.consistency", tier: .basic, scope: .brush,
                        "descriptor(i) is stable, descriptor(count) is NULL, and an instance's descriptor matches the factory's (same id and flags), with the hooks its flags ask for.") { ctx throws(CheckFailure) in
            let (raw, d) = try raw(ctx)
            let f = try raw.brushFactory()
            let n = f.pointee.count!(f)
            if ctx.recorder.record("factory->descriptor(\(n)) (one past the end)", { f.pointee.descriptor!(f, n) }) != nil {
                return .fail("descriptor(\(n)) returned non-NULL for an index equal to count")
            }
            let again = raw.descriptors(f).first { CStrings.text($0.pointee.id) == ctx.brushID }
            guard again == d else { return .fail("a second descriptor(i) call returned a different pointer") }
            let host = BrushHost(logHandler: { _, _ in })
            guard let id = ctx.brushID,
                  let b = ctx.recorder.record("factory->create(\"\(id)\")", { f.pointee.create!(f, host.cHost, id) }) else {
                return .fail("create(\"\(ctx.brushID ?? "")\") returned NULL for a listed id")
            }
            defer { ctx.recorder.record("brush->destroy()") { b.pointee.destroy?(b) } }
            guard let own = b.pointee.descriptor else { return .fail("the instance's descriptor is NULL") }
            guard CStrings.text(own.pointee.id) == id, own.pointee.flags == d.pointee.flags else {
                return .fail("the instance's descriptor (id '\(CStrings.text(own.pointee.id) ?? "?")', flags "
                             + "0x\(String(own.pointee.flags, radix: 16))) differs from the factory's (id '\(id)', "
                             + "flags 0x\(String(d.pointee.flags, radix: 16)))")
            }
            if d.pointee.flags & BRISTLE_BRUSH_WANTS_PREDICTED != 0, b.pointee.predicted == nil {
                return .fail("WANTS_PREDICTED is set but predicted is NULL")
            }
            if d.pointee.flags & BRISTLE_BRUSH_WANTS_TICKS != 0, b.pointee.tick == nil {
                return .fail("WANTS_TICKS is set but tick is NULL")
            }
            return .pass
        },
    ]

    /// The raw library (initialised for the test's lifetime) and the brush's descriptor.
    static func raw(_ ctx: TestContext) throws(CheckFailure) -> (RawLibrary, UnsafePointer<bristle_descriptor_t>) {
        let raw = try RawLibrary(path: ctx.pluginPath, recorder: ctx.recorder)
        guard raw.initialize() else { throw CheckFailure("init() returned false") }
        guard let d = raw.descriptors(try raw.brushFactory()).first(where: { CStrings.text($0.pointee.id) == ctx.brushID }) else {
            throw CheckFailure("the factory lists no brush '\(ctx.brushID ?? "")'")
        }
        return (raw, d)
    }
}
