import BristleHost
import Glibc

extension GuardedCanvas {
    /// The first pixel (x, y) that differs from the packed snapshot and lies in none of the
    /// region's rectangles, or nil when every change is inside one of them.
    public func firstDifference(from packed: [UInt8], outsideAll region: DirtyRegion) -> (x: Int, y: Int)? {
        let rowBytes = width * 4
        return packed.withUnsafeBufferPointer { old -> (x: Int, y: Int)? in
            for y in 0..<height {
                let now = pixels + y * strideBytes, was = old.baseAddress! + y * rowBytes
                guard memcmp(now, was, rowBytes) != 0 else { continue }
                for x in 0..<width where memcmp(now + x * 4, was + x * 4, 4) != 0
                    && !region.contains(x: Int32(x), y: Int32(y)) {
                    return (x, y)
                }
            }
            return nil
        }
    }
}
