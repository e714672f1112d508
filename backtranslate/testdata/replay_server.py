#!/usr/bin/env python3
"""Replay server for backtranslate tests: speaks just enough of the OpenAI chat-completions
protocol and replays canned answers. Listens on 127.0.0.1 only, on a free port it writes to
--port-file, and exits by itself after --idle seconds without requests or on GET /shutdown.

The scenario is the first path segment: POST /<scenario>[-<tag>]/v1/chat/completions.
A distinct tag gives a fresh request counter (tests use one per test case).

  valid      the canned IR (testdata/valid_ir.json) as message content
  malformed  content that is not JSON
  schema     JSON that violates the schema
  slow       waits 3 s, then answers like valid
  flaky      HTTP 500 on the first request of the tag, then valid
  ratelimit  HTTP 429 with Retry-After: 1 on the first request of the tag, then valid
  truncated  half an answer with finish_reason "length"
  denied     HTTP 401 whose body echoes the Authorization header (the client must redact it)
  badrequest HTTP 400, never retried
  busy       waits 0.3 s, then valid (concurrency tests)
  notjson    a 200 whose body is not JSON at all

GET /stats/<scenario-tag> returns {"count", "max_in_flight", "last_authorization", "last_body"}.
"""
import argparse
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

HERE = os.path.dirname(os.path.abspath(__file__))


class State:
    def __init__(self):
        self.lock = threading.Lock()
        self.stats = {}
        self.in_flight = {}
        self.last_activity = time.monotonic()

    def touch(self):
        with self.lock:
            self.last_activity = time.monotonic()

    def begin(self, tag, auth, body):
        with self.lock:
            s = self.stats.setdefault(tag, {"count": 0, "max_in_flight": 0,
                                            "last_authorization": None, "last_body": None})
            s["count"] += 1
            s["last_authorization"] = auth
            s["last_body"] = body
            self.in_flight[tag] = self.in_flight.get(tag, 0) + 1
            s["max_in_flight"] = max(s["max_in_flight"], self.in_flight[tag])
            return s["count"]

    def end(self, tag):
        with self.lock:
            self.in_flight[tag] -= 1


STATE = State()
with open(os.path.join(HERE, "valid_ir.json"), encoding="utf-8") as f:
    VALID_IR = f.read()


def completion(content, finish="stop"):
    return {
        "id": "chatcmpl-replay",
        "object": "chat.completion",
        "created": 0,
        "model": "replay",
        "choices": [{"index": 0, "finish_reason": finish,
                     "message": {"role": "assistant", "content": content}}],
        "usage": {"prompt_tokens": 1234, "completion_tokens": 321, "total_tokens": 1555},
    }


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):  # quiet: ctest output stays readable
        pass

    def send(self, status, payload, headers=None, raw=None):
        # Leave the in-flight count before the client can see the answer; otherwise its next
        # request may arrive while this one still counts, and max_in_flight over-reports.
        self.leave_in_flight()
        data = raw if raw is not None else json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        try:
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (timeout tests)

    def do_GET(self):
        STATE.touch()
        parts = self.path.strip("/").split("/")
        if parts[0] == "shutdown":
            self.send(200, {"ok": True})
            threading.Thread(target=self.server.shutdown, daemon=True).start()
            return
        if parts[0] == "stats" and len(parts) == 2:
            with STATE.lock:
                s = dict(STATE.stats.get(parts[1], {"count": 0, "max_in_flight": 0,
                                                    "last_authorization": None,
                                                    "last_body": None}))
            self.send(200, s)
            return
        self.send(404, {"error": {"message": "not found"}})

    def do_POST(self):
        STATE.touch()
        length = int(self.headers.get("Content-Length", "0"))
        raw = self.rfile.read(length)
        parts = self.path.strip("/").split("/")
        if len(parts) < 3 or parts[-2:] != ["chat", "completions"]:
            self.send(404, {"error": {"message": "not found"}})
            return
        try:
            body = json.loads(raw)
        except ValueError:
            self.send(400, {"error": {"message": "request is not JSON"}})
            return
        tag = parts[0]
        scenario = tag.split("-")[0]
        n = STATE.begin(tag, self.headers.get("Authorization"), body)
        self.in_flight_tag = tag
        try:
            self.answer(scenario, n)
        finally:
            self.leave_in_flight()
            STATE.touch()

    def leave_in_flight(self):
        tag = getattr(self, "in_flight_tag", None)
        if tag is not None:
            self.in_flight_tag = None
            STATE.end(tag)

    def answer(self, scenario, n):
        if scenario == "valid":
            self.send(200, completion(VALID_IR))
        elif scenario == "malformed":
            self.send(200, completion('{"picture": {"x": null, "y": [0, 1]'
                                      ' this is not json'))
        elif scenario == "schema":
            bad = json.loads(VALID_IR)
            bad["segments"][0]["from"] = [1]           # minItems
            bad["circles"][0]["radius"] = -2           # minimum
            bad["extra"] = True                        # additionalProperties
            del bad["clips"]                           # required
            self.send(200, completion(json.dumps(bad)))
        elif scenario == "slow":
            time.sleep(3)
            self.send(200, completion(VALID_IR))
        elif scenario == "flaky":
            if n == 1:
                self.send(500, {"error": {"message": "internal server error"}})
            else:
                self.send(200, completion(VALID_IR))
        elif scenario == "ratelimit":
            if n == 1:
                self.send(429, {"error": {"message": "rate limited"}}, {"Retry-After": "1"})
            else:
                self.send(200, completion(VALID_IR))
        elif scenario == "truncated":
            self.send(200, completion(VALID_IR[: len(VALID_IR) // 2], finish="length"))
        elif scenario == "denied":
            auth = self.headers.get("Authorization") or ""
            self.send(401, {"error": {"message": "invalid api key: " + auth}})
        elif scenario == "badrequest":
            self.send(400, {"error": {"message": "bad request"}})
        elif scenario == "busy":
            time.sleep(0.3)
            self.send(200, completion(VALID_IR))
        elif scenario == "notjson":
            self.send(200, None, raw=b"<html>gateway says hello</html>")
        else:
            self.send(404, {"error": {"message": "unknown scenario " + scenario}})


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port-file", required=True)
    ap.add_argument("--idle", type=float, default=60.0)
    args = ap.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    port = server.server_address[1]
    tmp = args.port_file + ".tmp"
    with open(tmp, "w") as f:
        f.write(str(port))
    os.replace(tmp, args.port_file)  # the test polls for the file; never see it half-written

    def watchdog():
        while True:
            time.sleep(0.5)
            with STATE.lock:
                idle = time.monotonic() - STATE.last_activity
            if idle > args.idle:
                server.shutdown()
                return

    threading.Thread(target=watchdog, daemon=True).start()
    server.serve_forever()
    server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
