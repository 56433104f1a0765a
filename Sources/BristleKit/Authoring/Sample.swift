import CBristle

/// One pen, mouse or touch sample in canvas pixels (`bristle_sample_t`), with the optional
/// channels as optionals: a channel the device did not measure is nil, never a fake value.
public struct Sample: Sendable {
    /// Pen tilt, in radians.
    public struct Tilt: Sendable, Equatable {
        /// [0, pi/2] between the pen and the surface; pi/2 is upright.
        public var altitude: Double
        /// [0, 2 pi), clockwise from +x, towards where the pen's cap points.
        public var azimuth: Double
    }

    /// Canvas pixels from the left edge; may lie outside the canvas, may be non-finite.
    public var x: Double
    /// Canvas pixels from the top edge.
    public var y: Double
    /// Seconds since the stroke began.
    public var time: Double
    /// [0, 1], after the host's pressure curve; nil when not measured.
    public var pressure: Double?
    /// Tilt; nil when not measured.
    public var tilt: Tilt?
    /// True for an intermediate sample of one event.
    public var isCoalesced: Bool
    /// True for a guess of the future.
    public var isPredicted: Bool
    /// The whole C record, with the header's defaults in fields the host did not write.
    public var raw: bristle_sample_t

    /// True when both coordinates are finite: the only samples worth drawing.
    public var isUsable: Bool { x.isFinite && y.isFinite }

    /// The bytes a host sample must hold for its position to be readable (through `y`).
    static let minimumSize = (MemoryLayout<bristle_sample_t>.offset(of: \.y) ?? 24) + MemoryLayout<Double>.size

    /// Copies a host sample, reading no more than the host's `struct_size`. A record too short
    /// to hold a position becomes an unusable sample (NaN coordinates).
    init(_ pointer: UnsafePointer<bristle_sample_t>) {
        var copy = bristle_sample_t()
        copy.pressure = 0.5
        copy.altitude = .pi / 2
        copy.x = .nan
        copy.y = .nan
        let size = min(Int(pointer.pointee.struct_size), MemoryLayout<bristle_sample_t>.size)
        withUnsafeMutableBytes(of: &copy) { destination in
            destination.copyMemory(from: UnsafeRawBufferPointer(start: UnsafeRawPointer(pointer), count: max(size, 0)))
        }
        self.init(copy)
    }

    /// Wraps a complete C record.
    public init(_ s: bristle_sample_t) {
        raw = s
        x = s.x
        y = s.y
        time = s.t
        pressure = s.flags & BRISTLE_SAMPLE_HAS_PRESSURE != 0 ? Color.unit(Double(s.pressure)) : nil
        tilt = s.flags & BRISTLE_SAMPLE_HAS_TILT != 0
            ? Tilt(altitude: Double(s.altitude), azimuth: Double(s.azimuth)) : nil
        isCoalesced = s.flags & BRISTLE_SAMPLE_COALESCED != 0
        isPredicted = s.flags & BRISTLE_SAMPLE_PREDICTED != 0
    }

    /// The samples of one hook call: `count` records, each `struct_size` bytes apart (the host's
    /// size of the struct). Empty when the pointer is NULL or the size is too small to read.
    static func array(_ pointer: UnsafePointer<bristle_sample_t>?, count: UInt32) -> [Sample] {
        guard let pointer, count > 0 else { return [] }
        let stride = Int(pointer.pointee.struct_size)
        guard stride >= minimumSize else { return [] }
        let raw = UnsafeRawPointer(pointer)
        return (0..<Int(count)).map { i in
            Sample((raw + i * stride).assumingMemoryBound(to: bristle_sample_t.self))
        }
    }
}
