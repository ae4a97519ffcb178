"""The MCP server through the `mcp` client SDK: `lurker mcp` spawned over stdio, and the
streamable-HTTP app served by uvicorn on loopback (keys, scopes, every tool), plus
`lurker mcp install`."""
from __future__ import annotations

import json
import os
import socket
import sys
import threading
import time
from pathlib import Path

import anyio
import httpx
import pytest
import uvicorn
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client

from memory.stores.sqlite import SQLiteStore
from memory.surfaces.api.keys import KeyFile, add_key
from memory.surfaces.cli import main as lurker
from memory.surfaces.mcp_server import http_app
from tests.forget_support import HOST, QUESTION, STATEMENT
from memory.config import Settings
from memory.service import MemoryService

ROOT = Path(__file__).resolve().parents[1]
TOOLS = {"recall", "remember", "forget", "list"}


def data(result) -> dict:
    """A tool's structured result (each tool returns a JSON object)."""
    assert not result.is_error, result.content
    return result.structured_content


def error_text(result) -> str:
    assert result.is_error, result
    return " ".join(getattr(c, "text", "") for c in result.content)


def test_stdio_server_bound_to_a_profile(tmp_path):
    store = tmp_path / "mcp.sqlite3"
    env = {**os.environ, "LURKER_STORE": f"sqlite:///{store}", "LURKER_BROKER_URL": "memory://",
           "LURKER_LOG_FORMAT": "json"}
    env.pop("ANTHROPIC_API_KEY", None)
    env.pop("LURKER_API_KEY", None)
    params = StdioServerParameters(command=sys.executable,
                                   args=["-m", "memory.cli", "mcp", "--profile", "team-backend"],
                                   env=env, cwd=str(ROOT))

    async def session():
        async with Client(params, read_timeout_seconds=60) as client:
            tools = await client.list_tools()
            assert {t.name for t in tools.tools} == TOOLS
            kept = data(await client.call_tool("remember", {
                "content": "The prod database is Postgres 16", "type": "fact"}))
            assert kept["type"] == "fact" and kept["status"] == "active"
            answer = data(await client.call_tool("recall", {
                "query": "which database runs in prod?"}))
            assert "Postgres 16" in answer["answer"] and answer["profile"] == "team-backend"
            assert kept["id"] in [m["id"] for m in answer["memories"]]
            recall_tool = next(t for t in tools.tools if t.name == "recall")
            assert "asker" in recall_tool.input_schema["properties"]  # who asks, for "my ..."
            mine = data(await client.call_tool("recall", {
                "query": "which database runs my prod?", "asker": "maya"}))
            assert "Postgres 16" in mine["answer"]  # no message of maya's: answered as before
            assert (await client.call_tool("recall", {"query": "x", "asker": ""})).is_error
            # who "you" is, for "what did you recommend ...?" (an agent writing into the profile)
            assert "addressee" in recall_tool.input_schema["properties"]
            put = data(await client.call_tool("recall", {
                "query": "which database did you say runs prod?", "addressee": "helper"}))
            assert "Postgres 16" in put["answer"]  # no message of helper's: answered as before
            assert (await client.call_tool("recall", {"query": "x", "addressee": ""})).is_error
            listed = data(await client.call_tool("list", {"limit": 10}))
            assert [m["id"] for m in listed["memories"]] == [kept["id"]]
            refused = await client.call_tool("recall", {"query": "x", "profile": "slack:T1:C9"})
            assert "bound to profile 'team-backend'" in error_text(refused)
            invalid = await client.call_tool("forget", {"memory_id": "nope", "reason": "x"})
            assert invalid.is_error
            gone = data(await client.call_tool("forget", {"memory_id": kept["id"],
                                                          "reason": "moved to Postgres 17"}))
            assert gone["status"] == "forgotten"
            return kept["id"]

    memory_id = anyio.run(session)
    written = SQLiteStore(store)
    from memory.embeddings import default_embedder

    written.open(default_embedder().spec)
    try:
        (memory,) = written.get_memories("team-backend", [memory_id])
        assert memory.forgotten_reason == "moved to Postgres 17"
        assert written.count("slack:T1:C9")["memories"] == 0
    finally:
        written.close()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def http_server(service, tmp_path, profile_name):
    keys = tmp_path / "keys.json"
    issued = {"agent": add_key(keys, "agent", [profile_name], ["read", "write"]),
              "ops": add_key(keys, "ops", ["*"], ["admin"])}
    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(http_app(service, KeyFile(keys)), host="127.0.0.1",
                                           port=port, log_config=None, access_log=False))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}", issued
    server.should_exit = True
    thread.join(10)


def test_streamable_http_with_keys(http_server, profile_name):
    base, issued = http_server
    refused = httpx.post(f"{base}/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
                         headers={"Accept": "application/json, text/event-stream"})
    assert refused.status_code == 401 and refused.json()["error"]["code"] == "unauthorized"

    def connect(key: str) -> Client:
        import httpx2

        http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {key}"}, timeout=60)
        return Client(streamable_http_client(f"{base}/mcp", http_client=http),
                      read_timeout_seconds=60)

    async def session():
        async with connect(issued["agent"]) as agent:
            assert {t.name for t in (await agent.list_tools()).tools} == TOOLS
            kept = data(await agent.call_tool("remember", {
                "content": "Use pnpm for the dashboard", "type": "instruction"}))
            assert kept["type"] == "instruction"
            answer = data(await agent.call_tool("recall", {
                "query": "which package manager for the dashboard?"}))
            assert answer["profile"] == profile_name  # the key names one profile: bound to it
            assert "pnpm" in answer["answer"]
            listed = data(await agent.call_tool("list", {"type": ["instruction"]}))
            assert [m["id"] for m in listed["memories"]] == [kept["id"]]
            other = await agent.call_tool("list", {"profile": "slack:T1:C9"})
            assert "may not use profile 'slack:T1:C9'" in error_text(other)
            denied = await agent.call_tool("forget", {"memory_id": kept["id"], "reason": "x"})
            assert "'admin' scope" in error_text(denied)
        async with connect(issued["ops"]) as ops:
            unnamed = await ops.call_tool("forget", {"memory_id": kept["id"], "reason": "x"})
            assert "name the profile" in error_text(unnamed)
            gone = data(await ops.call_tool("forget", {"memory_id": kept["id"],
                                                       "reason": "we moved to yarn",
                                                       "profile": profile_name}))
            assert gone["status"] == "forgotten"
            after = data(await ops.call_tool("list", {"profile": profile_name}))
            assert after["memories"] == []

    anyio.run(session)
    metrics = httpx.get(f"{base}/metrics").text
    assert 'lurker_recall_seconds_count{surface="mcp"} 1.0' in metrics


def test_install_prints_or_merges_the_claude_code_config(tmp_path, capsys):
    assert lurker(["mcp", "install", "--client", "claude-code", "--profile", "team-backend"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["mcpServers"]["lurker"] == {
        "type": "stdio", "command": "lurker", "args": ["mcp", "--profile", "team-backend"],
        **({"env": {"LURKER_STORE": os.environ["LURKER_STORE"]}}
           if os.environ.get("LURKER_STORE") else {})}

    config = tmp_path / ".mcp.json"
    config.write_text(json.dumps({"mcpServers": {"other": {"command": "x"}}}))
    assert lurker(["mcp", "install", "--client", "claude-code", "--url",
                   "http://lurker:8765/mcp", "--write", str(config)]) == 0
    servers = json.loads(config.read_text())["mcpServers"]
    assert servers["other"] == {"command": "x"}
    assert servers["lurker"] == {"type": "http", "url": "http://lurker:8765/mcp",
                                 "headers": {"Authorization": "Bearer ${LURKER_API_KEY}"}}
    config.write_text("{broken")
    assert lurker(["mcp", "install", "--client", "claude-code", "--profile", "x",
                   "--write", str(config)]) == 2
    assert config.read_text() == "{broken"
    assert lurker(["mcp", "install", "--client", "claude-code"]) == 2


# Forget means the bot stops saying it (issue 12): ask, forget, ask again.
# --- MCP over stdio -------------------------------------------------------------------------------
def test_mcp_forget_then_recall_no_longer_says_it(tmp_path, embedder):
    store = f"sqlite:///{tmp_path / 'mcp.sqlite3'}"
    with MemoryService.from_settings(Settings(store=store, anthropic_api_key=None),
                                     embedder=embedder) as service:
        service.profile("team-backend").ingest(
            [{"role": "user", "author": "li", "content": STATEMENT},
             {"role": "user", "author": "maya", "content": "Deploys are on Tuesdays."}], "s1")
    environ = {**os.environ, "LURKER_STORE": store, "LURKER_BROKER_URL": "memory://"}
    environ.pop("ANTHROPIC_API_KEY", None)
    environ.pop("LURKER_API_KEY", None)
    params = StdioServerParameters(command=sys.executable,
                                   args=["-m", "memory.cli", "mcp", "--profile", "team-backend"],
                                   env=environ, cwd=str(ROOT))

    def data(result) -> dict:
        assert not result.is_error, result.content
        return result.structured_content

    async def session():
        async with Client(params, read_timeout_seconds=60) as client:
            before = data(await client.call_tool("recall", {"query": QUESTION}))
            assert HOST in before["answer"]
            listed = data(await client.call_tool("list", {"limit": 50}))
            memory_id = next(m["id"] for m in listed["memories"] if HOST in m["content"])
            data(await client.call_tool("forget", {"memory_id": memory_id,
                                                   "reason": "moved to vault"}))
            return [data(await client.call_tool("recall", {"query": q}))
                    for q in (QUESTION, "db-stage-7")]

    for after in anyio.run(session):
        assert HOST not in json.dumps(after)


def test_mcp_over_http_an_admin_key_forgets_an_agent_key_no_longer_sees_it(
        http_server, service, profile_name):
    import httpx2

    base, issued = http_server
    service.profile(profile_name).ingest(
        [{"role": "user", "author": "li", "content": STATEMENT},
         {"role": "user", "author": "maya", "content": "Deploys are on Tuesdays."}], "s1")

    def connect(key: str) -> Client:
        http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {key}"}, timeout=60)
        return Client(streamable_http_client(f"{base}/mcp", http_client=http),
                      read_timeout_seconds=60)

    def data(result) -> dict:
        assert not result.is_error, result.content
        return result.structured_content

    async def session():
        async with connect(issued["agent"]) as agent:
            assert HOST in data(await agent.call_tool("recall", {"query": QUESTION}))["answer"]
            listed = data(await agent.call_tool("list", {}))["memories"]
            memory_id = next(m["id"] for m in listed if HOST in m["content"])
        async with connect(issued["ops"]) as ops:
            data(await ops.call_tool("forget", {"memory_id": memory_id, "reason": "vault",
                                                "profile": profile_name}))
            audit = data(await ops.call_tool("list", {"profile": profile_name,
                                                      "include_inactive": True}))
        async with connect(issued["agent"]) as agent:
            after = [data(await agent.call_tool("recall", {"query": q}))
                     for q in (QUESTION, "db-stage-7")]
            history = data(await agent.call_tool("list", {"include_inactive": True}))
        return audit, after, history

    audit, after, history = anyio.run(session)
    assert HOST in json.dumps(audit)  # an admin key audits what was forgotten
    assert HOST not in json.dumps(after) and HOST not in json.dumps(history)
    assert "[forgotten]" in json.dumps(history)
