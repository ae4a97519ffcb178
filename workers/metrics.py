"""Prometheus metrics of `lurker worker`, kept in the worker's main process.

The batching consumer (workers/batching.py) runs in the main process and settles every batch
there with the report the pool process sends back, so the counters need no multiprocess mode.
Served at http://<host>:<LURKER_WORKER_METRICS_PORT>/metrics when that port is set:

- lurker_worker_events_total{outcome}      events settled: done, rejected (malformed or refused),
                                           requeued (store still failing after the retry window)
- lurker_worker_events_redelivered_total  events the broker had delivered before (a dead worker's,
                                           requeued ones, or held past the visibility timeout)
- lurker_worker_messages_total{result}     messages new / skipped (already stored), edits, deletes
- lurker_worker_batch_size                 events per batch (histogram)
- lurker_worker_batch_seconds              a batch from hand-off to the pool until settled
- lurker_worker_queue_lag_seconds          an event from being published until stored (the
                                           publisher stamps the time in a message header)
"""
from __future__ import annotations

import time

from prometheus_client import CollectorRegistry, Counter, Histogram, start_http_server

PUBLISHED_HEADER = "lurker_published_at"  # epoch seconds, set by workers.enqueue

LAG_BUCKETS = (0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 900, 3600)
BATCH_BUCKETS = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000)
SECONDS_BUCKETS = (0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120)

registry = CollectorRegistry(auto_describe=True)
events = Counter("lurker_worker_events", "Events settled by the worker", ["outcome"],
                 registry=registry)
redelivered = Counter("lurker_worker_events_redelivered", "Events taken that the broker had "
                      "delivered before", registry=registry)
messages = Counter("lurker_worker_messages", "Messages written by the worker", ["result"],
                   registry=registry)
batch_size = Histogram("lurker_worker_batch_size", "Events per batch", buckets=BATCH_BUCKETS,
                       registry=registry)
batch_seconds = Histogram("lurker_worker_batch_seconds", "Time to process and settle a batch",
                          buckets=SECONDS_BUCKETS, registry=registry)
queue_lag = Histogram("lurker_worker_queue_lag_seconds", "Time from an event's publication "
                      "until it was stored", buckets=LAG_BUCKETS, registry=registry)

_OUTCOMES = {"done": "done", "rejected": "rejected", "requeue": "requeued"}


def observe_batch(report: dict, outcomes: list[str], published: list[float | None],
                  started: float) -> None:
    """Account one settled batch: its report (processing.BatchReport.as_dict), each event's outcome
    and publication time (None when the publisher did not stamp it)."""
    now = time.time()
    batch_size.observe(len(outcomes))
    batch_seconds.observe(max(0.0, time.monotonic() - started))
    for outcome, at in zip(outcomes, published):
        events.labels(_OUTCOMES.get(outcome, outcome)).inc()
        if outcome == "done" and at is not None:
            queue_lag.observe(max(0.0, now - at))
    for result, key in (("new", "messages_new"), ("skipped", "messages_skipped"),
                        ("edited", "edits"), ("deleted", "deletes")):
        value = report.get(key) if isinstance(report, dict) else None
        if isinstance(value, int) and value > 0:
            messages.labels(result).inc(value)


def published_at(headers: dict | None) -> float | None:
    try:
        return float((headers or {})[PUBLISHED_HEADER])
    except (KeyError, TypeError, ValueError):
        return None


def serve(port: int, addr: str = "0.0.0.0") -> None:
    """Serve /metrics from a thread of this process (the worker's main process)."""
    start_http_server(port, addr=addr, registry=registry)
