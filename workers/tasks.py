"""Batched ingestion: a worker takes up to LURKER_BATCH_SIZE events (or what came within
LURKER_BATCH_INTERVAL_S), groups them by profile and conversation, and writes each group with one
engine call.

Why not the `celery-batches` package: its releases pin `celery<5.7` (0.11 requires
`celery>=5.0,<5.7`), so it cannot be installed beside the Celery 5.7 this project uses, and its
flush acknowledges late-acked requests when the batch *returns*, which it does after a failure too
(the batch function's exception is logged and swallowed): a store outage would lose the batch. The
`_Batcher` below buffers requests the same way (a task Strategy on the worker's consumer, a flush
timer, one pool job per batch) but settles each request by what happened to it:

- stored (or rejected as malformed, which is recorded on the `lurker.events.rejected` queue and
  logged): acknowledged;
- the store stayed unreachable for LURKER_RETRY_WINDOW_S (retried in the pool process with
  exponential backoff meanwhile): rejected with requeue, so the events go back to the queue;
- the pool process died (SIGKILL, OOM): rejected with requeue (task_reject_on_worker_lost);
- the whole worker died: nothing was acknowledged, the broker gives the events back after the
  visibility timeout.

Every write is idempotent (content-addressed ids, create-if-absent, edits and deletes that find
their work done change nothing), so a redelivered batch adds nothing. Per profile, in a batch,
creates are applied before edits before deletes; the newest edit of a message wins and an edit
older than the stored text is skipped; a deleted message leaves a tombstone (in Redis, 14 days) so
a create or edit redelivered after the delete does not bring it back. One profile is written by one
worker process at a time (a Redis lock, held until the batch's writes are refreshed), so topic-key
supersession does not race.

Vectors are not computed in the batch: each batch enqueues one `lurker.index_vectors_batch` with the
memory ids it created in every profile, on the `lurker.vectors` queue (one model call for them all).
"""
from __future__ import annotations

import contextlib
import logging
import random
import sqlite3
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from celery import Task, signals
from celery.utils.imports import symbol_by_name
from celery.worker.request import create_request_cls
from celery.worker.strategy import hybrid_to_proto2, proto1_to_proto2
from kombu import Exchange, Queue
from kombu.exceptions import OperationalError as BrokerError

from memory.config import Settings
from memory.errors import StoreUnavailable

from . import metrics as worker_metrics
from .app import (INDEX_BATCH_TASK, INDEX_TASK, INGEST_TASK, REJECTED_QUEUE, VECTORS_QUEUE, app,
                  is_eager)
from .events import InvalidEvent, MessageCreated, MessageDeleted, MessageEdited, parse_event

log = logging.getLogger("lurker.workers")

TOMBSTONE_TTL_S = 14 * 24 * 3600
INDEX_CHUNK = 500  # memory ids per index_vectors task
FIRST_BACKOFF_S = 0.5


class ProfileBusy(Exception):
    """Another worker process held the profile's write lock for too long."""


def _transient_errors() -> tuple[type[BaseException], ...]:
    errors: list[type[BaseException]] = [StoreUnavailable, ProfileBusy, BrokerError]
    try:
        import redis

        errors += [redis.exceptions.ConnectionError, redis.exceptions.TimeoutError]
    except ImportError:  # pragma: no cover - redis comes with celery[redis]
        pass
    return tuple(errors)


TRANSIENT = _transient_errors()


def is_transient(exc: BaseException) -> bool:
    if isinstance(exc, TRANSIENT):
        return True
    # the embedded store under concurrent writers: SQLite's busy timeout ran out
    return isinstance(exc, sqlite3.OperationalError) and (
        "locked" in str(exc) or "busy" in str(exc))


def backoff(attempt: int, settings: Settings) -> float:
    """0.5 s, 1 s, 2 s, ... capped at LURKER_RETRY_BACKOFF_MAX_S, with +-20 % jitter."""
    base = min(settings.retry_backoff_max_s, FIRST_BACKOFF_S * 2 ** min(attempt, 30))
    return max(0.05, base * random.uniform(0.8, 1.2))


# --- coordination between worker processes ----------------------------------------------------
class Coordination:
    """Per-profile write locks and delete tombstones, kept in this process."""

    def __init__(self) -> None:
        self._guard = threading.Lock()
        self._locks: dict[str, threading.Lock] = {}
        self._tombstones: dict[tuple[str, str], float] = {}

    @contextlib.contextmanager
    def lock(self, profile: str, timeout: float) -> Iterator[Callable[[], None]]:
        with self._guard:
            lock = self._locks.setdefault(profile, threading.Lock())
        if not lock.acquire(timeout=timeout):
            raise ProfileBusy(f"profile {profile!r} stayed locked for {timeout:g}s")
        try:
            yield lambda: None
        finally:
            lock.release()

    def tombstoned(self, profile: str, external_ids: set[str]) -> set[str]:
        now = time.time()
        return {e for e in external_ids if self._tombstones.get((profile, e), 0) > now}

    def bury(self, profile: str, external_ids: set[str]) -> None:
        until = time.time() + TOMBSTONE_TTL_S
        for e in external_ids:
            self._tombstones[(profile, e)] = until


class RedisCoordination(Coordination):
    """The same, shared by every worker through the broker's Redis: the lock expires on its own
    when its holder dies (LURKER_WORKER_LOCK_TIMEOUT_S), tombstones after 14 days."""

    def __init__(self, url: str) -> None:
        super().__init__()
        import redis

        self.client = redis.Redis.from_url(url, socket_timeout=10, socket_connect_timeout=10)

    @contextlib.contextmanager
    def lock(self, profile: str, timeout: float) -> Iterator[Callable[[], None]]:
        from redis.exceptions import LockError

        lock = self.client.lock(f"lurker:lock:{profile}", timeout=timeout,
                                blocking_timeout=timeout + 1)
        if not lock.acquire():
            raise ProfileBusy(f"profile {profile!r} stayed locked by another worker for "
                              f"{timeout + 1:g}s")

        def keepalive() -> None:
            with contextlib.suppress(LockError):
                lock.extend(timeout, replace_ttl=True)
        try:
            yield keepalive
        finally:
            try:
                lock.release()
            except LockError:  # it expired while we worked: someone may hold it now
                log.warning("the write lock of profile %r expired before its batch finished "
                            "(LURKER_WORKER_LOCK_TIMEOUT_S=%g)", profile, timeout)

    @staticmethod
    def _key(profile: str, external_id: str) -> str:
        return f"lurker:deleted:{profile}:{external_id}"

    def tombstoned(self, profile: str, external_ids: set[str]) -> set[str]:
        ids = sorted(external_ids)
        if not ids:
            return set()
        found = self.client.mget([self._key(profile, e) for e in ids])
        return {e for e, v in zip(ids, found) if v is not None}

    def bury(self, profile: str, external_ids: set[str]) -> None:
        if external_ids:
            pipe = self.client.pipeline(transaction=False)
            for e in external_ids:
                pipe.set(self._key(profile, e), b"1", ex=TOMBSTONE_TTL_S)
            pipe.execute()


# --- per-process runtime ----------------------------------------------------------------------
class Runtime:
    """What a worker process holds: settings, the engine (opened lazily, so never in the parent of
    a prefork pool), and the coordination client."""

    def __init__(self) -> None:
        self._settings: Settings | None = None
        self._service = None
        self._owned = False
        self._coordination: Coordination | None = None
        self._guard = threading.Lock()
        self.sleep: Callable[[float], None] = time.sleep  # both replaceable in tests
        self.clock: Callable[[], float] = time.monotonic

    @property
    def settings(self) -> Settings:
        return self._settings or getattr(app, "lurker_settings", None) or Settings()

    def reset(self, settings: Settings | None = None, service=None) -> None:
        """Forget the engine and coordination (closing an engine we opened); use `service` (an
        open MemoryService, e.g. in tests) instead of opening one from the settings."""
        with self._guard:
            if self._service is not None and self._owned:
                with contextlib.suppress(Exception):
                    self._service.close()
            self._settings = settings
            self._service, self._owned = service, False
            self._coordination = None

    def service(self):
        with self._guard:
            if self._service is None:
                from memory.service import MemoryService

                self._service = MemoryService.from_settings(self.settings)  # StoreUnavailable
                self._owned = True
            return self._service

    def coordination(self) -> Coordination:
        with self._guard:
            if self._coordination is None:
                url = self.settings.broker_url
                redis_broker = url.startswith(("redis://", "rediss://", "unix://"))
                self._coordination = (RedisCoordination(url)
                                      if redis_broker and not is_eager(self.settings)
                                      else Coordination())
            return self._coordination


runtime = Runtime()


@signals.worker_process_init.connect
def _fresh_runtime(**_: Any) -> None:  # a forked pool process opens its own store connection
    runtime.reset(runtime._settings)


# --- applying a batch -------------------------------------------------------------------------
@dataclass
class BatchReport:
    """What happened to a batch; `outcomes[i]` is "done", "rejected" or "requeue" for event i."""

    outcomes: list[str]
    messages_new: int = 0
    messages_skipped: int = 0
    edits: int = 0
    edits_stale: int = 0
    edits_not_found: int = 0
    deletes: int = 0
    ignored_deleted: int = 0
    rejected: list[dict] = field(default_factory=list)  # {"index", "reason", "event"}
    vector_tasks: int = 0
    attempts: int = 1
    error: str | None = None

    def as_dict(self) -> dict:
        return dict(self.__dict__)


@dataclass
class _Accumulated:
    """Survives in-process retries: what earlier attempts wrote but has not been handed on."""

    pending: dict[str, dict[str, None]] = field(default_factory=lambda: defaultdict(dict))
    failed: dict[int, str] = field(default_factory=dict)  # event index -> reason (not transient)


def _one_event(call: Any) -> Any:
    """A queued call's event: the task takes exactly one positional argument."""
    if isinstance(call, tuple) and len(call) == 2 and isinstance(call[1], dict):
        args, kwargs = call
        if len(args) == 1 and not kwargs:
            return args[0]
        raise InvalidEvent(f"a {INGEST_TASK} message carries exactly one event, got "
                           f"{len(args)} positional and {len(kwargs)} keyword arguments")
    return call


def process_events(calls: list, redelivered: list[bool] | None = None,
                   settings: Settings | None = None) -> BatchReport:
    """Apply a batch of events (event dicts, or (args, kwargs) of queued calls). Malformed ones are
    recorded and skipped; on store errors the whole batch is retried with backoff for up to
    LURKER_RETRY_WINDOW_S, after which the valid events are marked "requeue"."""
    settings = settings or runtime.settings
    redelivered = redelivered or [False] * len(calls)
    report = BatchReport(outcomes=["done"] * len(calls))
    valid: list[tuple[int, Any]] = []
    for i, call in enumerate(calls):
        try:
            valid.append((i, parse_event(_one_event(call))))
        except InvalidEvent as exc:
            report.outcomes[i] = "rejected"
            report.rejected.append({"index": i, "reason": str(exc), "event": _jsonable(call)})
    acc = _Accumulated()
    deadline = runtime.clock() + settings.retry_window_s
    attempt = 0
    while True:
        try:
            _apply(valid, redelivered, settings, report, acc)
            _enqueue_vectors(acc, report)
            break
        except Exception as exc:
            if not is_transient(exc):
                raise
            delay = backoff(attempt, settings)
            attempt += 1
            report.attempts = attempt + 1
            if runtime.clock() + delay > deadline:
                report.error = f"{type(exc).__name__}: {exc}"
                log.error("batch of %d events: the store is still unavailable after %d attempts "
                          "(%s); the events go back to the queue", len(valid), attempt, exc)
                for i, _event in valid:
                    report.outcomes[i] = "requeue"
                _record_rejected(report)
                return report
            log.warning("batch of %d events, attempt %d failed (%s); retrying in %.1fs",
                        len(valid), attempt, exc, delay)
            runtime.sleep(delay)
    for i, reason in acc.failed.items():
        report.outcomes[i] = "rejected"
        report.rejected.append({"index": i, "reason": reason, "event": _jsonable(calls[i])})
    _record_rejected(report)
    return report


def _apply(valid: list[tuple[int, Any]], redelivered: list[bool], settings: Settings,
           report: BatchReport, acc: _Accumulated) -> None:
    for counter in ("messages_new", "messages_skipped", "edits", "edits_stale",
                    "edits_not_found", "deletes", "ignored_deleted"):
        setattr(report, counter, 0)  # counts of the attempt that succeeded
    by_profile: dict[str, list[tuple[int, Any]]] = defaultdict(list)
    for i, event in valid:
        if i not in acc.failed:
            by_profile[event.profile].append((i, event))
    if not by_profile:
        return
    service = runtime.service()
    coordination = runtime.coordination()
    # The batch's writes become searchable with one refresh at its end (Elasticsearch), and each
    # profile's lock is held until then, so the next writer of a profile reads what this one
    # wrote. Locks are taken in name order: two workers never wait on each other in a cycle.
    with contextlib.ExitStack() as held, service.store.deferred_refresh():
        keepalives: list[Callable[[], None]] = []
        extended = [time.monotonic()]

        def keepalive() -> None:  # every held lock, once a third of its time has gone by
            if time.monotonic() - extended[0] >= settings.worker_lock_timeout_s / 3:
                for extend in keepalives:
                    extend()
                extended[0] = time.monotonic()
        for name in sorted(by_profile):
            keepalives.append(held.enter_context(
                coordination.lock(name, settings.worker_lock_timeout_s)))
            _apply_profile(service.profile(name), by_profile[name], redelivered, coordination,
                           report, acc, keepalive)


def _apply_profile(profile, items: list[tuple[int, Any]], redelivered: list[bool],
                   coordination: Coordination, report: BatchReport, acc: _Accumulated,
                   keepalive: Callable[[], None]) -> None:
    creates = [(i, e) for i, e in items if isinstance(e, MessageCreated)]
    edits = [(i, e) for i, e in items if isinstance(e, MessageEdited)]
    deletes = [(i, e) for i, e in items if isinstance(e, MessageDeleted)]
    deleted = {e.external_id for _, e in deletes}
    # A message deleted in this batch, or before (tombstone), is not created or edited again.
    gone = deleted | coordination.tombstoned(
        profile.name, {e.external_id for _, e in creates + edits} - deleted)
    pending = acc.pending[profile.name]

    # 1. creates: one ingest per conversation, conversations in the order they started
    sessions: dict[str, list[tuple[int, MessageCreated]]] = defaultdict(list)
    for i, event in creates:
        if event.external_id in gone:
            report.ignored_deleted += 1
        else:
            sessions[event.session_id].append((i, event))
    for session_id, group in sorted(sessions.items(),
                                    key=lambda kv: min(e.ts for _, e in kv[1])):
        group.sort(key=lambda ie: ie[1].ts)  # stable: arrival order for equal timestamps
        first: dict[str, tuple[int, MessageCreated]] = {}
        for i, event in group:  # the same create twice in one batch: once
            first.setdefault(event.external_id, (i, event))
        group = list(first.values())

        def ingest(part, session_id=session_id):
            result = profile.ingest([e.message() for _, e in part], session_id, vectorize=False)
            report.messages_new += result.messages_new
            report.messages_skipped += result.messages_skipped
            pending.update(dict.fromkeys(result.pending_vector_ids))
            if result.messages_skipped and any(redelivered[i] for i, _ in part):
                # An earlier delivery may have stored these without handing on their vectors.
                pending.update(dict.fromkeys(_unindexed(profile, result.message_ids)))
        _isolating(ingest, group, acc)
        keepalive()

    # 2. edits: the newest edit of each message; one older than the stored text is stale
    newest: dict[str, tuple[int, MessageEdited]] = {}
    for i, event in edits:
        if event.external_id in gone:
            report.ignored_deleted += 1
            continue
        seen = newest.get(event.external_id)
        if seen is None or _edit_order(event) >= _edit_order(seen[1]):
            newest[event.external_id] = (i, event)
    stored = (profile.service.store.find_messages_by_external_id(profile.name, list(newest))
              if newest else {})
    for external_id, (i, event) in newest.items():
        old = stored.get(external_id)
        if old is not None and event.ts is not None and event.ts < old.ts:
            report.edits_stale += 1
            continue

        def edit(part):
            (_, e), = part
            result = profile.edit_message(e.external_id, e.content, ts=e.ts, vectorize=False,
                                          session_id=e.session_id, role=e.role, author=e.author)
            report.edits += 1
            report.edits_not_found += not result.found and result.new_message_id is None
            pending.update(dict.fromkeys(result.pending_vector_ids))
        _isolating(edit, [(i, event)], acc)
        keepalive()

    # 3. deletes: tombstone first, so a concurrent redelivered create is dropped
    if deleted:
        coordination.bury(profile.name, deleted)
    for i, event in {e.external_id: (i, e) for i, e in deletes}.values():
        def delete(part):
            (_, e), = part
            profile.delete_message(e.external_id)
            report.deletes += 1
        _isolating(delete, [(i, event)], acc)
    keepalive()


def _edit_order(event: MessageEdited) -> datetime:
    return event.ts or datetime.min.replace(tzinfo=timezone.utc)


def _isolating(call: Callable[[list], None], part: list[tuple[int, Any]],
               acc: _Accumulated) -> None:
    """Run one engine call for `part`; if it fails for a reason other than an unavailable store,
    run it event by event so one bad event cannot sink the others (it is recorded as rejected)."""
    try:
        call(part)
    except Exception as exc:
        if is_transient(exc):
            raise
        if len(part) > 1:
            for item in part:
                _isolating(call, [item], acc)
            return
        index = part[0][0]
        acc.failed[index] = f"the engine refused the event: {type(exc).__name__}: {exc}"
        log.error("event %d of the batch refused by the engine", index, exc_info=True)


def _unindexed(profile, message_ids: list[str]) -> list[str]:
    """Active, embeddable memories drawn from these messages (index_vectors is idempotent)."""
    return [m.id for m in profile.service.store.memories_by_source(profile.name, message_ids)
            if m.embeddable]


def _enqueue_vectors(acc: _Accumulated, report: BatchReport) -> None:
    """One task for the batch's memories of every profile (chunks of INDEX_CHUNK ids)."""
    chunk: dict[str, list[str]] = {}
    size = 0
    for name in list(acc.pending):
        for memory_id in acc.pending.pop(name):  # handed on: a retried batch does not resend
            chunk.setdefault(name, []).append(memory_id)
            size += 1
            if size == INDEX_CHUNK:
                _send_vectors(chunk, report)
                chunk, size = {}, 0
    if chunk:
        _send_vectors(chunk, report)


def _send_vectors(chunk: dict[str, list[str]], report: BatchReport) -> None:
    index_vector_batch.apply_async((chunk,), queue=VECTORS_QUEUE)
    report.vector_tasks += 1


def _jsonable(value: Any) -> Any:
    if isinstance(value, tuple) and len(value) == 2 and isinstance(value[1], dict):
        value = value[0][0] if len(value[0]) == 1 and not value[1] else list(value[0])
    if hasattr(value, "model_dump"):
        return value.model_dump(mode="json")
    try:
        import json

        json.dumps(value)
        return value
    except (TypeError, ValueError):
        return repr(value)[:2000]


_REJECTED = Queue(REJECTED_QUEUE, Exchange(REJECTED_QUEUE, type="direct"),
                  routing_key=REJECTED_QUEUE)


def _record_rejected(report: BatchReport) -> None:
    """Log each rejected event and put it, with the reason, on the lurker.events.rejected queue."""
    if not report.rejected:
        return
    for item in report.rejected:
        log.warning("rejected event %d of the batch: %s", item["index"], item["reason"])
    try:
        with app.producer_or_acquire() as producer:
            for item in report.rejected:
                producer.publish(
                    {"reason": item["reason"], "event": item["event"],
                     "rejected_at": datetime.now(timezone.utc).isoformat()},
                    exchange=_REJECTED.exchange, routing_key=REJECTED_QUEUE,
                    declare=[_REJECTED], serializer="json", retry=True,
                    retry_policy={"max_retries": 3})
    except Exception:  # the log keeps them; recording must not fail the batch
        log.exception("could not put %d rejected events on %s", len(report.rejected),
                      REJECTED_QUEUE)


# --- the batching task ------------------------------------------------------------------------
def run_batch(calls: list, redelivered: list[bool]) -> dict:
    """The pool job of one batch (in a worker process). Never raises: the parent settles every
    request from the outcomes."""
    try:
        report = process_events(calls, redelivered)
        log.info("batch of %d events: %d new messages, %d skipped, %d edits, %d deletes, "
                 "%d rejected, %d attempts", len(calls), report.messages_new,
                 report.messages_skipped, report.edits, report.deletes, len(report.rejected),
                 report.attempts)
        return report.as_dict()
    except Exception as exc:
        log.exception("batch of %d events failed; they go back to the queue", len(calls))
        return {"outcomes": ["requeue"] * len(calls), "error": f"{type(exc).__name__}: {exc}"}


class _Batcher:
    """Buffers the worker's requests for the batch task and hands them to the pool together."""

    def __init__(self, task: Task, app_, consumer) -> None:
        settings = getattr(app_, "lurker_settings", None) or Settings()
        self.size = max(1, settings.batch_size)
        self.interval = max(0.01, settings.batch_interval_s)
        self.app = app_
        self.pool = consumer.pool
        self.timer = consumer.timer
        self.hostname = consumer.hostname
        self.eventer = consumer.event_dispatcher
        self.connection_errors = consumer.connection_errors
        self.task = task
        self.Request = create_request_cls(symbol_by_name(task.Request), task, consumer.pool,
                                          consumer.hostname, consumer.event_dispatcher, app=app_)
        self.buffer: list = []
        self.tref = None

    def on_message(self, message, body, ack, reject, callbacks, **_: Any) -> None:
        app_ = self.app
        if body is None and "args" not in message.payload:
            body, headers, decoded, utc = (message.body, message.headers, False,
                                           app_.uses_utc_timezone())
        elif "args" in message.payload:
            body, headers, decoded, utc = hybrid_to_proto2(message, message.payload)
        else:
            body, headers, decoded, utc = proto1_to_proto2(message, body)
        request = self.Request(message, on_ack=ack, on_reject=reject, app=app_,
                               hostname=self.hostname, eventer=self.eventer, task=self.task,
                               connection_errors=self.connection_errors, body=body,
                               headers=headers, decoded=decoded, utc=utc)
        self.buffer.append((request, worker_metrics.published_at(message.headers)))
        if len(self.buffer) >= self.size:
            self.flush()
        elif self.tref is None:
            self.tref = self.timer.call_after(self.interval, self._on_timer)

    def _on_timer(self) -> None:
        self.tref = None
        self.flush()

    def flush(self) -> None:
        if self.tref is not None:
            self.tref.cancel()
            self.tref = None
        buffered, self.buffer = self.buffer, []
        if not buffered:
            return
        requests = [request for request, _ in buffered]
        published = [at for _, at in buffered]
        started = time.monotonic()
        calls = [(list(r.args), dict(r.kwargs)) for r in requests]
        redelivered = [bool((r.delivery_info or {}).get("redelivered")) for r in requests]

        def settle(result: Any) -> None:
            outcomes = result.get("outcomes") if isinstance(result, dict) else None
            if not isinstance(outcomes, list) or len(outcomes) != len(requests):
                outcomes = ["requeue"] * len(requests)
            with contextlib.suppress(Exception):  # metrics never stand in the way of acks
                worker_metrics.observe_batch(result, outcomes, published, started)
            for request, outcome in zip(requests, outcomes):
                if outcome == "requeue":
                    request.reject(requeue=True)
                else:
                    request.acknowledge()

        def lost(einfo: Any) -> None:  # the pool process died (or the job could not run)
            log.error("batch of %d events did not finish (%s); they go back to the queue",
                      len(requests), getattr(einfo, "exception", einfo))
            for request in requests:
                request.reject(requeue=True)
            with contextlib.suppress(Exception):
                worker_metrics.observe_batch({}, ["requeue"] * len(requests), published, started)

        self.pool.apply_async(run_batch, (calls, redelivered), callback=settle,
                              error_callback=lost)


class BatchTask(Task):
    """A task whose worker-side strategy buffers requests into batches (see _Batcher). Called
    directly (eagerly, or .apply()), it processes the events it is given as one batch."""

    typing = False

    def Strategy(self, task: Task, app_, consumer):  # noqa: N802 - Celery's attribute name
        return _Batcher(task, app_, consumer).on_message

    def run(self, *events: Any) -> dict:
        report = process_events(list(events))
        if "requeue" in report.outcomes:
            raise StoreUnavailable(f"the events could not be stored within "
                                   f"{runtime.settings.retry_window_s:g}s: {report.error}")
        return report.as_dict()


class IngestEvents(BatchTask):
    """lurker.ingest_events(event): one chat event; the worker applies them in batches."""

    name = INGEST_TASK
    acks_late = True
    reject_on_worker_lost = True


ingest_events = app.register_task(IngestEvents())


@app.task(name=INDEX_BATCH_TASK, bind=True, acks_late=True)
def index_vector_batch(self, pending: dict[str, list[str]]) -> int:
    """Embed the memories a batch created, {profile: memory ids} (MemoryService.index_vectors:
    idempotent, one model call, one refresh), retried like index_vectors."""
    return _embed_with_retries(self, lambda: runtime.service().index_vectors(pending),
                               ", ".join(sorted(pending)))


@app.task(name=INDEX_TASK, bind=True, acks_late=True)
def index_vectors(self, profile: str, memory_ids: list[str]) -> int:
    """One profile's memories (the task earlier versions send; still served for their queued
    work). Store errors are retried in-process with backoff for LURKER_RETRY_WINDOW_S, then the
    task is retried later through the broker (eagerly: the error is raised)."""
    return _embed_with_retries(
        self, lambda: runtime.service().profile(profile).index_vectors(memory_ids), profile)


def _embed_with_retries(task, embed: Callable[[], int], profile: str) -> int:
    settings = runtime.settings
    deadline = runtime.clock() + settings.retry_window_s
    attempt = 0
    while True:
        try:
            return embed()
        except Exception as exc:
            if not is_transient(exc):
                raise
            delay = backoff(attempt, settings)
            attempt += 1
            if runtime.clock() + delay > deadline:
                if task.request.is_eager:
                    raise
                raise task.retry(exc=exc, countdown=backoff(attempt, settings), max_retries=None)
            log.warning("index_vectors for %r failed (%s); retrying in %.1fs", profile, exc,
                        delay)
            runtime.sleep(delay)
