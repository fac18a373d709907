"""The API's JSON parser: DRF's, plus refusals for what would otherwise fail deeper down."""

from __future__ import annotations

from typing import Any

from rest_framework import parsers
from rest_framework.exceptions import ParseError

from games.store.canonical import canonical

# No event of any game nests deeper than a few levels; deeper bodies are refused before storage.
MAX_DEPTH = 32


class JSONParser(parsers.JSONParser):
    """Refuses JSON nested too deeply and strings holding NUL characters (PostgreSQL cannot
    store them), as 400 ``request.malformed``; then gives the body in its canonical form
    (``games.store.canonical``), refusing numbers that are not finite (``1e400``) and lone
    surrogates as 400 ``request.bad_number`` and ``request.bad_text``, whichever endpoint they
    reach."""

    def parse(self, stream: Any, media_type: Any = None, parser_context: Any = None) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError("JSON parse error - nested too deeply.") from None
        problem = _problem(data)
        if problem:
            raise ParseError(f"JSON parse error - {problem}.")
        return canonical(data)


def _problem(value: Any) -> str | None:
    """What makes a parsed body unstorable: NUL characters, or nesting past MAX_DEPTH."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            return f"nested deeper than {MAX_DEPTH} levels"
        if isinstance(item, str) and "\x00" in item:
            return "strings may not contain NUL characters"
        if isinstance(item, dict):
            stack.extend((child, depth + 1) for pair in item.items() for child in pair)
        elif isinstance(item, list):
            stack.extend((child, depth + 1) for child in item)
    return None
