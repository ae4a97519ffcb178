"""The worker's consumer: Celery's, with a broker loss it survives while it holds events.

Celery 5.7 handles a lost connection by `collect()`-ing it (which detaches kombu's Redis transport
from its connection settings) and then closing it. Closing a channel restores the messages it
holds unacknowledged; with the transport detached that restore cannot even build a Redis client
(`'NoneType' object has no attribute 'hostname'` in `_connparams`), the error is not a connection
error, and the worker exits as "unrecoverable" — whenever Redis goes away while a batch is held.

Restoring from a connection to a broker that is gone cannot work anyway. The Redis transport
keeps every delivered, unacknowledged message in the broker's own `unacked` set from the moment it
is delivered; the reconnected consumer restores those whose visibility timeout has passed. So the
lost connection's channels are told not to restore on close, and the worker reconnects.
"""
from __future__ import annotations

import logging

from celery.worker.consumer import Consumer as CeleryConsumer

log = logging.getLogger("lurker.workers")


def _settled_on_lost_channel(delivery_tag, *_, **__) -> None:
    log.info("event %s was settled after its broker connection was lost: the broker delivers "
             "it again after the visibility timeout", delivery_tag)


def _channels(connection) -> list:
    channels = list(getattr(getattr(connection, "transport", None), "channels", None) or [])
    default = getattr(connection, "_default_channel", None)
    if default is not None and default not in channels:
        channels.append(default)
    return channels


class Consumer(CeleryConsumer):
    def on_connection_error_after_connected(self, exc):
        held = 0
        connection = self.connection
        if connection is not None:
            for channel in _channels(connection):
                qos = getattr(channel, "_qos", None)
                held += len(getattr(qos, "_delivered", None) or ())
                channel.do_restore = False  # the broker's unacked set keeps them (see above)
                # Acks and rejects the pool settles later (some already queued on the event
                # loop) cannot reach the broker through this channel; they are dropped, and the
                # broker delivers those events again after the visibility timeout (ingest is
                # idempotent: content-addressed ids).
                channel.basic_ack = channel.basic_reject = _settled_on_lost_channel
        if held:
            log.warning("broker connection lost while this worker holds %d events; they stay "
                        "in the broker's unacknowledged set and are delivered again %.0f s "
                        "after their delivery (the visibility timeout)", held,
                        self.app.conf.broker_transport_options.get("visibility_timeout", 3600))
        super().on_connection_error_after_connected(exc)
