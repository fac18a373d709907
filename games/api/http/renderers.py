"""The API's renderers: JSON by orjson, and the media types that are not JSON (NDJSON, CSV, HTML).

``JSONRenderer`` writes what DRF's JSON renderer writes (compact, UTF-8, ``\\u2028`` and
``\\u2029`` escaped, datetimes and the other types DRF knows through DRF's own encoder) about ten
times faster: rendering a dice game's answer to a move took 50 µs, as much as its rules. The
one difference is a float's exponent (``1e+16`` from Python, ``1e16`` from orjson: the same
number to any reader). What orjson cannot write as DRF would (an integer beyond 64 bits, a
key that is not text, a string holding a lone surrogate) is rendered by DRF's renderer, as
is an indented answer (the browsable API, ``Accept: application/json; indent=4``).

The other renderers exist so that a client asking for their media type
(``Accept: application/x-ndjson``) is served rather than refused with 406, and so that an error
on such an endpoint still answers the house JSON shape (one JSON line is valid NDJSON too);
their views build the body themselves.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import orjson
from rest_framework import renderers
from rest_framework.utils.encoders import JSONEncoder

from scoring.history.json_columns import JsonText, decoded

# Datetimes and dataclasses go to DRF's encoder (orjson would write its own forms of them).
_OPTIONS = orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS
_DRF_DEFAULT = JSONEncoder().default
# JavaScript reads these two as line ends inside a string; DRF escapes them, and so do we.
_LINE_ENDS = ((b"\xe2\x80\xa8", b"\\u2028"), (b"\xe2\x80\xa9", b"\\u2029"))


class JSONRenderer(renderers.JSONRenderer):
    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: Mapping[str, Any] | None = None,
    ) -> bytes:
        if data is None:
            return b""
        indent = self.get_indent(accepted_media_type or "", renderer_context or {})
        if indent is None and self.compact and not self.ensure_ascii:
            try:
                body = orjson.dumps(data, default=_DRF_DEFAULT, option=_OPTIONS)
            except orjson.JSONEncodeError:
                pass  # DRF's renderer writes it, or raises as it always did
            else:
                if not body.isascii():  # isascii is a quick scan; the search is not
                    for raw, escaped in _LINE_ENDS:
                        body = body.replace(raw, escaped)
                return body
        return bytes(super().render(data, accepted_media_type, renderer_context))


class NdjsonRenderer(JSONRenderer):
    media_type = "application/x-ndjson"
    format = "ndjson"


class CsvRenderer(JSONRenderer):
    media_type = "text/csv"
    format = "csv"


class HtmlRenderer(JSONRenderer):
    media_type = "text/html"
    format = "html"


class JsonTextRenderer(JSONRenderer):
    """DRF's JSON with ``JsonText`` values written in as they are (the player's history, the
    match list): each is rendered as a mark, and the marks are replaced by the texts. Indented
    (the browsable API), not compact, or if a mark were found more often than placed, the
    values are decoded and rendered as any answer is, which gives the same bytes."""

    MARK = "\x00json\x00"  # PostgreSQL text cannot hold a NUL, so no value is this
    RENDERED_MARK = b'"\\u0000json\\u0000"'

    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: Mapping[str, Any] | None = None,
    ) -> bytes:
        body = getattr(data, "body", None)  # a body rendered before (answer_cache.Rendered)
        if type(body) is bytes:
            return body
        indent = self.get_indent(accepted_media_type or "", renderer_context or {})
        if indent is None and self.compact:
            texts: list[str] = []
            body = super().render(self._marked(data, texts), accepted_media_type, renderer_context)
            pieces = body.split(self.RENDERED_MARK)
            if len(pieces) == len(texts) + 1:
                spliced = [pieces[0]]
                for text, piece in zip(texts, pieces[1:], strict=True):
                    spliced += [text.encode(), piece]
                return b"".join(spliced)
        return bytes(super().render(decoded(data), accepted_media_type, renderer_context))

    def _marked(self, value: Any, texts: list[str]) -> Any:
        if isinstance(value, JsonText):
            texts.append(value)
            return self.MARK
        if isinstance(value, dict):
            return {key: self._marked(item, texts) for key, item in value.items()}
        if isinstance(value, list):
            return [self._marked(item, texts) for item in value]
        return value


class BrowsableAPIRenderer(renderers.BrowsableAPIRenderer):
    """DRF's browsable API, drawn under the site's Content-Security-Policy (no inline style block,
    no inline handler: ``api_browser/api.html``)."""

    template = "api_browser/api.html"
