"""A batch's acknowledgements in one Redis round trip (workers/transport.py QoS.ack_many), on a
real Redis through kombu with the worker's transport: the deliveries leave the broker's unacked
set together, each message's own ack() sends nothing more, and a delivery not acked together is
acked by itself as before."""
from __future__ import annotations

import uuid

import pytest
from kombu import Connection, Exchange, Queue

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
