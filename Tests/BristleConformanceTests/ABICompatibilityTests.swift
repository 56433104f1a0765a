import BristleConformance
import BristleHost
import BristleTestSupport
import Foundation
import Testing

/// Plugins of every ABI minor run on this 1.2 host, and wrong layouts are named in plain words.
///
/// `Tests/Fixtures/brushes/versioned.c` is one brush built with plain `cc` against the 1.0 and
/// 1.1 headers from history (`Tests/Fixtures/abi/headers/`), the current header (its "1.2
/// twin") and a made-up "future 1.9" header whose sample, paint, descriptor, brush, target,
/// services and entry have grown. `mirror.c` mirrors the header's structs by hand, as a binding
/// does, with one mirror broken per switch; the zoo's INDEXES_BY_SIZEOF breaks the stride rule.
@Suite struct ABICompatibilityTests {
    static let hello = TestEnvironment.packageRoot.appendingPathComponent("Examples/strokes/hello.json").path

    /// versioned.c built against the header of `version` ("1.2" is the current one).
    static func versioned(_ version: String, defines: [String] = []) throws -> String {
        let include = version == "1.2" ? CCompiler.includeDirectory : TestEnvironment.fixture("abi/headers/\(version)").path
        return try CCompiler.buildFixture("versioned", defines: defines, fileName: "libversioned-\(version).so",
                                          include: include)
    }

    /// Runs `bristle render hello.json` through the plugin file.
    static func render(_ plugin: String) throws -> (ProcessResult, String) {
        let out = TestEnvironment.scratchDirectory("versioned-render").appendingPathComponent("out.png").path
        let r = try ProcessResult.run(TestEnvironment.bristleExecutable.path,
                                      ["render", hello, "-o", out, "--brush", plugin],
                                      environment: ["BRISTLE_PATH": nil])
        return (r, out)
    }

    /// Verdicts every run of versioned.c gives besides pass: it has no ticks, no predictions
    /// and no parameters, and is continuous.
    static let versionedSkips: [String: Verdict] = [
        "lifecycle.ticks": .skip, "semantics.commit-after-ended": .skip, "semantics.predicted-never-committed": .skip,
        "params.defaults": .skip, "params.round-trip": .skip, "params.bad-state": .skip, "params.fuzz": .skip,
    ]

    @Test(arguments: ["1.0", "1.1"])
    func pluginsBuiltAgainstOldHeadersPassStrict(version: String) throws {
        let report = try ZooTests.run(Self.versioned(version), timeout: 30)
        var expected = Self.versionedSkips
        expected["layout.sample-stride"] = .skip
        #expect(ZooTests.nonPassing(report) == expected, "\(report.results.filter { $0.verdict != .pass }.map(\.message))")
        #expect(report.results.first { $0.test == "layout.sample-stride" }?.message
            .contains("declares ABI \(version): hosts pass it samples of exactly its own size") == true)
        #expect(report.conformant)
    }

    @Test func aFuturePluginThatFollowsTheRulesPassesStrict() throws {
        let report = try ZooTests.run(Self.versioned("1.9"), timeout: 30)
        var expected = Self.versionedSkips
        expected["layout.sample-stride"] = .skip
        #expect(ZooTests.nonPassing(report) == expected, "\(report.results.filter { $0.verdict != .pass }.map(\.message))")
        #expect(report.conformant)
    }

    /// The old plugins and the future one draw exactly what the 1.2 twin draws, through a script
    /// with coalesced samples (so a misread stride would show); a future plugin that indexes
    /// by its own sizeof does not.
    @Test func everyMinorDrawsWhatTheTwinDraws() throws {
        let (twin, twinPNG) = try Self.render(Self.versioned("1.2"))
        #expect(twin.status == 0, "\(twin.stderr)")
        let reference = try PNGCodec.read(path: twinPNG)
        for version in ["1.0", "1.1", "1.9"] {
            let (r, png) = try Self.render(Self.versioned(version))
            #expect(r.status == 0, "\(version): \(r.stderr)")
            #expect(try PNGCodec.read(path: png).pixels == reference.pixels, "the \(version) build draws differently")
        }
        let broken = try Self.versioned("1.9", defines: ["-DINDEX_BY_SIZEOF"])
        let (r, png) = try Self.render(broken)
        #expect(r.status == 0)
        #expect(try PNGCodec.read(path: png).pixels != reference.pixels, "indexing by sizeof must misread the samples")
    }

    @Test func aPluginNeedingANewerHostIsRefusedAtLoad() throws {
        let plugin = try Self.versioned("1.9", defines: ["-DHOST_ABI_MIN_MINOR=9"])
        let (r, png) = try Self.render(plugin)
        #expect(r.status == 69)
        #expect(r.stderr.contains("plugin needs ABI 1.9, this host provides 1.2"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: png))
        let report = try ZooTests.run(plugin, tier: .basic)
        let load = try #require(report.results.first { $0.test == "library.load" })
        #expect(load.verdict == .fail && load.message.contains("plugin needs ABI 1.9, this host provides 1.2"))
        #expect(!report.conformant)
        // host_abi_min 1.2 is this host: accepted.
        let (ok, _) = try Self.render(Self.versioned("1.9", defines: ["-DHOST_ABI_MIN_MINOR=2"]))
        #expect(ok.status == 0, "\(ok.stderr)")
    }

    static func mirror(_ define: String?) throws -> String {
        try CCompiler.buildFixture("mirror", defines: define.map { ["-D\($0)"] } ?? [],
                                   fileName: "libmirror-\(define ?? "ok").so")
    }

    @Test func aCorrectHandMirroredBrushIsConformantAtStrict() throws {
        let report = try ZooTests.run(Self.mirror(nil), timeout: 30)
        #expect(ZooTests.nonPassing(report) == Self.versionedSkips)
        #expect(report.conformant)
    }

    /// A paint mirror without `opacity` renders blank; conform names the struct, the size seen,
    /// every published size and the likely cause.
    @Test func aMirroredStructWithAFieldMissingIsNamed() throws {
        let report = try ZooTests.run(Self.mirror("PAINT_WITHOUT_OPACITY"), tier: .standard)
        let layout = try #require(report.results.first { $0.test == "layout.service-structs" })
        #expect(layout.verdict == .fail)
        #expect(layout.message.contains("the bristle_paint_t the brush passed to fill_segment: its struct_size is 24, "
                                        + "which matches no published size of bristle_paint_t (28 in 1.0, 28 in 1.1, "
                                        + "28 in 1.2); the plugin's mirrored bristle_paint_t is likely wrong: compare it "
                                        + "field by field with `bristle abi`"), "\(layout.message)")
        #expect(ZooTests.nonPassing(report)["lifecycle.first-stroke-paints"] == .fail, "it does render blank")
    }

    @Test func aMirroredStructWithAFieldTooManyIsNamed() throws {
        let report = try ZooTests.run(Self.mirror("SEGMENT_WITH_EXTRA_FIELD"))
        var expected = Self.versionedSkips
        expected["layout.service-structs"] = .fail
        #expect(ZooTests.nonPassing(report) == expected)
        let layout = try #require(report.results.first { $0.test == "layout.service-structs" })
        #expect(layout.message.contains("its struct_size is 64, which matches no published size of bristle_segment_t "
                                        + "(56 in 1.0, 56 in 1.1, 56 in 1.2)"), "\(layout.message)")
    }

    @Test func aDescriptorMirrorWithAFieldMissingIsRefusedInPlainWords() throws {
        let plugin = try Self.mirror("DESCRIPTOR_WITHOUT_TAGS")
        let report = try ZooTests.run(plugin, tier: .basic)
        let load = try #require(report.results.first { $0.test == "library.load" })
        #expect(load.verdict == .fail)
        #expect(load.message.contains("malformed descriptor[0]: its struct_size is 64, smaller than every published "
                                      + "size of bristle_descriptor_t (72 in 1.0, 72 in 1.1, 72 in 1.2); the plugin's "
                                      + "mirrored bristle_descriptor_t is likely wrong"), "\(load.message)")
        let (r, _) = try Self.render(plugin)
        #expect(r.status == 69 && r.stderr.contains("mirrored bristle_descriptor_t"))
    }

    /// The zoo brush that indexes samples by its own sizeof fails exactly the stride test, and
    /// the message says what to do.
    @Test func indexingSamplesBySizeofIsCaught() throws {
        let report = try ZooTests.run(ZooTests.zoo("INDEXES_BY_SIZEOF"))
        #expect(ZooTests.nonPassing(report) == ZooTests.zooSkips.merging(["layout.sample-stride": .fail]) { a, _ in a })
        let stride = try #require(report.results.first { $0.test == "layout.sample-stride" })
        #expect(stride.message.contains("with samples of struct_size 112 (24 bytes more than bristle_sample_t in ABI 1.2, "
                                        + "88 bytes"), "\(stride.message)")
        #expect(stride.message.contains("steps through the samples of moved/predicted by its own sizeof instead of by "
                                        + "struct_size. Read them with bristle_sample_at(samples, i)"))
    }

    /// Dirty lists (ABI 1.2): the zoo brush reporting its blocks through bristle_dirty_add is
    /// conformant; listing them one pixel too narrow is caught like an under-reported *dirty;
    /// a *dirty that does not contain the list is caught by canvas.dirty-list.
    @Test func aCorrectDirtyListIsConformant() throws {
        let report = try ZooTests.run(ZooTests.zoo("LISTS_DIRTY"))
        #expect(ZooTests.nonPassing(report) == ZooTests.zooSkips)
    }

    @Test func aDirtyListMissingChangedPixelsFails() throws {
        let report = try ZooTests.run(ZooTests.zoo("LIST_TOO_SMALL"))
        #expect(ZooTests.nonPassing(report) == ZooTests.zooSkips.merging([
            "lifecycle.cancel-restores": .fail, "canvas.dirty-rect": .fail, "canvas.odd-sizes": .fail,
            "params.fuzz": .fail, "robustness.extreme-coordinates": .fail, "robustness.pressure-extremes": .fail,
            "robustness.long-stroke": .fail, "robustness.time-backwards": .fail, "robustness.random-strokes": .fail,
        ]) { a, _ in a })
        let dirty = try #require(report.results.first { $0.test == "canvas.dirty-rect" })
        #expect(dirty.message.contains("outside every rectangle it listed in target->dirty_list"), "\(dirty.message)")
    }

    @Test func aDirtyRectangleNotContainingTheListFails() throws {
        let report = try ZooTests.run(ZooTests.zoo("LIST_OUTSIDE_DIRTY"))
        #expect(ZooTests.nonPassing(report) == ZooTests.zooSkips.merging([
            "canvas.dirty-list": .fail, "canvas.odd-sizes": .fail, "params.fuzz": .fail,
            "robustness.extreme-coordinates": .fail, "robustness.pressure-extremes": .fail,
            "robustness.long-stroke": .fail, "robustness.time-backwards": .fail, "robustness.random-strokes": .fail,
        ]) { a, _ in a })
        let list = try #require(report.results.first { $0.test == "canvas.dirty-list" })
        #expect(list.message.contains("in target->dirty_list, but its *dirty") && list.message.contains("does not contain it"),
                "\(list.message)")
    }
}
