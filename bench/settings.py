"""The product's settings with the bench's URLconf (the ceiling view beside the product's)."""

from scarney_site.settings import *  # noqa: F403

ROOT_URLCONF = "bench.urls"
