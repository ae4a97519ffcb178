"""Where POST .../ingest puts messages: the workers' event queue.

`IngestSink` is the small interface the API needs; `WorkerSink` is the real one, over
workers.enqueue.EventPublisher: with a broker the events are published and a worker stores them
later (202 means queued); with LURKER_BROKER_URL=memory:// or LURKER_WORKER_EAGER=true the same
task code runs in-process, on the API's own engine, before the call returns.
"""
from __future__ import annotations

from typing import Protocol

from ..config import Settings


class IngestSink(Protocol):
    mode: str  # "queued" (a worker applies the events later) or "applied" (done in-process)

    def submit(self, events: list[dict]) -> list[str]:
        """Queue message.created events (validated together: one bad event sends none)."""

    def check(self) -> tuple[bool, str]:
        """(reachable, detail) for /readyz."""

    def queue_lengths(self) -> dict[str, int]:
        """{queue name: events waiting} for /metrics (empty when there is no queue)."""


class WorkerSink:
    def __init__(self, settings: Settings, service=None):
        from workers import app as worker_app
        from workers.enqueue import EventPublisher

        self.settings = settings
        worker_app.configure(settings)  # the module-level Celery app publishes the tasks
        self.eager = worker_app.is_eager(settings)
        if self.eager and service is not None:
            from workers.tasks import runtime

            runtime.reset(settings, service=service)  # in-process: apply on the API's engine
        self.publisher = EventPublisher(worker_app.app)
        self.mode = "applied" if self.eager else "queued"
        self._queue = worker_app.EVENTS_QUEUE

    def submit(self, events: list[dict]) -> list[str]:
        return self.publisher.publish_many(events)

    def _redis(self):
        import redis

        return redis.Redis.from_url(self.settings.broker_url, socket_timeout=2,
                                    socket_connect_timeout=2)

    def _is_redis(self) -> bool:
        return self.settings.broker_url.startswith(("redis://", "rediss://", "unix://"))

    def check(self) -> tuple[bool, str]:
        if self.eager:
            return True, "in-process (no broker)"
        try:
            if self._is_redis():
                client = self._redis()
                try:
                    client.ping()
                finally:
                    client.close()
            else:
                with self.publisher.app.connection_for_write() as conn:
                    conn.ensure_connection(max_retries=1, timeout=2)
            return True, self.publisher._where()
        except Exception as exc:  # any failure means not ready; the reason goes in the body
            return False, f"{self.publisher._where()}: {type(exc).__name__}: {exc}"[:300]

    def queue_lengths(self) -> dict[str, int]:
        if self.eager or not self._is_redis():
            return {}
        client = self._redis()
        try:
            return {self._queue: int(client.llen(self._queue))}
        finally:
            client.close()
