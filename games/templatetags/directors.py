"""``user|is_director``: the pages link a director to his tools, and no one else."""

from __future__ import annotations

from typing import Any

from django import template

from games.play import permissions

register = template.Library()


@register.filter
def is_director(user: Any) -> bool:
    return permissions.is_director(user)
