import Dispatch
import Glibc
import Synchronization

/// Renders many inputs into a folder in parallel, one input per core at a time, carrying on
/// past bad files and reporting every failure at the end.
///
/// Inputs are files, or folders whose files with a known extension (`.json`, `.inkml`, `.xml`,
/// `.csv`) are taken in name order. Each input becomes `DIR/<name without extension>.png`
/// (the full file name plus `.png` when two inputs share a stem). Every input gets its own
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
    public static let inputExtensions = ["json", "inkml", "xml", "csv"]

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
    /// call at a time) as each finishes. Results come back in input order.
    public func run(_ inputs: [String],
                    progress: @escaping @Sendable (Int, Int, String) -> Void = { _, _, _ in }) -> [Result] {
        let outputs = outputs(for: inputs)
        let results = Mutex<[Result?]>(Array(repeating: nil, count: inputs.count))
        let done = Mutex(0)
        let next = Mutex(0)
        var protected = self.options
        protected.protectedPaths += inputs
        let options = protected
        DispatchQueue.concurrentPerform(iterations: min(workers, max(inputs.count, 1))) { _ in
            while true {
                let index: Int = next.withLock { n in
                    defer { n += 1 }
                    return n
                }
                guard index < inputs.count else { return }
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
                results.withLock { $0[index] = result }
                done.withLock { count in
                    count += 1
                    progress(count, inputs.count, inputs[index])
                }
            }
        }
        return results.withLock { $0.map { $0! } }
    }
}
