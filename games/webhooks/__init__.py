"""Webhooks: a director registers a URL; the events it subscribes to are POSTed to it, signed.

An append of ``match.settled``, ``game.finished`` or ``round.paired`` registers one ``Delivery``
per active webhook that subscribes to its type, in the appending transaction, with an outbox row
that sends it (``games.store.outbox``). ``sending`` makes one attempt at a time; a failure is
retried with backoff by the outbox's relay, and a delivery is finished (delivered, or failed after
its
last attempt) exactly once. docs/API.md "Webhooks" is the receiver's side; docs/DESIGN.md
"Webhooks" the reasons.
"""
