import Glibc

/// Turns W3C Pointer Events samples (``PointerSample``) into `bristle_sample_t` records for one
/// stroke: time in seconds since the stroke's first sample, made monotonic; pressure flagged
/// only when measured (a mouse's 0.5 is not); tilt and altitude/azimuth each derived from the
/// other with the Pointer Events formulas; twist in radians.
struct SampleBuilder {
    /// The stroke's pointer type, used for samples that do not name one.
    var strokePointerType: String?
    private var startMilliseconds: Double?
    private var lastSeconds = 0.0

    init(strokePointerType: String?) {
        self.strokePointerType = strokePointerType
    }

    /// The `BRISTLE_POINTER_*` value of a Pointer Events `pointerType`.
    static func pointerType(_ name: String?) -> UInt32 {
        switch name {
        case "mouse": return BRISTLE_POINTER_MOUSE
        case "pen": return BRISTLE_POINTER_PEN
        case "eraser": return BRISTLE_POINTER_ERASER
        case "touch": return BRISTLE_POINTER_TOUCH
        default: return BRISTLE_POINTER_UNKNOWN
        }
    }

    /// Builds one sample; `extraFlags` adds COALESCED or PREDICTED.
    mutating func make(_ p: PointerSample, extraFlags: UInt32 = 0) -> bristle_sample_t {
        var s = bristle_sample_t()
        s.struct_size = UInt32(MemoryLayout<bristle_sample_t>.size)
        s.flags = extraFlags
        let typeName = p.pointerType ?? strokePointerType ?? "pen"
        s.pointer_type = Self.pointerType(typeName)
        s.x = p.x
        s.y = p.y

        // Time: seconds since the first sample of the stroke, never decreasing.
        if let ms = p.timeStamp, ms.isFinite {
            if startMilliseconds == nil { startMilliseconds = ms }
            lastSeconds = max(lastSeconds, (ms - startMilliseconds!) / 1000)
        }
        s.t = lastSeconds

        // Pressure: measured only for pens and touches; a mouse's value is synthetic.
        s.pressure = 0.5
        if let force = p.force, let maxForce = p.maxForce, force.isFinite, maxForce > 0 {
            s.flags |= BRISTLE_SAMPLE_HAS_FORCE
            s.force = Float(force)
            s.max_force = Float(maxForce)
        } else if let force = p.force, force.isFinite {
            s.force = Float(force)
        }
        if typeName != "mouse" {
            if let pressure = p.pressure {
                s.flags |= BRISTLE_SAMPLE_HAS_PRESSURE
                s.pressure = Float(min(max(pressure, 0), 1))
            } else if s.flags & BRISTLE_SAMPLE_HAS_FORCE != 0 {
                s.flags |= BRISTLE_SAMPLE_HAS_PRESSURE
                s.pressure = min(max(s.force / s.max_force, 0), 1)
            }
        }

        // Orientation.
        s.altitude = Float.pi / 2
        if let altitude = p.altitudeAngle, let azimuth = p.azimuthAngle {
            s.flags |= BRISTLE_SAMPLE_HAS_TILT
            s.altitude = Float(altitude)
            s.azimuth = Float(azimuth)
            let tilt = Self.tilt(altitude: altitude, azimuth: azimuth)
            s.tilt_x = Float(tilt.x)
            s.tilt_y = Float(tilt.y)
        } else if p.tiltX != nil || p.tiltY != nil {
            s.flags |= BRISTLE_SAMPLE_HAS_TILT
            let tx = p.tiltX ?? 0, ty = p.tiltY ?? 0
            s.tilt_x = Float(tx)
            s.tilt_y = Float(ty)
            let spherical = Self.spherical(tiltX: tx, tiltY: ty)
            s.altitude = Float(spherical.altitude)
            s.azimuth = Float(spherical.azimuth)
        }
        if let twist = p.twist {
            s.flags |= BRISTLE_SAMPLE_HAS_TWIST
            s.twist = Float(twist * Double.pi / 180)
        }
        if let tangential = p.tangentialPressure {
            s.flags |= BRISTLE_SAMPLE_HAS_TANGENTIAL
            s.tangential_pressure = Float(tangential)
        }
        if p.width != nil || p.height != nil {
            s.flags |= BRISTLE_SAMPLE_HAS_CONTACT
            s.width = Float(p.width ?? 0)
            s.height = Float(p.height ?? 0)
        }
        s.buttons = UInt32(clamping: p.buttons ?? 0)
        return s
    }

    /// Pointer Events: tiltX/tiltY (degrees) to altitude/azimuth (radians).
    static func spherical(tiltX: Double, tiltY: Double) -> (altitude: Double, azimuth: Double) {
        let rad = Double.pi / 180
        let tx = tiltX * rad, ty = tiltY * rad
        var azimuth = 0.0
        if tiltX == 0 {
            azimuth = tiltY > 0 ? .pi / 2 : tiltY < 0 ? 3 * .pi / 2 : 0
        } else if tiltY == 0 {
            azimuth = tiltX < 0 ? .pi : 0
        } else if abs(tiltX) == 90 || abs(tiltY) == 90 {
            azimuth = 0
        } else {
            azimuth = atan2(tan(ty), tan(tx))
            if azimuth < 0 { azimuth += 2 * .pi }
        }
        let altitude: Double
        if abs(tiltX) == 90 || abs(tiltY) == 90 {
            altitude = 0
        } else if tiltX == 0 {
            altitude = .pi / 2 - abs(ty)
        } else if tiltY == 0 {
            altitude = .pi / 2 - abs(tx)
        } else {
            altitude = atan(1 / (tan(tx) * tan(tx) + tan(ty) * tan(ty)).squareRoot())
        }
        return (altitude, azimuth)
    }

    /// Pointer Events: altitude/azimuth (radians) to tiltX/tiltY (degrees).
    static func tilt(altitude: Double, azimuth: Double) -> (x: Double, y: Double) {
        let deg = 180 / Double.pi
        let tanAltitude = tan(altitude)
        return (atan2(cos(azimuth), tanAltitude) * deg, atan2(sin(azimuth), tanAltitude) * deg)
    }
}
