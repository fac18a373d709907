"""Settings, read from the environment only (see README "Configuration").

DATABASE_URL  default: a SQLite file under var/
REDIS_URL     unset: Celery runs tasks eagerly in the web process; set: a real broker
SECRET_KEY    unset: a key generated on first run into var/secret_key (SECRET_KEY_FILE), mode 0600
CHECKPOINT_KEY  unset: the Ed25519 checkpoint key made on first use in var/checkpoint.key, 0600
DEBUG, ALLOWED_HOSTS, the HTTPS settings (SECURE_*, *_COOKIE_SECURE), the THROTTLE_* rates
"""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from celery.schedules import crontab

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def secret_key(path: Path) -> str:
    """SECRET_KEY from the environment, else this installation's own key, made on first run.

    The key is written once (never replaced: a second process that races the first reads the
    winner's key) to a file only its owner can read, so ``make run`` needs no configuration and
    no installation shares a key with another. A deployment sets SECRET_KEY (check --deploy says
    so: every host must sign with the same key).
    """
    key = os.environ.get("SECRET_KEY", "").strip()
    if key:
        return key
    if not path.exists():
        from django.core.management.utils import get_random_secret_key

        path.parent.mkdir(parents=True, exist_ok=True)
        draft = path.with_name(f".{path.name}.{os.getpid()}")
        descriptor = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w") as out:
            out.write(get_random_secret_key() + "\n")
        try:
            os.link(draft, path)
        except FileExistsError:
            pass
        finally:
            draft.unlink()
    return path.read_text().strip()


DEBUG = env_bool("DEBUG", False)
SECRET_KEY_FILE = Path(os.environ.get("SECRET_KEY_FILE") or VAR_DIR / "secret_key")
SECRET_KEY = secret_key(SECRET_KEY_FILE)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver")

# HTTPS (README "Configuration"): off for `make run`; a deployment turns them all on, and then
# `manage.py check --deploy` reports no issue.
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", False)
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]  # a load balancer's plain-HTTP health check
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "0"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", False)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", False)
# Behind deploy/nginx.conf the scheme needs no setting here: the front sets X-Forwarded-Proto and
# gunicorn believes it from loopback only (its forwarded_allow_ips), so request.is_secure() holds.

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "games.access",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "axes",
    "csp",
    "games.apps.GamesConfig",
    "scoring.apps.ScoringConfig",
    "games.webhooks.apps.WebhooksConfig",
    # Hands the store the Celery app it sends through (the store never imports the site).
    "scarney_site.apps.SiteConfig",
]

MIDDLEWARE = [
    # Outermost: whatever refused a request, its unread body is read off (keeps the connection).
    "games.api.http.draining.DrainUnreadBody",
    # A dropped database connection: a read run again on a new one, anything else 503.
    "games.api.http.exceptions.RetryDroppedConnection",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "scarney_site.policy.ContentSecurityPolicy",
    # Last: it answers a login that a lock refused (games/access/logins.py).
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "scarney_site.urls"
# The live-table pages (games/pages) log in and out at /accounts/ and land on the home page.
LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"
WSGI_APPLICATION = "scarney_site.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASE_URL = os.environ.get("DATABASE_URL") or f"sqlite:///{VAR_DIR / 'scarney.sqlite3'}"
# Persistent connections: a new connection per request costs most of an append's time.
DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=600)}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    VAR_DIR.mkdir(exist_ok=True)
    # SQLite allows one writer; waiting beats "database is locked" under the demo's light load.
    DATABASES["default"]["OPTIONS"] = {"timeout": 20, "transaction_mode": "IMMEDIATE"}
    DATABASES["default"]["CONN_MAX_AGE"] = 0

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Content-Security-Policy (django-csp) on every answer: no inline script, no style attribute or
# block, nothing from another host, no framing. A view that cannot do without (ReDoc's styles,
# a printed document's own) says what it adds beside it.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "frame-ancestors": ["'none'"],
        "form-action": ["'self'"],
    }
}

# Checked wherever a password is chosen: the admin's user forms, changepassword, createsuperuser.
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": f"django.contrib.auth.password_validation.{name}"}
    for name in (
        "UserAttributeSimilarityValidator",
        "MinimumLengthValidator",
        "CommonPasswordValidator",
        "NumericPasswordValidator",
    )
]

# Failed logins (games/access/logins.py, django-axes): an account's guessing is locked after
# LOGIN_FAILURES_PER_ACCOUNT wrong passwords, whatever the address; an address's after
# LOGIN_FAILURES_PER_ADDRESS over all its accounts (a club's phones share one address, so it is
# high). A lock lapses LOGIN_LOCK_MINUTES after the failure that set it; the failures counted are
# those of that span.
LOGIN_FAILURES_PER_ACCOUNT = int(os.environ.get("LOGIN_FAILURES_PER_ACCOUNT", "5"))
LOGIN_FAILURES_PER_ADDRESS = int(os.environ.get("LOGIN_FAILURES_PER_ADDRESS", "50"))
LOGIN_LOCK_MINUTES = float(os.environ.get("LOGIN_LOCK_MINUTES", "15"))
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",  # first: refuses a locked login before any password
    "django.contrib.auth.backends.ModelBackend",
]
AXES_HANDLER = "games.access.logins.AccountAndAddress"
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]  # the handler reads them in this order
AXES_FAILURE_LIMIT = LOGIN_FAILURES_PER_ACCOUNT
AXES_COOLOFF_TIME = timedelta(minutes=LOGIN_LOCK_MINUTES)
# A refused attempt does not push the lock further: it lapses when it said it would (Retry-After).
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
# A success does not wipe the failures: it would wipe its address's too, guesses at others.
AXES_RESET_ON_SUCCESS = False
AXES_CLIENT_IP_CALLABLE = "games.access.logins.client_address"
AXES_LOCKOUT_CALLABLE = "games.access.logins.locked_out"
# Successful logins are not written to the database (a table code's device logs in on every link);
# failures are, and every failure and lock is logged, naming the account and the address.
AXES_DISABLE_ACCESS_LOG = True
AXES_SENSITIVE_PARAMETERS: list[str] = []

LANGUAGE_CODE = "en-gb"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
# ``make run``: WhiteNoise serves the apps' static files where they are, without collectstatic.
WHITENOISE_USE_FINDERS = env_bool("STATIC_FROM_APPS", False)
WHITENOISE_AUTOREFRESH = WHITENOISE_USE_FINDERS

# A body of a few megabytes is refused before it is parsed (400 request.too_large).
DATA_UPLOAD_MAX_MEMORY_SIZE = 1024 * 1024

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "games.api.http.authentication.HashedTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_THROTTLE_CLASSES": [
        "games.api.http.throttling.TokenRateThrottle",
        "games.api.http.throttling.AddressRateThrottle",
    ],
    # A club table's device records a move every few seconds and reads a little more; these leave
    # ample room for bursts while stopping one runaway client from taking every worker.
    "DEFAULT_THROTTLE_RATES": {
        "token": os.environ.get("THROTTLE_TOKEN_RATE", "3000/m"),
        "address": os.environ.get("THROTTLE_ADDRESS_RATE", "600/m"),
    },
    # How many fronts (deploy/nginx.conf is one) append to X-Forwarded-For; 0 trusts none of it.
    "NUM_PROXIES": int(os.environ.get("NUM_PROXIES", "0")),
    "DEFAULT_PARSER_CLASSES": ["games.api.http.parsers.JSONParser"],
    "DEFAULT_RENDERER_CLASSES": [
        "games.api.http.renderers.JSONRenderer",
        "games.api.http.renderers.BrowsableAPIRenderer",
    ],
    "DEFAULT_PAGINATION_CLASS": "games.api.http.pagination.CursorPagination",
    "PAGE_SIZE": 100,
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "games.api.http.exceptions.api_exception_handler",
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
    # `format` names a match format in queries (`/matches/?format=scarney-singles`), so it is not
    # DRF's renderer override; the Accept header chooses JSON or the browsable page.
    "URL_FORMAT_OVERRIDE": None,
}

# How long a token from `manage.py issue_token` works (games/access/models.py).
API_TOKEN_LIFETIME_DAYS = int(os.environ.get("API_TOKEN_LIFETIME_DAYS", "90"))

# The throttles' counters (games/api/http/throttling.py): shared in Redis when there is one.
CACHES = {
    "default": (
        {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": os.environ["REDIS_URL"],
            "KEY_PREFIX": "scarney",
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
        if os.environ.get("REDIS_URL")
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    ),
}

# The fast path's moves shared by the web processes of one host through a file in /dev/shm
# (games/store/shared_heads.py): a process behind a game folds the moves it missed from there.
SHARED_HEADS = env_bool("SHARED_HEADS", True)

# Rendered reads kept per web process under the fingerprint they were built from
# (games/api/answer_cache.py), at most this many bytes of bodies; 0 keeps none.
ANSWER_CACHE_BYTES = int(os.environ.get("ANSWER_CACHE_BYTES", str(64 * 1024 * 1024)))

SPECTACULAR_SETTINGS = {
    "TITLE": "Scarney Scorekeeper API",
    "DESCRIPTION": "Record every move and throw at club tables; read games, matches and history.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Request bodies get their own components, so they carry their constraints (read-only
    # fields out, lengths and enums in).
    "COMPONENT_SPLIT_REQUEST": True,
    # One named enum per choice set (several fields are called "type" or "status").
    "ENUM_NAME_OVERRIDES": {
        "GameKind": "games.api.schema.answers.GAME_KINDS",
        "MatchFormat": "games.api.schema.answers.MATCH_FORMATS",
        "EventType": "games.api.schema.answers.EVENT_TYPE_NAMES",
        "StreamStatus": "games.api.schema.answers.STREAM_STATUSES",
        "TournamentStatus": "games.api.schema.answers.TOURNAMENT_STATUSES",
        "RowType": ["game", "match"],
        "EntryStatus": ["active", "withdrawn"],
        "RoundStatus": ["playing", "finished"],
    },
    # Swagger UI and ReDoc from the project's own static files (drf-spectacular-sidecar), so the
    # docs work offline and pin their version with the package, not a CDN's "@latest".
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # The house error shape and every operation's 4xx answers, and the enums (docs/ERRORS.md).
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "games.api.schema.openapi.add_error_responses",
    ],
}

REDIS_URL = os.environ.get("REDIS_URL", "")
CELERY_BROKER_URL = REDIS_URL or "memory://"
# kombu's Redis transport with the repair that keeps a worker up when Redis goes (broker.py).
CELERY_BROKER_TRANSPORT = "scarney_site.broker:Transport" if REDIS_URL else None
CELERY_RESULT_BACKEND = None
# Without a broker the web process runs each task itself, right after the commit that asked for it.
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL
CELERY_TASK_EAGER_PROPAGATES = True
# At-least-once delivery (docs/DESIGN.md "Side effects"): a task is acknowledged when it has run,
# one whose worker process died goes back to the queue, and a process takes one task at a time.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Redis hands a task taken but never acknowledged (its worker was killed) to another worker after
# this many seconds; longer than any task and its retry countdowns (at most 128 s).
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": int(os.environ.get("BROKER_VISIBILITY_TIMEOUT", str(10 * 60)))
}
# Publishing must fail fast when the broker is down: the outbox keeps the task for later. The web
# process publishes from a thread of its own, so a request never waits for the broker.
CELERY_BROKER_CONNECTION_TIMEOUT = 2
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_PUBLISH_RETRY = False
# An outbox row not done (its effect not recorded) is sent again this many seconds after its last
# send; beat relays what is due and sweeps for complete matches left without their closing event.
OUTBOX_RESEND_AFTER = float(os.environ.get("OUTBOX_RESEND_AFTER", "60"))
# Seconds between relays of what is due (beat's task; without a broker, the publisher's).
OUTBOX_RELAY_EVERY = float(os.environ.get("OUTBOX_RELAY_EVERY", "15"))
# Without a broker (``make run``) tasks run in the web process's publisher thread, never in a
# request: a webhook's receiver that is slow costs the keeper nothing, and retries still come.
# The suite runs them in the committing thread instead, so a test sees their effect at once.
OUTBOX_INLINE = env_bool("OUTBOX_INLINE", False)
# Webhooks (docs/API.md "Webhooks"): seconds a POST may take, and the waits after the 1st, 2nd ...
# failed attempt (one more attempt than waits, then the delivery has failed).
WEBHOOK_TIMEOUT = float(os.environ.get("WEBHOOK_TIMEOUT", "5"))
WEBHOOK_RETRY_DELAYS = [
    float(s) for s in os.environ.get("WEBHOOK_RETRY_DELAYS", "10,60,300,1800,7200").split(",")
]
# Signed checkpoints of every stream's head (docs/DESIGN.md "Checkpoints and snapshots"): the
# Ed25519 private key from CHECKPOINT_KEY (base64 of its 32 bytes, or PEM), else from this file,
# made with mode 0600 on first use. Never in the database: whoever can write it must not sign.
CHECKPOINT_KEY = os.environ.get("CHECKPOINT_KEY", "")
CHECKPOINT_KEY_FILE = Path(os.environ.get("CHECKPOINT_KEY_FILE") or VAR_DIR / "checkpoint.key")
CELERY_BEAT_SCHEDULE = {
    "relay-outbox": {
        "task": "scoring.relay_outbox",
        "schedule": OUTBOX_RELAY_EVERY,
    },
    "sweep-matches": {
        "task": "scoring.sweep_matches",
        "schedule": float(os.environ.get("OUTBOX_SWEEP_EVERY", "300")),
    },
    "checkpoint": {
        "task": "scoring.checkpoint",
        "schedule": float(os.environ.get("CHECKPOINT_EVERY", "600")),
    },
    # The club's nightly report (scoring/documents/nightly.py) of the day just ended, a little after
    # midnight.
    "nightly-report": {
        "task": "scoring.nightly_report",
        "schedule": crontab(
            hour=int(os.environ.get("NIGHTLY_REPORT_HOUR", "0")),
            minute=int(os.environ.get("NIGHTLY_REPORT_MINUTE", "15")),
        ),
    },
}

# Printed reports (docs/DESIGN.md "Reports"): the venue their heading names; files in the default
# storage (MEDIA_ROOT here, any django-storages backend in production); the seconds a client is
# told to wait (Retry-After) while one renders; and whether a later event of a match re-renders
# its sheet ahead of the next reader (needs a worker: without a broker, the reader renders it).
VENUE = os.environ.get("VENUE", "the club")
MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT") or VAR_DIR / "media")
REPORTS_RETRY_AFTER = int(os.environ.get("REPORTS_RETRY_AFTER", "2"))
REPORTS_RENDER_AHEAD = env_bool("REPORTS_RENDER_AHEAD", bool(REDIS_URL))
# Check every event saved and every game view against its declaration (games/rules/shapes.py):
# the test suite's assertion that the schema and the pages read what the rules give.
CHECK_DECLARED = env_bool("CHECK_DECLARED", False)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}
