"""gunicorn's settings for the web process (read from the working directory by default).

Threaded workers keep client connections alive (sync workers close every one) and let a request
wait on PostgreSQL while another runs Python; two processes use both cores.
"""

import os

bind = f"127.0.0.1:{os.environ.get('PORT', '8000')}"
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
worker_class = "gthread"
threads = int(os.environ.get("WEB_THREADS", "4"))
keepalive = 30
max_requests = 20_000
max_requests_jitter = 2_000
accesslog = None
