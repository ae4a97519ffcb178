"""Helpers for the worker tests: event builders, a real worker subprocess, broker checks, state
snapshots."""
from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from datetime import datetime, timedelta, timezone
from pathlib import Path

import redis

from tests.harness.redis import server_binary

ROOT = Path(__file__).resolve().parents[1]
T0 = datetime(2026, 11, 16, 9, 0, tzinfo=timezone.utc)


def ts(seconds: float) -> str:
    return (T0 + timedelta(seconds=seconds)).isoformat()


def created(profile: str, ext: str, content: str, session: str = "s1", at: float = 0,
            author: str = "maya", role: str = "user") -> dict:
    return {"type": "message.created", "profile": profile, "session_id": session,
            "external_id": ext, "role": role, "author": author, "content": content, "ts": ts(at)}


def edited(profile: str, ext: str, content: str, at: float, session: str | None = "s1",
           author: str = "maya") -> dict:
    return {"type": "message.edited", "profile": profile, "external_id": ext,
            "content": content, "ts": ts(at), "session_id": session, "author": author}


def deleted(profile: str, ext: str) -> dict:
    return {"type": "message.deleted", "profile": profile, "external_id": ext}


def conversation(p: str) -> list[dict]:
    """Creates over three conversations, edits (one edited twice), deletes (one of an edited
    message), an edit and a delete of messages that are never created."""
    events = []
    facts = ["The staging URL is https://staging.example.dev today.",
             "Always run the linter before pushing to main.",
             "We shipped the billing webhooks on Monday.",
             "The on-call rotation starts at 9am UTC.",
             "Maya will write the migration guide.",
             "The retro happened on Friday afternoon.",
             "The design review is on Wednesday.",
             "Priya fixed the flaky checkout test.",
             "The sprint demo went well for the search team.",
             "The analytics dashboard uses Grafana panels."]
    for i, text in enumerate(facts):
        events.append(created(p, f"m{i}", text, session=f"s{i % 3}", at=i * 10,
                              author=["maya", "priya", "tom"][i % 3]))
    events += [
        edited(p, "m1", "Always run the linter and the type checker before pushing.", at=200,
               session="s1", author="priya"),
        edited(p, "m3", "The on-call rotation starts at 10am UTC.", at=210, session="s0",
               author="maya"),
        edited(p, "m3", "The on-call rotation starts at 11am UTC.", at=220, session="s0",
               author="maya"),
        deleted(p, "m5"),
        edited(p, "m7", "Priya fixed the flaky checkout and login tests.", at=230, session="s1",
               author="tom"),
        deleted(p, "m7"),
        edited(p, "m99", "Tom restarted the payment queue consumers.", at=240, session="s2",
               author="tom"),
        deleted(p, "m98"),
    ]
    return events


def wait_until(predicate, timeout: float, what: str, interval: float = 0.1, on_timeout=None):
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            detail = on_timeout() if on_timeout else ""
            raise AssertionError(f"timed out after {timeout:g}s waiting for {what}\n{detail}")
        time.sleep(interval)


# --- state ------------------------------------------------------------------------------------
def messages(service, profile: str) -> list[tuple]:
    return sorted((m.external_id, m.session_id, m.role, m.author, m.content)
                  for m in service.store.iter_messages(profile))


def active_memories(service, profile: str) -> list[tuple]:
    return sorted((m.id, m.type, m.content, m.topic_key, tuple(m.source_message_ids))
                  for m in service.profile(profile).list())


def snapshot(service, profile: str) -> tuple[list, list]:
    return messages(service, profile), active_memories(service, profile)


def assert_exactly_once(service, profile: str, expected_external_ids: set[str]) -> None:
    """Every expected message stored once (no duplicate by platform id or by record id), no
    duplicate memories, and every active embeddable memory in the vector index."""
    stored = list(service.store.iter_messages(profile))
    by_ext = Counter(m.external_id for m in stored)
    assert set(by_ext) == expected_external_ids, (
        f"missing {sorted(expected_external_ids - set(by_ext))[:5]}, "
        f"unexpected {sorted(set(by_ext) - expected_external_ids)[:5]}")
    assert max(by_ext.values()) == 1, [e for e, n in by_ext.items() if n > 1][:5]
    assert len({m.id for m in stored}) == len(stored)
    memories = service.profile(profile).list(include_inactive=True)
    assert len({m.id for m in memories}) == len(memories)
    active = [m for m in memories if m.status == "active"]
    contents = Counter((m.type, m.content) for m in active)
    assert max(contents.values(), default=1) == 1, [c for c, n in contents.items() if n > 1][:3]
    embeddable = {m.id for m in active if m.embeddable}
    missing = embeddable - service.store.vector_ids(profile)
    assert not missing, f"{len(missing)} active memories without a vector"


# --- the broker -------------------------------------------------------------------------------
def broker_backlog(client) -> dict[str, int]:
    """Events and vector tasks waiting in Redis, and messages delivered but not acknowledged."""
    waiting = {}
    for key in client.scan_iter(match="lurker.*"):
        name = key.decode()
        if not name.startswith("lurker.events.rejected") and client.type(key) == b"list":
            waiting[name] = client.llen(key)
    waiting["unacked"] = client.hlen("unacked")
    return waiting


def broker_idle(client) -> bool:
    return not any(broker_backlog(client).values())


# --- a real worker ----------------------------------------------------------------------------
def worker_env(store: str, broker: str, es=None, **settings) -> dict:
    """The environment of a worker subprocess: this one without any LURKER_/ANTHROPIC_ variable
    (so the offline extractor runs), plus the store, the broker and `settings` as LURKER_*."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("LURKER_", "ANTHROPIC_"))}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    env.update(LURKER_STORE=store, LURKER_BROKER_URL=broker)
    if es is not None:
        env.update(LURKER_ES_USER=es.user, LURKER_ES_PASSWORD=es.password)
    for name, value in settings.items():
        env[f"LURKER_{name.upper()}"] = str(value)
    return env


class WorkerProcess:
    """`lurker worker` (python -m memory.cli worker) in its own process group, logging to a
    file."""

    def __init__(self, env: dict, log_path: Path, name: str = "test"):
        self.env = env
        self.log_path = Path(log_path)
        self.name = name
        self.proc: subprocess.Popen | None = None
        self._log = None
        self._offset = 0

    def start(self, timeout: float = 60) -> WorkerProcess:
        self._offset = self.log_path.stat().st_size if self.log_path.exists() else 0
        self._log = open(self.log_path, "ab")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "memory.cli", "worker", "--loglevel", "INFO",
             "--hostname", f"{self.name}-{os.getpid()}@%h"],
            cwd=ROOT, env=self.env, stdin=subprocess.DEVNULL, stdout=self._log,
            stderr=subprocess.STDOUT, start_new_session=True)
        wait_until(lambda: " ready." in self.log() or self.proc.poll() is not None, timeout,
                   "the worker to start", on_timeout=self.tail)
        if self.proc.poll() is not None:
            raise AssertionError(f"the worker exited with {self.proc.returncode}:\n{self.tail()}")
        return self

    def log(self) -> str:
        try:
            with open(self.log_path, "rb") as fh:
                fh.seek(self._offset)
                return fh.read().decode("utf-8", "replace")
        except OSError:
            return ""

    def tail(self, lines: int = 60) -> str:
        return "\n".join(self.log().splitlines()[-lines:])

    def pool_pids(self) -> list[int]:
        try:
            text = Path(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children").read_text()
        except OSError:
            return []
        return [int(p) for p in text.split()]

    def kill(self) -> None:
        """SIGKILL to the whole worker (the main process and its pool processes)."""
        if self.proc is not None and self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=30)
        self._close()

    def stop(self) -> None:
        """Warm shutdown (SIGTERM), then SIGKILL after 30 s."""
        if self.proc is not None and self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.kill()
        if self.proc is not None:
            with contextlib.suppress(ProcessLookupError):  # pool processes left behind
                os.killpg(self.proc.pid, signal.SIGKILL)
        self._close()

    def _close(self) -> None:
        if self._log is not None:
            self._log.close()
            self._log = None

    def __enter__(self) -> WorkerProcess:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


@contextlib.contextmanager
def redis_on(port: int, workdir: Path, durable: bool = False):
    """A redis-server on 127.0.0.1:port until the block ends (then SIGKILLed: a crash). `durable`:
    every write goes to the append-only file in `workdir` first, as a production broker is set up,
    so a server started again on the same folder has what the killed one had."""
    proc = subprocess.Popen([server_binary(), "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                             "--dir", str(workdir),
                             *(["--appendonly", "yes", "--appendfsync", "always"] if durable
                               else ["--appendonly", "no"])],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    client = redis.Redis(port=port, socket_timeout=2, socket_connect_timeout=2)
    deadline = time.monotonic() + 20
    while True:
        with contextlib.suppress(redis.RedisError):
            if client.ping():
                break
        assert proc.poll() is None and time.monotonic() < deadline, "redis-server did not start"
        time.sleep(0.05)
    try:
        yield client
    finally:
        proc.kill()
        proc.wait(10)
        client.close()
