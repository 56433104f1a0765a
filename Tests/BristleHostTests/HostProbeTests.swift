import BristleHost
import BristleTestSupport
import Foundation
import Testing

/// The host checked from the brush's side: Tests/Fixtures/brushes/hostprobe.c counts every
/// rule the host breaks (struct sizes, call order, which draw follows which hook, target and
/// context fields, base presence, dirty empty on entry, serialised calls, one thread per
/// instance) while DrawingSession drives it through strokes, predictions, cancels and ticks.
/// A session and its brush share one BrushHost, so targets carry the services table the brush
/// was created with (bristle.h: host->services is "the same table every target carries").
@Suite struct HostProbeTests {
    static let library: PluginLibrary = {
        let path = try! CCompiler.buildFixture("hostprobe")
        return try! PluginLoader.load(path: path)
    }()

    private let pen = DrawingSession.Device(flags: BRISTLE_SAMPLE_HAS_PRESSURE, pointerType: BRISTLE_POINTER_PEN)

    private func counter(_ brush: Brush, _ id: String) -> Double { brush.value(of: id) ?? -1 }

    /// Drives a session through everything the loop does: strokes with predictions, a cancel,
    /// a colour change, ticks, and a second stroke after ticks.
    private func exercise(_ session: DrawingSession) throws {
        for round in 0..<3 {
            session.color = RGBAColor(red: Float(round) / 3, green: 0.5, blue: 0.2)
            try session.begin(penSample(5, 5, pressure: 0.5), device: pen, predicted: [penSample(8, 8, predicted: true)])
            for i in 1...10 {
                var a = penSample(Double(5 + i * 3), Double(5 + i), pressure: 0.6)
                var b = penSample(Double(6 + i * 3), Double(6 + i), pressure: 0.7)
                a.t = Double(i) / 100
                b.t = Double(i) / 100 + 0.005
                try session.move([a, b], predicted: i % 2 == 0 ? [penSample(50, 40, predicted: true)] : [])
            }
            if round == 1 {
                session.cancel()
            } else {
                var last = penSample(40, 20, pressure: 0.4)
                last.t = 1
                try session.end(last)
                try session.tick(frames: 4)
            }
        }
    }

    @Test(arguments: ["test.hostprobe.continuous", "test.hostprobe.shape"])
    func drawingSessionKeepsTheHostSideOfTheContract(id: String) throws {
        let host = BrushHost()
        let session = try DrawingSession(width: 64, height: 48, host: host)
        let brush = try Brush(id: id, library: Self.library, host: host)
        session.brush = brush
        try exercise(session)
        #expect(counter(brush, "violations") == 0, "first violation code \(counter(brush, "first-violation"))")
        #expect(counter(brush, "overlaps") == 0)
        #expect(counter(brush, "thread-switches") == 0)
        #expect(counter(brush, "calls") > 60)
        #expect(counter(brush, "draws") > 20)
    }

    @Test func twoSessionsOnTwoThreadsEachKeepTheirInstanceOnOneThread() throws {
        let hosts = [BrushHost(), BrushHost()]
        let brushes = try hosts.map { try Brush(id: "test.hostprobe.continuous", library: Self.library, host: $0) }
        nonisolated(unsafe) let shared = brushes, sharedHosts = hosts
        nonisolated(unsafe) var errors: [Error?] = [nil, nil]
        DispatchQueue.concurrentPerform(iterations: 2) { i in
            do {
                let session = try DrawingSession(width: 64, height: 48, host: sharedHosts[i])
                session.brush = shared[i]
                try exercise(session)
            } catch {
                errors[i] = error
            }
        }
        #expect(errors.allSatisfy { $0 == nil })
        for brush in brushes {
            #expect(counter(brush, "violations") == 0 && counter(brush, "overlaps") == 0)
            #expect(counter(brush, "thread-switches") == 0)
        }
    }

    /// A session given a different BrushHost than its brush's passes targets whose services
    /// table is not the brush's host->services; the probe reports it (V_SERVICES = 9).
    @Test func aSessionWithAnotherHostIsCaught() throws {
        let session = try DrawingSession(width: 64, height: 48, host: BrushHost())
        let brush = try Brush(id: "test.hostprobe.continuous", library: Self.library, host: BrushHost())
        session.brush = brush
        try exercise(session)
        #expect(counter(brush, "first-violation") == 9)
    }

    /// The probe can fail: hooks called out of order are counted (draw before begin, moved
    /// outside a stroke, a tick before any stroke ended).
    @Test func theProbeCountsAHostThatBreaksTheOrder() throws {
        let host = BrushHost()
        let brush = try Brush(id: "test.hostprobe.continuous", library: Self.library, host: host)
        var samples = [penSample(1, 1)]
        _ = brush.moved(&samples, count: 1)
        #expect(counter(brush, "violations") == 1)
        #expect(counter(brush, "first-violation") == 2) // V_ORDER
        _ = brush.tick(t: 1.0 / 60, dt: 1.0 / 60)
        #expect(counter(brush, "violations") >= 2)
    }
}
