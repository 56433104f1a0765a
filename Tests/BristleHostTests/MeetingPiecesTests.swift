@testable import BristleHost
import Foundation
import Testing

/// The exact fill's search for the parts of a stroke's outline that can meet
/// (``MeetingPieces``): a stroke drawn with the search (pieces two pixels shorter than the
/// width, or below ``Rasterizer/meetingSearchWidth`` a dashed stroke's whole dashes; only the
/// pieces whose boxes meet, and dashes the contour rule does not clear, tagged) must give the
/// bytes, the trouble cells and their exact areas of the same outline filled with every edge
/// tagged, pixel for pixel, while pieces away from any meeting stay untagged.
@Suite struct MeetingPiecesTests {
    /// `points` vertices of a Lissajous curve crossing itself, reaching past an 1100 px mask on
    /// every side and taller than one accumulator band.
    private static func lissajous(points: Int) -> [(Double, Double)] {
        (0..<points).map { i in
            let t = Double(i) / Double(points) * 2 * Double.pi
            return (550.3 + 540 * sin(3 * t), 550.7 + 560 * sin(2 * t + 0.3))
        }
    }

    /// Draws `points` into a mask through `drawPolyline` (the search runs: `style.width` is at
    /// least ``Rasterizer/meetingSearchWidth``), then fills the outline it left in the scratch
    /// again with every edge tagged, and compares. Returns the pieces and the tagged ones.
    @discardableResult
    private func compare(_ label: String, _ points: [(Double, Double)], closed: Bool = false,
                         style: StrokeStyle, size: Int = 48) -> (pieces: Int, tagged: Int) {
        #expect(style.width >= Rasterizer.meetingSearchWidth || !style.dashes.isEmpty,
                "\(label): no search at this width")
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
        let curve = Self.lissajous(points: 1500)
        let (pieces, tagged) = compare("over several bands", curve,
                                       style: StrokeStyle(width: 9.3, cap: .round, join: .round), size: size)
        #expect(tagged * 3 < pieces, "\(tagged) of \(pieces) pieces tagged")
    }

    /// Sharp zigzags no one chose: 400 seeded six-segment polylines turning by 126 to 178
    /// degrees at each vertex, legs 1.5 to 6.5 px (about a piece's length), widths 6 to 8, every
    /// join: the outline folds back within a piece's length, where three consecutive pieces
    /// come close together.
    @Test func sharpZigzags() {
        var random = SplitMix64(seed: 0x51A7)
        for case_ in 0..<400 {
            var p: [(Double, Double)] = [(24 + random.unit(), 24 + random.unit())]
            var a = 2 * Double.pi * random.unit()
            var sign = 1.0
            for _ in 0..<6 {
                let l = 1.5 + 5 * random.unit()
                p.append((p[p.count - 1].0 + l * cos(a), p[p.count - 1].1 + l * sin(a)))
                a += sign * (2.2 + 0.9 * random.unit())
                if random.unit() < 0.7 { sign = -sign }
            }
            let joins: [LineJoin] = [.round, .miter, .bevel]
            let style = StrokeStyle(width: 6 + 2 * random.unit(), cap: .butt, join: joins[case_ % 3],
                                    miterLimit: 10)
            compare("zigzag \(case_)", p, style: style)
        }
    }

    // MARK: - Whole dashes (strokes narrower than meetingSearchWidth)

    /// Dashes along a gentle arc, each its own contour far from the others: none tagged,
    /// unless the stroke is so thin that a cell holds both sides (width 1: its cells at the
    /// caps are trouble).
    @Test func dashesAlongAGentleArc() {
        let arc = (0...60).map { i -> (Double, Double) in
            let a = Double(i) * 1.3 / 90
            return (10.3 + 90 * sin(a), 96.1 - 90 * cos(a))
        }
        for (cap, width) in [(LineCap.butt, 4.0), (.square, 3.1), (.butt, 5.9), (.butt, 1.0)] {
            let (pieces, tagged) = compare("arc, \(cap) w=\(width)", arc,
                                           style: StrokeStyle(width: width, cap: cap, join: .round,
                                                              dashes: [16, 8]), size: 100)
            #expect(pieces >= 3 && tagged == (width > 2 ? 0 : pieces),
                    "\(tagged) of \(pieces) dashes tagged on a gentle arc at width \(width)")
        }
    }

    /// Dashes folded round hairpins and tight loops: a dash whose outline comes back near
    /// itself (its sides, its two caps) stays tagged, and the fill matches the all-tagged one.
    @Test func dashesFoldingBack() {
        let pins = [(4.2, 8.1), (40.6, 9.3), (4.9, 13.2), (41.8, 17.7), (5.3, 21.1), (42.1, 26.4)]
        for (cap, join) in [(LineCap.butt, LineJoin.round), (.square, .miter), (.butt, .bevel)] {
            let (pieces, tagged) = compare("hairpin dashes, \(cap) \(join)", pins,
                                           style: StrokeStyle(width: 3.5, cap: cap, join: join, miterLimit: 10,
                                                              dashes: [30, 4], dashPhase: 3))
            #expect(tagged > 0 && tagged <= pieces, "\(tagged) of \(pieces) dashes tagged round hairpins")
        }
        // Loops of radius 2 to 4 (a dash turning round by up to a full turn and more).
        for radius in [2.0, 2.6, 3.3, 4.0] {
            let loop = (0...70).map { i -> (Double, Double) in
                let a = Double(i) / 70 * 5 * Double.pi
                return (24.2 + radius * cos(a) + Double(i) * 0.12, 24.7 + radius * sin(a))
            }
            let (pieces, tagged) = compare("loops r=\(radius)", loop,
                                           style: StrokeStyle(width: 2.5, cap: .butt, join: .round,
                                                              dashes: [14, 3]))
            #expect(tagged > 0, "\(tagged) of \(pieces) dashes tagged on loops of radius \(radius)")
        }
    }

    /// A path crossing itself: the dashes over the crossing are tagged, the others not.
    @Test func dashAcrossASelfCrossing() {
        let cross = [(4.1, 4.3), (43.7, 43.2), (43.9, 4.8), (4.6, 43.9)]
        let (pieces, tagged) = compare("crossing dashes", cross,
                                       style: StrokeStyle(width: 4, cap: .butt, join: .round, dashes: [9, 5]))
        #expect(tagged >= 2 && tagged < pieces, "\(tagged) of \(pieces) dashes tagged over a crossing")
    }

    /// Dashes whose boxes meet at exactly one cell (edges on pixel lines): parallel dashed
    /// lines a width and one cell apart, and dash ends meeting diagonally.
    @Test func dashesMeetingAtOneCell() {
        let rows = [(4.0, 10.0), (44.0, 10.0), (44.0, 15.0), (4.0, 15.0)]
        compare("parallel dashes", rows, style: StrokeStyle(width: 4, cap: .butt, join: .miter, dashes: [8, 4]))
        compare("parallel dashes, square caps", rows,
                style: StrokeStyle(width: 3, cap: .square, join: .miter, dashes: [6, 6]))
        let diagonal = [(4.0, 4.0), (44.0, 44.0)]
        compare("diagonal dash ends", diagonal,
                style: StrokeStyle(width: 2, cap: .square, join: .round, dashes: [5.656854249492381, 0.5]))
    }

    /// Closed dashed paths whose last dash continues into the first (the seam at the closing
    /// vertex, on a corner or along a side), and a pattern that never ends (the closed path).
    @Test func dashSeamsOfClosedContours() {
        let square = [(8.3, 8.1), (39.6, 9.2), (38.9, 39.4), (9.2, 38.7)]
        for phase in [0.0, 3.0, 11.5] {
            compare("closed dashes, phase \(phase)", square, closed: true,
                    style: StrokeStyle(width: 4, cap: .butt, join: .round, dashes: [20, 5], dashPhase: phase))
        }
        let ring = (0..<48).map { i -> (Double, Double) in
            let a = Double(i) / 48 * 2 * Double.pi
            return (24 + 15 * cos(a), 24 + 15 * sin(a))
        }
        compare("ring of dashes", ring, closed: true,
                style: StrokeStyle(width: 3, cap: .butt, join: .round, dashes: [13, 4], dashPhase: 1))
        compare("ring never off", ring, closed: true,
                style: StrokeStyle(width: 3, cap: .butt, join: .round, dashes: [500, 4]))
    }

    /// Dashed strokes no one chose: 300 seeded random walks (4 to 40 steps of 0.3 to 8 px,
    /// mostly turning by up to 0.02 to 0.42 rad, one step in 12 turning sharply, some points
    /// on pixel lines),
    /// widths 0.5 to 6, every cap and join, dashes of 2 to 24 or dots, gaps of 1 to 12, some closed.
    @Test func seededRandomDashes() {
        var random = SplitMix64(seed: 0xDA5E_5EED)
        let size = 200
        var pieces = 0, tagged = 0
        for case_ in 0..<300 {
            var p: [(Double, Double)] = [(60 + 80 * random.unit(), 60 + 80 * random.unit())]
            var heading = 2 * Double.pi * random.unit()
            let bend = 0.02 + 0.4 * random.unit()
            for _ in 0..<(3 + Int(random.next() % 37)) {
                let last = p[p.count - 1]
                heading += random.unit() < 0.08 ? 6 * random.unit() - 3 : bend * (2 * random.unit() - 1)
                let step = 0.3 + 7.7 * random.unit()
                var x = Swift.min(195, Swift.max(5, last.0 + step * cos(heading)))
                var y = Swift.min(195, Swift.max(5, last.1 + step * sin(heading)))
                if random.unit() < 0.15 { x.round(); y.round() }
                p.append((x, y))
            }
            let caps: [LineCap] = [.round, .butt, .square], joins: [LineJoin] = [.round, .miter, .bevel]
            let cap = caps[Int(random.next() % 3)], join = joins[Int(random.next() % 3)]
            let width = 0.5 + 5.5 * random.unit()
            // Zero-length dashes are dots (nothing with butt caps).
            let dot = random.unit() < 0.1 && cap != .butt
            let dashes = [dot ? 0 : 2 + 22 * random.unit(), 1 + 11 * random.unit()]
            let closed = random.unit() < 0.25
            let style = StrokeStyle(width: width, cap: cap, join: join, miterLimit: 1 + 9 * random.unit(),
                                    dashes: dashes, dashPhase: 10 * random.unit())
            let n = compare("random dashes \(case_): \(p.count) points w=\(width) \(cap) \(join) dashes "
                            + "\(dashes) closed \(closed)", p, closed: closed, style: style, size: size)
            pieces += n.pieces
            tagged += n.tagged
        }
        print("random dashes: \(tagged) of \(pieces) dashes tagged")
        #expect(pieces - tagged >= 200, "\(tagged) of \(pieces) dashes of 300 random strokes tagged")
    }

    /// A dashed Lissajous curve at width 4 crossing itself, taller than one accumulator band
    /// (the workload's dashes, smaller): most dashes untagged.
    @Test func dashedCurveOverSeveralBands() {
        let size = 1100
        let curve = Self.lissajous(points: 3000)
        let (pieces, tagged) = compare("dashed over several bands", curve,
                                       style: StrokeStyle(width: 4, cap: .butt, join: .round, dashes: [16, 8]),
                                       size: size)
        #expect(tagged * 5 < pieces, "\(tagged) of \(pieces) dashes tagged")
    }
}
