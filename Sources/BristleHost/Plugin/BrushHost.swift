import CBristle
import Glibc

/// The host as a brush sees it: the `bristle_host_t` passed to `create` (name, log, extensions)
/// and the `bristle_services_t` drawing table, backed by a ``Rasterizer``.
///
/// One `BrushHost` serves the brushes of one drawing session, on one thread at a time (the
/// rasteriser keeps scratch buffers). Every ``Brush`` keeps its host alive, so the C pointers a
/// brush holds stay valid until it is destroyed.
public final class BrushHost {
    /// Severity of a message a brush logs.
    public enum Severity: Int32, Sendable {
        case debug = 0, info, warning, error

        /// Maps a C severity; unknown values count as errors.
        init(raw: Int32) { self = Severity(rawValue: raw) ?? .error }
    }

    /// Receives what brushes log. The default writes warnings and errors to stderr.
    public var logHandler: (Severity, String) -> Void

    /// Records every service call brushes of this host make (``HookTimeline``); setting one
    /// interposes the timed table (``TimedServices``) for brushes created from then on. Nil by
    /// default: the services run untimed.
    public var timeline: HookTimeline? {
        didSet {
            if let timedServices {
                timedServices.record(on: timeline)
            } else if timeline != nil {
                timedServices = TimedServices(host: self, timeline: timeline)
            }
        }
    }
    private var timedServices: TimedServices?

    let rasterizer = Rasterizer()
    let host: UnsafeMutablePointer<bristle_host_t>
    let services: UnsafeMutablePointer<bristle_services_t>
    private let strings: [UnsafeMutablePointer<CChar>]

    /// The version string the host reports to brushes.
    public static let version = "0.1.0"

    public init(logHandler: @escaping (Severity, String) -> Void = BrushHost.standardErrorLog) {
        self.logHandler = logHandler
        let name = strdup("bristle")!, vendor = strdup("Bristle")!, version = strdup(Self.version)!
        strings = [name, vendor, version]
        services = .allocate(capacity: 1)
        services.initialize(to: HostServices.table)
        host = .allocate(capacity: 1)
        host.initialize(to: bristle_host_t(
            struct_size: UInt32(MemoryLayout<bristle_host_t>.size),
            abi: bristle_version_t(major: BRISTLE_VERSION_MAJOR, minor: BRISTLE_VERSION_MINOR,
                                   patch: BRISTLE_VERSION_PATCH),
            host_data: nil, name: name, vendor: vendor, version: version,
            log: { host, severity, message in
                guard let host, let data = host.pointee.host_data else { return }
                let me = Unmanaged<BrushHost>.fromOpaque(data).takeUnretainedValue()
                let text = message.map { String(cString: $0) } ?? "(NULL message)"
                me.logHandler(Severity(raw: severity), text)
            },
            get_extension: { _, _ in nil },
            services: UnsafePointer(services)))
        let me = Unmanaged.passUnretained(self).toOpaque()
        host.pointee.host_data = me
        services.pointee.host_data = me
    }

    /// The `bristle_host_t` brushes are created with; valid as long as this object.
    public var cHost: UnsafePointer<bristle_host_t> { UnsafePointer(host) }

    /// The services table brushes get (in `bristle_host_t.services`, and in every target built
    /// with it): the host's own, or the one installed with ``interposeServices(_:)``.
    public var cServices: UnsafePointer<bristle_services_t> { host.pointee.services ?? UnsafePointer(services) }

    /// The host's own services table, whatever is interposed.
    public var ownServices: UnsafePointer<bristle_services_t> { UnsafePointer(services) }

    /// Gives brushes created from now on `table` instead of the host's own services (a checker
    /// that inspects each call and forwards it to ``ownServices``); `table` must outlive them.
    /// Pass ``ownServices`` to undo it.
    public func interposeServices(_ table: UnsafePointer<bristle_services_t>) {
        host.pointee.services = table
    }

    deinit {
        host.deallocate()
        services.deallocate()
        strings.forEach { free($0) }
    }

    /// Writes warnings and errors to stderr as `bristle: brush warning: ...`.
    public static func standardErrorLog(_ severity: Severity, _ message: String) {
        guard severity.rawValue >= Severity.warning.rawValue else { return }
        let label = severity == .warning ? "warning" : "error"
        StandardError.line("bristle: brush \(label): \(message)")
    }

    /// The host behind a services table.
    static func from(_ services: UnsafePointer<bristle_services_t>?) -> BrushHost? {
        guard let data = services?.pointee.host_data else { return nil }
        return Unmanaged<BrushHost>.fromOpaque(data).takeUnretainedValue()
    }
}
