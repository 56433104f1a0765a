import BristleHost
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The canonical benchmark workload of `shared/bench/peers/WORKLOAD.md` (reference
/// implementation `common/workload.h`), generated bit for bit: the same libm calls in the same
/// order on doubles, so every peer and we draw the identical stroke and shapes.
public enum BenchWorkload {
    /// Canvas of every case except the large latency one.
    public static let canvasWidth = 2048
    public static let canvasHeight = 1536
    /// Samples of the pen stroke (9,999 segments).
    public static let sampleCount = 10_000
    /// Random shapes per shape case.
    public static let shapeCount = 1_000
    /// The stroke colour, straight 8-bit sRGB; alpha 255 (opaque cases) or 128 (alpha-50).
    public static let strokeRed: UInt8 = 26
    public static let strokeGreen: UInt8 = 77
    public static let strokeBlue: UInt8 = 204
    public static let opaqueAlpha: UInt8 = 255
    public static let halfAlpha: UInt8 = 128
    /// Width at pressure 0 and 1 (pixels).
    public static let minimumWidth = 2.0
    public static let maximumWidth = 20.0

    /// Seeds of the shape cases.
    public static let ellipseFillSeed: UInt64 = 0x5EED_0001
    public static let ellipseStrokeSeed: UInt64 = 0x5EED_0002
    public static let rectFillSeed: UInt64 = 0x5EED_0003
    public static let rectStrokeSeed: UInt64 = 0x5EED_0004

    /// The stroke colour at `alpha`.
    public static func strokeColor(alpha: UInt8) -> RGBAColor {
        RGBAColor(red8: strokeRed, green8: strokeGreen, blue8: strokeBlue, alpha8: alpha)
    }

    /// Sample `i` of an `n`-sample stroke (`n = sampleCount` for the workload):
    /// `t = i / (n - 1)`, `r = 1 - t/2`, `x = 1024 + 960 r sin(6πt + π/4)`,
    /// `y = 768 + 720 r sin(8πt)`, `p = 1/2 - cos(10πt)/2`, `w = 2 + 18 p`.
    public static func sample(_ i: Int, of n: Int = sampleCount) -> WorkloadSample {
        let t = Double(i) / Double(n - 1)
        let r = 1.0 - 0.5 * t
        let x = 1024.0 + 960.0 * r * sin(2.0 * Double.pi * 3.0 * t + Double.pi / 4.0)
        let y = 768.0 + 720.0 * r * sin(2.0 * Double.pi * 4.0 * t)
        let p = 0.5 - 0.5 * cos(2.0 * Double.pi * 5.0 * t)
        return WorkloadSample(x: x, y: y, pressure: p, width: minimumWidth + (maximumWidth - minimumWidth) * p)
    }

    /// The whole stroke, `sampleCount` samples.
    public static func stroke() -> [WorkloadSample] {
        (0..<sampleCount).map { sample($0) }
    }

    /// The 1,000 shapes for `seed`; `rectangles` selects the rectangle size ranges. Nine
    /// uniform numbers are drawn per shape in the normative order, used or not.
    public static func shapes(seed: UInt64, rectangles: Bool) -> [WorkloadShape] {
        var rng = SplitMix64(seed: seed)
        let side = rectangles ? 252.0 : 124.0
        return (0..<shapeCount).map { _ in
            let a = rng.unit() * Double(canvasWidth)
            let b = rng.unit() * Double(canvasHeight)
            let c = 4.0 + side * rng.unit()
            let d = 4.0 + side * rng.unit()
            let red = UInt8((256.0 * rng.unit()).rounded(.down))
            let green = UInt8((256.0 * rng.unit()).rounded(.down))
            let blue = UInt8((256.0 * rng.unit()).rounded(.down))
            let alpha = UInt8(128 + Int((128.0 * rng.unit()).rounded(.down)))
            let sw = 1.0 + 7.0 * rng.unit()
            return WorkloadShape(a: a, b: b, c: c, d: d, red: red, green: green, blue: blue,
                                 alpha: alpha, strokeWidth: sw)
        }
    }
}
