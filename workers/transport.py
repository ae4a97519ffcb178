"""kombu's Redis transport, with one window closed and one bound added.

The window: an event popped from its queue just as the broker goes away is kept and ingested by
this worker instead of being dropped.

kombu delivers a Redis message in two steps: BRPOP takes it off the queue, then the QoS records it
in the broker's `unacked` set (which is what brings it back if the worker dies). When Redis dies
between the two, the recording fails with a connection error and kombu drops the message it holds
in memory: the event is in neither place and is lost (seen in about one run in four of a test that
SIGKILLs Redis under a busy worker). Here the failed recording is logged and the message is handed
to the worker all the same; it is ingested from memory (its ack cannot reach the broker and is
dropped with the lost connection, see workers/consumer.py). The transport's limit (BRPOP, not an
atomic move) remains in two cases: this worker also dies before finishing the event, or Redis dies
after its BRPOP took the event (written to its append-only file) but before the reply reached the
worker — then no one holds it and it is lost. The second was seen once in ~8 runs of
tests/test_workers_real.py's broker-outage test on 25 Nov (one event of 300); closing it needs a
move into a per-worker processing list (BLMOVE) instead of BRPOP.

The bound: a worker holds at most `vector_tasks_held` follow-up embedding tasks (lurker.vectors;
one per pool process) reserved at once. kombu's prefetch window counts messages, not work: sized
for batches of events (hundreds), it would otherwise fill with embedding tasks of a whole batch
each when that queue has a backlog, and the last of them would wait longer than the visibility
timeout and be handed out again while this worker still holds it. With the bound the embeddings
queue waits in Redis, not in the worker, and what a worker holds is what the delivery rule
(workers/broker.py) budgets for.

Only plain redis:// brokers get this transport: given a transport class, kombu no longer reads
the rediss:// scheme as TLS, and unix:// sockets take their own connection setup, so those keep
kombu's stock transport (neither the window nor the bound).
"""
from __future__ import annotations

import logging

from celery.worker import state as worker_state
from kombu.transport import redis as kombu_redis
from kombu.transport import virtual

from .broker import INDEX_BATCH_TASK, INDEX_TASK, VECTORS_QUEUE

log = logging.getLogger("lurker.workers")


class QoS(kombu_redis.QoS):
    """Besides the window above: a settled batch is acknowledged in one Redis round trip
    (ack_many) instead of one per message; kombu's ack then only does its in-memory part."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._removed: set = set()  # delivery tags already taken out of the unacked indices

    def ack_many(self, delivery_tags) -> None:
        """Take these deliveries out of the broker's unacked set and index together; each
        message's own ack() follows (Celery's bookkeeping) and sends nothing more. If the
        pipeline fails, nothing is marked and each ack() sends its own, as before."""
        tags = list(dict.fromkeys(delivery_tags))
        if not tags:
            return
        with self.pipe_or_acquire() as pipe:
            for tag in tags:
                self._remove_from_indices(tag, pipe)
            pipe.execute()
        self._removed.update(tags)

    def ack(self, delivery_tag):
        if delivery_tag in self._removed:
            self._removed.discard(delivery_tag)
            virtual.QoS.ack(self, delivery_tag)
            return
        super().ack(delivery_tag)

    def append(self, message, delivery_tag):
        try:
            super().append(message, delivery_tag)
        except self.channel.connection.connection_errors as exc:
            log.warning("event %s was taken from the queue as the broker went away (%s): it "
                        "is ingested from this worker's memory", delivery_tag, exc)
            virtual.QoS.append(self, message, delivery_tag)


def vector_tasks_reserved() -> int:
    """Embedding tasks this worker process has taken and not finished (waiting or running)."""
    return sum(1 for request in list(worker_state.reserved_requests)
               if request.name in (INDEX_BATCH_TASK, INDEX_TASK))


class CappedEmbeddings:
    """The order the worker asks Redis for its queues in (a kombu queue cycle): new events first,
    so they are searchable first and embeddings are taken when no event waits (a worker that
    keeps up empties the events queue between bursts), and the embeddings queue is left out
    while `held` of its tasks are reserved here."""

    def __init__(self, held: int) -> None:
        self.held = max(1, held)
        self.items: list[str] = []

    def update(self, items) -> None:
        self.items = sorted(items, key=lambda name: (name == VECTORS_QUEUE, name))

    def full(self) -> bool:
        """Whether the embeddings queue is left out now (this worker holds enough of its tasks)."""
        return (VECTORS_QUEUE in self.items and len(self.items) > 1
                and vector_tasks_reserved() >= self.held)

    def consume(self, n: int) -> list[str]:
        queues = self.items[:n]
        if self.full():
            queues = [name for name in queues if name != VECTORS_QUEUE]
        return queues

    def rotate(self, last_used) -> None:
        """The order does not rotate: events first."""


class Channel(kombu_redis.Channel):
    QoS = QoS
    from_transport_options = (*kombu_redis.Channel.from_transport_options, "vector_tasks_held")
    vector_tasks_held = 2

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._queue_cycle = CappedEmbeddings(self.vector_tasks_held)
        self._sync_client = None

    def _create_client(self, asynchronous=False):
        # kombu builds a new client for every command it sends outside BRPOP (a publish, and the
        # record and the ack of each delivered message): ~50 us of redis-py setup each, about a
        # tenth of the worker's main process. One client serves them all (its connection pool is
        # thread-safe), made again if kombu replaces the pool.
        if asynchronous:
            return super()._create_client(asynchronous=True)
        client = self._sync_client
        if client is None or client.connection_pool is not self.pool:
            client = self._sync_client = super()._create_client()
        return client

    def _brpop_start(self, timeout=None):
        # A slot for an embedding task frees when one ends, which no BRPOP reply announces: while
        # the embeddings queue is left out, ask again every quarter second rather than every
        # brpop_timeout (1 s), or a pool process idles up to a second after each task. (A
        # fractional BRPOP timeout needs Redis 6.0 or newer.)
        if timeout is None and self._queue_cycle.full():
            timeout = 0.25
        return super()._brpop_start(timeout)


class Transport(kombu_redis.Transport):
    Channel = Channel
