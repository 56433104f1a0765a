import CBristle
import Glibc
import Synchronization

/// Loads plugin libraries: checks the file, `dlopen`s it, calls its entry and `init`, and
/// validates the factory and every descriptor, turning each failure into a
/// ``PluginLoadError`` that names the file and the fix.
///
/// Libraries are opened with `RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE` and never closed:
/// unmapping a library that contains Swift code and then loading another crashes the process,
/// because the Swift runtime caches type metadata by name across images. Loading the same file
/// twice returns the same ``PluginLibrary`` (keyed by its resolved path); `init` runs once.
public enum PluginLoader {
    private static let loaded = Mutex<[String: PluginLibrary]>([:])

    /// The host's ABI version as "major.minor.patch".
    public static let hostABIVersion =
        "\(BRISTLE_VERSION_MAJOR).\(BRISTLE_VERSION_MINOR).\(BRISTLE_VERSION_PATCH)"

    /// Loads and validates the plugin at `path` (relative paths resolve against the current
    /// directory). Thread-safe.
    public static func load(path: String) throws(PluginLoadError) -> PluginLibrary {
        let resolved = try resolve(path)
        let result: Result<PluginLibrary, PluginLoadError> = loaded.withLock { cache in
            if let library = cache[resolved] { return .success(library) }
            let result = open(resolved)
            if case .success(let library) = result { cache[resolved] = library }
            return result
        }
        return try result.get()
    }

    /// The absolute, symlink-free path of an existing regular file (a FIFO is refused before
    /// anything opens it, which would block).
    private static func resolve(_ path: String) throws(PluginLoadError) -> String {
        let kind = FileKind(path: path)
        if kind == .missing { throw .fileNotFound(path: path) }
        if let what = kind.notRegularDescription { throw .notRegularFile(path: path, what: what) }
        guard let real = realpath(path, nil) else { throw .fileNotFound(path: path) }
        defer { free(real) }
        return String(cString: real)
    }

    private static func open(_ path: String) -> Result<PluginLibrary, PluginLoadError> {
        if let problem = ELFHeader.check(path: path) { return .failure(problem) }
        _ = dlerror()
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE) else {
            let reason = dlerror().map { String(cString: $0) } ?? "unknown dlopen error"
            return .failure(.loadFailed(path: path, reason: trimmed(reason, path: path)))
        }
        // The handle is never closed, not even on the error paths below (see the type comment).
        guard let symbol = dlsym(handle, BRISTLE_ENTRY_SYMBOL) else {
            return .failure(.missingEntry(path: path))
        }
        let entryFunction = unsafeBitCast(symbol, to: bristle_entry_fn.self)
        guard let entry = entryFunction() else { return .failure(.entryReturnedNull(path: path)) }
        return validate(entry: entry, path: path)
    }

    /// dlerror() repeats the path; keep only the reason.
    private static func trimmed(_ reason: String, path: String) -> String {
        let prefix = path + ": "
        return reason.hasPrefix(prefix) ? String(reason.dropFirst(prefix.count)) : reason
    }

    private static func validate(entry: UnsafePointer<bristle_entry_t>, path: String)
        -> Result<PluginLibrary, PluginLoadError>
    {
        let e = entry.pointee
        let version = "\(e.abi.major).\(e.abi.minor).\(e.abi.patch)"
        // The version is checked before anything else so that a foreign major gets the
        // clearest message even if its struct layout differs from ours.
        guard e.struct_size >= UInt32(MemoryLayout<bristle_version_t>.size + 4) else {
            return .failure(.malformed(path: path, field: "entry.struct_size",
                                       reason: "\(e.struct_size) is too small"))
        }
        guard e.abi.major == BRISTLE_VERSION_MAJOR else {
            return .failure(.incompatibleABI(path: path, plugin: version, host: hostABIVersion))
        }
        if let problem = ABILayout.entry.tooSmall(e.struct_size) {
            return .failure(.malformed(path: path, field: "entry", reason: problem))
        }
        if let needed = hostABIMinimum(e), needed.minor > ABILayout.hostMinor || needed.major != BRISTLE_VERSION_MAJOR {
            return .failure(.needsNewerHost(path: path, needs: "\(needed.major).\(needed.minor)",
                                            host: "\(BRISTLE_VERSION_MAJOR).\(ABILayout.hostMinor)"))
        }
        guard let initialize = e.`init` else {
            return .failure(.malformed(path: path, field: "entry.init", reason: "is NULL"))
        }
        guard e.deinit != nil else {
            return .failure(.malformed(path: path, field: "entry.deinit", reason: "is NULL"))
        }
        guard let getFactory = e.get_factory else {
            return .failure(.malformed(path: path, field: "entry.get_factory", reason: "is NULL"))
        }
        guard initialize(path) else { return .failure(.initFailed(path: path)) }
        // From here on a failure balances the successful init with one deinit (the library
        // itself stays mapped). A library that loads stays initialised for the process.
        guard let raw = getFactory(BRISTLE_BRUSH_FACTORY_ID) else {
            e.deinit?()
            return .failure(.malformed(
                path: path, field: "entry.get_factory",
                reason: "returned NULL for \"\(BRISTLE_BRUSH_FACTORY_ID)\""))
        }
        let factory = raw.assumingMemoryBound(to: bristle_brush_factory_t.self)
        switch readDescriptors(factory, path: path) {
        case .failure(let error):
            e.deinit?()
            return .failure(error)
        case .success(let descriptors):
            return .success(PluginLibrary(path: path, abiVersion: e.abi, factory: factory,
                                          descriptors: descriptors))
        }
    }

    /// The entry's `host_abi_min` (since 1.2), or nil when the entry stops before it or leaves it
    /// zero: the plugin accepts any 1.x host.
    static func hostABIMinimum(_ e: bristle_entry_t) -> bristle_version_t? {
        guard ABILayout.entry.has("host_abi_min", structSize: e.struct_size) else { return nil }
        let v = e.host_abi_min
        return v.major == 0 && v.minor == 0 && v.patch == 0 ? nil : v
    }

    /// The most brushes one library may declare; more is taken as a corrupt count.
    static let maximumBrushCount: UInt32 = 4096

    private static func readDescriptors(_ factory: UnsafePointer<bristle_brush_factory_t>,
                                        path: String) -> Result<[BrushDescriptor], PluginLoadError>
    {
        let f = factory.pointee
        if let problem = ABILayout.factory.tooSmall(f.struct_size) {
            return .failure(.malformed(path: path, field: "factory", reason: problem))
        }
        guard let count = f.count, let describe = f.descriptor, f.create != nil else {
            let field = f.count == nil ? "count" : f.descriptor == nil ? "descriptor" : "create"
            return .failure(.malformed(path: path, field: "factory.\(field)", reason: "is NULL"))
        }
        let n = count(factory)
        guard n >= 1, n <= maximumBrushCount else {
            return .failure(.malformed(path: path, field: "factory.count",
                                       reason: "returned \(n); expected 1...\(maximumBrushCount)"))
        }
        var descriptors: [BrushDescriptor] = []
        var seen: Set<String> = []
        for index in 0..<n {
            guard let raw = describe(factory, index) else {
                return .failure(.malformed(path: path, field: "factory.descriptor(\(index))",
                                           reason: "returned NULL for an index below count \(n)"))
            }
            switch BrushDescriptor.validate(raw, index: index, libraryPath: path) {
            case .failure(let error):
                return .failure(error)
            case .success(let descriptor):
                guard seen.insert(descriptor.id).inserted else {
                    return .failure(.duplicateID(path: path, id: descriptor.id))
                }
                descriptors.append(descriptor)
            }
        }
        return .success(descriptors)
    }
}
