// bristle play's painter: a dedicated worker that owns the page's WebSocket and draws the
// host's pixel patches into the canvas, transferred to it as an OffscreenCanvas. Off the page's
// main thread, an answer is drawn as soon as it arrives instead of waiting behind the pointer
// events that the main thread handles (one a millisecond with a fast pen), and the canvas's
// frames no longer wait for the main thread either (docs/PERFORMANCE.md).
//
// From the page (postMessage):
//   {connect: url, canvas: OffscreenCanvas, timeOrigin}  open the WebSocket; draw into canvas
//   {send: text, seq?, timeStamp?, handler?}              send text; an input message's seq,
//                                                         its event's timeStamp and when the
//                                                         handler began (page's clock)
//   {resize: [width, height]}                             the canvas's size (the hello message)
//   {pixels: true}                                        answer {pixels: ArrayBuffer (RGBA),
//                                                         width, height}
// To the page: {open}, {closed}, {text} (the host's text messages), {answered: [first, last],
// paint, hops} per patch message that answers input, {frame} per animation frame after one.
// Binary messages from the host (PageMessage.swift): u8 kind (1), u8 flags, u16 0, u32 first
// seq, u32 last seq, u32 count, count x {u32 x, y, w, h, RGBA bytes}.
"use strict";

let context = null;
let socket = null;
// The page's performance.now() minus this worker's: both clocks count from their own origin.
let pageToHere = 0;
// seq -> {timeStamp, handler, sent} on this worker's clock, until its answer arrives.
const pending = new Map();
// timeStamps of the answers drawn since the last animation frame.
let drawnThisFrame = [];
let frameRequested = false;

onmessage = (message) => {
  const m = message.data;
  if (m.connect) {
    context = m.canvas.getContext("2d");
    pageToHere = m.timeOrigin - performance.timeOrigin;
    socket = new WebSocket(m.connect);
    socket.binaryType = "arraybuffer";
    socket.onopen = () => postMessage({ open: true });
    socket.onclose = () => postMessage({ closed: true });
    socket.onmessage = (incoming) => {
      if (typeof incoming.data === "string") postMessage({ text: incoming.data });
      else draw(incoming.data, performance.now());
    };
  } else if (m.send !== undefined) {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(m.send);
    if (m.seq) {
      pending.set(m.seq, { timeStamp: m.timeStamp === null ? null : m.timeStamp + pageToHere,
                           handler: m.handler + pageToHere, sent: performance.now() });
    }
  } else if (m.resize) {
    [context.canvas.width, context.canvas.height] = m.resize;
  } else if (m.pixels) {
    const { width, height } = context.canvas;
    const data = context.getImageData(0, 0, width, height).data;
    postMessage({ pixels: data.buffer, width, height }, [data.buffer]);
  }
};

// Draws a patch message; reports the input messages it answers with their latencies.
// `arrived`: performance.now() when onmessage began.
function draw(buffer, arrived) {
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
    context.putImageData(new ImageData(new Uint8ClampedArray(buffer, offset, w * h * 4), w, h), x, y);
    offset += w * h * 4;
  }
  if (lastSeq === 0) return;
  const now = performance.now();
  const report = { answered: [firstSeq, lastSeq], paint: [], hops: { handler: [], send: [], answer: [], draw: [] } };
  for (let seq = firstSeq; seq <= lastSeq; seq++) {
    const input = pending.get(seq);
    if (input === undefined) continue;
    pending.delete(seq);
    if (count === 0 || input.timeStamp === null) continue;
    report.paint.push(now - input.timeStamp);
    report.hops.handler.push(input.handler - input.timeStamp);
    report.hops.send.push(input.sent - input.handler);
    report.hops.answer.push(arrived - input.sent);
    report.hops.draw.push(now - arrived);
    drawnThisFrame.push(input.timeStamp);
  }
  postMessage(report);
  if (drawnThisFrame.length > 0 && !frameRequested) {
    frameRequested = true;
    requestAnimationFrame(() => {
      const frame = performance.now();
      postMessage({ frame: drawnThisFrame.map((t) => frame - t) });
      drawnThisFrame = [];
      frameRequested = false;
    });
  }
}
