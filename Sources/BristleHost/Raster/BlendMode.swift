/// How a paint combines with the destination pixels (all maths on premultiplied 8-bit values).
///
/// With `S` the paint colour premultiplied by its alpha `Sa`, and `c` the effective coverage
/// in `[0, 1]` (shape coverage times paint opacity):
public enum BlendMode: Sendable, Equatable, Hashable {
    /// Porter-Duff source-over: `dst = S * c + dst * (1 - Sa * c)` (all four channels).
    case sourceOver
    /// Destination-out: `dst = dst * (1 - a * c)` (all four channels) where `a` is the paint
    /// colour's alpha; the paint's colour channels are ignored.
    case erase
}
