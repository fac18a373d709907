"""The broker transport's repair (scarney_site/broker.py): a message acknowledged after the
worker lost Redis leaves the worker consuming, through a real Redis."""

from __future__ import annotations

import uuid

import pytest
import redis
from django.conf import settings
from kombu import Connection
from kombu.transport import redis as kombu_redis

from scarney_site import broker


def received(transport: type) -> tuple[Connection, kombu_redis.Channel, int]:
    """A channel of ``transport`` holding one message taken and not yet acknowledged."""
    connection = Connection(settings.TEST_REDIS_URL, transport=transport)
    channel = connection.channel()
    queue = f"repair-{uuid.uuid4().hex}"
    channel.queue_declare(queue)
    channel.basic_publish(channel.prepare_message("settle"), exchange="", routing_key=queue)
    message = channel.basic_get(queue, no_ack=False)
    assert message is not None
    return connection, channel, message.delivery_tag


def release(channel: kombu_redis.Channel) -> object:
    """What the consumer does to its channel when Redis goes: the channel's pools are
    disconnected (its close) and its connection released."""
    channel._disconnect_pools()
    released = channel.connection
    channel.connection = None
    return released


def test_an_acknowledgement_after_the_loss_leaves_the_message_to_redis() -> None:
    # given a worker's channel holding a message, whose connection the consumer released as
    # it does when Redis goes
    connection, channel, tag = received(broker.Transport)
    unacked = channel.unacked_key
    released = release(channel)
    try:
        # when the task ends and its message is acknowledged, then rejected
        channel.qos.ack(tag)
        channel.qos.reject(tag)
        # then the channel takes it (no error in the worker's loop, room to consume again)
        assert channel.qos.can_consume()
        # and the message waits in Redis's unacknowledged set, to be restored later
        assert redis.Redis.from_url(settings.TEST_REDIS_URL).hexists(unacked, tag)
    finally:
        channel.connection = released
        redis.Redis.from_url(settings.TEST_REDIS_URL).hdel(unacked, tag)
        connection.release()


def test_kombus_own_transport_fails_there() -> None:
    # the repair's reason: kombu's transport asks the released connection for a client
    connection, channel, tag = received(kombu_redis.Transport)
    released = release(channel)
    try:
        with pytest.raises(AttributeError):
            channel.qos.ack(tag)
    finally:
        channel.connection = released
        channel.qos.ack(tag)
        connection.release()
