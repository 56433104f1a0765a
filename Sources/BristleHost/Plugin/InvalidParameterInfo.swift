/// Why a plugin's `bristle_param_info_t` was refused.
struct InvalidParameterInfo: Error {
    var reason: String
    init(_ reason: String) { self.reason = reason }
}
