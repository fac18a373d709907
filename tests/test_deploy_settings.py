"""No deployment runs on a published key; the production profile passes ``check --deploy``."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

from django.conf import settings

ROOT = Path(__file__).resolve().parent.parent
# The key settings.py fell back to before keys were generated: it is in the public history.
PUBLISHED_KEY = "insecure-local-demo-key-set-SECRET_KEY-in-production"

PRODUCTION = {
    "DEBUG": "false",
    "SECRET_KEY": "k7#Qw2!zP9vR4mX8^tL1sB6nJ3yH5cF0-dG@eA*uK%oI&pZ(rT)gV_bN+hM=wS",
    "ALLOWED_HOSTS": "scores.example.org",
    "SECURE_SSL_REDIRECT": "true",
    "SECURE_HSTS_SECONDS": "31536000",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS": "true",
    "SECURE_HSTS_PRELOAD": "true",
    "SESSION_COOKIE_SECURE": "true",
    "CSRF_COOKIE_SECURE": "true",
}


def manage(args: list[str], tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """``manage.py ARGS`` in a fresh process on the project's settings (not the test ones)."""
    clean = {k: v for k, v in os.environ.items() if k not in PRODUCTION}
    clean.update(
        DJANGO_SETTINGS_MODULE="scarney_site.settings",
        DATABASE_URL=os.environ.get("DATABASE_URL", ""),
        SECRET_KEY_FILE=str(tmp_path / "secret_key"),
        **env,
    )
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=clean,
        capture_output=True,
        text=True,
        timeout=120,
    )


PRINT_KEY = ["shell", "-v", "0", "-c", "from django.conf import settings as s; print(s.SECRET_KEY)"]


def test_without_secret_key_a_key_is_generated_once_into_a_private_file(tmp_path: Path) -> None:
    first = manage(PRINT_KEY, tmp_path)
    assert first.returncode == 0, first.stderr
    key = first.stdout.strip()
    written = tmp_path / "secret_key"
    assert written.read_text().strip() == key
    assert stat.S_IMODE(written.stat().st_mode) == 0o600
    assert len(key) >= 50 and key != PUBLISHED_KEY
    assert key not in (ROOT / "scarney_site" / "settings.py").read_text()
    again = manage(PRINT_KEY, tmp_path)
    assert again.stdout.strip() == key  # sessions and signatures survive a restart
    other = manage(PRINT_KEY, tmp_path / "elsewhere")
    assert other.stdout.strip() != key  # every installation makes its own


def test_the_settings_hold_no_fallback_key() -> None:
    source = (ROOT / "scarney_site" / "settings.py").read_text()
    assert PUBLISHED_KEY not in source
    assert settings.SECRET_KEY != PUBLISHED_KEY


def test_the_production_profile_passes_check_deploy_with_no_warnings(tmp_path: Path) -> None:
    result = manage(["check", "--deploy", "--fail-level", "WARNING"], tmp_path, **PRODUCTION)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues (0 silenced)." in result.stdout


def test_check_deploy_flags_a_published_key(tmp_path: Path) -> None:
    env = {**PRODUCTION, "SECRET_KEY": PUBLISHED_KEY}
    result = manage(["check", "--deploy", "--fail-level", "WARNING"], tmp_path, **env)
    assert result.returncode != 0
    assert "scarney.W001" in result.stderr + result.stdout


def test_check_deploy_flags_a_key_not_given_by_the_environment(tmp_path: Path) -> None:
    env = {k: v for k, v in PRODUCTION.items() if k != "SECRET_KEY"}
    result = manage(["check", "--deploy", "--fail-level", "WARNING"], tmp_path, **env)
    assert result.returncode != 0
    assert "scarney.W002" in result.stderr + result.stdout


def test_check_deploy_without_the_profile_names_what_is_missing(tmp_path: Path) -> None:
    result = manage(["check", "--deploy"], tmp_path, SECRET_KEY=PRODUCTION["SECRET_KEY"])
    output = result.stderr + result.stdout
    for code in ("security.W004", "security.W008", "security.W012", "security.W016"):
        assert code in output, code
