"""`lurker api` as a subprocess, driven over raw sockets the way clients that do not normalise
paths, clients that stall and clients that send lone surrogates would: '.' and '..' profile names
are refused, a body that never arrives times out, and lone surrogates become U+FFFD as on every
other surface."""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time

import pytest

from memory.surfaces.api.keys import add_key
from memory.errors import InvalidProfileName
from memory.ids import check_profile_name
from tests.harness import free_port


@pytest.mark.parametrize("name", [".", ".."])
def test_dot_segments_are_not_profile_names(name):
    with pytest.raises(InvalidProfileName, match="path segments"):
        check_profile_name(name)
    assert check_profile_name("...") == "..."  # not a dot segment: URLs keep it


@pytest.fixture
def api_server(tmp_path):
    keys = tmp_path / "keys.json"
    key = add_key(keys, "ops", ["*"], ["admin"])
    port = free_port()
    env = {**os.environ, "LURKER_STORE": f"sqlite:///{tmp_path / 'api.sqlite3'}",
           "LURKER_BROKER_URL": "memory://", "LURKER_API_BODY_TIMEOUT_S": "2",
           "LURKER_LOG_FORMAT": "text"}
    env.pop("ANTHROPIC_API_KEY", None)
    process = subprocess.Popen([sys.executable, "-m", "memory.cli", "api", "--port", str(port),
                                "--keys-file", str(keys)], env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 120
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            assert process.poll() is None, process.stdout.read().decode()
            assert time.monotonic() < deadline, "lurker api did not start"
            time.sleep(0.2)
    yield port, key
    process.terminate()
    process.wait(30)


def raw_request(port: int, method: str, path: str, key: str, body: bytes | None = None,
                declared: int | None = None, timeout: float = 60) -> tuple[int, bytes]:
    """One request over a plain socket: the path is sent exactly as given (no normalisation)."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        length = len(body or b"") if declared is None else declared
        head = (f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {key}\r\n"
                f"Content-Type: application/json\r\nContent-Length: {length}\r\n"
                f"Connection: close\r\n\r\n")
        sock.sendall(head.encode() + (body or b""))
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    head, _, payload = data.partition(b"\r\n\r\n")
    status = int(head.split()[1])
    if b"transfer-encoding: chunked" in head.lower():
        payload = _unchunk(payload)
    return status, payload


def json_request(*args, **kwargs) -> tuple[int, dict]:
    status, payload = raw_request(*args, **kwargs)
    return status, json.loads(payload)


def _unchunk(payload: bytes) -> bytes:
    out = b""
    while payload:
        size, _, rest = payload.partition(b"\r\n")
        n = int(size, 16)
        if n == 0:
            break
        out, payload = out + rest[:n], rest[n + 2:]
    return out


def test_the_api_refuses_dot_profiles_times_out_bodies_and_keeps_bad_unicode(api_server):
    port, key = api_server
    ingest = json.dumps({"session_id": "s1", "messages": [{"content": "the limit is 100"}]})
    for name in (".", ".."):
        status, body = json_request(port, "POST", f"/v1/profiles/{name}/ingest", key,
                                   ingest.encode())
        assert status == 422, body
        assert "path segments" in body["error"]["message"]
        status, body = json_request(port, "POST", f"/v1/profiles/{name}/remember", key,
                                   b'{"content": "x"}')
        assert status == 422, body

    # a body announced and never sent: 408 after LURKER_API_BODY_TIMEOUT_S, not held forever
    started = time.monotonic()
    status, body = json_request(port, "POST", "/v1/profiles/team/ingest", key, b"",
                               declared=200, timeout=60)
    assert status == 408 and body["error"]["code"] == "timeout", body
    assert time.monotonic() - started < 50
    # half a body, then silence: the same
    status, body = json_request(port, "POST", "/v1/profiles/team/ingest", key,
                               ingest.encode()[:20], declared=len(ingest), timeout=60)
    assert status == 408, body

    # lone surrogates (valid JSON escapes, not valid text) are kept as U+FFFD, as README says
    raw = (b'{"session_id": "s1", "messages": [{"author": "maya \\udc80", '
           b'"content": "the deploy key rotates \\ud800 weekly"}]}')
    status, body = json_request(port, "POST", "/v1/profiles/team/ingest", key, raw)
    assert status == 202, body
    status, body = json_request(port, "POST", "/v1/profiles/team/remember", key,
                               b'{"content": "pairs stay whole \\ud83d\\ude00, lone go \\udfff"}')
    assert status == 201, body
    assert body["content"] == "pairs stay whole \U0001F600, lone go \ufffd"
    status, payload = raw_request(port, "GET", "/v1/profiles/team/export", key, b"")
    assert status == 200
    messages = [r for r in map(json.loads, payload.decode().splitlines()) if r["kind"] == "message"]
    assert [(m["author"], m["content"]) for m in messages] == [
        ("maya \ufffd", "the deploy key rotates \ufffd weekly")]
