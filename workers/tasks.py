"""The worker's tasks, registered on the Celery app (workers/app.py):

- `lurker.ingest_events(event)`: one chat event (workers/events.py); the worker takes them in
  batches (workers/batching.py) of up to LURKER_BATCH_SIZE events, or what came within
  LURKER_BATCH_INTERVAL_S, and applies each batch (workers/processing.py) with the event rules
  (workers/rules.py): grouped by profile and conversation, one engine call per group;
- `lurker.index_vectors_batch({profile: memory ids})`: the follow-up embedding of a batch's
  memories, on the `lurker.vectors` queue;
- `lurker.index_vectors(profile, memory ids)`: the same for one profile (sent by earlier versions).
"""
from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from memory.errors import StoreUnavailable

from . import metrics as worker_metrics
from .app import app
from .batching import BatchTask
from .broker import INDEX_BATCH_TASK, INDEX_TASK, INGEST_TASK
from .processing import process_events, run_batch
from .retry import OUTAGE, backoff, is_transient
from .runtime import runtime

log = logging.getLogger("lurker.workers")


class IngestEvents(BatchTask):
    """lurker.ingest_events(event): one chat event; the worker applies them in batches. Called
    directly (eagerly, or .apply()), it processes the events it is given as one batch."""

    name = INGEST_TASK
    acks_late = True
    reject_on_worker_lost = True
    batch_job = staticmethod(run_batch)

    def batch_limits(self, app_) -> tuple[int, float]:
        settings = getattr(app_, "lurker_settings", None) or runtime.settings
        return settings.batch_size, settings.batch_interval_s

    def on_batch_taken(self, redelivered: list[bool]) -> None:
        again = sum(redelivered)
        if again:
            worker_metrics.redelivered.inc(again)
            log.info("%d of %d events in this batch were delivered before (a worker that died, "
                     "a batch requeued after an outage, or held past the visibility timeout)",
                     again, len(redelivered))

    def on_batch_settled(self, result: Any, outcomes: list[str], headers: list[dict],
                         started: float) -> None:
        worker_metrics.observe_batch(result, outcomes,
                                     [worker_metrics.published_at(h) for h in headers], started)

    def run(self, *events: Any) -> dict:
        report = process_events(list(events))
        if "requeue" in report.outcomes:
            raise StoreUnavailable(f"the events could not be stored within "
                                   f"{runtime.settings.retry_window_s:g}s: {report.error}")
        return report.as_dict()


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
            done = embed()
            OUTAGE.over()
            return done
        except Exception as exc:
            if not is_transient(exc):
                raise
            OUTAGE.failed(exc, 0)
            delay = backoff(attempt, settings)
            attempt += 1
            if runtime.clock() + delay > deadline:
                if task.request.is_eager:
                    raise
                raise task.retry(exc=exc, countdown=backoff(attempt, settings), max_retries=None)
            log.debug("index_vectors for %r failed (%s); retrying in %.1fs", profile, exc,
                      delay)
            runtime.sleep(delay)
