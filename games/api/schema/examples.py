"""The OpenAPI schema's examples: real requests and answers of the API, kept in examples.json.

examples.json is written by tests/games/api/test_schema_examples.py (``RECORD_SCHEMA_EXAMPLES=1``),
which drives the API through a club evening and keeps each body with the operation it was sent to or
answered by, its status, and the schema component it shows; the same test checks that the API still
answers in those shapes and that each example fits its component. Nothing here is written by hand,
so the docs cannot drift from the service unnoticed.

The schema hook (games/api/schema/openapi.py) lists them all under ``components/examples`` and
refers to each where it belongs: a request body or an answer at the operation it came from (the
answer serializers are shared, so a game's move must not show under a tournament's events), an error
under every operation that may answer its status.
"""

from __future__ import annotations

import json
from collections.abc import Collection
from pathlib import Path
from typing import Any

PATH = Path(__file__).with_name("examples.json")
# name -> {"summary", "component", "operation" ("post /api/v1/games/"), "status" (answers and
# errors only), "value"}
RECORDED: dict[str, dict[str, Any]] = json.loads(PATH.read_text(encoding="utf-8"))
ERROR_STATUSES = ("400", "401", "403", "404", "409", "422", "429")


def key(name: str) -> str:
    """The example's name in the schema: ``solitaire_in_progress`` -> ``SolitaireInProgress``."""
    return "".join(part.capitalize() for part in name.split("_"))


def components() -> dict[str, dict[str, Any]]:
    """Every example as an OpenAPI Example Object, for ``components/examples``."""
    return {
        key(name): {"summary": entry["summary"], "value": entry["value"]}
        for name, entry in RECORDED.items()
    }


def _refs(names: list[str]) -> dict[str, dict[str, str]]:
    return {key(name): {"$ref": f"#/components/examples/{key(name)}"} for name in names}


def at(operation: str, status: str | None = None) -> dict[str, dict[str, str]]:
    """The examples recorded at ``operation``: its answers of ``status``, or, with no status,
    its request bodies."""
    return _refs(
        [
            name
            for name, entry in RECORDED.items()
            if entry["operation"] == operation
            and entry.get("status") == status
            and entry["component"] != "Error"
        ]
    )


def errors_of(
    status: str,
    method: str,
    *,
    only: Collection[str] | None = None,
    besides: Collection[str] = (),
) -> dict[str, dict[str, str]]:
    """The error answers of ``status``: those met on a request of ``method``'s kind (a read or a
    write) if there are any, else all of them; met at one of ``only`` operations if given, and
    never at one of ``besides`` (whose refusals are their own: a webhook's URL under a game's
    move would mislead)."""
    found = [
        name
        for name, entry in RECORDED.items()
        if entry["component"] == "Error"
        and entry["status"] == status
        and (only is None or entry["operation"] in only)
        and entry["operation"] not in besides
    ]
    reads = method == "get"
    alike = [name for name in found if RECORDED[name]["operation"].startswith("get ") == reads]
    return _refs(alike or found)
