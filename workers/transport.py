"""kombu's Redis transport, with one window closed, one bound added, and a busy queue's events
taken many at a time (Channel._brpop_read).

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
move into a per-worker processing list (BLMOVE) instead of BRPOP. On a busy queue the window is
now BRPOP's event alone: the events taken beside it (TAKE_MORE, below, up to 99) are recorded in
the same atomic step that takes them.

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
from time import time

from celery.worker import state as worker_state
from kombu.transport import redis as kombu_redis
from kombu.transport import virtual
from kombu.utils.encoding import bytes_to_str
from kombu.utils.json import dumps, loads
from redis import exceptions as redis_errors

from .broker import INDEX_BATCH_TASK, INDEX_TASK, VECTORS_QUEUE

log = logging.getLogger("lurker.workers")


class QoS(kombu_redis.QoS):
    """Besides the window above: a settled batch is acknowledged in one Redis round trip
    (ack_many) instead of one per message; kombu's ack then only does its in-memory part."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._removed: set = set()  # delivery tags already taken out of the unacked indices
        self._recorded: set = set()  # delivery tags the take script already put in them

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
        if delivery_tag in self._recorded:  # taken and recorded together (Channel._take_more)
            self._recorded.discard(delivery_tag)
            virtual.QoS.append(self, message, delivery_tag)
            return
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


# Takes up to ARGV[1] more events from the list KEYS[1] and records each in the unacked hash
# KEYS[2] and index KEYS[3] in the same atomic step, after recording the event BRPOP just
# delivered (tag ARGV[3], record ARGV[4]); ARGV[2] is the time. The records are kombu's own
# (QoS.append: [message, exchange, routing_key] by delivery tag), so its restore brings any of
# these back. An item that is not a kombu message is put back where it was and ends the take:
# BRPOP delivers it next and kombu deals with it as it always did.
TAKE_MORE = """
redis.call('ZADD', KEYS[3], ARGV[2], ARGV[3])
redis.call('HSET', KEYS[2], ARGV[3], ARGV[4])
local taken = {}
for i = 1, tonumber(ARGV[1]) do
  local item = redis.call('RPOP', KEYS[1])
  if not item then break end
  local ok, message = pcall(cjson.decode, item)
  local props = ok and type(message) == 'table' and message.properties
  local tag = type(props) == 'table' and props.delivery_tag
  if type(tag) ~= 'string' and type(tag) ~= 'number' then
    redis.call('RPUSH', KEYS[1], item)
    break
  end
  local info = type(props.delivery_info) == 'table' and props.delivery_info or {}
  redis.call('ZADD', KEYS[3], ARGV[2], tag)
  redis.call('HSET', KEYS[2], tag, '[' .. item .. ', ' .. cjson.encode(info.exchange or '')
                                   .. ', ' .. cjson.encode(info.routing_key or '') .. ']')
  taken[#taken + 1] = item
end
return taken
"""


class Channel(kombu_redis.Channel):
    QoS = QoS
    from_transport_options = (*kombu_redis.Channel.from_transport_options, "vector_tasks_held",
                              "take_at_once")
    vector_tasks_held = 2
    # Events one BRPOP reply brings at most, with what TAKE_MORE takes beside it (prefetch allowing)
    take_at_once = 100

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

    def _brpop_read(self, **options):
        # kombu's _brpop_read, taking a busy queue's next events in the same round trip that
        # records the first: per event, kombu spends one round trip on BRPOP and one on recording
        # it in the unacked set (QoS.append), about a fifth of the worker's main process at
        # ~900 events/s. The events taken here are recorded in the same atomic step that takes
        # them, so an outage in between cannot lose them (unlike BRPOP's own event, see above).
        try:
            try:
                dest__item = self.client.parse_response(self.client.connection, "BRPOP",
                                                        **options)
            except self.connection_errors:
                self.client.connection.disconnect()
                raise
            if not dest__item:
                raise kombu_redis.Empty()
            key, item = dest__item
            dest = bytes_to_str(key).rsplit(self.sep, 1)[0]
            message = loads(bytes_to_str(item))
            self._deliver_all(dest, [message, *self._take_more(key, dest, message)])
            return True
        finally:
            self._in_poll = None
            self._flush_brpop_reauth()

    def _take_more(self, key, dest: str, message: dict) -> list[dict]:
        """The events after `message` in its queue (decoded), taken and recorded with it
        (TAKE_MORE); none
        for the embeddings queue (its tasks are held by count, see CappedEmbeddings), for a
        prefixed broker, or when prefetch has no room."""
        room = self.qos.can_consume_max_estimate()
        count = min(self.take_at_once, room if room is not None else self.take_at_once) - 1
        props = message.get("properties") if isinstance(message, dict) else None
        if (count < 1 or dest == VECTORS_QUEUE or self.global_keyprefix
                or not isinstance(props, dict) or "delivery_tag" not in props):
            return []
        tag = props["delivery_tag"]
        info = props.get("delivery_info") or {}
        record = dumps([message, info.get("exchange"), info.get("routing_key")])
        try:
            client = self._create_client()
            script = getattr(client, "_lurker_take_more", None)
            if script is None:
                script = client._lurker_take_more = client.register_script(TAKE_MORE)
            more = script(keys=[key, self.unacked_key, self.unacked_index_key],
                          args=[count, time(), tag, record], client=client)
        except (*self.connection_errors, redis_errors.ResponseError) as exc:
            # none delivered from here (any taken wait in the unacked set for the visibility
            # timeout); kombu records the first event itself (QoS.append)
            log.warning("could not take more events with %s (%s)", tag, exc)
            return []
        taken = [loads(bytes_to_str(item)) for item in more]
        self.qos._recorded.update([tag, *(m["properties"]["delivery_tag"] for m in taken)])
        return taken

    def _deliver_all(self, dest: str, messages: list) -> None:
        """Hands each message to its consumer; one whose callback raises does not keep the
        others (already taken and recorded) from theirs."""
        failed = None
        for message in messages:
            try:
                self.connection._deliver(message, dest)
            except Exception as exc:  # noqa: BLE001 - raised after the rest are delivered
                failed = failed or exc
        if failed is not None:
            raise failed


class Transport(kombu_redis.Transport):
    Channel = Channel
