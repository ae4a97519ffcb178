"""A small HTTP server on 127.0.0.1 that speaks the Anthropic Messages API (`POST /v1/messages`).

Tests point our real LLMClient (the `anthropic` SDK underneath) at it, so request building, retries,
error handling and reply parsing are all exercised over a real socket. The "model" is a function the
test supplies: it gets the parsed request body and returns either reply text, or a `Fail` (an HTTP
error status with optional headers). Every request is recorded, with its headers, and the peak number
of requests in flight is tracked (to check concurrency limits).
"""
from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Callable


@dataclass
class Fail:
    status: int
    message: str = "simulated failure"
    headers: dict[str, str] = field(default_factory=dict)


@dataclass
class Recorded:
    path: str
    headers: dict[str, str]  # names lower-cased
    body: dict

    @property
    def system_text(self) -> str:
        system = self.body.get("system")
        if isinstance(system, list):
            return "".join(block.get("text", "") for block in system)
        return system or ""

    @property
    def user_text(self) -> str:
        """The first user turn's text."""
        content = self.body["messages"][0]["content"]
        if isinstance(content, list):
            return "".join(block.get("text", "") for block in content)
        return content


Responder = Callable[[dict], "str | Fail"]


class FakeAnthropic:
    def __init__(self, responder: Responder, delay_s: float = 0.0):
        self.responder = responder
        self.delay_s = delay_s
        self.requests: list[Recorded] = []
        self.in_flight = 0
        self.peak_in_flight = 0
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler_class())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def __enter__(self) -> FakeAnthropic:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._server.shutdown()
        self._server.server_close()

    def requests_with(self, system_fragment: str) -> list[Recorded]:
        return [r for r in self.requests if system_fragment in r.system_text]

    def _handler_class(self):
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:  # keep pytest output clean
                pass

            def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
                length = int(self.headers.get("content-length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                with fake._lock:
                    fake.requests.append(Recorded(self.path, {k.lower(): v for k, v in self.headers.items()}, body))
                    fake.in_flight += 1
                    fake.peak_in_flight = max(fake.peak_in_flight, fake.in_flight)
                try:
                    if fake.delay_s:
                        time.sleep(fake.delay_s)
                    if self.path.split("?")[0] != "/v1/messages":
                        return self._send(404, {"type": "error", "error": {
                            "type": "not_found_error", "message": f"no route {self.path}"}})
                    outcome = fake.responder(body)
                    if isinstance(outcome, Fail):
                        return self._send(outcome.status, {"type": "error", "error": {
                            "type": "api_error", "message": outcome.message}}, outcome.headers)
                    self._send(200, message_json(body, outcome))
                finally:
                    with fake._lock:
                        fake.in_flight -= 1

            def _send(self, status: int, payload: dict, headers: dict | None = None) -> None:
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.send_header("request-id", f"req_fake_{len(fake.requests)}")
                for name, value in (headers or {}).items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(data)

        return Handler


def message_json(request: dict, text: str) -> dict:
    """A Messages API reply; cache usage mimics the real API (a cached system prompt is written on
    the first call and read on later ones)."""
    system = request.get("system")
    cached = isinstance(system, list) and any("cache_control" in b for b in system)
    return {
        "id": "msg_fake", "type": "message", "role": "assistant", "model": request.get("model"),
        "content": [{"type": "text", "text": text}], "stop_reason": "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": 100, "output_tokens": max(1, len(text) // 4),
                  "cache_creation_input_tokens": 0, "cache_read_input_tokens": 900 if cached else 0},
    }
