"""The Redis broker transport, with one repair: a worker that loses Redis stays up.

kombu 5.7's consumer, on losing the broker, releases its connection and then closes its channel,
whose close restores the messages the worker holds unacknowledged (a task waiting for its retry,
say) through that released connection: ``'NoneType' object has no attribute 'hostname'``, an
"unrecoverable error", and the worker exits. Here that restore gives way: the messages stay in
Redis's unacknowledged set, from which any worker restores them once the visibility timeout
(``BROKER_VISIBILITY_TIMEOUT``) has passed, and the outbox sends every side effect not yet
recorded again in any case. Selected by ``CELERY_BROKER_TRANSPORT`` when ``REDIS_URL`` is set.

The same released connection meets a task that ends just after the broker went: its
acknowledgement (or rejection) asks that connection for a Redis client, the same AttributeError
is raised inside the worker's event loop, and the worker, still running, consumes nothing more
(seen on a loaded machine: a soak's last 33 of 115 matches never settled). Here such an
acknowledgement is taken as the channel's alone: the message stays in Redis's unacknowledged
set and is run again after the visibility timeout, which the tasks, idempotent, allow.
"""

from __future__ import annotations

import logging
from typing import Any

from kombu.transport import redis, virtual

log = logging.getLogger(__name__)


class QoS(redis.QoS):
    def ack(self, delivery_tag: Any) -> None:
        if self._released():
            self._given_up(delivery_tag, "acknowledged")
            return
        super().ack(delivery_tag)  # type: ignore[no-untyped-call]  # kombu's

    def reject(self, delivery_tag: Any, requeue: bool = False) -> None:
        if self._released():
            self._given_up(delivery_tag, "rejected")
            return
        super().reject(delivery_tag, requeue)  # type: ignore[no-untyped-call]  # kombu's

    def _released(self) -> bool:
        """Whether the channel's connection was released (the broker was lost)."""
        connection = self.channel.connection
        return connection is None or connection.client is None

    def _given_up(self, delivery_tag: Any, what: str) -> None:
        log.warning(
            "broker lost: a message %s after the loss stays in Redis's unacknowledged set, to be "
            "restored after the visibility timeout",
            what,
        )
        virtual.QoS.ack(self, delivery_tag)  # type: ignore[no-untyped-call]  # no Redis

    def restore_unacked(self, client: Any = None) -> None:
        try:
            super().restore_unacked(client)  # type: ignore[no-untyped-call]  # kombu's
        except AttributeError:
            if self.channel.connection is not None and self.channel.connection.client is not None:
                raise  # not the released connection: a bug to see
            log.warning(
                "broker lost: %d unacknowledged message(s) left for Redis to restore after the "
                "visibility timeout",
                len(self._delivered),
            )
            self._delivered.clear()


class Channel(redis.Channel):
    QoS = QoS


class Transport(redis.Transport):
    Channel = Channel
