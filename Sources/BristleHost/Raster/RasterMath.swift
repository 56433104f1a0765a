#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

#if canImport(Glibc) || canImport(Musl)
/// The C library's `sincos` (a GNU extension the Swift overlay does not import): the sine and
/// cosine of `x` in one call, the same values as `sin` and `cos` (glibc computes all three
/// with the same code).
@_silgen_name("sincos")
private func cSineCosine(_ x: Double, _ s: UnsafeMutablePointer<Double>, _ c: UnsafeMutablePointer<Double>)
#endif

/// Thin wrappers over the C maths library so the pipeline files need no platform imports.
enum RasterMath {
    @inline(__always) static func sine(_ x: Double) -> Double { sin(x) }
    @inline(__always) static func cosine(_ x: Double) -> Double { cos(x) }
    /// `(sine(x), cosine(x))`, bit for bit, in one call where the C library has `sincos`.
    @inline(__always) static func sineCosine(_ x: Double) -> (sin: Double, cos: Double) {
        #if canImport(Glibc) || canImport(Musl)
        var s = 0.0, c = 0.0
        cSineCosine(x, &s, &c)
        return (s, c)
        #else
        return (sin(x), cos(x))
        #endif
    }
    /// `(sin x, cos x)` for `|x| <= π/16` by their Taylor polynomials (to x^11 and x^12: the
    /// first term left out is below 2e-19), no call: within an ulp or two of the C library's.
    @inline(__always) static func smallAngleSineCosine(_ x: Double) -> (sin: Double, cos: Double) {
        let x2 = x * x
        let s = x + x * x2 * (-1.0 / 6 + x2 * (1.0 / 120 + x2 * (-1.0 / 5040 + x2 * (1.0 / 362_880
            + x2 * (-1.0 / 39_916_800)))))
        let c = 1 + x2 * (-0.5 + x2 * (1.0 / 24 + x2 * (-1.0 / 720 + x2 * (1.0 / 40320
            + x2 * (-1.0 / 3_628_800 + x2 * (1.0 / 479_001_600))))))
        return (s, c)
    }
    @inline(__always) static func arcCosine(_ x: Double) -> Double { acos(x) }
    @inline(__always) static func arcTangent(_ y: Double, _ x: Double) -> Double { atan2(y, x) }
}
