import BristleHost
import Glibc

/// One stroke as the host would deliver it: the first sample (`begin`), the input events in
/// between (each a batch of coalesced samples for one `moved`, optionally with predicted
/// samples after it) and the last sample (`ended`). `cancelAtEnd` abandons the stroke instead
/// of ending it.
public struct TestStroke {
    public var first: bristle_sample_t
    public var events: [[bristle_sample_t]]
    public var predicted: [[bristle_sample_t]]
    public var last: bristle_sample_t
    public var cancelAtEnd = false

    /// A stroke through `points` (at least one), `batch` samples per event, 1 ms apart.
    public init(points: [(Double, Double)], batch: Int = 1, pressure: Float? = 0.7) {
        let samples = points.enumerated().map { i, p in
            TestStroke.sample(x: p.0, y: p.1, t: Double(i) / 1000, pressure: pressure)
        }
        self.init(samples: samples, batches: Array(repeating: max(batch, 1), count: samples.count))
    }

    /// A stroke over `samples` (at least one): the first begins it, the last ends it, and the
    /// ones between are split into events of the given sizes (cycled; each at least 1).
    public init(samples: [bristle_sample_t], batches: [Int]) {
        first = samples[0]
        last = samples[samples.count - 1]
        var events: [[bristle_sample_t]] = []
        var i = 1, b = 0
        while i < samples.count - 1 {
            let n = max(1, batches.isEmpty ? 1 : batches[b % batches.count])
            events.append(Array(samples[i..<min(i + n, samples.count - 1)]))
            i += n
            b += 1
        }
        self.events = events
        predicted = []
    }

    /// A pen sample as the host builds it: all fields at their defaults except the given ones.
    public static func sample(x: Double, y: Double, t: Double, pressure: Float? = 0.7) -> bristle_sample_t {
        var s = bristle_sample_t()
        s.struct_size = UInt32(MemoryLayout<bristle_sample_t>.size)
        s.x = x
        s.y = y
        s.t = t
        s.pressure = 0.5
        s.altitude = .pi / 2
        s.pointer_type = BRISTLE_POINTER_PEN
        s.buttons = 1
        if let pressure {
            s.pressure = pressure
            s.flags |= BRISTLE_SAMPLE_HAS_PRESSURE
        }
        return s
    }

    /// A wavy stroke of `count` samples across a `width` x `height` canvas, crossing it from
    /// near the left edge to near the right edge, with varying pressure.
    public static func wave(count: Int, width: Int, height: Int, batch: Int = 3) -> TestStroke {
        let n = max(count, 2)
        let points = (0..<n).map { i -> (Double, Double) in
            let f = Double(i) / Double(n - 1)
            return (2 + f * Double(width - 4), Double(height) / 2 + Double(height) * 0.3 * sin(f * 2 * .pi * 1.5))
        }
        var stroke = TestStroke(points: points, batch: batch)
        stroke.applyPressure { i in Float(0.3 + 0.6 * Double(i % 17) / 16) }
        return stroke
    }

    /// The same stroke with every sample (predicted ones too) passed through `transform`, in
    /// delivery order.
    public func mapSamples(_ transform: (bristle_sample_t) -> bristle_sample_t) -> TestStroke {
        var s = self
        s.first = transform(first)
        for e in s.events.indices {
            s.events[e] = s.events[e].map(transform)
            if e < s.predicted.count { s.predicted[e] = s.predicted[e].map(transform) }
        }
        s.last = transform(last)
        return s
    }

    /// Sets the pressure of every sample from its index in the stroke.
    public mutating func applyPressure(_ pressure: (Int) -> Float) {
        var index = 0
        first.pressure = pressure(index)
        for e in events.indices {
            for s in events[e].indices {
                index += 1
                events[e][s].pressure = pressure(index)
            }
        }
        last.pressure = pressure(index + 1)
    }
}

extension Array {
    /// The elements in consecutive pieces of `size` (the last may be shorter).
    func chunked(_ size: Int) -> [[Element]] {
        stride(from: 0, to: count, by: Swift.max(size, 1)).map { Array(self[$0..<Swift.min($0 + size, count)]) }
    }
}
