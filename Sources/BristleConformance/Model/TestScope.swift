/// What one conformance test examines: the library file as a whole (run once per file) or
/// one brush of it (run once per brush id).
public enum TestScope: String, Sendable, Codable {
    case library, brush
}
