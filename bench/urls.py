"""The bench's URLconf (``bench.settings``): the product's URLs and the ceiling view beside them.
Never routed in the product: only ``bench/http.py`` serves it."""

from django.urls import path

from bench.ceiling import CeilingInsert, StatementOnly
from scarney_site.urls import urlpatterns as product

urlpatterns = [
    path("bench/ceiling/<uuid:pk>/", CeilingInsert.as_view()),
    path("bench/statement/<uuid:pk>/", StatementOnly.as_view()),
    *product,
]
