import Glibc

/// A monotonic clock in seconds, for the time measurements the tests report.
enum Clock {
    static func seconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
