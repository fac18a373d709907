"""bench.settings with the scale bench's URLconf (the read ceiling beside the product's URLs)."""

from bench.settings import *  # noqa: F403

ROOT_URLCONF = "bench.urls_reads"
