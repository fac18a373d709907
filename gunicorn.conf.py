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
max_requests = 20_000
max_requests_jitter = 2_000
accesslog = None
