"""Batch semantics of the worker code, run in-process (eager mode, LURKER_BROKER_URL=memory://, no
Redis) on both stores: one engine call per conversation, malformed events, store outages, eager
publishing, the vector tasks. The event rules themselves (order within a batch, redelivery,
shuffled double delivery, tombstones, stale edits, engine refusals) are tests/test_event_rules.py,
run through the worker and the in-process sink alike."""
from __future__ import annotations

import os
import random
import sqlite3
import subprocess
import sys
import time

import pytest

from memory.config import Settings
from memory.errors import StoreBusy, StoreUnavailable
from memory.service import MemoryService
from memory.stores.sqlite import SQLiteStore
from tests.workers_support import ROOT, assert_exactly_once, created, edited, ts, worker_env
from workers import app as app_module
from workers import tasks
from workers.enqueue import EventPublisher, publish
from workers.processing import process_events
from workers.retry import is_transient
from workers.runtime import runtime


@pytest.fixture
def eager(service, tmp_path):
    """The module-level Celery app in eager mode over the test's service (index_vectors runs
    inline); backoff sleeps are recorded instead of slept."""
    settings = Settings(broker_url="memory://", store=f"sqlite:///{tmp_path / 'unused.sqlite3'}",
                        retry_backoff_max_s=2, retry_window_s=30, anthropic_api_key=None)
    app_module.configure(settings)
    runtime.reset(settings, service=service)
    slept: list[float] = []
    runtime.sleep = slept.append
    runtime.clock = lambda: time.monotonic() + sum(slept)
    publisher = EventPublisher()
    publisher.take_rejected(1000)  # the in-memory broker is process-wide: start empty
    yield service, slept, publisher
    runtime.sleep, runtime.clock = time.sleep, time.monotonic
    app_module.configure(Settings())


def run(events, redelivered=None):
    return process_events(events, redelivered)


def test_one_engine_call_for_every_profile_and_conversation(eager, profile_name, monkeypatch):
    service, _, _ = eager
    other = profile_name + "-b"
    calls = []
    real = MemoryService.ingest_many

    def spy(self, items, *args, **kwargs):
        calls.append([(item.profile, item.session_id, len(item.messages)) for item in items])
        return real(self, items, *args, **kwargs)
    monkeypatch.setattr(MemoryService, "ingest_many", spy)
    events = [created(p, f"{p}:{i}", f"Task number {i} for {p} is the billing export.",
                      session=f"s{i % 3}", at=i)
              for i in range(12) for p in (profile_name, other)]
    random.Random(1).shuffle(events)
    report = run(events)
    assert report.outcomes == ["done"] * 24 and report.messages_new == 24
    assert len(calls) == 1  # the batch's conversations share the store's round trips
    assert sorted(calls[0]) == sorted((p, f"s{k}", 4) for p in (profile_name, other)
                                      for k in range(3))
    assert report.vector_tasks == 1  # one index_vectors_batch for both profiles, run eagerly here
    for name in (profile_name, other):  # ...which embedded the memories of each
        embeddable = {m.id for m in service.store.list_memories(name) if m.embeddable}
        assert embeddable and service.store.vector_ids(name) == embeddable
    for p in (profile_name, other):
        assert_exactly_once(service, p, {f"{p}:{i}" for i in range(12)})


def test_malformed_events_are_rejected_and_recorded_while_the_rest_lands(eager, profile_name):
    service, _, publisher = eager
    good = [created(profile_name, f"g{i}", f"The nightly export {i} finished without errors.",
                    at=i) for i in range(3)]
    bad = [{"type": "message.created", "profile": profile_name, "external_id": "b1"},
           created(profile_name, "b2", "   "), {"type": "reaction.added"}, "garbage",
           created("not a profile!", "b3", "hello there everyone")]
    report = run([good[0], *bad[:3], good[1], *bad[3:], good[2]])
    assert report.outcomes == ["done", "rejected", "rejected", "rejected", "done", "rejected",
                               "rejected", "done"]
    assert_exactly_once(service, profile_name, {"g0", "g1", "g2"})
    recorded = publisher.take_rejected()
    assert len(recorded) == 5
    reasons = " | ".join(r["reason"] for r in recorded)
    assert "session_id: Field required" in reasons and "content must be a non-empty" in reasons
    assert "unknown event type 'reaction.added'" in reasons and "JSON object" in reasons
    assert "invalid profile name" in reasons
    assert {"type": "reaction.added"} in [r["event"] for r in recorded]


def test_store_outage_is_retried_with_backoff_and_the_batch_lands(eager, profile_name,
                                                                   monkeypatch):
    service, slept, _ = eager
    store = service.store
    failures = {"left": 4}
    # (the *_many writes: a batch's conversations are written together on every store)
    real_insert, real_upsert = store.insert_messages_many, store.upsert_memories_many

    def flaky(real):
        def call(*args, **kwargs):
            if failures["left"] > 0:
                failures["left"] -= 1
                raise StoreUnavailable("Elasticsearch at http://es:9200 is unreachable: refused")
            return real(*args, **kwargs)
        return call
    # the first attempt stores the first conversation, then the store goes away mid-batch
    calls = {"n": 0}

    def first_then_flaky(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 1:
            return real_insert(*args, **kwargs)
        return flaky(real_insert)(*args, **kwargs)
    monkeypatch.setattr(store, "insert_messages_many", first_then_flaky)
    monkeypatch.setattr(store, "upsert_memories_many", flaky(real_upsert))
    events = [created(profile_name, f"o{i}", f"Service number {i} moved to the new cluster.",
                      session=f"s{i % 2}", at=i) for i in range(6)]
    report = run(events)
    assert report.outcomes == ["done"] * 6 and report.attempts >= 3
    assert len(slept) == report.attempts - 1
    assert slept == sorted(slept) or max(slept) <= 2 * 1.2  # exponential, capped with jitter
    assert 0.4 <= slept[0] <= 0.6
    assert_exactly_once(service, profile_name, {f"o{i}" for i in range(6)})


@pytest.mark.parametrize("service", ["sqlite"], indirect=True)
def test_an_embedded_store_locked_by_another_process_is_waited_out(eager, profile_name, tmp_path,
                                                                     embedder):
    """Another process holding the SQLite file's write lock: the store raises the typed, transient
    StoreBusy (by SQLite's result code), and the batch is retried until the lock is released."""
    _, slept, _ = eager
    path = tmp_path / "shared.sqlite3"
    store = SQLiteStore(path, busy_timeout_s=0.05)
    service = MemoryService.from_settings(Settings(store=f"sqlite:///{path}",
                                                   anthropic_api_key=None),
                                          store=store, embedder=embedder)
    runtime.reset(runtime.settings, service=service)
    other = sqlite3.connect(path, isolation_level=None)  # another writer, e.g. a second worker
    other.execute("BEGIN IMMEDIATE")
    with pytest.raises(StoreBusy) as busy:
        service.profile(profile_name).remember("The VPN config changed on Monday.")
    assert is_transient(busy.value)

    def release(delay: float) -> None:
        slept.append(delay)
        other.execute("ROLLBACK")  # the other writer commits and lets go
    runtime.sleep = release
    report = run([created(profile_name, "b1", "The VPN config changed on Tuesday.")])
    assert report.outcomes == ["done"] and report.attempts == 2 and report.messages_new == 1
    assert_exactly_once(service, profile_name, {"b1"})
    other.close()
    service.close()


def test_outage_longer_than_the_window_sends_the_events_back(eager, profile_name, monkeypatch):
    service, slept, _ = eager
    runtime._settings = runtime.settings.model_copy(update={"retry_window_s": 3})

    def down(*args, **kwargs):
        raise StoreUnavailable("Elasticsearch at http://es:9200 is unreachable: refused")
    monkeypatch.setattr(service.store, "find_messages_by_external_id_many", down)
    monkeypatch.setattr(service.store, "insert_messages_many", down)
    report = run([created(profile_name, "k1", "The VPN config changed on Monday."),
                  {"type": "bogus"}])
    assert report.outcomes == ["requeue", "rejected"]
    assert "unreachable" in report.error and sum(slept) <= 3
    with pytest.raises(StoreUnavailable):  # eagerly, the publisher sees the error
        publish(created(profile_name, "k2", "The VPN config changed on Tuesday."))


def test_publish_in_eager_mode_stores_before_returning(eager, profile_name):
    service, _, publisher = eager
    publish(created(profile_name, "e1", "The rate limit is 300 requests per minute.", at=0))
    publisher.publish_many([created(profile_name, "e2", "Use pnpm for the dashboard.", at=1),
                            edited(profile_name, "e1", "The rate limit is 500 requests per "
                                   "minute.", at=5)])
    assert_exactly_once(service, profile_name, {"e1", "e2"})
    assert "500" in service.profile(profile_name).recall("what is the rate limit?").answer
    from workers.events import InvalidEvent
    with pytest.raises(InvalidEvent):  # validated before anything is sent
        publish({"type": "message.created", "profile": profile_name})


def test_lurker_worker_refuses_to_run_without_a_broker(tmp_path):
    env = worker_env(f"sqlite:///{tmp_path / 'x.sqlite3'}", "memory://")
    proc = subprocess.run([sys.executable, "-m", "memory.cli", "worker"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2
    assert "ingests in-process" in proc.stderr and "Traceback" not in proc.stderr


def test_the_one_profile_vectors_task_of_earlier_versions_is_still_served(eager, profile_name):
    """Work queued by an earlier version (`lurker.index_vectors`, one profile) still lands."""
    service, _, _ = eager
    result = service.profile(profile_name).ingest(
        [{"role": "user", "author": "ana", "content": "The billing export runs at 02:00 UTC.",
          "ts": ts(0)}], "s1", vectorize=False)
    (pending,) = [i for i in result.pending_vector_ids if not i.startswith("passages:")]
    assert tasks.index_vectors.apply(args=(profile_name, result.pending_vector_ids)).get() == 1
    assert service.store.vector_ids(profile_name) == {pending}
    assert service.store.passage_vector_ids(profile_name) == set(result.message_ids)


def test_each_pool_process_embeds_with_its_share_of_the_cores():
    from workers.runtime import pool_embedder

    cores = len(os.sched_getaffinity(0))
    for concurrency in (1, 2, cores, 4 * cores):
        threads = pool_embedder(Settings(worker_concurrency=concurrency)).threads
        assert threads == max(1, cores // concurrency)
        assert threads * min(concurrency, cores) <= cores  # never more threads than cores
