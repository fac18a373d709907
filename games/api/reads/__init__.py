"""The read API: the feed and histories, the exports, the ratings; their shared query parameters."""
