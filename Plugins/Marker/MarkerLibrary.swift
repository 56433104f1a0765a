import BristleKit

/// The library's one exported symbol: BristleKit builds the entry, factory and vtables.
/// `public` is required: a release build drops a non-public `@c` function.
@c(bristle_entry_v1)
public func markerLibraryEntry() -> UnsafeRawPointer {
    BrushLibrary.entry(brushes: [Marker.self])
}
