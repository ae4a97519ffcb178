"""kombu's Redis transport, with an event never held only by a reply in flight, one bound added,
and a busy queue's events taken many at a time.

At least once, broker crashes included. kombu takes an event with BRPOP, which removes it from
its queue in the broker and hands it over in the reply, and only then records it in the broker's
`unacked` set (what brings it back if the worker dies). A broker that dies after the BRPOP (the
take written to its append-only file) but before the reply reached the worker lost the event:
one of 300 in about one run in eight of tests/test_workers_real.py's broker-outage test. Here
the worker waits with a command that takes nothing (BLMOVE of the queue onto its own tail,
Channel._brpop_start), then takes the queue's next events with a script (TAKE) that records each
in the unacked set in the same atomic step. An event is always in its queue or recorded, so a
lost reply costs a redelivery after the visibility timeout, never the event. The same take
brings up to `take_at_once` events in one round trip (prefetch allowing) instead of kombu's two
round trips an event. The wait blocks on one queue (BLMOVE takes one key): the first that has
events when it starts, else the first; a task that arrives in another queue (the embeddings
queue) meanwhile waits at most `other_queues_wait` seconds.

A second window: when recording an event that kombu took itself fails with a connection error
(the fallback below, or an item kombu hands on unrecorded), kombu would drop the message it holds
in memory. Here the failed recording is logged and the message is handed to the worker all the
same; it is ingested from memory (its ack cannot reach the broker and is dropped with the lost
connection, see workers/consumer.py).

The bound: a worker holds at most `vector_tasks_held` follow-up embedding tasks (lurker.vectors;
one per pool process) reserved at once. kombu's prefetch window counts messages, not work: sized
for batches of events (hundreds), it would otherwise fill with embedding tasks of a whole batch
each when that queue has a backlog, and the last of them would wait longer than the visibility
timeout and be handed out again while this worker still holds it. With the bound the embeddings
queue waits in Redis, not in the worker, and what a worker holds is what the delivery rule
(workers/broker.py) budgets for.

Only plain redis:// brokers get this transport: given a transport class, kombu no longer reads
the rediss:// scheme as TLS, and unix:// sockets take their own connection setup, so those keep
kombu's stock transport (none of the above). A broker older than Redis 6.2 (no BLMOVE) or with a
global key prefix gets kombu's BRPOP, with the bound.
"""
from __future__ import annotations

import logging
from time import monotonic, time

from celery.worker import state as worker_state
from kombu.transport import redis as kombu_redis
from kombu.transport import virtual
from kombu.utils.encoding import bytes_to_str
from kombu.utils.json import loads
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
        if delivery_tag in self._recorded:  # taken and recorded together (Channel._take)
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


# Takes the next events of the first of the queues KEYS[3..] that has any, at most ARGV[k - 1]
# from KEYS[k], and records each in kombu's unacked hash KEYS[1] and index KEYS[2] (time ARGV[1])
# in the same atomic step, so an event is always either in its queue or recorded: a reply lost
# to a broker crash leaves the events in the unacked set, and kombu's restore brings them back
# after the visibility timeout. The records are kombu's own (QoS.append: [message, exchange,
# routing_key] by delivery tag). Returns {queue, events} or nil. An item that is not a kombu
# message ends the take and is put back where it was; when it is the first item of its queue it
# is returned unrecorded as {queue, {}, item}, and kombu deals with it as it always did.
TAKE = """
for k = 3, #KEYS do
  local taken = {}
  for i = 1, tonumber(ARGV[k - 1]) do
    local item = redis.call('RPOP', KEYS[k])
    if not item then break end
    local ok, message = pcall(cjson.decode, item)
    local props = ok and type(message) == 'table' and message.properties
    local tag = type(props) == 'table' and props.delivery_tag
    if type(tag) ~= 'string' and type(tag) ~= 'number' then
      if #taken == 0 then return {KEYS[k], taken, item} end
      redis.call('RPUSH', KEYS[k], item)
      break
    end
    local info = type(props.delivery_info) == 'table' and props.delivery_info or {}
    redis.call('ZADD', KEYS[2], ARGV[1], tag)
    redis.call('HSET', KEYS[1], tag, '[' .. item .. ', ' .. cjson.encode(info.exchange or '')
                                     .. ', ' .. cjson.encode(info.routing_key or '') .. ']')
    taken[#taken + 1] = item
  end
  if #taken > 0 then return {KEYS[k], taken} end
end
return false
"""


class Channel(kombu_redis.Channel):
    QoS = QoS
    from_transport_options = (*kombu_redis.Channel.from_transport_options, "vector_tasks_held",
                              "take_at_once", "other_queues_wait")
    vector_tasks_held = 2
    # Events one take brings at most (prefetch allowing)
    take_at_once = 100
    # The wait blocks on one queue (BLMOVE takes one key): a task that arrives in another queue
    # (the embeddings queue) while the wait is on the first waits at most this long.
    other_queues_wait = 0.25
    # A blocking wait that leaves the list as it is: BLMOVE of a list onto its own tail (Redis
    # 6.2 or newer). Older servers answer "unknown command" and the channel falls back to
    # kombu's BRPOP (its at-least-once hole included), with a warning.
    wait_command = "BLMOVE"

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._queue_cycle = CappedEmbeddings(self.vector_tasks_held)
        self._sync_client = None
        self._waiting_on: list[str] = []
        self._stock_brpop = False

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
        # A slot for an embedding task frees when one ends, which no reply announces: while the
        # embeddings queue is left out, ask again every quarter second rather than every
        # brpop_timeout (1 s), or a pool process idles up to a second after each task. (A
        # fractional timeout needs Redis 6.0 or newer.)
        if timeout is None and self._queue_cycle.full():
            timeout = 0.25
        if self._stock_brpop or self.global_keyprefix:
            return super()._brpop_start(timeout)
        # kombu's BRPOP takes the event off the queue in the broker and hands it over in the
        # reply: a broker that dies after the take (written to its append-only file) but before
        # the reply reaches the worker loses the event. Here the wait takes nothing, and the take
        # (TAKE, in _brpop_read) records what it takes in the same atomic step.
        queues = self._queue_cycle.consume(len(self.active_queues))
        if not queues:
            return
        if timeout is None:
            timeout = self.brpop_timeout
        self._waiting_on = [self._q_for_pri(queue, pri) for pri in self.priority_steps
                            for queue in queues]
        first = self._waiting_on[0]
        if len(queues) > 1:
            timeout = min(timeout or self.other_queues_wait, self.other_queues_wait)
            # the wait blocks on one queue: when the first is empty and another is not, wait on
            # that one (answered at once) rather than until the timeout
            with self._create_client().pipeline(transaction=False) as pipe:
                for key in self._waiting_on:
                    pipe.llen(key)
                lengths = pipe.execute()
            first = next((key for key, n in zip(self._waiting_on, lengths) if n), first)
        self._in_poll = self.client.connection
        self._brpop_sent_at = monotonic()
        self.client.connection.send_command(self.wait_command, first, first, "RIGHT", "RIGHT",
                                            timeout or 0)

    def _brpop_read(self, **options):
        if self._stock_brpop or self.global_keyprefix:
            return super()._brpop_read(**options)
        try:
            try:
                self.client.parse_response(self.client.connection, self.wait_command, **options)
            except self.connection_errors:
                self.client.connection.disconnect()
                raise
            except redis_errors.ResponseError as exc:
                if "unknown command" not in str(exc).lower():
                    raise
                log.warning("the broker has no %s (Redis 6.2 or newer): events are taken with "
                            "BRPOP, which loses one if the broker dies before its reply "
                            "arrives", self.wait_command)
                self._stock_brpop = True
                raise kombu_redis.Empty() from exc
            dest, messages = self._take(self._waiting_on)
            if not messages:
                raise kombu_redis.Empty()
            self._deliver_all(dest, messages)
            return True
        finally:
            self._in_poll = None
            self._flush_brpop_reauth()

    def _take(self, keys: list[str]) -> tuple[str | None, list[dict]]:
        """The next events of the first of these queue keys that has any (TAKE), decoded, each
        already recorded in the unacked set, except an item that is not a kombu message, which
        is handed on as kombu's BRPOP would."""
        room = self.qos.can_consume_max_estimate()
        count = max(1, min(self.take_at_once, room if room is not None else self.take_at_once))
        # embedding tasks one at a time: they are held by count (CappedEmbeddings)
        limits = [1 if key.rsplit(self.sep, 1)[0] == VECTORS_QUEUE else count for key in keys]
        client = self._create_client()
        script = getattr(client, "_lurker_take", None)
        if script is None:
            script = client._lurker_take = client.register_script(TAKE)
        # a connection error propagates: whatever the script took is in the unacked set
        reply = script(keys=[self.unacked_key, self.unacked_index_key, *keys],
                       args=[time(), *limits], client=client)
        if not reply:
            return None, []
        key, items, *junk = reply
        dest = bytes_to_str(key).rsplit(self.sep, 1)[0]
        taken = [loads(bytes_to_str(item)) for item in items]
        self.qos._recorded.update(m["properties"]["delivery_tag"] for m in taken)
        if junk and junk[0] is not None:
            taken.append(loads(bytes_to_str(junk[0])))  # raises as kombu's BRPOP read would
        return dest, taken

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
