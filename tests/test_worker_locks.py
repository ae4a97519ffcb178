"""The per-profile write lock the workers share through Redis (workers/coordination.py): a short
lease renewed while held, so a worker killed with kill -9 keeps the next one waiting for about one
lease (not LURKER_WORKER_LOCK_TIMEOUT_S), released the moment its batch ends, and a line in the
log while a worker waits for it."""
from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import textwrap
import time
import uuid

import pytest

from tests.workers_support import ROOT, wait_until
from workers.coordination import RedisCoordination
from workers.retry import ProfileBusy

pytestmark = pytest.mark.redis

LEASE = 2.0


@pytest.fixture
def profile():
    return f"test:lock-{uuid.uuid4().hex[:8]}"


def test_a_killed_holders_lock_frees_within_a_lease(redis_server, profile, tmp_path):
    held = tmp_path / "held"
    holder = subprocess.Popen([sys.executable, "-c", textwrap.dedent(f"""
        import pathlib, time
        from workers.coordination import RedisCoordination
        with RedisCoordination({redis_server.url!r}, lease={LEASE}).lock({profile!r}, 60):
            pathlib.Path({str(held)!r}).write_text("1")
            time.sleep(600)
        """)], cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        wait_until(held.exists, 60, "the holder to take the lock")
        time.sleep(LEASE * 2)  # renewed while its holder lives: still held after two leases
        with pytest.raises(ProfileBusy):
            with RedisCoordination(redis_server.url, lease=LEASE).lock(profile, 0.5):
                pass
        holder.send_signal(signal.SIGKILL)
        holder.wait(10)
        killed = time.monotonic()
        with RedisCoordination(redis_server.url, lease=LEASE).lock(profile, 60):
            waited = time.monotonic() - killed
    finally:
        holder.kill()
        holder.wait(10)
    assert waited <= LEASE + 1.5, f"waited {waited:.1f}s for a dead holder's lock"


def test_the_lock_is_released_when_its_batch_ends_and_waiting_is_logged(redis_server, profile,
                                                                        caplog):
    first = RedisCoordination(redis_server.url, lease=LEASE)
    second = RedisCoordination(redis_server.url, lease=LEASE)
    with first.lock(profile, 5):
        time.sleep(LEASE * 1.5)  # outlives its first lease: renewed, not expired
        assert redis_server.client().exists(f"lurker:lock:{profile}")
    started = time.monotonic()
    with second.lock(profile, 5):
        assert time.monotonic() - started < 0.5  # released at once, not left to expire
    caplog.set_level(logging.INFO, logger="lurker.workers")
    with first.lock(profile, 30):
        import threading
        got = threading.Event()

        def wait_for_it() -> None:
            with second.lock(profile, 30):
                got.set()
        waiter = threading.Thread(target=wait_for_it)
        waiter.start()
        wait_until(lambda: "waiting for the write lock" in caplog.text, 10, "the waiting line")
        assert not got.is_set()
    waiter.join(10)
    assert got.is_set() and "got the write lock" in caplog.text


def test_a_busy_lock_among_many_is_waited_for_holding_only_those_before_it(redis_server, profile,
                                                                           caplog):
    """lock_many tries every lock in one round trip; while it waits for a busy one it holds the
    locks before it in name order and none after it (so two writers never wait in a circle)."""
    first = RedisCoordination(redis_server.url, lease=LEASE)
    second = RedisCoordination(redis_server.url, lease=LEASE)
    a, b, c = (f"{profile}-{x}" for x in "abc")
    client = redis_server.client()
    caplog.set_level(logging.INFO, logger="lurker.workers")
    import threading
    got = threading.Event()
    with first.lock(b, 5):
        def take_all() -> None:
            with second.lock_many([c, b, a], 30):
                got.set()
                assert all(client.exists(f"lurker:lock:{p}") for p in (a, b, c))
        waiter = threading.Thread(target=take_all)
        waiter.start()
        wait_until(lambda: "waiting for the write lock" in caplog.text, 10, "the waiting line")
        assert client.exists(f"lurker:lock:{a}") and not client.exists(f"lurker:lock:{c}")
        # a wait longer than a lease: the lock taken before the busy one is renewed meanwhile
        # (had it expired, another worker could write to that profile now)
        time.sleep(LEASE * 1.5)
        assert client.exists(f"lurker:lock:{a}") and not client.exists(f"lurker:lock:{c}")
        assert not got.is_set()
    waiter.join(10)
    assert got.is_set()
    assert not any(client.exists(f"lurker:lock:{p}") for p in (a, b, c))  # all released
