import Glibc

/// The host's pressure curve: maps measured pressure in [0, 1] to the pressure brushes receive
/// (bristle.h: a sample's `pressure` is "already passed through the host's pressure curve").
/// The identity by default; only samples with measured pressure go through it.
public enum PressureCurve: Equatable, Sendable, CustomStringConvertible {
    /// A point of a ``points(_:)`` curve.
    public struct Point: Equatable, Sendable {
        public var x: Double
        public var y: Double
        public init(x: Double, y: Double) {
            self.x = x
            self.y = y
        }
    }

    case identity
    /// `p^gamma`: below 1 makes light pressure count more, above 1 less.
    case gamma(Double)
    /// Piecewise linear through points with increasing x; flat before the first and after the
    /// last point.
    case points([Point])

    /// Why a curve was refused.
    public struct ParseError: Error, Equatable, Sendable, CustomStringConvertible {
        public var text: String
        public var reason: String
        public var description: String {
            "pressure curve '\(text)': \(reason); write identity, gamma:G (G in 0.1...10) or points:X,Y;X,Y;... (X increasing, all in [0, 1])"
        }
    }

    /// Parses `identity`, `gamma:0.6` or `points:0,0;0.4,0.7;1,1`.
    public init(parsing text: String) throws(ParseError) {
        let lower = text.lowercased()
        if lower == "identity" || lower == "linear" {
            self = .identity
        } else if lower.hasPrefix("gamma:") {
            guard let g = Double(lower.dropFirst(6)), g >= 0.1, g <= 10 else {
                throw ParseError(text: text, reason: "the gamma must be a number in 0.1...10")
            }
            self = .gamma(g)
        } else if lower.hasPrefix("points:") {
            var points: [Point] = []
            for pair in lower.dropFirst(7).split(separator: ";") {
                let xy = pair.split(separator: ",")
                guard xy.count == 2, let x = Double(xy[0]), let y = Double(xy[1]),
                      (0...1).contains(x), (0...1).contains(y) else {
                    throw ParseError(text: text, reason: "'\(pair)' is not a point X,Y in [0, 1]")
                }
                if let last = points.last, x <= last.x {
                    throw ParseError(text: text, reason: "x must increase from point to point")
                }
                points.append(Point(x: x, y: y))
            }
            guard points.count >= 2 else { throw ParseError(text: text, reason: "give at least two points") }
            self = .points(points)
        } else {
            throw ParseError(text: text, reason: "unknown curve")
        }
    }

    /// The curve at `p` (clamped to [0, 1] first); the result is in [0, 1].
    public func apply(_ p: Double) -> Double {
        let x = p.isNaN ? 0 : min(max(p, 0), 1)
        switch self {
        case .identity:
            return x
        case .gamma(let g):
            return Glibc.pow(x, g)
        case .points(let points):
            guard let first = points.first, let last = points.last else { return x }
            if x <= first.x { return first.y }
            if x >= last.x { return last.y }
            let i = points.firstIndex { $0.x >= x }!
            let a = points[i - 1], b = points[i]
            return a.y + (b.y - a.y) * (x - a.x) / (b.x - a.x)
        }
    }

    public var description: String {
        switch self {
        case .identity: return "identity"
        case .gamma(let g): return "gamma:\(g)"
        case .points(let p): return "points:" + p.map { "\($0.x),\($0.y)" }.joined(separator: ";")
        }
    }
}
