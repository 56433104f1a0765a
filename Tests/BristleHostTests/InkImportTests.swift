import BristleTestSupport
import Foundation
import Testing
@testable import BristleHost

// Tests for the importers (Sources/BristleHost/Import, docs/importers.md): detection by
// content, the real recordings in Tests/Fixtures/ink (see NOTICE.md there), InkML's delta
// encoding, fitting onto the canvas, and located errors for malformed input.

/// `BristleHost.SourceLocation`, spelled out because Swift Testing has a type of that name.
private typealias Loc = BristleHost.SourceLocation

// MARK: - Helpers

enum InkImportFixture: String, CaseIterable, CustomTestStringConvertible {
    case inkML = "microsoft-inkmljs-ink1.xml"
    case bdalab = "bdalab-signal.json"
    case freehandSample = "perfect-freehand-sample.json"
    case freehandFlash = "perfect-freehand-flash.json"
    case wacom = "wacom-ink.csv"

    var path: String { TestEnvironment.fixture("ink/" + rawValue).path }
    var bytes: [UInt8] { get throws { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) } }
    var testDescription: String { rawValue }

    var format: InkImporter.Format {
        switch self {
        case .inkML: return .inkML
        case .bdalab: return .pointerEventsArrays
        case .freehandSample, .freehandFlash: return .pointsArray
        case .wacom: return .wacomCSV
        }
    }

    /// A misleading extension: the format must come from the content.
    var wrongExtension: String {
        switch self {
        case .inkML: return "csv"
        case .bdalab: return "xml"
        case .freehandSample: return "inkml"
        case .freehandFlash: return "txt"
        case .wacom: return "json"
        }
    }

    /// How many strokes and ink samples the script plays.
    var expected: (strokes: Int, samples: Int) {
        switch self {
        case .inkML: return (13, 623)
        case .bdalab: return (1, 148)
        case .freehandSample: return (1, 360)
        case .freehandFlash: return (1, 135)
        case .wacom: return (4, 880)
        }
    }
}

private func strokes(_ script: StrokeScript) -> [StrokeSpec] {
    script.actions.compactMap { if case .stroke(let s) = $0.kind { return s } else { return nil } }
}

private func samples(_ script: StrokeScript) -> [PointerSample] {
    strokes(script).flatMap { $0.events.map(\.sample) }
}

/// Imports `text` from memory under the name `file`.
private func importText(_ text: String, file: String = "rec.ink",
                        size: (width: Int, height: Int) = InkImporter.defaultCanvasSize) throws -> (script: StrokeScript, format: InkImporter.Format) {
    try InkImporter.parse(Array(text.utf8), sourcePath: file, fitInto: size)
}

/// The error importing `text` gives, or nil when it imports.
private func importError(_ text: String, file: String = "bad.rec") -> InputError? {
    importError(Array(text.utf8), file: file)
}

private func importError(_ bytes: [UInt8], file: String = "bad.rec") -> InputError? {
    do {
        _ = try InkImporter.parse(bytes, sourcePath: file)
        return nil
    } catch {
        return error
    }
}

/// The InkML recording of `xml`, in source units (before fitting).
private func inkML(_ xml: String) throws -> InkRecording {
    try InkMLReader.read(Array(xml.utf8), file: "t.inkml")
}

/// The (x, y) of every ink sample of `xml`, in source units.
private func points(_ xml: String) throws -> [[Double]] {
    try inkML(xml).strokes.flatMap { $0.samples.map { [$0.x, $0.y] } }
}

/// An error must name the file and a line and column, and be what the CLI maps to 65.
private func expectLocated(_ e: InputError?, file: String = "bad.rec", line: Int? = nil, column: Int? = nil,
                           mentioning text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    guard let e else {
        Issue.record("expected an error mentioning \(text), got none", sourceLocation: sourceLocation)
        return
    }
    #expect(e.file == file, sourceLocation: sourceLocation)
    #expect(e.line != nil && e.column != nil, "located: \(e)", sourceLocation: sourceLocation)
    if let line { #expect(e.line == line, "\(e)", sourceLocation: sourceLocation) }
    if let column { #expect(e.column == column, "\(e)", sourceLocation: sourceLocation) }
    #expect(e.message.contains(text), "\(e)", sourceLocation: sourceLocation)
    #expect(e.description.hasPrefix("\(file):\(e.line ?? 0):\(e.column ?? 0): "), "\(e)", sourceLocation: sourceLocation)
    #expect(e.message.contains("expected"), "says what was expected: \(e)", sourceLocation: sourceLocation)
    #expect(RenderError.input(e).exitStatus == 65, sourceLocation: sourceLocation)
}

private let inkmlNS = "http://www.w3.org/2003/InkML"

// MARK: - Detection

@Suite("Ink import: detection by content")
struct InkDetectionTests {
    @Test("each recording is detected from its bytes", arguments: InkImportFixture.allCases)
    func detectsEachRecording(_ fixture: InkImportFixture) throws {
        #expect(InkImporter.detect(try fixture.bytes) == fixture.format)
    }

    @Test("a recording renamed with a wrong extension is read by its content", arguments: InkImportFixture.allCases)
    func renamedRecordingIsReadByContent(_ fixture: InkImportFixture) throws {
        let dir = TestEnvironment.scratchDirectory("ink-renamed")
        let renamed = dir.appendingPathComponent("recording.\(fixture.wrongExtension)").path
        try FileManager.default.copyItem(atPath: fixture.path, toPath: renamed)
        let (script, format) = try InkImporter.read(contentsOf: renamed)
        #expect(format == fixture.format)
        #expect(script.sourcePath == renamed)
        #expect(strokes(script).count == fixture.expected.strokes)
    }

    @Test("native scripts are detected and read by StrokeScriptReader unchanged")
    func nativeScriptsAreDelegated() throws {
        let hello = TestEnvironment.packageRoot.appendingPathComponent("Examples/strokes/hello.json").path
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: hello)))
        #expect(InkImporter.detect(bytes) == .nativeJSON)
        #expect(InkImporter.detect(Array(#"{"canvas": {"width": 10, "height": 10}}"#.utf8)) == .nativeJSON)
        let (script, format) = try InkImporter.read(contentsOf: hello, fitInto: (50, 50))
        #expect(format == .nativeJSON)
        #expect(script == (try StrokeScriptReader.read(contentsOf: hello)), "fitInto does not apply to native scripts")
        // Its errors are the native reader's, word for word.
        let typo = #"{"actions": [{"stroke": {"events": [{"x": 1, "y": 1, "presure": 1}]}}]}"#
        let native: InputError?
        do { _ = try StrokeScriptReader.parse(typo, sourcePath: "t.json"); native = nil } catch { native = error }
        #expect(native != nil)
        #expect(importError(typo, file: "t.json") == native)
    }

    @Test("InkML is found with a prefix, without one, and inside another XML document")
    func inkMLVariants() {
        let variants = [
            "<ink xmlns=\"\(inkmlNS)\"><trace>1 2</trace></ink>",
            "<?xml version=\"1.0\"?>\n<inkml:ink xmlns:inkml=\"\(inkmlNS)\"><inkml:trace>1 2</inkml:trace></inkml:ink>",
            "\u{FEFF}  <ink><trace>1 2</trace></ink>",
            "<doc><!-- a note --><meta a=\"x > y\"/><body><i:ink xmlns:i=\"\(inkmlNS)\"><i:trace>1 2</i:trace></i:ink></body></doc>",
        ]
        for v in variants {
            #expect(InkImporter.detect(Array(v.utf8)) == .inkML, "\(v)")
        }
    }

    @Test("content of no supported format is not detected")
    func unknownContentIsNotDetected() {
        let unknown = [
            "", "   \n", "hello", "a,b,c\n1,2,3\n", "<doc><inkSource/><!-- <ink> --><![CDATA[<ink>]]></doc>",
            "{\"foo\": 1}", "{\"x\": 1, \"y\": 2}", "[]", "[[]]", "[\"a\", \"b\"]", "[{\"x\": 1}]", "42", "{\"actions\": [",
        ]
        for u in unknown {
            #expect(InkImporter.detect(Array(u.utf8)) == nil, "\(u)")
        }
        #expect(InkImporter.detect([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0]) == nil, "a PNG")
    }

    @Test("Pointer Events shapes: parallel arrays, one stroke of points, strokes of points")
    func pointerEventShapes() {
        #expect(InkImporter.detect(Array(#"{"x": [1], "y": [2], "time": [0]}"#.utf8)) == .pointerEventsArrays)
        #expect(InkImporter.detect(Array("[[1, 2, 0.5, 0], [3, 4, 0.5, 8]]".utf8)) == .pointsArray)
        #expect(InkImporter.detect(Array("[[[1, 2, 0.5, 0]], [[3, 4, 0.5, 8]]]".utf8)) == .pointsArray)
        #expect(InkImporter.detect(Array("[[], [[3, 4]]]".utf8)) == .pointsArray)
        #expect(InkImporter.detect(Array("idx,SPLINE_X,SPLINE_Y\n0,1,2\n".utf8)) == .wacomCSV)
        #expect(InkImporter.detect(Array("SPLINE_X;SPLINE_Y\n1;2\n".utf8)) == nil, "semicolons are not this CSV")
    }
}

// MARK: - The real recordings

@Suite("Ink import: real recordings")
struct InkRecordingTests {
    @Test("every recording plays its strokes and samples, fitted inside the canvas", arguments: InkImportFixture.allCases)
    func recordingShape(_ fixture: InkImportFixture) throws {
        let (script, format) = try InkImporter.read(contentsOf: fixture.path)
        #expect(format == fixture.format)
        #expect(script.canvas.width == 1024 && script.canvas.height == 768)
        #expect(strokes(script).count == fixture.expected.strokes)
        #expect(samples(script).count == fixture.expected.samples)
        let margin = 0.05 * 768
        for s in samples(script) {
            #expect(s.x >= margin - 1e-9 && s.x <= 1024 - margin + 1e-9 && s.y >= margin - 1e-9 && s.y <= 768 - margin + 1e-9,
                    "(\(s.x), \(s.y)) is inside the margin")
        }
        #expect(strokes(script).allSatisfy { !$0.events.isEmpty && !$0.cancelled })
    }

    @Test("ink1.xml: 13 traces, 623 points, F in 1...20262, pressure F/32767, time offsets")
    func microsoftInkML() throws {
        let recording = try InkMLReader.read(try InkImportFixture.inkML.bytes, file: "ink1.xml")
        #expect(recording.strokes.count == 13)
        #expect(recording.inkSamples == 623)
        #expect(recording.hover.isEmpty)
        let all = recording.strokes.flatMap(\.samples)
        let forces = all.compactMap(\.force)
        #expect(forces.count == 623)
        #expect(forces.min() == 1)
        #expect(forces.max() == 20262)
        #expect(all.allSatisfy { $0.maxForce == 32767 && $0.pressure == $0.force! / 32767 })
        // The first trace: "32 635 2757,'34'0'1090,"0"0"2950,-2 0-1347,...": absolute, first
        // differences, then second differences that later values without a mark keep.
        let first = recording.strokes[0].samples
        #expect(first.prefix(4).map { $0.force! } == [2757, 3847, 7887, 10580])
        // Positions keep the file's coordinates (the per-axis resolutions are not applied).
        #expect(first.prefix(4).map(\.x) == [32, 66, 100, 132])
        #expect(first.prefix(4).map(\.y) == [635, 635, 635, 635])
        // Time: the trace's timeOffset; there is no T channel.
        #expect(recording.strokes[0].samples[0].timeStamp == nil)
        #expect(recording.strokes[1].samples[0].timeStamp == 280.8036)
        #expect(recording.strokes[9].samples[0].timeStamp == 41465.3316)
        #expect(recording.strokes.allSatisfy { $0.pointerType == "pen" })
        // Located in the file: trace 2 starts on line 114.
        #expect(recording.strokes[1].location.line > recording.strokes[0].location.line)
    }

    @Test("bdalab-signal.json: 233 events, 148 with buttons=1 in one stroke, hover left out")
    func bdalabCapture() throws {
        let root = try JSONParser.parse(try InkImportFixture.bdalab.bytes, file: "signal.json")
        let recording = try PointerEventsJSONReader.readParallelArrays(root, file: "signal.json")
        #expect(recording.samplesRead == 233)
        #expect(recording.inkSamples == 148)
        #expect(recording.hover.count == 85)
        #expect(recording.strokes.count == 1)
        let events = recording.strokes.flatMap(\.samples) + recording.hover
        let pressures = events.compactMap(\.pressure), tiltX = events.compactMap(\.tiltX), tiltY = events.compactMap(\.tiltY)
        #expect(pressures.count == 233 && pressures.min() == 0 && pressures.max() == 0.60782790184021)
        #expect(tiltX.min() == 0 && tiltX.max() == 51)
        #expect(tiltY.min() == -34 && tiltY.max() == 21)
        let ink = recording.strokes[0].samples
        #expect(ink.allSatisfy { $0.buttons == 1 && $0.pointerType == "pen" && $0.twist == 0 })
        #expect(recording.hover.allSatisfy { $0.buttons == 0 })
        #expect(ink.first?.timeStamp == 17375.800000000745, "the first event with buttons=1")
        #expect(recording.strokes[0].pointerType == "pen")

        let (script, _) = try InkImporter.read(contentsOf: InkImportFixture.bdalab.path)
        #expect(strokes(script)[0].pointerType == "pen", "real pressure: not the mouse rule")
        #expect(samples(script).compactMap(\.pressure).max() == 0.60782790184021)
    }

    @Test("perfect-freehand-sample.json: 360 mouse points in one stroke, duplicates kept")
    func freehandSample() throws {
        let (script, format) = try InkImporter.read(contentsOf: InkImportFixture.freehandSample.path)
        #expect(format == .pointsArray)
        let s = strokes(script)
        #expect(s.count == 1)
        #expect(s[0].events.count == 360)
        #expect(s[0].pointerType == "mouse", "every pressure is 0.5")
        let p = samples(script)
        #expect(p.allSatisfy { $0.pressure == nil }, "a pressure of 0.5 everywhere carries nothing: reported absent")
        #expect(script.warnings.contains { $0.contains("note: pressure is 0.5 in every sample") }, "\(script.warnings)")
        #expect(p[0].x == p[1].x && p[0].y == p[1].y && p[0].timeStamp == 0 && p[1].timeStamp == 0,
                "the duplicate first point is kept")
        #expect(p[2].timeStamp == 177)
    }

    @Test("perfect-freehand-flash.json: 135 points, repeated t=0 kept")
    func freehandFlash() throws {
        let (script, _) = try InkImporter.read(contentsOf: InkImportFixture.freehandFlash.path)
        let s = strokes(script)
        #expect(s.count == 1 && s[0].events.count == 135)
        #expect(s[0].pointerType == "mouse")
        let t = samples(script).map(\.timeStamp)
        #expect(t[0] == 0 && t[1] == 0 && t[2] == 239)
        // (0, 49.93) then (1, 50.93): one source unit apart, scaled like everything else.
        let p = samples(script)
        #expect(abs((p[1].x - p[0].x) - (p[1].y - p[0].y)) < 1e-9)
    }

    @Test("wacom-ink.csv: 4 strokes, 880 samples, pressure 0...0.89, relative times, angles")
    func wacomCSV() throws {
        let recording = try WacomCSVReader.read(try InkImportFixture.wacom.bytes, file: "ink.csv")
        #expect(recording.strokes.map(\.samples.count) == [229, 129, 222, 300])
        #expect(recording.inkSamples == 880)
        let all = recording.strokes.flatMap(\.samples)
        let pressure = all.compactMap(\.pressure)
        #expect(pressure.count == 880)
        #expect(pressure.min()! >= 0 && pressure.min()! < 1e-6)
        #expect(abs(pressure.max()! - 0.89) < 1e-9)
        #expect(all[0].timeStamp == 0, "epoch milliseconds made relative")
        #expect(abs(all[879].timeStamp! - (1722443391588.183 - 1722443386312.649)) < 1e-3)
        #expect(all.allSatisfy { (0.59 - 1e-9...0.69 + 1e-9).contains($0.altitudeAngle!) })
        #expect(all.allSatisfy { (0.63 - 1e-9...0.79 + 1e-9).contains($0.azimuthAngle!) })
        #expect(all.allSatisfy { $0.tiltX == nil && $0.buttons == 1 })
        #expect(recording.strokes.map(\.location.line) == [2, 231, 360, 582])
        #expect(recording.strokes.allSatisfy { $0.pointerType == "pen" })
    }

    @Test("the renderer plays every imported recording unchanged, with the pencil", arguments: InkImportFixture.allCases)
    func rendererPlaysImports(_ fixture: InkImportFixture) throws {
        let (script, _) = try InkImporter.read(contentsOf: fixture.path, fitInto: (320, 240))
        var options = RenderOptions()
        options.searchDirectories = [TestEnvironment.productsDirectory.path]
        let renderer = ScriptRenderer(options: options)
        let out = TestEnvironment.scratchDirectory("ink-render").appendingPathComponent("\(fixture.rawValue).png").path
        try renderer.render(script, toPNG: out)
        #expect(renderer.stats.strokes == fixture.expected.strokes)
        let image = try PNGCodec.read(path: out)
        #expect(image.width == 320 && image.height == 240)
        var inked = 0
        for i in stride(from: 0, to: image.pixels.count, by: 4) where image.pixels[i] < 128 { inked += 1 }
        #expect(inked > 200, "the strokes left ink: \(inked) dark pixels")
    }
}

// MARK: - InkML decoding

@Suite("Ink import: InkML decoding")
struct InkMLDecodingTests {
    @Test("' first differences: v = previous + d")
    func firstDifferences() throws {
        #expect(try points("<ink><trace>10 20, '1 '2, '1 '2</trace></ink>") == [[10, 20], [11, 22], [12, 24]])
    }

    @Test("\" second differences: velocity += d; v = previous + velocity (the spec's example)")
    func secondDifferences() throws {
        let xml = "<ink><trace>1125 18432,'23'43,\"7\"-8,3-5,7 -3</trace></ink>"
        #expect(try points(xml) == [[1125, 18432], [1148, 18475], [1178, 18510], [1211, 18540], [1251, 18567]])
    }

    @Test("! explicit values switch back to absolute; unmarked values keep each channel's mode")
    func explicitAndPerChannelModes() throws {
        #expect(try points("<ink><trace>0 0,'5'5,!100 !100,'1'1,7 7</trace></ink>")
                == [[0, 0], [5, 5], [100, 100], [101, 101], [108, 108]])
        // X switches to differences, Y stays explicit.
        #expect(try points("<ink><trace>0 50,'3 60,4 70</trace></ink>") == [[0, 50], [3, 60], [7, 70]])
    }

    @Test("glued tokens: '-93'37 is two values, 3-584 is 3 and -584, 1.5.5 is 1.5 and .5")
    func gluedTokens() throws {
        #expect(try points("<ink><trace>10 1000,'-93'37,3-584</trace></ink>") == [[10, 1000], [-83, 1037], [-80, 453]])
        #expect(try points("<ink><trace>1.5.5,-2-3,#1A 1e2,.25 -.5</trace></ink>") == [[1.5, 0.5], [-2, -3], [26, 100], [0.25, -0.5]])
    }

    @Test("points wrap over lines (LF and CR LF) and white space is free")
    func wrappedLines() throws {
        let xml = "<ink>\r\n<trace>\r\n  10 20,\n  30\n  40 ,\r\n\t50   60\n</trace></ink>"
        #expect(try points(xml) == [[10, 20], [30, 40], [50, 60]])
    }

    @Test("* repeats the previous value; T and F are booleans")
    func specialValues() throws {
        #expect(try points("<ink><trace>5 6, * 7, 8 *</trace></ink>") == [[5, 6], [5, 7], [8, 7]])
    }

    @Test("penUp traces are hover, not ink")
    func penUpIsNotInk() throws {
        let xml = """
            <ink><trace>0 0, 10 10</trace><trace type="penUp">10 10, 20 20, 30 30</trace>
            <trace type="penDown">30 30, 40 40</trace></ink>
            """
        let r = try inkML(xml)
        #expect(r.strokes.count == 2)
        #expect(r.hover.count == 3)
        #expect(r.samplesRead == 7)
        #expect(r.strokes.flatMap(\.samples).map(\.x) == [0, 10, 30, 40])
    }

    @Test("the inkml: prefix, a default namespace, no namespace and an undeclared prefix read the same")
    func prefixes() throws {
        let body = "<inkml:trace>1 2, 3 4</inkml:trace><inkml:traceGroup><inkml:trace>5 6</inkml:trace></inkml:traceGroup>"
        let variants = [
            "<inkml:ink xmlns:inkml=\"\(inkmlNS)\">\(body)</inkml:ink>",
            "<ink xmlns=\"\(inkmlNS)\">\(body.replacingOccurrences(of: "inkml:", with: ""))</ink>",
            "<ink>\(body.replacingOccurrences(of: "inkml:", with: ""))</ink>",
            "<inkml:ink>\(body)</inkml:ink>",
        ]
        for v in variants {
            #expect(try points(v) == [[1, 2], [3, 4], [5, 6]], "\(v)")
        }
    }

    @Test("InkML inside another XML document: only traces inside <ink> count")
    func embedded() throws {
        let xml = """
            <?xml version="1.0"?>
            <report><title>notes</title><trace>999 999</trace>
              <page><inkml:ink xmlns:inkml="\(inkmlNS)"><inkml:trace>3 4, 5 6</inkml:trace></inkml:ink></page>
            </report>
            """
        #expect(try points(xml) == [[3, 4], [5, 6]])
        let (script, format) = try importText(xml)
        #expect(format == .inkML)
        #expect(strokes(script).count == 1)
    }

    @Test("nested traceGroups: every trace is a stroke, and a group's contextRef applies to its traces")
    func traceGroups() throws {
        let xml = """
            <ink>
              <definitions>
                <context xml:id="ctxF"><inkSource xml:id="src">
                  <traceFormat><channel name="X"/><channel name="Y"/><channel name="F" max="200"/></traceFormat>
                </inkSource></context>
              </definitions>
              <traceGroup contextRef="#ctxF">
                <annotation type="truth">x</annotation>
                <annotationXML><x:trace xmlns:x="urn:another-vocabulary">99 99</x:trace></annotationXML>
                <traceGroup><trace>0 0 100, 1 1 200</trace><trace>2 2 50</trace></traceGroup>
                <trace>3 3 0</trace>
              </traceGroup>
              <trace>4 4</trace>
            </ink>
            """
        let r = try inkML(xml)
        try #require(r.strokes.map(\.samples.count) == [2, 1, 1, 1])
        #expect(r.strokes.flatMap(\.samples).map(\.pressure) == [0.5, 1, 0.25, 0, nil])
        #expect(r.strokes[3].samples[0].force == nil, "outside the group: the default format, X Y")
    }

    @Test("channels: T plus timeOffset, tilt in degrees and radians, azimuth/elevation, rotation, width")
    func channels() throws {
        let xml = """
            <ink><definitions><context xml:id="c">
              <traceFormat>
                <channel name="X"/><channel name="Y"/><channel name="T" units="s"/>
                <channel name="OTx" units="deg"/><channel name="OTy" units="rad"/>
                <channel name="OA" units="deg"/><channel name="OE" units="deg"/><channel name="OR"/>
                <channel name="W"/><channel name="Z"/>
              </traceFormat></context></definitions>
              <trace contextRef="#c" timeOffset="1000">0 0 0 30 -0.5 450 45 -90 2 7, 10 0 0.5 120 0 -90 120 30 2 7</trace>
            </ink>
            """
        let s = try inkML(xml).strokes[0].samples
        #expect(s.map(\.timeStamp) == [1000, 1500])
        #expect(s.map(\.tiltX) == [30, 90], "degrees, clamped to [-90, 90]")
        #expect(abs(s[0].tiltY! - (-0.5 * 180 / .pi)) < 1e-9, "radians to degrees")
        #expect(abs(s[0].azimuthAngle! - .pi / 2) < 1e-12, "450 degrees folds to 90")
        #expect(abs(s[1].azimuthAngle! - 1.5 * .pi) < 1e-12, "-90 degrees folds to 270")
        #expect(abs(s[0].altitudeAngle! - .pi / 4) < 1e-12)
        #expect(s[1].altitudeAngle == .pi / 2, "elevation clamped to [0, π/2]")
        #expect(s.map(\.twist) == [270, 30])
        #expect(s.map(\.width) == [2, 2] && s.map(\.height) == [2, 2])
    }

    @Test("resolution does not distort positions; it converts W into X's units")
    func resolution() throws {
        let xml = """
            <ink><context><inkSource><traceFormat><channel name="X"/><channel name="Y"/><channel name="W"/></traceFormat>
              <channelProperties><channelProperty channel="X" name="resolution" value="10" units="1/cm"/>
              <channelProperty channel="Y" name="resolution" value="20" units="1/cm"/>
              <channelProperty channel="W" name="resolution" value="2" units="1/mm"/></channelProperties>
            </inkSource></context><trace>0 0 3, 100 200 3</trace></ink>
            """
        let r = try inkML(xml)
        #expect(r.strokes[0].samples.map { [$0.x, $0.y] } == [[0, 0], [100, 200]])
        // W = 3 at 2 per mm is 1.5 mm; X has 10 units per cm, 1 per mm: 1.5 X units.
        #expect(r.strokes[0].samples.map(\.width) == [1.5, 1.5])
        let (script, _) = try importText(xml, size: (1000, 1000))
        let p = samples(script)
        #expect(abs((p[1].y - p[0].y) / (p[1].x - p[0].x) - 2) < 1e-12, "aspect of the file's coordinates")
    }

    @Test("a -ve orientation flips its axis")
    func orientation() throws {
        let xml = "<ink><traceFormat><channel name=\"X\"/><channel name=\"Y\" orientation=\"-ve\"/></traceFormat><trace>1 2, 3 4</trace></ink>"
        #expect(try points(xml) == [[1, -2], [3, -4]])
    }

    @Test("a bare traceFormat in the ink (CROHME style) and F without a max (normalised by the largest)")
    func bareTraceFormat() throws {
        let xml = """
            <ink xmlns="\(inkmlNS)"><traceFormat><channel name="X" type="decimal"/><channel name="Y" type="decimal"/>
            <channel name="F" type="decimal"/></traceFormat><trace id="0">1 2 10, 3 4 40</trace></ink>
            """
        let s = try inkML(xml).strokes[0].samples
        #expect(s.map(\.x) == [1, 3])
        #expect(s.map(\.pressure) == [0.25, 1])
        #expect(s.map(\.force) == [10, 40] && s.allSatisfy { $0.maxForce == nil })
    }

    @Test("F's max from a channelProperty wins over the channel's max attribute")
    func forceMaxFromProperty() throws {
        let xml = """
            <ink><context><inkSource><traceFormat><channel name="X"/><channel name="Y"/><channel name="F" max="1000"/></traceFormat>
              <channelProperties><channelProperty channel="F" name="max" value="100"/></channelProperties>
            </inkSource></context><trace>0 0 50</trace></ink>
            """
        #expect(try inkML(xml).strokes[0].samples[0].pressure == 0.5)
    }

    @Test("trace errors are located at the offending character")
    func locatedTraceErrors() {
        expectLocated(importError("<ink><trace>1 2, 3 x</trace></ink>"), line: 1, column: 20, mentioning: "found 'x'")
        expectLocated(importError("<ink>\n  <trace>\n1 2,\n3 4 5</trace></ink>"), line: 4, column: 5, mentioning: "at most 2 values")
        expectLocated(importError("<ink><trace>1 2, 3</trace></ink>"), line: 1, column: 18, mentioning: "expected 2 values (X Y) in point 2")
        expectLocated(importError("<ink><trace>1 2,, 3 4</trace></ink>"), line: 1, column: 17, mentioning: "before ','")
        expectLocated(importError("<ink><trace>1 2, 3 4,</trace></ink>"), line: 1, column: 21, mentioning: "after the last ','")
        expectLocated(importError("<ink><trace contextRef=\"#nope\">1 2</trace></ink>"), mentioning: "\"#nope\"")
        expectLocated(importError("<ink><traceFormat><channel name=\"X\"/><channel name=\"F\"/></traceFormat><trace>1 2</trace></ink>"),
                      mentioning: "the channels X and Y")
    }
}

// MARK: - Fitting

@Suite("Ink import: fitting onto the canvas")
struct InkFittingTests {
    @Test("aspect ratio kept, centred, 5% margin of the smaller side")
    func aspectMarginCentre() throws {
        let (script, _) = try importText("[[0, 0], [100, 50]]")
        #expect(script.canvas.width == 1024 && script.canvas.height == 768)
        let p = samples(script)
        // Room: 1024 - 2 * 38.4 = 947.2 wide, 768 - 76.8 = 691.2 high; the width limits: x9.472.
        #expect(abs(p[0].x - 38.4) < 1e-9 && abs(p[1].x - 985.6) < 1e-9)
        #expect(abs(p[0].y - (384 - 236.8)) < 1e-9 && abs(p[1].y - (384 + 236.8)) < 1e-9)
        #expect(abs((p[1].x - p[0].x) / (p[1].y - p[0].y) - 2) < 1e-12, "aspect ratio 2:1 kept")
    }

    @Test("a tall recording is limited by the height; the size asked for is the canvas")
    func tallRecording() throws {
        let (script, _) = try importText("[[10, 10], [20, 110]]", size: (1600, 1200))
        #expect(script.canvas.width == 1600 && script.canvas.height == 1200)
        let p = samples(script)
        #expect(abs(p[0].y - 60) < 1e-9 && abs(p[1].y - 1140) < 1e-9, "margin 60 = 5% of 1200")
        #expect(abs(p[0].x - 746) < 1e-9 && abs(p[1].x - 854) < 1e-9, "centred: 800 -+ 54")
    }

    @Test("a single point (or many at one place) is centred without dividing by zero")
    func degenerate() throws {
        for text in ["[[5, 5]]", "[[5, 5, 0.5, 0], [5, 5, 0.5, 10]]", "<ink><trace>7 7</trace></ink>"] {
            let p = samples(try importText(text).script)
            #expect(p.allSatisfy { $0.x == 512 && $0.y == 384 }, "\(text)")
        }
        // A horizontal line: fitted along x, centred in y.
        let line = samples(try importText("[[0, 3], [10, 3]]").script)
        #expect(line.map(\.y) == [384, 384])
        #expect(abs(line[0].x - 38.4) < 1e-9 && abs(line[1].x - 985.6) < 1e-9)
        // A recording with no ink: an empty script on the canvas.
        let empty = try importText(#"{"x": [1, 2], "y": [1, 2], "buttons": [0, 0]}"#).script
        #expect(empty.actions.isEmpty && empty.canvas.width == 1024)
    }

    @Test("contact width and height are scaled with the positions")
    func contactScaled() throws {
        let p = samples(try importText(#"{"x": [0, 100], "y": [0, 0], "width": [2, 4], "height": [1, 3], "buttons": [1, 1]}"#).script)
        let scale = 947.2 / 100
        #expect(abs(p[0].width! - 2 * scale) < 1e-9 && abs(p[1].height! - 3 * scale) < 1e-9)
    }

    @Test("every real recording touches the margin on at least one axis and stays inside it", arguments: InkImportFixture.allCases)
    func tightFit(_ fixture: InkImportFixture) throws {
        let (script, _) = try InkImporter.read(contentsOf: fixture.path, fitInto: (800, 600))
        let p = samples(script)
        let minX = p.map(\.x).min()!, maxX = p.map(\.x).max()!, minY = p.map(\.y).min()!, maxY = p.map(\.y).max()!
        #expect(minX >= 30 - 1e-9 && maxX <= 770 + 1e-9 && minY >= 30 - 1e-9 && maxY <= 570 + 1e-9)
        let touchesX = abs(minX - 30) < 1e-6 && abs(maxX - 770) < 1e-6
        let touchesY = abs(minY - 30) < 1e-6 && abs(maxY - 570) < 1e-6
        #expect(touchesX || touchesY, "x \(minX)...\(maxX), y \(minY)...\(maxY)")
        #expect(abs((minX + maxX) / 2 - 400) < 1e-6 && abs((minY + maxY) / 2 - 300) < 1e-6, "centred")
    }
}

// MARK: - Pointer Events rules

@Suite("Ink import: Pointer Events and CSV rules")
struct InkPointerEventsRuleTests {
    @Test("strokes split where buttons goes from 0 to non-zero; buttons 0 is hover")
    func splitting() throws {
        let json = #"{"x": [0, 1, 2, 3, 4, 5, 6, 7], "y": [0, 0, 0, 0, 0, 0, 0, 1], "buttons": [0, 1, 1, 0, 0, 1, 3, 0], "pointerType": "pen"}"#
        let (script, format) = try importText(json)
        #expect(format == .pointerEventsArrays)
        let s = strokes(script)
        #expect(s.map(\.events.count) == [2, 2])
        #expect(s.flatMap { $0.events.map(\.sample.buttons) } == [1, 1, 1, 3], "a barrel button does not split")
    }

    @Test("without buttons, pressure > 0 is contact; pointerType may be an array")
    func pressureContact() throws {
        let json = #"{"x": [0, 1, 2, 3], "y": [0, 1, 2, 3], "pressure": [0, 0.3, 0.4, 0], "pointerType": ["pen", "pen", "touch", "pen"], "timeStamp": [5, 6, 7, 8]}"#
        let s = strokes(try importText(json).script)
        #expect(s.count == 1)
        #expect(s[0].events.map(\.sample.pointerType) == ["pen", "touch"])
        #expect(s[0].events.map(\.sample.timeStamp) == [6, 7])
    }

    @Test("the mouse rule: every pressure exactly 0.5 marks the strokes mouse; real pressure does not")
    func mouseRule() throws {
        #expect(strokes(try importText("[[[0, 0, 0.5, 0], [1, 1, 0.5, 5]], [[2, 2, 0.5, 9]]]").script).map(\.pointerType) == ["mouse", "mouse"])
        #expect(strokes(try importText("[[0, 0, 0.5, 0], [1, 1, 0.51, 5]]").script)[0].pointerType == nil)
        #expect(strokes(try importText("[[0, 0], [1, 1]]").script)[0].pointerType == nil, "no pressure at all")
        #expect(strokes(try importText(#"{"x": [0, 1], "y": [0, 1], "pressure": [0.5, 0.5]}"#).script)[0].pointerType == "mouse")
        #expect(strokes(try importText(#"{"x": [0, 1], "y": [0, 1], "pressure": [0.5, 0.5], "pointerType": "pen"}"#).script)[0].pointerType == "pen",
                "a capture that names its pointer type is believed")
    }

    @Test("CSV: columns by name in any order, strokes by idx, quoted fields, CR LF")
    func csvColumns() throws {
        let csv = "\u{FEFF}SPLINE_Y,\"SPLINE_X\",idx,SENSOR_PRESSURE,SENSOR_AZIMUTH\r\n1,2,5,0.5,-0.5\r\n3,4,5,1.5,7\r\n5,6,6,,0\r\n"
        let (script, format) = try importText(csv)
        #expect(format == .wacomCSV)
        let s = strokes(script)
        #expect(s.map(\.events.count) == [2, 1])
        let p = samples(script)
        #expect(p.map(\.pressure) == [0.5, 1, nil], "clamped into [0, 1]; empty is absent")
        #expect(abs(p[0].azimuthAngle! - (2 * .pi - 0.5)) < 1e-12 && abs(p[1].azimuthAngle! - (7 - 2 * .pi)) < 1e-12)
        #expect(p.allSatisfy { $0.timeStamp == nil && $0.altitudeAngle == nil })
    }
}

// MARK: - Malformed input

@Suite("Ink import: malformed input")
struct InkMalformedTests {
    @Test("truncated XML is located by the XML parser")
    func truncatedXML() throws {
        let bytes = try InkImportFixture.inkML.bytes
        let e = importError(Array(bytes.prefix(bytes.count / 2)), file: "ink1.xml")
        expectLocated(e, file: "ink1.xml", mentioning: "XML")
        #expect((e?.line ?? 0) > 50, "near where the file stops: \(String(describing: e))")
        expectLocated(importError("<ink><trace>1 2</trac></ink>"), line: 1, mentioning: "closing tag")
        expectLocated(importError("<ink><trace>1 2</trace></ink><ink/>"), mentioning: "after its root element")
        expectLocated(importError("<doc><p>no ink here</p></doc>"), line: 1, column: 1, mentioning: "<ink>")
    }

    @Test("arrays of unequal length are an error at the shorter array")
    func unequalArrays() {
        expectLocated(importError("{\"x\": [1, 2, 3],\n \"y\": [1, 2]}"), line: 2, column: 7, mentioning: "as long as \"x\"")
        expectLocated(importError(#"{"x": [1, 2], "y": [1, 2], "pressure": [0.1]}"#), mentioning: "pressure: expected an array of 2 values")
        expectLocated(importError(#"{"x": [1], "y": [1], "pressure": [1.5]}"#), line: 1, column: 35, mentioning: "pressure[0]: expected a number in [0, 1], found 1.5")
        expectLocated(importError(#"{"x": [1], "y": ["a"]}"#), mentioning: "y[0]: expected a number")
        expectLocated(importError(#"{"x": [1], "y": [1], "time": [0], "timeStamp": [0]}"#), mentioning: "both \"time\" and \"timeStamp\"")
        expectLocated(importError(#"{"x": [1], "y": [1], "pointerType": "stylus"}"#), mentioning: "\"stylus\"")
        expectLocated(importError(#"{"x": [1, 2]}"#), line: 1, column: 1, mentioning: "the key \"y\"")
    }

    @Test("a bad CSV number is located at its line and field")
    func badCSV() {
        let header = "idx,SPLINE_X,SPLINE_Y,SENSOR_TIMESTAMP,SENSOR_PRESSURE,SENSOR_ALTITUDE,SENSOR_AZIMUTH\n"
        let e = importError(header + "0,1,2,3,0.5,0.6,0.7\n0,1,2,3,abc,0.6,0.7\n")
        expectLocated(e, line: 3, column: 9, mentioning: "SENSOR_PRESSURE (field 5): expected a number, found \"abc\"")
        expectLocated(importError(header + "0,1,2,3,0.5,0.6\n"), line: 2, mentioning: "expected 7 fields")
        expectLocated(importError(header + "0,1,2,3,0.5,0.6,0.7,9\n"), line: 2, column: 21, mentioning: "found 8")
        expectLocated(importError(header + "0,,2,3,0.5,0.6,0.7\n"), line: 2, column: 3, mentioning: "SPLINE_X (field 2): expected a number, found an empty field")
        expectLocated(importError(header + "0,1,2,3,nan,0.6,0.7\n"), line: 2, column: 9, mentioning: "\"nan\"")
        expectLocated(importError("idx,SPLINE_X,SPLINE_Y\n0,\"1,2\n"), line: 2, column: 3, mentioning: "closing '\"'")
    }

    @Test("an empty file is located at 1:1")
    func emptyFile() throws {
        expectLocated(importError(""), line: 1, column: 1, mentioning: "empty file")
        expectLocated(importError("\u{FEFF}\n  \n"), line: 1, column: 1, mentioning: "empty file")
        // And through the file API, which also names missing files and directories.
        let dir = TestEnvironment.scratchDirectory("ink-empty")
        let path = dir.appendingPathComponent("empty.inkml").path
        try Data().write(to: URL(fileURLWithPath: path))
        func readError(_ path: String) -> InputError? {
            do { _ = try InkImporter.read(contentsOf: path); return nil } catch { return error }
        }
        expectLocated(readError(path), file: path, line: 1, column: 1, mentioning: "empty file")
        let directory = readError(dir.path)
        #expect(directory?.file == dir.path && directory?.message.contains("found a directory") == true)
        let missing = readError(dir.appendingPathComponent("none.csv").path)
        #expect(missing?.message.contains("found no file") == true && missing?.line == nil)
    }

    @Test("JSON of an unknown shape names what was expected")
    func unknownJSON() {
        expectLocated(importError("\n  {\"foo\": 1, \"bar\": [2]}"), line: 2, column: 3, mentioning: "found an object with the keys \"foo\", \"bar\"")
        let actoins = importError(#"{"actoins": []}"#)
        expectLocated(actoins, mentioning: "a stroke script")
        #expect(actoins?.hint?.contains("\"actions\"") == true)
        expectLocated(importError(#"{"x": 3, "y": 4}"#), line: 1, column: 7, mentioning: "x: expected an array")
        expectLocated(importError("[]"), mentioning: "found an empty array")
        expectLocated(importError(#"["a", "b"]"#), line: 1, column: 2, mentioning: "found the string \"a\"")
        expectLocated(importError("[[1, 2], [3, \"4\"]]"), line: 1, column: 14, mentioning: "[1][1]: expected a number")
        expectLocated(importError("[[1, 2, 3, 4, 5]]"), mentioning: "2 to 4 numbers")
        expectLocated(importError("[[[1, 2]], 7]"), line: 1, column: 12, mentioning: "[1]: expected a stroke")
        expectLocated(importError("\"just a string\""), mentioning: "found the string")
        expectLocated(importError("{\"x\": [1,],}"), line: 1, column: 9, mentioning: "trailing comma")
    }

    @Test("text and binary data of no supported format")
    func unknownText() {
        expectLocated(importError("\n\n   hello there"), line: 3, column: 4, mentioning: "found text starting \"hello there\"")
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D]
        expectLocated(importError(png), mentioning: "binary data")
        let csv = importError("a,b\n1,2\n")
        expectLocated(csv, mentioning: "found text starting")
        #expect(csv?.hint?.contains("SPLINE_X") == true)
    }

    @Test("every prefix of every recording imports or fails with a located InputError, never a crash",
          arguments: InkImportFixture.allCases)
    func truncatedRecordings(_ fixture: InkImportFixture) throws {
        let bytes = try fixture.bytes
        var failures = 0
        for cut in stride(from: 0, to: bytes.count, by: max(bytes.count / 97, 1)) {
            do {
                _ = try InkImporter.parse(Array(bytes.prefix(cut)), sourcePath: "cut")
            } catch {
                failures += 1
                #expect(error.line != nil && error.column != nil, "cut at \(cut): \(error)")
                #expect(RenderError.input(error).exitStatus == 65)
            }
        }
        // JSON and XML cannot be cut short and stay valid; CSV rows can (a cut row is short).
        #expect(failures > 10)
    }
}

/// Limits that keep hostile recordings from crashing or swamping the host.
@Suite("Import limits") struct InkImportLimitTests {
    @Test func aLongContextRefChainIsALocatedErrorNotAStackOverflow() throws {
        let n = 5000
        var xml = "<ink xmlns=\"http://www.w3.org/2003/InkML\"><definitions>\n"
        for i in 0..<n { xml += "<context xml:id=\"c\(i)\" contextRef=\"#c\(i + 1)\"/>\n" }
        xml += "<context xml:id=\"c\(n)\"/></definitions>\n<trace contextRef=\"#c0\">1 2, 3 4</trace></ink>\n"
        let error = try #require(importError(xml, file: "chain.inkml"))
        #expect(error.message.contains("at most \(64) contexts"), "\(error)")
        #expect(error.line != nil)
        // A short chain still resolves.
        let short = "<ink><definitions><context xml:id=\"a\" contextRef=\"#b\"/><context xml:id=\"b\"/></definitions><trace contextRef=\"#a\">1 2, 3 4</trace></ink>"
        #expect(try samples(importText(short).script).count == 2)
    }

    @Test func anOutlierDoesNotShrinkTheFitAndBecomesUnusable() throws {
        let xml = "<ink><trace>0 0, 100 50, 200 0, 300 50, 400 0, 1e12 1e12</trace></ink>"
        let s = samples(try importText(xml, size: (500, 300)).script)
        #expect(s.count == 6)
        let real = s.prefix(5)
        #expect(real.map(\.x).max()! - real.map(\.x).min()! > 400, "the real ink keeps its size")
        #expect(!s[5].x.isFinite, "the outlier is marked for the renderer to drop and count")
    }

    @Test func anOversizedFileIsRefusedBeforeReading() throws {
        let dir = TestEnvironment.scratchDirectory("huge")
        let path = dir.appendingPathComponent("huge.json").path
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: UInt64(InkImporter.maximumFileBytes) + 1)  // sparse: no disk used
        try handle.close()
        #expect {
            _ = try InkImporter.read(contentsOf: path)
        } throws: { error in
            (error as! InputError).message.contains("at most 64 MB")
        }
    }
}
