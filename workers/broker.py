"""The broker side of the configuration, read from memory.config.Settings (LURKER_*): queue and
task names, whether there is a broker at all, and the Celery settings that follow.

- the broker is LURKER_BROKER_URL (default redis://127.0.0.1:6379/0);
- at-least-once: tasks are acknowledged only after their work is stored (task_acks_late), a task
  whose worker process dies is re-queued (task_reject_on_worker_lost), and events held by a worker
  that was killed come back after LURKER_BROKER_VISIBILITY_TIMEOUT_S (Redis transport);
- the prefetch window holds a batch in progress per process plus the next batch being filled;
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


def prefetch_multiplier(settings: Settings) -> int:
    """Messages each worker process may hold unacknowledged: enough for one batch in progress per
    process and one more batch filling up, so a batch can reach batch_size before its interval."""
    concurrency = max(1, settings.worker_concurrency)
    return max(1, math.ceil(settings.batch_size * (concurrency + 1) / concurrency))


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
