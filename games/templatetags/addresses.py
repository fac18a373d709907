"""``url|breakable``: a printed address that wraps at its slashes only, never inside the host
or its port ("127.0.0.1:810 / 0/t/..." read as another port)."""

from __future__ import annotations

from django import template
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

register = template.Library()


@register.filter
def breakable(url: str) -> SafeString:
    scheme, separator, rest = str(url).partition("://")
    if not separator:
        scheme, rest = "", str(url)
    host, *path = rest.split("/")
    # Each part whole (the host with its scheme and port, a code with its hyphen), a break after
    # each slash of the path.
    parts = [scheme + separator + host, *path]
    spans = [f'<span class="part">{escape(part)}</span>' for part in parts]
    return mark_safe("/<wbr>".join(spans))  # noqa: S308  (each part escaped above)
