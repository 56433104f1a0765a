/// A check of a recording's clock against what a pen can do (docs/importers.md, "Implausible
/// timing"): a stroke of at least ``minimumSamples`` timed samples whose samples arrive faster
/// than ``maximumRate`` per second on average, or which lasts under ``minimumDuration``
/// milliseconds, was almost certainly written in the wrong unit (seconds, or microseconds read
/// as milliseconds). Rendering goes on; the user gets one warning line per file.
public enum StrokeTiming {
    /// The most samples per second a pen digitiser reports on average (fast ones report 240-1000).
    public static let maximumRate = 2000.0
    /// The shortest plausible duration, in milliseconds, of a stroke of many samples.
    public static let minimumDuration = 5.0
    /// Strokes with fewer timed samples are not judged (a tap, a synthetic test stroke).
    public static let minimumSamples = 8

    /// The warning for `script`, located at its first implausible stroke and counting the
    /// others, or nil when every stroke is plausible. Counts the real samples (events and
    /// their coalesced samples, not predicted ones) that carry a `timeStamp`.
    public static func warning(for script: StrokeScript) -> String? {
        var first: (index: Int, stroke: StrokeSpec, samples: Int, milliseconds: Double)?
        var others = 0, index = 0
        for action in script.actions {
            guard case .stroke(let stroke) = action.kind else { continue }
            index += 1
            var times: [Double] = []
            for event in stroke.events {
                let real = event.coalesced.isEmpty ? [event.sample] : event.coalesced
                times += real.compactMap(\.timeStamp)
            }
            guard times.count >= minimumSamples, let lo = times.min(), let hi = times.max() else { continue }
            let duration = hi - lo
            let rate = Double(times.count - 1) / (duration / 1000)
            guard duration < minimumDuration || rate > maximumRate else { continue }
            if first == nil { first = (index, stroke, times.count, duration) } else { others += 1 }
        }
        guard let first else { return nil }
        let at = first.stroke.location
        let more = others == 0 ? "" : " (and \(others) more stroke\(others == 1 ? "" : "s") like it)"
        return "\(script.sourcePath):\(at.line):\(at.column): warning: stroke \(first.index)\(more) has \(first.samples) "
            + "samples in \(plain(first.milliseconds)) ms, faster than a pen reports (at most \(Int(maximumRate)) "
            + "samples per second): its timeStamp values are probably not in milliseconds"
    }

    /// Milliseconds with at most three decimals.
    private static func plain(_ value: Double) -> String {
        let rounded = (value * 1000).rounded() / 1000
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}
