import Dispatch
import Glibc
import Synchronization

/// Renders many inputs into a folder in parallel, one input per core at a time, carrying on
/// past bad files and reporting every failure at the end.
///
/// Inputs are files, or folders whose files with a known extension (`.json`, `.inkml`, `.xml`,
/// `.csv`, `.ndjson`, `.svc`) are taken in name order. Each input becomes
/// `DIR/<name without extension>.png` (the full file name plus `.png` when two inputs share a
/// stem); a Quick, Draw! file becomes one `DIR/<stem>-<N>.png` per drawing, streamed: the
/// workers take its drawings one at a time, so its size does not matter. Every input gets its own
/// ``ScriptRenderer``, session and brush instances, so renders share nothing but the loaded
/// plugin libraries.
public struct BatchRenderer: Sendable {
    /// The outcome for one input.
    public struct Result: Sendable {
        public var input: String
        public var output: String
        /// Nil when the render succeeded.
        public var error: RenderError?
        /// The format the input was read as, once it was read.
        public var format: InkImporter.Format?
        /// What the render did (empty when it failed early).
        public var stats: RenderStats
    }

    /// The file extensions taken from a folder.
    public static let inputExtensions = ["json", "inkml", "xml", "csv", "ndjson", "svc"]

    public var options: RenderOptions
    public var outputDirectory: String
    /// Concurrent renders; defaults to the number of online CPUs.
    public var workers: Int

    public init(options: RenderOptions, outputDirectory: String,
                workers: Int = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))) {
        self.options = options
        self.outputDirectory = outputDirectory
        self.workers = max(1, workers)
    }

    /// Expands folders into their input files; files are kept as given. A missing path is kept
    /// too, so that it is reported as a failure like any other bad input.
    public static func expand(_ inputs: [String]) -> [String] {
        inputs.flatMap { path in Paths.isDirectory(path) ? Self.files(in: path) : [path] }
    }

    /// The input files of a folder; an unreadable folder is returned itself, so that reading
    /// it fails and is reported like any other bad input.
    private static func files(in directory: String) -> [String] {
        guard let names = Paths.visibleEntries(of: directory) else { return [directory] }
        let base = directory.hasSuffix("/") ? directory : directory + "/"
        return names.filter { name in
            guard let dot = name.lastIndex(of: ".") else { return false }
            return inputExtensions.contains(name[name.index(after: dot)...].lowercased())
        }.map { base + $0 }
    }

    /// The output path of each input, in order, all different: `<stem>.png`, the full file
    /// name plus `.png` when stems clash, and `-2`, `-3`... when even those clash (the same
    /// name in two folders, or one input given twice).
    public func outputs(for inputs: [String]) -> [String] {
        func stem(_ path: String) -> String {
            let name = path.split(separator: "/").last.map(String.init) ?? path
            guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
            return String(name[..<dot])
        }
        var counts: [String: Int] = [:]
        for input in inputs { counts[stem(input), default: 0] += 1 }
        let base = outputDirectory.hasSuffix("/") ? outputDirectory : outputDirectory + "/"
        var used: Set<String> = []
        return inputs.map { input in
            let name = input.split(separator: "/").last.map(String.init) ?? input
            let wanted = counts[stem(input)]! > 1 ? name : stem(input)
            var candidate = wanted
            var n = 1
            while !used.insert(candidate).inserted {
                n += 1
                candidate = "\(wanted)-\(n)"
            }
            return base + candidate + ".png"
        }
    }

    /// Renders every input; `progress(done, total, input)` is called (from worker threads, one
    /// call at a time) as each finishes. Results come back in input order, a Quick, Draw!
    /// file's drawings in file order where the file is.
    public func run(_ inputs: [String],
                    progress: @escaping @Sendable (Int, Int, String) -> Void = { _, _, _ in }) -> [Result] {
        let outputs = outputs(for: inputs)
        let results = Mutex<[[Result]]>(Array(repeating: [], count: inputs.count))
        let done = Mutex((done: 0, total: inputs.count))
        let next = Mutex(0)
        var protected = self.options
        protected.protectedPaths += inputs
        let options = protected
        let drawings = inputs.map { Paths.isDirectory($0) ? nil : QuickDrawDrawings(path: $0) }
        @Sendable func finished(_ input: String, extra: Int) {
            done.withLock { count in
                count.done += 1
                count.total += extra
                progress(count.done, count.total, input)
            }
        }
        DispatchQueue.concurrentPerform(iterations: min(workers, max(inputs.count, 1))) { _ in
            while true {
                let index: Int = next.withLock { n in
                    defer { n += 1 }
                    return n
                }
                guard index < inputs.count else { return }
                guard drawings[index] == nil else { continue }
                let renderer = ScriptRenderer(options: options)
                var format: InkImporter.Format?
                let outcome = Swift.Result { () throws(RenderError) in
                    let input = try ScriptRenderer.loadInput(path: inputs[index], fitInto: options.canvasSize)
                    format = input.format
                    try renderer.render(input.script, toPNG: outputs[index])
                }
                var error: RenderError?
                if case .failure(let failure) = outcome { error = failure }
                let result = Result(input: inputs[index], output: outputs[index], error: error,
                                    format: format, stats: renderer.stats)
                results.withLock { $0[index] = [result] }
                finished(inputs[index], extra: 0)
            }
        }
        for (index, file) in drawings.enumerated() {
            guard let file else { continue }
            let stem = String(outputs[index].dropLast(4))
            let rendered = Mutex<[Result]>([])
            DispatchQueue.concurrentPerform(iterations: workers) { _ in
                while let drawing = file.next() {
                    let output = "\(stem)-\(drawing.index).png"
                    let renderer = ScriptRenderer(options: options)
                    let outcome = Swift.Result { () throws(RenderError) in
                        let script: StrokeScript
                        do throws(InputError) {
                            script = try file.script(of: drawing, fitInto: options.canvasSize ?? InkImporter.defaultCanvasSize)
                        } catch {
                            throw .input(error)
                        }
                        try renderer.render(script, toPNG: output)
                    }
                    var error: RenderError?
                    if case .failure(let failure) = outcome { error = failure }
                    let result = Result(input: inputs[index], output: output, error: error,
                                        format: .quickDraw, stats: renderer.stats)
                    rendered.withLock { $0.append(result) }
                    finished(inputs[index], extra: 1)
                }
            }
            var all = rendered.withLock { $0 }
            all.sort { $0.output.count != $1.output.count ? $0.output.count < $1.output.count : $0.output < $1.output }
            if all.isEmpty {
                let error = RenderError.input(InputError(file: inputs[index], location: nil,
                                                         message: "expected at least one drawing in the Quick, Draw! file, found none"))
                all = [Result(input: inputs[index], output: outputs[index], error: error, format: .quickDraw, stats: RenderStats())]
            }
            results.withLock { $0[index] = all }
            done.withLock { $0.total -= 1 }
        }
        return results.withLock { $0.flatMap { $0 } }
    }
}
