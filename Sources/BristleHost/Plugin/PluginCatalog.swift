/// Every brush found on a search path, keyed by id: the first plugin providing an id wins, and
/// each later one is recorded as a ``Clash``. Files that fail to load are kept as ``Problem``s,
/// so `bristle list` can show them without stopping the scan.
public struct PluginCatalog: Sendable {
    /// A second brush with an id already taken.
    public struct Clash: Equatable, Sendable {
        public var id: String
        /// The library whose brush is used.
        public var winner: String
        /// The library whose brush is ignored.
        public var loser: String
    }

    /// A file on the search path that could not be loaded.
    public struct Problem: Sendable {
        public var path: String
        public var error: PluginLoadError
    }

    /// The directories searched, in order.
    public let directories: [String]
    /// The winning brush for each id, in discovery order.
    public private(set) var brushes: [BrushDescriptor] = []
    public private(set) var clashes: [Clash] = []
    public private(set) var problems: [Problem] = []
    /// The libraries that loaded, in discovery order.
    public private(set) var libraries: [PluginLibrary] = []

    /// Scans `directories` in order, loading every `.so` file found.
    public init(directories: [String] = PluginSearchPath.directories()) {
        self.directories = directories
        var seenFiles: Set<String> = []
        for directory in directories {
            for file in PluginSearchPath.pluginFiles(in: directory) {
                do {
                    let library = try PluginLoader.load(path: file)
                    // The same file reached twice (a symlinked folder) is not a clash.
                    guard seenFiles.insert(library.path).inserted else { continue }
                    add(library)
                } catch {
                    problems.append(Problem(path: file, error: error))
                }
            }
        }
    }

    private mutating func add(_ library: PluginLibrary) {
        libraries.append(library)
        for descriptor in library.descriptors {
            if let existing = brushes.first(where: { $0.id == descriptor.id }) {
                clashes.append(Clash(id: descriptor.id, winner: existing.libraryPath, loser: library.path))
            } else {
                brushes.append(descriptor)
            }
        }
    }

    /// The winning descriptor for an id.
    public func descriptor(id: String) -> BrushDescriptor? {
        brushes.first { $0.id == id }
    }

    /// The library that provides the winning brush with this id.
    public func library(forBrush id: String) throws(BrushError) -> PluginLibrary {
        guard let descriptor = descriptor(id: id),
              let library = libraries.first(where: { $0.path == descriptor.libraryPath }) else {
            throw .unknownBrush(id: id, searched: directories, nearest: NearestNames.to(id, among: brushes.map(\.id)))
        }
        return library
    }

    /// The warning for an id several plugins provide, or nil when only one does: one line naming
    /// every file, the one used and why (the search order of bristle.h, "WHERE THE HOST LOOKS FOR
    /// PLUGINS": directories in order, the files of one directory in name order), and how to
    /// pick another explicitly (`--brush FILE.so#ID`).
    public func clashWarning(id: String) -> String? {
        let losers = clashes.filter { $0.id == id }.map(\.loser)
        guard let winner = descriptor(id: id)?.libraryPath, !losers.isEmpty else { return nil }
        let why: String
        let winnerDirectory = Self.directory(of: winner), loserDirectory = Self.directory(of: losers[0])
        if winnerDirectory == loserDirectory {
            why = "files of one folder are searched in name order"
        } else {
            why = "\(winnerDirectory) comes before \(loserDirectory) on the plugin search path"
        }
        let ignored = losers.count == 1 ? losers[0] : losers.joined(separator: ", ")
        return "\(losers.count + 1) plugins provide brush '\(id)': using \(winner), ignoring \(ignored) "
            + "(the first on the search path wins: \(why)); pick one with --brush "
            + BrushReference.explicit(path: losers[0], id: id)
    }

    private static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
