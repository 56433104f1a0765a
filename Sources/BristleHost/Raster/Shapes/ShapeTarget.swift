/// Where a shape's coverage goes: painted onto pixels with a solid paint or a pattern, or
/// max-combined into a coverage mask (`mask = max(mask, coverage)`, so the pieces of one
/// stroke never double up).
public enum ShapeTarget {
    /// Composite `Paint` (colour, opacity, blend) onto the plane.
    case paint(RGBAPlane, Paint)
    /// Composite the pattern's pixels onto the plane: source-over paints the tile pixel,
    /// erase removes in proportion to the tile's alpha; `opacity` multiplies the coverage.
    case pattern(RGBAPlane, PatternTile, opacity: Float, blend: BlendMode)
    /// Max-combine 8-bit coverage into the mask; `raised`, when given, records the cells whose
    /// value rose (the mask services return its rectangle).
    case mask(MaskPlane, raised: RaisedCells? = nil)
}
