"""A Celery worker with embedded beat, as tests/games/webhooks/test_delivery.py runs it in a
process.

``python tests/games/webhooks/delivery_worker.py worker -B ...`` runs ``celery -A scarney_site``
with the given arguments. With ``SCARNEY_TEST_CLOSE_DELAY`` set (seconds), every closing event is
held that long inside its transaction, after ``SCARNEY_TEST_CLOSE_MARKER`` (a file) got the match's
id: a test can then kill the worker in the middle of a settlement.
"""

from __future__ import annotations

import os
import sys
import time
from typing import Any

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scarney_site.settings")
django.setup()

from games.play import appending  # noqa: E402
from games.rules.events import MATCH_RATED, MATCH_SETTLED  # noqa: E402
from scarney_site.celery import app  # noqa: E402

DELAY = float(os.environ.get("SCARNEY_TEST_CLOSE_DELAY", "0"))
MARKER = os.environ.get("SCARNEY_TEST_CLOSE_MARKER", "")


def _slow_append(*args: Any, **kwargs: Any) -> Any:
    recorded = _append(*args, **kwargs)
    stream, _, type = args[:3]
    if type in (MATCH_SETTLED, MATCH_RATED):
        with open(MARKER, "a") as marker:
            marker.write(f"{stream.pk}\n")
        time.sleep(DELAY)  # the closing event is inserted, not committed
    return recorded


if DELAY:
    _append = appending.append
    appending.append = _slow_append  # type: ignore[assignment]

if __name__ == "__main__":
    app.worker_main(sys.argv[1:])
