/// What the canvas starts with.
public enum BackgroundSpec: Equatable, Sendable {
    /// A solid colour.
    case color(RGBAColor)
    /// An image file; `path` is absolute, resolved against the script's folder.
    case image(path: String)
}
