"""kombu's Redis transport, with one window closed: an event popped from its queue just as the
broker goes away is kept and ingested by this worker instead of being dropped.

kombu delivers a Redis message in two steps: BRPOP takes it off the queue, then the QoS records it
in the broker's `unacked` set (which is what brings it back if the worker dies). When Redis dies
between the two, the recording fails with a connection error and kombu drops the message it holds
in memory: the event is in neither place and is lost (seen in about one run in four of a test that
SIGKILLs Redis under a busy worker). Here the failed recording is logged and the message is handed
to the worker all the same; it is ingested from memory (its ack cannot reach the broker and is
dropped with the lost connection, see workers/consumer.py). Only if this worker also dies before
finishing it is the event lost — the transport's limit (BRPOP, not an atomic move).
"""
from __future__ import annotations

import logging

from kombu.transport import redis as kombu_redis
from kombu.transport import virtual

log = logging.getLogger("lurker.workers")


class QoS(kombu_redis.QoS):
    def append(self, message, delivery_tag):
        try:
            super().append(message, delivery_tag)
        except self.channel.connection.connection_errors as exc:
            log.warning("event %s was taken from the queue as the broker went away (%s): it "
                        "is ingested from this worker's memory", delivery_tag, exc)
            virtual.QoS.append(self, message, delivery_tag)


class Channel(kombu_redis.Channel):
    QoS = QoS


class Transport(kombu_redis.Transport):
    Channel = Channel
