"""The Celery app: `celery -A workers.app worker` (or `lurker worker`) consumes the event queue.
Its configuration comes from workers/broker.py; the tasks it runs are registered in
workers/tasks.py (named in `include`, imported by Celery when the app is finalised)."""
from __future__ import annotations

from celery import Celery

from memory.config import Settings

from .broker import celery_config
from .runtime import runtime


def make_app(settings: Settings | None = None) -> Celery:
    settings = settings or Settings()
    celery = Celery("lurker", include=["workers.tasks"])
    celery.conf.update(celery_config(settings))
    celery.lurker_settings = settings  # read by the batching consumer (batch size, interval)
    return celery


def configure(settings: Settings) -> Celery:
    """Re-read the configuration of the module-level `app` (the CLI's flags, sinks, tests); the
    worker runtime forgets the engine it opened for the old settings."""
    app.conf.update(celery_config(settings))
    app.lurker_settings = settings
    app._pool = None  # pools are looked up again for the (new) broker URL (kombu keeps them)
    if "amqp" in app.__dict__:
        app.amqp._producer_pool = None
    runtime.reset(settings)
    return app


app = make_app()
