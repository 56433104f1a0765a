import CBristle

/// The host a brush instance was created by (`bristle_host_t`): its log and drawing services.
/// Valid for the life of the instance.
public struct Host: @unchecked Sendable {
    /// Log severities (`BRISTLE_LOG_*`).
    public enum Severity: Sendable {
        case debug, info, warning, error
    }

    let pointer: UnsafePointer<bristle_host_t>

    /// The host's drawing services.
    public var services: Services { Services(pointer.pointee.services) }

    /// The host's name, e.g. "bristle".
    public var name: String { pointer.pointee.name.map { String(cString: $0) } ?? "" }

    /// Logs one line for a person to read (through `host->log`).
    public func log(_ severity: Severity, _ message: String) {
        guard let log = pointer.pointee.log else { return }
        let level: bristle_log_severity_t = switch severity {
        case .debug: BRISTLE_LOG_DEBUG
        case .info: BRISTLE_LOG_INFO
        case .warning: BRISTLE_LOG_WARNING
        case .error: BRISTLE_LOG_ERROR
        }
        let line = String(message.map { $0 == "\n" || $0 == "\0" ? " " : $0 })
        line.withCString { log(pointer, level, $0) }
    }
}
