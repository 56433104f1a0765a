import CBristle

/// Generates a brush library's ABI plumbing: the entry, the factory and every brush's vtable.
///
/// A library exports one function whose body is one call:
///
///     @c(bristle_entry_v1)
///     public func bristleEntry() -> UnsafeRawPointer {
///         BrushLibrary.entry(brushes: [Spray.self, Marker.self])
///     }
///
/// The function must be `public`: a release build drops a non-public `@c` function. Link the
/// library with a version script that keeps only `bristle_entry_v1` (Plugins/exports.map).
public enum BrushLibrary {
    /// State shared by the C thunks, which cannot capture. Written once, at the first entry
    /// call ([load], never concurrent); afterwards only `initCount` changes, also at [load].
    nonisolated(unsafe) static var table: BrushTable?
    nonisolated(unsafe) static var entryTable: UnsafeMutablePointer<bristle_entry_t>?
    nonisolated(unsafe) static var factoryTable: UnsafeMutablePointer<bristle_brush_factory_t>?
    nonisolated(unsafe) static var initCount = 0

    /// Returns the library's `bristle_entry_t`, built on the first call from `brushes` and
    /// returned unchanged by every later call (the list is read once). The struct is never
    /// freed. A list with invalid declarations (bad ids, empty names, bad parameter ranges,
    /// duplicates) still yields an entry, whose `init` returns false so hosts report the
    /// library as unusable instead of crashing; ``problems`` says why.
    public static func entry(brushes: [any Brush.Type]) -> UnsafeRawPointer {
        if let entryTable { return UnsafeRawPointer(entryTable) }
        table = BrushTable(brushes)
        let factory = UnsafeMutablePointer<bristle_brush_factory_t>.allocate(capacity: 1)
        factory.initialize(to: bristle_brush_factory_t(
            struct_size: UInt32(MemoryLayout<bristle_brush_factory_t>.size), reserved: 0,
            count: { _ in UInt32(BrushLibrary.table?.types.count ?? 0) },
            descriptor: { _, index in
                guard let table = BrushLibrary.table, Int(index) < table.types.count else { return nil }
                return UnsafePointer(table.descriptors + Int(index))
            },
            create: { _, host, id in BrushLibrary.create(host: host, id: id) }))
        factoryTable = factory
        let entry = UnsafeMutablePointer<bristle_entry_t>.allocate(capacity: 1)
        entry.initialize(to: bristle_entry_t(
            struct_size: UInt32(MemoryLayout<bristle_entry_t>.size),
            abi: bristle_version_t(major: BRISTLE_VERSION_MAJOR, minor: BRISTLE_VERSION_MINOR, patch: BRISTLE_VERSION_PATCH),
            init: { _ in
                guard BrushLibrary.problems.isEmpty else { return false }
                BrushLibrary.initCount += 1
                return true
            },
            deinit: { if BrushLibrary.initCount > 0 { BrushLibrary.initCount -= 1 } },
            get_factory: { id in
                guard BrushLibrary.initCount > 0, CStrings.equal(id, BRISTLE_BRUSH_FACTORY_ID),
                      let factory = BrushLibrary.factoryTable else { return nil }
                return UnsafeRawPointer(factory)
            },
            // Kit brushes draw with the 1.0 services and step samples by struct_size: any 1.x host.
            host_abi_min: bristle_version_t(major: 1, minor: 0, patch: 0)))
        entryTable = entry
        return UnsafeRawPointer(entry)
    }

    /// Why the library refuses to initialise; empty when it is usable or not built yet.
    public static var problems: [String] { table?.problems ?? [] }

    /// The factory's `create`: a new instance of the brush with exactly this id, or NULL (logged
    /// through the host unless the id is simply unknown).
    private static func create(host: UnsafePointer<bristle_host_t>?, id: UnsafePointer<CChar>?)
        -> UnsafePointer<bristle_brush_t>?
    {
        guard initCount > 0, let host, let table, let index = table.index(of: id) else { return nil }
        do {
            let instance = try BrushInstance(type: table.types[index], host: Host(pointer: host),
                                             descriptor: UnsafePointer(table.descriptors + index),
                                             parameters: table.parameters[index], infos: table.parameterInfos[index])
            return UnsafePointer(instance.vtable)
        } catch {
            Host(pointer: host).log(.error, "\(table.types[index].descriptor.id): creating the brush failed (\(error))")
            return nil
        }
    }
}
