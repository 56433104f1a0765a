/// A `brush` action: which brush to use from now on, and its settings. Every field is
/// optional: `nil` means absent from the file, and the host decides what that means.
public struct BrushSpec: Equatable, Sendable {
    /// The brush's identifier, like `org.bristle.pencil`.
    public var id: String?
    /// A brush plug-in file, absolute (resolved against the script's folder).
    public var path: String?
    /// The paint colour.
    public var color: RGBAColor?
    /// The nominal stroke width in points (> 0); the canvas `scale` turns points into pixels.
    public var width: Double?
    /// Brush-specific parameters in file order (names are unique).
    public var params: [(name: String, value: ParamValue)]
    /// Where the `brush` object starts.
    public var location: SourceLocation
    /// Where each field's value is, by key: `"id"`, `"path"`, `"color"`, `"width"`,
    /// `"params"`, and `"params.NAME"` for each parameter, so that the host can report
    /// located errors (an unknown brush id, an unknown parameter name, a value out of the
    /// brush's range).
    public var fieldLocations: [String: SourceLocation]

    public init(id: String? = nil, path: String? = nil, color: RGBAColor? = nil, width: Double? = nil,
                params: [(name: String, value: ParamValue)] = [],
                location: SourceLocation = SourceLocation(line: 1, column: 1),
                fieldLocations: [String: SourceLocation] = [:]) {
        self.id = id
        self.path = path
        self.color = color
        self.width = width
        self.params = params
        self.location = location
        self.fieldLocations = fieldLocations
    }

    /// The value of the parameter `name`, if the script sets it.
    public func param(_ name: String) -> ParamValue? {
        params.first { $0.name == name }?.value
    }

    public static func == (a: BrushSpec, b: BrushSpec) -> Bool {
        a.id == b.id && a.path == b.path && a.color == b.color && a.width == b.width
            && a.params.count == b.params.count
            && zip(a.params, b.params).allSatisfy { $0.name == $1.name && $0.value == $1.value }
            && a.location == b.location && a.fieldLocations == b.fieldLocations
    }
}
