import BristleBench
import BristleHost
import BristleTestSupport
import Testing

/// The benchmark workload must be the peers' (shared/bench/peers/WORKLOAD.md) bit for bit:
/// these are the check values that document prints from its C reference implementation.
@Suite struct BenchWorkloadTests {
    @Test func splitMix64MatchesTheReferenceCheckValue() {
        var rng = SplitMix64(seed: 1)
        #expect(rng.next() == 0x910a_2dec_8902_5cc1)
    }

    @Test func strokeSamplesMatchTheWorkloadDocument() {
        let s = BenchWorkload.stroke()
        #expect(s.count == 10_000)
        #expect(s[0] == WorkloadSample(x: 1702.8225099390856, y: 768, pressure: 0, width: 2))
        #expect(s[1].x == 1704.0669727966444 && s[1].y == 769.80964594083389)
        #expect(s[1].pressure == 2.4678926243693056e-06)
        #expect(s[5000].x == 514.42045268191237 && s[5000].y == 768.67862907572726)
        #expect(s[5000].pressure == 0.9999993830264633)
        #expect(s[9999].x == 1363.4112549695428 && s[9999].y == 767.99999999999966 && s[9999].pressure == 0)
    }

    @Test func strokeChecksumsMatchTheWorkloadDocument() {
        var sx = 0.0, sy = 0.0, sw = 0.0
        for p in BenchWorkload.stroke() {
            sx += p.x
            sy += p.y
            sw += p.width
        }
        // The document prints 10 decimals.
        #expect(abs(sx - 10420554.3204676043) < 1e-9 * 10420554)
        #expect(abs(sy - 7823225.0494320374) < 1e-9 * 7823225)
        #expect(abs(sw - 109991.0000000002) < 1e-9 * 109991)
    }

    @Test func shapesMatchTheWorkloadDocument() {
        let e = BenchWorkload.shapes(seed: BenchWorkload.ellipseFillSeed, rectangles: false)
        #expect(e.count == 1000)
        #expect(e[0].a == 25.54635073127929 && e[0].b == 1320.7471589397558)
        #expect(e[0].c == 60.783650054491488 && e[0].d == 26.470374361674118)
        #expect((e[0].red, e[0].green, e[0].blue, e[0].alpha) == (80, 151, 141, 241))
        let r = BenchWorkload.shapes(seed: BenchWorkload.rectFillSeed, rectangles: true)
        #expect(r[0].a == 1378.43181042826 && r[0].b == 705.21087556167515)
        #expect(r[0].c == 75.146271576610772 && r[0].d == 30.005075742485595)
        #expect((r[0].red, r[0].green, r[0].blue, r[0].alpha) == (113, 183, 196, 181))
        // Every shape stays in the documented ranges.
        for s in r {
            #expect(s.c >= 4 && s.c < 256 && s.d >= 4 && s.d < 256 && s.alpha >= 128 && s.strokeWidth >= 1 && s.strokeWidth < 8)
        }
    }

    @Test func statisticsFollowThePeersConventions() {
        let odd = BenchStatistics([5, 1, 3])
        #expect(odd.min == 1 && odd.median == 3 && odd.max == 5 && odd.mean == 3)
        let even = BenchStatistics([4, 1, 3, 2])
        #expect(even.median == 2.5)
        let values = (1...100).map(Double.init)
        #expect(BenchStatistics.quantile(0.5, of: values) == 50)
        #expect(BenchStatistics.quantile(0.99, of: values) == 99)
        #expect(BenchStatistics.quantile(0.5, of: []) == nil)
    }

    @Test func registryNamesEveryCaseOnce() {
        let names = BenchRegistry.names
        #expect(Set(names).count == names.count)
        for required in ["stroke_segments_opaque", "stroke_segments_alpha50", "stroke_pencil_product",
                         "event_latency_pencil_2048x1536", "event_latency_pencil_4096x3072", "png_export_2048x1536",
                         "stroke_polyline_w10_opaque", "stroke_polyline_w10_alpha50", "dash_polyline_w4",
                         "ellipse_fill", "ellipse_stroke", "rect_fill", "rect_stroke",
                         "event_latency_rectangle_2048x1536", "event_latency_rectangle_4096x3072",
                         "history_100_strokes_4096x3072"] {
            #expect(BenchRegistry.entry(named: required) != nil, "\(required)")
        }
        #expect(BenchRegistry.entry(named: "no_such_case") == nil)
    }

    @Test func segmentCaseDrawsTheStrokeLikeTheRasterizer() throws {
        // The bench draws through the services table; the same segments drawn with the Swift
        // API on a white canvas must give the same pixels.
        var options = BenchOptions()
        options.segments = 40
        options.reps = 1
        options.warmup = 0
        let dir = TestEnvironment.scratchDirectory("bench-case").path
        options.pngDirectory = dir
        let entry = try #require(BenchRegistry.entry(named: "stroke_segments_opaque"))
        let result = try BenchRunner.run(try entry.make(options), options: options)
        #expect(result.items == 40 && result.reps == 1)
        let image = try PNGCodec.read(path: dir + "/bristle_stroke_segments_opaque.png")
        guard let layer = Layer(width: 2048, height: 1536) else { Issue.record("no memory"); return }
        layer.fill(.white, in: layer.bounds)
        let rasterizer = Rasterizer()
        let stroke = BenchWorkload.stroke()
        for k in 0..<40 {
            _ = rasterizer.fillSegment(TaperedSegment(x0: stroke[k].x, y0: stroke[k].y, x1: stroke[k + 1].x, y1: stroke[k + 1].y,
                                                      width0: stroke[k].width, width1: stroke[k].width),
                                       paint: Paint(color: BenchWorkload.strokeColor(alpha: 255)), into: layer.plane)
        }
        #expect(image.pixels == layer.packedPixels())
        #expect(image.pixels.contains { $0 != 255 }, "the stroke is drawn")
    }
}
