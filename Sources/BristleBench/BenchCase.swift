import BristleHost

/// One benchmark case: a workload drawn the same way in every repetition.
///
/// The runner calls ``reset()`` before each repetition outside the timed region (the canvas
/// back to white), then ``run(measured:)`` inside it. ``writePNG(to:)`` saves the canvas of the
/// last repetition. Cases own all their memory; nothing is allocated per repetition that the
/// peers would not allocate.
public protocol BenchCase: AnyObject {
    /// The case name, as the peers spell it (`stroke_segments_opaque`).
    var name: String { get }
    /// What one item is (`segment`, `event`, `image`).
    var item: String { get }
    /// Items per repetition (for the per-item times).
    var items: Int { get }
    /// Extra JSON fields of the case's line, as `(key, JSON value text)`.
    var extraFields: [(String, String)] { get }
    /// Puts the canvas back to its starting state (untimed).
    func reset() throws(BenchError)
    /// Draws the workload once (timed). `measured` is false for warm-up repetitions.
    func run(measured: Bool) throws(BenchError)
    /// Writes the canvas as a PNG, atomically.
    func writePNG(to path: String) throws(BenchError)
}
