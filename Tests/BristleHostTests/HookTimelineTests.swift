@testable import BristleHost
import BristleTestSupport
import Foundation
import Testing

/// The hook timeline behind `--trace` and `--stats`: it records without changing a pixel,
/// and its per-hook numbers add up.
@Suite struct HookTimelineTests {
    private func render(_ options: RenderOptions, brush: String = "org.bristle.marker") throws -> (pixels: [UInt8], renderer: ScriptRenderer) {
        var o = options
        o.searchDirectories = [TestEnvironment.productsDirectory.path]
        let renderer = ScriptRenderer(options: o)
        let text = StandardSheet.script(brush: .init(idOrPath: brush))
        let script = try StrokeScriptReader.parse(text, sourcePath: "sheet.json")
        return (try renderer.render(script).flattenedPixels(transparent: false), renderer)
    }

    @Test func recordingChangesNoPixelAndCountsEveryCall() throws {
        let plain = try render(RenderOptions())
        #expect(plain.renderer.timeline == nil)
        var options = RenderOptions()
        options.recordHooks = true
        options.countChangedPixels = true
        let recorded = try render(options)
        #expect(recorded.pixels == plain.pixels)
        let timeline = try #require(recorded.renderer.timeline)
        let stats = HookStatistics(timeline)
        func row(_ hook: String) -> HookStatistics.Row? { stats.rows.first { $0.hook == hook } }
        // One begin per stroke of the sheet, cancelled or not; one ended per finished stroke.
        let strokes = StandardSheet.script(brush: .init(idOrPath: "x")).components(separatedBy: "\"stroke\"").count - 1
        #expect(row("begin")?.calls == strokes)
        #expect(row("ended")?.calls == strokes - 1)
        #expect(row("cancelled")?.calls == 1)
        #expect(row("moved")?.samplesPerCall ?? 0 > 1, "coalesced samples arrive together")
        let draw = try #require(row("draw (committed)"))
        #expect(draw.calls == timeline.calls.filter { $0.name == "draw" && $0.layer == "committed" }.count)
        #expect((draw.changedPixels ?? 0) > 0 && draw.changedPixels! <= draw.reportedPixels)
        #expect(draw.p50Microseconds <= draw.p99Microseconds && draw.p99Microseconds <= draw.maxMicroseconds)
        #expect(stats.rows.contains { $0.hook.hasPrefix("services.") })
        #expect(stats.table.split(separator: "\n").count == stats.rows.count + 1)
    }

    /// The changed pixels of the pencil's standard sheet, as the audit counted them when it
    /// kept a full shadow copy of each layer (before 2026-11-28): each layer's draws compared
    /// with the other layer (a preview draw with committed, a committed draw with the preview)
    /// count the same.
    @Test func changedPixelsMatchTheFullShadowCount() throws {
        var options = RenderOptions()
        options.recordHooks = true
        options.countChangedPixels = true
        let rows = HookStatistics(try #require(try render(options, brush: "org.bristle.pencil").renderer.timeline)).rows
        let committed = try #require(rows.first { $0.hook == "draw (committed)" })
        let preview = try #require(rows.first { $0.hook == "draw (preview)" })
        #expect(committed.calls == 876 && committed.reportedPixels == 70642 && committed.changedPixels == 37661)
        #expect(preview.calls == 16 && preview.reportedPixels == 5769 && preview.changedPixels == 2640)
    }

    /// A brush whose services draw outside what it reports (overreport.c's UNDERREPORT: it
    /// reports nothing) leaves the preview behind committed, so the audit compares committed
    /// draws with a shadow of its own from then on: each draw counts what it changed (the
    /// pixels that differ from committed after the call before; each call draws once). The
    /// same opaque disc drawn again changes only its edge, where the stale preview would count
    /// the whole disc again.
    @Test func servicesOutsideTheReportedAreaAreCountedAgainstAShadow() throws {
        let path = try CCompiler.buildFixture("overreport", defines: ["-DUNDERREPORT"], fileName: "libunderreport.so")
        let host = BrushHost()
        let session = try DrawingSession(width: 64, height: 48, host: host)
        let brush = try Brush(id: "test.overreport", library: try PluginLoader.load(path: path), host: host)
        session.brush = brush
        session.color = RGBAColor(red: 1, green: 0, blue: 0)
        let timeline = HookTimeline(countsChangedPixels: true)
        session.timeline = timeline
        brush.timeline = timeline
        let committed = session.committed, bytes = committed.strideBytes * committed.height
        var before = [UInt8](repeating: 0, count: bytes), changed: [Int] = [], inked: [Int] = []
        func drawn() {
            let after = Array(UnsafeBufferPointer(start: committed.pixels, count: bytes))
            changed.append(stride(from: 0, to: bytes, by: 4).filter { after[$0..<$0 + 4] != before[$0..<$0 + 4] }.count)
            inked.append(stride(from: 3, to: bytes, by: 4).filter { after[$0] != 0 }.count)
            before = after
        }
        let pen = DrawingSession.Device(flags: 0, pointerType: BRISTLE_POINTER_PEN)
        try session.begin(penSample(20, 20), device: pen)
        drawn()
        try session.move([penSample(20, 20)])
        drawn()
        try session.move([penSample(20, 20)])
        drawn()
        try session.end(penSample(20, 20))
        drawn()
        let draws = timeline.calls.filter { $0.name == "draw" }
        #expect(draws.map(\.reported) == Array(repeating: [], count: 4))
        #expect(draws.map(\.changedPixels) == changed)
        #expect(changed.dropFirst() != inked.dropFirst(), "the test tells the shadow from the stale preview")
    }
}

/// The clock behind the timeline: the time-stamp counter, calibrated against the monotonic
/// clock, or the monotonic clock itself where the counter is not invariant.
@Suite struct HookClockTests {
    @Test(.enabled(if: HookClock.counterIsInvariant, "the TSC is not invariant here: only the fallback runs"))
    func counterReadingsBecomeMonotonicNanoseconds() {
        let clock = HookClock()
        #expect(clock.readsCounter)
        let before = clock.ticks(), start = HookClock.monotonic()
        var pause = timespec(tv_sec: 0, tv_nsec: 20_000_000)
        nanosleep(&pause, nil)
        let after = clock.ticks(), elapsed = HookClock.monotonic() - start
        let scale = clock.scale()
        let measured = scale.nanoseconds(after) - scale.nanoseconds(before)
        // Calibrated over the same span: within 2% of what the monotonic clock saw.
        #expect(abs(Double(measured) - Double(elapsed)) < 0.02 * Double(elapsed), "\(measured) ns against \(elapsed) ns")
        #expect(scale.nanoseconds(before) <= scale.nanoseconds(after))
    }

    /// Forced onto the monotonic clock (as on a CPU without an invariant counter), the
    /// timeline records the same calls, with durations that nest.
    @Test func fallbackClockRecordsCallsInNanoseconds() {
        let timeline = HookTimeline(countsChangedPixels: false, clock: HookClock(readsCounter: false))
        #expect(!timeline.clock.readsCounter)
        #expect(timeline.clock.scale().nanosecondsPerTick == 1)
        let outer = timeline.now()
        let inner = timeline.now()
        var pause = timespec(tv_sec: 0, tv_nsec: 1_000_000)
        nanosleep(&pause, nil)
        timeline.record(.fillSegment, since: inner, layer: .committed, serviceRect: PixelRect(x: 1, y: 2, width: 3, height: 4))
        timeline.record(.draw, since: outer, layer: .committed, status: 0)
        timeline.noteDraw(reported: [PixelRect(x: 0, y: 0, width: 8, height: 8)], changedPixels: 5)
        let calls = timeline.calls
        #expect(calls.map(\.name) == ["fill_segment", "draw"])
        #expect(calls[0].kind == .service && calls[1].kind == .hook)
        #expect(calls[0].duration >= 1_000_000, "slept 1 ms inside: \(calls[0].duration) ns")
        #expect(calls[1].start <= calls[0].start && calls[0].start + calls[0].duration <= calls[1].start + calls[1].duration)
        #expect(calls[1].reported == [PixelRect(x: 0, y: 0, width: 8, height: 8)] && calls[1].changedPixels == 5)
        #expect(calls[0].reportedPixels == 12 && calls[1].reportedPixels == 64)
        let text = String(decoding: TraceEventWriter.bytes(timeline), as: UTF8.self)
        #expect(text.contains("\"name\": \"draw\", \"cat\": \"hook\"") && text.contains("\"changedPixels\": 5"), "\(text)")
        #expect(text.range(of: "\"name\": \"draw\"")!.lowerBound < text.range(of: "\"name\": \"fill_segment\"")!.lowerBound,
                "the draw started first, so its event comes first")
    }

    /// A trace longer than one chunk comes out in chunks of about ``TraceEventWriter/chunkSize``
    /// that join into one valid document holding every event once, in start order.
    @Test func aLongTraceIsWrittenInChunksThatJoinIntoOneDocument() throws {
        let timeline = HookTimeline(countsChangedPixels: false, clock: HookClock(readsCounter: false))
        let draws = 3_000
        for i in 0..<draws {
            let start = timeline.now()
            timeline.record(.fillSegment, since: timeline.now(), layer: .committed,
                            serviceRect: PixelRect(x: Int32(i), y: 2, width: 3, height: 4))
            timeline.record(.draw, since: start, layer: .committed, status: 0)
            timeline.noteDraw(reported: [PixelRect(x: Int32(i), y: 0, width: 8, height: 8)], changedPixels: i)
        }
        var chunks: [[UInt8]] = []
        TraceEventWriter.writeChunks(timeline) { chunks.append(Array($0)) }
        #expect(chunks.count > 4, "\(chunks.count) chunks")
        #expect(chunks.allSatisfy { $0.count <= TraceEventWriter.chunkSize + 4_096 }, "\(chunks.map(\.count))")
        let joined = chunks.flatMap { $0 }
        #expect(joined == TraceEventWriter.bytes(timeline))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(joined)) as? [String: Any])
        let events = try #require(object["traceEvents"] as? [[String: Any]]).filter { $0["ph"] as? String == "X" }
        #expect(events.count == 2 * draws)
        let changed = events.compactMap { ($0["args"] as? [String: Any])?["changedPixels"] as? Int }
        #expect(changed == Array(0..<draws), "every draw once, in start order")
    }
}
