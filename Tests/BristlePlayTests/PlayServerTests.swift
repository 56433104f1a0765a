import BristleHost
import BristleTestSupport
import Foundation
import Testing

/// `bristle play` end to end, as the page speaks to it: the URL line, the token and origin
/// rules, strokes over the WebSocket, undo and redo, ticks, and recording.json rendering to
/// the very bytes of canvas.png.
@Suite(.serialized) struct PlayServerTests {
    /// Renders the server's recording with `bristle render` and checks it gives canvas.png,
    /// byte for byte, and that the page shows the same pixels.
    static func expectReplayMatches(_ server: PlayProcess, _ page: PageClient?,
                                    sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let dir = TestEnvironment.scratchDirectory("play-replay")
        let recording = dir.appendingPathComponent("recording.json")
        let canvas = try server.get("/api/canvas.png")
        #expect(canvas.status == 200 && canvas.headers["content-type"] == "image/png", sourceLocation: sourceLocation)
        try Data(try server.get("/api/recording.json").body).write(to: recording)
        let out = dir.appendingPathComponent("render.png").path
        let r = try ProcessResult.run(TestEnvironment.bristleExecutable.path, ["render", recording.path, "-o", out],
                                      environment: ["BRISTLE_PATH": nil])
        #expect(r.status == 0, "\(r.stderr)", sourceLocation: sourceLocation)
        let rendered = try Data(contentsOf: URL(fileURLWithPath: out))
        #expect(Array(rendered) == canvas.body, "bristle render of recording.json differs from canvas.png", sourceLocation: sourceLocation)
        if let page {
            try Data(canvas.body).write(to: dir.appendingPathComponent("canvas.png"))
            let image = try PNGCodec.read(path: dir.appendingPathComponent("canvas.png").path)
            #expect(image.pixels == page.canvas, "the page shows other pixels than canvas.png", sourceLocation: sourceLocation)
        }
    }

    static func inked(_ page: PageClient) -> Int {
        stride(from: 0, to: page.canvas.count, by: 4).filter { page.canvas[$0] != 255 || page.canvas[$0 + 1] != 255 || page.canvas[$0 + 2] != 255 }.count
    }

    @Test func printsTheURLAndGuardsTheAPIWithTheToken() throws {
        let server = try PlayProcess()
        let page = try TestHTTP.get(port: server.port, "/")
        #expect(page.status == 200 && page.text.contains("id=\"bristle-canvas\"") && page.text.contains("id=\"bristle-status\""))
        #expect(try TestHTTP.get(port: server.port, "/play.js").text.contains("pointerrawupdate"))
        for path in ["/api/canvas.png", "/api/recording.json", "/api/brushes"] {
            #expect(try TestHTTP.get(port: server.port, path).status == 401, "\(path) without a token")
            #expect(try TestHTTP.get(port: server.port, path + "?token=0123456789abcdef0123456789abcdef").status == 401)
            #expect(try TestHTTP.get(port: server.port, path, headers: ["Authorization": "Bearer \(server.token)"]).status == 200)
            #expect(try server.get(path).status == 200)
        }
        // A foreign name for the server (DNS rebinding) is refused even with the token.
        #expect(try TestHTTP.get(port: server.port, "/api/brushes?token=\(server.token)", headers: ["Host": "evil.example:\(server.port)"]).status == 403)
        let brushes = try JSONSerialization.jsonObject(with: Data(try server.get("/api/brushes").body)) as? [[String: Any]] ?? []
        let pencil = brushes.first { $0["id"] as? String == "org.bristle.pencil" }
        #expect(pencil?["name"] as? String == "Pencil")
        #expect((pencil?["params"] as? [[String: Any]])?.contains { $0["id"] as? String == "opacity" } == true)
        #expect(brushes.count == 10, "the reference brushes: \(brushes.map { $0["id"] ?? "" })")
    }

    @Test func refusesWebSocketsWithoutTheTokenOrFromAnotherOrigin() throws {
        let server = try PlayProcess()
        #expect(try TestWebSocket(port: server.port, target: "/ws").status == 401)
        #expect(try TestWebSocket(port: server.port, target: "/ws?token=00000000000000000000000000000000").status == 401)
        let foreign = try TestWebSocket(port: server.port, target: "/ws?token=\(server.token)", origin: "http://evil.example")
        #expect(foreign.status == 403 && foreign.refusal.contains("origin"))
        #expect(try TestWebSocket(port: server.port, target: "/ws?token=\(server.token)", origin: "http://127.0.0.1:\(server.port)").status == 101)
        #expect(try TestWebSocket(port: server.port, target: "/ws?token=\(server.token)", origin: "http://localhost:\(server.port)").status == 101)
    }

    @Test func strokesUndoRedoAndTicksReplayWithRender() throws {
        let server = try PlayProcess(["--canvas", "320x240"])
        let page = try server.page()
        #expect(page.width == 320 && page.height == 240)
        try page.choose("org.bristle.pencil", params: ["opacity": 0.8, "pressure-width": true])
        try page.stroke([(20, 30), (60, 50), (100, 40), (140, 90)])
        let afterFirst = Self.inked(page)
        #expect(afterFirst > 200, "the pencil drew")
        try Self.expectReplayMatches(server, page)

        try page.choose("org.bristle.marker", color: "#d04010", width: 14)
        try page.stroke([(30, 200), (120, 150), (200, 190)])
        try page.stroke([(250, 20), (260, 60)], cancel: true)
        _ = try page.send(["type": "undo"])
        while Self.inked(page) != afterFirst { try page.next() }
        _ = try page.send(["type": "redo"])
        while Self.inked(page) == afterFirst { try page.next() }
        try Self.expectReplayMatches(server, page)

        // Force-hue fades the drawing frame by frame after lift: ticks, recorded as such.
        try page.choose("org.bristle.force-hue", params: ["fade": true, "brightness-step": 0.2])
        try page.stroke([(200, 120), (280, 140), (300, 200)])
        var recording = ""
        for _ in 0..<200 where !recording.contains("\"ticks\"") {
            Thread.sleep(forTimeInterval: 0.05)
            recording = try server.get("/api/recording.json").text
        }
        #expect(recording.contains("{\"ticks\": "), "ticks are recorded")
        _ = try page.send(["type": "clear"])
        while Self.inked(page) != 0 { try page.next() }
        try Self.expectReplayMatches(server, nil)
        let script = try StrokeScriptReader.parse(recording, sourcePath: "recording.json")
        #expect(script.actions.contains { if case .stroke(let s) = $0.kind { return s.cancelled } else { return false } })
    }

    @Test func refusesBadMessagesWithAStatusAndKeepsServing() throws {
        let server = try PlayProcess()
        let page = try server.page()
        try page.socket.send("not json")
        #expect(try page.waitForStatus(containing: "not JSON").contains("message:1:1"))
        try page.choose("org.bristle.pencil", params: ["opacity": 7])
        _ = try page.waitForStatus(containing: "opacity: expected a float in [0.0, 1.0]")
        try page.choose("org.bristle.nope")
        _ = try page.waitForStatus(containing: "no brush org.bristle.nope")
        let seq = try page.send(["type": "down", "pointerType": "pen", "event": ["x": 1, "y": 2]])
        try page.wait(for: seq)
        _ = try page.waitForStatus(containing: "event.pressure is not a number")
        #expect(try server.get("/api/recording.json").text.contains("\"actions\": [\n  \n]"), "nothing was recorded")
    }

    /// The benchmark's floor: `--stand-in` answers each input message with one fixed 8 x 8
    /// patch carrying its seq, and nothing reaches the session or a brush.
    @Test func theStandInAnswersEveryInputAtOnceAndDrawsNothing() throws {
        let server = try PlayProcess(["--stand-in"])
        let page = try server.page()
        try page.choose("org.bristle.pencil")
        let before = page.canvas
        var seqs: [UInt32] = []
        seqs.append(try page.send(["type": "down", "pointerType": "pen", "event": PageClient.sample(300, 300, t: 1)]))
        for i in 1...20 { seqs.append(try page.send(["type": "move", "event": PageClient.sample(300 + Double(i), 300, t: Double(i))])) }
        seqs.append(try page.send(["type": "up"]))
        try page.wait(for: seqs.last!)
        #expect(seqs.allSatisfy { page.patchCounts[$0] == 1 }, "one patch for every input message, each with its own seq")
        #expect(page.canvas == before, "the stand-in's patch is the white background's corner")
        #expect(try server.get("/api/recording.json").text.contains("\"actions\": [\n  \n]"), "nothing was recorded")
        #expect(try server.get("/api/stats").text.contains("\"messages\": 0"), "no message reached the session")
    }

    /// `--stand-in-delay US`: the stand-in answers no sooner than US microseconds after the
    /// message arrived.
    @Test func theStandInWithADelayAnswersThatLate() throws {
        let server = try PlayProcess(["--stand-in", "--stand-in-delay", "150000"])
        let page = try server.page()
        for i in 1...3 {
            let sent = Date()
            try page.wait(for: try page.send(["type": "down", "pointerType": "pen", "event": PageClient.sample(Double(i), 300, t: 1)]))
            #expect(Date().timeIntervalSince(sent) >= 0.15, "answered after \(Date().timeIntervalSince(sent)) s")
        }
    }

    /// `BRISTLE_PLAY_PAGE=DIR` serves the page's files from DIR at every request, and a file
    /// missing there is not found.
    @Test func thePageCanBeServedFromAFolder() throws {
        let folder = TestEnvironment.scratchDirectory("play-page").path
        try Data("<p>first</p>".utf8).write(to: URL(fileURLWithPath: folder + "/index.html"))
        let server = try PlayProcess([], environment: ["BRISTLE_PLAY_PAGE": folder])
        #expect(try TestHTTP.get(port: server.port, "/").text == "<p>first</p>")
        try Data("<p>edited</p>".utf8).write(to: URL(fileURLWithPath: folder + "/index.html"))
        #expect(try TestHTTP.get(port: server.port, "/").text == "<p>edited</p>", "read again, no restart")
        #expect(try TestHTTP.get(port: server.port, "/play.css").status == 404)
    }
}
