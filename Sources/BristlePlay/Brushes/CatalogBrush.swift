import BristleHost

/// One brush the page can choose: what `GET /api/brushes` lists.
struct CatalogBrush: Encodable {
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
}
