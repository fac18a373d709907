"""gunicorn's settings for the web process (read from the working directory by default).

Threaded workers keep client connections alive (sync workers close every one) and let a request
wait on PostgreSQL while another runs Python; two processes use both cores.

gunicorn serves behind the buffering front (deploy/nginx.conf, run by deploy/front): its threads
each wait on one request's body, so a few clients trickling bodies would take them all; nginx
reads every request whole first. WEB_BIND is where the front finds it: a loopback port (default
127.0.0.1:8001) or unix:/path/to/socket.
"""

import os

bind = os.environ.get("WEB_BIND", "127.0.0.1:8001")
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
worker_class = "gthread"
threads = int(os.environ.get("WEB_THREADS", "4"))
keepalive = 30
# A worker is recycled after this many requests, as insurance against a slow leak. A recycle
# throws away what the worker keeps (stream heads, rendered answers, prepared statements) and
# costs a boot of about a second of a core: at 20,000, a worker serving 500 requests a second
# restarted every 40 s, a tail spike each time (docs/BENCHMARKS.md, "Worker recycling").
max_requests = int(os.environ.get("WEB_MAX_REQUESTS", "1000000"))
max_requests_jitter = max_requests // 10
accesslog = None


def post_worker_init(worker):  # type: ignore[no-untyped-def]
    """Load the URLconf (and with it every view) now, then put all the worker has loaded out of
    the garbage collector's reach (gc.freeze): a full collection no longer walks the ~150,000
    objects of Django, DRF and the rule engines. Measured under wrk, a worker's full collections
    stopped all its threads for 180-230 ms each, the tail of every request then in flight
    (docs/BENCHMARKS.md, "Pauses of the garbage collector")."""
    import gc

    from django.urls import get_resolver

    get_resolver().url_patterns  # noqa: B018 (imports the URLconf and the views)
    gc.collect()
    gc.freeze()
