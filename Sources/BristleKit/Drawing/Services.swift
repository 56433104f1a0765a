import CBristle

/// The host's anti-aliased drawing services (`bristle_services_t`) as safe calls. Every call
/// clips to its target or mask and returns the rectangle it changed; a missing service draws
/// nothing and returns an empty rectangle.
public struct Services: @unchecked Sendable {
    let table: UnsafePointer<bristle_services_t>?

    init(_ table: UnsafePointer<bristle_services_t>?) { self.table = table }

    /// The C segment.
    static func segment(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double,
                        _ w0: Double, _ w1: Double) -> bristle_segment_t {
        bristle_segment_t(struct_size: UInt32(MemoryLayout<bristle_segment_t>.size), cap: BRISTLE_CAP_ROUND,
                          x0: x0, y0: y0, x1: x1, y1: y1, width0: w0, width1: w1)
    }

    /// Raises `mask` to the coverage of a round-capped segment whose diameter goes from
    /// `startWidth` to `endWidth` (`mask_segment`). Returns the cells it may have raised.
    @discardableResult
    public func addSegment(to mask: CoverageMask, from start: (x: Double, y: Double), to end: (x: Double, y: Double),
                           startWidth: Double, endWidth: Double) -> Rect {
        guard let table, let f = table.pointee.mask_segment else { return .empty }
        var s = Services.segment(start.x, start.y, end.x, end.y, startWidth, endWidth)
        var m = mask.c
        return Rect(f(table, &m, &s)).clipped(width: mask.width, height: mask.height)
    }

    /// Raises `mask` to the coverage of a disc (`mask_disc`).
    @discardableResult
    public func addDisc(to mask: CoverageMask, x: Double, y: Double, radius: Double) -> Rect {
        guard let table, let f = table.pointee.mask_disc else { return .empty }
        var m = mask.c
        return Rect(f(table, &m, x, y, radius)).clipped(width: mask.width, height: mask.height)
    }

    /// Calls `body` with the services table, or returns an empty rectangle when there is none.
    func with(_ body: (UnsafePointer<bristle_services_t>) -> bristle_rect_t) -> Rect {
        guard let table else { return .empty }
        return Rect(body(table))
    }
}
