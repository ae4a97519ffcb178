"""Which failures are worth waiting out, and how long to wait between tries.

Transient: the store is unreachable or busy (StoreUnavailable, and StoreBusy from the embedded
store when another process holds its file), another worker held a profile's lock too long
(ProfileBusy), the broker or Redis is away. Anything else is the engine refusing the input: it is
not retried (the event is isolated and recorded as rejected instead)."""
from __future__ import annotations

import logging
import random
import threading
import time

from kombu.exceptions import OperationalError as BrokerError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from memory.config import Settings
from memory.errors import StoreUnavailable

FIRST_BACKOFF_S = 0.5

log = logging.getLogger("lurker.workers")


class ProfileBusy(Exception):
    """Another worker process held the profile's write lock for too long."""


TRANSIENT: tuple[type[BaseException], ...] = (StoreUnavailable, ProfileBusy, BrokerError,
                                               RedisConnectionError, RedisTimeoutError)


def is_transient(exc: BaseException) -> bool:
    return isinstance(exc, TRANSIENT)


def backoff(attempt: int, settings: Settings) -> float:
    """0.5 s, 1 s, 2 s, ... capped at LURKER_RETRY_BACKOFF_MAX_S, with +-20 % jitter."""
    base = min(settings.retry_backoff_max_s, FIRST_BACKOFF_S * 2 ** min(attempt, 30))
    return max(0.05, base * random.uniform(0.8, 1.2))


class Outage:
    """One log line when the store (or Redis) goes away and one when it is back, with how many
    events waited, instead of a line per failed try: a 100 s Elasticsearch outage wrote hundreds.
    Kept per worker process (a pool process runs one batch at a time; the lock is for threads)."""

    def __init__(self) -> None:
        self._guard = threading.Lock()
        self.since: float | None = None
        self.waiting = 0

    def failed(self, exc: BaseException, events: int) -> None:
        with self._guard:
            self.waiting += events
            if self.since is not None:
                return
            self.since = time.monotonic()
        log.warning("the store is unavailable (%s): batches wait and are retried (for up to "
                    "LURKER_RETRY_WINDOW_S each); one line follows when it is back", exc)

    def over(self) -> None:
        with self._guard:
            if self.since is None:
                return
            lasted, waiting = time.monotonic() - self.since, self.waiting
            self.since, self.waiting = None, 0
        log.warning("the store is back after %.0f s; %d events waited for it", lasted, waiting)


OUTAGE = Outage()
