"""Where an adapter runs the core's blocking calls, so its platform listener returns at once (Slack
wants its acknowledgement within 3 s; Discord's event loop must not block):

- ingestion (messages, edits, deletes, history pages) on one thread, in the order the platform
  delivered it, so an edit or a delete never overtakes its message;
- requests (questions, admin commands, confirmations) on a small pool, each after the ingestion
  handed in before it, so an answer sees what was said just before the question; requests of one
  conversation run in the order they came (two people reacting to one confirmation are answered
  in the order they reacted), those of different conversations side by side.

Both return concurrent futures (an asyncio adapter awaits them with asyncio.wrap_future); a call
that raises is logged with its name. `drain` waits for what was handed in so far."""
from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

log = logging.getLogger("lurker.bot")

INGESTION_WAIT_S = 60.0  # a request waits this long for the ingestion handed in before it


class Lanes:
    def __init__(self, platform: str, request_threads: int = 4):
        self._ingest = ThreadPoolExecutor(1, thread_name_prefix=f"lurker-{platform}-ingest")
        self._requests = ThreadPoolExecutor(request_threads,
                                            thread_name_prefix=f"lurker-{platform}-request")
        self._jobs: list[Future] = []
        self._last: dict[str, Future] = {}  # each conversation's latest request
        self._lock = threading.Lock()

    def ingest(self, fn: Callable, *args: Any, **kwargs: Any) -> Future:
        return self._track(self._ingest.submit(_logged, fn, *args, **kwargs))

    def request(self, fn: Callable, *args: Any, conversation: str | None = None,
                **kwargs: Any) -> Future:
        before = self._ingest.submit(_nothing)
        with self._lock:
            previous = self._last.get(conversation) if conversation else None

            def in_turn() -> Any:
                before.result(timeout=INGESTION_WAIT_S)
                if previous is not None:  # submitted earlier to this FIFO pool: never a deadlock
                    previous.exception()
                return fn(*args, **kwargs)
            in_turn.__name__ = getattr(fn, "__name__", "request")
            future = self._requests.submit(_logged, in_turn)
            if conversation:
                self._last = {k: f for k, f in self._last.items() if not f.done()}
                self._last[conversation] = future
        return self._track(future)

    def _track(self, future: Future) -> Future:
        with self._lock:
            self._jobs = [j for j in self._jobs if not j.done()] + [future]
        return future

    def drain(self, timeout: float = 30.0) -> None:
        """Wait for the work handed in so far (tests, shutdown); jobs may hand in others."""
        deadline = time.monotonic() + timeout
        while True:
            with self._lock:
                pending = [j for j in self._jobs if not j.done()]
            if not pending:
                return
            for job in pending:
                job.exception(timeout=max(0.0, deadline - time.monotonic()))

    def close(self, wait: bool = True) -> None:
        self._requests.shutdown(wait=wait)
        self._ingest.shutdown(wait=wait)


def _logged(fn: Callable, *args: Any, **kwargs: Any) -> Any:
    try:
        return fn(*args, **kwargs)
    except Exception:
        log.exception("chat handler %s failed", getattr(fn, "__name__", fn))
        raise


def _nothing() -> None:
    pass
