#!/usr/bin/env python3
"""`bristle play` in a real headless Chromium (Debian's chromium and chromium-driver, Selenium).

Usage: play_browser_test.py BIN_DIR   (the folder of the built `bristle` and reference brushes)

Pen strokes go through WebDriver pointer actions of kind "pen" with pressure, tilt and twist;
coalesced samples and latency at 1,000 events/s through the DevTools protocol
(Input.dispatchMouseEvent with pointerType "pen", many in flight). Every check waits generously
and none is timed: the machine may be loaded. Environment:

  BRISTLE_UPDATE_SCREENSHOT=1  writes the page's screenshot to docs/guides/images/play.png
  BRISTLE_PLAY_BENCH=FILE      writes the latency figures of the 1,000 events/s run as JSON
"""
import hashlib
import json
import math
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import threading
import time
import unittest
import urllib.error
import urllib.request
import zlib

import websocket  # websocket-client, a dependency of Selenium
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BIN = None  # set from argv
WAIT = 60.0  # seconds any condition may take on a loaded machine


def decode_png(data):
    """Pixels (bytes, RGBA, rows packed) of an 8-bit RGBA non-interlaced PNG, as bristle writes."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width, height = 8, b"", 0, 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert (depth, color, interlace) == (8, 6, 0), "expected 8-bit RGBA, not interlaced"
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw, stride, out, prev = zlib.decompress(idat), width * 4, bytearray(), bytearray(width * 4)
    for y in range(height):
        kind, row = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = row[i - 4] if i >= 4 else 0
            b = prev[i]
            c = prev[i - 4] if i >= 4 else 0
            if kind == 1:
                row[i] = (row[i] + a) & 255
            elif kind == 2:
                row[i] = (row[i] + b) & 255
            elif kind == 3:
                row[i] = (row[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                row[i] = (row[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        out += row
        prev = row
    return width, height, bytes(out)


def build_brush(path, *defines):
    """Builds Tests/Fixtures/play/playbrush.c into `path` with plain cc, as a brush author would."""
    subprocess.run(["cc", "-std=c99", "-O1", "-fPIC", "-shared", "-fvisibility=hidden", "-I", os.path.join(ROOT, "include"),
                    *defines, os.path.join(ROOT, "Tests/Fixtures/play/playbrush.c"), "-o", path, "-lm"], check=True)


def wait_until(condition, what, timeout=WAIT):
    deadline = time.time() + timeout
    while time.time() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")


class Server:
    """`bristle play --port 0` with the given flags; reads its URL line."""

    def __init__(self, *args):
        self.scratch = tempfile.mkdtemp(prefix="bristle-play-test-")
        env = dict(os.environ, HOME=self.scratch, TMPDIR=self.scratch)
        env.pop("BRISTLE_PATH", None)
        self.args = args
        self.process = subprocess.Popen([os.path.join(BIN, "bristle"), "play", "--port", "0", *args],
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, text=True)
        line = self.process.stdout.readline().strip()
        if not line.startswith("bristle play: http://127.0.0.1:"):
            raise AssertionError(f"unexpected first line {line!r}; stderr: {self.process.stderr.read()}")
        self.url = line[len("bristle play: "):]
        self.base, self.token = self.url.split("/#token=")
        self.errors = []
        self.reader = threading.Thread(target=lambda: self.errors.extend(self.process.stderr), daemon=True)
        self.reader.start()

    def get(self, path):
        with urllib.request.urlopen(f"{self.base}{path}?token={self.token}", timeout=WAIT) as response:
            return response.read()

    def render_recording(self):
        """`bristle render` of recording.json, as PNG bytes."""
        recording = os.path.join(self.scratch, "recording.json")
        with open(recording, "wb") as f:
            f.write(self.get("/api/recording.json"))
        out = os.path.join(self.scratch, "render.png")
        env = dict(os.environ)
        env.pop("BRISTLE_PATH", None)
        subprocess.run([os.path.join(BIN, "bristle"), "render", recording, "-o", out], check=True, env=env)
        with open(out, "rb") as f:
            return f.read()

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.reader.join(WAIT)
        self.process.stdout.close()
        self.process.stderr.close()
        shutil.rmtree(self.scratch, ignore_errors=True)


class Page:
    """Headless Chromium on the server's page, through Debian's chromedriver."""

    def __init__(self, server):
        options = webdriver.ChromeOptions()
        options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
        for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                         "--window-size=1300,1100", "--force-device-scale-factor=1", "--remote-debugging-port=0"]:
            options.add_argument(argument)
        driver = shutil.which("chromedriver") or "/usr/bin/chromedriver"
        self.driver = webdriver.Chrome(service=Service(executable_path=driver), options=options)
        self.driver.set_script_timeout(WAIT)
        self.server = server
        self.driver.get(server.url)
        wait_until(lambda: self.js("return window.bristle && window.bristle.ready"), "window.bristle.ready")
        self.canvas = self.driver.find_element(By.ID, "bristle-canvas")

    def js(self, script, *args):
        return self.driver.execute_script(script, *args)

    def status(self):
        return self.driver.find_element(By.ID, "bristle-status").text

    def wait_status(self, text):
        return wait_until(lambda: text in self.status() and self.status(), f"a status with {text!r} (now {self.status()!r})")

    def choose(self, brush_id):
        Select(self.driver.find_element(By.ID, "bristle-brush")).select_by_value(brush_id)

    def settle(self):
        """Waits until every input message is answered."""
        wait_until(lambda: self.js("return window.bristle.pending() === 0"), "answers to every input message")

    def pen_stroke(self, points):
        """A WebDriver pen stroke through (x, y, pressure, tiltX, tiltY, twist) offsets from the
        canvas centre."""
        pen = PointerInput(interaction.POINTER_PEN, "pen")
        actions = ActionBuilder(self.driver, mouse=pen, duration=20)
        x, y, pressure, tilt_x, tilt_y, twist = points[0]
        actions.pointer_action.move_to(self.canvas, x, y)
        actions.pointer_action.pointer_down(pressure=pressure, tilt_x=tilt_x, tilt_y=tilt_y, twist=twist)
        for x, y, pressure, tilt_x, tilt_y, twist in points[1:]:
            actions.pointer_action.move_to(self.canvas, x, y, pressure=pressure, tilt_x=tilt_x, tilt_y=tilt_y, twist=twist)
        actions.pointer_action.pointer_up()
        actions.perform()
        self.settle()

    def pixels_sha256(self):
        """SHA-256 of the canvas's RGBA pixels, computed in the page."""
        return self.driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            const c = document.getElementById('bristle-canvas');
            const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
            crypto.subtle.digest('SHA-256', data).then(h => done(Array.from(new Uint8Array(h)).map(b => b.toString(16).padStart(2, '0')).join('')));
        """)

    def pixel(self, x, y):
        return self.js("return Array.from(document.getElementById('bristle-canvas').getContext('2d').getImageData(arguments[0], arguments[1], 1, 1).data)", x, y)

    def quit(self):
        self.driver.quit()


def zigzag(n=16, width=600, pressure0=0.2):
    return [(-width // 2 + i * width // n, (80 if i % 2 else -80), round(pressure0 + 0.7 * i / n, 3), -30 + 4 * i, 15, (20 * i) % 360)
            for i in range(n + 1)]


class PlayPageTests(unittest.TestCase):
    """One server and one page for the drawing tests."""

    @classmethod
    def setUpClass(cls):
        cls.server = Server()
        cls.page = Page(cls.server)

    @classmethod
    def tearDownClass(cls):
        cls.page.quit()
        cls.server.stop()

    def expect_replay(self):
        """canvas.png is what the page shows, and what `bristle render` makes of recording.json."""
        png = self.server.get("/api/canvas.png")
        _, _, pixels = decode_png(png)
        self.assertEqual(hashlib.sha256(pixels).hexdigest(), self.page.pixels_sha256(), "the page shows canvas.png")
        self.assertEqual(self.server.render_recording(), png, "bristle render of recording.json gives canvas.png")
        return png

    def test_1_page_offers_brushes_and_their_parameters(self):
        options = [o.get_attribute("value") for o in self.page.driver.find_elements(By.CSS_SELECTOR, "#bristle-brush option")]
        self.assertIn("org.bristle.pencil", options)
        self.assertIn("org.bristle.spray", options)
        self.page.choose("org.bristle.pencil")
        params = {e.get_attribute("data-param") for e in self.page.driver.find_elements(By.CSS_SELECTOR, "[data-param]")}
        self.assertEqual(params, {"opacity", "pressure-width", "min-width"})
        for element_id in ["bristle-undo", "bristle-redo", "bristle-clear", "bristle-export", "bristle-status"]:
            self.assertTrue(self.page.driver.find_element(By.ID, element_id).is_displayed())
        stats = self.page.js("return window.bristle.stats()")
        self.assertEqual(set(stats), {"events", "samples", "inputToPaintMs", "inputToFrameMs", "hopsMs"})
        self.assertEqual(set(stats["hopsMs"]), {"toHandler", "toSent", "toAnswer", "toPainted"})

    def test_2_pen_strokes_show_pressure_and_tilt_and_replay_byte_for_byte(self):
        self.page.choose("org.bristle.pencil")
        self.page.pen_stroke(zigzag())
        device = self.page.driver.find_element(By.ID, "bristle-device").text
        self.assertIn("pen: pressure", device)
        self.assertIn("tilt", device)
        recording = json.loads(self.server.get("/api/recording.json"))
        stroke = [a["stroke"] for a in recording["actions"] if "stroke" in a][-1]
        self.assertEqual(stroke["pointerType"], "pen")
        pressures = {e["pressure"] for e in stroke["events"]}
        self.assertGreater(len(pressures), 5, "pressure varies along the stroke")
        self.assertTrue(any(e["tiltX"] != 0 for e in stroke["events"]), "tilt is recorded")
        self.assertTrue(any(e["twist"] != 0 for e in stroke["events"]), "twist is recorded")
        self.page.choose("org.bristle.spray")
        self.page.pen_stroke([(x, y + 120, p, tx, ty, tw) for x, y, p, tx, ty, tw in zigzag(8)])
        self.expect_replay()

    def test_2b_mouse_and_finger_draw_too(self):
        self.page.choose("org.bristle.pencil")
        for kind, name, dy in [(interaction.POINTER_MOUSE, "mouse", 200), (interaction.POINTER_TOUCH, "touch", 240)]:
            pointer = PointerInput(kind, name)
            actions = ActionBuilder(self.page.driver, mouse=pointer, duration=20)
            actions.pointer_action.move_to(self.page.canvas, -300, dy)
            actions.pointer_action.pointer_down(width=8, height=8, pressure=0.7)
            for i in range(1, 9):
                actions.pointer_action.move_to(self.page.canvas, -300 + 70 * i, dy + (10 if i % 2 else -10), width=8, height=8, pressure=0.7)
            actions.pointer_action.pointer_up()
            actions.perform()
            self.page.settle()
        recording = json.loads(self.server.get("/api/recording.json"))
        mouse, touch = [a["stroke"] for a in recording["actions"] if "stroke" in a][-2:]
        self.assertEqual((mouse["pointerType"], touch["pointerType"]), ("mouse", "touch"))
        self.assertNotIn("pressure", mouse["events"][0], "a mouse's pressure is not measured")
        self.assertIn("width", touch["events"][0], "a finger's contact size is recorded")
        self.expect_replay()

    def test_3_undo_redo_and_clear_buttons(self):
        self.page.choose("org.bristle.marker")
        self.page.pen_stroke([(x, y - 150, p, tx, ty, tw) for x, y, p, tx, ty, tw in zigzag(6)])
        drawn = self.server.get("/api/canvas.png")
        self.page.driver.find_element(By.ID, "bristle-undo").click()
        wait_until(lambda: self.server.get("/api/canvas.png") != drawn, "undo")
        undone = self.expect_replay()
        self.page.driver.find_element(By.ID, "bristle-redo").click()
        wait_until(lambda: self.server.get("/api/canvas.png") == drawn, "redo")
        self.assertNotEqual(undone, drawn)
        self.expect_replay()
        self.page.driver.find_element(By.ID, "bristle-export").click()
        wait_until(lambda: self.page.js("return performance.getEntriesByType('resource').some(e => e.name.includes('/api/canvas.png'))"),
                   "the export's request for canvas.png")
        self.page.driver.find_element(By.ID, "bristle-clear").click()
        _, _, pixels = decode_png(wait_until(lambda: (lambda p: p if p != drawn else None)(self.server.get("/api/canvas.png")), "clear"))
        self.assertEqual(set(pixels), {255}, "a cleared canvas is the white background")
        self.expect_replay()

    def test_4_screenshot_for_the_guide(self):
        def wave(y0, amplitude, turns, pressure):
            return [(-420 + 840 * i / 60, y0 + amplitude * math.sin(turns * math.pi * i / 60), round(pressure(i / 60), 3),
                     round(-40 + 80 * i / 60), 20, (6 * i) % 360) for i in range(61)]

        def color(value):
            self.page.js("const c = document.getElementById('bristle-color'); c.value = arguments[0]; c.dispatchEvent(new Event('change'))", value)

        self.page.driver.find_element(By.ID, "bristle-clear").click()
        self.page.choose("org.bristle.pencil")
        color("#1a4dcc")
        self.page.pen_stroke(wave(-250, 60, 4, lambda t: 0.1 + 0.9 * t))
        self.page.choose("org.bristle.marker")
        color("#e07020")
        self.page.pen_stroke(wave(-60, 90, 3, lambda t: 0.5 + 0.5 * math.sin(math.pi * t)))
        self.page.choose("org.bristle.spray")
        color("#2a9d4a")
        self.page.pen_stroke(wave(150, 70, 5, lambda t: 0.3 + 0.6 * t))
        self.page.choose("org.bristle.pencil")
        color("#8e3bb8")
        self.page.pen_stroke(wave(280, 30, 8, lambda t: 1.0 - 0.8 * t))
        shot = os.path.join(self.server.scratch, "play.png")
        self.page.driver.save_screenshot(shot)
        with open(shot, "rb") as f:
            self.assertEqual(struct.unpack(">I", f.read(24)[16:20])[0], 1300, "the window's width")
        if os.environ.get("BRISTLE_UPDATE_SCREENSHOT") == "1":
            shutil.copy(shot, os.path.join(ROOT, "docs/guides/images/play.png"))
        self.expect_replay()

    def test_5_coalesced_samples_and_latency_at_1000_events_per_second(self):
        """DevTools Input.dispatchMouseEvent, pointerType pen, sent every millisecond without
        waiting for answers (many in flight), so the browser coalesces samples. Each round
        drives this server, then a `--stand-in` server that answers at once without drawing
        (the floor of the browser, the WebSocket and FlyingFox), back to back."""
        stand_in = Server("--stand-in")
        floor_page = Page(stand_in)
        rounds = []
        try:
            for _ in range(int(os.environ.get("BRISTLE_PLAY_ROUNDS", "1"))):
                ours = self.drive_1000_events_per_second(self.page, self.server)
                floor = self.drive_1000_events_per_second(floor_page, stand_in)
                rounds.append({"ours": ours, "standIn": floor})
                print("\nbristle play at 1,000 events/s:", json.dumps(rounds[-1]), flush=True)
        finally:
            floor_page.quit()
            stand_in.stop()
        if os.environ.get("BRISTLE_PLAY_BENCH"):
            with open(os.environ["BRISTLE_PLAY_BENCH"], "w") as f:
                json.dump({"load": os.getloadavg(), "rounds": rounds}, f, indent=2)

    def drive_1000_events_per_second(self, page, server):
        """Four pen strokes of 500 moves through `page`, one DevTools event every millisecond;
        the figures of the browser (and of the host, when it draws)."""
        page.driver.find_element(By.ID, "bristle-clear").click()
        page.choose("org.bristle.pencil")
        page.settle()
        page.js("window.bristle.resetStats()")
        urllib.request.urlopen(f"{server.base}/api/stats?token={server.token}&reset=1", timeout=WAIT).read()
        box = page.js("const r = document.getElementById('bristle-canvas').getBoundingClientRect(); return [r.left, r.top, r.width, r.height]")
        debugger = page.driver.capabilities["goog:chromeOptions"]["debuggerAddress"]
        targets = json.loads(urllib.request.urlopen(f"http://{debugger}/json").read())
        target = next(t for t in targets if t["type"] == "page" and t["url"].startswith(server.base))
        cdp = websocket.create_connection(target["webSocketDebuggerUrl"], timeout=WAIT, suppress_origin=True)
        answers = []
        reader = threading.Thread(target=lambda: [answers.append(cdp.recv()) for _ in range(total)], daemon=True)
        events = []
        for stroke in range(4):
            left, top = box[0] + 60, box[1] + 80 + stroke * 150
            events.append(("mousePressed", left, top, 0.3))
            for i in range(500):
                events.append(("mouseMoved", left + i * 1.7, top + 40 * ((i // 25) % 2) + (i % 25) * (1.6 if (i // 25) % 2 == 0 else -1.6), 0.2 + 0.6 * i / 500))
            events.append(("mouseReleased", left + 850, top, 0.0))
        total = len(events)
        reader.start()
        start = time.perf_counter()
        for n, (kind, x, y, force) in enumerate(events):
            params = {"type": kind, "x": x, "y": y, "button": "left", "buttons": 0 if kind == "mouseReleased" else 1,
                      "clickCount": 1, "pointerType": "pen", "force": force, "tiltX": 20, "tiltY": -10, "twist": 45}
            cdp.send(json.dumps({"id": n + 1, "method": "Input.dispatchMouseEvent", "params": params}))
            while time.perf_counter() < start + (n + 1) / 1000:
                pass
        sent_seconds = time.perf_counter() - start
        reader.join(WAIT)
        cdp.close()
        self.assertEqual(len(answers), total, "DevTools answered every event")
        page.settle()
        stats = page.js("return window.bristle.stats()")
        figures = {"eventsPerSecondSent": round(total / sent_seconds), "load": os.getloadavg()[0], "browser": stats,
                   "pointerEvents": stats["events"], "samples": stats["samples"]}
        hops = stats["hopsMs"]
        self.assertTrue(all(hops[h]["p50"] is not None and hops[h]["p50"] >= 0 for h in hops), f"every hop measured: {hops}")
        self.assertLessEqual(sum(hops[h]["p50"] for h in hops), 4 * stats["inputToPaintMs"]["p50"] + 1,
                             f"the hops are parts of input-to-paint: {hops}, {stats['inputToPaintMs']}")
        if server.args == ("--stand-in",):
            self.assertGreater(stats["samples"], 1500, "most of the 2,000 moves arrived as samples")
            self.assertIsNotNone(stats["inputToPaintMs"]["p50"], "the stand-in answered with patches")
            return figures
        host = json.loads(server.get("/api/stats"))
        recording = json.loads(server.get("/api/recording.json"))
        strokes = [a["stroke"] for a in recording["actions"] if "stroke" in a][-4:]
        samples = sum(len(e.get("coalesced", [e])) for s in strokes for e in s["events"])
        self.assertEqual(stats["samples"], samples, "every sample the page sent is recorded")
        self.assertGreater(samples, 1500, "most of the 2,000 moves arrived as samples")
        self.assertTrue(all(s["pointerType"] == "pen" for s in strokes))
        figures.update({"host": host, "mostCoalesced": max(len(e.get("coalesced", [])) for s in strokes for e in s["events"]),
                        "patchBytesPerEvent": round(host["patchBytes"] / max(1, host["messages"])),
                        "patchPixelsPerEvent": round(host["patchPixels"] / max(1, host["messages"]))})
        self.expect_replay()
        return figures


class PlayWatchTests(unittest.TestCase):
    """A --brushes folder: hot reload and a brush that crashes, through the page."""

    def setUp(self):
        self.folder = tempfile.mkdtemp(prefix="bristle-play-brushes-")
        self.library = os.path.join(self.folder, "libplay.so")

    def tearDown(self):
        shutil.rmtree(self.folder, ignore_errors=True)

    def test_hot_reload_and_a_library_that_cannot_load(self):
        build_brush(self.library, "-DINK=0x0000ff")
        server, page = Server("--brushes", self.folder), None
        try:
            page = Page(server)
            self.assertEqual(Select(page.driver.find_element(By.ID, "bristle-brush")).first_selected_option.get_attribute("value"), "test.play")
            page.pen_stroke([(-200, -100, 0.5, 0, 0, 0), (200, -100, 0.5, 0, 0, 0)])
            self.assertEqual(page.pixel(512, 284)[:3], [0, 0, 255])
            started = time.time()
            build_brush(self.library, "-DINK=0xff0000")
            page.wait_status("reloaded libplay.so")
            print(f"\nhot reload: in use {time.time() - started:.2f} s after cc started", flush=True)
            page.pen_stroke([(-200, 100, 0.5, 0, 0, 0), (200, 100, 0.5, 0, 0, 0)])
            self.assertEqual(page.pixel(512, 484)[:3], [255, 0, 0])
            with open(self.library, "w") as f:
                f.write("not a library")
            self.assertIn("the previous version stays in use", page.wait_status("cannot be loaded"))
            page.pen_stroke([(-200, 200, 0.5, 0, 0, 0), (200, 200, 0.5, 0, 0, 0)])
            self.assertEqual(page.pixel(512, 584)[:3], [255, 0, 0])
            self.assertEqual(server.render_recording(), server.get("/api/canvas.png"))
        finally:
            if page:
                page.quit()
            server.stop()

    def test_a_crashing_brush_ends_only_its_worker(self):
        build_brush(self.library, "-DCRASH_IN_MOVED=3")
        server, page = Server("--brushes", self.folder), None
        try:
            page = Page(server)
            page.choose("org.bristle.pencil")
            page.pen_stroke(zigzag(6))
            before = server.get("/api/canvas.png")
            shown = page.pixels_sha256()
            page.choose("test.play")
            page.pen_stroke([(x, y + 100, p, tx, ty, tw) for x, y, p, tx, ty, tw in zigzag(6)])
            said = page.wait_status("crashed in moved")
            self.assertIn("SIGSEGV", said)
            self.assertEqual(server.get("/api/canvas.png"), before, "committed pixels survive")
            self.assertEqual(page.pixels_sha256(), shown, "the page shows them")
            page.choose("org.bristle.pencil")
            page.pen_stroke([(x, y - 150, p, tx, ty, tw) for x, y, p, tx, ty, tw in zigzag(6)])
            self.assertNotEqual(server.get("/api/canvas.png"), before, "the next stroke draws in a fresh worker")
            self.assertEqual(server.render_recording(), server.get("/api/canvas.png"))
            self.assertTrue(any("crashed in moved" in line for line in server.errors))
        finally:
            if page:
                page.quit()
            server.stop()


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    BIN = os.path.abspath(sys.argv.pop(1))
    unittest.main(verbosity=2)
