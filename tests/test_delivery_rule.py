"""What a worker holds against the broker's visibility timeout (issue 14 item 3).

A Redis broker hands an unacknowledged event out again once the visibility timeout has passed since
its delivery, whether its worker died or is still working on it. So `lurker worker` refuses
settings under which a live worker could hold an event that long (workers/broker.py,
delivery_rule), and a worker holds at most one follow-up embedding task per pool process, so a
backlog of embeddings waits in Redis and not behind the events it holds (workers/transport.py)."""
from __future__ import annotations

import json
import re
import subprocess
import sys
import threading
import time
import uuid

import pytest

from memory.config import Settings
from memory.service import MemoryService
from tests.workers_support import (ROOT, WorkerProcess, broker_idle, created, wait_until,
                                   worker_env)
from workers import app as app_module
from workers.broker import (EVENTS_QUEUE, HOLD_MARGIN, VECTORS_QUEUE, delivery_rule,
                            longest_hold_s, prefetch_multiplier)
from workers.enqueue import EventPublisher

BROKER_DB = 12  # a Redis database of its own (tests/test_workers_real.py counts up from 1)


def test_the_defaults_keep_within_the_rule():
    settings = Settings(_env_file=None)
    assert delivery_rule(settings) is None
    # and a dead worker's events are back within minutes, not an hour
    assert settings.broker_visibility_timeout_s <= 600
    assert settings.broker_visibility_timeout_s >= HOLD_MARGIN * longest_hold_s(settings)


@pytest.mark.parametrize("overrides, named", [
    # the pair the issue measured: 81 % of a live worker's work was done twice
    (dict(broker_visibility_timeout_s=30, retry_window_s=90), "the retry window 90s"),
    (dict(broker_visibility_timeout_s=300, batch_size=2000, worker_lock_timeout_s=100),
     "a batch of 2000 events"),
    (dict(broker_visibility_timeout_s=100, worker_lock_timeout_s=60), "the lock timeout 60s"),
])
def test_settings_a_live_worker_could_outlast_are_named_with_the_rule(overrides, named):
    broken = delivery_rule(Settings(_env_file=None, **overrides))
    assert broken is not None
    assert f"LURKER_BROKER_VISIBILITY_TIMEOUT_S={overrides['broker_visibility_timeout_s']:g} " \
           f"is too short" in broken
    assert named in broken and "must be at least 1.5 times" in broken


def test_a_lock_wait_shorter_than_a_batch_is_refused():
    """Two pool processes writing the same profiles take turns at its lock: a wait shorter than
    the other's batch sends the batch back to the queue, to be done again."""
    broken = delivery_rule(Settings(_env_file=None, worker_lock_timeout_s=3))
    assert "LURKER_WORKER_LOCK_TIMEOUT_S=3 is shorter than a batch of 500 events" in broken


def test_a_worker_of_the_embeddings_queue_alone_takes_one_task_per_process():
    """Its tasks are not batched: a window sized for batches of events would hold hundreds."""
    settings = Settings(_env_file=None)
    assert prefetch_multiplier(settings, [VECTORS_QUEUE]) == 1
    assert prefetch_multiplier(settings, [EVENTS_QUEUE, VECTORS_QUEUE]) == 750


def test_a_rate_of_zero_is_refused():
    assert "LURKER_WORKER_MIN_RATE must be above 0" in delivery_rule(
        Settings(_env_file=None, worker_min_rate=0))


def test_lurker_worker_refuses_to_start_against_the_rule(tmp_path):
    env = worker_env(f"sqlite:///{tmp_path / 'x.sqlite3'}", "redis://127.0.0.1:9/0",
                     broker_visibility_timeout_s=30, retry_window_s=90)
    proc = subprocess.run([sys.executable, "-m", "memory.cli", "worker"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2, proc.stderr
    assert "LURKER_BROKER_VISIBILITY_TIMEOUT_S=30 is too short" in proc.stderr
    assert "Traceback" not in proc.stderr


def _held_by_queue(client) -> dict[str, int]:
    """Unacknowledged messages in the broker, by the queue they came from."""
    held: dict[str, int] = {}
    for raw in client.hvals("unacked"):
        routing_key = json.loads(raw)[2]
        held[routing_key] = held.get(routing_key, 0) + 1
    return held


@pytest.mark.redis
def test_a_worker_holds_one_embedding_task_per_process_while_they_back_up(redis_server,
                                                                          tmp_path):
    """Ingest outruns embedding, so the follow-up embedding tasks back up. They must back up in
    Redis: a worker that took them as fast as its prefetch window allows holds dozens, and the
    last of them (and the events behind them) wait longer than any visibility timeout budgets."""
    broker = re.sub(r"/\d+$", "", redis_server.url) + f"/{BROKER_DB}"
    store = f"sqlite:///{tmp_path / 'lurker.db'}"
    client = type(redis_server.client()).from_url(broker)
    client.flushdb()
    app_module.configure(Settings(broker_url=broker, store=store, anthropic_api_key=None))
    reader = MemoryService.from_settings(Settings(store=store, anthropic_api_key=None))
    profiles = [f"test:held-{uuid.uuid4().hex[:8]}-{i}" for i in range(4)]
    events = [created(profiles[i % 4], f"h{i}",
                      f"Deploy {i} of the ledger service moved the retry budget to {i % 9} "
                      f"seconds. Maya will check the dashboards for build {i} on Friday. The "
                      f"timeout for checkout is {i % 50} ms after incident {i}.",
                      session=f"s{i % 6}", at=i) for i in range(1500)]
    worker = WorkerProcess(worker_env(store, broker, worker_concurrency=1, batch_size=20,
                                      batch_interval_s=0.2), tmp_path / "worker.log", name="held")
    most_held, most_waiting, watching = 0, 0, True

    def watch() -> None:
        nonlocal most_held, most_waiting
        while watching:
            most_held = max(most_held, _held_by_queue(client).get(VECTORS_QUEUE, 0))
            most_waiting = max(most_waiting, client.llen(VECTORS_QUEUE))
            time.sleep(0.02)

    watcher = threading.Thread(target=watch, daemon=True)
    try:
        worker.start()
        watcher.start()
        EventPublisher().publish_many(events)

        def done() -> bool:
            stored = sum(1 for p in profiles for _ in reader.store.iter_messages(p))
            return stored == len(events) and broker_idle(client)
        wait_until(done, 300, "every event stored and every embedding task done", interval=0.5,
                   on_timeout=worker.tail)
    finally:
        watching = False
        watcher.join(5)
        worker.stop()
        reader.close()
        app_module.configure(Settings())
    assert most_held <= 2, f"the worker held {most_held} embedding tasks at once"
    assert most_waiting >= 3, "the embedding tasks never backed up: the test proved nothing"
    assert "were delivered before" not in worker.log()
