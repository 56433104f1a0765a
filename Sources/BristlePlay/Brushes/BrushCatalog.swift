import BristleHost

/// The brushes the page offers, by id: those of the `--brushes` folders first (they shadow a
/// search-path brush with the same id), then those of the plugin search path.
struct BrushCatalog {
    private(set) var brushes: [CatalogBrush] = []

    /// Adds (or, for a new version of a watched library, replaces) the brushes of one library.
    /// Brushes that the same source file provided before and no longer does are removed.
    mutating func install(_ report: PluginReport, library: String, source: String?) {
        let incoming = report.brushes.map { b in
            CatalogBrush(id: b.id, name: b.name, description: b.description, library: library, source: source,
                         capabilities: b.capabilities, params: b.parameters)
        }
        if let source {
            let ids = Set(incoming.map(\.id))
            brushes.removeAll { $0.source == source && !ids.contains($0.id) }
        }
        for brush in incoming {
            if let i = brushes.firstIndex(where: { $0.id == brush.id }) {
                // A watched brush replaces anything; on the search path the first one wins.
                if source != nil { brushes[i] = brush }
            } else if source != nil {
                let firstSearchPath = brushes.firstIndex { $0.source == nil } ?? brushes.count
                brushes.insert(brush, at: firstSearchPath)
            } else {
                brushes.append(brush)
            }
        }
    }

    /// Removes the brushes a watched file provided (it was deleted).
    mutating func remove(source: String) {
        brushes.removeAll { $0.source == source }
    }

    func brush(id: String) -> CatalogBrush? { brushes.first { $0.id == id } }

    /// The brush the page starts with: the first of the watched folders, else the pencil,
    /// else the first one.
    var defaultBrush: CatalogBrush? {
        brushes.first { $0.source != nil } ?? brush(id: RenderOptions.defaultBrush) ?? brushes.first
    }
}
