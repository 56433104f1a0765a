import BristleHost
import Glibc

/// Measures the undo history: draws `strokes` pencil strokes on a `width` x `height` canvas,
/// then undoes them one step at a time and redoes them one step at a time, timing each step.
///
/// The strokes are the same on every run (a seeded random walk of 40 samples, about 600 px
/// long, 12 points wide, varying pressure), so history sizes compare between runs and
/// machines; times depend on the machine. The result also says whether undoing everything
/// gave back an empty canvas and redoing everything gave back the drawing byte for byte.
public struct HistoryBenchmark: Sendable {
    /// What one run measured.
    public struct Result: Sendable, Equatable {
        public var strokes: Int
        public var width: Int
        public var height: Int
        /// Memory the history held after the last stroke (pixels plus tile indices).
        public var historyBytes: Int
        /// 64x64 tiles the history held after the last stroke.
        public var tiles: Int
        /// What keeping a whole-canvas snapshot per stroke would cost, for comparison.
        public var fullSnapshotBytes: Int
        /// Time of one undo step, median and worst, in milliseconds.
        public var undoMillisecondsP50: Double
        public var undoMillisecondsMax: Double
        /// Time of one redo step, median and worst, in milliseconds.
        public var redoMillisecondsP50: Double
        public var redoMillisecondsMax: Double
        /// Undoing every stroke left a transparent canvas, and redoing them all gave back the
        /// drawing byte for byte.
        public var roundTripExact: Bool
    }

    public var strokes: Int
    public var width: Int
    public var height: Int
    /// The plugin file holding `org.bristle.pencil` (`libBristlePencil.so`).
    public var pencilPath: String

    /// The default case is the one the benchmark suite reports as `history_100_strokes_4096x3072`.
    public init(pencilPath: String, strokes: Int = 100, width: Int = 4096, height: Int = 3072) {
        self.pencilPath = pencilPath
        self.strokes = strokes
        self.width = width
        self.height = height
    }

    /// Runs the benchmark once. Fails when the pencil cannot be loaded or the canvas allocated.
    public func run() throws(RenderError) -> Result {
        let library: PluginLibrary
        do { library = try PluginLoader.load(path: pencilPath) } catch { throw .plugin(error) }
        let session: DrawingSession
        let brush: Brush
        do {
            session = try DrawingSession(width: width, height: height)
        } catch {
            throw .session(error)
        }
        do { brush = try Brush(id: "org.bristle.pencil", library: library, host: BrushHost()) } catch { throw .brush(error) }
        session.brush = brush
        session.strokeWidth = 12
        session.color = RGBAColor(red: 0.1, green: 0.2, blue: 0.5, alpha: 0.9)
        let device = DrawingSession.Device(flags: BRISTLE_SAMPLE_HAS_PRESSURE, pointerType: BRISTLE_POINTER_PEN)
        var random = Self.SplitMix(state: 0x5EED)
        do {
            for _ in 0..<strokes {
                let points = walk(&random)
                try session.begin(points[0], device: device)
                for p in points.dropFirst() { try session.move([p]) }
                try session.end(points[points.count - 1])
            }
        } catch {
            throw .session(error)
        }
        let historyBytes = session.history.bytes, tiles = session.history.tileCount
        let drawn = session.committed.packedPixels()
        var undoTimes: [Double] = [], redoTimes: [Double] = []
        do {
            for _ in 0..<strokes { undoTimes.append(try Self.milliseconds { () throws(SessionError) in _ = try session.undo() }) }
            let empty = session.committed.packedPixels().allSatisfy { $0 == 0 }
            for _ in 0..<strokes { redoTimes.append(try Self.milliseconds { () throws(SessionError) in _ = try session.redo() }) }
            let exact = empty && session.committed.packedPixels() == drawn
            return Result(strokes: strokes, width: width, height: height, historyBytes: historyBytes, tiles: tiles,
                          fullSnapshotBytes: strokes * width * height * 4,
                          undoMillisecondsP50: Self.median(undoTimes), undoMillisecondsMax: undoTimes.max() ?? 0,
                          redoMillisecondsP50: Self.median(redoTimes), redoMillisecondsMax: redoTimes.max() ?? 0,
                          roundTripExact: exact)
        } catch {
            throw .session(error)
        }
    }

    /// One stroke: a random walk of 40 samples, 16 px apart, turning gently, inside the canvas.
    private func walk(_ random: inout SplitMix) -> [bristle_sample_t] {
        var x = random.unit() * Double(width), y = random.unit() * Double(height)
        var heading = random.unit() * 2 * Double.pi
        var out: [bristle_sample_t] = []
        for i in 0..<40 {
            var s = bristle_sample_t()
            s.struct_size = UInt32(MemoryLayout<bristle_sample_t>.size)
            s.x = x
            s.y = y
            s.pointer_type = BRISTLE_POINTER_PEN
            s.flags = BRISTLE_SAMPLE_HAS_PRESSURE
            s.pressure = Float(0.3 + 0.6 * sin(Double(i) / 39 * Double.pi))
            s.altitude = .pi / 2
            s.t = Double(i) * 0.008
            out.append(s)
            heading += (random.unit() - 0.5) * 0.6
            x = min(max(x + 16 * cos(heading), 0), Double(width - 1))
            y = min(max(y + 16 * sin(heading), 0), Double(height - 1))
        }
        return out
    }

    /// The median of `values` (the mean of the middle two for an even count), 0 when empty.
    private static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted(), n = sorted.count
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2
    }

    /// Runs `body` once and returns its duration in milliseconds (monotonic clock).
    private static func milliseconds(_ body: () throws(SessionError) -> Void) throws(SessionError) -> Double {
        var start = timespec(), end = timespec()
        clock_gettime(CLOCK_MONOTONIC, &start)
        try body()
        clock_gettime(CLOCK_MONOTONIC, &end)
        return Double(end.tv_sec - start.tv_sec) * 1e3 + Double(end.tv_nsec - start.tv_nsec) / 1e6
    }

    /// SplitMix64: a small deterministic generator, so every run draws the same strokes.
    private struct SplitMix {
        var state: UInt64
        /// The next number in [0, 1).
        mutating func unit() -> Double {
            state = state &+ 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
        }
    }
}
