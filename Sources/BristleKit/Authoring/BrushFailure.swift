import CBristle

/// Why a hook failed; each case is one of the ABI's status codes.
public enum BrushFailure: Error, Sendable, Equatable {
    /// Could not do it (e.g. out of memory): `BRISTLE_FAILED`.
    case failed
    /// A valid request the brush does not implement (e.g. an unknown pixel format):
    /// `BRISTLE_UNSUPPORTED`.
    case unsupported
    /// An argument is invalid: `BRISTLE_BAD_ARG`.
    case badArgument
    /// Called at the wrong time: `BRISTLE_BAD_STATE`.
    case badState

    /// The ABI status code.
    var status: bristle_status_t {
        switch self {
        case .failed: BRISTLE_FAILED
        case .unsupported: BRISTLE_UNSUPPORTED
        case .badArgument: BRISTLE_BAD_ARG
        case .badState: BRISTLE_BAD_STATE
        }
    }
}
