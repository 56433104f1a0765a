import BristleHost
import BristleTestSupport
import Foundation
import Testing

/// Every loader failure is a typed error that names the file, says what failed and gives a fix.
/// The broken plugins are built with plain `cc` from Tests/Fixtures/brushes/broken.c.
@Suite struct PluginLoaderTests {
    private func expectError(_ defines: [String], _ check: (PluginLoadError, String) -> Bool,
                             sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let path = try CCompiler.buildFixture("broken", defines: defines)
        do {
            _ = try PluginLoader.load(path: path)
            Issue.record("loading \(defines) should fail", sourceLocation: sourceLocation)
        } catch {
            #expect(error.path.hasSuffix("libbroken.so"), sourceLocation: sourceLocation)
            #expect(error.description.contains("libbroken.so"), sourceLocation: sourceLocation)
            #expect(!error.hint.isEmpty, sourceLocation: sourceLocation)
            #expect(check(error, error.description), "\(error)", sourceLocation: sourceLocation)
        }
    }

    @Test func validLibraryLoadsWithItsDescriptor() throws {
        let path = try CCompiler.buildFixture("broken")
        let library = try PluginLoader.load(path: path)
        #expect(library.descriptors.map(\.id) == ["test.broken"])
        #expect(library.descriptors[0].capabilities.contains(.continuous))
        #expect(library.descriptors[0].name == "Broken")
        // Loading again returns the same library object (init ran once, never unloaded).
        #expect(try PluginLoader.load(path: path) === library)
    }

    @Test func missingFile() {
        #expect {
            _ = try PluginLoader.load(path: "/nonexistent/libnothing.so")
        } throws: { error in
            let e = error as! PluginLoadError
            return e == .fileNotFound(path: "/nonexistent/libnothing.so")
                && e.description.contains("/nonexistent/libnothing.so")
                && e.hint.contains("bristle list")
        }
    }

    @Test func textFileIsNotASharedObject() throws {
        let dir = TestEnvironment.scratchDirectory("text")
        let path = dir.appendingPathComponent("libtext.so").path
        try "not a library\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect {
            _ = try PluginLoader.load(path: path)
        } throws: { error in
            guard case .notSharedObject(_, let reason) = error as! PluginLoadError else { return false }
            return reason.contains("no ELF header") && (error as! PluginLoadError).hint.contains("-shared")
        }
    }

    @Test func objectFileIsNotASharedObject() throws {
        let dir = TestEnvironment.scratchDirectory("object")
        let path = try CCompiler.build(TestEnvironment.fixture("brushes/broken.c").path,
                                       output: dir.appendingPathComponent("broken.o").path, shared: false)
        #expect {
            _ = try PluginLoader.load(path: path)
        } throws: { error in
            guard case .notSharedObject(_, let reason) = error as! PluginLoadError else { return false }
            return reason.contains("relocatable object")
        }
    }

    @Test(.enabled(if: ELFMachine.isX86_64)) func wrongArchitectureIsNamed() throws {
        let path = try CCompiler.buildFixture("broken")
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        bytes[18] = 183  // e_machine = EM_AARCH64
        bytes[19] = 0
        let patched = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("libarm.so").path
        try Data(bytes).write(to: URL(fileURLWithPath: patched))
        #expect {
            _ = try PluginLoader.load(path: patched)
        } throws: { error in
            guard case .wrongArchitecture(_, let found, let expected) = error as! PluginLoadError else { return false }
            return found == "aarch64" && expected == "x86-64"
        }
    }

    @Test func missingDependencyIsReportedByName() throws {
        let dir = TestEnvironment.scratchDirectory("dep")
        let helper = dir.appendingPathComponent("libbristlehelper.so").path
        let helperSource = dir.appendingPathComponent("helper.c").path
        try "int bristle_test_helper(void) { return 1; }\n".write(toFile: helperSource, atomically: true, encoding: .utf8)
        try CCompiler.build(helperSource, output: helper)
        let plugin = dir.appendingPathComponent("libneedy.so").path
        try CCompiler.build(TestEnvironment.fixture("brushes/broken.c").path, output: plugin,
                            extra: ["-L", dir.path, "-Wl,--no-as-needed", "-lbristlehelper"])
        try FileManager.default.removeItem(atPath: helper)
        #expect {
            _ = try PluginLoader.load(path: plugin)
        } throws: { error in
            guard case .loadFailed(_, let reason) = error as! PluginLoadError else { return false }
            return reason.contains("libbristlehelper.so")
        }
    }

    @Test func noEntrySymbol() throws {
        try expectError(["-DNO_ENTRY"]) { e, text in
            e == .missingEntry(path: e.path) && text.contains("bristle_entry_v1") && e.hint.contains("public")
        }
    }

    @Test func entryReturnsNull() throws {
        try expectError(["-DNULL_ENTRY"]) { e, text in
            e == .entryReturnedNull(path: e.path) && text.contains("returned NULL")
        }
    }

    @Test func incompatibleMajorNamesBothVersions() throws {
        try expectError(["-DABI_MAJOR=2"]) { e, text in
            guard case .incompatibleABI = e else { return false }
            return text.contains("2.0.0") && text.contains(PluginLoader.hostABIVersion)
        }
    }

    @Test func initFailure() throws {
        try expectError(["-DINIT_FAILS"]) { e, text in
            e == .initFailed(path: e.path) && text.contains("init() returned false")
        }
    }

    @Test func missingFactory() throws {
        try expectError(["-DNO_FACTORY"]) { e, text in
            guard case .malformed(_, let field, _) = e else { return false }
            return field == "entry.get_factory" && text.contains("bristle.brush-factory/1")
        }
    }

    @Test func descriptorWithNullNameSaysWhichField() throws {
        try expectError(["-DNULL_NAME"]) { e, text in
            guard case .malformed(_, let field, let reason) = e else { return false }
            return field == "descriptor[0].name" && reason.contains("NULL") && text.contains("descriptor[0].name")
        }
    }

    @Test func descriptorIdWithSpace() throws {
        try expectError(["-DSPACE_IN_ID"]) { e, _ in
            guard case .malformed(_, let field, let reason) = e else { return false }
            return field == "descriptor[0].id" && reason.contains("space")
        }
    }

    @Test func duplicateIds() throws {
        try expectError(["-DDUPLICATE_ID"]) { e, text in
            e == .duplicateID(path: e.path, id: "test.broken") && text.contains("test.broken")
        }
    }

    @Test func instanceWithoutDrawIsRefused() throws {
        let library = try PluginLoader.load(path: try CCompiler.buildFixture("broken", defines: ["-DNULL_DRAW"]))
        #expect {
            _ = try Brush(id: "test.broken", library: library, host: BrushHost())
        } throws: { error in
            guard case .malformedInstance(_, _, let field, let reason) = error as! BrushError else { return false }
            return field == "draw" && reason == "is NULL"
        }
    }

    @Test func parameterRangeBeyondWholeNumbersIsRefusedNotATrap() throws {
        let library = try PluginLoader.load(path: try CCompiler.buildFixture("broken", defines: ["-DBAD_PARAM_RANGE"]))
        #expect {
            _ = try Brush(id: "test.broken", library: library, host: BrushHost())
        } throws: { error in
            guard case .malformedInstance(_, _, let field, let reason) = error as! BrushError else { return false }
            return field == "parameter" && reason.contains("'n'") && reason.contains("2^53")
        }
    }

    @Test func createWithUnknownIdIsAnError() throws {
        let library = try PluginLoader.load(path: try CCompiler.buildFixture("broken"))
        #expect(throws: BrushError.unknownBrush(id: "test.broken2", searched: [library.path], nearest: ["test.broken"])) {
            _ = try Brush(id: "test.broken2", library: library, host: BrushHost())
        }
    }

    @Test func catalogReportsClashesAndProblems() throws {
        let first = TestEnvironment.scratchDirectory("first"), second = TestEnvironment.scratchDirectory("second")
        let source = TestEnvironment.fixture("brushes/broken.c").path
        try CCompiler.build(source, output: first.appendingPathComponent("liba.so").path)
        try CCompiler.build(source, output: second.appendingPathComponent("libb.so").path)
        try CCompiler.build(source, output: second.appendingPathComponent("libc.so").path, defines: ["-DINIT_FAILS"])
        let catalog = PluginCatalog(directories: [first.path, second.path, "/nonexistent-dir"])
        #expect(catalog.brushes.map(\.id) == ["test.broken"])
        #expect(catalog.descriptor(id: "test.broken")?.libraryPath.hasSuffix("/liba.so") == true)
        #expect(catalog.clashes.count == 1)
        #expect(catalog.clashes.first?.loser.hasSuffix("libb.so") == true)
        #expect(catalog.problems.count == 1)
        #expect(catalog.problems.first?.error == .initFailed(path: catalog.problems.first!.error.path))
    }

    @Test func searchPathOrder() {
        let dirs = PluginSearchPath.directories(environment: ["BRISTLE_PATH": "/a::/b", "HOME": "/home/u"],
                                                executableDirectory: "/opt/bristle/bin")
        #expect(dirs == ["/a", "/b", "/opt/bristle/bin", "/opt/bristle/lib/bristle/plugins",
                         "/home/u/.local/lib/bristle/plugins", "/usr/local/lib/bristle/plugins",
                         "/usr/lib/bristle/plugins"])
    }

    @Test func referencePencilExportsOnlyItsEntry() throws {
        let result = try ProcessResult.run("/usr/bin/env", ["nm", "-D", "--defined-only", TestEnvironment.plugin("BristlePencil")])
        #expect(result.status == 0)
        let symbols = result.stdout.split(separator: "\n").compactMap { $0.split(separator: " ").last.map(String.init) }
        #expect(symbols == ["bristle_entry_v1"], "\(symbols)")
    }
}

enum ELFMachine {
    static var isX86_64: Bool {
        #if arch(x86_64)
        return true
        #else
        return false
        #endif
    }
}
