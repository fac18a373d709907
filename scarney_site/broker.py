"""The Redis broker transport, with one repair: a worker that loses Redis stays up.

kombu 5.7's consumer, on losing the broker, releases its connection and then closes its channel,
whose close restores the messages the worker holds unacknowledged (a task waiting for its retry,
say) through that released connection: ``'NoneType' object has no attribute 'hostname'``, an
"unrecoverable error", and the worker exits. Here that restore gives way: the messages stay in
Redis's unacknowledged set, from which any worker restores them once the visibility timeout
(``BROKER_VISIBILITY_TIMEOUT``) has passed, and the outbox sends every side effect not yet
recorded again in any case. Selected by ``CELERY_BROKER_TRANSPORT`` when ``REDIS_URL`` is set.
"""

from __future__ import annotations

import logging
from typing import Any

from kombu.transport import redis

log = logging.getLogger(__name__)


class QoS(redis.QoS):
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
