"""What a worker process holds: its settings, the engine (opened lazily, so never in the parent
of a prefork pool: each forked pool process opens its own store connection), and the coordination
client. Replaceable in tests (`reset(settings, service=...)`, `sleep`, `clock`)."""
from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Callable
from typing import Any

from celery import signals

from memory.config import Settings

from .coordination import Coordination, coordination_for


class Runtime:
    def __init__(self) -> None:
        self._settings: Settings | None = None
        self._service = None
        self._owned = False
        self._coordination: Coordination | None = None
        self._guard = threading.Lock()
        self.sleep: Callable[[float], None] = time.sleep
        self.clock: Callable[[], float] = time.monotonic

    @property
    def settings(self) -> Settings:
        return self._settings or Settings()

    def reset(self, settings: Settings | None = None, service=None,
              coordination: Coordination | None = None) -> None:
        """Forget the engine and coordination (closing an engine we opened); use `service` (an
        open MemoryService, e.g. in tests) instead of opening one from the settings, and
        `coordination` instead of the one the settings call for."""
        with self._guard:
            if self._service is not None and self._owned:
                with contextlib.suppress(Exception):
                    self._service.close()
            self._settings = settings
            self._service, self._owned = service, False
            self._coordination = coordination

    def service(self):
        with self._guard:
            if self._service is None:
                from memory.service import MemoryService

                self._service = MemoryService.from_settings(  # StoreUnavailable
                    self.settings, embedder=pool_embedder(self.settings))
                self._owned = True
            return self._service

    def coordination(self) -> Coordination:
        with self._guard:
            if self._coordination is None:
                self._coordination = coordination_for(self.settings)
            return self._coordination


def pool_embedder(settings: Settings):
    """The encoder of one pool process: its share of the cores as onnxruntime threads. With one
    thread per core in every process, two processes embedding at once ran four threads on two
    cores (measured: see README, Benchmarks)."""
    from memory.embeddings import MiniLMEmbedder

    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return MiniLMEmbedder(threads=max(1, (cores or 1) // max(1, settings.worker_concurrency)))


runtime = Runtime()


@signals.worker_process_init.connect
def _fresh_runtime(**_: Any) -> None:  # a forked pool process opens its own store connection
    runtime.reset(runtime._settings)
