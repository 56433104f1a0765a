/// The `canvas` object of a stroke script. Every field is optional: `nil` means absent from
/// the file, and the host chooses the default.
public struct CanvasSpec: Equatable, Sendable {
    /// Width in canvas pixels, 1...65536 (and `width * height` at most 2^28).
    public var width: Int?
    /// Height in pixels, 1...65536.
    public var height: Int?
    /// Canvas pixels per point, > 0: brush widths (in points) are multiplied by it.
    public var scale: Double?
    public var background: BackgroundSpec?
    /// Where each field's value is in the file, by key (`"width"`, `"height"`, `"scale"`,
    /// `"background"`), so that the host can report located errors (say, a background image
    /// that cannot be decoded).
    public var fieldLocations: [String: SourceLocation]

    public init(width: Int? = nil, height: Int? = nil, scale: Double? = nil,
                background: BackgroundSpec? = nil, fieldLocations: [String: SourceLocation] = [:]) {
        self.width = width
        self.height = height
        self.scale = scale
        self.background = background
        self.fieldLocations = fieldLocations
    }
}
