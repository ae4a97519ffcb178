"""Where chat events go: an EventSink takes workers.events events, from the chat lurkers (bot/)
and the REST API's ingest route alike.

- QueueSink: with a broker; publishes through workers.enqueue (a worker stores them later), and
  keeps them in a spool while the broker is away.
- InProcessSink: applies the events to the engine before `publish` returns, by the same rules a
  worker applies (workers/rules.py); the embedded default (SQLite, no Redis), `lurker chat`, a
  broker of memory://, and tests.

`make_sink` picks one: `queue` or `inprocess` as configured, or `auto`: the queue when the store is
Elasticsearch (a shared deployment with workers), in-process for the embedded SQLite store. A
queue without a broker (LURKER_BROKER_URL=memory:// or LURKER_WORKER_EAGER) is in-process.
"""
from __future__ import annotations

import contextlib
import json
import logging
import os
import threading
from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from memory.config import Settings
from memory.errors import LurkerError

from .app import configure
from .broker import is_eager
from .coordination import Coordination
from .enqueue import EventPublisher
from .events import ChatEvent, InvalidEvent, parse_event
from .rules import Applied, Collected, apply_events

log = logging.getLogger("lurker.sinks")
SPOOL_BATCH = 500  # spooled events handed on per publish call


@dataclass
class SinkReport(Applied):
    """What publish did: the events handed on and each one's outcome ("queued"; in-process "done"
    or "rejected", with the engine's reason in `rejected`), and in-process what the engine stored
    (the counts of workers.rules.Applied)."""

    published: int = 0
    outcomes: list[str] = field(default_factory=list)
    rejected: list[dict] = field(default_factory=list)  # {"index", "reason", "event"}


class EventSink(ABC):
    #: True when the events are in the store once publish() returns
    synchronous: bool = False

    @abstractmethod
    def publish(self, events: Sequence[ChatEvent | dict]) -> SinkReport:
        """Validate and hand on the events; InvalidEvent (nothing handed on) if one is malformed."""

    @property
    def mode(self) -> str:
        """"applied" (stored when publish returns) or "queued" (a worker stores them later)."""
        return "applied" if self.synchronous else "queued"

    @contextlib.contextmanager
    def writing(self, profile: str) -> Iterator[None]:
        """Held around admin writes (forget, purge) so they do not interleave with ingestion."""
        yield

    def check(self) -> tuple[bool, str]:
        """(ready, detail) for readiness probes: whether events can be handed on now."""
        return True, "in-process (no broker)"

    def queue_lengths(self) -> dict[str, int]:
        """{queue name: events waiting} for metrics (empty when there is no queue)."""
        return {}

    def close(self) -> None:
        pass


class QueueSink(EventSink):
    """Publishes to the `lurker.events` queue through workers.enqueue (LURKER_BROKER_URL).

    When the broker cannot be reached, nothing is lost: the events wait in a spool (a JSON-lines
    file when `spool` is given, flushed and fsync'd per write, else memory) and a background thread
    hands them on, oldest first, once the broker answers again. Events arriving meanwhile queue
    behind them, so a message's edit never overtakes it. An outage in the middle of a send may
    resend some events: worker writes are idempotent, so that changes nothing."""

    def __init__(self, publisher: EventPublisher | None = None, spool: str | Path | None = None,
                 retry_max_s: float = 30.0):
        publisher = publisher or EventPublisher()
        self.publisher = publisher
        self.retry_max_s = retry_max_s
        self._spool_path = Path(spool) if spool else None
        self._lock = threading.Lock()
        self._drained = threading.Condition(self._lock)
        self._waiting: list[dict] = self._read_spool()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        if self._waiting:
            log.warning("%d events from an earlier run wait in %s", len(self._waiting),
                        self._spool_path)
            self._start_drain()

    @property
    def synchronous(self) -> bool:  # memory:// or LURKER_WORKER_EAGER store before returning
        return bool(getattr(self.publisher, "eager", False))

    @property
    def waiting(self) -> int:
        """Events spooled while the broker was away, not handed on yet."""
        with self._lock:
            return len(self._waiting)

    def check(self) -> tuple[bool, str]:
        return self.publisher.check()

    def queue_lengths(self) -> dict[str, int]:
        return self.publisher.queue_lengths()

    def publish(self, events: Sequence[ChatEvent | dict]) -> SinkReport:
        parsed = [parse_event(e) for e in events]
        if not parsed:
            return SinkReport()
        report = SinkReport(published=len(parsed), outcomes=["queued"] * len(parsed))
        with self._lock:
            if not self._waiting:
                try:
                    self.publisher.publish_many(parsed)
                    return report
                except LurkerError as exc:  # the broker is away: spool, retry in the background
                    log.warning("broker unreachable, spooling %d events: %s", len(parsed), exc)
            self._spool([e.model_dump(mode="json") for e in parsed])
            self._start_drain()
        return report

    def wait_drained(self, timeout: float) -> bool:
        """Block until the spool is empty (tests, shutdown); False on timeout."""
        with self._lock:
            return self._drained.wait_for(lambda: not self._waiting, timeout)

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(10)

    # --- the spool ------------------------------------------------------------------------
    def _read_spool(self) -> list[dict]:
        """What an earlier run left. A line that is not a valid event (a write cut by a crash, a
        hand edit) is set aside in `<spool>.rejected` with a logged error, not retried forever."""
        if self._spool_path is None or not self._spool_path.exists():
            return []
        events, rejected = [], []
        for line in self._spool_path.read_text(encoding="utf-8", errors="replace").splitlines():
            if not line.strip():
                continue
            try:
                events.append(parse_event(json.loads(line)).model_dump(mode="json"))
            except (ValueError, InvalidEvent) as exc:
                rejected.append(line)
                log.error("spooled event set aside (%s): %.200s", exc, line)
        if rejected:
            with open(self._spool_path.with_suffix(".rejected"), "a", encoding="utf-8") as f:
                f.writelines(line + "\n" for line in rejected)
            self._rewrite_spool(events)
        return events

    def _spool(self, events: list[dict]) -> None:
        self._waiting += events
        if self._spool_path is not None:
            self._spool_path.parent.mkdir(parents=True, exist_ok=True)
            with open(self._spool_path, "a", encoding="utf-8") as f:
                f.writelines(json.dumps(e) + "\n" for e in events)
                f.flush()
                os.fsync(f.fileno())

    def _rewrite_spool(self, events: list[dict]) -> None:
        """The spool file holds exactly `events` (gone when there are none); atomic."""
        if self._spool_path is None:
            return
        if not events:
            self._spool_path.unlink(missing_ok=True)
            return
        tmp = self._spool_path.with_suffix(".tmp")
        tmp.write_text("".join(json.dumps(e) + "\n" for e in events), encoding="utf-8")
        os.replace(tmp, self._spool_path)

    def _start_drain(self) -> None:
        if self._thread is None or not self._thread.is_alive():
            self._thread = threading.Thread(target=self._drain, name="lurker-spool", daemon=True)
            self._thread.start()

    def _drain(self) -> None:
        delay = 0.5
        while not self._stop.is_set():
            with self._lock:
                batch = self._waiting[:SPOOL_BATCH]
                if not batch:
                    self._drained.notify_all()
                    return
                try:
                    self.publisher.publish_many(batch)
                except LurkerError as exc:
                    log.info("broker still unreachable (%s); %d events wait", exc,
                             len(self._waiting))
                else:
                    del self._waiting[:len(batch)]
                    self._rewrite_spool(self._waiting)
                    log.info("handed on %d spooled events, %d still wait", len(batch),
                             len(self._waiting))
                    delay = 0.5
                    continue
            self._stop.wait(delay)
            delay = min(self.retry_max_s, delay * 2)


class InProcessSink(EventSink):
    """Applies events straight to the engine before `publish` returns, by the same event rules as
    a worker batch (workers/rules.py): per profile, creates before the newest edit of each message
    before deletes; a deleted message leaves a tombstone in this process, so a late create or edit
    does not bring it back. One profile is written by one thread at a time; an event the engine
    refuses is logged and reported in `rejected`, the others are applied."""

    synchronous = True

    def __init__(self, service, coordination: Coordination | None = None):
        self.service = service
        self.coordination = coordination or Coordination()

    @contextlib.contextmanager
    def writing(self, profile: str) -> Iterator[None]:
        with self.coordination.lock(profile, None):
            yield

    def publish(self, events: Sequence[ChatEvent | dict]) -> SinkReport:
        parsed = [parse_event(e) for e in events]
        report = SinkReport(published=len(parsed), outcomes=["done"] * len(parsed))
        collected = Collected()
        apply_events(self.service, list(enumerate(parsed)), self.coordination, report, collected)
        for index, reason in sorted(collected.failed.items()):
            report.outcomes[index] = "rejected"
            report.rejected.append({"index": index, "reason": reason,
                                    "event": parsed[index].to_json()})
        return report


def make_sink(kind: str, service, settings: Settings) -> EventSink:
    """`queue`, `inprocess`, or `auto` (queue for an Elasticsearch store, else in-process). The
    queue publishes on the module-level Celery app, configured with `settings`; without a broker
    (memory://) the events are applied in-process on `service`."""
    if kind == "auto":
        kind = "queue" if settings.store.lower().startswith(("http://", "https://")) \
            else "inprocess"
    if kind == "queue" and is_eager(settings):
        kind = "inprocess"
    if kind == "queue":
        return QueueSink(EventPublisher(configure(settings)), spool=settings.event_spool)
    if kind == "inprocess":
        return InProcessSink(service)
    raise ValueError(f"unknown sink {kind!r}: use auto, queue or inprocess")


__all__ = ["EventSink", "InProcessSink", "InvalidEvent", "QueueSink", "SinkReport", "make_sink"]
