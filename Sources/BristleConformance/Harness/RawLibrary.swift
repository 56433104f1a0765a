import BristleHost
import Glibc

/// The plugin file opened directly (`dlopen` with `RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE`,
/// never closed), for the library tests that must call the entry, `init`, `deinit` and
/// `get_factory` themselves, in orders the host's loader never uses. Every call is recorded.
public struct RawLibrary {
    public let path: String
    public let entry: UnsafePointer<bristle_entry_t>
    let recorder: HookRecorder

    /// Opens the file and calls its entry; a failure says which step failed.
    public init(path: String, recorder: HookRecorder) throws(CheckFailure) {
        guard let real = realpath(path, nil) else { throw CheckFailure("\(path): no such file") }
        self.path = String(cString: real)
        free(real)
        self.recorder = recorder
        _ = dlerror()
        let resolved = self.path
        guard let handle = recorder.record("dlopen(\(resolved), RTLD_NOW)", { dlopen(resolved, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE) }) else {
            let reason = dlerror().map { String(cString: $0) } ?? "unknown dlopen error"
            throw CheckFailure("dlopen(RTLD_NOW) failed: \(reason)")
        }
        guard let symbol = dlsym(handle, BRISTLE_ENTRY_SYMBOL) else {
            throw CheckFailure("the library does not export \(BRISTLE_ENTRY_SYMBOL)")
        }
        let function = unsafeBitCast(symbol, to: bristle_entry_fn.self)
        guard let entry = recorder.record("bristle_entry_v1()", { function() }) else {
            throw CheckFailure("bristle_entry_v1() returned NULL")
        }
        guard entry.pointee.abi.major == BRISTLE_VERSION_MAJOR else {
            let v = entry.pointee.abi
            throw CheckFailure("the entry declares ABI \(v.major).\(v.minor).\(v.patch); this harness speaks "
                               + "ABI \(PluginLoader.hostABIVersion) (the major versions differ)")
        }
        if let problem = ABILayout.entry.tooSmall(entry.pointee.struct_size) {
            throw CheckFailure("the entry is malformed: \(problem)")
        }
        guard entry.pointee.`init` != nil, entry.pointee.deinit != nil, entry.pointee.get_factory != nil else {
            throw CheckFailure("the entry struct is malformed (a NULL function)")
        }
        self.entry = entry
    }

    /// Calls `init(path)`.
    public func initialize() -> Bool {
        let p = path
        return recorder.record("entry->init(\"\(p)\")") { entry.pointee.`init`!(p) }
    }

    /// Calls `deinit()`.
    public func deinitialize() { recorder.record("entry->deinit()") { entry.pointee.deinit!() } }

    /// Calls `get_factory(id)`.
    public func factory(_ id: String) -> UnsafeRawPointer? {
        recorder.record("entry->get_factory(\"\(id)\")") { entry.pointee.get_factory!(id) }
    }

    /// The brush factory, or a failure naming the step.
    public func brushFactory() throws(CheckFailure) -> UnsafePointer<bristle_brush_factory_t> {
        guard let raw = factory(BRISTLE_BRUSH_FACTORY_ID) else {
            throw CheckFailure("get_factory(\"\(BRISTLE_BRUSH_FACTORY_ID)\") returned NULL after init")
        }
        let f = raw.assumingMemoryBound(to: bristle_brush_factory_t.self)
        if let problem = ABILayout.factory.tooSmall(f.pointee.struct_size) {
            throw CheckFailure("the brush factory is malformed: \(problem)")
        }
        guard f.pointee.count != nil, f.pointee.descriptor != nil, f.pointee.create != nil else {
            throw CheckFailure("the brush factory is malformed (a NULL function)")
        }
        return f
    }

    /// The factory's descriptors, in order (NULL entries left out).
    public func descriptors(_ f: UnsafePointer<bristle_brush_factory_t>) -> [UnsafePointer<bristle_descriptor_t>] {
        let n = recorder.record("factory->count()") { f.pointee.count!(f) }
        return (0..<min(n, 4096)).compactMap { i in
            recorder.record("factory->descriptor(\(i))") { f.pointee.descriptor!(f, i) }
        }
    }

    /// Calls `create(host, id)` and destroys what it returns; true when it returned an instance.
    public func creates(_ f: UnsafePointer<bristle_brush_factory_t>, id: String, host: BrushHost) -> Bool {
        guard let b = recorder.record("factory->create(\"\(id)\")", { f.pointee.create!(f, host.cHost, id) }) else {
            return false
        }
        recorder.record("brush->destroy() of \"\(id)\"") { b.pointee.destroy?(b) }
        return true
    }
}
