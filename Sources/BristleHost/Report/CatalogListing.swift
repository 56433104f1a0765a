/// What `bristle list` shows: the search path, the brushes found (first id wins), the id
/// clashes and the files that failed to load.
public struct CatalogListing: Codable, Sendable {
    public struct Directory: Codable, Sendable { public var path: String; public var plugins: Int }
    public struct Entry: Codable, Sendable {
        public var id: String
        public var name: String
        public var version: String
        public var path: String
    }
    public struct Clash: Codable, Sendable {
        public var id: String
        public var used: String
        public var ignored: String
    }
    public struct Problem: Codable, Sendable { public var path: String; public var error: String }

    public var searchPath: [Directory]
    public var brushes: [Entry]
    public var clashes: [Clash]
    public var problems: [Problem]

    public init(_ catalog: PluginCatalog) {
        searchPath = catalog.directories.map {
            Directory(path: $0, plugins: PluginSearchPath.pluginFiles(in: $0).count)
        }
        brushes = catalog.brushes.map {
            Entry(id: $0.id, name: $0.name, version: $0.version, path: $0.libraryPath)
        }
        clashes = catalog.clashes.map { Clash(id: $0.id, used: $0.winner, ignored: $0.loser) }
        problems = catalog.problems.map { Problem(path: $0.path, error: $0.error.description) }
    }

    /// The listing as text for a person.
    public var text: String {
        var out = "Search path (first match wins):\n"
        for d in searchPath {
            out += "  \(d.path)\(d.plugins > 0 ? "  (\(d.plugins) .so)" : "")\n"
        }
        out += "\nBrushes (\(brushes.count)):\n"
        let width = brushes.map(\.id.count).max() ?? 0
        for b in brushes {
            out += "  \(b.id.padding(toLength: width, withPad: " ", startingAt: 0))  \(b.name) \(b.version)  \(b.path)\n"
        }
        if brushes.isEmpty { out += "  none: build the plugins, or add their folder to BRISTLE_PATH\n" }
        if !clashes.isEmpty {
            out += "\nId clashes (\(clashes.count)):\n"
            for c in clashes { out += "  \(c.id): using \(c.used), ignoring \(c.ignored)\n" }
        }
        if !problems.isEmpty {
            out += "\nFiles that could not be loaded (\(problems.count)):\n"
            for p in problems { out += "  \(p.error)\n" }
        }
        return out
    }
}
