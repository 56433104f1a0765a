import BristleKit

/// The plugin's one exported symbol. It must stay `public`: a release build drops a
/// non-public `@c` function, and the host then cannot load the library.
@c(bristle_entry_v1)
public func bristleEntry() -> UnsafeRawPointer {
    BrushLibrary.entry(brushes: [SwiftBrush.self])
}
