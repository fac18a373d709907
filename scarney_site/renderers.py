"""Renderers for the answers that are not JSON (NDJSON, CSV, HTML).

Their views build the body themselves; these exist so that a client asking for the media type
(``Accept: application/x-ndjson``) is served rather than refused with 406, and so that an error
on such an endpoint still answers the house JSON shape (one JSON line is valid NDJSON too).
"""

from __future__ import annotations

from rest_framework.renderers import JSONRenderer


class NdjsonRenderer(JSONRenderer):
    media_type = "application/x-ndjson"
    format = "ndjson"


class CsvRenderer(JSONRenderer):
    media_type = "text/csv"
    format = "csv"


class HtmlRenderer(JSONRenderer):
    media_type = "text/html"
    format = "html"
