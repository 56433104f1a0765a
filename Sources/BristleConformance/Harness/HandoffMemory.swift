/// What the ``DriverChecks/lifetimes`` check hands out instead of long-lived buffers: for every
/// call, fresh samples, stroke context, target, dirty rectangle and dirty list with its
/// rectangles (``HandoffArena``s), and
/// after every draw a fresh copy of the layer and of `base`, the buffers the draw received
/// being made inaccessible (``GuardedCanvas/retire(after:)``). A brush that keeps any of these
/// pointers past the call that passed it faults at its next use, and the fault handler names
/// that call.
final class HandoffMemory {
    let samples = HandoffArena(kind: "samples")
    let context = HandoffArena(kind: "stroke context")
    let target = HandoffArena(kind: "target")
    let dirty = HandoffArena(kind: "dirty rectangle")
    let dirtyList = HandoffArena(kind: "dirty list")
    let dirtyRects = HandoffArena(kind: "dirty list's rectangles")
    /// Canvases waiting to be handed out, per layer name; each retired buffer waits at the end.
    private var spares: [String: [GuardedCanvas]] = [:]

    /// Spare canvases like `canvases` (one set per layer); nil when they cannot be mapped.
    init?(like canvases: [GuardedCanvas]) {
        for canvas in canvases {
            var list: [GuardedCanvas] = []
            for _ in 1..<HandoffArena.slotCount / 2 {
                guard let spare = GuardedCanvas(width: canvas.width, height: canvas.height, placement: canvas.placement,
                                                padding: canvas.strideBytes - canvas.width * 4, name: canvas.name) else { return nil }
                list.append(spare)
            }
            spares[canvas.name] = list
        }
    }

    /// A fresh buffer holding `canvas`'s pixels, after which `canvas` (handed to `call`, which
    /// has returned) is retired and waits for its turn to be handed out again.
    func replace(_ canvas: GuardedCanvas, after call: String) -> GuardedCanvas {
        guard var list = spares[canvas.name], !list.isEmpty else { return canvas }
        let fresh = list.removeFirst()
        fresh.reinstate()
        fresh.copy(from: canvas, in: canvas.bounds)
        canvas.retire(after: call)
        list.append(canvas)
        spares[canvas.name] = list
        return fresh
    }
}
