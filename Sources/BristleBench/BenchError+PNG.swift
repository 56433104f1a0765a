import BristleHost

extension BenchError {
    /// A PNG write failure: 73 when the file cannot be created, else 74 (I/O).
    static func png(_ error: PNGError) -> BenchError {
        BenchError(error.description, exitStatus: error.kind == .cannotCreate ? 73 : 74)
    }
}
