/// Names nondeterminism as the cause when a comparison test finds two drawings that differ.
///
/// Tests such as `lifecycle.cancel-forgets` or `semantics.predicted-never-committed` compare two
/// runs that should agree for a DETERMINISTIC brush, and blame what they vary (a cancelled
/// stroke, predicted samples, batching) for any difference. A brush whose output varies from
/// run to run anyway (unseeded `rand()`, a clock, state shared between instances) would be
/// blamed for the wrong thing, so before reporting, such a test asks this probe whether the
/// same input drawn twice already differs, and if it does reports that instead.
enum NondeterminismProbe {
    /// The failure message naming nondeterminism, or nil when two fresh instances given the
    /// same strokes (a wave and a diagonal, no cancel, no prediction) and seed draw
    /// byte-identical committed layers. `blamed` is what the calling test would have blamed.
    static func cause(_ ctx: TestContext, instead blamed: String) throws(CheckFailure) -> String? {
        let a = try ctx.makeDriver(checks: .none), b = try ctx.makeDriver(checks: .none)
        let strokes = [TestStroke.wave(count: 30, width: 96, height: 64),
                       TestStroke(points: (0..<20).map { (Double(10 + $0 * 4), Double(50 - $0)) }, batch: 2)]
        for d in [a, b] {
            d.fill(StandardStrokes.paper)
            for s in strokes { try d.draw(s) }
        }
        guard let p = a.committed.firstDifference(from: b.committed, outside: .empty) else { return nil }
        return "the brush is nondeterministic though it sets DETERMINISTIC: the same strokes with the same seed, "
            + "drawn on two fresh instances, differ first at (\(p.x), \(p.y)): \(a.committed.describePixel(x: p.x, y: p.y)) "
            + "against \(b.committed.describePixel(x: p.x, y: p.y)); so this test cannot blame \(blamed). Look for "
            + "unseeded randomness (rand(), random()), clocks, uninitialised memory or state shared between "
            + "instances; draw random numbers from the stroke context's seed (see determinism.render-twice)"
    }
}
