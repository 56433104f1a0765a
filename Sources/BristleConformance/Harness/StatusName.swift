import BristleHost

/// Names a `bristle_status_t` for messages: `3 (BRISTLE_BAD_ARG)`.
enum StatusName {
    static func of(_ status: Int32) -> String {
        switch status {
        case BRISTLE_OK: "0 (BRISTLE_OK)"
        case BRISTLE_FAILED: "1 (BRISTLE_FAILED)"
        case BRISTLE_UNSUPPORTED: "2 (BRISTLE_UNSUPPORTED)"
        case BRISTLE_BAD_ARG: "3 (BRISTLE_BAD_ARG)"
        case BRISTLE_BAD_STATE: "4 (BRISTLE_BAD_STATE)"
        default: "\(status) (not a bristle status)"
        }
    }
}
