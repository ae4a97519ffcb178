"""One batch of queued events, in a worker's pool process: each event validated (a malformed one
is rejected and recorded on the `lurker.events.rejected` queue), the rest applied by the event
rules (workers/rules.py), store outages waited out with exponential backoff for up to
LURKER_RETRY_WINDOW_S (then the valid events are marked "requeue": they go back to the queue),
and the memories written handed to one `lurker.index_vectors_batch` task on `lurker.vectors`
(one model call for every profile of the batch).

Every write is idempotent (content-addressed ids, create-if-absent, edits and deletes that find
their work done change nothing), so a redelivered batch adds nothing.
"""
from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from memory.config import Settings

from .app import app
from .broker import INDEX_BATCH_TASK, INGEST_TASK, REJECTED_QUEUE, VECTORS_QUEUE, queue
from .events import ChatEvent, InvalidEvent, parse_event
from .retry import OUTAGE, backoff, is_transient
from .rules import Applied, Collected, apply_events
from .runtime import runtime

log = logging.getLogger("lurker.workers")

INDEX_CHUNK = 500  # memory ids per index_vectors task


@dataclass
class BatchReport(Applied):
    """What happened to a batch; `outcomes[i]` is "done", "rejected" or "requeue" for event i."""

    outcomes: list[str] = field(default_factory=list)
    rejected: list[dict] = field(default_factory=list)  # {"index", "reason", "event"}
    vector_tasks: int = 0
    attempts: int = 1
    error: str | None = None

    def as_dict(self) -> dict:
        return dict(self.__dict__)


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
    valid: list[tuple[int, ChatEvent]] = []
    for i, call in enumerate(calls):
        try:
            valid.append((i, parse_event(_one_event(call))))
        except InvalidEvent as exc:
            report.outcomes[i] = "rejected"
            report.rejected.append({"index": i, "reason": str(exc), "event": _jsonable(call)})
    collected = Collected()
    deadline = runtime.clock() + settings.retry_window_s
    waited = False  # this batch counted among the events waiting out an outage
    attempt = 0
    while True:
        try:
            if any(i not in collected.failed for i, _ in valid):  # else no store to open
                apply_events(runtime.service(), valid, runtime.coordination(), report,
                             collected, vectorize=False, redelivered=redelivered,
                             lock_timeout=settings.worker_lock_timeout_s)
            _enqueue_vectors(collected, report)
            OUTAGE.over()
            break
        except Exception as exc:
            if not is_transient(exc):
                raise
            OUTAGE.failed(exc, 0 if waited else len(valid))
            waited = True
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
            log.debug("batch of %d events, attempt %d failed (%s); retrying in %.1fs",
                      len(valid), attempt, exc, delay)
            runtime.sleep(delay)
    for i, reason in collected.failed.items():
        report.outcomes[i] = "rejected"
        report.rejected.append({"index": i, "reason": reason, "event": _jsonable(calls[i])})
    _record_rejected(report)
    return report


def _enqueue_vectors(collected: Collected, report: BatchReport) -> None:
    """One task for the batch's memories of every profile (chunks of INDEX_CHUNK ids)."""
    chunk: dict[str, list[str]] = {}
    size = 0
    for name in list(collected.pending):
        for memory_id in collected.pending.pop(name):  # handed on: a retry does not resend
            chunk.setdefault(name, []).append(memory_id)
            size += 1
            if size == INDEX_CHUNK:
                _send_vectors(chunk, report)
                chunk, size = {}, 0
    if chunk:
        _send_vectors(chunk, report)


def _send_vectors(chunk: dict[str, list[str]], report: BatchReport) -> None:
    # by name: workers/tasks.py registers the task and imports this module. A worker imports it
    # at start; a process that calls process_events directly (tests, tools) loads it the same way.
    if INDEX_BATCH_TASK not in app.tasks:
        app.loader.import_default_modules()
    app.tasks[INDEX_BATCH_TASK].apply_async((chunk,), queue=VECTORS_QUEUE)
    report.vector_tasks += 1


def _jsonable(value: Any) -> Any:
    if isinstance(value, tuple) and len(value) == 2 and isinstance(value[1], dict):
        value = value[0][0] if len(value[0]) == 1 and not value[1] else list(value[0])
    if hasattr(value, "model_dump"):
        return value.model_dump(mode="json")
    try:
        json.dumps(value)
        return value
    except (TypeError, ValueError):
        return repr(value)[:2000]


def _record_rejected(report: BatchReport) -> None:
    """Log each rejected event and put it, with the reason, on the lurker.events.rejected queue."""
    if not report.rejected:
        return
    for item in report.rejected:
        log.warning("rejected event %d of the batch: %s", item["index"], item["reason"])
    rejected = queue(REJECTED_QUEUE)
    try:
        with app.producer_or_acquire() as producer:
            for item in report.rejected:
                producer.publish(
                    {"reason": item["reason"], "event": item["event"],
                     "rejected_at": datetime.now(timezone.utc).isoformat()},
                    exchange=rejected.exchange, routing_key=REJECTED_QUEUE,
                    declare=[rejected], serializer="json", retry=True,
                    retry_policy={"max_retries": 3})
    except Exception:  # the log keeps them; recording must not fail the batch
        log.exception("could not put %d rejected events on %s", len(report.rejected),
                      REJECTED_QUEUE)


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
