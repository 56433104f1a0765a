/// Everything `bristle inspect` shows about one plugin file: each brush's descriptor and
/// parameters (read from a live instance, then destroyed).
public struct PluginReport: Codable, Sendable {
    public struct Parameter: Codable, Sendable {
        public var id: String
        public var name: String
        public var type: String
        public var description: String
        public var unit: String
        public var min: Double?
        public var max: Double?
        public var `default`: String
        public var choices: [String]?
    }

    public struct BrushEntry: Codable, Sendable {
        public var id: String
        public var name: String
        public var vendor: String
        public var version: String
        public var description: String
        public var abi: String
        public var tags: [String]
        public var capabilities: [String]
        public var parameters: [Parameter]
    }

    public var path: String
    public var abi: String
    public var brushes: [BrushEntry]

    /// Loads `plugin` (a `.so` path, `FILE.so#ID` for that one brush of the file, or a brush id
    /// looked up on the search path).
    public init(plugin: String, searchDirectories: [String]? = nil) throws(RenderError) {
        let library: PluginLibrary
        var only: String?
        switch BrushReference(plugin) {
        case .file(let file, let id):
            do { library = try PluginLoader.load(path: file) } catch { throw .plugin(error) }
            if let id, library.descriptor(id: id) == nil {
                throw .brush(.unknownBrush(id: id, searched: [library.path],
                                           nearest: NearestNames.to(id, among: library.descriptors.map(\.id))))
            }
            only = id
        case .id(let id):
            let catalog = PluginCatalog(directories: searchDirectories ?? PluginSearchPath.directories())
            do { library = try catalog.library(forBrush: id) } catch { throw .brush(error) }
        }
        path = library.path
        let v = library.abiVersion
        abi = "\(v.major).\(v.minor).\(v.patch)"
        var entries: [BrushEntry] = []
        let host = BrushHost()
        for d in library.descriptors where only == nil || d.id == only {
            let brush: Brush
            do { brush = try Brush(id: d.id, library: library, host: host) } catch { throw .brush(error) }
            let parameters = brush.parameters.map { p -> Parameter in
                var choices: [String]?
                if case .enumeration(let names) = p.kind { choices = names }
                let numeric = p.kind != .color
                return Parameter(
                    id: p.id, name: p.name, type: p.kindName, description: p.summary, unit: p.unit,
                    min: numeric ? p.minimum : nil, max: numeric ? p.maximum : nil,
                    default: numeric ? p.format(p.defaultValue) : p.defaultColor.description,
                    choices: choices)
            }
            entries.append(BrushEntry(
                id: d.id, name: d.name, vendor: d.vendor, version: d.version, description: d.summary,
                abi: d.abiVersion, tags: d.tags, capabilities: d.capabilities.names,
                parameters: parameters))
        }
        brushes = entries
    }

    /// The report as text for a person.
    public var text: String {
        var out = "\(path)\n  ABI \(abi), \(brushes.count) brush\(brushes.count == 1 ? "" : "es")\n"
        for b in brushes {
            out += "\n\(b.id)\n"
            out += "  \(b.name) \(b.version)\(b.vendor.isEmpty ? "" : " by \(b.vendor)")\n"
            if !b.description.isEmpty { out += "  \(b.description)\n" }
            out += "  capabilities: \(b.capabilities.isEmpty ? "none" : b.capabilities.joined(separator: ", "))\n"
            if !b.tags.isEmpty { out += "  tags: \(b.tags.joined(separator: ", "))\n" }
            if b.parameters.isEmpty {
                out += "  parameters: none\n"
            } else {
                out += "  parameters:\n"
                let width = b.parameters.map(\.id.count).max() ?? 0
                for p in b.parameters {
                    var range = ""
                    if let choices = p.choices { range = choices.joined(separator: "|") }
                    else if let lo = p.min, let hi = p.max, p.type != "bool" {
                        range = "\(BrushParameter.plain(lo))...\(BrushParameter.plain(hi))"
                    }
                    let id = p.id.padding(toLength: width, withPad: " ", startingAt: 0)
                    out += "    \(id)  \(p.type)\(range.isEmpty ? "" : " \(range)")\(p.unit.isEmpty ? "" : " \(p.unit)"), default \(p.default)\n"
                    if !p.description.isEmpty { out += "    \(String(repeating: " ", count: width))  \(p.description)\n" }
                }
            }
        }
        return out
    }
}
