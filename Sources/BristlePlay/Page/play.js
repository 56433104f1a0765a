// bristle play: sends Pointer Events to the host over a WebSocket and paints the pixel
// patches it answers with. The host runs the brush; this page only shows its pixels.
//
// Messages to the host are JSON text (see Sources/BristlePlay/Session/ClientMessage.swift);
// pixels come back as binary messages (PageMessage.swift):
//   u8 kind (1), u8 flags, u16 0, u32 first seq, u32 last seq, u32 count,
//   count x {u32 x, y, w, h, RGBA bytes}
// answering the input messages numbered first...last (0...0: none).
"use strict";

(() => {
  const canvas = document.getElementById("bristle-canvas");
  const context = canvas.getContext("2d");
  const picker = document.getElementById("bristle-brush");
  const colorInput = document.getElementById("bristle-color");
  const widthInput = document.getElementById("bristle-width");
  const widthValue = document.getElementById("bristle-width-value");
  const paramsBox = document.getElementById("bristle-params");
  const statusLine = document.getElementById("bristle-status");
  const deviceLine = document.getElementById("bristle-device");

  const token = new URLSearchParams(location.hash.slice(1)).get("token") || "";
  let socket = null;
  let brushes = [];
  let nextSeq = 1;
  // The active stroke's pointer, or null.
  let strokePointer = null;
  // seq -> {timeStamp of the pointer event it carried (null: none), handler: performance.now()
  // when the page's handler began, sent: when WebSocket.send returned}, until its answer arrives.
  const pending = new Map();
  const stats = { events: 0, samples: 0, paint: [], frame: [], hops: { handler: [], send: [], answer: [], draw: [] } };
  // Answers painted since the last animation frame: the pointer events' timeStamps.
  let paintedThisFrame = [];
  let frameRequested = false;
  // Samples per second shown in #bristle-device, which is rewritten once per frame at most
  // (rewriting it per event would dirty the layout that the next event's position reads).
  let rateWindowStart = 0;
  let rateSamples = 0;
  let sampleRate = 0;
  let deviceText = null;
  // The canvas's box, read when a stroke begins (a layout read per event costs time).
  let box = null;

  const bristle = {
    ready: false,
    /** Counts and browser-measured latencies (ms) since the page loaded or resetStats(). */
    stats() {
      return {
        events: stats.events,
        samples: stats.samples,
        inputToPaintMs: quantiles(stats.paint),
        inputToFrameMs: quantiles(stats.frame),
        // Where inputToPaint goes, hop by hop (each {p50, p99}): the event's timeStamp -> the
        // handler, the handler -> send returned, sent -> the answer's onmessage (the server and
        // the sockets), onmessage -> its pixels drawn.
        hopsMs: {
          toHandler: quantiles(stats.hops.handler),
          toSent: quantiles(stats.hops.send),
          toAnswer: quantiles(stats.hops.answer),
          toPainted: quantiles(stats.hops.draw),
        },
      };
    },
    resetStats() {
      stats.events = 0;
      stats.samples = 0;
      stats.paint = [];
      stats.frame = [];
      stats.hops = { handler: [], send: [], answer: [], draw: [] };
    },
    /** Input messages sent and not answered yet. */
    pending() { return pending.size; },
    /** The brushes the host offers. */
    brushes() { return brushes.slice(); },
  };
  window.bristle = bristle;

  function quantiles(values) {
    if (values.length === 0) return { p50: null, p99: null };
    const sorted = Float64Array.from(values).sort();
    const at = (q) => sorted[Math.min(sorted.length - 1, Math.round((sorted.length - 1) * q))];
    return { p50: at(0.5), p99: at(0.99) };
  }

  function setStatus(text, isError) {
    statusLine.textContent = text;
    statusLine.className = isError ? "error" : "";
  }

  // MARK: Connection

  function connect() {
    if (!token) {
      setStatus("no token: open the URL that bristle play printed (it ends in #token=...)", true);
      return;
    }
    socket = new WebSocket(`ws://${location.host}/ws?token=${encodeURIComponent(token)}`);
    socket.binaryType = "arraybuffer";
    socket.onopen = () => setStatus("connected", false);
    socket.onclose = () => {
      bristle.ready = false;
      setStatus("disconnected: is bristle play still running? Reload the page to reconnect.", true);
    };
    socket.onmessage = (message) => {
      if (typeof message.data === "string") {
        received(JSON.parse(message.data));
      } else {
        painted(message.data, performance.now());
      }
    };
  }

  function send(message) {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  }

  function received(message) {
    switch (message.type) {
      case "hello":
        canvas.width = message.canvas.width;
        canvas.height = message.canvas.height;
        showBrushes(message.brushes, message.brush);
        bristle.ready = true;
        setStatus(`connected: ${brushes.length} brushes`, false);
        break;
      case "brushes":
        showBrushes(message.brushes, picker.value);
        break;
      case "status":
        setStatus(message.text, message.level === "error");
        break;
    }
  }

  // MARK: Pixels

  // `arrived`: performance.now() when onmessage began.
  function painted(buffer, arrived) {
    const view = new DataView(buffer);
    if (view.getUint8(0) !== 1) return;
    const firstSeq = view.getUint32(4, true);
    const lastSeq = view.getUint32(8, true);
    const count = view.getUint32(12, true);
    let offset = 16;
    for (let i = 0; i < count; i++) {
      const x = view.getUint32(offset, true), y = view.getUint32(offset + 4, true);
      const w = view.getUint32(offset + 8, true), h = view.getUint32(offset + 12, true);
      offset += 16;
      const pixels = new Uint8ClampedArray(buffer, offset, w * h * 4);
      context.putImageData(new ImageData(pixels, w, h), x, y);
      offset += w * h * 4;
    }
    if (lastSeq === 0) return;
    const now = performance.now();
    for (let seq = firstSeq; seq <= lastSeq; seq++) {
      const input = pending.get(seq);
      if (input === undefined) continue;
      pending.delete(seq);
      if (count === 0 || input.timeStamp === null) continue;
      stats.paint.push(now - input.timeStamp);
      stats.hops.handler.push(input.handler - input.timeStamp);
      stats.hops.send.push(input.sent - input.handler);
      stats.hops.answer.push(arrived - input.sent);
      stats.hops.draw.push(now - arrived);
      paintedThisFrame.push(input.timeStamp);
    }
    if (paintedThisFrame.length > 0 && !frameRequested) {
      frameRequested = true;
      requestAnimationFrame(() => {
        const now = performance.now();
        for (const t of paintedThisFrame) stats.frame.push(now - t);
        paintedThisFrame = [];
        frameRequested = false;
      });
    }
  }

  // MARK: Brushes and controls

  function showBrushes(list, selected) {
    brushes = list;
    picker.replaceChildren(...list.map((b) => {
      const option = document.createElement("option");
      option.value = b.id;
      option.textContent = b.source ? `${b.name} (yours)` : b.name;
      return option;
    }));
    if (list.some((b) => b.id === selected)) picker.value = selected;
    showParams();
  }

  function currentBrush() {
    return brushes.find((b) => b.id === picker.value);
  }

  function showParams() {
    const brush = currentBrush();
    const old = paramValues();
    paramsBox.replaceChildren();
    for (const p of brush ? brush.params : []) {
      const label = document.createElement("label");
      label.title = p.description || "";
      label.append(p.name || p.id);
      let input;
      if (p.type === "bool") {
        input = document.createElement("input");
        input.type = "checkbox";
        input.checked = p.id in old ? old[p.id] : p.default === "true";
      } else if (p.type === "enum") {
        input = document.createElement("select");
        for (const choice of p.choices) {
          const option = document.createElement("option");
          option.value = choice;
          option.textContent = choice;
          input.append(option);
        }
        input.value = p.id in old && p.choices.includes(old[p.id]) ? old[p.id] : p.default;
      } else if (p.type === "color") {
        input = document.createElement("input");
        input.type = "color";
        input.value = (p.id in old ? old[p.id] : p.default).slice(0, 7);
      } else {
        input = document.createElement("input");
        input.type = "range";
        input.min = p.min;
        input.max = p.max;
        input.step = p.type === "int" ? 1 : (p.max - p.min) / 1000;
        input.value = p.id in old ? old[p.id] : Number(p.default);
        const output = document.createElement("output");
        output.textContent = input.value;
        input.addEventListener("input", () => { output.textContent = input.value; });
        label.append(input, output, p.unit ? ` ${p.unit}` : "");
      }
      input.dataset.param = p.id;
      input.dataset.type = p.type;
      if (!input.parentNode) label.append(input);
      input.addEventListener("change", sendBrush);
      paramsBox.append(label);
    }
    sendBrush();
  }

  function paramValues() {
    const values = {};
    for (const input of paramsBox.querySelectorAll("[data-param]")) {
      const type = input.dataset.type;
      values[input.dataset.param] = type === "bool" ? input.checked
        : type === "float" || type === "int" ? Number(input.value) : input.value;
    }
    return values;
  }

  function sendBrush() {
    if (!picker.value) return;
    send({ type: "brush", id: picker.value, color: colorInput.value, width: Number(widthInput.value), params: paramValues() });
  }

  picker.addEventListener("change", showParams);
  colorInput.addEventListener("change", sendBrush);
  widthInput.addEventListener("input", () => { widthValue.textContent = widthInput.value; });
  widthInput.addEventListener("change", sendBrush);

  // MARK: Pointer input

  function sample(e) {
    const sx = canvas.width / box.width, sy = canvas.height / box.height;
    return {
      x: (e.clientX - box.left) * sx,
      y: (e.clientY - box.top) * sy,
      pressure: e.pressure,
      tiltX: e.tiltX,
      tiltY: e.tiltY,
      twist: e.twist,
      width: e.width * sx,
      height: e.height * sy,
      timeStamp: e.timeStamp,
      buttons: e.buttons,
    };
  }

  function eventOf(e) {
    const event = sample(e);
    const coalesced = e.getCoalescedEvents ? e.getCoalescedEvents() : [];
    const predicted = e.getPredictedEvents ? e.getPredictedEvents() : [];
    if (coalesced.length > 0) event.coalesced = coalesced.map(sample);
    if (predicted.length > 0) event.predicted = predicted.map(sample);
    return event;
  }

  // `handler`: performance.now() when the event's handler began.
  function sendInput(type, e, extra, handler) {
    const seq = nextSeq++;
    send(Object.assign({ type, seq }, extra));
    pending.set(seq, { timeStamp: e ? e.timeStamp : null, handler, sent: performance.now() });
    return seq;
  }

  function countSamples(e, event) {
    const n = event.coalesced ? event.coalesced.length : 1;
    stats.events += 1;
    stats.samples += n;
    const now = performance.now();
    rateSamples += n;
    if (now - rateWindowStart >= 500) {
      sampleRate = Math.round(rateSamples * 1000 / (now - rateWindowStart));
      rateWindowStart = now;
      rateSamples = 0;
    }
    if (deviceText === null) {
      requestAnimationFrame(() => {
        deviceLine.textContent = deviceText;
        deviceText = null;
      });
    }
    deviceText = `${e.pointerType}: pressure ${e.pressure.toFixed(2)}, tilt ${e.tiltX}°/${e.tiltY}°, `
      + `twist ${e.twist}°, ${sampleRate} samples/s`;
  }

  canvas.addEventListener("pointerdown", (e) => {
    const handler = performance.now();
    if (strokePointer !== null || !bristle.ready) return;
    if (e.pointerType === "mouse" && e.button !== 0) return;
    strokePointer = e.pointerId;
    box = canvas.getBoundingClientRect();
    canvas.setPointerCapture(e.pointerId);
    const event = eventOf(e);
    countSamples(e, event);
    sendInput("down", e, { pointerType: e.pointerType, event }, handler);
    e.preventDefault();
  });

  // pointerrawupdate reaches the page as soon as the browser has the event; pointermove
  // waits for the next animation frame (10-20 ms later).
  const moveEvent = "onpointerrawupdate" in window ? "pointerrawupdate" : "pointermove";
  canvas.addEventListener(moveEvent, (e) => {
    const handler = performance.now();
    if (e.pointerId !== strokePointer) return;
    const event = eventOf(e);
    countSamples(e, event);
    sendInput("move", e, { event }, handler);
  });

  function strokeEnds(type) {
    return (e) => {
      if (e.pointerId !== strokePointer) return;
      strokePointer = null;
      sendInput(type, null, {}, performance.now());
    };
  }
  canvas.addEventListener("pointerup", strokeEnds("up"));
  canvas.addEventListener("pointercancel", strokeEnds("cancel"));
  canvas.addEventListener("lostpointercapture", strokeEnds("up"));
  canvas.addEventListener("contextmenu", (e) => e.preventDefault());

  // MARK: Buttons

  document.getElementById("bristle-undo").addEventListener("click", () => send({ type: "undo" }));
  document.getElementById("bristle-redo").addEventListener("click", () => send({ type: "redo" }));
  document.getElementById("bristle-clear").addEventListener("click", () => send({ type: "clear" }));
  document.getElementById("bristle-export").addEventListener("click", async () => {
    const response = await fetch(`/api/canvas.png?token=${encodeURIComponent(token)}`);
    if (!response.ok) return setStatus(`export failed: ${response.status}`, true);
    const link = document.createElement("a");
    link.href = URL.createObjectURL(await response.blob());
    link.download = "bristle.png";
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 10000);
  });
  document.addEventListener("keydown", (e) => {
    if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "z") {
      send({ type: e.shiftKey ? "redo" : "undo" });
      e.preventDefault();
    }
  });

  connect();
})();
