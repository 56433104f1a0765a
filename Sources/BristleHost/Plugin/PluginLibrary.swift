import CBristle

/// A loaded, validated plugin library: its entry, its brush factory and the descriptors of
/// the brushes it holds. Libraries are never unloaded (see ``PluginLoader``).
public final class PluginLibrary: @unchecked Sendable {
    /// The absolute path the library was loaded from.
    public let path: String
    /// The ABI version the plugin was built with.
    public let abiVersion: bristle_version_t
    /// The brushes in the library, in factory order.
    public let descriptors: [BrushDescriptor]

    let factory: UnsafePointer<bristle_brush_factory_t>

    init(path: String, abiVersion: bristle_version_t,
         factory: UnsafePointer<bristle_brush_factory_t>, descriptors: [BrushDescriptor]) {
        self.path = path
        self.abiVersion = abiVersion
        self.factory = factory
        self.descriptors = descriptors
    }

    /// The descriptor with this exact id, if the library has it.
    public func descriptor(id: String) -> BrushDescriptor? {
        descriptors.first { $0.id == id }
    }
}
