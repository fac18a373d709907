from django.urls import path

from scoring import api

urlpatterns = [
    path("events/", api.EventFeed.as_view(), name="event-feed"),
    path("events.ndjson", api.EventFeedNdjson.as_view(), name="event-feed-ndjson"),
]
