#!/usr/bin/env python3
"""`bristle play`'s host-side latency without a browser: a WebSocket client that draws pencil
strokes the way the page does, against this server and the `--stand-in` floor, round by round
(A B A B ...).

For each server and round it reports
  - paced: four strokes of 500 moves sent at 1,000 events/s without waiting for answers (as
    browser test 5 does); the round trip from a move's send to the patch that answers it,
    p50 / p99, seen by this client over loopback; and the server's own event-to-patch figure
    (`GET /api/stats`; the stand-in has none);
  - lockstep: 1,000 moves sent one at a time, each after the previous answer; the server's
    context switches (voluntary, i.e. sleeps, and involuntary) per request, of its own threads
    and of its brush worker, from /proc (what "wake-ups per request" counts), and the CPU time
    of the server's threads per request (clock ticks, so +-10 ms over the 1,000).

    scripts/bench-play-host.py BIN_DIR [ROUNDS] [OUT.json]

BIN_DIR holds `bristle` (for example .build/release); BRISTLE_PLAY_REALTIME=0 in the environment
runs the servers without real-time scheduling (the scheduling column says which). Needs websocket-client (Selenium's
dependency; `bash scripts/ensure-deps.sh`). One Markdown table row per round on stdout.
"""
import json
import os
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

import websocket

WAIT = 60


class Server:
    """`bristle play --port 0` with the given flags, in a scratch HOME."""

    def __init__(self, bin_dir, *args):
        self.scratch = tempfile.mkdtemp(prefix="bristle-play-bench-")
        env = dict(os.environ, HOME=self.scratch, TMPDIR=self.scratch)
        env.pop("BRISTLE_PATH", None)
        self.args = args
        self.process = subprocess.Popen([os.path.join(bin_dir, "bristle"), "play", "--port", "0", *args],
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, text=True)
        line = self.process.stdout.readline().strip()
        if not line.startswith("bristle play: http://127.0.0.1:"):
            raise SystemExit(f"bench-play-host: unexpected first line {line!r}")
        self.base, self.token = line[len("bristle play: "):].split("/#token=")

    def get(self, path, query=""):
        with urllib.request.urlopen(f"{self.base}{path}?token={self.token}{query}", timeout=WAIT) as response:
            return response.read()

    def switches(self):
        """(voluntary, involuntary) context switches of the server's threads, and of its children's;
        the server's CPU seconds."""
        def of(pid):
            v = n = 0
            for task in os.listdir(f"/proc/{pid}/task"):
                with open(f"/proc/{pid}/task/{task}/status") as f:
                    for line in f:
                        if line.startswith("voluntary_ctxt_switches"):
                            v += int(line.split()[1])
                        elif line.startswith("nonvoluntary_ctxt_switches"):
                            n += int(line.split()[1])
            return v, n
        children = []
        for task in os.listdir(f"/proc/{self.process.pid}/task"):
            with open(f"/proc/{self.process.pid}/task/{task}/children") as f:
                children += [int(c) for c in f.read().split()]
        worker = [0, 0]
        for child in children:
            try:
                v, n = of(child)
            except FileNotFoundError:
                continue
            worker[0] += v
            worker[1] += n
        return of(self.process.pid), tuple(worker), self.cpu_seconds()

    def cpu_seconds(self):
        """User and system CPU time of the server's threads so far (not its worker's)."""
        with open(f"/proc/{self.process.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process.stdout.close()
        shutil.rmtree(self.scratch, ignore_errors=True)


class Client:
    """One WebSocket to a server; a reader thread stamps the arrival of every answered seq."""

    def __init__(self, server):
        self.ws = websocket.create_connection(f"ws://127.0.0.1:{server.base.rsplit(':', 1)[1]}/ws?token={server.token}",
                                              timeout=WAIT, origin=server.base,
                                              sockopt=((socket.IPPROTO_TCP, socket.TCP_NODELAY, 1),))
        self.answered = {}
        self.cond = threading.Condition()
        self.seq = 0
        self.reader = threading.Thread(target=self.read, daemon=True)
        self.reader.start()

    def read(self):
        while True:
            try:
                opcode, data = self.ws.recv_data()
            except (websocket.WebSocketException, OSError):
                return
            now = time.perf_counter()
            if opcode == websocket.ABNF.OPCODE_BINARY and len(data) >= 12:
                first, last = struct.unpack_from("<II", data, 4)
                if first:
                    with self.cond:
                        for s in range(first, last + 1):
                            self.answered[s] = now
                        self.cond.notify_all()

    def send(self, message):
        """Sends an input message with the next seq; returns (seq, time sent)."""
        self.seq += 1
        text = json.dumps(dict(message, seq=self.seq), separators=(",", ":"))
        sent = time.perf_counter()
        self.ws.send(text)
        return self.seq, sent

    def wait(self, seq):
        with self.cond:
            if not self.cond.wait_for(lambda: seq in self.answered, WAIT):
                raise SystemExit(f"bench-play-host: no answer to input message {seq}")

    def close(self):
        self.ws.close()


def event(x, y, pressure, t):
    return {"x": x, "y": y, "pressure": pressure, "tiltX": 20, "tiltY": -10, "twist": 45, "width": 1, "height": 1,
            "timeStamp": t, "buttons": 1}


def pace(deadline):
    """Waits until `deadline` (perf_counter seconds): asleep (the GIL free for the reader) but
    for the last 0.3 ms."""
    left = deadline - time.perf_counter()
    if left > 0.0003:
        time.sleep(left - 0.0003)
    while time.perf_counter() < deadline:
        pass


def quantiles(values):
    values = sorted(values)
    pick = lambda q: values[min(len(values) - 1, round((len(values) - 1) * q))]
    return {"p50": round(pick(0.5) * 1e3, 3), "p99": round(pick(0.99) * 1e3, 3)}


def paced(server):
    """Four strokes of 500 moves at 1,000 events/s; round trip per move and the server's stats."""
    client = Client(server)
    client.ws.send(json.dumps({"type": "brush", "id": "org.bristle.pencil", "color": "#000000", "width": 3, "params": {}}))
    client.ws.send(json.dumps({"type": "clear"}))
    time.sleep(0.2)
    if "--stand-in" not in server.args:
        server.get("/api/stats", "&reset=1")
    sent = {}
    t0 = time.perf_counter()
    n = 0
    for stroke in range(4):
        top = 80 + stroke * 150
        seq, _ = client.send({"type": "down", "pointerType": "pen", "event": event(60, top, 0.3, 0)})
        for i in range(500):
            n += 1
            pace(t0 + n / 1000)
            y = top + 40 * ((i // 25) % 2) + (i % 25) * (1.6 if (i // 25) % 2 == 0 else -1.6)
            seq, at = client.send({"type": "move", "event": event(60 + i * 1.7, y, 0.2 + 0.6 * i / 500, n)})
            sent[seq] = at
        seq, _ = client.send({"type": "up"})
        client.wait(seq)
    rate = round(2000 / (time.perf_counter() - t0))
    client.close()
    figures = {"roundTripMs": quantiles([client.answered[s] - t for s, t in sent.items()]), "eventsPerSecond": rate}
    if "--stand-in" not in server.args:
        host = json.loads(server.get("/api/stats"))
        figures["host"] = host["eventToPatchMs"]
        figures["scheduling"] = host["scheduling"]["worker"]
    return figures


def lockstep(server, count=1000):
    """`count` moves one at a time; the server's and its worker's context switches per request."""
    client = Client(server)
    client.ws.send(json.dumps({"type": "brush", "id": "org.bristle.pencil", "color": "#000000", "width": 3, "params": {}}))
    seq, _ = client.send({"type": "down", "pointerType": "pen", "event": event(100, 100, 0.5, 0)})
    client.wait(seq)
    before = server.switches()
    times = []
    for i in range(count):
        seq, at = client.send({"type": "move", "event": event(100 + (i % 400), 100 + (i // 400) * 20, 0.5, i + 1)})
        client.wait(seq)
        times.append(client.answered[seq] - at)
    after = server.switches()
    seq, _ = client.send({"type": "up"})
    client.wait(seq)
    client.close()
    per = lambda a, b: round((a - b) / count, 2)
    return {"roundTripMs": quantiles(times),
            "serverSleeps": per(after[0][0], before[0][0]), "serverPreempted": per(after[0][1], before[0][1]),
            "workerSleeps": per(after[1][0], before[1][0]), "workerPreempted": per(after[1][1], before[1][1]),
            "serverCPUMicroseconds": round((after[2] - before[2]) / count * 1e6)}


def main():
    sys.setswitchinterval(0.0002)  # the reader thread stamps answers without waiting 5 ms for the GIL
    bin_dir = sys.argv[1]
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    out = sys.argv[3] if len(sys.argv) > 3 else "/tmp/bristle-play-host-bench.json"
    ours, floor = Server(bin_dir), Server(bin_dir, "--stand-in")
    results = []
    print("| round | load | scheduling | ours: round trip p50 / p99 | host event-to-patch p50 / p99 | stand-in: round trip p50 / p99 "
          "| lockstep ours / stand-in p50 | server sleeps per request, ours / stand-in | worker sleeps "
          "| server CPU per request, ours / stand-in |")
    print("|---:|---:|---|---|---|---|---|---|---|---|")
    ms = lambda q: f"{q['p50']:.2f} / {q['p99']:.2f} ms"
    try:
        for n in range(1, rounds + 1):
            load = os.getloadavg()[0]
            r = {"load": load, "ours": paced(ours), "standIn": paced(floor),
                 "oursLockstep": lockstep(ours), "standInLockstep": lockstep(floor)}
            results.append(r)
            print(f"| {n} | {load:.1f} | {r['ours']['scheduling']} | {ms(r['ours']['roundTripMs'])} | {ms(r['ours']['host'])} "
                  f"| {ms(r['standIn']['roundTripMs'])} "
                  f"| {r['oursLockstep']['roundTripMs']['p50']:.2f} / {r['standInLockstep']['roundTripMs']['p50']:.2f} ms "
                  f"| {r['oursLockstep']['serverSleeps']} / {r['standInLockstep']['serverSleeps']} "
                  f"| {r['oursLockstep']['workerSleeps']} "
                  f"| {r['oursLockstep']['serverCPUMicroseconds']} / {r['standInLockstep']['serverCPUMicroseconds']} us |", flush=True)
    finally:
        ours.stop()
        floor.stop()
    with open(out, "w") as f:
        json.dump({"rounds": results}, f, indent=2)


if __name__ == "__main__":
    main()
