import BristleHost

/// Turns a session's damage (many small, overlapping rectangles) into a few patches: two
/// rectangles are merged when their union wastes little (at most a quarter more pixels than
/// the two hold, plus a 16x16 allowance), so patch bytes follow the damaged area.
enum DamageMerger {
    static func merge(_ rects: [PixelRect], clip: PixelRect) -> [PixelRect] {
        var out: [PixelRect] = []
        for rect in rects {
            var r = rect.intersection(clip)
            guard !r.isEmpty else { continue }
            var merged = true
            while merged {
                merged = false
                if let i = out.firstIndex(where: { worthMerging($0, r) }) {
                    r = r.union(out.remove(at: i))
                    merged = true
                }
            }
            out.append(r)
        }
        return out
    }

    private static func area(_ r: PixelRect) -> Int { Int(r.width) * Int(r.height) }

    private static func worthMerging(_ a: PixelRect, _ b: PixelRect) -> Bool {
        let union = a.union(b)
        return Double(area(union)) <= 1.25 * Double(area(a) + area(b)) + 256
    }
}
