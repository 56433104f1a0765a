import Dispatch
import Glibc
import Synchronization

/// Renders many inputs into a folder in parallel, one input per core at a time, carrying on
/// past bad files and reporting every failure at the end.
///
/// Inputs are files (``BatchInputs`` finds them in folders, by content). Each input becomes
/// `DIR/[subfolder/]<name without extension>.png` (the full file name plus `.png` when two
/// inputs share a stem); a Quick, Draw! file becomes one `DIR/<stem>-<N>.png` per drawing, streamed: the
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
        /// How many renders this result stands for: 1, or the clean drawings of a Quick,
        /// Draw! file, kept as one result (output `DIR/<stem>-*.png`) so that a file of
        /// 100,000 drawings does not keep 100,000 results.
        public var renders = 1
    }

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

    /// The output path of each input, in order, all different: `<subfolder>/<stem>.png`, the
    /// full file name plus `.png` when stems clash in one subfolder, and `-2`, `-3`... when
    /// even those clash (the same name in two folders, or one input given twice).
    /// `subfolders` (one per input, empty for the top) mirror the inputs' folders.
    public func outputs(for inputs: [String], subfolders: [String]? = nil) -> [String] {
        func stem(_ path: String) -> String {
            let name = path.split(separator: "/").last.map(String.init) ?? path
            guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
            return String(name[..<dot])
        }
        let folders = subfolders ?? Array(repeating: "", count: inputs.count)
        func place(_ i: Int, _ name: String) -> String { folders[i].isEmpty ? name : folders[i] + "/" + name }
        var counts: [String: Int] = [:]
        for (i, input) in inputs.enumerated() { counts[place(i, stem(input)), default: 0] += 1 }
        let base = outputDirectory.hasSuffix("/") ? outputDirectory : outputDirectory + "/"
        var used: Set<String> = []
        return inputs.enumerated().map { i, input in
            let name = input.split(separator: "/").last.map(String.init) ?? input
            let wanted = place(i, counts[place(i, stem(input))]! > 1 ? name : stem(input))
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
    public func run(_ inputs: [String], subfolders: [String]? = nil,
                    progress: @escaping @Sendable (Int, Int, String) -> Void = { _, _, _ in }) -> [Result] {
        let outputs = outputs(for: inputs, subfolders: subfolders)
        for folder in Set(subfolders ?? []) where !folder.isEmpty {
            // A folder that cannot be made fails the renders into it, each reported.
            Paths.makeDirectories(outputDirectory + "/" + folder)
        }
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
            var none = Result(input: inputs[index], output: "\(stem)-*.png", error: nil, format: .quickDraw, stats: RenderStats())
            none.renders = 0
            let clean = Mutex(none)
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
                    let stats = renderer.stats
                    if error == nil && stats.warnings.isEmpty {
                        clean.withLock { c in
                            c.renders += 1
                            c.stats.strokes += stats.strokes
                            c.stats.droppedSamples += stats.droppedSamples
                        }
                    } else {
                        let result = Result(input: inputs[index], output: output, error: error, format: .quickDraw, stats: stats)
                        rendered.withLock { $0.append(result) }
                    }
                    finished(inputs[index], extra: 1)
                }
            }
            var all = rendered.withLock { $0 }
            let together = clean.withLock { $0 }
            if together.renders > 0 { all.append(together) }
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
