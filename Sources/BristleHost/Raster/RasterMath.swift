#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Thin wrappers over the C maths library so the pipeline files need no platform imports.
enum RasterMath {
    @inline(__always) static func sine(_ x: Double) -> Double { sin(x) }
    @inline(__always) static func cosine(_ x: Double) -> Double { cos(x) }
    @inline(__always) static func arcCosine(_ x: Double) -> Double { acos(x) }
    @inline(__always) static func arcTangent(_ y: Double, _ x: Double) -> Double { atan2(y, x) }
}
