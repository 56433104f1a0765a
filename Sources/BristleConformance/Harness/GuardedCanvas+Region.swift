import BristleHost
import Glibc

extension GuardedCanvas {
    /// The first pixel (x, y) of `window` (the whole canvas by default; `packed` is its
    /// snapshot) that differs from the snapshot and lies in none of the region's rectangles,
    /// or nil when every change is inside one of them.
    public func firstDifference(from packed: [UInt8], outsideAll region: DirtyRegion,
                                window: PixelRect? = nil) -> (x: Int, y: Int)? {
        let w = (window ?? bounds).intersection(bounds)
        let rowBytes = Int(w.width) * 4
        guard rowBytes > 0, packed.count == rowBytes * Int(w.height) else { return w.isEmpty ? nil : (Int(w.x), Int(w.y)) }
        return packed.withUnsafeBufferPointer { old -> (x: Int, y: Int)? in
            for row in 0..<Int(w.height) {
                let y = Int(w.y) + row
                let now = pixels + y * strideBytes + Int(w.x) * 4, was = old.baseAddress! + row * rowBytes
                guard memcmp(now, was, rowBytes) != 0 else { continue }
                for i in 0..<Int(w.width) where memcmp(now + i * 4, was + i * 4, 4) != 0
                    && !region.contains(x: w.x + Int32(i), y: Int32(y)) {
                    return (Int(w.x) + i, y)
                }
            }
            return nil
        }
    }
}
