/// A pen recording as an importer reads it, before it is fitted onto a canvas: strokes of
/// Pointer Events samples whose `x`, `y`, `width` and `height` are still in the recording's
/// own units (device units, CSS pixels, inches...).
struct InkRecording {
    /// The strokes, in file order: only ink (pen down), never hover.
    var strokes: [InkStroke] = []
    /// Every sample the file holds, ink and hover.
    var samplesRead = 0
    /// Samples that were read but are not ink: hover (`buttons` 0, `penUp` traces), in file
    /// order and source units. They are not played.
    var hover: [PointerSample] = []

    /// Warnings and notes about what was read, each a full line such as
    /// `rec.inkml:4:5: warning: ...`, printed by the CLI.
    var warnings: [String] = []

    /// The number of ink samples, over all strokes.
    var inkSamples: Int { strokes.reduce(0) { $0 + $1.samples.count } }

    /// A group of sample fields that a brush sees as one measurement.
    private struct ChannelGroup {
        var name: String
        var values: @Sendable (PointerSample) -> [Double?]
        var clear: @Sendable (inout PointerSample) -> Void
    }

    private static let channelGroups: [ChannelGroup] = [
        ChannelGroup(name: "pressure", values: { s in [s.pressure ?? s.force.flatMap { f in s.maxForce.map { f / $0 } }] },
                     clear: { $0.pressure = nil; $0.force = nil; $0.maxForce = nil }),
        ChannelGroup(name: "orientation (tilt, altitude, azimuth)",
                     values: { [$0.tiltX, $0.tiltY, $0.altitudeAngle, $0.azimuthAngle] },
                     clear: { $0.tiltX = nil; $0.tiltY = nil; $0.altitudeAngle = nil; $0.azimuthAngle = nil }),
        ChannelGroup(name: "twist", values: { [$0.twist] }, clear: { $0.twist = nil }),
        ChannelGroup(name: "tangential pressure", values: { [$0.tangentialPressure] }, clear: { $0.tangentialPressure = nil }),
        ChannelGroup(name: "contact size", values: { [$0.width, $0.height] }, clear: { $0.width = nil; $0.height = nil }),
    ]

    /// Reports as absent every measurement that is the same in every ink sample (all-zero
    /// orientation, a pressure of 1.0 from a mouse), so brushes use their documented fallback
    /// rather than a flat reading; adds one note per measurement dropped. A recording of fewer
    /// than two ink samples keeps what it has.
    mutating func dropConstantChannels(file: String) {
        guard inkSamples >= 2, let first = strokes.first?.samples.first else { return }
        for group in Self.channelGroups {
            let reference = group.values(first)
            guard reference.contains(where: { $0 != nil }) else { continue }
            let constant = strokes.allSatisfy { $0.samples.allSatisfy { group.values($0) == reference } }
            guard constant else { continue }
            for s in strokes.indices {
                for i in strokes[s].samples.indices { group.clear(&strokes[s].samples[i]) }
            }
            let value = reference.compactMap { $0 }.map { BrushParameter.plain($0) }.joined(separator: ", ")
            warnings.append("\(file): note: \(group.name) is \(value) in every sample: treated as not measured, so brushes use their fallback")
        }
    }
}

/// One stroke of an ``InkRecording``: pointer down, the samples, pointer up.
struct InkStroke {
    /// `mouse`, `pen`, `touch` or `eraser`, or `nil` for the host's default (pen).
    var pointerType: String?
    /// At least one sample, in source units.
    var samples: [PointerSample]
    /// Where the stroke starts in the file.
    var location: SourceLocation
}

/// How a recording is placed on a canvas: uniformly scaled by `scale` about the centre of
/// its bounding box, which lands on the canvas centre.
///
/// The bounding box of every ink sample's position is fitted inside the canvas less a margin
/// of ``InkImporter/marginFraction`` of the smaller side on each edge, keeping the aspect
/// ratio; a small recording is scaled up, a large one down. A recording whose box is a single
/// point keeps scale 1 (it only moves to the centre); a box that is a line segment is fitted
/// along its one non-zero side.
struct InkFit: Equatable {
    var scale: Double
    /// The source point that lands on the canvas centre.
    var sourceCentre: (x: Double, y: Double)
    /// The canvas centre.
    var canvasCentre: (x: Double, y: Double)

    static func == (a: InkFit, b: InkFit) -> Bool {
        a.scale == b.scale && a.sourceCentre == b.sourceCentre && a.canvasCentre == b.canvasCentre
    }

    /// Raw positions beyond this magnitude (in the file's own units) are outliers, left out of
    /// the fit: no digitiser reports a billion units.
    static let absurdRaw = 1e9

    /// The fit of `recording` on a `width` x `height` canvas.
    init(_ recording: InkRecording, width: Int, height: Int) {
        let w = Double(width), h = Double(height)
        canvasCentre = (w / 2, h / 2)
        var minX = Double.infinity, minY = Double.infinity
        var maxX = -Double.infinity, maxY = -Double.infinity
        // Non-finite or absurd raw positions do not count: one outlier must not shrink the
        // real ink to a dot. They land far outside the canvas, where the renderer drops them
        // and counts them (RenderOptions.absurdCoordinate).
        for stroke in recording.strokes {
            for s in stroke.samples where abs(s.x) <= Self.absurdRaw && abs(s.y) <= Self.absurdRaw {
                minX = min(minX, s.x); maxX = max(maxX, s.x)
                minY = min(minY, s.y); maxY = max(maxY, s.y)
            }
        }
        guard minX <= maxX, minY <= maxY else {
            // No ink at all: nothing to place.
            scale = 1
            sourceCentre = (0, 0)
            return
        }
        sourceCentre = ((minX + maxX) / 2, (minY + maxY) / 2)
        let margin = InkImporter.marginFraction * min(w, h)
        let roomX = max(w - 2 * margin, 1), roomY = max(h - 2 * margin, 1)
        let spanX = maxX - minX, spanY = maxY - minY
        var s = Double.infinity
        if spanX > 0 { s = min(s, roomX / spanX) }
        if spanY > 0 { s = min(s, roomY / spanY) }
        // A single point (both spans 0) keeps its size; overflowing spans (1e308 - -1e308)
        // give infinity, which would make every position NaN.
        scale = s.isFinite && s > 0 ? s : 1
    }

    /// `p` moved and scaled onto the canvas (contact width and height are scaled too).
    func apply(_ p: PointerSample) -> PointerSample {
        var q = p
        guard abs(p.x) <= Self.absurdRaw && abs(p.y) <= Self.absurdRaw else {
            // An outlier stays unusable whatever the scale: the renderer drops and counts it.
            q.x = .infinity
            q.y = .infinity
            return q
        }
        q.x = (p.x - sourceCentre.x) * scale + canvasCentre.x
        q.y = (p.y - sourceCentre.y) * scale + canvasCentre.y
        q.width = p.width.map { $0 * scale }
        q.height = p.height.map { $0 * scale }
        return q
    }
}

extension InkRecording {
    /// The stroke script that plays this recording on a `width` x `height` canvas. Each
    /// stroke's samples are released as its events are made, so a large recording is not held
    /// twice.
    consuming func script(width: Int, height: Int, sourcePath: String) -> StrokeScript {
        let fit = InkFit(copy self, width: width, height: height)
        var actions: [ScriptAction] = []
        actions.reserveCapacity(strokes.count)
        for i in strokes.indices {
            let stroke = strokes[i]
            strokes[i].samples = []
            actions.append(ScriptAction(kind: .stroke(StrokeSpec(
                pointerType: stroke.pointerType, cancelled: false,
                events: stroke.samples.map { InputEventSpec(sample: fit.apply($0)) },
                location: stroke.location)), location: stroke.location))
        }
        var script = StrokeScript(canvas: CanvasSpec(width: width, height: height), actions: actions,
                                  sourcePath: sourcePath)
        script.warnings = warnings
        return script
    }
}
