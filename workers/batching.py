"""Celery tasks whose requests a worker takes in batches: a task Strategy on the worker's consumer
buffers up to `batch_size` requests (or what came within `batch_interval` seconds) and hands them
to the pool as one job, the way the `celery-batches` package does it.

Why not that package: its releases pin `celery<5.7` (0.11 requires `celery>=5.0,<5.7`), so it
cannot be installed beside the Celery 5.7 this project uses, and its flush acknowledges late-acked
requests when the batch *returns*, which it does after a failure too (the batch function's
exception is logged and swallowed): a store outage would lose the batch. Here the batch job returns
an outcome per request, and each request is settled by its own:

- "done" or "rejected": acknowledged;
- "requeue" (the job could not do it now): rejected with requeue, so it goes back to the queue;
- the pool process died (SIGKILL, OOM) or the job could not run: every request requeued;
- the whole worker died: nothing was acknowledged, the broker gives the requests back after the
  visibility timeout.

Nothing here knows what the requests carry: a BatchTask names its pool job (a module-level
function, so the prefork pool can pickle it) and may observe each settled batch.
"""
from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any

from celery import Task
from celery.utils.imports import symbol_by_name
from celery.worker.request import create_request_cls
from celery.worker.strategy import hybrid_to_proto2, proto1_to_proto2

log = logging.getLogger("lurker.workers")

# (calls, redelivered) -> {"outcomes": ["done" | "rejected" | "requeue", ...], ...}: one outcome
# per call, a call being the (args, kwargs) of one request
BatchJob = Callable[[list, list[bool]], dict]


class BatchTask(Task):
    """A task whose worker-side strategy buffers requests into batches for `batch_job`."""

    typing = False
    batch_job: BatchJob

    def batch_limits(self, app_) -> tuple[int, float]:
        """(requests per batch, seconds to wait for a batch to fill)."""
        return 100, 1.0

    def on_batch_taken(self, redelivered: list[bool]) -> None:
        """Called in the worker's main process as a batch goes to the pool, with whether each of
        its requests was delivered before (metrics)."""

    def on_batch_settled(self, result: Any, outcomes: list[str], headers: list[dict],
                         started: float) -> None:
        """Called in the worker's main process once a batch's requests are settled (metrics)."""

    def Strategy(self, task: Task, app_, consumer):  # noqa: N802 - Celery's attribute name
        return Batcher(task, app_, consumer).on_message


def _remove_acked_together(requests: list) -> None:
    """One round trip for a batch's acknowledgements where the transport can (workers/transport:
    kombu sends one per message, and the worker's main process, which sends them, was the
    busiest of the ingest bench); each request's acknowledge() then only does the bookkeeping.
    Any failure leaves the acks to be sent one by one, as before."""
    by_qos: dict[int, tuple[Any, list]] = {}
    for request in requests:
        message = getattr(request, "message", None)
        qos = getattr(getattr(message, "channel", None), "qos", None)
        if message is not None and getattr(message, "acknowledged", True) is False \
                and hasattr(qos, "ack_many"):
            by_qos.setdefault(id(qos), (qos, []))[1].append(message.delivery_tag)
    for qos, tags in by_qos.values():
        try:
            qos.ack_many(tags)
        except Exception as exc:  # a broker blip: the one-by-one acks handle (or log) it
            log.debug("acknowledging %d deliveries together failed: %s", len(tags), exc)


class Batcher:
    """Buffers the worker's requests for a BatchTask and hands them to the pool together."""

    def __init__(self, task: BatchTask, app_, consumer) -> None:
        size, interval = task.batch_limits(app_)
        self.size = max(1, size)
        self.interval = max(0.01, interval)
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
        self.buffer.append((request, dict(message.headers or {})))
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
        headers = [h for _, h in buffered]
        started = time.monotonic()
        calls = [(list(r.args), dict(r.kwargs)) for r in requests]
        redelivered = [bool((r.delivery_info or {}).get("redelivered")) for r in requests]
        task = self.task
        with contextlib.suppress(Exception):
            task.on_batch_taken(redelivered)

        def settle(result: Any) -> None:
            outcomes = result.get("outcomes") if isinstance(result, dict) else None
            if not isinstance(outcomes, list) or len(outcomes) != len(requests):
                outcomes = ["requeue"] * len(requests)
            with contextlib.suppress(Exception):  # observing never stands in the way of acks
                task.on_batch_settled(result, outcomes, headers, started)
            _remove_acked_together([r for r, o in zip(requests, outcomes) if o != "requeue"])
            for request, outcome in zip(requests, outcomes):
                if outcome == "requeue":
                    request.reject(requeue=True)
                else:
                    request.acknowledge()

        def lost(einfo: Any) -> None:  # the pool process died (or the job could not run)
            log.error("batch of %d requests did not finish (%s); they go back to the queue",
                      len(requests), getattr(einfo, "exception", einfo))
            for request in requests:
                request.reject(requeue=True)
            with contextlib.suppress(Exception):
                task.on_batch_settled({}, ["requeue"] * len(requests), headers, started)

        self.pool.apply_async(task.batch_job, (calls, redelivered), callback=settle,
                              error_callback=lost)
