"""What writers of one profile agree on: a per-profile write lock (so topic-key supersession does
not race) and delete tombstones (so a create or edit redelivered after its delete does not bring
the message back).

`Coordination` keeps both in this process (the in-process sink, an eager worker);
`RedisCoordination` shares them between every worker through the broker's Redis."""
from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable, Iterator

from memory.config import Settings

from .broker import is_eager, is_redis
from .retry import ProfileBusy

log = logging.getLogger("lurker.workers")

TOMBSTONE_TTL_S = 14 * 24 * 3600


class Coordination:
    """Per-profile write locks and delete tombstones, kept in this process."""

    def __init__(self) -> None:
        self._guard = threading.Lock()
        self._locks: dict[str, threading.Lock] = {}
        self._tombstones: dict[tuple[str, str], float] = {}

    @contextlib.contextmanager
    def lock(self, profile: str, timeout: float | None) -> Iterator[Callable[[], None]]:
        """Hold the profile's write lock (waiting up to `timeout` seconds, forever if None);
        yields a function that keeps a lock with a lease alive (nothing to do here)."""
        with self._guard:
            lock = self._locks.setdefault(profile, threading.Lock())
        if not lock.acquire(timeout=-1 if timeout is None else timeout):
            raise ProfileBusy(f"profile {profile!r} stayed locked for {timeout:g}s")
        try:
            yield lambda: None
        finally:
            lock.release()

    def tombstoned(self, profile: str, external_ids: set[str]) -> set[str]:
        now = time.time()
        with self._guard:
            return {e for e in external_ids if self._tombstones.get((profile, e), 0) > now}

    def bury(self, profile: str, external_ids: set[str]) -> None:
        until = time.time() + TOMBSTONE_TTL_S
        with self._guard:
            for e in external_ids:
                self._tombstones[(profile, e)] = until


class RedisCoordination(Coordination):
    """The same, shared by every worker through the broker's Redis: the lock expires on its own
    when its holder dies (LURKER_WORKER_LOCK_TIMEOUT_S), tombstones after 14 days."""

    def __init__(self, url: str) -> None:
        super().__init__()
        import redis

        self.client = redis.Redis.from_url(url, socket_timeout=10, socket_connect_timeout=10)

    @contextlib.contextmanager
    def lock(self, profile: str, timeout: float | None) -> Iterator[Callable[[], None]]:
        from redis.exceptions import LockError

        lock = self.client.lock(f"lurker:lock:{profile}", timeout=timeout,
                                blocking_timeout=None if timeout is None else timeout + 1)
        if not lock.acquire():
            raise ProfileBusy(f"profile {profile!r} stayed locked by another worker for "
                              f"{timeout + 1:g}s")

        def keepalive() -> None:
            with contextlib.suppress(LockError):
                lock.extend(timeout, replace_ttl=True)
        try:
            yield keepalive if timeout is not None else (lambda: None)
        finally:
            try:
                lock.release()
            except LockError:  # it expired while we worked: someone may hold it now
                log.warning("the write lock of profile %r expired before its batch finished "
                            "(LURKER_WORKER_LOCK_TIMEOUT_S=%g)", profile, timeout)

    @staticmethod
    def _key(profile: str, external_id: str) -> str:
        return f"lurker:deleted:{profile}:{external_id}"

    def tombstoned(self, profile: str, external_ids: set[str]) -> set[str]:
        ids = sorted(external_ids)
        if not ids:
            return set()
        found = self.client.mget([self._key(profile, e) for e in ids])
        return {e for e, v in zip(ids, found) if v is not None}

    def bury(self, profile: str, external_ids: set[str]) -> None:
        if external_ids:
            pipe = self.client.pipeline(transaction=False)
            for e in external_ids:
                pipe.set(self._key(profile, e), b"1", ex=TOMBSTONE_TTL_S)
            pipe.execute()


def coordination_for(settings: Settings) -> Coordination:
    """Shared through Redis when the broker is a Redis server; else this process's own."""
    url = settings.broker_url
    if is_redis(url) and not is_eager(settings):
        return RedisCoordination(url)
    return Coordination()
