"""The scale bench's URLconf (``bench.settings_reads``): bench.urls (the product and the insert
ceiling) and the read ceiling beside them. Never routed in the product."""

from django.urls import path

from bench.ceiling_reads import CeilingRead
from bench.urls import urlpatterns as with_insert_ceiling

urlpatterns = [
    path("bench/ceiling-read/<uuid:pk>/", CeilingRead.as_view()),
    *with_insert_ceiling,
]
