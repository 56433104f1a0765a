import BristleTestSupport
import Foundation
import Testing
@testable import BristleBench
@testable import BristleHost

// Tests for issue 14 and issue 15 point 3 (docs/importers.md): InkML channel units, channels
// that carry nothing, large InkML streamed, Quick, Draw! ndjson and SVC tablet captures.

/// The ink samples of `text` imported from memory, and the import's warnings.
private func imported(_ text: String, file: String = "u.inkml", drawing: Int = 0) throws -> (samples: [PointerSample], strokes: Int, warnings: [String], format: InkImporter.Format) {
    let (script, format) = try InkImporter.parse(Array(text.utf8), sourcePath: file, drawing: drawing)
    let strokes = script.actions.compactMap { if case .stroke(let s) = $0.kind { return s } else { return nil } }
    return (strokes.flatMap { $0.events.map(\.sample) }, strokes.count, script.warnings, format)
}

/// An InkML document whose trace format is X, Y and `channel` (with `attributes`), and whose
/// trace has the points `0 0 a, 10 5 b` for the two `values`.
private func oneChannel(_ channel: String, _ attributes: String, _ values: (String, String), extra: String = "") -> String {
    """
    <ink xmlns="http://www.w3.org/2003/InkML"><definitions><context xml:id="c"><inkSource xml:id="s">
    <traceFormat><channel name="X"/><channel name="Y"/><channel name="\(channel)" \(attributes)/></traceFormat>
    \(extra)</inkSource></context></definitions>
    <trace contextRef="#c">0 0 \(values.0), 10 5 \(values.1)</trace></ink>
    """
}

@Suite("Ink import: InkML channel units")
struct InkChannelUnitTests {
    @Test("tilt in deg, 1/100 deg, rad and grad reads as degrees", arguments: [
        ("deg", "30", "-45", 30.0, -45.0), ("1/100 deg", "3000", "-4500", 30, -45), ("1/100deg", "1000", "2000", 10, 20),
        ("rad", "0.5235987755982988", "-0.7853981633974483", 30, -45), ("grad", "100", "-50", 90, -45),
    ])
    func tiltUnits(_ units: String, _ a: String, _ b: String, _ degA: Double, _ degB: Double) throws {
        let r = try imported(oneChannel("OTx", "units=\"\(units)\"", (a, b)))
        #expect(r.warnings.isEmpty, "\(r.warnings)")
        #expect(abs(r.samples[0].tiltX! - degA) < 1e-9 && abs(r.samples[1].tiltX! - degB) < 1e-9, "\(units): \(r.samples.map(\.tiltX))")
    }

    @Test("TX and TY are read as OTx and OTy")
    func tiltAliases() throws {
        let r = try imported(oneChannel("TY", "units=\"1/100 deg\"", ("1500", "-2500")))
        #expect(r.samples.map(\.tiltY) == [15, -25])
    }

    @Test("azimuth and elevation in 1/100 deg, and an angle resolution of 1/deg")
    func orientationUnits() throws {
        let r = try imported(oneChannel("OA", "units=\"1/100 deg\"", ("9000", "18000")))
        #expect(abs(r.samples[0].azimuthAngle! - .pi / 2) < 1e-9 && abs(r.samples[1].azimuthAngle! - .pi) < 1e-9)
        let property = "<channelProperties><channelProperty channel=\"OE\" name=\"resolution\" value=\"10\" units=\"1/deg\"/></channelProperties>"
        let e = try imported(oneChannel("OE", "units=\"dev\"", ("450", "900"), extra: property))
        #expect(e.warnings.isEmpty, "\(e.warnings)")
        #expect(abs(e.samples[0].altitudeAngle! - .pi / 4) < 1e-9 && abs(e.samples[1].altitudeAngle! - .pi / 2) < 1e-9)
    }

    @Test("time in s, ms, us and 1/1000 s reads as milliseconds", arguments: [
        ("s", "1", "2", 1000.0, 2000.0), ("ms", "5", "25", 5, 25), ("us", "1000", "3000", 1, 3), ("1/1000 s", "4", "9", 4, 9),
    ])
    func timeUnits(_ units: String, _ a: String, _ b: String, _ msA: Double, _ msB: Double) throws {
        let r = try imported(oneChannel("T", "units=\"\(units)\"", (a, b)))
        #expect(abs(r.samples[0].timeStamp! - msA) < 1e-9 && abs(r.samples[1].timeStamp! - msB) < 1e-9, "\(units): \(r.samples.map(\.timeStamp))")
    }

    @Test("force in %, without a max, is a pressure out of 100")
    func forcePercent() throws {
        let r = try imported(oneChannel("F", "units=\"%\"", ("25", "75")))
        #expect(r.samples.map(\.pressure) == [0.25, 0.75])
    }

    @Test("X and Y in different lengths (cm and mm, himetric and in) are brought to one unit")
    func positionUnits() throws {
        func xy(_ ux: String, _ uy: String) throws -> [[Double]] {
            let xml = """
                <ink><traceFormat><channel name="X" units="\(ux)"/><channel name="Y" units="\(uy)"/></traceFormat>
                <trace>0 0, 1 10, 2 20</trace></ink>
                """
            let recording = try InkMLReader.read(Array(xml.utf8), file: "p.inkml")
            return recording.strokes[0].samples.map { [$0.x, $0.y] }
        }
        #expect(try xy("cm", "mm") == [[0, 0], [10, 10], [20, 20]], "1 cm is 10 mm: a diagonal")
        #expect(try xy("himetric", "himetric") == [[0, 0], [1, 10], [2, 20]], "one unit: kept as written")
        let mixed = try xy("in", "himetric")
        #expect(abs(mixed[1][0] - 25.4) < 1e-9 && abs(mixed[1][1] - 0.1) < 1e-9)
    }

    @Test("units that are not understood: a located warning naming the channel, and the channel ignored", arguments: [
        ("OTx", "furlong", "an angle"), ("OA", "dev", "an angle"), ("T", "fortnight", "a time"), ("F", "psi", "a force"),
    ])
    func unknownUnits(_ channel: String, _ units: String, _ expected: String) throws {
        let r = try imported(oneChannel(channel, "units=\"\(units)\"", ("1", "2")))
        #expect(r.warnings.count == 1, "\(r.warnings)")
        let warning = try #require(r.warnings.first)
        #expect(warning.hasPrefix("u.inkml:2:"), "located at the channel: \(warning)")
        #expect(warning.contains("warning: channel \(channel) is ignored") && warning.contains(expected) && warning.contains("\"\(units)\""), "\(warning)")
        #expect(r.samples.allSatisfy { $0.tiltX == nil && $0.azimuthAngle == nil && $0.pressure == nil })
        #expect(r.samples.count == 2, "the ink itself still imports")
        if channel == "T" { #expect(r.samples.allSatisfy { $0.timeStamp == nil }) }
    }

    @Test("position units that are not a length warn and read as device units")
    func unknownPositionUnits() throws {
        let r = try imported("<ink><traceFormat><channel name=\"X\" units=\"parsec\"/><channel name=\"Y\"/></traceFormat><trace>0 0, 3 4</trace></ink>")
        #expect(r.samples.count == 2)
        #expect(r.warnings.count == 1 && r.warnings[0].contains("channel X has units \"parsec\""), "\(r.warnings)")
    }

    @Test("the unit parser: scales, reciprocals and plain names")
    func scaledUnits() {
        #expect(InkUnits.scaled("1/100 deg") == (0.01, "deg"))
        #expect(InkUnits.scaled("0.5mm") == (0.5, "mm"))
        #expect(InkUnits.scaled("1/in") == (1, "1/in"))
        #expect(InkUnits.scaled(nil) == (1, nil))
        #expect(InkUnits.degreesPerUnit("1/100 deg") == 0.01)
        #expect(InkUnits.millimetresPerUnit("himetric") == 0.01)
        #expect(InkUnits.millisecondsPerUnit("1/1000 s") == 1)
        #expect(InkUnits.degreesPerUnit("dev") == nil)
    }
}

@Suite("Ink import: Livescribe-style InkML")
struct InkLivescribeTests {
    /// The shape of a Livescribe Desktop export: prefixed elements, a context referenced as
    /// `#id` from a trace group, an ink source with its trace format and resolutions, traces
    /// mixing explicit, first- and second-difference values, `*`, `?` and booleans.
    static let export = """
        <?xml version="1.0" encoding="UTF-8"?>
        <inkml:ink xmlns:inkml="http://www.w3.org/2003/InkML">
          <inkml:definitions>
            <inkml:context xml:id="ctx0">
              <inkml:inkSource xml:id="pen0">
                <inkml:traceFormat>
                  <inkml:channel name="X" type="integer" units="mm"/>
                  <inkml:channel name="Y" type="integer" units="mm"/>
                  <inkml:channel name="F" type="integer" max="255"/>
                  <inkml:channel name="T" type="integer" units="ms"/>
                  <inkml:intermittentChannels><inkml:channel name="B1" type="boolean" default="F"/></inkml:intermittentChannels>
                </inkml:traceFormat>
                <inkml:channelProperties>
                  <inkml:channelProperty channel="X" name="resolution" value="1" units="1/mm"/>
                </inkml:channelProperties>
              </inkml:inkSource>
            </inkml:context>
          </inkml:definitions>
          <inkml:traceGroup contextRef="#ctx0">
            <inkml:trace>100 200 10 0 T, '5 '0 '10 '10, "1 "2 * "10, !300 !300 ? !40 F</inkml:trace>
            <inkml:trace contextRef="#ctx0">10 10 50 100,'1'1'0'8,'1'1 * *</inkml:trace>
          </inkml:traceGroup>
        </inkml:ink>
        """

    @Test("context references, the whole trace grammar and intermittent booleans import")
    func livescribeExport() throws {
        let recording = try InkMLReader.read(Array(Self.export.utf8), file: "livescribe.inkml")
        #expect(recording.strokes.count == 2)
        let a = recording.strokes[0].samples
        #expect(a.map(\.x) == [100, 105, 111, 300])
        #expect(a.map(\.y) == [200, 200, 202, 300])
        #expect(a.map(\.timeStamp) == [0, 10, 30, 40])
        #expect(a[3].force == nil, "? is not known")
        #expect(a.prefix(3).map(\.force) == [10, 20, 20], "* repeats the previous force")
        let b = recording.strokes[1].samples
        #expect(b.map(\.x) == [10, 11, 12] && b.map(\.timeStamp) == [100, 108, 108])
    }
}

@Suite("Ink import: InkML brushes")
struct InkMLBrushTests {
    static let document = """
        <ink xmlns="http://www.w3.org/2003/InkML"><definitions>
        <brush xml:id="red"><brushProperty name="color" value="#FF0000"/><brushProperty name="width" value="20"/></brush>
        <brush xml:id="hl" brushRef="#red"><brushProperty name="color" value="yellow"/><brushProperty name="rasterOp" value="maskPen"/></brush>
        <brush xml:id="faint"><brushProperty name="transparency" value="204"/></brush>
        </definitions>
        <trace brushRef="#red">0 0, 100 50, 200 0</trace>
        <trace brushRef="#red">0 10, 200 10</trace>
        <traceGroup brushRef="#hl"><trace>0 100, 200 100</trace></traceGroup>
        <trace brushRef="#faint">0 150, 200 150</trace>
        <trace brushRef="#nope">0 200, 200 200</trace>
        </ink>
        """

    private static func brushes(_ script: StrokeScript) -> [BrushSpec] {
        script.actions.compactMap { if case .brush(let b) = $0.kind { return b } else { return nil } }
    }

    @Test("color, width, transparency and a highlighter's rasterOp become brush actions where the look changes")
    func brushesBecomeBrushActions() throws {
        let (script, _) = try InkImporter.parse(Array(Self.document.utf8), sourcePath: "b.inkml", fitInto: (400, 400))
        let b = Self.brushes(script)
        #expect(b.count == 4, "red (once for two traces), highlighter, faint, back to the default: \(b)")
        let scale = 360.0 / 200  // 400 less two margins of 20, over 200 units
        #expect(b[0].color == RGBAColor(red: 1, green: 0, blue: 0) && b[0].id == nil)
        #expect(abs(b[0].width! - 20 * scale) < 1e-9, "width in X's units, scaled with the fit")
        #expect(b[1].id == InkLook.highlighterBrush && b[1].color?.alpha == 0.5 && b[1].width == b[0].width,
                "maskPen: the marker, half opaque; the width comes from #red through brushRef")
        #expect(abs(Double(b[2].color!.alpha) - 0.2) < 1e-6, "transparency 204 of 255")
        #expect(b[3].color == nil && b[3].width == nil && b[3].id == nil, "an unknown brush: the default look")
        #expect(script.warnings.contains { $0.contains("brushRef \"#nope\" names no <brush>") }, "\(script.warnings)")
    }

    @Test("a width in cm is converted through X's length unit")
    func widthUnits() throws {
        let xml = """
            <ink><definitions><brush xml:id="b"><brushProperty name="width" value="0.5" units="cm"/></brush></definitions>
            <traceFormat><channel name="X" units="mm"/><channel name="Y" units="mm"/></traceFormat>
            <trace brushRef="#b">0 0, 10 10</trace></ink>
            """
        let recording = try InkMLReader.read(Array(xml.utf8), file: "w.inkml")
        #expect(recording.strokes[0].look?.width == 5)
    }
}

@Suite("Ink import: channels that carry nothing")
struct InkConstantChannelTests {
    @Test("a pressure of 1.0 everywhere and all-zero tilt are reported absent, with one note each")
    func constantChannelsAreAbsent() throws {
        let xml = """
            <ink><traceFormat><channel name="X"/><channel name="Y"/><channel name="F" max="1"/><channel name="OTx"/><channel name="OTy"/></traceFormat>
            <trace>0 0 1 0 0, 10 5 1 0 0</trace><trace>20 0 1 0 0, 30 5 1 0 0</trace></ink>
            """
        let r = try imported(xml, file: "mouse.inkml")
        #expect(r.samples.count == 4)
        #expect(r.samples.allSatisfy { $0.pressure == nil && $0.force == nil && $0.tiltX == nil && $0.tiltY == nil })
        #expect(r.warnings.count == 2, "\(r.warnings)")
        #expect(r.warnings.contains { $0.hasPrefix("mouse.inkml: note: pressure is 1 in every sample") }, "\(r.warnings)")
        #expect(r.warnings.contains { $0.contains("orientation") }, "\(r.warnings)")
    }

    @Test("a channel that varies is kept, and so is one of a single sample")
    func varyingChannelsStay() throws {
        let r = try imported("<ink><traceFormat><channel name=\"X\"/><channel name=\"Y\"/><channel name=\"F\" max=\"4\"/></traceFormat><trace>0 0 1, 10 5 2</trace></ink>")
        #expect(r.samples.map(\.pressure) == [0.25, 0.5])
        #expect(r.warnings.isEmpty)
        let one = try imported("<ink><traceFormat><channel name=\"X\"/><channel name=\"Y\"/><channel name=\"F\" max=\"4\"/></traceFormat><trace>0 0 1</trace></ink>")
        #expect(one.samples.map(\.pressure) == [0.25])
    }
}

@Suite("Ink import: large InkML")
struct InkLargeInkMLTests {
    /// Writes an InkML file of at least `bytes` bytes (X Y F T, 2000 points per trace).
    private static func write(atLeast bytes: Int, to path: String) throws -> (traces: Int, points: Int) {
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        try handle.write(contentsOf: Data("""
            <ink xmlns="http://www.w3.org/2003/InkML"><traceFormat><channel name="X"/><channel name="Y"/>
            <channel name="F" max="4095"/><channel name="T" units="ms"/></traceFormat>\n
            """.utf8))
        var written = 0, traces = 0
        let perTrace = 2000
        while written < bytes {
            var trace = "<trace>"
            for i in 0..<perTrace {
                trace += "\(10000 + traces % 300 * 17 + i % 97).125 \(20000 + traces / 300 * 13 + i % 89).875 \(1000 + i % 3000) \(traces * 3000 + i)"
                trace += i + 1 < perTrace ? "," : "</trace>\n"
            }
            try handle.write(contentsOf: Data(trace.utf8))
            written += trace.utf8.count
            traces += 1
        }
        try handle.write(contentsOf: Data("</ink>\n".utf8))
        return (traces, traces * perTrace)
    }

    @Test("a 50 MB recording imports (streamed to the XML parser) and its memory stays near its samples")
    func fiftyMegabytes() throws {
        let path = TestEnvironment.scratchDirectory("big-inkml").appendingPathComponent("big.inkml").path
        let (traces, points) = try Self.write(atLeast: 50 << 20, to: path)
        let size = try #require(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(size > 50 << 20)
        let before = ScriptCase.peakResidentMiB()
        let (script, format) = try InkImporter.read(contentsOf: path)
        #expect(format == .inkML)
        let strokes = script.actions.compactMap { if case .stroke(let s) = $0.kind { return s } else { return nil } }
        #expect(strokes.count == traces)
        #expect(strokes.reduce(0) { $0 + $1.events.count } == points)
        // The script holds one event of ~200 bytes per sample; the import may not hold the
        // file's text and its samples several times over on top of that. (The process's peak
        // also covers other tests running at the same time, so the bound is generous.)
        let grown = ScriptCase.peakResidentMiB() - before
        #expect(grown < Double(points) * 600 / 1_048_576, "peak grew by \(grown) MiB for \(points) samples")
        try? FileManager.default.removeItem(atPath: path)
    }
}

@Suite("Ink import: Google Quick, Draw!")
struct QuickDrawImportTests {
    static let simplified = """
        {"word":"cat","countrycode":"US","recognized":true,"key_id":"1","drawing":[[[10,60,110],[50,0,50]],[[40,80],[40,60]]]}

        {"word":"cat","countrycode":"GB","recognized":true,"key_id":"2","drawing":[[[0,100,200],[0,80,0],[0,50,120]]]}

        """

    @Test("recognised by content; drawing 0 by default, --drawing N another; raw t is the time stamp")
    func drawings() throws {
        #expect(InkImporter.detect(Array(Self.simplified.utf8)) == .quickDraw)
        let first = try imported(Self.simplified, file: "cat.txt")
        #expect(first.format == .quickDraw)
        #expect(first.strokes == 2 && first.samples.count == 5)
        #expect(first.samples.allSatisfy { $0.timeStamp == nil }, "the simplified form has no time")
        let second = try imported(Self.simplified, file: "cat.ndjson", drawing: 1)
        #expect(second.strokes == 1 && second.samples.map(\.timeStamp) == [0, 50, 120], "blank lines are not drawings")
        #expect(throws: InputError.self) { try imported(Self.simplified, drawing: 2) }
    }

    @Test("a bad drawing is located on its line of the file")
    func locatedErrors() throws {
        let text = Self.simplified + "{\"word\":\"cat\",\"drawing\":[[[1,2],[3]]]}\n"
        do {
            _ = try imported(text, file: "bad.ndjson", drawing: 2)
            Issue.record("expected an error")
        } catch let error as InputError {
            #expect(error.line == 4, "\(error)")
            #expect(error.message.contains("equally long"), "\(error)")
        }
    }

    @Test("a file streams: drawings are handed out one at a time, in order, to any thread")
    func streaming() throws {
        let path = TestEnvironment.scratchDirectory("qd").appendingPathComponent("many.ndjson").path
        var text = ""
        for i in 0..<1000 { text += "{\"key_id\":\"\(i)\",\"drawing\":[[[0,\(i % 255)],[0,1]]]}\n" }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let drawings = try #require(QuickDrawDrawings(path: path))
        var count = 0
        while let d = drawings.next() {
            #expect(d.index == count && d.line == count + 1)
            count += 1
        }
        #expect(count == 1000)
        #expect(QuickDrawDrawings(path: TestEnvironment.fixture("ink/wacom-ink.csv").path) == nil, "not Quick, Draw!")
        let (script, _) = try InkImporter.read(contentsOf: path, drawing: 999)
        #expect(script.actions.count == 1)
    }
}

@Suite("Ink import: SVC tablet captures")
struct SVCImportTests {
    @Test("rows x y t button azimuth altitude pressure; pen-up rows split strokes and are not drawn")
    func penUpSplits() throws {
        let svc = "5\n100 200 1000 1 90 45 512\n120 220 1010 1 180 60 1024\n130 230 1020 0 90 45 0\n140 240 1030 1 270 30 256\n150 250 1040 1 0 90 768\n"
        let r = try imported(svc, file: "u00001s00001_sg0001.svc")
        #expect(r.format == .svc)
        #expect(r.strokes == 2 && r.samples.count == 4)
        #expect(r.samples.map(\.pressure) == [0.5, 1, 0.25, 0.75], "levels out of 1024")
        #expect(r.samples.map(\.timeStamp) == [0, 10, 30, 40], "relative to the first row")
        #expect(r.samples[0].y > r.samples[1].y, "tablet y grows upward: 220 is above 200 on the canvas")
        #expect(abs(r.samples[0].azimuthAngle! - .pi / 2) < 1e-9 && abs(r.samples[1].altitudeAngle! - .pi / 3) < 1e-9)
    }

    @Test("pressure beyond 1024 levels is out of 2048; three columns are all ink")
    func ranges() throws {
        let r = try imported("2\n0 0 0 1 0 0 2048\n5 5 10 1 0 0 1024\n")
        #expect(r.samples.map(\.pressure) == [1, 0.5])
        let bare = try imported("3\n0 0 0\n5 5 10\n9 1 20\n")
        #expect(bare.strokes == 1 && bare.samples.count == 3)
    }

    @Test("BDALab's capture: tenths of a degree, WinTab pressure, pen-up rows between the strokes")
    func bdalabCapture() throws {
        let (script, format) = try InkImporter.read(contentsOf: TestEnvironment.fixture("ink/bdalab-jack.svc").path)
        #expect(format == .svc)
        let strokes = script.actions.compactMap { if case .stroke(let s) = $0.kind { return s } else { return nil } }
        let samples = strokes.flatMap { $0.events.map(\.sample) }
        #expect(strokes.count == 3, "three pen-down runs between pen-up rows")
        #expect(samples.first?.azimuthAngle.map { abs($0 - 119 * .pi / 180) < 1e-9 } == true, "1190 is 119 degrees")
        #expect(samples.allSatisfy { ($0.pressure ?? 0) > 0 && ($0.pressure ?? 1) < 0.7 }, "out of 32767")
    }

    @Test("a row count that is off is no error; a field that is not a number is a located one")
    func errors() throws {
        #expect(try imported("1\n0 0 0 1\n5 5 10 1\n").samples.count == 2)
        do {
            _ = try imported("2\n0 0 0 1\n5 x 10 1\n", file: "bad.svc")
            Issue.record("expected an error")
        } catch let error as InputError {
            #expect(error.line == 3 && error.message.contains("field 2 (y)"), "\(error)")
        }
    }
}
