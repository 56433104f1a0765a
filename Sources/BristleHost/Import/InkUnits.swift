import Foundation

/// Unit conversions and the Pointer Events ranges imported values are brought into.
enum InkUnits {
    /// `radians` folded into [0, 2π): an azimuth of 2π (or -0.1) is the same direction as 0
    /// (or 2π - 0.1).
    static func azimuth(radians: Double) -> Double {
        let full = 2 * Double.pi
        var a = radians.truncatingRemainder(dividingBy: full)
        if a < 0 { a += full }
        return a >= full ? 0 : a
    }

    /// `radians` clamped into [0, π/2], the Pointer Events altitude range.
    static func altitude(radians: Double) -> Double {
        min(max(radians, 0), Double.pi / 2)
    }

    /// `degrees` clamped into [-90, 90], the Pointer Events tilt range.
    static func tilt(degrees: Double) -> Double {
        min(max(degrees, -90), 90)
    }

    /// `degrees` folded into [0, 360), the Pointer Events twist range.
    static func twist(degrees: Double) -> Double {
        var a = degrees.truncatingRemainder(dividingBy: 360)
        if a < 0 { a += 360 }
        return a >= 360 ? 0 : a
    }

    /// `value` clamped into [0, 1].
    static func unit(_ value: Double) -> Double {
        min(max(value, 0), 1)
    }

    /// `units` split into a factor and a base unit: `1/100 deg` is (0.01, `deg`), `0.5mm` is
    /// (0.5, `mm`), `deg` is (1, `deg`). A reciprocal such as `1/in` (a resolution's unit) has
    /// no number after the slash and is returned whole, with factor 1.
    static func scaled(_ units: String?) -> (factor: Double, base: String?) {
        guard let text = units?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return (1, nil) }
        var rest = Substring(text)
        var reciprocal = false
        if rest.hasPrefix("1/") {
            rest = rest.dropFirst(2).drop { $0 == " " }
            reciprocal = true
        }
        let number = rest.prefix { $0.isNumber || $0 == "." }
        guard !number.isEmpty, let n = Double(number), n > 0, n.isFinite else { return (1, text) }
        let base = rest.dropFirst(number.count).trimmingCharacters(in: .whitespaces)
        return (reciprocal ? 1 / n : n, base.isEmpty ? nil : base)
    }

    /// How many degrees one unit of an angle channel is, from its `units` attribute: `deg`
    /// (the default), `rad`, or `grad`, optionally scaled (`1/100 deg`). `nil` for a unit that
    /// is not an angle (`dev`: an angle in device units has no known size).
    static func degreesPerUnit(_ units: String?) -> Double? {
        let (factor, base) = scaled(units)
        return plainDegreesPerUnit(base).map { $0 * factor }
    }

    private static func plainDegreesPerUnit(_ units: String?) -> Double? {
        switch units?.lowercased() {
        case nil, "", "deg", "degree", "degrees", "°": return 1
        case "rad", "radian", "radians": return 180 / Double.pi
        case "grad", "gon": return 0.9
        default: return nil
        }
    }

    /// How many milliseconds one unit of a time channel is, from its `units` attribute: `ms`
    /// (the default), `s`, `us`/`µs`, `ns`, `min`, optionally scaled (`1/1000 s`). `nil` for a
    /// unit that is not a time.
    static func millisecondsPerUnit(_ units: String?) -> Double? {
        let (factor, base) = scaled(units)
        return plainMillisecondsPerUnit(base).map { $0 * factor }
    }

    private static func plainMillisecondsPerUnit(_ units: String?) -> Double? {
        switch units?.lowercased() {
        case nil, "", "ms", "msec", "millisecond", "milliseconds": return 1
        case "s", "sec", "second", "seconds": return 1000
        case "us", "µs", "μs", "microsecond", "microseconds": return 0.001
        case "ns", "nanosecond", "nanoseconds": return 0.000001
        case "min", "minute", "minutes": return 60000
        default: return nil
        }
    }

    /// Millimetres per unit of a length, for `in`, `cm`, `mm`, `m`, `pt`, `pc`, `himetric`
    /// (0.01 mm), optionally scaled (`1/10 mm`). `nil` for other units (`dev`, pixels), which
    /// have no known size.
    static func millimetresPerUnit(_ units: String?) -> Double? {
        let (factor, base) = scaled(units)
        return plainMillimetresPerUnit(base).map { $0 * factor }
    }

    /// Whether `units` name a device unit or a pixel: a length with no known size.
    static func isDeviceUnit(_ units: String?) -> Bool {
        switch scaled(units).base?.lowercased() {
        case nil, "dev", "device", "px", "pixel", "pixels", "count", "counts": return true
        default: return false
        }
    }

    /// Whether `units` are a force unit: a range (`min`/`max`) of them normalises to pressure.
    static func isForceUnit(_ units: String?) -> Bool {
        switch scaled(units).base?.lowercased() {
        case nil, "dev", "device", "n", "newton", "newtons", "g", "gf", "kg", "%", "level", "levels": return true
        default: return false
        }
    }

    private static func plainMillimetresPerUnit(_ units: String?) -> Double? {
        switch units?.lowercased() {
        case "in", "inch", "inches": return 25.4
        case "cm": return 10
        case "mm": return 1
        case "m": return 1000
        case "um", "µm", "μm": return 0.001
        case "pt": return 25.4 / 72
        case "pc": return 25.4 / 6
        case "himetric": return 0.01
        default: return nil
        }
    }
}
