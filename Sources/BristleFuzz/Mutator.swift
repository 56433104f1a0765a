import BristleHost

/// Seeded mutations of text inputs for the fuzz driver: the same seed gives the same inputs.
///
/// Each call applies one to four of: flip a bit, set a byte to a structural or hostile value,
/// delete a range, duplicate a range, insert a dictionary token, replace a number with an
/// extreme one, splice in a piece of another seed, truncate. Results are capped at
/// ``maximumBytes``.
struct Mutator {
    /// The largest input produced.
    static let maximumBytes = 1 << 20

    /// Tokens worth inserting: structure of every format, extreme numbers, keys and actions
    /// that steer the renderer, and bytes that must never reach a terminal raw.
    static let dictionary: [[UInt8]] = [
        "{", "}", "[", "]", ",", ":", "\"", "\"x\":", "\"y\":", "\"pressure\":", "\"timeStamp\":",
        "\"canvas\":", "\"width\":", "\"height\":", "\"scale\":", "\"background\":", "\"actions\":",
        "{\"undo\":1000000}", "{\"redo\":3}", "{\"clear\":true}", "{\"ticks\":1000}",
        "{\"brush\":{\"id\":\"org.bristle.marker\",\"width\":10000}}",
        "{\"brush\":{\"id\":\"org.bristle.eraser\",\"width\":10000}}",
        "{\"brush\":{\"id\":\"org.bristle.force-hue\"}}", "{\"brush\":{\"id\":\"org.bristle.ellipse\"}}",
        "\"coalesced\":[", "\"predicted\":[", "\"cancelled\":true", "\"pointerType\":\"mouse\"",
        "1e308", "-1e308", "1e-320", "65536", "16384", "4294967296", "-1", "-0", "0.01", "100", "NaN",
        "9007199254740993", "\"\\u0000\"", "\"\\u001b[31m\"", "\u{1b}[2J", "\u{9b}", "\u{0}",
        "<ink>", "</ink>", "<trace>", "</trace>", "<traceFormat>", "<channel name=\"F\" type=\"decimal\"/>",
        "<inkml:ink xmlns:inkml=\"http://www.w3.org/2003/InkML\">", "<!DOCTYPE ink [<!ENTITY a \"aaaa\">]>",
        "&a;", "&#0;", "'", "!", "*", "?", "SPLINE_X,SPLINE_Y,SENSOR_PRESSURE,SENSOR_TIMESTAMP\n",
        "\n", "\r\n", ",,,,", "1,2,3,4\n",
    ].map { Array($0.utf8) }

    private var random: SplitMix64

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    /// A random integer in `0..<n` (`n` > 0).
    mutating func below(_ n: Int) -> Int { Int(random.next() % UInt64(n)) }

    /// `seed` mutated; `others` are spliced from.
    mutating func mutate(_ seed: [UInt8], splicingFrom others: [[UInt8]]) -> [UInt8] {
        var bytes = seed
        for _ in 0...below(4) {
            if bytes.isEmpty { bytes = Self.dictionary[below(Self.dictionary.count)] }
            let at = below(bytes.count)
            switch below(8) {
            case 0:
                bytes[at] ^= 1 << UInt8(below(8))
            case 1:
                let values: [UInt8] = [0, 0xff, 0x7f, 0x80, 0x1b, 0x22, 0x2c, 0x2d, 0x30, 0x39, 0x3a, 0x3c, 0x5b, 0x5d, 0x7b, 0x7d, 0x0a, 0xc3]
                bytes[at] = values[below(values.count)]
            case 2:
                bytes.removeSubrange(at..<min(bytes.count, at + 1 + below(max(1, bytes.count / 4))))
            case 3:
                let end = min(bytes.count, at + 1 + below(256))
                bytes.insert(contentsOf: bytes[at..<end], at: below(bytes.count + 1))
            case 4:
                bytes.insert(contentsOf: Self.dictionary[below(Self.dictionary.count)], at: below(bytes.count + 1))
            case 5:
                bytes = replacingNumber(in: bytes, near: at)
            case 6:
                if let other = others.isEmpty ? nil : others[below(others.count)], !other.isEmpty {
                    let start = below(other.count), end = min(other.count, start + 1 + below(4096))
                    bytes.replaceSubrange(at..<min(bytes.count, at + below(64)), with: other[start..<end])
                }
            default:
                bytes.removeSubrange(at...)
            }
        }
        if bytes.count > Self.maximumBytes { bytes.removeSubrange(Self.maximumBytes...) }
        return bytes
    }

    /// Replaces the run of digits at or after `at` with an extreme number.
    private mutating func replacingNumber(in bytes: [UInt8], near at: Int) -> [UInt8] {
        func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
        guard var start = bytes[at...].firstIndex(where: isDigit) ?? bytes[..<at].lastIndex(where: isDigit) else {
            return bytes
        }
        while start > 0, isDigit(bytes[start - 1]) { start -= 1 }
        var end = start
        while end < bytes.count, isDigit(bytes[end]) || bytes[end] == UInt8(ascii: ".") { end += 1 }
        let extremes = ["0", "1", "65535", "65536", "65537", "268435456", "10000", "10001", "1e308", "1e-308",
                        "4294967295", "9223372036854775807", "0.000001", "999999999999"]
        var out = bytes
        out.replaceSubrange(start..<end, with: Array(extremes[below(extremes.count)].utf8))
        return out
    }
}
