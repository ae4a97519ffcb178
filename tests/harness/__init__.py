"""Real services for the tests: an Elasticsearch (Maven Central's integ-test zip, run single-node on
loopback with security on) and a redis-server, each on a free port with its data in a fresh
temporary directory. Both are context managers; `python -m tests.harness.elasticsearch` starts one
by hand."""
from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
from pathlib import Path


class HarnessError(RuntimeError):
    """A test service could not be fetched or started; the message says why (with the log tail)."""


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def log_tail(path: Path, lines: int = 40) -> str:
    try:
        text = Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return "(no log)"
    return "\n".join(text.rstrip().splitlines()[-lines:]) or "(empty log)"


def stop_group(proc: subprocess.Popen, grace_s: float) -> None:
    """SIGTERM to the process's whole group (servers start children), SIGKILL after grace_s."""
    if proc.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=grace_s)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)


def __getattr__(name: str):  # lazy, so importing one harness does not import the other
    if name == "ElasticsearchServer":
        from .elasticsearch import ElasticsearchServer

        return ElasticsearchServer
    if name == "RedisServer":
        from .redis import RedisServer

        return RedisServer
    raise AttributeError(name)


__all__ = ["ElasticsearchServer", "HarnessError", "RedisServer", "free_port", "log_tail",
           "stop_group"]
