"""The Content-Security-Policy header (django-csp), on every answer a browser could run as a page.

A JSON, NDJSON or CSV answer is no page: nothing in it runs, so it goes without the header, and a
move over the API pays nothing for the policy (building it costs some 12 µs an answer).
"""

from __future__ import annotations

from csp.middleware import CSPMiddleware
from django.http import HttpRequest
from django.http.response import HttpResponseBase

INERT = ("application/json", "application/x-ndjson", "text/csv")


class ContentSecurityPolicy(CSPMiddleware):
    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        if response.get("Content-Type", "").startswith(INERT):
            return response
        return super().process_response(request, response)
