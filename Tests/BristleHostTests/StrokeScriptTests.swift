import Foundation
import Testing
@testable import BristleHost

// Tests for the stroke-script reader (Sources/BristleHost/Input) and its documentation
// (docs/stroke-format.md, docs/stroke-format.schema.json).

/// `BristleHost.SourceLocation`, spelled out because Swift Testing has a type of that name.
private typealias Loc = BristleHost.SourceLocation

/// The error `json` gives, or nil when it parses.
private func scriptError(_ json: String, file: String = "test.json") -> InputError? {
    do {
        _ = try StrokeScriptReader.parse(json, sourcePath: file)
        return nil
    } catch {
        return error
    }
}

/// The error the JSON parser alone gives for `json`, or nil.
private func jsonError(_ json: String) -> InputError? {
    do {
        _ = try JSONParser.parse(json, file: "test.json")
        return nil
    } catch {
        return error
    }
}

/// The repository root, found from this file's path (Tests/BristleHostTests/ is two down).
private let repoRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

private func readRepoFile(_ relative: String) throws -> String {
    try String(contentsOf: repoRoot.appendingPathComponent(relative), encoding: .utf8)
}

private func makeTemporaryDirectory() throws -> String {
    let dir = FileManager.default.temporaryDirectory
        .appendingPathComponent("bristle-stroke-tests-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    return dir
}

// MARK: - The example from the brief

private let briefExample = """
{"canvas": {"width": 320, "height": 200, "background": "#ffffff"},
 "actions": [
  {"brush": {"id": "org.bristle.pencil", "color": "#1a4dcc", "width": 6, "params": {}}},
  {"stroke": {"pointerType": "pen", "events": [
    {"x": 20, "y": 100, "pressure": 0.2, "timeStamp": 0},
    {"x": 60, "y": 80, "pressure": 0.6, "timeStamp": 8,
     "coalesced": [{"x": 40, "y": 90, "pressure": 0.4, "timeStamp": 4},
                   {"x": 60, "y": 80, "pressure": 0.6, "timeStamp": 8}],
     "predicted": [{"x": 80, "y": 70, "pressure": 0.6, "timeStamp": 12}]}]}},
  {"stroke": {"pointerType": "pen", "cancelled": true,
              "events": [{"x": 10, "y": 10, "pressure": 1, "timeStamp": 0}]}}]}
"""

@Suite("Stroke script: valid documents")
struct StrokeScriptValidTests {
    @Test("the example from the brief parses to the expected model")
    func briefExampleParses() throws {
        let script = try StrokeScriptReader.parse(briefExample, sourcePath: "/scripts/demo.json")
        #expect(script.sourcePath == "/scripts/demo.json")
        #expect(script.canvas.width == 320)
        #expect(script.canvas.height == 200)
        #expect(script.canvas.scale == nil)
        #expect(script.canvas.background == .color(.white))
        #expect(script.canvas.fieldLocations["width"] == Loc(line: 1, column: 22))
        try #require(script.actions.count == 3)

        guard case .brush(let brush) = script.actions[0].kind else {
            Issue.record("action 0 is \(script.actions[0].kind)"); return
        }
        #expect(script.actions[0].location == Loc(line: 3, column: 3))
        #expect(brush.id == "org.bristle.pencil")
        #expect(brush.path == nil)
        #expect(brush.color == RGBAColor(red8: 0x1a, green8: 0x4d, blue8: 0xcc))
        #expect(brush.width == 6)
        #expect(brush.params.isEmpty)
        #expect(brush.location == Loc(line: 3, column: 13))

        guard case .stroke(let stroke) = script.actions[1].kind else {
            Issue.record("action 1 is \(script.actions[1].kind)"); return
        }
        #expect(stroke.pointerType == "pen")
        #expect(stroke.cancelled == false)
        #expect(stroke.location == Loc(line: 4, column: 14))
        try #require(stroke.events.count == 2)
        let first = stroke.events[0]
        #expect(first.sample == PointerSample(x: 20, y: 100, pressure: 0.2, timeStamp: 0,
                                              location: Loc(line: 5, column: 5)))
        #expect(first.coalesced.isEmpty)
        #expect(first.predicted.isEmpty)
        let second = stroke.events[1]
        #expect(second.sample.x == 60 && second.sample.y == 80)
        #expect(second.sample.pressure == 0.6 && second.sample.timeStamp == 8)
        #expect(second.sample.tiltX == nil && second.sample.pointerType == nil && second.sample.buttons == nil)
        #expect(second.coalesced.count == 2)
        #expect(second.predicted.count == 1)
        #expect(second.coalesced.map(\.x) == [40, 60])
        #expect(second.coalesced.map(\.pressure) == [0.4, 0.6])
        #expect(second.coalesced.map(\.timeStamp) == [4, 8])
        #expect(second.coalesced[1].location == Loc(line: 8, column: 20))
        #expect(second.predicted[0] == PointerSample(x: 80, y: 70, pressure: 0.6, timeStamp: 12,
                                                     location: Loc(line: 9, column: 20)))

        guard case .stroke(let cancelled) = script.actions[2].kind else {
            Issue.record("action 2 is \(script.actions[2].kind)"); return
        }
        #expect(cancelled.cancelled == true)
        #expect(cancelled.pointerType == "pen")
        #expect(cancelled.events.count == 1)
        #expect(cancelled.events[0].sample.pressure == 1)
        #expect(cancelled.events[0].sample.x == 10)
    }

    @Test("every action kind, every sample field and brush params are read")
    func everyField() throws {
        let json = """
        {"$schema": "./stroke-format.schema.json",
         "canvas": {"scale": 2},
         "actions": [
          {"brush": {"path": "brushes/ink.bristle", "params": {"grain": 0.5, "wet": true, "mode": "soft"}}},
          {"stroke": {"events": [{"x": -1.5, "y": 2e1, "pressure": 0, "tiltX": -90, "tiltY": 90,
            "twist": 359.5, "altitudeAngle": 1.5707963267948966, "azimuthAngle": 6.28,
            "tangentialPressure": -1, "width": 0, "height": 3.5, "pointerType": "eraser",
            "timeStamp": -12.25, "buttons": 32, "force": 0, "maxForce": 6.6667}]}},
          {"undo": 2}, {"redo": 1}, {"clear": true}, {"ticks": 0}, {"ticks": 30}]}
        """
        let script = try StrokeScriptReader.parse(json, sourcePath: "/a/b/s.json")
        #expect(script.canvas.scale == 2)
        #expect(script.canvas.width == nil && script.canvas.background == nil)
        try #require(script.actions.count == 7)
        guard case .brush(let brush) = script.actions[0].kind else { Issue.record("not a brush"); return }
        #expect(brush.path == "/a/b/brushes/ink.bristle")
        #expect(brush.id == nil && brush.color == nil && brush.width == nil)
        #expect(brush.params.map(\.name) == ["grain", "wet", "mode"])
        #expect(brush.params.map(\.value) == [.number(0.5), .bool(true), .string("soft")])
        #expect(brush.param("wet") == .bool(true))
        #expect(brush.fieldLocations["params.mode"] == Loc(line: 4, column: 91))
        guard case .stroke(let stroke) = script.actions[1].kind else { Issue.record("not a stroke"); return }
        #expect(stroke.pointerType == nil)
        let expected = PointerSample(
            x: -1.5, y: 20, pressure: 0, tiltX: -90, tiltY: 90, twist: 359.5,
            altitudeAngle: 1.5707963267948966, azimuthAngle: 6.28, tangentialPressure: -1,
            width: 0, height: 3.5, pointerType: "eraser", timeStamp: -12.25, buttons: 32,
            force: 0, maxForce: 6.6667, location: Loc(line: 5, column: 26))
        #expect(stroke.events[0].sample == expected)
        #expect(script.actions[2...].map(\.kind) == [.undo(2), .redo(1), .clear, .ticks(0), .ticks(30)])
        #expect(script.actions[6].location == Loc(line: 9, column: 60))
    }

    @Test("relative image and brush paths resolve against the script's folder")
    func relativePathsResolve() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir + "/scripts", withIntermediateDirectories: true)
        let json = """
        {"canvas": {"background": "../textures/paper.PNG"},
         "actions": [{"brush": {"path": "./brushes//ink.bristle"}},
                     {"brush": {"path": "/opt/brushes/abs.bristle"}}]}
        """
        try json.write(toFile: dir + "/scripts/demo.json", atomically: true, encoding: .utf8)
        let script = try StrokeScriptReader.read(contentsOf: dir + "/scripts/demo.json")
        #expect(script.canvas.background == .image(path: dir + "/textures/paper.PNG"))
        #expect(script.baseDirectory == dir + "/scripts")
        guard case .brush(let relative) = script.actions[0].kind,
              case .brush(let absolute) = script.actions[1].kind else {
            Issue.record("expected two brush actions"); return
        }
        #expect(relative.path == dir + "/scripts/brushes/ink.bristle")
        #expect(absolute.path == "/opt/brushes/abs.bristle")

        // A relative script path resolves against the current directory first.
        let cwd = FileManager.default.currentDirectoryPath
        let fromRelative = try StrokeScriptReader.parse(json, sourcePath: "sub/demo.json")
        #expect(fromRelative.canvas.background == .image(path: StrokeScriptPaths.normalize(cwd + "/textures/paper.PNG")))
    }

    @Test("background: colour string, .png path, and the explicit object forms")
    func backgroundForms() throws {
        func background(_ json: String) throws -> BackgroundSpec? {
            try StrokeScriptReader.parse(#"{"canvas": {"background": \#(json)}, "actions": []}"#,
                                         sourcePath: "/s/t.json").canvas.background
        }
        #expect(try background(#""rebeccapurple""#) == .color(RGBAColor(red8: 0x66, green8: 0x33, blue8: 0x99)))
        #expect(try background(##""#0000""##) == .color(.transparent))
        #expect(try background(#""paper.png""#) == .image(path: "/s/paper.png"))
        #expect(try background(#"{"color": "red"}"#) == .color(RGBAColor(red: 1, green: 0, blue: 0)))
        #expect(try background(#"{"image": "img/paper.jpg"}"#) == .image(path: "/s/img/paper.jpg"))
    }

    @Test("a whole-number float is accepted where an integer is expected")
    func integralFloats() throws {
        let script = try StrokeScriptReader.parse(#"{"canvas": {"width": 3.2e2, "height": 200.0}, "actions": []}"#,
                                                  sourcePath: "t.json")
        #expect(script.canvas.width == 320)
        #expect(script.canvas.height == 200)
    }

    @Test("a large single-line script parses and keeps exact columns")
    func largeScript() throws {
        let count = 20_000
        var json = #"{"actions": [{"stroke": {"events": ["#
        for i in 0..<count {
            if i > 0 { json += ", " }
            json += #"{"x": \#(i), "y": 1.5}"#
        }
        json += "]}}]}"
        let script = try StrokeScriptReader.parse(json, sourcePath: "big.json")
        guard case .stroke(let stroke) = script.actions[0].kind else { Issue.record("not a stroke"); return }
        #expect(stroke.events.count == count)
        #expect(stroke.events.last?.sample.x == Double(count - 1))
        let prefix = #"{"actions": [{"stroke": {"events": ["#
        var column = prefix.count + 1
        for i in 0..<(count - 1) { column += #"{"x": \#(i), "y": 1.5}, "#.count }
        #expect(stroke.events.last?.sample.location == Loc(line: 1, column: column))
    }
}

// MARK: - JSON syntax

@Suite("JSON parser")
struct JSONParserTests {
    @Test("objects keep key order; escapes, surrogate pairs and numbers decode")
    func decoding() throws {
        let value = try JSONParser.parse(#"{"z": 1, "a": [true, false, null], "s": "\"\\\/\b\f\n\r\t\u00e9\uD83D\uDD8C", "n": -0.5e-3}"#,
                                         file: "t.json")
        let members = try #require(value.objectValue)
        #expect(members.map(\.key) == ["z", "a", "s", "n"])
        #expect(value["a"]?.arrayValue?.map(\.kind) == [.bool(true), .bool(false), .null])
        #expect(value["s"]?.stringValue == "\"\\/\u{8}\u{C}\n\r\t\u{E9}\u{1F58C}")
        guard case .number(let n)? = value["n"]?.kind else { Issue.record("not a number"); return }
        #expect(n.literal == "-0.5e-3")
        #expect(n.value == -0.0005)
        #expect(members[3].keyLocation == Loc(line: 1, column: 79))
    }

    @Test("columns count Unicode scalars; CR LF, CR and LF each end a line; a BOM is skipped")
    func locations() throws {
        let value = try JSONParser.parse(Array("\u{FEFF}{\"é🖌\": 1,\r\n\"b\":\r\t2,\n \"c\": 3}".utf8), file: "t.json")
        #expect(value.location == Loc(line: 1, column: 1))
        #expect(value.member("é🖌")?.value.location == Loc(line: 1, column: 8))
        #expect(value.member("b")?.keyLocation == Loc(line: 2, column: 1))
        #expect(value["b"]?.location == Loc(line: 3, column: 2))
        #expect(value["c"]?.location == Loc(line: 4, column: 7))
        // An error after non-ASCII text on the same line.
        let error = try #require(jsonError("[\"ü€𝄞\", x]"))
        #expect(error.location == Loc(line: 1, column: 9))
    }

    @Test("nesting up to the limit is accepted")
    func nestingAtLimit() throws {
        let depth = JSONParser.defaultMaxDepth
        let json = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        let value = try JSONParser.parse(json, file: "t.json")
        var level = 1
        var current = value
        while let inner = current.arrayValue?.first { current = inner; level += 1 }
        #expect(level == depth)
    }

    @Test("nesting past the limit is an error at the bracket that goes too deep, not a crash")
    func deepNesting() throws {
        let json = "{\"actions\": " + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "}"
        let error = try #require(scriptError(json))
        #expect(error.location == Loc(line: 1, column: 13 + 511))
        #expect(error.message == "expected at most 512 nested arrays and objects but found deeper nesting")
        let custom = try #require(throws: InputError.self) {
            try JSONParser(maxDepth: 3).parse("[[{\"a\": []}]]", file: "t.json")
        }
        #expect(custom.location == Loc(line: 1, column: 9))
        #expect(JSONParser(maxDepth: 1_000_000).maxDepth == JSONParser.maximumMaxDepth)
        #expect(JSONParser(maxDepth: 0).maxDepth == 1)
    }

    @Test("a number too large for a Double is an error, a tiny one is zero")
    func numberRange() throws {
        let error = try #require(jsonError("[1, -1e400]"))
        #expect(error.location == Loc(line: 1, column: 5))
        #expect(error.message == "expected a number that fits a 64-bit float but found -1e400, which overflows to infinity")
        #expect(try JSONParser.parse("1e-400", file: "t").doubleValue == 0)
    }

    @Test("duplicate keys are found in small and large objects")
    func duplicateKeysInLargeObjects() throws {
        var json = "{"
        for i in 0..<40 { json += "\"k\(i)\": \(i), " }
        json += "\"k17\": 0}"
        let error = try #require(jsonError(json))
        #expect(error.message.contains("\"k17\" again (first at 1:"))
        #expect(error.location?.column == json.count - 8)  // `"k17": 0}` is the last 9 characters
        // Keys compare by scalars: "é" precomposed and decomposed are different keys.
        #expect(jsonError("{\"\u{E9}\": 1, \"e\u{301}\": 2}") == nil)
    }
}

/// One bad input, where its error must be, and what it must say.
struct ErrorCase: Sendable, CustomTestStringConvertible {
    var name: String
    var json: String
    var line: Int
    var column: Int
    var message: String
    var hint: String? = nil

    var testDescription: String { name }
}

@Suite("Located errors")
struct StrokeScriptErrorTests {
    static let syntaxCases: [ErrorCase] = [
        ErrorCase(name: "syntax error: missing value", json: "{\"actions\": [}",
                  line: 1, column: 14, message: "expected a JSON value but found '}'"),
        ErrorCase(name: "missing comma between members", json: "{\"canvas\": {}\n \"actions\": []}",
                  line: 2, column: 2, message: "expected ',' or '}' after the value of \"canvas\" but found the string \"actions\"",
                  hint: "is a comma missing?"),
        ErrorCase(name: "trailing comma in an array", json: "{\"actions\": [{\"undo\": 1},\n]}",
                  line: 1, column: 25, message: "expected another element after ',' but found ']' (a trailing comma)",
                  hint: "JSON does not allow a comma after the last element; remove it"),
        ErrorCase(name: "trailing comma in an object", json: "{\"actions\": [],\n  }",
                  line: 1, column: 15, message: "expected another member after ',' but found '}' (a trailing comma)",
                  hint: "JSON does not allow a comma after the last member; remove it"),
        ErrorCase(name: "unterminated string at end of line", json: "{\"actions\": [{\"brush\": {\"id\": \"org.bristle.pencil}}]}\n}",
                  line: 1, column: 31, message: "expected '\"' to close this string but found the end of the line",
                  hint: "the string is not terminated; a line break inside a string must be written \\n"),
        ErrorCase(name: "unterminated string at end of file", json: "{\"actions\": [], \"canvas",
                  line: 1, column: 17, message: "expected '\"' to close this string but found end of file"),
        ErrorCase(name: "duplicate key", json: "{\"actions\": [],\n \"canvas\": {\"width\": 1, \"width\": 2}}",
                  line: 2, column: 25, message: "expected each key once in an object but found \"width\" again (first at 2:13)"),
        ErrorCase(name: "leading zero", json: "{\"actions\": [{\"undo\": 01}]}",
                  line: 1, column: 23, message: "expected a number without leading zeros but found '01'"),
        ErrorCase(name: "NaN literal", json: "{\"actions\": [{\"ticks\": NaN}]}",
                  line: 1, column: 24, message: "expected a JSON value but found 'NaN'",
                  hint: "JSON has no NaN or Infinity; every number must be finite"),
        ErrorCase(name: "-Infinity literal", json: "[-Infinity]",
                  line: 1, column: 2, message: "expected a digit after '-' but found 'Infinity'",
                  hint: "JSON has no NaN or Infinity; every number must be finite"),
        ErrorCase(name: "non-finite number", json: "{\"actions\": [{\"stroke\": {\"events\": [{\"x\": 1e999, \"y\": 0}]}}]}",
                  line: 1, column: 43, message: "expected a number that fits a 64-bit float but found 1e999, which overflows to infinity"),
        ErrorCase(name: "trailing garbage", json: "{\"actions\": []}\n]",
                  line: 2, column: 1, message: "expected end of file after the top-level value but found ']'"),
        ErrorCase(name: "empty file", json: "  \n ",
                  line: 2, column: 2, message: "expected a JSON value but found end of file"),
        ErrorCase(name: "comment", json: "{\"actions\": [] // none\n}",
                  line: 1, column: 16, message: "expected ',' or '}' after the value of \"actions\" but found '/'"),
        ErrorCase(name: "comment where a value goes", json: "[/* x */ 1]",
                  line: 1, column: 2, message: "expected a JSON value but found '/'", hint: "JSON does not allow comments"),
        ErrorCase(name: "single-quoted key", json: "{'actions': []}",
                  line: 1, column: 2, message: "expected a key in double quotes but found '''",
                  hint: "JSON strings and keys use double quotes (\"), not single quotes"),
        ErrorCase(name: "unquoted key", json: "{actions: []}",
                  line: 1, column: 2, message: "expected a key in double quotes but found 'actions'",
                  hint: "keys must be in double quotes, like \"actions\""),
        ErrorCase(name: "capitalised literal", json: "{\"actions\": [{\"clear\": True}]}",
                  line: 1, column: 24, message: "expected a JSON value but found 'True'",
                  hint: "JSON literals are lower-case: true, false, null"),
        ErrorCase(name: "missing colon", json: "{\"actions\" []}",
                  line: 1, column: 12, message: "expected ':' after the key \"actions\" but found '['"),
        ErrorCase(name: "invalid escape", json: "{\"actions\": [{\"brush\": {\"path\": \"C:\\Users\"}}]}",
                  line: 1, column: 36, message: "expected an escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX) after '\\' but found 'Users'",
                  hint: "to write a backslash, write \\\\ (in file paths, '/' also works)"),
        ErrorCase(name: "unpaired surrogate", json: "[\"a\\uD83Dz\"]",
                  line: 1, column: 4, message: "expected a low surrogate (\\uDC00-\\uDFFF) after the high surrogate \\uD83D but found none",
                  hint: "a character outside the Basic Multilingual Plane is written as a pair, like \\uD83D\\uDD8C"),
        ErrorCase(name: "raw tab in a string", json: "[\"a\tb\"]",
                  line: 1, column: 4, message: "expected a character in the string but found the control character U+0009",
                  hint: "write a tab inside a string as \\t"),
        ErrorCase(name: "missing comma in an array", json: "[1\n 2]",
                  line: 2, column: 2, message: "expected ',' or ']' after an array element but found '2'",
                  hint: "is a comma missing?"),
        ErrorCase(name: "unclosed array", json: "{\"actions\": [\n  {\"undo\": 1}\n",
                  line: 3, column: 1, message: "expected ',' or ']' but found end of file",
                  hint: "the array opened at 1:13 is not closed"),
        ErrorCase(name: "decimal point without digits", json: "[1.]",
                  line: 1, column: 4, message: "expected a digit after the decimal point but found ']'"),
    ]

    @Test("syntax errors are located and say what was expected and found", arguments: syntaxCases)
    func syntaxErrors(_ c: ErrorCase) throws {
        let error = try #require(scriptError(c.json), "no error for \(c.json)")
        #expect(error.file == "test.json")
        #expect(error.location == Loc(line: c.line, column: c.column))
        #expect(error.message == c.message)
        if let hint = c.hint { #expect(error.hint == hint) }
    }

    @Test("invalid UTF-8 and UTF-16 input are rejected")
    func encodings() throws {
        let invalid: [UInt8] = Array("{\"actions\": [{\"brush\": {\"id\": \"a".utf8) + [0xC3, 0x28] + Array("\"}}]}".utf8)
        let error = try #require(throws: InputError.self) {
            try StrokeScriptReader.parse(invalid, sourcePath: "bad.json")
        }
        #expect(error.location == Loc(line: 1, column: 33))
        #expect(error.message == "expected UTF-8 text in the string but found the byte 0xC3 (not valid UTF-8)")
        let utf16: [UInt8] = [0xFF, 0xFE, 0x7B, 0x00, 0x7D, 0x00]
        let error16 = try #require(throws: InputError.self) {
            try StrokeScriptReader.parse(utf16, sourcePath: "bad.json")
        }
        #expect(error16.message == "expected UTF-8 text but found UTF-16 or UTF-32 encoded text")
        #expect(error16.location == Loc(line: 1, column: 1))
    }

    static let semanticCases: [ErrorCase] = [
        ErrorCase(name: "unknown key with a did-you-mean hint",
                  json: "{\"actions\": [{\"stroke\": {\"events\": [\n  {\"x\": 1, \"y\": 2, \"presure\": 0.5}]}}]}",
                  line: 2, column: 20,
                  message: "actions[0].stroke.events[0]: expected a key of an event, found the unknown key \"presure\"",
                  hint: "did you mean \"pressure\"?"),
        ErrorCase(name: "unknown key differing only in case",
                  json: "{\"actions\": [{\"stroke\": {\"events\": [{\"x\": 1, \"y\": 2, \"timestamp\": 5}]}}]}",
                  line: 1, column: 54,
                  message: "actions[0].stroke.events[0]: expected a key of an event, found the unknown key \"timestamp\"",
                  hint: "did you mean \"timeStamp\"?"),
        ErrorCase(name: "unknown key far from every known key lists the keys",
                  json: "{\"canvas\": {\"colour\": \"red\"}, \"actions\": []}",
                  line: 1, column: 13,
                  message: "canvas: expected a key of the canvas, found the unknown key \"colour\"",
                  hint: "the keys of the canvas are: width, height, scale, background"),
        ErrorCase(name: "unknown top-level key", json: "{\"action\": []}",
                  line: 1, column: 2, message: "expected a key of the top-level object, found the unknown key \"action\"",
                  hint: "did you mean \"actions\"?"),
        ErrorCase(name: "unknown action", json: "{\"actions\": [{\"strok\": {}}]}",
                  line: 1, column: 15, message: "actions[0]: expected a key of an action, found the unknown key \"strok\"",
                  hint: "did you mean \"stroke\"?"),
        ErrorCase(name: "wrong type: string for a number",
                  json: "{\"actions\": [{\"stroke\": {\"events\": [{\"x\": \"10\", \"y\": 2}]}}]}",
                  line: 1, column: 43, message: "actions[0].stroke.events[0].x: expected a number, found the string \"10\"",
                  hint: "write numbers without quotes: 10, not \"10\""),
        ErrorCase(name: "wrong type: null", json: "{\"canvas\": {\"scale\": null}, \"actions\": []}",
                  line: 1, column: 22, message: "canvas.scale: expected a number of pixels per point in [0.01, 100], found null",
                  hint: "to leave a field unset, leave its key out"),
        ErrorCase(name: "wrong type: actions is an object", json: "{\"actions\": {}}",
                  line: 1, column: 13, message: "actions: expected an array of actions, found an empty object"),
        ErrorCase(name: "wrong type: top level is an array", json: "[]",
                  line: 1, column: 1, message: "expected an object like {\"actions\": [...]} at the top level, found an empty array",
                  hint: "wrap the list of actions: {\"actions\": [...]}"),
        ErrorCase(name: "out-of-range pressure",
                  json: "{\"actions\": [{\"stroke\": {\"events\": [\n {\"x\": 1, \"y\": 2},\n {\"x\": 1, \"y\": 2, \"pressure\": 1.5}]}}]}",
                  line: 3, column: 31, message: "actions[0].stroke.events[1].pressure: expected a number in [0, 1], found 1.5",
                  hint: "pressure is normalised: 0 is none, 1 is the most the device reports"),
        ErrorCase(name: "out-of-range angle in degrees instead of radians",
                  json: "{\"actions\": [{\"stroke\": {\"events\": [{\"x\": 1, \"y\": 2, \"altitudeAngle\": 45}]}}]}",
                  line: 1, column: 71,
                  message: "actions[0].stroke.events[0].altitudeAngle: expected a number of radians in [0, π/2] (π/2 ≈ 1.5708), found 45",
                  hint: "altitudeAngle is in radians, not degrees: π/2 is perpendicular to the surface"),
        ErrorCase(name: "twist of exactly 360",
                  json: "{\"actions\": [{\"stroke\": {\"events\": [{\"x\": 1, \"y\": 2, \"twist\": 360}]}}]}",
                  line: 1, column: 63, message: "actions[0].stroke.events[0].twist: expected a number of degrees in [0, 360), found 360"),
        ErrorCase(name: "out-of-range value in a coalesced sample",
                  json: "{\"actions\": [{\"stroke\": {\"events\": [{\"x\": 1, \"y\": 2, \"coalesced\": [{\"x\": 0, \"y\": 0, \"tiltX\": -91}]}]}}]}",
                  line: 1, column: 94, message: "actions[0].stroke.events[0].coalesced[0].tiltX: expected a number of degrees in [-90, 90], found -91"),
        ErrorCase(name: "non-integer buttons",
                  json: "{\"actions\": [{\"stroke\": {\"events\": [{\"x\": 1, \"y\": 2, \"buttons\": 1.5}]}}]}",
                  line: 1, column: 65, message: "actions[0].stroke.events[0].buttons: expected an integer in [0, 2147483647], found 1.5"),
        ErrorCase(name: "empty events", json: "{\"actions\": [{\"undo\": 1}, {\"stroke\": {\"events\": []}}]}",
                  line: 1, column: 49, message: "actions[1].stroke.events: expected at least one event, found an empty array"),
        ErrorCase(name: "stroke without events", json: "{\"actions\": [{\"stroke\": {\"pointerType\": \"pen\"}}]}",
                  line: 1, column: 25, message: "actions[0].stroke: expected the key \"events\" in the stroke, found none"),
        ErrorCase(name: "missing y", json: "{\"actions\": [{\"stroke\": {\"events\": [{\"x\": 1}]}}]}",
                  line: 1, column: 37, message: "actions[0].stroke.events[0]: expected the required key \"y\" in an event, found none"),
        ErrorCase(name: "nested coalesced list",
                  json: "{\"actions\": [{\"stroke\": {\"events\": [{\"x\": 1, \"y\": 2, \"predicted\": [{\"x\": 1, \"y\": 2, \"coalesced\": []}]}]}}]}",
                  line: 1, column: 85, message: "actions[0].stroke.events[0].predicted[0]: expected a plain sample in the predicted list, found a nested \"coalesced\" list"),
        ErrorCase(name: "pointer type typo", json: "{\"actions\": [{\"stroke\": {\"pointerType\": \"pem\", \"events\": [{\"x\": 1, \"y\": 2}]}}]}",
                  line: 1, column: 41, message: "actions[0].stroke.pointerType: expected one of \"mouse\", \"pen\", \"touch\" or \"eraser\", found the string \"pem\"",
                  hint: "did you mean \"pen\"?"),
        ErrorCase(name: "two keys in one action", json: "{\"actions\": [{\"undo\": 1, \"redo\": 1}]}",
                  line: 1, column: 26, message: "actions[0]: expected one key in an action, found a second key \"redo\"",
                  hint: "put each action in its own object: {\"undo\": ...}, {\"redo\": ...}"),
        ErrorCase(name: "events beside the stroke instead of inside it",
                  json: "{\"actions\": [{\"stroke\": {}, \"events\": []}]}",
                  line: 1, column: 29, message: "actions[0]: expected one key in an action, found a second key \"events\"",
                  hint: "\"events\" belongs inside the \"stroke\" object"),
        ErrorCase(name: "empty action", json: "{\"actions\": [{}]}",
                  line: 1, column: 14, message: "actions[0]: expected an action with one key (brush, stroke, undo, redo, clear or ticks), found an empty object"),
        ErrorCase(name: "undo zero", json: "{\"actions\": [{\"undo\": 0}]}",
                  line: 1, column: 23, message: "actions[0].undo: expected an integer in [1, 1000000] (steps), found 0"),
        ErrorCase(name: "negative ticks", json: "{\"actions\": [{\"ticks\": -1}]}",
                  line: 1, column: 24, message: "actions[0].ticks: expected an integer in [0, 1000000] (ticks), found -1"),
        ErrorCase(name: "clear false", json: "{\"actions\": [{\"clear\": false}]}",
                  line: 1, column: 24, message: "actions[0].clear: expected true, found false"),
        ErrorCase(name: "missing actions", json: "{\"canvas\": {}}",
                  line: 1, column: 1, message: "expected the key \"actions\" in the top-level object, found none"),
        ErrorCase(name: "canvas side too large", json: "{\"canvas\": {\"width\": 65537}, \"actions\": []}",
                  line: 1, column: 22, message: "canvas.width: expected an integer in [1, 65536] (pixels), found 65537"),
        ErrorCase(name: "canvas area too large", json: "{\"canvas\": {\"height\": 65536,\n \"width\": 4097}, \"actions\": []}",
                  line: 2, column: 11, message: "canvas: expected at most 268435456 pixels (2^28) in the canvas, found 4097 x 65536 = 268500992"),
        ErrorCase(name: "width without height", json: "{\"canvas\": {\"scale\": 2, \"width\": 320}, \"actions\": []}",
                  line: 1, column: 34, message: "canvas.width: expected \"height\" with \"width\", found only \"width\"",
                  hint: "give both, or neither to take the size from the background image or the host"),
        ErrorCase(name: "zero scale", json: "{\"canvas\": {\"scale\": 0}, \"actions\": []}",
                  line: 1, column: 22, message: "canvas.scale: expected a number of pixels per point in [0.01, 100], found 0"),
        ErrorCase(name: "background neither colour nor png", json: "{\"canvas\": {\"background\": \"bleu\"}, \"actions\": []}",
                  line: 1, column: 27, message: "canvas.background: expected a colour or the path of a .png file, found the string \"bleu\"",
                  hint: "did you mean \"blue\"?"),
        ErrorCase(name: "bad brush colour",
                  json: "{\"actions\": [{\"brush\": {\"color\": \"#12345\"}}]}",
                  line: 1, column: 34, message: "actions[0].brush.color: expected a colour, found the string \"#12345\": expected 3, 4, 6 or 8 hex digits after '#' but found 5"),
        ErrorCase(name: "zero brush width", json: "{\"actions\": [{\"brush\": {\"width\": 0}}]}",
                  line: 1, column: 34, message: "actions[0].brush.width: expected a number of points in (0, 10000], found 0"),
        ErrorCase(name: "bad param value", json: "{\"actions\": [{\"brush\": {\"params\": {\"my param\": [1]}}}]}",
                  line: 1, column: 48, message: "actions[0].brush.params[\"my param\"]: expected a number, true, false or a string, found an array"),
        ErrorCase(name: "empty brush id", json: "{\"actions\": [{\"brush\": {\"id\": \"\"}}]}",
                  line: 1, column: 31, message: "actions[0].brush.id: expected a brush id like \"org.bristle.pencil\", found an empty string"),
        ErrorCase(name: "unknown brush key suggests params",
                  json: "{\"actions\": [{\"brush\": {\"grain\": 0.5}}]}",
                  line: 1, column: 25, message: "actions[0].brush: expected a key of a brush, found the unknown key \"grain\"",
                  hint: "the keys of a brush are: id, path, color, width, params; brush-specific settings go in \"params\""),
    ]

    @Test("semantic errors are located at the value and name its JSON path", arguments: semanticCases)
    func semanticErrors(_ c: ErrorCase) throws {
        let error = try #require(scriptError(c.json), "no error for \(c.json)")
        #expect(error.location == Loc(line: c.line, column: c.column))
        #expect(error.message == c.message)
        if let hint = c.hint { #expect(error.hint == hint) }
    }

    @Test("the first error in file order is the one reported")
    func firstErrorWins() throws {
        let error = try #require(scriptError("{\"actions\": [{\"ticks\": -1}], \"canvas\": {\"width\": 0}}"))
        #expect(error.message.hasPrefix("actions[0].ticks:"))
    }

    @Test("a missing file is an InputError naming the file, without a location")
    func missingFile() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/nope.json"
        let error = try #require(throws: InputError.self) { try StrokeScriptReader.read(contentsOf: path) }
        #expect(error.file == path)
        #expect(error.line == nil && error.column == nil)
        #expect(error.message == "expected a stroke script file but found no file at this path")
        #expect(error.description == path + ": expected a stroke script file but found no file at this path")

        let dirError = try #require(throws: InputError.self) { try StrokeScriptReader.read(contentsOf: dir) }
        #expect(dirError.message == "expected a stroke script file but found a directory")
    }

    @Test("errors from a file on disk name the file as given")
    func errorNamesFile() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "{\"actions\": [\n  {\"undo\": 0}]}".write(toFile: dir + "/bad.json", atomically: true, encoding: .utf8)
        let error = try #require(throws: InputError.self) { try StrokeScriptReader.read(contentsOf: dir + "/bad.json") }
        #expect(error.description == dir + "/bad.json:2:12: actions[0].undo: expected an integer in [1, 1000000] (steps), found 0")
    }

    @Test("InputError.description is file:line:column: message, then the hint")
    func errorDescription() {
        let error = InputError(file: "a.json", line: 3, column: 7, message: "expected x, found y", hint: "try z")
        #expect(error.description == "a.json:3:7: expected x, found y\nhint: try z")
        #expect(InputError(file: "a.json", line: 3, column: nil, message: "m").description == "a.json:3: m")
        #expect(InputError(file: "a.json", location: nil, message: "m").description == "a.json: m")
    }
}

// MARK: - Colours

@Suite("Colour parsing")
struct ColorParsingTests {
    @Test("hex forms in either case")
    func hexForms() throws {
        #expect(try RGBAColor(parsing: "#1a4dcc") == RGBAColor(red8: 0x1A, green8: 0x4D, blue8: 0xCC))
        #expect(try RGBAColor(parsing: "#1A4DCC") == RGBAColor(red8: 0x1A, green8: 0x4D, blue8: 0xCC))
        #expect(try RGBAColor(parsing: "#f0a") == RGBAColor(red8: 0xFF, green8: 0x00, blue8: 0xAA))
        #expect(try RGBAColor(parsing: "#f0a8") == RGBAColor(red8: 0xFF, green8: 0x00, blue8: 0xAA, alpha8: 0x88))
        #expect(try RGBAColor(parsing: "#1a4dcc80") == RGBAColor(red8: 0x1A, green8: 0x4D, blue8: 0xCC, alpha8: 0x80))
        #expect(try RGBAColor(parsing: "#1a4dcc80").description == "#1a4dcc80")
    }

    @Test("all CSS Color 4 names, in any case")
    func names() throws {
        let names = RGBAColor.cssColorNames
        #expect(names.count == 149)  // 148 named colours + transparent
        #expect(Set(names).count == names.count)
        for name in names {
            _ = try RGBAColor(parsing: name)
        }
        #expect(try RGBAColor(parsing: "rebeccapurple") == RGBAColor(red8: 102, green8: 51, blue8: 153))
        #expect(try RGBAColor(parsing: "RebeccaPurple") == RGBAColor(red8: 102, green8: 51, blue8: 153))
        #expect(try RGBAColor(parsing: "transparent") == .transparent)
        #expect(try RGBAColor(parsing: "lightgoldenrodyellow") == RGBAColor(red8: 250, green8: 250, blue8: 210))
        #expect(try RGBAColor(parsing: "grey") == RGBAColor(parsing: "gray"))
        #expect(try RGBAColor(parsing: "navy") == RGBAColor(red8: 0, green8: 0, blue8: 128))
    }

    @Test("rgb() and rgba() forms")
    func functional() throws {
        let c = RGBAColor(red8: 26, green8: 77, blue8: 204)
        #expect(try RGBAColor(parsing: "rgb(26, 77, 204)") == c)
        #expect(try RGBAColor(parsing: "RGB(26 77 204)") == c)
        #expect(try RGBAColor(parsing: "rgba(26,77,204,0.5)") == RGBAColor(red8: 26, green8: 77, blue8: 204).withAlpha(0.5))
        #expect(try RGBAColor(parsing: "rgb(26 77 204 / 50%)") == RGBAColor(red8: 26, green8: 77, blue8: 204).withAlpha(0.5))
        #expect(try RGBAColor(parsing: "rgb(100% 0% 50%)") == RGBAColor(red: 1, green: 0, blue: 0.5))
        #expect(try RGBAColor(parsing: "rgb( 255 , 255 , 255 , .25 )") == RGBAColor.white.withAlpha(0.25))
    }

    struct BadColor: Sendable, CustomTestStringConvertible {
        var input: String
        var reason: String
        var suggestion: String? = nil
        var testDescription: String { input }
    }

    static let badColorCases: [BadColor] = [
        BadColor(input: "#12345", reason: "expected 3, 4, 6 or 8 hex digits after '#' but found 5"),
        BadColor(input: "#12g", reason: "expected hex digits (0-9, a-f) after '#' but found 'g'"),
        BadColor(input: "", reason: "expected a colour but found an empty string"),
        BadColor(input: "bleu", reason: "expected a colour but found \"bleu\", which is not a colour name", suggestion: "blue"),
        BadColor(input: "rebeccapurpel", reason: "expected a colour but found \"rebeccapurpel\", which is not a colour name",
                 suggestion: "rebeccapurple"),
        BadColor(input: " red", reason: "expected a colour but found \" red\", which is not a colour name", suggestion: "red"),
        BadColor(input: "rgb(300, 0, 0)", reason: "expected the red component in [0, 255] (or a percentage) but found 300"),
        BadColor(input: "rgb(1 2)", reason: "expected a space after the green component but found ')'"),
        BadColor(input: "rgba(1, 2, 3, 1.5)", reason: "expected the alpha in [0, 1] (or a percentage) but found 1.5"),
        BadColor(input: "rgb(1, 2, 3) x", reason: "expected nothing after ')' but found ' '"),
        BadColor(input: "rgb(-1, 2, 3)", reason: "expected a number or a percentage for the red component but found '-'"),
    ]

    @Test("bad colours say what was given and what is accepted", arguments: badColorCases)
    func badColors(_ c: BadColor) throws {
        let error = try #require(throws: ColorParseError.self) { try RGBAColor(parsing: c.input) }
        #expect(error.input == c.input)
        #expect(error.reason == c.reason)
        #expect(error.suggestion == c.suggestion)
        #expect(error.description.contains("accepted: #rgb, #rgba, #rrggbb, #rrggbbaa"))
    }
}

private extension RGBAColor {
    func withAlpha(_ a: Float) -> RGBAColor { RGBAColor(red: red, green: green, blue: blue, alpha: a) }
}

// MARK: - Documentation

@Suite("Stroke format documentation")
struct StrokeFormatDocTests {
    /// The fenced ```json blocks of the Markdown doc, in order.
    static func jsonBlocks(_ markdown: String) -> [String] {
        var blocks: [String] = []
        var current: [Substring]? = nil
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line.trimmingCharacters(in: .whitespaces) == "```json" {
                current = []
            } else if current != nil, line.trimmingCharacters(in: .whitespaces) == "```" {
                blocks.append(current!.joined(separator: "\n"))
                current = nil
            } else if current != nil {
                current!.append(line)
            }
        }
        return blocks
    }

    @Test("the schema is valid JSON, draft 2020-12, and its colour names match the reader's")
    func schemaIsValid() throws {
        let text = try readRepoFile("docs/stroke-format.schema.json")
        let schema = try JSONParser.parse(text, file: "docs/stroke-format.schema.json")
        #expect(schema["$schema"]?.stringValue == "https://json-schema.org/draft/2020-12/schema")
        let defs = try #require(schema["$defs"])
        let names = defs["colorName"]?["anyOf"]?.arrayValue?.first?["enum"]?.arrayValue?.compactMap(\.stringValue)
        #expect(names == RGBAColor.cssColorNames)
        let sampleKeys = defs["sampleFields"]?["properties"]?.objectValue?.map(\.key)
        #expect(sampleKeys == StrokeScriptDecoder.sampleKeys)
        let actionKinds = defs["action"]?["oneOf"]?.arrayValue?.compactMap { $0["required"]?.arrayValue?.first?.stringValue }
        #expect(actionKinds == StrokeScriptDecoder.actionKeys)
    }

    @Test("the complete example in the doc is accepted and uses every action kind")
    func docExampleParses() throws {
        let doc = try readRepoFile("docs/stroke-format.md")
        let example = try #require(Self.jsonBlocks(doc).first, "no ```json block in the doc")
        let script = try StrokeScriptReader.parse(example, sourcePath: "/docs/example.json")
        #expect(script.canvas.width != nil)
        let kinds = Set(script.actions.map { action -> String in
            switch action.kind {
            case .brush: return "brush"
            case .stroke: return "stroke"
            case .undo: return "undo"
            case .redo: return "redo"
            case .clear: return "clear"
            case .ticks: return "ticks"
            }
        })
        #expect(kinds == Set(StrokeScriptDecoder.actionKeys))
    }

    @Test("the error example in the doc is what the reader prints")
    func docErrorExample() throws {
        let doc = try readRepoFile("docs/stroke-format.md")
        let bad = """
        {"actions": [
          {"stroke": {"pointerType": "pen", "events": [
            {"x": 20, "y": 100, "presure": 0.2}]}}]}
        """
        let error = try #require(scriptError(bad, file: "smudge.json"))
        #expect(doc.contains(error.description))
        #expect(error.description.hasPrefix("smudge.json:3:25: "))
    }
}
