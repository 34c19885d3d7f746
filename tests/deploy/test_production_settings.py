"""The production profile (``mafia_tournament.settings_production``): ``check --deploy`` is clean,
and it refuses to start without what a large event needs (a secret key, the shared Redis)."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from mafia_tournament.settings import env_bool

ROOT = Path(__file__).resolve().parents[2]
PROFILE = "mafia_tournament.settings_production"


def run(code: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items()
            if k not in {"DEBUG", "SECRET_KEY", "REDIS_URL", "ALLOWED_HOSTS", "DJANGO_SETTINGS_MODULE",
                         "DJANGO_ALLOW_ASYNC_UNSAFE"}}  # set by the browser tests of the same run
    base.update(DJANGO_SETTINGS_MODULE=PROFILE, **env)
    return subprocess.run([sys.executable, *code], cwd=ROOT, env=base, capture_output=True, text=True,
                          timeout=120)


def good_env() -> dict[str, str]:
    return {"SECRET_KEY": secrets.token_urlsafe(50), "REDIS_URL": "redis://127.0.0.1:6379/0",
            "ALLOWED_HOSTS": "mafia.example.org", "CSRF_TRUSTED_ORIGINS": "https://mafia.example.org"}


def test_check_deploy_is_clean() -> None:
    result = run(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], **good_env())
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_the_profile_has_debug_off_the_redis_cache_and_compressed_static() -> None:
    code = (
        "import django; django.setup(); from django.conf import settings as s; "
        "print(s.DEBUG, s.CACHES['default']['BACKEND'], s.STORAGES['staticfiles']['BACKEND'], "
        "s.SECURE_SSL_REDIRECT, s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, s.SECURE_PROXY_SSL_HEADER[0])"
    )
    result = run(["-c", code], DEBUG="1", **good_env())  # DEBUG from the environment is ignored here
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [
        "False", "django.core.cache.backends.redis.RedisCache",
        "whitenoise.storage.CompressedManifestStaticFilesStorage", "True", "True", "True",
        "HTTP_X_FORWARDED_PROTO",
    ]


def test_without_redis_or_secret_key_it_refuses_to_start() -> None:
    env = good_env()
    del env["REDIS_URL"]
    no_redis = run(["manage.py", "check"], **env)
    assert no_redis.returncode != 0 and "REDIS_URL must be set" in no_redis.stderr
    env = good_env()
    del env["SECRET_KEY"]
    no_key = run(["manage.py", "check"], **env)
    assert no_key.returncode != 0 and "SECRET_KEY must be set" in no_key.stderr


@pytest.mark.parametrize("value", ["1", "true", "TRUE", " Yes ", "on", "On"])
def test_a_boolean_variable_reads_its_true_words(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv("SOME_FLAG", value)
    assert env_bool("SOME_FLAG", False) is True


@pytest.mark.parametrize("value", ["0", "false", "False", " no", "OFF"])
def test_a_boolean_variable_reads_its_false_words(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv("SOME_FLAG", value)
    assert env_bool("SOME_FLAG", True) is False


def test_an_unset_boolean_variable_is_its_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SOME_FLAG", raising=False)
    assert env_bool("SOME_FLAG", True) is True and env_bool("SOME_FLAG", False) is False


@pytest.mark.parametrize("value", ["", "  ", "maybe", "ture", "2", "enabled", "y", "n"])
def test_an_unknown_boolean_value_is_refused_naming_the_variable_and_the_value(
    monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    monkeypatch.setenv("SOME_FLAG", value)
    with pytest.raises(ImproperlyConfigured) as refused:
        env_bool("SOME_FLAG", False)
    assert "SOME_FLAG" in str(refused.value) and repr(value) in str(refused.value)


def test_the_profile_refuses_to_start_on_a_mistyped_boolean() -> None:
    """Once read as off (no redirect to HTTPS), a typo now stops the server with what to fix."""
    result = run(["manage.py", "check"], SECURE_SSL_REDIRECT="ture", **good_env())
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr and "SECURE_SSL_REDIRECT='ture'" in result.stderr
