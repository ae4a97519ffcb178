"""The chat adapters' queue sink when Redis goes away: events wait in a spool file and are handed on,
in order, when Redis is back, also by a restarted bot. Real redis-server processes."""
from __future__ import annotations

import base64
import json

import pytest

from memory.config import Settings
from tests.harness import free_port
from tests.workers_support import redis_on
from workers import app as app_module
from workers.enqueue import EventPublisher
from workers.sinks import QueueSink

pytestmark = pytest.mark.redis


def created(n: int) -> dict:
    return {"type": "message.created", "profile": "slack:T1:CGEN", "session_id": "CGEN:day",
            "external_id": f"slack:T1:CGEN:{n}", "author": "maya", "content": f"Message {n}.",
            "ts": f"2026-11-16T09:{n:02d}:00Z"}


def queued(client) -> list[str]:
    """External ids of the events on lurker.events, oldest first."""
    bodies = [json.loads(raw) for raw in reversed(client.lrange("lurker.events", 0, -1))]
    return [json.loads(base64.b64decode(b["body"]))[0][0]["external_id"] for b in bodies]


@pytest.fixture
def broker_port(tmp_path):
    port = free_port()
    app_module.configure(Settings(broker_url=f"redis://127.0.0.1:{port}/0"))
    yield port
    app_module.configure(Settings())


def test_events_wait_in_the_spool_while_redis_is_away_and_go_on_in_order(broker_port, tmp_path):
    spool = tmp_path / "spool" / "events.jsonl"
    sink = QueueSink(EventPublisher(), spool=spool, retry_max_s=0.5)
    try:
        with redis_on(broker_port, tmp_path) as client:
            sink.publish([created(1)])
            assert queued(client) == ["slack:T1:CGEN:1"] and not spool.exists()
        # Redis is gone: publishing still returns, nothing is lost
        report = sink.publish([created(2), created(3)])
        assert report.published == 2 and sink.waiting == 2
        sink.publish([created(4)])  # queues behind the spooled ones
        assert [json.loads(line)["external_id"] for line in spool.read_text().splitlines()] == \
            [f"slack:T1:CGEN:{n}" for n in (2, 3, 4)]
        with redis_on(broker_port, tmp_path) as client:  # back (empty: it did not save)
            assert sink.wait_drained(30)
            assert queued(client) == [f"slack:T1:CGEN:{n}" for n in (2, 3, 4)]
            assert not spool.exists()
            sink.publish([created(5)])  # and straight through again
            assert queued(client)[-1] == "slack:T1:CGEN:5"
    finally:
        sink.close()


def test_a_restarted_bot_hands_on_what_an_earlier_one_spooled(broker_port, tmp_path):
    spool = tmp_path / "events.jsonl"
    first = QueueSink(EventPublisher(), spool=spool, retry_max_s=0.5)
    first.publish([created(7), created(8)])  # no Redis at all
    first.close()
    assert len(spool.read_text().splitlines()) == 2
    with redis_on(broker_port, tmp_path) as client:
        second = QueueSink(EventPublisher(), spool=spool, retry_max_s=0.5)
        try:
            assert second.wait_drained(30)
            assert queued(client) == ["slack:T1:CGEN:7", "slack:T1:CGEN:8"]
        finally:
            second.close()


def test_a_spool_line_cut_by_a_crash_is_set_aside_not_retried(broker_port, tmp_path):
    spool = tmp_path / "events.jsonl"
    spool.write_text(json.dumps(created(1)) + "\n" + '{"type": "message.created", "prof\n'
                     + json.dumps({**created(2), "profile": ""}) + "\n", encoding="utf-8")
    with redis_on(broker_port, tmp_path) as client:
        sink = QueueSink(EventPublisher(), spool=spool, retry_max_s=0.5)
        try:
            assert sink.wait_drained(30)
            assert queued(client) == ["slack:T1:CGEN:1"]
        finally:
            sink.close()
    assert len(spool.with_suffix(".rejected").read_text().splitlines()) == 2
    assert not spool.exists()


def test_many_events_go_to_redis_in_pipelines_in_order(broker_port, tmp_path):
    """publish_many hands Redis its events in pipelines (kombu's publish batch), not one round
    trip each: 1,200 events are three LPUSH pipelines' worth of commands, all there in order."""
    from workers.enqueue import PUBLISH_BATCH

    with redis_on(broker_port, tmp_path) as client:
        before = client.info("stats")["total_reads_processed"]
        calls_before = client.info("commandstats").get("cmdstat_lpush", {}).get("calls", 0)
        events = [created(n % 60) | {"external_id": f"slack:T1:CGEN:{n}", "content": f"M {n}."}
                  for n in range(1200)]
        EventPublisher().publish_many(events)
        assert queued(client) == [e["external_id"] for e in events]
        assert client.info("commandstats")["cmdstat_lpush"]["calls"] - calls_before == 1200
        # the lpushes came in pipelines: Redis read its sockets a few dozen times (a pipeline
        # may take several reads, more of them on a busy machine, where 207 were seen; kombu
        # declares the queue), not once per event as one round trip each would need
        assert client.info("stats")["total_reads_processed"] - before < len(events) / 4
        assert PUBLISH_BATCH < 1200


def test_a_broker_that_goes_away_mid_publish_is_a_clear_error(broker_port, tmp_path):
    from memory.errors import LurkerError

    with redis_on(broker_port, tmp_path):
        publisher = EventPublisher()
        publisher.publish_many([created(1)])
    with pytest.raises(LurkerError, match="cannot queue events on"):
        publisher.publish_many([created(n) for n in range(2, 40)])
