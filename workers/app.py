"""The Celery app: `celery -A workers.app worker` (or `lurker worker`) consumes the event queue.

Configured from memory.config.Settings (environment LURKER_*):
- the broker is LURKER_BROKER_URL (default redis://127.0.0.1:6379/0);
- at-least-once: tasks are acknowledged only after their work is stored (task_acks_late), a task
  whose worker process dies is re-queued (task_reject_on_worker_lost), and events held by a worker
  that was killed come back after LURKER_BROKER_VISIBILITY_TIMEOUT_S (Redis transport);
- the prefetch window holds a batch in progress per process plus the next batch being filled;
- LURKER_BROKER_URL=memory:// or LURKER_WORKER_EAGER=true: no broker, the same task code runs
  in-process when an event is published (task_always_eager), so the embedded store needs no Redis.
"""
from __future__ import annotations

import math

from celery import Celery
from kombu import Exchange, Queue

from memory.config import Settings

EVENTS_QUEUE = "lurker.events"
VECTORS_QUEUE = "lurker.vectors"
REJECTED_QUEUE = "lurker.events.rejected"  # malformed events, with the reason (a dead-letter queue)
INGEST_TASK = "lurker.ingest_events"
INDEX_TASK = "lurker.index_vectors"  # one profile's memories (sent by earlier versions)
INDEX_BATCH_TASK = "lurker.index_vectors_batch"  # a batch's memories, every profile at once


def is_eager(settings: Settings) -> bool:
    return settings.worker_eager or settings.broker_url.strip().lower().startswith("memory://")


def prefetch_multiplier(settings: Settings) -> int:
    """Messages each worker process may hold unacknowledged: enough for one batch in progress per
    process and one more batch filling up, so a batch can reach batch_size before its interval."""
    concurrency = max(1, settings.worker_concurrency)
    return max(1, math.ceil(settings.batch_size * (concurrency + 1) / concurrency))


def celery_config(settings: Settings) -> dict:
    eager = is_eager(settings)
    events = Queue(EVENTS_QUEUE, Exchange(EVENTS_QUEUE, type="direct"), routing_key=EVENTS_QUEUE)
    vectors = Queue(VECTORS_QUEUE, Exchange(VECTORS_QUEUE, type="direct"),
                    routing_key=VECTORS_QUEUE)
    rejected = Queue(REJECTED_QUEUE, Exchange(REJECTED_QUEUE, type="direct"),
                     routing_key=REJECTED_QUEUE)
    return {
        "broker_url": "memory://" if eager else settings.broker_url,
        "broker_connection_retry_on_startup": True,
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
        "task_queues": (events, vectors, rejected),
        "task_default_queue": EVENTS_QUEUE,
        "task_routes": {INGEST_TASK: {"queue": EVENTS_QUEUE},
                        INDEX_TASK: {"queue": VECTORS_QUEUE},
                        INDEX_BATCH_TASK: {"queue": VECTORS_QUEUE}},
        "worker_prefetch_multiplier": prefetch_multiplier(settings),
        "worker_concurrency": max(1, settings.worker_concurrency),
        "worker_hijack_root_logger": False,
        "worker_send_task_events": False,
        "enable_utc": True,
    }


def make_app(settings: Settings | None = None) -> Celery:
    settings = settings or Settings()
    celery = Celery("lurker", include=["workers.tasks"])
    celery.conf.update(celery_config(settings))
    celery.lurker_settings = settings  # read by workers.tasks (batch size, retries, store)
    return celery


def configure(settings: Settings) -> Celery:
    """Re-read the configuration of the module-level `app` (the CLI's flags, tests)."""
    app.conf.update(celery_config(settings))
    app.lurker_settings = settings
    app._pool = None  # pools are looked up again for the (new) broker URL (kombu keeps them)
    if "amqp" in app.__dict__:
        app.amqp._producer_pool = None
    from . import tasks

    tasks.runtime.reset(settings)
    return app


app = make_app()
