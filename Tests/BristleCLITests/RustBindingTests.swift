import BristleHost
import BristleTestSupport
import Foundation
import Testing

/// The Rust bindings under bindings/rust, through their own `cargo test`: bristle-sys's
/// layout tests against this host's `bristle abi --json` (and a drifted copy of it, which
/// must fail them), and the safe `bristle` crate's tests of its C boundary.
@Suite struct RustBindingTests {
    private static let bindings = TestEnvironment.packageRoot.appendingPathComponent("bindings/rust")

    /// `bristle abi --json` of the host under test, in a scratch file; `edit` may change the
    /// parsed struct list first.
    private func abiJSON(edit: (inout [[String: Any]]) -> Void = { _ in }) throws -> String {
        let r = try ProcessResult.run(TestEnvironment.bristleExecutable.path, ["abi", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        var json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        var structs = try #require(json["structs"] as? [[String: Any]])
        edit(&structs)
        json["structs"] = structs
        let file = TestEnvironment.scratchDirectory("abi-json").appendingPathComponent("abi.json")
        try JSONSerialization.data(withJSONObject: json).write(to: file)
        return file.path
    }

    @Test(.enabled(if: Cargo.isAvailable, "cargo is not installed (scripts/ensure-deps.sh installs Debian's cargo and rustc)"))
    func bristleSysMatchesTheHostsLayout() throws {
        let r = try Cargo.run(["test"], in: Self.bindings.appendingPathComponent("bristle-sys"),
                              environment: ["BRISTLE_ABI_JSON": try abiJSON()])
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        for test in ["every_struct_has_the_hosts_layout", "every_constant_has_the_hosts_value",
                     "every_typedef_has_the_hosts_size", "version_matches_the_host", "helpers_follow_the_header"] {
            #expect(r.stdout.contains("test \(test) ... ok"), "\(test) ran: \(r.stdout)")
        }
    }

    /// A host whose sample grew by 8 bytes and whose target moved a field: the layout test
    /// must fail and name both.
    @Test(.enabled(if: Cargo.isAvailable, "cargo is not installed (scripts/ensure-deps.sh installs Debian's cargo and rustc)"))
    func aLayoutDriftFailsTheLayoutTests() throws {
        let drifted = try abiJSON { structs in
            for i in structs.indices {
                if structs[i]["name"] as? String == "bristle_sample_t" { structs[i]["size"] = 96 }
                guard structs[i]["name"] as? String == "bristle_target_t", var fields = structs[i]["fields"] as? [[String: Any]] else { continue }
                for j in fields.indices where fields[j]["name"] as? String == "dirty_list" { fields[j]["offset"] = 64 }
                structs[i]["fields"] = fields
            }
        }
        let r = try Cargo.run(["test", "--test", "layout"], in: Self.bindings.appendingPathComponent("bristle-sys"),
                              environment: ["BRISTLE_ABI_JSON": drifted])
        #expect(r.status != 0, "a drift must fail: \(r.stdout)")
        let out = r.stdout + r.stderr
        #expect(out.contains("bristle_sample_t: size 88 in Rust, 96 in C"), "\(out)")
        #expect(out.contains("bristle_target_t.dirty_list: offset 56 size 8 in Rust, offset 64 size 8 in C"), "\(out)")
    }

    @Test(.enabled(if: Cargo.isAvailable, "cargo is not installed (scripts/ensure-deps.sh installs Debian's cargo and rustc)"))
    func theSafeLayerKeepsItsPromisesAtTheCBoundary() throws {
        let r = try Cargo.run(["test"], in: Self.bindings.appendingPathComponent("bristle"))
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        for test in ["hooks_follow_the_stride_rule_and_report_dirty_rectangles", "a_panic_becomes_failed_and_a_log_line",
                     "parameters_are_checked_clamped_and_refused_during_a_stroke"] {
            #expect(r.stdout.contains("test \(test) ... ok"), "\(test) ran: \(r.stdout)")
        }
    }
}
