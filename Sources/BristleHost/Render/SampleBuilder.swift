import Glibc

/// Turns W3C Pointer Events samples (``PointerSample``) into `bristle_sample_t` records for one
/// stroke.
///
/// - Time: `t` is seconds since the stroke's first timed real (not predicted) sample, and never
///   decreases; a sample without a `timeStamp` keeps the previous `t`. Predicted samples get
///   their own `t`, at least the real clock's, without moving it, so the next real sample is
///   timed by its own `timeStamp`.
/// - Pressure: the sample's `pressure`, else `force / maxForce` computed in Double, clamped to
///   [0, 1], passed through the host's ``PressureCurve`` and flagged HAS_PRESSURE; never for a
///   mouse, whose pressure is synthetic. Unflagged, it is 0.5.
/// - Force: `force` and `max_force` are stored as Floats clamped to the finite Float range;
///   HAS_FORCE is set when the stored `max_force` is > 0 (a `maxForce` of 1e-300 is not). A
///   non-identity pressure curve maps `force` too: `curve(force / maxForce) * maxForce`.
/// - Orientation: altitude/azimuth, when either is given, win over tilt and give tilt; a missing
///   angle takes its Pointer Events default (altitude π/2, azimuth 0). Otherwise tiltX/tiltY,
///   a missing one being 0, give altitude/azimuth. Both use the Pointer Events conversions.
///   With neither, HAS_TILT is clear and the defaults stand (altitude π/2, the rest 0).
/// - Twist: degrees to radians. Pointer type: the sample's, else the stroke's, else `pen`.
struct SampleBuilder {
    /// The stroke's pointer type, used for samples that do not name one.
    var strokePointerType: String?
    /// Applied to measured pressure (identity by default).
    var pressureCurve: PressureCurve = .identity
    /// The `timeStamp` of the stroke's first timed real sample.
    private var startMilliseconds: Double?
    /// The real clock: the latest `t` given to a real sample.
    private var lastSeconds = 0.0

    init(strokePointerType: String?, pressureCurve: PressureCurve = .identity) {
        self.strokePointerType = strokePointerType
        self.pressureCurve = pressureCurve
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
        s.t = seconds(p.timeStamp, predicted: extraFlags & BRISTLE_SAMPLE_PREDICTED != 0)

        // Force, and the pressure it implies.
        var forcePressure: Double?
        if let force = p.force, force.isFinite {
            s.force = Self.finiteFloat(force)
            if let maxForce = p.maxForce, maxForce > 0 {
                s.max_force = Self.finiteFloat(maxForce)
                if s.max_force > 0 { s.flags |= BRISTLE_SAMPLE_HAS_FORCE }
                forcePressure = force / maxForce
                if pressureCurve != .identity, s.max_force > 0 {
                    // The curve shapes force too, as a fraction of the device's range, so
                    // brushes that read raw force follow it like those that read pressure.
                    s.force = Self.finiteFloat(pressureCurve.apply(force / maxForce) * maxForce)
                }
            }
        }
        s.pressure = 0.5
        if typeName != "mouse", let pressure = p.pressure ?? forcePressure {
            s.flags |= BRISTLE_SAMPLE_HAS_PRESSURE
            s.pressure = Float(pressureCurve.apply(pressure))
        }

        // Orientation.
        s.altitude = Float.pi / 2
        if p.altitudeAngle != nil || p.azimuthAngle != nil {
            s.flags |= BRISTLE_SAMPLE_HAS_TILT
            let altitude = p.altitudeAngle ?? .pi / 2, azimuth = p.azimuthAngle ?? 0
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

    /// The `t` of a sample stamped `milliseconds`: at least the real clock. A real sample
    /// advances the clock (and its first timed one sets the origin); a predicted one does not.
    private mutating func seconds(_ milliseconds: Double?, predicted: Bool) -> Double {
        guard let milliseconds, milliseconds.isFinite else { return lastSeconds }
        if startMilliseconds == nil && !predicted { startMilliseconds = milliseconds }
        guard let start = startMilliseconds else { return lastSeconds }
        let t = max(lastSeconds, (milliseconds - start) / 1000)
        if !predicted { lastSeconds = t }
        return t
    }

    /// `value` as a Float clamped to the finite Float range (1e300 gives the largest Float).
    private static func finiteFloat(_ value: Double) -> Float {
        let limit = Double(Float.greatestFiniteMagnitude)
        return Float(min(max(value, -limit), limit))
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

    /// Pointer Events: altitude/azimuth (radians) to tiltX/tiltY (degrees). A pen lying flat
    /// (altitude 0) takes the spec's table: ±90 on the axis it lies along, (±90, ±90) between
    /// axes, with the signs of cos and sin of the azimuth.
    static func tilt(altitude: Double, azimuth: Double) -> (x: Double, y: Double) {
        if altitude == 0 {
            switch azimuth {
            case 0, 2 * .pi: return (90, 0)
            case .pi / 2: return (0, 90)
            case .pi: return (-90, 0)
            case 3 * .pi / 2: return (0, -90)
            default: return (cos(azimuth) < 0 ? -90 : 90, sin(azimuth) < 0 ? -90 : 90)
            }
        }
        let deg = 180 / Double.pi
        let tanAltitude = tan(altitude)
        return (atan(cos(azimuth) / tanAltitude) * deg, atan(sin(azimuth) / tanAltitude) * deg)
    }
}
