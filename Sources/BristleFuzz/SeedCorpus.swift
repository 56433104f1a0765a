import BristleHost

/// The seed inputs of every format: the files under the seed folders (by default the
/// package's `Tests/` and `Examples/`), each filed under the format its content is detected as
/// (``InkImporter/detect(_:)``); files of no format, and files over 1 MiB, are left out.
struct SeedCorpus {
    /// Seeds by format name, each list in path order.
    private(set) var seeds: [String: [(path: String, bytes: [UInt8])]] = [:]

    init(folders: [String]) {
        for folder in folders {
            for path in Self.files(under: folder) {
                guard let bytes = read(path), bytes.count <= Mutator.maximumBytes,
                      let format = InkImporter.detect(bytes) else { continue }
                seeds[FuzzFormat(format: format).name, default: []].append((path, bytes))
            }
        }
    }

    /// The seeds of `format` (empty when there are none).
    func seeds(of format: FuzzFormat) -> [[UInt8]] { (seeds[format.name] ?? []).map(\.bytes) }

    /// Every regular file under `folder`, recursively, sorted; hidden entries are skipped.
    static func files(under folder: String) -> [String] {
        guard let names = Paths.visibleEntries(of: folder) else { return [] }
        return names.flatMap { name -> [String] in
            let path = folder + "/" + name
            switch FileKind(path: path) {
            case .directory: return files(under: path)
            case .regular: return [path]
            default: return []
            }
        }
    }
}
