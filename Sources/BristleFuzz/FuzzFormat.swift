import BristleHost

/// An input format the fuzzer exercises: a name for the command line, and the importer's
/// format, by which seed files are sorted (``InkImporter/detect(_:)``).
///
/// Adding an importer adds a case to ``InkImporter/Format``; the switch below then no longer
/// compiles until the format gets its one line here.
struct FuzzFormat: Sendable, Equatable {
    let name: String
    let format: InkImporter.Format

    /// Every format, in the order the driver runs them.
    static let all: [FuzzFormat] = InkImporter.Format.allCases.map { FuzzFormat(format: $0) }

    init(format: InkImporter.Format) {
        self.format = format
        switch format {
        case .nativeJSON: name = "native"
        case .inkML: name = "inkml"
        case .pointerEventsArrays: name = "pointer-arrays"
        case .pointsArray: name = "pointer-points"
        case .wacomCSV: name = "wacom-csv"
        case .quickDraw: name = "quickdraw"
        case .svc: name = "svc"
        }
    }

    /// The format named `name`, or nil.
    static func named(_ name: String) -> FuzzFormat? { all.first { $0.name == name } }
}
