import BristleHost
import CBristleCallgrind

/// Runs a case with the peers' timing protocol (WORKLOAD.md section 5): `warmup` untimed
/// repetitions, then `reps` timed ones; the canvas is reset before each, outside the timed
/// region; wall (CLOCK_MONOTONIC) and process-CPU time are read around ``BenchCase/run(measured:)``
/// only. With ``BenchOptions/callgrind`` the collection is toggled on just inside that
/// region and off just after it, for measured repetitions only.
public enum BenchRunner {
    /// True when this build can toggle callgrind (it was compiled with `<valgrind/callgrind.h>`).
    public static var callgrindAvailable: Bool { CBristleCallgrind_available() != 0 }

    /// Runs `benchCase`, then writes `bristle_<case>.png` into ``BenchOptions/pngDirectory``
    /// when one is set.
    public static func run(_ benchCase: any BenchCase, options: BenchOptions) throws(BenchError) -> BenchResult {
        var wall: [Double] = [], cpu: [Double] = []
        wall.reserveCapacity(options.reps)
        cpu.reserveCapacity(options.reps)
        for r in -options.warmup..<options.reps {
            let measured = r >= 0
            try benchCase.reset()
            if measured && options.callgrind { CBristleCallgrind_toggle_collect() }
            let w0 = BenchClock.wallNanoseconds(), c0 = BenchClock.cpuNanoseconds()
            try benchCase.run(measured: measured)
            let w1 = BenchClock.wallNanoseconds(), c1 = BenchClock.cpuNanoseconds()
            if measured && options.callgrind { CBristleCallgrind_toggle_collect() }
            if measured {
                wall.append(Double(w1 &- w0) * 1e-6)
                cpu.append(Double(c1 &- c0) * 1e-6)
            }
        }
        if let directory = options.pngDirectory {
            try benchCase.writePNG(to: directory + "/bristle_" + benchCase.name + ".png")
        }
        return BenchResult(caseName: benchCase.name, items: benchCase.items, item: benchCase.item,
                           reps: options.reps, wall: BenchStatistics(wall), cpu: BenchStatistics(cpu),
                           extraFields: benchCase.extraFields)
    }
}
