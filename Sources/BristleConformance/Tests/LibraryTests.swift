import BristleHost
import Glibc

/// The `library` group: the file loads, exports the entry and nothing else, speaks ABI major
/// 1, counts `init`/`deinit`, refuses unknown ids, and scans quickly.
enum LibraryTests {
    static let all: [ConformanceTest] = [
        ConformanceTest("library.load", tier: .basic, scope: .library,
                        "The host's loader accepts the file: dlopen, the entry, init, the factory and every descriptor validate.") { ctx throws(CheckFailure) in
            let library = try ctx.library()
            return TestOutcome(.pass, brushes: library.descriptors.map(\.id))
        },
        ConformanceTest("library.entry-present", tier: .basic, scope: .library,
                        "The ELF dynamic symbol table defines the function bristle_entry_v1.") { ctx throws(CheckFailure) in
            let symbols = try ELFSymbols.exported(path: ctx.pluginPath).get()
            guard let entry = symbols.first(where: { $0.name == BRISTLE_ENTRY_SYMBOL }) else {
                return .fail("the file does not export \(BRISTLE_ENTRY_SYMBOL); define it with BRISTLE_EXPORT "
                             + "(C) or `@c(bristle_entry_v1) public func` (Swift)")
            }
            guard entry.type == 2 else {
                return .fail("\(BRISTLE_ENTRY_SYMBOL) is exported but is not a function (ELF symbol type \(entry.type))")
            }
            return .pass
        },
        ConformanceTest("library.abi-major", tier: .basic, scope: .library,
                        "The entry and every descriptor declare ABI major \(BRISTLE_VERSION_MAJOR).") { ctx throws(CheckFailure) in
            let raw = try RawLibrary(path: ctx.pluginPath, recorder: ctx.recorder)
            guard raw.initialize() else { return .fail("init() returned false") }
            defer { raw.deinitialize() }
            for d in raw.descriptors(try raw.brushFactory()) where d.pointee.abi.major != BRISTLE_VERSION_MAJOR {
                let v = d.pointee.abi
                return .fail("descriptor '\(CStrings.text(d.pointee.id) ?? "?")' declares ABI \(v.major).\(v.minor).\(v.patch)")
            }
            return .pass
        },
        ConformanceTest("library.rtld-now", tier: .basic, scope: .library,
                        "dlopen with RTLD_NOW succeeds: every symbol the library needs resolves at load time.") { ctx throws(CheckFailure) in
            _ = dlerror()
            // A name without a slash would make dlopen search the library path, not the folder.
            let path = ctx.pluginPath.contains("/") ? ctx.pluginPath : "./" + ctx.pluginPath
            guard ctx.recorder.record("dlopen(\(path), RTLD_NOW)", { dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE) }) != nil else {
                let reason = dlerror().map { String(cString: $0) } ?? "unknown error"
                return .fail("dlopen(RTLD_NOW) failed: \(reason)")
            }
            return .pass
        },
        ConformanceTest("library.exports-only-entry", tier: .basic, scope: .library,
                        "The library exports bristle_entry_v1 (and other bristle_entry_vN majors) only: no helper leaks into the global namespace.") { ctx throws(CheckFailure) in
            let symbols = try ELFSymbols.exported(path: ctx.pluginPath).get()
            let extra = symbols.filter { s in
                s.section != 0xFFF1 && !(s.name.hasPrefix("bristle_entry_v") && s.name.dropFirst(15).allSatisfy(\.isNumber))
            }.map(\.name)
            guard extra.isEmpty else {
                return .fail("the library also exports \(extra.prefix(8).joined(separator: ", "))"
                             + (extra.count > 8 ? " and \(extra.count - 8) more" : "")
                             + "; build with -fvisibility=hidden or a version script (Plugins/exports.map)")
            }
            return .pass
        },
        ConformanceTest("library.init-refcount", tier: .basic, scope: .library,
                        "init and deinit are reference-counted: after init, init, deinit the factory still works; the last deinit balances.") { ctx throws(CheckFailure) in
            let raw = try RawLibrary(path: ctx.pluginPath, recorder: ctx.recorder)
            guard raw.initialize() else { return .fail("the first init() returned false") }
            let count = raw.descriptors(try raw.brushFactory()).count
            guard raw.initialize() else { return .fail("a second init() returned false; init is reference-counted") }
            raw.deinitialize()
            let after = raw.descriptors(try raw.brushFactory()).count
            raw.deinitialize()
            guard after == count else {
                return .fail("after init, init, deinit the factory lists \(after) brushes instead of \(count); "
                             + "only the last deinit may release anything")
            }
            return .pass
        },
        ConformanceTest("library.reinit", tier: .basic, scope: .library,
                        "After the last deinit, init works again and gives a working factory.") { ctx throws(CheckFailure) in
            let raw = try RawLibrary(path: ctx.pluginPath, recorder: ctx.recorder)
            guard raw.initialize() else { return .fail("init() returned false") }
            let count = raw.descriptors(try raw.brushFactory()).count
            raw.deinitialize()
            guard raw.initialize() else { return .fail("init() after the last deinit() returned false") }
            defer { raw.deinitialize() }
            let again = raw.descriptors(try raw.brushFactory()).count
            guard again == count else { return .fail("after re-init the factory lists \(again) brushes instead of \(count)") }
            return .pass
        },
        ConformanceTest("library.unknown-factory-null", tier: .basic, scope: .library,
                        "get_factory returns NULL for ids it does not know, including near misses of the brush factory id.") { ctx throws(CheckFailure) in
            let raw = try RawLibrary(path: ctx.pluginPath, recorder: ctx.recorder)
            guard raw.initialize() else { return .fail("init() returned false") }
            defer { raw.deinitialize() }
            for id in ["conform.no-such-factory/1", "bristle.brush-factory/2", "bristle.brush-factory",
                       "bristle.brush-factory/1x", ""] where raw.factory(id) != nil {
                return .fail("get_factory(\"\(id)\") returned non-NULL; compare ids exactly with strcmp")
            }
            return .pass
        },
        ConformanceTest("library.unknown-extension-null", tier: .basic, scope: .brush,
                        "brush->get_extension returns NULL for unknown ids and near misses of bristle.params/1.") { ctx throws(CheckFailure) in
            let brush = try ctx.makeBrush(host: BrushHost(logHandler: { _, _ in }))
            let b = brush.cInstance
            for id in ["conform.no-such-extension/1", "bristle.params/2", "bristle.params", "bristle.params/1x", ""] {
                if ctx.recorder.record("brush->get_extension(\"\(id)\")", { b.pointee.get_extension!(b, id) }) != nil {
                    return .fail("get_extension(\"\(id)\") returned non-NULL; compare ids exactly with strcmp")
                }
            }
            return .pass
        },
        ConformanceTest("library.create-unknown-id-null", tier: .basic, scope: .library,
                        "factory->create returns NULL for an id the library does not have.") { ctx throws(CheckFailure) in
            let raw = try RawLibrary(path: ctx.pluginPath, recorder: ctx.recorder)
            guard raw.initialize() else { return .fail("init() returned false") }
            defer { raw.deinitialize() }
            let f = try raw.brushFactory()
            let host = BrushHost(logHandler: { _, _ in })
            for id in ["conform.no-such-brush", ""] where raw.creates(f, id: id, host: host) {
                return .fail("create(\"\(id)\") returned an instance for an id the library does not list")
            }
            return .pass
        },
        ConformanceTest("library.create-trailing-garbage-null", tier: .basic, scope: .library,
                        "factory->create matches ids exactly: a listed id with a character added, removed or changed gives NULL.") { ctx throws(CheckFailure) in
            let raw = try RawLibrary(path: ctx.pluginPath, recorder: ctx.recorder)
            guard raw.initialize() else { return .fail("init() returned false") }
            defer { raw.deinitialize() }
            let f = try raw.brushFactory()
            let ids = Set(raw.descriptors(f).compactMap { CStrings.text($0.pointee.id) })
            let host = BrushHost(logHandler: { _, _ in })
            for id in ids.sorted() {
                for wrong in [id + "x", id + " ", String(id.dropLast()), id.uppercased()] where !ids.contains(wrong) {
                    if raw.creates(f, id: wrong, host: host) {
                        return .fail("create(\"\(wrong)\") returned an instance; ids match exactly (no prefix match, no trailing characters)")
                    }
                }
            }
            return .pass
        },
        ConformanceTest("library.unique-ids", tier: .basic, scope: .library,
                        "No two descriptors of the library share an id.") { ctx throws(CheckFailure) in
            let raw = try RawLibrary(path: ctx.pluginPath, recorder: ctx.recorder)
            guard raw.initialize() else { return .fail("init() returned false") }
            defer { raw.deinitialize() }
            var seen: Set<String> = []
            for d in raw.descriptors(try raw.brushFactory()) {
                guard let id = CStrings.text(d.pointee.id) else { continue }
                guard seen.insert(id).inserted else { return .fail("two descriptors share the id '\(id)'") }
            }
            return .pass
        },
        ConformanceTest("library.scan-time", tier: .basic, scope: .library,
                        "Loading, init and listing the descriptors take under \(Int(scanWarnSeconds * 1000)) ms (warn only: machine-dependent).") { ctx throws(CheckFailure) in
            let start = Clock.seconds()
            let raw = try RawLibrary(path: ctx.pluginPath, recorder: ctx.recorder)
            guard raw.initialize() else { return .fail("init() returned false") }
            _ = raw.descriptors(try raw.brushFactory())
            let elapsed = Clock.seconds() - start
            raw.deinitialize()
            let ms = (elapsed * 1000 * 10).rounded() / 10
            guard elapsed <= scanWarnSeconds else {
                return TestOutcome(.warn, "scanning took \(ms) ms; hosts scan every plugin on the search path, so keep the entry and init cheap")
            }
            return TestOutcome(.pass, "\(ms) ms")
        },
    ]

    /// Above this scan time the test warns.
    static let scanWarnSeconds = 0.1
}
