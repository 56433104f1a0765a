import BristleHost
import Glibc

/// One fuzz run: bytes written as an input file and rendered as `bristle render IN -o OUT`
/// renders it (read, import, render, atomic PNG export), in a scratch folder, checking what a
/// hostile input must never break:
/// - the process neither crashes nor hangs (a crash ends the process; the driver's watchdog
///   and libFuzzer's `-timeout` catch a hang);
/// - a render either writes a PNG that decodes, or fails with an error that leaves the
///   output file byte for byte as it was;
/// - the input file is never changed, and no temporary file remains.
///
/// A broken promise stops the process with a message (`fatalError`), which the driver and
/// libFuzzer report as a crash, with the input kept for replay.
///
/// To keep runs short, recordings are fitted into 320x240 and a script asking for more than
/// 2^20 pixels gets a 512x512 canvas instead; a brush given by path is replaced by the pencil
/// (mutations must not load arbitrary libraries).
final class FuzzTarget {
    /// What one run did.
    enum Outcome: Hashable {
        case rendered
        case refused(status: Int32)
    }

    let folder: String
    private let input: String
    private let output: String

    /// A target working in `folder` (created, with its parents, when missing).
    init(folder: String) {
        self.folder = folder
        makeDirectories(folder)
        input = folder + "/input"
        output = folder + "/out.png"
    }

    /// Renders `bytes`; `variant` picks the run's options (1 in 8 runs aims the output at the
    /// input itself, which must be refused).
    func run(_ bytes: [UInt8], variant: UInt64) -> Outcome {
        let sentinel = Array("not a PNG: the previous output \(variant)\n".utf8)
        write(bytes, to: input)
        write(sentinel, to: output)
        let destination = variant % 8 == 0 ? input : output

        var options = RenderOptions()
        options.canvasSize = (320, 240)
        var outcome = Outcome.rendered
        do throws(RenderError) {
            let script = try ScriptRenderer.loadInput(path: input, fitInto: options.canvasSize).script
            options.canvasSize = nil
            if let w = script.canvas.width, let h = script.canvas.height, w * h > 1 << 20 {
                options.canvasSize = (512, 512)
            }
            if script.actions.contains(where: { if case .brush(let spec) = $0.kind { spec.path != nil } else { false } }) {
                options.brush = RenderOptions.defaultBrush
            }
            try ScriptRenderer(options: options).render(script, toPNG: destination)
        } catch {
            outcome = .refused(status: error.exitStatus)
            // Aimed at the input, the render must stop at the guard (73), or before it at a
            // malformed input (65).
            if destination == input, ![65, 73].contains(error.exitStatus) {
                violation("the output was aimed at the input, and the render failed with \(error.exitStatus), not 73: \(error)")
            }
        }
        check(bytes, sentinel: sentinel, outcome: outcome, destination: destination)
        return outcome
    }

    private func check(_ bytes: [UInt8], sentinel: [UInt8], outcome: Outcome, destination: String) {
        if read(input) != bytes { violation("the input file was changed") }
        switch outcome {
        case .rendered:
            if destination == input { violation("a render wrote its output over its input") }
            do { _ = try PNGCodec.read(path: output) } catch { violation("the output is not a readable PNG: \(error)") }
        case .refused:
            if read(output) != sentinel { violation("a failed render changed the earlier output file") }
        }
        for name in Paths.visibleEntries(of: folder) ?? [] where name != "input" && name != "out.png" {
            violation("a stray file was left in the output folder: \(name)")
        }
        if let hidden = hiddenEntries().first { violation("a temporary file was left behind: \(hidden)") }
    }

    private func hiddenEntries() -> [String] {
        guard let dir = opendir(folder) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasPrefix("."), name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    private func violation(_ message: String) -> Never {
        fatalError("bristle-fuzz: broken promise: \(message)")
    }
}

/// Creates `path` and any missing parent folders (like `mkdir -p`); a folder that cannot be
/// made is reported when the first file in it cannot be written.
func makeDirectories(_ path: String) {
    var prefix = path.hasPrefix("/") ? "/" : ""
    for part in path.split(separator: "/") {
        prefix += part
        mkdir(prefix, 0o755)
        prefix += "/"
    }
}

/// Replaces `path` with `bytes` (plain write; the scratch folder is the fuzzer's own).
func write(_ bytes: [UInt8], to path: String) {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard fd >= 0 else { fatalError("bristle-fuzz: cannot write \(path): \(String(cString: strerror(errno)))") }
    defer { close(fd) }
    var offset = 0
    while offset < bytes.count {
        let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, bytes.count - offset) }
        guard n > 0 else { fatalError("bristle-fuzz: cannot write \(path)") }
        offset += n
    }
}

/// The bytes of the file at `path`, or nil.
func read(_ path: String) -> [UInt8]? {
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, $0.count) }
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else { break }
        bytes += chunk[0..<n]
    }
    return bytes
}
