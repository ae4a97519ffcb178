"""The broker side of the configuration, read from memory.config.Settings (LURKER_*): queue and
task names, whether there is a broker at all, and the Celery settings that follow.

- the broker is LURKER_BROKER_URL (default redis://127.0.0.1:6379/0);
- at-least-once: tasks are acknowledged only after their work is stored (task_acks_late), a task
  whose worker process dies is re-queued (task_reject_on_worker_lost), and events held by a worker
  that was killed come back after LURKER_BROKER_VISIBILITY_TIMEOUT_S (Redis transport);
- the prefetch window holds a batch in progress per process plus the next batch being filled, and
  a worker holds at most one follow-up embedding task per process (workers/transport.py);
- the delivery rule (`delivery_rule`): everything a live worker holds must be settled well inside
  the visibility timeout, or the broker hands it out again while the worker still works on it;
  `lurker worker` refuses settings that break it;
- LURKER_BROKER_URL=memory:// or LURKER_WORKER_EAGER=true: no broker, the same task code runs
  in-process when an event is published (task_always_eager).
"""
from __future__ import annotations

import math

from kombu import Exchange, Queue

from memory.config import Settings

EVENTS_QUEUE = "lurker.events"
VECTORS_QUEUE = "lurker.vectors"
REJECTED_QUEUE = "lurker.events.rejected"  # malformed events, with the reason (a dead-letter queue)
INGEST_TASK = "lurker.ingest_events"
INDEX_TASK = "lurker.index_vectors"  # one profile's memories (sent by earlier versions)
INDEX_BATCH_TASK = "lurker.index_vectors_batch"  # a batch's memories, every profile at once


def queue(name: str) -> Queue:
    """A durable direct queue routed by its own name."""
    return Queue(name, Exchange(name, type="direct"), routing_key=name)


def is_eager(settings: Settings) -> bool:
    return settings.worker_eager or settings.broker_url.strip().lower().startswith("memory://")


def is_redis(url: str) -> bool:
    return url.startswith(("redis://", "rediss://", "unix://"))


def prefetch_multiplier(settings: Settings, queues: list[str] | None = None) -> int:
    """Messages each worker process may hold unacknowledged: enough for one batch in progress per
    process and one more batch filling up, so a batch can reach batch_size before its interval.
    A worker of the embeddings queue alone takes one task per process (its tasks are not batched,
    and each embeds a whole batch's memories)."""
    if queues is not None and set(queues) == {VECTORS_QUEUE}:
        return 1
    concurrency = max(1, settings.worker_concurrency)
    return max(1, math.ceil(settings.batch_size * (concurrency + 1) / concurrency))


# The visibility timeout must be at least this many times the longest a live worker holds an event.
HOLD_MARGIN = 1.5


def batch_work_s(settings: Settings) -> float:
    """The longest one pool job takes: a batch of events (or one batch's embeddings) at the
    least rate a process settles events, after waiting out a store outage and a profile lock."""
    return (settings.retry_window_s + settings.worker_lock_timeout_s
            + settings.batch_size / settings.worker_min_rate)


def longest_hold_s(settings: Settings) -> float:
    """The longest a live worker holds an event before settling it: the batch interval while its
    batch fills, then up to two rounds of pool jobs ahead of it (a batch in progress in every
    process, and at most one embedding task per process) and its own batch."""
    return settings.batch_interval_s + 3 * batch_work_s(settings)


def delivery_rule(settings: Settings) -> str | None:
    """Why these settings would let the broker redeliver events a live worker still holds, or
    None when they are safe."""
    if settings.worker_min_rate <= 0:
        return "LURKER_WORKER_MIN_RATE must be above 0 (events a second one process settles)"
    batch_s = settings.batch_size / settings.worker_min_rate
    if settings.worker_lock_timeout_s < batch_s:
        return (f"LURKER_WORKER_LOCK_TIMEOUT_S={settings.worker_lock_timeout_s:g} is shorter than "
                f"a batch of {settings.batch_size} events takes at "
                f"LURKER_WORKER_MIN_RATE={settings.worker_min_rate:g}/s ({batch_s:g}s): a batch "
                f"waiting for a profile another process is writing would go back to the queue and "
                f"be done again; raise the lock timeout or lower the batch size")
    hold = longest_hold_s(settings)
    needed = HOLD_MARGIN * hold
    if settings.broker_visibility_timeout_s >= needed:
        return None
    return (f"LURKER_BROKER_VISIBILITY_TIMEOUT_S={settings.broker_visibility_timeout_s:g} is too "
            f"short: a live worker can hold an event for up to {hold:g}s (the batch interval "
            f"{settings.batch_interval_s:g}s plus three pool jobs of up to "
            f"{batch_work_s(settings):g}s each: the retry window "
            f"{settings.retry_window_s:g}s, the lock timeout {settings.worker_lock_timeout_s:g}s "
            f"and a batch of {settings.batch_size} events at "
            f"LURKER_WORKER_MIN_RATE={settings.worker_min_rate:g}/s), and the broker would hand "
            f"its events out again while it works on them. The visibility timeout must be at "
            f"least {HOLD_MARGIN:g} times that ({needed:g}s): raise it, or lower the retry "
            f"window, the lock timeout or the batch size")


def celery_config(settings: Settings) -> dict:
    eager = is_eager(settings)
    return {
        "broker_url": "memory://" if eager else settings.broker_url,
        "broker_connection_retry_on_startup": True,
        # kombu's Redis transport with the pop-then-record window closed (workers/transport.py)
        # (None: the URL's own transport; always set, as configure() updates the settings)
        "broker_transport": ("workers.transport:Transport"
                             if not eager and settings.broker_url.startswith("redis://")
                             else None),
        "broker_transport_options": {
            "visibility_timeout": settings.broker_visibility_timeout_s,
            # look for the events of dead workers every few seconds, not every 100 s
            "unacked_restore_interval": max(1, min(10, int(settings.broker_visibility_timeout_s
                                                           // 2))),
            "unacked_restore_throttle": 1,
            # at most one embedding task held per pool process (workers/transport.py)
            "vector_tasks_held": max(1, settings.worker_concurrency),
        },
        "task_always_eager": eager,
        "task_eager_propagates": True,
        "task_acks_late": True,
        "task_reject_on_worker_lost": True,
        "task_acks_on_failure_or_timeout": True,
        "task_ignore_result": True,
        "result_backend": None,
        "task_serializer": "json",
        "accept_content": ["json"],
        "task_queues": (queue(EVENTS_QUEUE), queue(VECTORS_QUEUE), queue(REJECTED_QUEUE)),
        "task_default_queue": EVENTS_QUEUE,
        "task_routes": {INGEST_TASK: {"queue": EVENTS_QUEUE},
                        INDEX_TASK: {"queue": VECTORS_QUEUE},
                        INDEX_BATCH_TASK: {"queue": VECTORS_QUEUE}},
        "worker_prefetch_multiplier": prefetch_multiplier(settings),
        "worker_concurrency": max(1, settings.worker_concurrency),
        "worker_hijack_root_logger": False,
        # survives a broker loss while it holds events (workers/consumer.py)
        "worker_consumer": "workers.consumer:Consumer",
        "worker_send_task_events": False,
        "enable_utc": True,
    }
