"""What chat adapters call: put an event on the queue and return at once.

    from workers.enqueue import publish
    publish({"type": "message.created", "profile": "slack:T01", "session_id": "C42:2026-11-16",
             "external_id": "slack:C42:1715172960.000200", "author": "maya",
             "content": "Use pnpm for the dashboard", "ts": "1715172960.000200"})

The event is validated first (InvalidEvent names what is wrong, nothing is sent). With a broker the
call only publishes (a worker stores the event later, at least once); with
LURKER_BROKER_URL=memory:// or LURKER_WORKER_EAGER=true it is stored before the call returns.
"""
from __future__ import annotations

import time

from collections.abc import Iterable
from typing import Any

from kombu import Connection
from kombu.exceptions import BatchPublishError, OperationalError

from memory.errors import LurkerError

from .app import app as default_app
from .broker import EVENTS_QUEUE, REJECTED_QUEUE, is_eager, is_redis
from .events import ChatEvent, InvalidEvent, parse_event

__all__ = ["EventPublisher", "InvalidEvent", "publish", "publish_many"]

PUBLISH_BATCH = 500  # events a Redis pipeline of publish_many carries

EventLike = ChatEvent | dict


class EventPublisher:
    """Sends events to the `lurker.events` queue of `app` (default: workers.app.app)."""

    def __init__(self, app=None, validate: bool = True):
        self.app = app or default_app
        self.validate = validate

    @property
    def eager(self) -> bool:
        return is_eager(self.app.lurker_settings)

    def _payload(self, event: EventLike) -> Any:
        if self.validate or not isinstance(event, dict):
            return parse_event(event).to_json()
        return event

    def publish(self, event: EventLike) -> str:
        """Queue one event; returns the task id. Raises InvalidEvent (nothing sent) or LurkerError
        when the broker cannot be reached."""
        from .tasks import ingest_events

        payload = self._payload(event)
        try:
            return ingest_events.apply_async((payload,), queue=EVENTS_QUEUE, retry=True,
                                             retry_policy={"max_retries": 3},
                                             headers=_stamp(), **_described(payload)).id
        except LurkerError:
            raise
        except (OSError, OperationalError) as exc:
            raise LurkerError(f"cannot queue the event on {self._where()}: {exc} (set "
                              f"LURKER_BROKER_URL, or memory:// to ingest in-process)") from None

    def publish_many(self, events: Iterable[EventLike]) -> list[str]:
        """Queue several events (validated together first: one bad event sends none). Eagerly they
        are stored as one batch."""
        payloads = [self._payload(e) for e in events]
        if not payloads:
            return []
        if self.eager:
            from .tasks import ingest_events

            return [ingest_events.apply(tuple(payloads)).id] * len(payloads)
        ids = []
        with self.app.producer_or_acquire() as producer:
            from .tasks import ingest_events

            errors = (OSError, OperationalError, BatchPublishError,
                      *producer.connection.connection_errors)
            try:
                # kombu's publish batch: Redis gets the events in pipelines of PUBLISH_BATCH
                # instead of one round trip each (a third of publishing an event, profiled)
                with producer.batch(max_size=PUBLISH_BATCH):
                    for payload in payloads:
                        ids.append(ingest_events.apply_async((payload,), queue=EVENTS_QUEUE,
                                                             producer=producer, headers=_stamp(),
                                                             **_described(payload)).id)
            except errors as exc:
                raise LurkerError(f"cannot queue events on {self._where()} (of {len(payloads)}, "
                                  f"the pipelines of {PUBLISH_BATCH} before the failure were "
                                  f"sent): {exc}") from None
        return ids

    def take_rejected(self, limit: int = 100) -> list[dict]:
        """Remove and return up to `limit` records of rejected events ({"reason", "event",
        "rejected_at"}) from the lurker.events.rejected queue."""
        out: list[dict] = []
        with self.app.connection_for_read() as conn:
            queue = conn.SimpleQueue(REJECTED_QUEUE, serializer="json")
            try:
                while len(out) < limit:
                    try:
                        message = queue.get(block=False)
                    except queue.Empty:
                        break
                    out.append(message.payload)
                    message.ack()
            finally:
                queue.close()
        return out

    def check(self) -> tuple[bool, str]:
        """(reachable, detail): whether the broker answers now (readiness probes)."""
        if self.eager:
            return True, "in-process (no broker)"
        try:
            if is_redis(self._url()):
                client = self._redis()
                try:
                    client.ping()
                finally:
                    client.close()
            else:
                with self.app.connection_for_write() as conn:
                    conn.ensure_connection(max_retries=1, timeout=2)
            return True, self._where()
        except Exception as exc:  # any failure means not ready; the reason goes in the detail
            return False, f"{self._where()}: {type(exc).__name__}: {exc}"[:300]

    def queue_lengths(self) -> dict[str, int]:
        """{queue name: events waiting} on a Redis broker (empty otherwise)."""
        if self.eager or not is_redis(self._url()):
            return {}
        client = self._redis()
        try:
            return {EVENTS_QUEUE: int(client.llen(EVENTS_QUEUE))}
        finally:
            client.close()

    def _url(self) -> str:
        return self.app.conf.broker_url or ""

    def _redis(self):
        import redis

        return redis.Redis.from_url(self._url(), socket_timeout=2, socket_connect_timeout=2)

    def _where(self) -> str:
        url = self._url()
        return Connection(url).as_uri() if url else "the broker"


_default: EventPublisher | None = None


def _stamp() -> dict:
    """The publication time, for the worker's queue-lag metric."""
    from .metrics import PUBLISHED_HEADER

    return {PUBLISHED_HEADER: time.time()}


def _described(payload: Any) -> dict:
    """How the task's arguments show in its headers (Flower, `celery inspect`, worker logs): the
    event's kind and address, never what was said. (Celery would put a repr of the whole event
    there, message text included, and computing it cost a third of publishing.)"""
    if not isinstance(payload, dict):
        return {}
    address = " ".join(str(payload.get(k)) for k in ("type", "profile", "external_id")
                       if payload.get(k) is not None)
    return {"argsrepr": f"({address[:200]!r},)", "kwargsrepr": "{}"}


def _publisher() -> EventPublisher:
    global _default
    if _default is None:
        _default = EventPublisher()
    return _default


def publish(event: EventLike) -> str:
    """Queue one event on the default app (see EventPublisher.publish)."""
    return _publisher().publish(event)


def publish_many(events: Iterable[EventLike]) -> list[str]:
    return _publisher().publish_many(events)
