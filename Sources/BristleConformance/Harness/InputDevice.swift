import BristleHost

/// An input device the `input.devices` test imitates: its pointer type, the channels its
/// samples carry (the HAS_* flags, also the stroke context's `device_flags`) and its buttons.
/// A channel a device lacks holds the default bristle.h documents for it.
struct InputDevice {
    var name: String
    var pointer: UInt32
    var flags: UInt32
    var buttons: UInt32

    static let all = [
        InputDevice(name: "mouse", pointer: BRISTLE_POINTER_MOUSE, flags: 0, buttons: 1),
        InputDevice(name: "finger", pointer: BRISTLE_POINTER_TOUCH, flags: BRISTLE_SAMPLE_HAS_CONTACT, buttons: 1),
        InputDevice(name: "pen with pressure only", pointer: BRISTLE_POINTER_PEN, flags: BRISTLE_SAMPLE_HAS_PRESSURE, buttons: 1),
        InputDevice(name: "pen with tilt only", pointer: BRISTLE_POINTER_PEN, flags: BRISTLE_SAMPLE_HAS_TILT, buttons: 1),
        InputDevice(name: "pen with every channel", pointer: BRISTLE_POINTER_PEN,
                    flags: BRISTLE_SAMPLE_HAS_PRESSURE | BRISTLE_SAMPLE_HAS_FORCE | BRISTLE_SAMPLE_HAS_TILT
                        | BRISTLE_SAMPLE_HAS_TWIST | BRISTLE_SAMPLE_HAS_TANGENTIAL | BRISTLE_SAMPLE_HAS_CONTACT,
                    buttons: 1),
        InputDevice(name: "pen's eraser end", pointer: BRISTLE_POINTER_ERASER, flags: BRISTLE_SAMPLE_HAS_PRESSURE, buttons: 32),
    ]

    /// `stroke` as this device would report it.
    func apply(to stroke: TestStroke) -> TestStroke {
        var i = 0
        return stroke.mapSamples { s in
            i += 1
            var out = TestStroke.sample(x: s.x, y: s.y, t: s.t, pressure: nil)
            out.flags = flags | (s.flags & BRISTLE_SAMPLE_PREDICTED)
            out.pointer_type = pointer
            out.buttons = buttons
            let f = Float(i % 16) / 16
            if flags & BRISTLE_SAMPLE_HAS_PRESSURE != 0 { out.pressure = s.pressure }
            if flags & BRISTLE_SAMPLE_HAS_FORCE != 0 { out.force = s.pressure * 4; out.max_force = 6.67 }
            if flags & BRISTLE_SAMPLE_HAS_TILT != 0 {
                out.altitude = 0.4 + f
                out.azimuth = f * 6
                out.tilt_x = 40 * f - 20
                out.tilt_y = 30 - 40 * f
            }
            if flags & BRISTLE_SAMPLE_HAS_TWIST != 0 { out.twist = f * 6 }
            if flags & BRISTLE_SAMPLE_HAS_TANGENTIAL != 0 { out.tangential_pressure = 2 * f - 1 }
            if flags & BRISTLE_SAMPLE_HAS_CONTACT != 0 { out.width = 6 + 10 * f; out.height = 4 + 8 * f }
            return out
        }
    }
}
