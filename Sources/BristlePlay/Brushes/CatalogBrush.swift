import BristleHost

/// One brush the page can choose: what `GET /api/brushes` lists.
struct CatalogBrush: Encodable, Equatable {
    var id: String
    var name: String
    var description: String
    /// The library the next stroke loads: a copy for watched folders, else the file itself.
    var library: String
    /// The file in a `--brushes` folder the copy was made from; nil for the search path.
    var source: String?
    var capabilities: [String]
    var params: [PluginReport.Parameter]

    var wantsTicks: Bool { capabilities.contains("wants-ticks") }

    enum CodingKeys: String, CodingKey {
        case id, name, description, library, source, capabilities, params
    }
}

extension PluginReport.Parameter: Equatable {
    public static func == (a: Self, b: Self) -> Bool {
        a.id == b.id && a.name == b.name && a.type == b.type && a.description == b.description
            && a.unit == b.unit && a.min == b.min && a.max == b.max && a.default == b.default && a.choices == b.choices
    }
}
