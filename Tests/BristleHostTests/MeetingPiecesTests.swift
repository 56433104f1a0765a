@testable import BristleHost
import Foundation
import Testing

/// The exact fill's search for the parts of a stroke's outline that can meet
/// (``MeetingPieces``): a stroke drawn with the search (pieces two pixels shorter than the
/// width, only the pieces whose boxes meet tagged) must give the bytes, the trouble cells and
/// their exact areas of the same outline filled with every edge tagged, pixel for pixel, while
/// pieces away from any meeting stay untagged.
@Suite struct MeetingPiecesTests {
    /// Draws `points` into a mask through `drawPolyline` (the search runs: `style.width` is at
    /// least ``Rasterizer/meetingSearchWidth``), then fills the outline it left in the scratch
    /// again with every edge tagged, and compares. Returns the pieces and the tagged ones.
    @discardableResult
    private func compare(_ label: String, _ points: [(Double, Double)], closed: Bool = false,
                         style: StrokeStyle, size: Int = 48) -> (pieces: Int, tagged: Int) {
        #expect(style.width >= Rasterizer.meetingSearchWidth, "\(label): no search at this width")
        let searched = ShapeMask(size, size), all = ShapeMask(size, size)
        let r = Rasterizer()
        // A stroke drawn before leaves its marks in the fill's storage (never cleared).
        _ = r.drawPolyline([(x: 2.5, y: 3.5), (x: 37.5, y: 36.2), (x: 36.1, y: 2.9)],
                           style: StrokeStyle(width: 7, cap: .round, join: .round), target: .mask(searched.plane))
        searched.bytes.update(repeating: 0, count: size * size)
        _ = r.drawPolyline(points.map { (x: $0.0, y: $0.1) }, closed: closed, style: style,
                           target: .mask(searched.plane))
        let s = r.shapeScratch
        let pieces = s.overlaps.meeting.pieceCount, tagged = s.overlaps.meeting.taggedCount
        let troubleSearched = s.overlaps.troubleCells.map { "\($0.x),\($0.y)" }
        let areasSearched = s.overlaps.areas
        s.pieceLength = .infinity
        _ = s.fill(clip: all.plane.bounds, sink: CoverageSink(.mask(all.plane))!, exact: true)
        #expect(s.overlaps.meeting.pieceCount == 0, "\(label): the reference fill searched")
        let troubleAll = s.overlaps.troubleCells.map { "\($0.x),\($0.y)" }
        let differing = zip(searched.values, all.values).filter { $0 != $1 }.count
        print("\(label): \(pieces) pieces, \(tagged) tagged, \(troubleAll.count) trouble cells, "
              + "\(differing) pixels differ")
        #expect(searched.values.contains { $0 != 0 }, "\(label): nothing drawn")
        #expect(differing == 0, "\(label): \(differing) pixels differ from the all-tagged fill")
        #expect(troubleSearched == troubleAll, "\(label): other trouble cells")
        #expect(areasSearched == s.overlaps.areas, "\(label): other exact areas")
        #expect(pieces > 0 && tagged <= pieces, "\(label): \(tagged) of \(pieces) pieces tagged")
        return (pieces, tagged)
    }

    /// A loop: the path crosses itself far apart along its length; the crossing's pieces are
    /// tagged, the rest of the loop not.
    @Test func selfCrossingFarApart() {
        let loop = (0...40).map { i -> (Double, Double) in
            let a = Double(i) / 40 * 1.6 * Double.pi
            return (24.3 + 15 * sin(a), 30.2 - 14 * sin(a) * cos(a) - 6 * sin(a / 2))
        }
        let (pieces, tagged) = compare("loop", loop, style: StrokeStyle(width: 6.5, cap: .round, join: .round))
        #expect(tagged > 0 && tagged < pieces, "\(tagged) of \(pieces) pieces tagged on a loop")
    }

    /// A long gently curved stroke (an arc of radius 70, segments 2 px long): its two sides
    /// stay a width apart, so only the pieces round the caps (where the sides meet) stay
    /// tagged.
    @Test func gentleArcTagsOnlyItsEnds() {
        let arc = (0...42).map { i -> (Double, Double) in
            let a = Double(i) * 2 / 70
            return (8.3 + 70 * sin(a), 78.1 - 70 * cos(a))
        }
        let (pieces, tagged) = compare("arc", arc, style: StrokeStyle(width: 8, cap: .round, join: .round),
                                       size: 100)
        #expect(pieces >= 25 && tagged <= 14, "\(tagged) of \(pieces) pieces tagged on a gentle arc")
    }

    /// Hairpins: the outline's sides fold back onto themselves within a few pixels (pieces
    /// that are not one chain with their neighbours, pieces two apart meeting).
    @Test func hairpins() {
        let pins = [(4.2, 8.1), (40.6, 9.3), (4.9, 16.2), (41.8, 24.7), (5.3, 30.1), (42.1, 40.4)]
        compare("hairpins, round", pins, style: StrokeStyle(width: 6, cap: .round, join: .round))
        compare("hairpins, miter", pins, style: StrokeStyle(width: 6.2, cap: .butt, join: .miter, miterLimit: 10))
        compare("hairpins, bevel", pins, style: StrokeStyle(width: 7.5, cap: .square, join: .bevel))
    }

    /// Closed contours: a closed stroke's two contours meet nowhere, but each contour's first
    /// and last pieces meet at its closing vertex; a dashed closed path joins its last dash to
    /// its first.
    @Test func closedContoursEnds() {
        let square = [(8.3, 8.1), (39.6, 9.2), (38.9, 39.4), (9.2, 38.7)]
        compare("closed", square, closed: true, style: StrokeStyle(width: 6, cap: .butt, join: .round))
        compare("closed, dashed", square, closed: true,
                style: StrokeStyle(width: 6.5, cap: .butt, join: .miter, dashes: [23, 7], dashPhase: 4))
        let ring = (0..<60).map { i -> (Double, Double) in
            let a = Double(i) / 60 * 2 * Double.pi
            return (24 + 16 * cos(a), 24 + 16 * sin(a))
        }
        compare("ring", ring, closed: true, style: StrokeStyle(width: 7, cap: .round, join: .round))
    }

    /// Edges exactly on pixel lines, so boxes meet at exactly one cell: axis-aligned zig-zags
    /// whose legs lie a width apart, and corners touching diagonally.
    @Test func boxesMeetingAtOneCell() {
        let stairs = [(4.0, 4.0), (40.0, 4.0), (40.0, 10.0), (4.0, 10.0), (4.0, 16.0), (40.0, 16.0),
                      (40.0, 22.0), (4.0, 22.0)]
        compare("legs a width apart", stairs, style: StrokeStyle(width: 6, cap: .butt, join: .miter))
        let corners = [(6.0, 30.0), (18.0, 42.0), (30.0, 30.0), (18.0, 18.0), (12.0, 24.0), (42.0, 40.0)]
        compare("diagonal corners", corners, style: StrokeStyle(width: 6, cap: .square, join: .bevel))
    }

    /// Strokes no one chose: 30 seeded random polylines (3 to 16 points, some on pixel lines,
    /// some repeated, some long segments), widths 6 to 14, every cap and join, some dashed,
    /// some closed.
    @Test func seededRandomStrokes() {
        var random = SplitMix64(seed: 0x3EE7_1A9C)
        func coordinate() -> Double {
            let v = 2 + 44 * random.unit()
            return random.unit() < 0.2 ? v.rounded() : v
        }
        var pieces = 0, tagged = 0
        for case_ in 0..<30 {
            var p: [(Double, Double)] = []
            for _ in 0..<(3 + Int(random.next() % 14)) {
                p.append(random.unit() < 0.1 && !p.isEmpty ? p[p.count - 1] : (coordinate(), coordinate()))
            }
            let caps: [LineCap] = [.round, .butt, .square], joins: [LineJoin] = [.round, .miter, .bevel]
            let cap = caps[Int(random.next() % 3)], join = joins[Int(random.next() % 3)]
            let width = 6 + 8 * random.unit()
            let dashes = random.unit() < 0.3 ? [8 + 20 * random.unit(), 2 + 8 * random.unit()] : []
            let closed = random.unit() < 0.25
            let style = StrokeStyle(width: width, cap: cap, join: join, miterLimit: 1 + 9 * random.unit(),
                                    dashes: dashes, dashPhase: 10 * random.unit())
            let n = compare("random \(case_): \(p.count) points w=\(width) \(cap) \(join) dashes \(dashes) "
                            + "closed \(closed)", p, closed: closed, style: style)
            pieces += n.pieces
            tagged += n.tagged
        }
        print("random strokes: \(tagged) of \(pieces) pieces tagged")
        #expect(tagged < pieces, "every piece of 30 random strokes tagged")
    }

    /// A Lissajous curve crossing itself, beyond the mask on every side, whose box is taller
    /// than one accumulator band: the untagged pieces' blocks are marked band by band.
    @Test func strokeOverSeveralBands() {
        let size = 1100
        let curve = (0..<1500).map { i -> (Double, Double) in
            let t = Double(i) / 1500 * 2 * Double.pi
            return (550.3 + 540 * sin(3 * t), 550.7 + 560 * sin(2 * t + 0.3))
        }
        let (pieces, tagged) = compare("over several bands", curve,
                                       style: StrokeStyle(width: 9.3, cap: .round, join: .round), size: size)
        #expect(tagged * 3 < pieces, "\(tagged) of \(pieces) pieces tagged")
    }
}
