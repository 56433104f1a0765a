/// Counts the pixels a draw actually changed, for ``HookTimeline/countsChangedPixels``: a
/// shadow copy of each layer a brush draws into, kept equal to the layer by the session
/// (every host copy into a layer is repeated into its shadow), and compared after each draw.
///
/// Only where the draw reported dirty and where its services drew is compared (then brought
/// up to date): pixels a brush wrote by itself outside both are not counted, and its shadow
/// catches up when the host next copies there. The cost is one layer copy per layer, once,
/// and per draw a comparison of the area it reported.
final class PixelAudit {
    private var shadows: [ObjectIdentifier: Layer] = [:]

    /// Makes `layer`'s shadow if it has none yet (a copy of it as it is now). Without memory
    /// for it the layer is not audited.
    func prepare(_ layer: Layer) {
        guard shadows[ObjectIdentifier(layer)] == nil, let shadow = Layer(width: layer.width, height: layer.height) else { return }
        shadow.copy(from: layer, in: layer.bounds)
        shadows[ObjectIdentifier(layer)] = shadow
    }

    /// Repeats a host change of `layer` inside `rect` into its shadow (nothing for a layer
    /// that has none).
    func sync(_ layer: Layer, in rect: PixelRect) {
        shadows[ObjectIdentifier(layer)]?.copy(from: layer, in: rect)
    }

    /// The pixels of `layer` that differ from its shadow inside `rects` (each counted once,
    /// however the rectangles overlap), after which the shadow equals the layer there. Nil
    /// for a layer without a shadow.
    func changedPixels(_ layer: Layer, in rects: [PixelRect]) -> Int? {
        guard let shadow = shadows[ObjectIdentifier(layer)] else { return nil }
        var changed = 0
        for rect in rects {
            let r = rect.intersection(layer.bounds)
            guard !r.isEmpty else { continue }
            for y in Int(r.y)..<Int(r.maxY) {
                let offset = y * layer.strideBytes + Int(r.x) * 4
                let now = UnsafeRawPointer(layer.pixels + offset), then = UnsafeRawPointer(shadow.pixels + offset)
                for x in 0..<Int(r.width) where now.loadUnaligned(fromByteOffset: x * 4, as: UInt32.self)
                    != then.loadUnaligned(fromByteOffset: x * 4, as: UInt32.self) {
                    changed += 1
                }
            }
            shadow.copy(from: layer, in: r)
        }
        return changed
    }
}
