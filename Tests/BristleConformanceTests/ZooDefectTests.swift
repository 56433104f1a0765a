import BristleConformance
import Testing

/// Issue 12: every defect class the harness must catch has a zoo switch, and each fails the
/// strict tier in exactly the tests that own its rule, for the right reason (a phrase of the
/// message); the correct variants that the header allows stay conformant.
@Suite struct ZooDefectTests {
    /// One zoo switch: its verdicts other than pass (besides the zoo's usual skips), and for
    /// some tests a phrase their message must contain.
    struct Defect: CustomTestStringConvertible, Sendable {
        var define: String
        var expected: [String: Verdict]
        var phrases: [String: String] = [:]
        var testDescription: String { define }
    }

    static let defects: [Defect] = [
        // 1. Memory used after the hook that received it returned.
        Defect(define: "KEEPS_PIXELS", expected: ZooTests.verdicts(
            crash: ["canvas.memory-after-return"],
            fail: ["lifecycle.cancel-restores", "canvas.dirty-rect", "canvas.premultiplied", "canvas.odd-sizes",
                   "canvas.odd-strides", "params.fuzz", "params.every-value", "input.devices", "input.scale",
                   "input.large-batches", "input.large-canvas", "robustness.extreme-coordinates",
                   "robustness.pressure-extremes", "robustness.long-stroke", "robustness.time-backwards",
                   "robustness.random-strokes", "hygiene.process-state", "hygiene.file-descriptors", "hygiene.threads"]),
               phrases: ["canvas.memory-after-return": "used memory after the hook returned: wrote pixel (0, 0) of the committed pixels (96x64, stride 404) handed to draw(layer=committed",
                         "canvas.dirty-rect": "outside every rectangle the stroke's draws reported"]),
        Defect(define: "KEEPS_SAMPLES", expected: ZooTests.verdicts(
            crash: ["canvas.memory-after-return"], fail: ["robustness.extreme-coordinates"]),
               phrases: ["canvas.memory-after-return": "used memory after the hook returned: read byte 16 of the samples handed to moved(count=3"]),
        Defect(define: "KEEPS_CONTEXT", expected: ZooTests.verdicts(crash: ["canvas.memory-after-return"]),
               phrases: ["canvas.memory-after-return": "used memory after the hook returned: read byte 20 of the stroke context handed to begin("]),
        Defect(define: "KEEPS_DIRTY_LIST", expected: ZooTests.verdicts(crash: ["canvas.memory-after-return"]),
               phrases: ["canvas.memory-after-return": "used memory after the hook returned: wrote byte 4 of the dirty list handed to draw("]),
        Defect(define: "KEEPS_TARGET", expected: ZooTests.verdicts(crash: ["canvas.memory-after-return"]),
               phrases: ["canvas.memory-after-return": "used memory after the hook returned: read byte 24 of the target handed to draw("]),
        // 2. Small overruns. One past the last pixel: the last row's padding is not mapped (96x64),
        // rows end at guard pages (row-guards), and a canvas without padding ends at the page
        // boundary (4096x4096), so neither row padding nor page rounding hides it.
        Defect(define: "PAST_LAST_PIXEL", expected: ZooTests.verdicts(crash: [
            "canvas.guard-pages", "canvas.stride-padding", "canvas.dirty-rect", "canvas.dirty-list", "canvas.inputs-unmodified",
            "canvas.row-guards", "canvas.odd-sizes", "canvas.odd-strides", "canvas.memory-after-return",
            "determinism.render-twice", "determinism.long-session", "params.every-value", "input.devices", "input.scale",
            "input.large-canvas", "hygiene.process-state", "hygiene.file-descriptors", "hygiene.threads"]),
               phrases: ["canvas.guard-pages": "wrote byte 0 past the last pixel of the committed pixels (96x64, stride 404)",
                         "canvas.row-guards": "wrote byte 0 past the last pixel of the committed pixels (96x64, stride 8192), whose rows each end at a guard page",
                         "input.large-canvas": "wrote byte 0 past the last pixel of the committed pixels (4096x4096, stride 16384)"]),
        Defect(define: "LIST_PAST_CAPACITY", expected: ZooTests.verdicts(crash: [
            "lifecycle.many-strokes", "determinism.render-twice", "input.large-batches", "robustness.random-strokes",
            "hygiene.memory-growth"]),
               phrases: ["input.large-batches": "wrote byte 0 past the end of the dirty list's rectangles handed to draw("]),
        Defect(define: "RESTORES_PADDING", expected: ZooTests.verdicts(
            crash: ["canvas.dirty-rect", "canvas.dirty-list", "canvas.inputs-unmodified", "canvas.row-guards", "canvas.odd-sizes",
                    "determinism.render-twice", "determinism.long-session", "input.large-canvas"],
            fail: ["canvas.guard-pages", "canvas.stride-padding", "canvas.odd-strides", "canvas.memory-after-return",
                   "params.fuzz", "params.every-value", "input.devices", "input.scale", "input.large-batches",
                   "robustness.pressure-extremes", "robustness.random-strokes", "hygiene.process-state",
                   "hygiene.file-descriptors", "hygiene.threads"]),
               phrases: ["canvas.stride-padding": "before calling services->fill_disc: padding byte 0 after row",
                         "canvas.row-guards": "read byte 0 of the padding after row"]),
        Defect(define: "OVERREADS_ROW_END", expected: ZooTests.verdicts(crash: [
            "canvas.guard-pages", "canvas.stride-padding", "canvas.dirty-rect", "canvas.dirty-list", "canvas.inputs-unmodified",
            "canvas.row-guards", "canvas.odd-sizes", "canvas.odd-strides", "canvas.memory-after-return",
            "determinism.render-twice", "determinism.long-session", "params.every-value", "input.devices", "input.scale",
            "input.large-canvas", "hygiene.process-state", "hygiene.file-descriptors", "hygiene.threads"]),
               phrases: ["canvas.guard-pages": "read byte 0 past the last pixel of the committed pixels",
                         "canvas.row-guards": "read byte 0 of the padding after row"]),
        Defect(define: "STRIDE_IN_PIXELS", expected: ZooTests.verdicts(fail: ["canvas.odd-strides"]),
               phrases: ["canvas.odd-strides": "stride=385"]),
        // 3. Pixel format.
        Defect(define: "STRAIGHT_ALPHA", expected: ZooTests.verdicts(fail: ["canvas.premultiplied"]),
               phrases: ["canvas.premultiplied": "a colour channel above alpha"]),
        // Wrong only where a translucent colour meets a translucent canvas.
        Defect(define: "MAX_ALPHA", expected: ZooTests.verdicts(fail: ["canvas.premultiplied"]),
               phrases: ["canvas.premultiplied": "a colour channel above alpha: pixels are premultiplied, so R, G, B <= A always (stroke colour (0.9, 0.6, 0.2, 0.35))"]),
        // 4. Input ranges a real host sends.
        Defect(define: "NEEDS_PRESSURE", expected: ZooTests.verdicts(fail: ["input.devices"]),
               phrases: ["input.devices": "moved returned 2 (BRISTLE_UNSUPPORTED) for valid input"]),
        Defect(define: "SCALE_UNCLIPPED", expected: ZooTests.verdicts(fail: ["input.scale"]),
               phrases: ["input.scale": "wrote outside the pixels"]),
        Defect(define: "BATCH_LIMIT", expected: ZooTests.verdicts(fail: ["input.large-batches"]),
               phrases: ["input.large-batches": "moved returned 1 (BRISTLE_FAILED)"]),
        Defect(define: "DIRTY_Y_WRAPS", expected: ZooTests.verdicts(fail: ["input.large-canvas"]),
               phrases: ["input.large-canvas": "4096x4096"]),
        Defect(define: "LATE_NONDETERMINISM", expected: ZooTests.verdicts(fail: ["determinism.long-session"]),
               phrases: ["determinism.long-session": "events into the session) two instances given the same session differ"]),
        Defect(define: "SHAPE_2_UNCLIPPED", expected: ZooTests.verdicts(crash: ["params.every-value"]),
               phrases: ["params.every-value": "wrote byte 0 past the last pixel"]),
        // 5. Process hygiene.
        Defect(define: "LEAKS", expected: ZooTests.verdicts(fail: ["hygiene.memory-growth"]),
               phrases: ["hygiene.memory-growth": "the heap in use (malloc) grew by"]),
        Defect(define: "LEAVES_THREAD", expected: ZooTests.verdicts(fail: ["hygiene.threads"]),
               phrases: ["hygiene.threads": "begin(x=2.0, y=32.0"]),
        Defect(define: "THREAD_IN_INIT", expected: ZooTests.verdicts(fail: ["hygiene.threads"]),
               phrases: ["hygiene.threads": "init must be cheap and start no threads"]),
        Defect(define: "CHANGES_CWD", expected: ZooTests.verdicts(fail: ["hygiene.process-state"]),
               phrases: ["hygiene.process-state": "changed the working directory from"]),
        Defect(define: "BLOCKS_SIGNALS", expected: ZooTests.verdicts(fail: ["hygiene.process-state"]),
               phrases: ["hygiene.process-state": "changed the calling thread's signal mask"]),
        Defect(define: "IGNORES_SIGPIPE", expected: ZooTests.verdicts(fail: ["hygiene.process-state"]),
               phrases: ["hygiene.process-state": "changed the action of signal(s) SIGPIPE"]),
        Defect(define: "INSTALLS_HANDLER", expected: ZooTests.verdicts(fail: ["hygiene.process-state"]),
               phrases: ["hygiene.process-state": "factory->create(\"test.zoo\") changed the action of signal(s) SIGTERM"]),
        Defect(define: "CHANGES_UMASK", expected: ZooTests.verdicts(fail: ["hygiene.process-state"]),
               phrases: ["hygiene.process-state": "changed the umask from"]),
        Defect(define: "SETS_LOCALE", expected: ZooTests.verdicts(fail: ["hygiene.process-state"]),
               phrases: ["hygiene.process-state": "changed the locale from \"C\""]),
        Defect(define: "SETS_ENV", expected: ZooTests.verdicts(fail: ["hygiene.process-state"]),
               phrases: ["hygiene.process-state": "+ZOO_WAS_HERE=1"]),
        // The rounding mode it leaves changes the next run's pixels, so the stride test's two runs
        // differ already and it skips, saying why.
        Defect(define: "CHANGES_FP_MODE", expected: ZooTests.verdicts(fail: ["hygiene.process-state"], skip: ["layout.sample-stride"]),
               phrases: ["hygiene.process-state": "changed the floating-point mode"]),
        Defect(define: "WRITES_STDOUT", expected: ZooTests.verdicts(fail: ["hygiene.file-descriptors"]),
               phrases: ["hygiene.file-descriptors": "to file descriptor 1 (stdout, the host's output)"]),
        Defect(define: "CLOSES_HARNESS_FDS", expected: ZooTests.verdicts(fail: ["hygiene.file-descriptors"]),
               phrases: ["hygiene.file-descriptors": "closed file descriptor 3"]),
        // 6. What the header allows passes.
        Defect(define: "HONEST_RANDOM", expected: ZooTests.verdicts(skip: [
            "lifecycle.cancel-forgets", "semantics.predicted-never-committed", "determinism.render-twice",
            "determinism.batching", "determinism.long-session", "determinism.instances-independent",
            "layout.sample-stride"]),
               phrases: ["lifecycle.cancel-forgets": "the brush does not set DETERMINISTIC",
                         "semantics.predicted-never-committed": "the brush does not set DETERMINISTIC",
                         "determinism.long-session": "the brush does not set DETERMINISTIC",
                         "layout.sample-stride": "the brush does not set DETERMINISTIC"]),
        Defect(define: "PREVIEW_ONLY", expected: ["lifecycle.ticks": .skip, "semantics.predicted-never-committed": .skip],
               phrases: ["lifecycle.first-stroke-paints": "the brush draws into the preview only"]),
        Defect(define: "JOINED_THREAD", expected: ZooTests.zooSkips),
        Defect(define: "OWN_FILE", expected: ZooTests.zooSkips),
    ]

    @Test(arguments: defects)
    func eachDefectFailsStrictForTheRightReason(_ defect: Defect) throws {
        let report = try ZooTests.run(ZooTests.zoo(defect.define))
        let unexpected = report.results.filter { (defect.expected[$0.test] ?? .pass) != $0.verdict }
        #expect(ZooTests.nonPassing(report) == defect.expected,
                "\(unexpected.map { "\($0.test): \($0.verdict) (\($0.message))" })")
        for (test, phrase) in defect.phrases {
            let r = try #require(report.results.first { $0.test == test })
            #expect(r.message.contains(phrase), "\(test): \(r.message)")
        }
        #expect(report.conformant == defect.expected.values.allSatisfy(\.isConformant))
    }

    @Test func aBrokenParameterTableFailsOnceAndTheRestSkips() throws {
        let report = try ZooTests.run(ZooTests.zoo("BROKEN_PARAM_TABLE"))
        let failures = report.results.filter { !$0.verdict.isConformant }
        #expect(failures.map(\.test) == ["params.table"])
        #expect(failures.first?.message.contains("parameter 'size': default 3.0 is outside [9.0, 1.0]") == true)
        let skipped = report.results.filter { $0.verdict == .skip && $0.message.hasSuffix("(failed once, in params.table)") }
        #expect(skipped.count > 30, "every test that needs an instance skips, pointing at params.table")
    }
}
