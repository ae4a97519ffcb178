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
import uuid
from collections.abc import Callable, Iterable, Iterator

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

    @contextlib.contextmanager
    def lock_many(self, profiles: Iterable[str], timeout: float | None) -> Iterator[None]:
        """Hold the write locks of several profiles, taken in name order (so two writers never
        wait on each other in a circle), each waited for up to `timeout` seconds."""
        with contextlib.ExitStack() as held:
            for profile in sorted(set(profiles)):
                held.enter_context(self.lock(profile, timeout))
            yield

    def tombstoned_many(self, wanted: dict[str, set[str]]) -> dict[str, set[str]]:
        """{profile: the external ids among wanted[profile] that were deleted}."""
        return {p: self.tombstoned(p, ids) for p, ids in wanted.items()}

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
    """The same, shared by every worker through the broker's Redis. The lock is a short lease
    (LURKER_WORKER_LOCK_LEASE_S) that a thread renews while it is held, so a holder killed with
    kill -9 frees it within one lease rather than keeping the next worker waiting; it is released
    as soon as its batch ends (also on a warm shutdown, which lets the batch finish). Tombstones
    last 14 days."""

    def __init__(self, url: str, lease: float = 10.0) -> None:
        super().__init__()
        import redis

        self.client = redis.Redis.from_url(url, socket_timeout=10, socket_connect_timeout=10)
        self.lease = max(1.0, lease)

    @contextlib.contextmanager
    def lock(self, profile: str, timeout: float | None) -> Iterator[Callable[[], None]]:
        with self.lock_many([profile], timeout):
            yield lambda: None  # the renewing thread keeps the lease alive

    @contextlib.contextmanager
    def lock_many(self, profiles: Iterable[str], timeout: float | None) -> Iterator[None]:
        """The profiles' locks in name order, their leases renewed by one thread while held."""
        from redis.exceptions import LockError

        held: list[tuple[str, object]] = []
        stop = threading.Event()
        renewer = None
        try:
            names = sorted(set(profiles))
            # thread_local=False: the renewing thread extends the lease this thread holds
            locks = [self.client.lock(f"lurker:lock:{profile}", timeout=self.lease,
                                      thread_local=False) for profile in names]
            # A batch holds dozens of profiles: every lock is tried in one round trip, and the
            # ones before the first busy lock kept; the rest are waited for one by one, in name
            # order, holding only that prefix (so two writers never wait on each other).
            taken = self._try_many(locks)
            first_busy = taken.index(False) if False in taken else len(locks)
            held = list(zip(names[:first_busy], locks[:first_busy]))
            self._release_many([(name, lock) for name, lock, ok in
                                zip(names[first_busy:], locks[first_busy:], taken[first_busy:])
                                if ok])

            def renew() -> None:
                lost: set[str] = set()
                while not stop.wait(self.lease / 3):
                    for profile, lock in list(held):  # grows while later locks are waited for
                        if profile in lost:
                            continue
                        try:
                            lock.extend(self.lease, replace_ttl=True)
                        except LockError:  # lost (Redis restarted, or expired while away)
                            lost.add(profile)
                            log.warning("the write lock of profile %r was lost while its batch "
                                        "ran", profile)
                        except Exception as exc:  # Redis unreachable for a moment: try again
                            log.debug("renewing the write lock of %r failed: %s", profile, exc)
            # Renewed from the start: the locks taken first must outlive a wait for a busy one
            # longer than a lease (expired, another worker could take them meanwhile).
            renewer = threading.Thread(target=renew, name="lurker-locks", daemon=True)
            renewer.start()
            for profile, lock in zip(names[first_busy:], locks[first_busy:]):
                self._acquire(lock, profile, timeout)
                held.append((profile, lock))
            yield
        finally:
            stop.set()
            if renewer is not None:
                renewer.join()
            self._release_many(held)

    def _try_many(self, locks: list) -> list[bool]:
        """Try to take every lock at once (one round trip); which were taken."""
        tokens = [uuid.uuid1().hex.encode() for _ in locks]
        pipe = self.client.pipeline(transaction=False)
        for lock, token in zip(locks, tokens):
            pipe.set(lock.name, token, nx=True, px=int(self.lease * 1000))
        taken = [bool(ok) for ok in pipe.execute()]
        for lock, token, ok in zip(locks, tokens, taken):
            if ok:  # as Lock.acquire leaves it: extend and release check this token
                lock.local.token = token
        return taken

    def _release_many(self, held: list[tuple[str, object]]) -> None:
        """Release the locks (one round trip); a lock that expired meanwhile, or a Redis that is
        away, is logged: someone else may hold it now, or its lease ends it."""
        if not held:
            return
        pipe = self.client.pipeline(transaction=False)
        for _, lock in held:
            token, lock.local.token = lock.local.token, None
            lock.lua_release(keys=[lock.name], args=[token], client=pipe)  # as Lock.release
        try:
            released = pipe.execute(raise_on_error=False)
        except Exception as exc:  # Redis away: the leases free them soon
            released = [exc] * len(held)
        for (profile, _), done in zip(held, released):
            if isinstance(done, Exception):
                log.warning("could not release the write lock of profile %r (%s); its lease "
                            "ends it", profile, done)
            elif not done:
                log.warning("the write lock of profile %r expired before its batch finished",
                            profile)

    def tombstoned_many(self, wanted: dict[str, set[str]]) -> dict[str, set[str]]:
        asked = [(p, e) for p, ids in wanted.items() for e in sorted(ids)]
        out: dict[str, set[str]] = {p: set() for p in wanted}
        if asked:
            found = self.client.mget([self._key(p, e) for p, e in asked])
            for (p, e), v in zip(asked, found):
                if v is not None:
                    out[p].add(e)
        return out

    def _acquire(self, lock, profile: str, timeout: float | None) -> None:
        """Wait up to `timeout` seconds (forever if None), saying so once while waiting."""
        deadline = None if timeout is None else time.monotonic() + timeout
        said = False
        while True:
            left = None if deadline is None else deadline - time.monotonic()
            step = 2.0 if left is None else max(0.01, min(2.0, left))
            if lock.acquire(blocking_timeout=step):
                if said:
                    log.info("got the write lock of profile %r", profile)
                return
            if deadline is not None and time.monotonic() >= deadline:
                raise ProfileBusy(f"profile {profile!r} stayed locked by another worker for "
                                  f"{timeout:g}s")
            if not said:
                ttl = self.client.pttl(lock.name)
                log.info("waiting for the write lock of profile %r: another worker holds it "
                         "(its lease ends in %.1f s unless renewed)", profile,
                         max(0, ttl) / 1000)
                said = True

    @staticmethod
    def _key(profile: str, external_id: str) -> str:
        return f"lurker:deleted:{profile}:{external_id}"

    def tombstoned(self, profile: str, external_ids: set[str]) -> set[str]:
        return self.tombstoned_many({profile: external_ids})[profile]

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
        return RedisCoordination(url, lease=settings.worker_lock_lease_s)
    return Coordination()
