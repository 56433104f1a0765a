/// Why a plugin file could not be used. Every case names the file; ``description`` says what
/// failed and ``hint`` what to do about it.
public enum PluginLoadError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Nothing at the path (or a dangling link).
    case fileNotFound(path: String)
    /// The path names a directory, a FIFO, a device or a socket (`what` says which), which is
    /// refused without opening it (opening a FIFO would block).
    case notRegularFile(path: String, what: String)
    /// The file is not an ELF shared object (a text file, a static library, an executable).
    case notSharedObject(path: String, reason: String)
    /// An ELF shared object for another machine or word size.
    case wrongArchitecture(path: String, found: String, expected: String)
    /// `dlopen` refused it (a missing dependency, an undefined symbol with RTLD_NOW...).
    case loadFailed(path: String, reason: String)
    /// The library does not export `bristle_entry_v1`.
    case missingEntry(path: String)
    /// `bristle_entry_v1()` returned NULL.
    case entryReturnedNull(path: String)
    /// The plugin was built for another ABI major version.
    case incompatibleABI(path: String, plugin: String, host: String)
    /// The plugin's `host_abi_min` (bristle_entry_t, since 1.2) is newer than this host's ABI.
    case needsNewerHost(path: String, needs: String, host: String)
    /// A required field of the entry, factory or descriptor is missing or invalid.
    case malformed(path: String, field: String, reason: String)
    /// `entry->init` returned false.
    case initFailed(path: String)
    /// Two brushes in one library share an id.
    case duplicateID(path: String, id: String)

    /// The plugin file concerned.
    public var path: String {
        switch self {
        case .fileNotFound(let p), .notRegularFile(let p, _), .notSharedObject(let p, _), .wrongArchitecture(let p, _, _),
             .loadFailed(let p, _), .missingEntry(let p), .entryReturnedNull(let p),
             .incompatibleABI(let p, _, _), .needsNewerHost(let p, _, _), .malformed(let p, _, _), .initFailed(let p),
             .duplicateID(let p, _):
            return p
        }
    }

    /// True for ``fileNotFound`` and ``notRegularFile``: there is no plugin file to load at
    /// the path, rather than a broken one.
    public var isNotFound: Bool {
        switch self {
        case .fileNotFound, .notRegularFile: return true
        default: return false
        }
    }

    public var description: String {
        switch self {
        case .fileNotFound(let p):
            return "\(p): no such plugin file"
        case .notRegularFile(let p, let what):
            return "\(p): not a regular file (it is \(what)); a plugin is a .so file"
        case .notSharedObject(let p, let reason):
            return "\(p): not a shared object (\(reason))"
        case .wrongArchitecture(let p, let found, let expected):
            return "\(p): built for \(found), but this host runs on \(expected)"
        case .loadFailed(let p, let reason):
            return "\(p): cannot be loaded: \(reason)"
        case .missingEntry(let p):
            return "\(p): does not export the entry function `bristle_entry_v1`"
        case .entryReturnedNull(let p):
            return "\(p): bristle_entry_v1() returned NULL"
        case .incompatibleABI(let p, let plugin, let host):
            return "\(p): built for Bristle ABI \(plugin), but this host speaks ABI \(host) "
                + "(the major versions differ)"
        case .needsNewerHost(let p, let needs, let host):
            return "\(p): plugin needs ABI \(needs), this host provides \(host)"
        case .malformed(let p, let field, let reason):
            return "\(p): malformed \(field): \(reason)"
        case .initFailed(let p):
            return "\(p): the plugin's init() returned false"
        case .duplicateID(let p, let id):
            return "\(p): two brushes share the id '\(id)'"
        }
    }

    /// What to do about it, one sentence.
    public var hint: String {
        switch self {
        case .fileNotFound:
            return "check the path, or run `bristle list` to see the plugins on the search path"
        case .notRegularFile:
            return "give the path of the plugin's .so file itself"
        case .notSharedObject:
            return "build the brush as a shared library: cc -shared -fPIC ... -o libmybrush.so"
        case .wrongArchitecture:
            return "rebuild the plugin on (or for) this machine"
        case .loadFailed:
            return "check the plugin's dependencies with `ldd`, and build it with -Wl,-z,defs "
                + "to catch undefined symbols at link time"
        case .missingEntry:
            return "define `BRISTLE_EXPORT const bristle_entry_t *bristle_entry_v1(void)` in C, "
                + "or `@c(bristle_entry_v1) public func` in Swift (it must be public)"
        case .entryReturnedNull:
            return "return a pointer to a static bristle_entry_t from bristle_entry_v1()"
        case .incompatibleABI:
            return "rebuild the plugin against this host's include/bristle/bristle.h"
        case .needsNewerHost:
            return "use a newer bristle, or a build of the plugin whose host_abi_min this host meets "
                + "(`bristle abi` prints this host's version)"
        case .malformed:
            return "see the field's contract in include/bristle/bristle.h"
        case .initFailed:
            return "the plugin refused to start; check what its init() needs (files, memory)"
        case .duplicateID:
            return "give every brush in the library its own id"
        }
    }
}
