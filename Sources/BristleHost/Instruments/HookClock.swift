import CBristleClock
import Glibc

/// The clock a ``HookTimeline`` reads twice per recorded call: the CPU's time-stamp counter
/// (RDTSC, inlined, about 20 cycles) where it is invariant, else `CLOCK_MONOTONIC` (some
/// 70 ns a read in a VM). Readings are ticks; ``Scale`` turns them into nanoseconds, with
/// the counter's rate measured against the monotonic clock between the clock's creation and
/// the moment the scale is taken (the render's length, so its error is a few parts in a
/// million), never from a nominal frequency.
struct HookClock {
    /// Whether this machine's counter measures time: CPUID's invariant-TSC bit (Linux's
    /// `constant_tsc` and `nonstop_tsc`); checked once per process.
    static let counterIsInvariant = CBristleClock_invariant_tsc() != 0

    /// Whether readings come from the counter (else they are monotonic nanoseconds).
    let readsCounter: Bool
    /// The first reading, and the monotonic time taken with it.
    private let originTicks: UInt64
    private let originNanoseconds: UInt64

    /// Starts the clock; `readsCounter` false forces the monotonic clock (the fallback).
    init(readsCounter: Bool = HookClock.counterIsInvariant) {
        self.readsCounter = readsCounter
        originNanoseconds = Self.monotonic()
        originTicks = readsCounter ? CBristleClock_ticks() : originNanoseconds
    }

    /// A reading, in ticks.
    @inline(__always)
    func ticks() -> UInt64 { readsCounter ? CBristleClock_ticks() : Self.monotonic() }

    /// `CLOCK_MONOTONIC` in nanoseconds.
    static func monotonic() -> UInt64 {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return UInt64(t.tv_sec) &* 1_000_000_000 &+ UInt64(t.tv_nsec)
    }

    /// Turns readings into nanoseconds since the clock started.
    struct Scale {
        let originTicks: UInt64
        let nanosecondsPerTick: Double

        /// Nanoseconds since the clock started at reading `ticks` (monotonic in `ticks`, so
        /// calls nested in time stay nested).
        @inline(__always)
        func nanoseconds(_ ticks: UInt64) -> UInt64 {
            ticks <= originTicks ? 0 : UInt64(Double(ticks &- originTicks) * nanosecondsPerTick + 0.5)
        }
    }

    /// The scale as measured from the clock's start until now: exactly 1 for the monotonic
    /// clock; the counter's elapsed ticks against the monotonic clock's elapsed nanoseconds
    /// otherwise (1 as well while no tick has passed).
    func scale() -> Scale {
        guard readsCounter else { return Scale(originTicks: originTicks, nanosecondsPerTick: 1) }
        let nanoseconds = Self.monotonic() &- originNanoseconds, ticks = CBristleClock_ticks() &- originTicks
        return Scale(originTicks: originTicks,
                     nanosecondsPerTick: ticks == 0 || nanoseconds == 0 ? 1 : Double(nanoseconds) / Double(ticks))
    }
}
