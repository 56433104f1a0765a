import BristleHost
import Glibc

/// A script case: a stroke script generated as JSON text before the case runs
/// (``BenchScripts``), then in the timed region parsed and rendered like `bristle render`
/// does, without writing the PNG (``InkImporter/parse(_:sourcePath:fitInto:)``, then
/// ``ScriptRenderer/render(_:)``).
///
/// The line adds `peak_rss_mib`, the process's peak resident memory so far (`VmHWM`): run
/// the case alone (`--case NAME`) for the figure of that case.
final class ScriptCase: BenchCase {
    let name: String
    let item: String
    let items: Int
    var extraFields: [(String, String)] {
        [("script_bytes", String(json.count)), ("peak_rss_mib", BenchResult.fixed(Self.peakResidentMiB(), 1))]
    }

    private let json: [UInt8]
    /// The last repetition's result, for ``writePNG(to:)``.
    private var session: DrawingSession?

    init(name: String, item: String, script: BenchScripts.Script) {
        self.name = name
        self.item = item
        items = script.items
        json = Array(script.json.utf8)
    }

    /// Drops the previous repetition's canvas (untimed), so repetitions do not hold two.
    func reset() throws(BenchError) { session = nil }

    func run(measured: Bool) throws(BenchError) {
        do {
            let script = try InkImporter.parse(json, sourcePath: name + ".json").script
            session = try ScriptRenderer(options: RenderOptions()).render(script)
        } catch {
            throw BenchError("\(name): \(error)", hint: "the script cases need the reference plugins beside bristle or on BRISTLE_PATH",
                             exitStatus: 70)
        }
    }

    func writePNG(to path: String) throws(BenchError) {
        guard let session else { return }
        do { try session.exportPNG(to: path, transparent: false) } catch { throw BenchError.png(error) }
    }

    /// `VmHWM` of /proc/self/status in MiB (0 when it cannot be read).
    static func peakResidentMiB() -> Double {
        let fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return 0 }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 8192)
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
        guard n > 0 else { return 0 }
        for line in String(decoding: buffer[..<n], as: UTF8.self).split(separator: "\n") where line.hasPrefix("VmHWM:") {
            return Double(line.dropFirst(6).filter(\.isNumber)).map { $0 / 1024 } ?? 0
        }
        return 0
    }
}
