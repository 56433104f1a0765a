import BristleTestSupport
import Foundation
import Testing

/// `bristle abi --json` is what bindings in other languages test their layouts against, so it
/// is checked against the C compiler itself: a C program generated from the JSON prints
/// `sizeof`, `_Alignof` and `offsetof` of every struct and field and whether each field has the
/// C type the JSON states, compiled against the current header and against the 1.0 and 1.1
/// headers from history (for the per-version sizes). The header is scanned for structs and
/// constants the JSON might have missed, and the fields must tile each struct.
@Suite struct ABICommandTests {
    struct Layout: Decodable {
        struct Version: Decodable { var major, minor, patch: Int }
        struct Field: Decodable { var name: String; var offset, size, align: Int; var type, since: String }
        struct Struct: Decodable {
            var name: String
            var size, align: Int
            var since: String
            var versioned: Bool
            var sizes: [String: Int]
            var fields: [Field]
        }
        struct Constant: Decodable {
            var name, type, since: String
            var number: Int64?
            var string: String?
            enum CodingKeys: String, CodingKey { case name, type, since, value }
            init(from decoder: any Decoder) throws {
                let c = try decoder.container(keyedBy: CodingKeys.self)
                name = try c.decode(String.self, forKey: .name)
                type = try c.decode(String.self, forKey: .type)
                since = try c.decode(String.self, forKey: .since)
                number = try? c.decode(Int64.self, forKey: .value)
                string = number == nil ? try c.decode(String.self, forKey: .value) : nil
            }
        }
        var schema: String
        var abi: Version
        var published: [String]
        var structs: [Struct]
        var constants: [Constant]
    }

    /// The minor of a "1.N" version string.
    static func minor(_ version: String) -> Int { Int(version.split(separator: ".").last ?? "") ?? -1 }

    /// True when a field added in `since` exists in `minor` (nil: this host's minor).
    static func present(_ since: String, in minor: String?) -> Bool {
        minor.map { Self.minor(since) <= Self.minor($0) } ?? true
    }

    static let header = TestEnvironment.packageRoot.appendingPathComponent("include/bristle/bristle.h")

    static func layout() throws -> Layout {
        let r = try ProcessResult.run(TestEnvironment.bristleExecutable.path, ["abi", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        return try JSONDecoder().decode(Layout.self, from: Data(r.stdout.utf8))
    }

    /// Compiles `source` against `include` (C11 for `_Alignof`), runs it, returns its output.
    static func compileAndRun(_ source: String, include: String, label: String) throws -> String {
        let dir = TestEnvironment.scratchDirectory(label)
        let c = dir.appendingPathComponent("dump.c"), exe = dir.appendingPathComponent("dump").path
        try source.write(to: c, atomically: true, encoding: .utf8)
        let build = try ProcessResult.run("/usr/bin/env", ["cc", "-std=c11", "-Wall", "-Wextra", "-Werror",
                                                          "-I", include, c.path, "-o", exe])
        guard build.status == 0 else { throw CCompiler.Failure(description: build.stderr) }
        let run = try ProcessResult.run(exe, [])
        guard run.status == 0 else { throw CCompiler.Failure(description: "\(exe) failed: \(run.stderr)") }
        return run.stdout
    }

    /// A C program printing, for each struct (and field) of `layout` present in `minor`, one line
    /// `name size align` (`name.field offset size align typeok`), then each numeric constant.
    static func dumpProgram(_ layout: Layout, minor: String?, constants: Bool) -> String {
        var body = ""
        for s in layout.structs where minor.map({ s.sizes[$0] != nil }) ?? true {
            body += "    printf(\"\(s.name) %zu %zu\\n\", sizeof(\(s.name)), _Alignof(\(s.name)));\n"
            for f in s.fields where present(f.since, in: minor) {
                let member = "((\(s.name) *)0)->\(f.name)"
                body += "    printf(\"\(s.name).\(f.name) %zu %zu %zu %d\\n\", offsetof(\(s.name), \(f.name)), "
                    + "sizeof(\(member)), _Alignof(__typeof__(\(member))), "
                    + "__builtin_types_compatible_p(__typeof__(\(member)), \(f.type)));\n"
            }
        }
        if constants {
            for c in layout.constants {
                body += c.number != nil ? "    printf(\"\(c.name) %lld\\n\", (long long)\(c.name));\n"
                    : "    printf(\"\(c.name) %s\\n\", \(c.name));\n"
            }
        }
        return "#include <bristle/bristle.h>\n#include <stdio.h>\nint main(void) {\n\(body)    return 0;\n}\n"
    }

    /// What the JSON says the program above must print for `minor` (nil: this host's).
    static func expectedDump(_ layout: Layout, minor: String?, constants: Bool) -> [String] {
        var lines: [String] = []
        for s in layout.structs {
            let size: Int
            if let minor { guard let sized = s.sizes[minor] else { continue }; size = sized } else { size = s.size }
            lines.append("\(s.name) \(size) \(s.align)")
            for f in s.fields where present(f.since, in: minor) {
                lines.append("\(s.name).\(f.name) \(f.offset) \(f.size) \(f.align) 1")
            }
        }
        if constants {
            lines += layout.constants.map { "\($0.name) \($0.number.map(String.init) ?? $0.string ?? "")" }
        }
        return lines
    }

    @Test func theJSONMatchesWhatTheCompilerSees() throws {
        let layout = try Self.layout()
        #expect(layout.schema == "bristle-abi/1")
        #expect(layout.abi.major == 1 && layout.abi.minor == 2 && layout.abi.patch == 0)
        #expect(layout.published == ["1.0", "1.1", "1.2"])
        let include = TestEnvironment.packageRoot.appendingPathComponent("include").path
        let printed = try Self.compileAndRun(Self.dumpProgram(layout, minor: nil, constants: true),
                                             include: include, label: "abi-dump")
        let lines = printed.split(separator: "\n").map(String.init)
        let expected = Self.expectedDump(layout, minor: nil, constants: true)
        #expect(lines.count == expected.count)
        for (got, want) in zip(lines, expected) where got != want {
            Issue.record("the compiler says '\(got)', bristle abi --json says '\(want)'")
        }
    }

    /// `sizes` of 1.0 and 1.1 are the sizes the headers of those versions (fixtures copied from
    /// git history) give, and the fields those versions had sit at the same offsets.
    @Test(arguments: ["1.0", "1.1"])
    func publishedSizesMatchTheOldHeaders(minor: String) throws {
        let layout = try Self.layout()
        let include = TestEnvironment.fixture("abi/headers/\(minor)").path
        let printed = try Self.compileAndRun(Self.dumpProgram(layout, minor: minor, constants: false),
                                             include: include, label: "abi-dump-\(minor)")
        let lines = printed.split(separator: "\n").map(String.init)
        let expected = Self.expectedDump(layout, minor: minor, constants: false)
        #expect(lines == expected)
        #expect(lines.count > 20, "the \(minor) header has the structs of \(minor)")
    }

    /// Nothing in the header is missing from the JSON: every struct, every constant, and fields
    /// that tile each struct (each at the next offset its alignment allows, the size rounded up
    /// to the struct's alignment), so a field left out would leave a hole.
    @Test func theJSONListsEveryStructFieldAndConstant() throws {
        let layout = try Self.layout()
        let text = try String(contentsOf: Self.header, encoding: .utf8)
        let structs = Set(text.matches(of: #/(?m)^(?:typedef )?struct (bristle_[a-z_]+) \{/#).map { String($0.1) + "_t" })
        #expect(structs == Set(layout.structs.map(\.name)))
        let constants = Set(text.matches(of: #/(?m)^#define (BRISTLE_[A-Z0-9_]+) (?:\(\(|")/#).map { String($0.1) })
        #expect(constants == Set(layout.constants.map(\.name)))
        func roundUp(_ n: Int, _ a: Int) -> Int { (n + a - 1) / a * a }
        for s in layout.structs {
            var end = 0
            for f in s.fields {
                #expect(f.offset == roundUp(end, f.align), "\(s.name).\(f.name) at \(f.offset), expected \(roundUp(end, f.align))")
                end = f.offset + f.size
            }
            #expect(s.size == roundUp(end, s.align), "\(s.name)")
            #expect(s.versioned == (s.fields.first?.name == "struct_size"))
            #expect(s.sizes[layout.published.last!] == s.size)
        }
    }

    @Test func theTextFormShowsTheSameLayout() throws {
        let r = try ProcessResult.run(TestEnvironment.bristleExecutable.path, ["abi"])
        #expect(r.status == 0)
        #expect(r.stdout.hasPrefix("Bristle ABI 1.2.0 (published minors: 1.0, 1.1, 1.2)"))
        #expect(r.stdout.contains("bristle_entry_t: size 56, align 8, since 1.0, versioned; size in 1.0: 40, 1.1: 40, 1.2: 56"))
        #expect(r.stdout.contains("    56   8  dirty_list    bristle_dirty_list_t *  (since 1.2)"))
    }
}
