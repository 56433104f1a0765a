import BristleHost

/// A `bristle_sample_t` as the host would build it for a pen, for tests that drive a
/// `DrawingSession` directly. Optional channels are flagged only when given; unflagged fields
/// keep the header's defaults (pressure 0.5, the fake value a mouse reports; altitude pi/2).
public func penSample(_ x: Double, _ y: Double, pressure: Double? = nil, force: Double? = nil,
                      maxForce: Double = 4.17, altitude: Double? = nil, azimuth: Double = 0,
                      type: UInt32 = BRISTLE_POINTER_PEN, predicted: Bool = false) -> bristle_sample_t {
    var s = bristle_sample_t()
    s.struct_size = UInt32(MemoryLayout<bristle_sample_t>.size)
    s.x = x
    s.y = y
    s.pointer_type = type
    s.pressure = 0.5
    s.altitude = .pi / 2
    if let pressure {
        s.pressure = Float(pressure)
        s.flags |= BRISTLE_SAMPLE_HAS_PRESSURE
    }
    if let force {
        s.force = Float(force)
        s.max_force = Float(maxForce)
        s.flags |= BRISTLE_SAMPLE_HAS_FORCE
    }
    if let altitude {
        s.altitude = Float(altitude)
        s.azimuth = Float(azimuth)
        s.flags |= BRISTLE_SAMPLE_HAS_TILT
    }
    if predicted { s.flags |= BRISTLE_SAMPLE_PREDICTED }
    return s
}
