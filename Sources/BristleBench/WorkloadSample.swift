import BristleHost

/// One sample of the benchmark pen stroke: position (pixels), pressure in `[0, 1]` and the line
/// width `2 + 18 p` (pixels) of the segment that starts here.
public struct WorkloadSample: Equatable, Sendable {
    public var x: Double
    public var y: Double
    public var pressure: Double
    public var width: Double

    public init(x: Double, y: Double, pressure: Double, width: Double) {
        self.x = x
        self.y = y
        self.pressure = pressure
        self.width = width
    }
}
