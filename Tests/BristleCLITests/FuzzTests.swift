import BristleHost
import BristleTestSupport
import Foundation
import Testing

/// The short fuzzing run of CI (docs/FUZZING.md): `bristle-fuzz` over every input format for
/// 40 seconds, seeded from `Tests/` and `Examples/`. It fails on a crash (the process dies), a
/// hang (a run over the time limit) or a broken promise (a clobbered output or input, a stray
/// temporary file).
@Suite struct FuzzTests {
    static let root = TestEnvironment.packageRoot.path
    static var fuzzer: String { TestEnvironment.productsDirectory.appendingPathComponent("bristle-fuzz").path }

    private func fuzz(_ args: [String]) throws -> ProcessResult {
        try ProcessResult.run("/usr/bin/timeout", ["120", Self.fuzzer] + args + ["--seeds", Self.root + "/Tests", "--seeds", Self.root + "/Examples"],
                              environment: ["BRISTLE_PATH": TestEnvironment.productsDirectory.path])
    }

    @Test func aShortRunOverEveryFormatFindsNothing() throws {
        let work = TestEnvironment.scratchDirectory("fuzz").path
        // The per-run limit catches hangs (a run that never ends), not slow debug code: the
        // debug build composites 100 to 200 times slower than the release build (its generic
        // SIMD conversions are not specialised), and one input of this seed's sequence (the
        // pencil compositing the whole fitted canvas at every event) took 20.2 s in the debug
        // build and 0.13 s in release. 60 s, with the 40 s budget, stays inside the 120 s.
        let r = try fuzz(["--seconds", "40", "--timeout", "60", "--seed", "15", "--work", work])
        #expect(r.status == 0, "status \(r.status)\nstdout: \(r.stdout)\nstderr: \(r.stderr)\ninput: \(work)/last-input")
        for format in ["native", "inkml", "pointer-arrays", "pointer-points", "wacom-csv", "quickdraw", "svc"] {
            #expect(r.stdout.contains("bristle-fuzz: \(format): "), "\(format) ran: \(r.stdout)")
        }
        #expect(r.stdout.contains("no crash, no hang, no broken promise"), "\(r.stdout)")
    }

    @Test func aRunOverTheTimeLimitIsAHangWithItsInputKept() throws {
        // A work folder whose parents do not exist yet (as scripts/fuzz.sh's on a fresh clone).
        let work = TestEnvironment.scratchDirectory("fuzz-hang").path + "/not/yet/there"
        let r = try fuzz(["--format", "native", "--seconds", "20", "--timeout", "0.001", "--work", work])
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.contains("bristle-fuzz: hang: a run of native took more than 0.001 s"), "\(r.stderr)")
        #expect(FileManager.default.fileExists(atPath: work + "/hang-native"))
    }

    /// `scripts/fuzz.sh` on a fresh clone asks for `.build/fuzz-corpus/seeds`, whose parents do
    /// not exist yet: the seeds and the dictionary must still be written.
    @Test func seedsAreWrittenIntoAFolderWhoseParentsDoNotExist() throws {
        let folder = TestEnvironment.scratchDirectory("fuzz-seeds").path + "/not/yet/there"
        let r = try fuzz(["--write-seeds", folder])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder + "/bristle.dict"))
        for format in ["native", "inkml", "pointer-arrays", "pointer-points", "wacom-csv", "quickdraw", "svc"] {
            let seeds = (try? FileManager.default.contentsOfDirectory(atPath: folder + "/" + format)) ?? []
            #expect(!seeds.isEmpty, "no seeds for \(format)")
        }
    }

    @Test func anUnknownFormatIsAUsageError() throws {
        let r = try fuzz(["--format", "postscript"])
        #expect(r.status == 64)
        #expect(r.stderr.contains("native|inkml|pointer-arrays|pointer-points|wacom-csv"), "\(r.stderr)")
    }
}
