"""Where the lurkers put what they see: an EventSink takes workers.events events.

- QueueSink: the default with a broker; publishes through workers.enqueue (a worker stores them).
- InProcessSink: applies the events to the engine before `publish` returns; the embedded default
  (SQLite, no Redis), `lurker chat`, and tests.

`make_sink` picks one: `queue` or `inprocess` as configured, or `auto`: the queue when the store is
Elasticsearch (a shared deployment with workers), in-process for the embedded SQLite store.
"""
from __future__ import annotations

import contextlib
import json
import logging
import os
import threading
from abc import ABC, abstractmethod
from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from memory.config import Settings
from memory.errors import LurkerError
from workers.events import InvalidEvent, MessageCreated, MessageDeleted, MessageEdited, parse_event

log = logging.getLogger("lurker.bot")
SPOOL_BATCH = 500  # spooled events handed on per publish call

Event = MessageCreated | MessageEdited | MessageDeleted


@dataclass
class SinkReport:
    published: int = 0
    messages_new: int = 0  # in-process only: what the engine stored
    messages_skipped: int = 0
    edits: int = 0
    deletes: int = 0
    stale: int = 0  # edits older than the stored text, creates/edits of deleted messages


class EventSink(ABC):
    #: True when the events are in the store once publish() returns
    synchronous: bool = False

    @abstractmethod
    def publish(self, events: Sequence[Event | dict]) -> SinkReport:
        """Validate and hand on the events; InvalidEvent (nothing handed on) if one is malformed."""

    @contextlib.contextmanager
    def writing(self, profile: str) -> Iterator[None]:
        """Held around admin writes (forget, purge) so they do not interleave with ingestion."""
        yield

    def close(self) -> None:
        pass


class QueueSink(EventSink):
    """Publishes to the `lurker.events` queue through workers.enqueue (LURKER_BROKER_URL).

    When the broker cannot be reached, nothing is lost: the events wait in a spool (a JSON-lines
    file when `spool` is given, flushed and fsync'd per write, else memory) and a background thread
    hands them on, oldest first, once the broker answers again. Events arriving meanwhile queue
    behind them, so a message's edit never overtakes it. An outage in the middle of a send may
    resend some events: worker writes are idempotent, so that changes nothing."""

    def __init__(self, publisher=None, spool: str | Path | None = None,
                 retry_max_s: float = 30.0):
        if publisher is None:
            from workers.enqueue import EventPublisher

            publisher = EventPublisher()
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

    def publish(self, events: Sequence[Event | dict]) -> SinkReport:
        parsed = [parse_event(e) for e in events]
        if not parsed:
            return SinkReport()
        with self._lock:
            if not self._waiting:
                try:
                    self.publisher.publish_many(parsed)
                    return SinkReport(published=len(parsed))
                except LurkerError as exc:  # the broker is away: spool, retry in the background
                    log.warning("broker unreachable, spooling %d events: %s", len(parsed), exc)
            self._spool([e.model_dump(mode="json") for e in parsed])
            self._start_drain()
        return SinkReport(published=len(parsed))

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
    """Applies events straight to the engine, the way a worker batch does: per profile, creates
    (one ingest per conversation) before edits (the newest per message; one older than the stored
    text is skipped) before deletes; a deleted message is not brought back by a late create or edit
    seen by this process. One profile is written by one thread at a time."""

    synchronous = True

    def __init__(self, service):
        self.service = service
        self._guard = threading.Lock()
        self._locks: dict[str, threading.RLock] = {}
        self._deleted: set[tuple[str, str]] = set()

    def _lock(self, profile: str) -> threading.RLock:
        with self._guard:
            return self._locks.setdefault(profile, threading.RLock())

    @contextlib.contextmanager
    def writing(self, profile: str) -> Iterator[None]:
        with self._lock(profile):
            yield

    def publish(self, events: Sequence[Event | dict]) -> SinkReport:
        parsed = [parse_event(e) for e in events]
        report = SinkReport(published=len(parsed))
        by_profile: dict[str, list[Event]] = defaultdict(list)
        for event in parsed:
            by_profile[event.profile].append(event)
        for name, items in by_profile.items():
            with self.writing(name):
                self._apply(self.service.profile(name), items, report)
        return report

    def _apply(self, profile, events: list[Event], report: SinkReport) -> None:
        deleted = {e.external_id for e in events if isinstance(e, MessageDeleted)}
        with self._guard:
            gone = deleted | {x for p, x in self._deleted if p == profile.name}
        sessions: dict[str, dict[str, MessageCreated]] = defaultdict(dict)
        edits: dict[str, MessageEdited] = {}
        for event in events:
            if isinstance(event, MessageDeleted):
                continue
            if event.external_id in gone:
                report.stale += 1
            elif isinstance(event, MessageCreated):
                sessions[event.session_id].setdefault(event.external_id, event)
            else:
                seen = edits.get(event.external_id)
                if seen is None or (event.ts or _MIN) >= (seen.ts or _MIN):
                    edits[event.external_id] = event
        for session_id, creates in sorted(sessions.items(),
                                          key=lambda kv: min(e.ts for e in kv[1].values())):
            ordered = sorted(creates.values(), key=lambda e: e.ts)
            result = profile.ingest([e.message() for e in ordered], session_id)
            report.messages_new += result.messages_new
            report.messages_skipped += result.messages_skipped
        stored = (self.service.store.find_messages_by_external_id(profile.name, list(edits))
                  if edits else {})
        for external_id, event in edits.items():
            old = stored.get(external_id)
            if old is not None and event.ts is not None and event.ts < old.ts:
                report.stale += 1
                continue
            profile.edit_message(external_id, event.content, ts=event.ts,
                                 session_id=event.session_id, role=event.role,
                                 author=event.author)
            report.edits += 1
        if deleted:
            with self._guard:
                self._deleted |= {(profile.name, x) for x in deleted}
        for external_id in sorted(deleted):
            profile.delete_message(external_id)
            report.deletes += 1


def _min_ts():
    from datetime import datetime, timezone

    return datetime.min.replace(tzinfo=timezone.utc)


_MIN = _min_ts()


def make_sink(kind: str, service, settings: Settings) -> EventSink:
    """`queue`, `inprocess`, or `auto` (queue for an Elasticsearch store, else in-process)."""
    if kind == "auto":
        kind = "queue" if settings.store.lower().startswith(("http://", "https://")) \
            else "inprocess"
    if kind == "queue":
        return QueueSink(spool=settings.event_spool)
    if kind == "inprocess":
        return InProcessSink(service)
    raise ValueError(f"unknown sink {kind!r}: use auto, queue or inprocess")


__all__ = ["EventSink", "InProcessSink", "InvalidEvent", "QueueSink", "SinkReport", "make_sink"]
