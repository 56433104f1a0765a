import BristleHost
import BristleTestSupport
import Foundation
import Testing

/// The header is a contract third parties compile against: it must build warning-free as C99
/// and C++17, its layout is pinned, and Swift must import the same layout.
@Suite struct ABIHeaderTests {
    static let layoutCheck = TestEnvironment.fixture("abi/layout_check.c").path
    static let include = TestEnvironment.packageRoot.appendingPathComponent("include").path

    @Test func compilesAsStrictC99() throws {
        let out = TestEnvironment.scratchDirectory("c99").appendingPathComponent("l.o").path
        let r = try ProcessResult.run("/usr/bin/env", ["cc", "-std=c99", "-Wall", "-Wextra", "-pedantic",
                                                       "-Werror", "-I", Self.include, "-c", Self.layoutCheck, "-o", out])
        #expect(r.status == 0, "\(r.stderr)")
    }

    @Test func compilesAsStrictCxx17() throws {
        let out = TestEnvironment.scratchDirectory("cxx17").appendingPathComponent("l.o").path
        let r = try ProcessResult.run("/usr/bin/env", ["c++", "-x", "c++", "-std=c++17", "-Wall", "-Wextra",
                                                       "-Werror", "-I", Self.include, "-c", Self.layoutCheck, "-o", out])
        #expect(r.status == 0, "\(r.stderr)")
    }

    static let helpersCheck = TestEnvironment.fixture("abi/helpers_check.c").path

    /// The 1.2 inline helpers (stride accessors, rect union, dirty list) run correctly when
    /// compiled as strict C99 and as C++17.
    @Test(arguments: [["cc", "-std=c99", "-pedantic"], ["c++", "-x", "c++", "-std=c++17", "-pedantic"]])
    func inlineHelpersWork(compiler: [String]) throws {
        let exe = TestEnvironment.scratchDirectory("helpers-\(compiler[0])").appendingPathComponent("check").path
        let build = try ProcessResult.run("/usr/bin/env", compiler + ["-Wall", "-Wextra", "-Werror", "-I", Self.include,
                                                                      Self.helpersCheck, "-o", exe])
        #expect(build.status == 0, "\(build.stderr)")
        let run = try ProcessResult.run(exe, [])
        #expect(run.status == 0, "\(run.stderr)")
    }

    static let pluginHelperCheck = TestEnvironment.fixture("abi/plugin_helper_check.c").path

    /// The optional plugin helper, bristle_plugin.h, builds warning-free as strict C99 and as
    /// C++17 and does what it documents: factory, entry counting, parameters with the header's
    /// rules (clamped, rounded, refused during a stroke), setup, teardown.
    @Test(arguments: [["cc", "-std=c99", "-pedantic"], ["c++", "-x", "c++", "-std=c++17"]])
    func pluginHelperBuildsAndWorks(compiler: [String]) throws {
        let exe = TestEnvironment.scratchDirectory("plugin-helper-\(compiler[0])").appendingPathComponent("check").path
        let build = try ProcessResult.run("/usr/bin/env", compiler + ["-Wall", "-Wextra", "-Werror", "-I", Self.include,
                                                                      Self.pluginHelperCheck, "-o", exe, "-lm"])
        #expect(build.status == 0, "\(build.stderr)")
        let run = try ProcessResult.run(exe, [])
        #expect(run.status == 0, "\(run.stderr)")
    }

    @Test func swiftImportsTheSameLayout() {
        #expect(MemoryLayout<bristle_sample_t>.size == 88)
        #expect(MemoryLayout<bristle_stroke_context_t>.size == 56)
        #expect(MemoryLayout<bristle_target_t>.size == 64)
        #expect(MemoryLayout<bristle_target_t>.offset(of: \.dirty_list) == 56, "1.2 appends after the 1.1 target")
        #expect(MemoryLayout<bristle_dirty_list_t>.size == 24)
        #expect(MemoryLayout<bristle_descriptor_t>.size == 72)
        #expect(MemoryLayout<bristle_brush_t>.size == 96)
        #expect(MemoryLayout<bristle_entry_t>.size == 56)
        #expect(MemoryLayout<bristle_entry_t>.offset(of: \.host_abi_min) == 40, "1.2 appends after the 1.1 entry")
        #expect(MemoryLayout<bristle_services_t>.size == 136)
        #expect(MemoryLayout<bristle_services_t>.offset(of: \.draw_rect) == 64, "1.1 appends after the 1.0 table")
        #expect(MemoryLayout<bristle_stroke_style_t>.size == 56)
        #expect(MemoryLayout<bristle_pattern_t>.size == 40)
        #expect(MemoryLayout<bristle_host_t>.size == 72)
        #expect(MemoryLayout<bristle_param_info_t>.size == 88)
        #expect(MemoryLayout<bristle_sample_t>.offset(of: \.pressure) == 32)
    }

    @Test func constantsImportWithTheirCTypes() {
        let flag: UInt32 = BRISTLE_BRUSH_CONTINUOUS
        let status: Int32 = BRISTLE_BAD_STATE
        #expect(flag == 1 && status == 4)
        #expect(BRISTLE_ENTRY_SYMBOL == "bristle_entry_v1")
        #expect(BRISTLE_EXT_PARAMS == "bristle.params/1")
        #expect(BRISTLE_BRUSH_FACTORY_ID == "bristle.brush-factory/1")
        #expect(PluginLoader.hostABIVersion == "1.2.0")
        let dirtyRects: UInt32 = BRISTLE_MAX_DIRTY_RECTS
        #expect(dirtyRects == 16)
        let closed: UInt32 = BRISTLE_STROKE_CLOSED
        let join: UInt32 = BRISTLE_JOIN_BEVEL
        let maxDashes: UInt32 = BRISTLE_MAX_DASHES
        #expect(closed == 1 && join == 2 && maxDashes == 1024)
    }

    @Test func everyFieldAndHookHasAContractComment() throws {
        // The header is the spec: each struct member carries a doc comment ("/**<" after it, or
        // a "/**" block before it).
        let text = try String(contentsOfFile: Self.include + "/bristle/bristle.h", encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var undocumented: [String] = []
        var inStruct = false
        for (i, line) in lines.enumerated() {
            let t = line.trimmingCharacters(in: .whitespaces)
            if t.hasPrefix("typedef struct") && t.hasSuffix("{") || t.hasPrefix("struct bristle_") && t.hasSuffix("{") { inStruct = true; continue }
            if t.hasPrefix("}") { inStruct = false; continue }
            guard inStruct, t.hasSuffix(";") || t.contains("(*"), !t.hasPrefix("*"), !t.hasPrefix("/*") else { continue }
            guard t.contains("(*") || t.range(of: #"^[a-z_ ]+[ *]+[a-z_0-9, ]+;"#, options: .regularExpression) != nil
                    || t.range(of: #"^(const )?[a-z_]+[ *]+[a-z_0-9]+;"#, options: .regularExpression) != nil else { continue }
            let documentedAfter = line.contains("/**<")
            let previous = lines[..<i].last { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? ""
            let documentedBefore = previous.trimmingCharacters(in: .whitespaces).hasSuffix("*/")
            if !documentedAfter && !documentedBefore { undocumented.append("\(i + 1): \(t)") }
        }
        #expect(undocumented.isEmpty, "fields without a contract comment:\n\(undocumented.joined(separator: "\n"))")
    }
}
