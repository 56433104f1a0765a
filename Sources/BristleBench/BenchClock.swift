#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The clocks of the peers' timing protocol: CLOCK_MONOTONIC wall time and
/// CLOCK_PROCESS_CPUTIME_ID process CPU time.
enum BenchClock {
    /// Monotonic wall time in nanoseconds.
    @inline(__always)
    static func wallNanoseconds() -> UInt64 { read(CLOCK_MONOTONIC) }

    /// CPU time of the whole process in nanoseconds.
    @inline(__always)
    static func cpuNanoseconds() -> UInt64 { read(CLOCK_PROCESS_CPUTIME_ID) }

    @inline(__always)
    private static func read(_ clock: clockid_t) -> UInt64 {
        var ts = timespec()
        clock_gettime(clock, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }
}
