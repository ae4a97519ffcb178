"""A loopback Socket Mode endpoint: the WebSocket server Slack's apps.connections.open points an app
to. It greets the client with `hello`, sends the envelopes a test hands it, and records the
acknowledgements the client sends back ({"envelope_id": ...}), as Slack does."""
from __future__ import annotations

import asyncio
import json
import threading
import time

from aiohttp import WSMsgType, web


class FakeSocketMode:
    def __init__(self) -> None:
        self.acks: list[dict] = []
        self.connections = 0
        self._loop = asyncio.new_event_loop()
        self._outbox: asyncio.Queue | None = None
        self._runner: web.AppRunner | None = None
        self.port = 0

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/link/?ticket=test-ticket&app_id=A1"

    def start(self) -> FakeSocketMode:
        started = threading.Event()
        threading.Thread(target=self._run, args=(started,), daemon=True).start()
        if not started.wait(10):
            raise RuntimeError("the fake Socket Mode server did not start")
        return self

    def _run(self, started: threading.Event) -> None:
        asyncio.set_event_loop(self._loop)
        self._outbox = asyncio.Queue()
        app = web.Application()
        app.router.add_get("/link/", self._socket)
        self._runner = web.AppRunner(app)
        self._loop.run_until_complete(self._runner.setup())
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        self._loop.run_until_complete(site.start())
        self.port = site._server.sockets[0].getsockname()[1]
        started.set()
        self._loop.run_forever()

    async def _socket(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(autoping=True)
        await ws.prepare(request)
        self.connections += 1
        await ws.send_str(json.dumps({"type": "hello", "num_connections": 1,
                                      "connection_info": {"app_id": "A1"},
                                      "debug_info": {"host": "fake"}}))

        async def forward() -> None:
            while not ws.closed:
                await ws.send_str(json.dumps(await self._outbox.get()))
        sender = asyncio.ensure_future(forward())
        try:
            async for message in ws:
                if message.type == WSMsgType.TEXT:
                    self.acks.append(json.loads(message.data))
        finally:
            sender.cancel()
        return ws

    def send(self, envelope: dict) -> None:
        """Hand the connected client one envelope (events_api, slash_commands, interactive)."""
        self._loop.call_soon_threadsafe(self._outbox.put_nowait, envelope)

    def wait_ack(self, envelope_id: str, timeout: float = 20) -> dict:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for ack in self.acks:
                if ack.get("envelope_id") == envelope_id:
                    return ack
            time.sleep(0.02)
        raise AssertionError(f"no ack for envelope {envelope_id}; got {self.acks}")

    def stop(self) -> None:
        if self._runner is not None:
            asyncio.run_coroutine_threadsafe(self._runner.cleanup(), self._loop).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)
