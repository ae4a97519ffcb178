"""Session-wide real services for the tests: an Elasticsearch and a Redis started by tests/harness/.

Nothing is skipped silently: if a service cannot start, every test that needs it fails with the
reason (in CI, CI=true, and locally alike).

Environment:
  LURKER_SKIP_ES=1      local quick runs only: deselect the tests that need Elasticsearch (marked
                        `elasticsearch`, using the `es_server` fixture, or parametrised with
                        "elasticsearch"); ignored when CI=true
  LURKER_TEST_ES_URL    use a running Elasticsearch (+ LURKER_TEST_ES_USER and
                        LURKER_TEST_ES_PASSWORD), e.g. one started by hand with
                        `python -m tests.harness.elasticsearch`
  LURKER_TEST_REDIS_URL use a running Redis
"""
from __future__ import annotations

import os
import tempfile

import pytest

from tests.harness import HarnessError

# The default store, audit log and bot state live in the user's data dir (platformdirs, which
# honours XDG_DATA_HOME): the tests get a fresh one, so a run never reads what an earlier run (or
# the developer's own bot) left there — the bot state would take repeated event ids as replays.
os.environ["XDG_DATA_HOME"] = tempfile.mkdtemp(prefix="lurker-test-data-")

# Store fixtures (`store`, `service`, `profile_name`, `embedder`) parametrised over both stores.
pytest_plugins = ["tests.store_fixtures"]


def _in_ci() -> bool:
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")


def _skip_es() -> bool:
    return os.environ.get("LURKER_SKIP_ES") == "1" and not _in_ci()


def _needs(item: pytest.Item, service: str) -> bool:
    """Whether a test uses `service` ("elasticsearch"/"redis"): its marker, its fixture, or a
    parametrised fixture (e.g. store/service) whose param names the service."""
    if item.get_closest_marker(service):
        return True
    if {"elasticsearch": "es_server", "redis": "redis_server"}[service] in getattr(
            item, "fixturenames", ()):
        return True
    callspec = getattr(item, "callspec", None)
    return bool(callspec) and any(isinstance(value, str) and value == service
                                  for value in callspec.params.values())


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:  # mark, so `-m "not elasticsearch"` works too
        for service in ("elasticsearch", "redis"):
            if _needs(item, service) and not item.get_closest_marker(service):
                item.add_marker(getattr(pytest.mark, service))
    if _skip_es():
        deselected = [item for item in items if item.get_closest_marker("elasticsearch")]
        if deselected:
            config.hook.pytest_deselected(items=deselected)
            items[:] = [item for item in items if not item.get_closest_marker("elasticsearch")]


def pytest_report_header(config: pytest.Config) -> list[str]:
    if _skip_es():
        es = "deselected (LURKER_SKIP_ES=1)"
    elif os.environ.get("LURKER_TEST_ES_URL"):
        es = f"external {os.environ['LURKER_TEST_ES_URL']}"
    else:
        from tests.harness.elasticsearch import cache_home, es_version

        es = f"harness starts {es_version()} from {cache_home()}"
    ci = " (CI: failures to start fail the tests)" if _in_ci() else ""
    return [f"elasticsearch: {es}{ci}"]


def _running(server, what: str):
    """Start a harness server for the session; fail every test that needs it with the reason."""
    try:
        server.start()
        error = None
    except HarnessError as exc:
        server.stop()
        error = str(exc)
    if error:  # outside the except: no chained traceback, just the reason
        pytest.fail(f"{what} could not be started: {error}", pytrace=False)
    yield server
    server.stop()


@pytest.fixture(scope="session")
def es_server():
    """A running Elasticsearch: `.url`, `.user`, `.password` (started once per session)."""
    from tests.harness.elasticsearch import ElasticsearchServer

    yield from _running(ElasticsearchServer.from_env(), "Elasticsearch")


@pytest.fixture(scope="session")
def redis_server():
    """A running Redis: `.url`, `.client()` (started once per session)."""
    from tests.harness.redis import RedisServer

    yield from _running(RedisServer.from_env(), "Redis")
