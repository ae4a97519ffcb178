"""A batch's acknowledgements in one Redis round trip (workers/transport.py QoS.ack_many), on a
real Redis through kombu with the worker's transport: the deliveries leave the broker's unacked
set together, each message's own ack() sends nothing more, and a delivery not acked together is
acked by itself as before."""
from __future__ import annotations

import socket
import time
import uuid

import pytest
from kombu import Connection, Exchange, Queue

from tests.reply_dropper import ReplyDropper, port_of

pytestmark = pytest.mark.redis


def test_a_batch_is_acknowledged_in_one_round_trip(redis_server):
    name = f"acks-{uuid.uuid4().hex[:8]}"
    queue = Queue(name, Exchange(name), routing_key=name)
    with Connection(redis_server.url, transport="workers.transport:Transport") as conn:
        with conn.Producer() as producer:
            for i in range(6):
                producer.publish({"n": i}, exchange=queue.exchange, routing_key=name,
                                 declare=[queue])
        got = []
        with conn.Consumer(queue, callbacks=[lambda body, message: got.append(message)],
                           prefetch_count=10):
            while len(got) < 6:
                conn.drain_events(timeout=5)
        channel = got[0].channel
        qos = channel.qos
        client = redis_server.client()
        assert client.hlen(qos.unacked_key) == 6  # delivered, recorded, not acknowledged

        executed = []
        real = qos.pipe_or_acquire

        def counting(pipe=None, client=None):
            if pipe is None:  # a new pipeline: one round trip
                executed.append(1)
            return real(pipe, client)

        qos.pipe_or_acquire = counting
        qos.ack_many([m.delivery_tag for m in got[:5]])
        assert len(executed) == 1 and client.hlen(qos.unacked_key) == 1
        for message in got[:5]:  # Celery's acknowledge(): bookkeeping only now
            message.ack()
        assert len(executed) == 1 and all(m.acknowledged for m in got[:5])
        got[5].ack()  # not in the batch: its own round trip, as before
        assert len(executed) == 2 and client.hlen(qos.unacked_key) == 0
        assert client.zcard(qos.unacked_index_key) == 0
        qos._flush()  # kombu settles its in-memory side lazily
        assert not qos._delivered and not qos._removed


def _publish(conn, queue, bodies):
    with conn.Producer() as producer:
        for body in bodies:
            producer.publish(body, exchange=queue.exchange, routing_key=queue.routing_key,
                             declare=[queue])


def test_a_busy_queue_is_taken_and_recorded_in_one_round_trip(redis_server):
    """One BRPOP reply brings the queue's next events too (as many as prefetch allows), each in
    the unacked set before it is delivered, so an outage after the take cannot lose it."""
    name = f"take-{uuid.uuid4().hex[:8]}"
    queue = Queue(name, Exchange(name), routing_key=name)
    client = redis_server.client()
    with Connection(redis_server.url, transport="workers.transport:Transport") as conn:
        _publish(conn, queue, [{"n": i} for i in range(8)])
        got, recorded_at_delivery = [], []

        def on_message(body, message):
            got.append(message)
            recorded_at_delivery.append(client.hexists(message.channel.qos.unacked_key,
                                                       message.delivery_tag))

        with conn.Consumer(queue, callbacks=[on_message], prefetch_count=5):
            conn.drain_events(timeout=5)  # one read: five events (the prefetch), not one
            assert [m.payload["n"] for m in got] == [0, 1, 2, 3, 4]
            assert all(recorded_at_delivery)
            qos = got[0].channel.qos
            assert client.hlen(qos.unacked_key) == 5 and client.zcard(qos.unacked_index_key) == 5
            assert client.llen(name) == 3 and not qos._recorded
            qos.ack_many([m.delivery_tag for m in got])
            for message in got:
                message.ack()
            while len(got) < 8:
                conn.drain_events(timeout=5)
        assert [m.payload["n"] for m in got] == list(range(8))
        for message in got[5:]:
            message.ack()
        assert client.hlen(qos.unacked_key) == 0


def test_events_taken_together_are_restored_by_kombu_like_its_own(redis_server):
    """What the take script records is kombu's own record: a worker that dies holding the events
    gives them back (restore_by_tag, what the visibility timeout runs) in their order."""
    name = f"restore-{uuid.uuid4().hex[:8]}"
    queue = Queue(name, Exchange(name), routing_key=name)
    client = redis_server.client()
    with Connection(redis_server.url, transport="workers.transport:Transport") as conn:
        _publish(conn, queue, [{"n": i, "text": "ünïcode / \"quoted\""} for i in range(4)])
        got = []
        with conn.Consumer(queue, callbacks=[lambda body, message: got.append(message)],
                           prefetch_count=10):
            conn.drain_events(timeout=5)
            assert len(got) == 4 and client.llen(name) == 0
            qos = got[0].channel.qos
            for message in got:
                qos.restore_by_tag(message.delivery_tag, leftmost=True)
            assert client.hlen(qos.unacked_key) == 0 and client.llen(name) == 4
            qos._delivered.clear()
            again = []
            with conn.Consumer(queue, callbacks=[lambda body, message: again.append(body)],
                               prefetch_count=10):
                while len(again) < 4:
                    conn.drain_events(timeout=5)
    assert sorted(b["n"] for b in again) == [0, 1, 2, 3]
    assert all(b["text"] == "ünïcode / \"quoted\"" for b in again)


def test_an_item_that_is_not_a_message_stops_the_take_and_stays_queued(redis_server):
    name = f"junk-{uuid.uuid4().hex[:8]}"
    queue = Queue(name, Exchange(name), routing_key=name)
    client = redis_server.client()
    with Connection(redis_server.url, transport="workers.transport:Transport") as conn:
        _publish(conn, queue, [{"n": 0}, {"n": 1}])
        client.lpush(name, "not json {")  # behind the two messages
        _publish(conn, queue, [{"n": 2}])
        got = []
        with conn.Consumer(queue, callbacks=[lambda body, message: got.append(message)],
                           prefetch_count=10):
            conn.drain_events(timeout=5)
            assert [m.payload["n"] for m in got] == [0, 1]
            assert client.lrange(name, -1, -1) == [b"not json {"]  # where it was, next in line
            assert client.hlen(got[0].channel.qos.unacked_key) == 2


def _drain_riding_out_errors(conn, got: list, n: int, deadline_s: float = 10) -> int:
    """drain_events until `n` messages arrived; a connection error (a lost reply) is what a
    worker sees on a broker crash: count it and read on, as the worker's consumer reconnects."""
    errors, deadline = 0, time.monotonic() + deadline_s
    while len(got) < n and time.monotonic() < deadline:
        try:
            conn.drain_events(timeout=1)
        except socket.timeout:
            pass
        except conn.connection_errors:
            errors += 1
    return errors


def test_a_reply_lost_while_waiting_loses_no_event(redis_server):
    """The broker ran the worker's wait and the reply never arrived (what a crash right after it
    looks like; tests/reply_dropper.py): with kombu's BRPOP the event was already off the queue
    and recorded nowhere, lost. The wait takes nothing, so the event is delivered after the
    reconnect, once."""
    name = f"lost-wait-{uuid.uuid4().hex[:8]}"
    queue = Queue(name, Exchange(name), routing_key=name)
    client = redis_server.client()
    port = port_of(redis_server.url)
    with ReplyDropper(port, {"BLMOVE": 1, "BRPOP": 1}) as proxy, \
            Connection(proxy.url(), transport="workers.transport:Transport") as conn:
        _publish(conn, queue, [{"n": i} for i in range(3)])
        got = []
        with conn.Consumer(queue, callbacks=[lambda body, message: got.append(message)],
                           prefetch_count=10):
            errors = _drain_riding_out_errors(conn, got, 3)
        assert len(proxy.dropped) == 1 and errors >= 1
        assert sorted(m.payload["n"] for m in got) == [0, 1, 2]
        assert client.llen(name) == 0 and client.hlen(got[0].channel.qos.unacked_key) == 3


def test_a_reply_lost_while_taking_leaves_the_events_recorded_for_restore(redis_server):
    """The reply to the take itself is lost: the events are in the broker's unacked set, not in
    the air, and kombu's visibility-timeout restore hands them out again."""
    name = f"lost-take-{uuid.uuid4().hex[:8]}"
    queue = Queue(name, Exchange(name), routing_key=name)
    client = redis_server.client()
    port = port_of(redis_server.url)
    with ReplyDropper(port, {"EVALSHA unacked_index": 1, "BRPOP": 1}) as proxy, \
            Connection(proxy.url(), transport="workers.transport:Transport",
                       transport_options={"visibility_timeout": 1}) as conn:
        _publish(conn, queue, [{"n": i, "text": "ünïcode"} for i in range(3)])
        got = []
        with conn.Consumer(queue, callbacks=[lambda body, message: got.append(message)],
                           prefetch_count=10) as consumer:
            with pytest.raises(conn.connection_errors):  # the lost reply
                conn.drain_events(timeout=5)
            assert len(proxy.dropped) == 1 and not got
            qos = consumer.channel.qos
            assert client.llen(name) == 0
            assert client.hlen(qos.unacked_key) == 3 and client.zcard(qos.unacked_index_key) == 3
            time.sleep(1.2)  # past the visibility timeout
            qos.restore_visible(num=10, interval=1)
            _drain_riding_out_errors(conn, got, 3)
        assert sorted(m.payload["n"] for m in got) == [0, 1, 2]
        assert all(m.payload["text"] == "ünïcode" for m in got)


def test_a_broker_without_blmove_falls_back_to_brpop(redis_server, monkeypatch, caplog):
    """Redis before 6.2 answers that BLMOVE is unknown: the worker says so and takes events with
    kombu's BRPOP (the hole named above included) rather than failing every poll."""
    from workers import transport
    monkeypatch.setattr(transport.Channel, "wait_command", "NOSUCHWAIT")
    name = f"old-redis-{uuid.uuid4().hex[:8]}"
    queue = Queue(name, Exchange(name), routing_key=name)
    with Connection(redis_server.url, transport="workers.transport:Transport") as conn:
        _publish(conn, queue, [{"n": i} for i in range(3)])
        got = []
        with caplog.at_level("WARNING", logger="lurker.workers"), \
                conn.Consumer(queue, callbacks=[lambda body, message: got.append(message)],
                              prefetch_count=10):
            assert _drain_riding_out_errors(conn, got, 3) == 0
    assert sorted(m.payload["n"] for m in got) == [0, 1, 2]
    assert "events are taken with BRPOP" in caplog.text
