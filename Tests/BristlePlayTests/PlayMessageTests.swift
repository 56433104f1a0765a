import BristleHost
@testable import BristlePlay
import Foundation
import Testing

/// The pieces between the page and the worker: events as stroke-format text, brush choices as
/// `brush` actions, the recording, damage merging, and the worker's reply frames.
@Suite struct PlayMessageTests {
    private func json(_ text: String) throws -> JSONValue { try JSONParser.parse(text, file: "test") }

    @Test func eventsKeepTheFieldsOfTheirPointerTypeInTheFormatsRanges() throws {
        let sample = #"{"x": 1.5, "y": 2, "pressure": 1.7, "tiltX": -95, "tiltY": 12.25, "twist": 370, "width": 3, "height": 4, "timeStamp": 12.5, "buttons": 1}"#
        let event = try json(#"{"x": 3, "y": 4, "pressure": 0.5, "tiltX": 0, "tiltY": 0, "twist": -30, "width": 1, "height": 1, "timeStamp": 13, "buttons": 1, "coalesced": [\#(sample)], "predicted": []}"#)
        let pen = try #require(try EventText.make(event, pointerType: "pen").get()).text
        #expect(pen == #"{"x": 3, "y": 4, "pressure": 0.5, "tiltX": 0, "tiltY": 0, "twist": 330, "timeStamp": 13, "buttons": 1, "coalesced": [{"x": 1.5, "y": 2, "pressure": 1, "tiltX": -90, "tiltY": 12.25, "twist": 10, "timeStamp": 12.5, "buttons": 1}]}"#)
        let mouse = try #require(try EventText.make(event, pointerType: "mouse").get()).text
        #expect(!mouse.contains("pressure") && mouse.contains("\"timeStamp\": 12.5"))
        let touch = try #require(try EventText.make(event, pointerType: "touch").get()).text
        #expect(touch.contains("\"width\": 3, \"height\": 4") && !touch.contains("tilt"))
        // The text is a valid event of the stroke format.
        _ = try StrokeScriptReader.parse("{\"actions\": [{\"stroke\": {\"events\": [\(pen)]}}]}", sourcePath: "x.json")
    }

    @Test func eventsWithoutAFieldOrWithAbsurdPositionsAreRefusedOrDropped() throws {
        let missing = try json(#"{"x": 3, "y": 4, "timeStamp": 1, "buttons": 1}"#)
        #expect(throws: MessageError.self) { try EventText.make(missing, pointerType: "pen").get() }
        let far = try json(#"{"x": 3e9, "y": 4, "timeStamp": 1, "buttons": 1}"#)
        #expect(try EventText.make(far, pointerType: "mouse").get() == nil)
    }

    @Test func eventsThatWaitedTogetherBecomeOneWithAllTheirSamples() throws {
        func event(_ x: Int, coalesced: [Int] = []) throws -> EventText.Event {
            let list = coalesced.map { #"{"x": \#($0), "y": 0, "timeStamp": \#($0), "buttons": 1}"# }.joined(separator: ", ")
            let text = #"{"x": \#(x), "y": 0, "timeStamp": \#(x), "buttons": 1, "coalesced": [\#(list)], "predicted": [{"x": \#(x + 1), "y": 0, "timeStamp": 99, "buttons": 1}]}"#
            return try #require(try EventText.make(try json(text), pointerType: "mouse").get())
        }
        let merged = EventText.Event.merged([try event(1), try event(3, coalesced: [2, 3]), try event(4)])
        #expect(merged.coalesced.map { $0[0].1 } == ["1", "2", "3", "4"])
        #expect(merged.sample[0].1 == "4" && merged.predicted.map { $0[0].1 } == ["5"])
        #expect(EventText.strokePointerType("") == "mouse" && EventText.strokePointerType("pen") == "pen")
    }

    private var pencil: CatalogBrush {
        let params = #"""
            [{"id": "opacity", "name": "Opacity", "type": "float", "description": "", "unit": "", "min": 0, "max": 1, "default": "1"},
             {"id": "mode", "name": "Mode", "type": "enum", "description": "", "unit": "", "min": 0, "max": 1, "default": "soft", "choices": ["soft", "hard"]},
             {"id": "wet", "name": "Wet", "type": "bool", "description": "", "unit": "", "min": 0, "max": 1, "default": "false"}]
            """#
        return CatalogBrush(id: "org.bristle.pencil", name: "Pencil", description: "", library: "/lib/\"x\".so", source: nil,
                            capabilities: [], params: try! JSONDecoder().decode([PluginReport.Parameter].self, from: Data(params.utf8)))
    }

    @Test func aBrushChoiceBecomesABrushActionNamingTheLibrary() throws {
        let choice = try BrushChoice.parse(try json(##"{"type": "brush", "id": "org.bristle.pencil", "color": "#1a4dcc", "width": 6.5, "params": {"wet": true, "opacity": 0.25, "mode": "hard"}}"##)).get()
        let action = try choice.action(for: pencil).get()
        #expect(action == ##"{"brush": {"id": "org.bristle.pencil", "path": "/lib/\"x\".so", "color": "#1a4dcc", "width": 6.5, "params": {"opacity": 0.25, "mode": "hard", "wet": true}}}"##)
        let script = try StrokeScriptReader.parse("{\"actions\": [\(action)]}", sourcePath: "x.json")
        guard case .brush(let spec) = script.actions[0].kind else { Issue.record("not a brush action"); return }
        #expect(spec.path == "/lib/\"x\".so" && spec.width == 6.5 && spec.params.count == 3)
    }

    @Test func aBrushChoiceOutsideWhatTheBrushDeclaresIsRefused() throws {
        func refusal(_ text: String) throws -> String? {
            let choice = try BrushChoice.parse(try json(text)).get()
            if case .failure(let e) = choice.action(for: pencil) { return e.description }
            return nil
        }
        #expect(try refusal(##"{"id": "p", "color": "#zzz", "width": 1}"##)?.contains("not a colour") == true)
        #expect(try refusal(#"{"id": "p", "color": "red", "width": 0}"#)?.contains("width 0.0") == true)
        #expect(try refusal(#"{"id": "p", "color": "red", "width": 1, "params": {"grain": 1}}"#)?.contains("no parameter \"grain\"") == true)
        #expect(try refusal(#"{"id": "p", "color": "red", "width": 1, "params": {"opacity": 2}}"#)?.contains("opacity") == true)
        #expect(try refusal(#"{"id": "p", "color": "red", "width": 1, "params": {"mode": "wavy"}}"#)?.contains("one of soft, hard") == true)
        #expect(try refusal(#"{"id": "p", "color": "red", "width": 1, "params": {"wet": 1}}"#) != nil)
    }

    @Test func theRecordingMergesTicksAndIsAStrokeScript() throws {
        var r = PlayRecording(width: 64, height: 32, background: "#ffffff")
        r.append(#"{"brush": {"id": "org.bristle.force-hue"}}"#)
        r.append(PlayRecording.stroke(pointerType: "pen", events: [#"{"x": 1, "y": 2}"#, #"{"x": 3, "y": 4}"#], cancelled: true))
        r.appendTick()
        r.appendTick()
        r.append(#"{"undo": 1}"#)
        r.appendTick()
        let script = try StrokeScriptReader.parse(r.text, sourcePath: "r.json")
        #expect(script.canvas.width == 64 && script.canvas.height == 32)
        let kinds = script.actions.map { action -> String in
            switch action.kind {
            case .brush: return "brush"
            case .stroke(let s): return s.cancelled ? "cancelled \(s.events.count)" : "stroke"
            case .ticks(let n): return "ticks \(n)"
            case .undo(let n): return "undo \(n)"
            case .redo, .clear: return "other"
            }
        }
        #expect(kinds == ["brush", "cancelled 2", "ticks 2", "undo 1", "ticks 1"])
    }

    @Test func damageIsMergedOnlyWhereLittleIsWasted() {
        let canvas = PixelRect(x: 0, y: 0, width: 1000, height: 1000)
        let near = DamageMerger.merge([PixelRect(x: 10, y: 10, width: 20, height: 20), PixelRect(x: 25, y: 12, width: 20, height: 20)], clip: canvas)
        #expect(near == [PixelRect(x: 10, y: 10, width: 35, height: 22)])
        let far = DamageMerger.merge([PixelRect(x: 0, y: 0, width: 10, height: 10), PixelRect(x: 900, y: 900, width: 10, height: 10)], clip: canvas)
        #expect(far.count == 2)
        #expect(DamageMerger.merge([PixelRect(x: -5, y: -5, width: 10, height: 10)], clip: canvas) == [PixelRect(x: 0, y: 0, width: 5, height: 5)])
    }

    @Test func workerRepliesRoundTripAndPatchesOutsideTheCanvasAreRefused() throws {
        let canvas = PixelRect(x: 0, y: 0, width: 8, height: 8)
        let patch = LayerPatch(kind: .preview, rect: PixelRect(x: 6, y: 7, width: 2, height: 1), pixels: [1, 2, 3, 4, 5, 6, 7, 8])
        let reply = WorkerReply(status: .failed, message: "moved: status 1", value: 3, patches: [patch])
        #expect(WorkerReply(code: 1, payload: reply.encoded, canvas: canvas) == reply)
        let outside = WorkerReply(status: .ok, patches: [LayerPatch(kind: .committed, rect: PixelRect(x: 7, y: 7, width: 2, height: 1), pixels: [UInt8](repeating: 0, count: 8))])
        #expect(WorkerReply(code: 0, payload: outside.encoded, canvas: canvas) == nil)
        #expect(WorkerReply(code: 0, payload: Array(reply.encoded.dropLast()), canvas: canvas) == nil, "a short frame")
        #expect(WorkerReply(code: 9, payload: reply.encoded, canvas: canvas) == nil, "an unknown status")
    }

    @Test func theStandInReadsTheSeqWithoutParsingAndAnswersWithOneFixedPatch() throws {
        #expect(StandInAnswer.sequenceNumber(#"{"type":"move","seq":4294967295,"event":{}}"#) == UInt32.max)
        #expect(StandInAnswer.sequenceNumber(#"{"type":"move","seq":4294967296}"#) == nil)
        #expect(StandInAnswer.sequenceNumber(#"{"type":"up","seq":0}"#) == nil)
        #expect(StandInAnswer.sequenceNumber(#"{"type":"undo"}"#) == nil)
        #expect(StandInAnswer.answer(#"{"type":"brush","id":"org.bristle.pencil"}"#) == nil)
        let answer = try #require(StandInAnswer.answer(#"{"type":"up","seq":17}"#))
        #expect(answer.count == 16 + 16 + 8 * 8 * 4)
        #expect(Array(answer[0..<16]) == [1, 0, 0, 0, 17, 0, 0, 0, 17, 0, 0, 0, 1, 0, 0, 0])
        #expect(Array(answer[16..<32]) == [0, 0, 0, 0, 0, 0, 0, 0, 8, 0, 0, 0, 8, 0, 0, 0])
        #expect(answer[32...].allSatisfy { $0 == 255 })
    }

    @Test func tokensAreFreshAndHex() {
        let a = PlayAccess.newToken(), b = PlayAccess.newToken()
        #expect(a.count == 32 && a.allSatisfy(\.isHexDigit) && a != b)
    }
}
