"""`lurker mcp`: the memory as four MCP tools (recall, remember, forget, list) for coding agents,
over stdio or streamable HTTP (the `mcp` SDK).

What a server may reach:
- stdio, no key: the one profile named by --profile, with every operation (the local user runs it
  with the store's own credentials, like the CLI);
- stdio with LURKER_API_KEY: the profiles and scopes of that key (from the keys file), narrowed
  to --profile when given;
- streamable HTTP: every request carries a key (`Authorization: Bearer lk_...`); each tool call is
  checked against that key's profiles and scopes (forget needs admin), narrowed to --profile when
  given.
A tool's `profile` argument picks among the allowed profiles; it may be left out when the server
is bound to one (--profile, or a key for exactly one profile name).
"""

import argparse
import json
import logging
import os
import shlex
import sys
import time
from pathlib import Path
from typing import Annotated, Any

from pydantic import Field

from .api.keys import ApiKey, KeyFile, KeyFileError, keys_path
from memory.errors import LurkerError
from memory.models import Memory, MemoryType
from memory.service import forgotten_tombstone

log = logging.getLogger("lurker.mcp")

ALL_SCOPES = frozenset({"read", "write", "admin"})
INSTRUCTIONS = (
    "Lurker is the team's shared memory. Call `recall` before answering questions about team "
    "decisions, conventions or past discussions; call `remember` to keep a durable fact or "
    "instruction the team should know; `list` shows what is stored; `forget` retires a memory "
    "that is no longer true (admin keys only).")


class AccessDenied(LurkerError):
    pass


class Access:
    """The profiles and scopes a server, or one HTTP request, may use."""

    def __init__(self, bound: str | None, key: ApiKey | None):
        if bound is None and key is None:
            raise LurkerError("lurker mcp needs --profile, or an API key (LURKER_API_KEY) "
                              "naming the profiles it may use")
        if bound is not None and key is not None and not key.allows(bound):
            raise AccessDenied(f"key {key.name!r} may not use profile {bound!r}")
        self.bound, self.key = bound, key

    def profile(self, requested: str | None, scope: str) -> str:
        """The profile a tool call works on, or AccessDenied saying why not."""
        if self.key is not None and not self.key.can(scope):
            raise AccessDenied(f"key {self.key.name!r} lacks the {scope!r} scope this tool needs")
        name = requested or self.bound or self._only_profile()
        if name is None:
            raise AccessDenied("name the profile: this key may use "
                               f"{', '.join(self.key.profiles)}")
        if self.bound is not None and name != self.bound:
            raise AccessDenied(f"this server is bound to profile {self.bound!r}, not {name!r}")
        if self.key is not None and not self.key.allows(name):
            raise AccessDenied(f"key {self.key.name!r} may not use profile {name!r}")
        return name

    @property
    def audits(self) -> bool:
        """May see what forgotten memories said: an admin key, or the store's owner (stdio
        bound to a profile without a key)."""
        return self.key is None or self.key.can("admin")

    def _only_profile(self) -> str | None:
        profiles = self.key.profiles if self.key else ()
        return profiles[0] if len(profiles) == 1 and not profiles[0].endswith("*") else None


def _memory(m: Memory) -> dict:
    return {"id": m.id, "type": m.type, "content": m.content, "topic_key": m.topic_key,
            "status": m.status, "source_message_ids": m.source_message_ids,
            "event_time": m.event_time.isoformat() if m.event_time else None,
            "forgotten_reason": m.forgotten_reason}


def _presented_key(headers) -> str | None:
    if headers is None:
        return None
    auth = headers.get("authorization") or ""
    scheme, _, token = auth.partition(" ")
    if scheme.lower() == "bearer" and token.strip():
        return token.strip()
    return headers.get("x-api-key") or None


def build_server(service, bound: str | None = None, key: ApiKey | None = None,
                 keys: KeyFile | None = None, metrics=None):
    """The MCP server. Over stdio pass `bound` and/or `key`; over HTTP pass `keys` (each request's
    key is looked up there) and optionally `bound`."""
    from mcp.server.mcpserver import Context, MCPServer
    from mcp.server.mcpserver.exceptions import ToolError

    fixed = None if keys is not None else Access(bound, key)

    def access(ctx: Context) -> Access:
        if fixed is not None:
            return fixed
        request = ctx.request_context.request
        presented = _presented_key(getattr(request, "headers", None))
        found = keys.current().authenticate(presented)
        if found is None:
            raise ToolError("an API key is needed (Authorization: Bearer <key>)")
        return Access(bound, found)

    def run(ctx: Context, requested: str | None, scope: str, operation):
        try:
            name = access(ctx).profile(requested, scope)
            return operation(service.profile(name))
        except LurkerError as exc:  # bad input, unknown ids, refused access: the model reads it
            raise ToolError(str(exc)) from None

    server = MCPServer("lurker", instructions=INSTRUCTIONS, log_level="WARNING")
    Profile = Annotated[str | None, Field(
        description="profile name (may be left out when the server is bound to one)")]

    @server.tool(description="Answer a question from the team's memory. Returns a short answer "
                             "and the memories and messages it is drawn from, with their ids.")
    def recall(query: Annotated[str, Field(min_length=1, max_length=2000)],
               ctx: Context, profile: Profile = None,
               asker: Annotated[str | None, Field(
                   min_length=1, max_length=256,
                   description="who is asking, as their messages' author: a question in the "
                               "first person then also searches their own messages")] = None,
               addressee: Annotated[str | None, Field(
                   min_length=1, max_length=256,
                   description="who the question is put to, as their messages' author (you, "
                               "the agent, when you write into the profile): \"what did you "
                               "recommend?\" then searches their messages")] = None
               ) -> dict[str, Any]:
        def op(p):
            start = time.perf_counter()
            result = p.recall(query, asker=asker, addressee=addressee)
            if metrics is not None:
                metrics.observe_recall("mcp", time.perf_counter() - start, result)
            return {"profile": p.name, "answer": result.answer,
                    "memories": [{**_memory(s.memory), "score": round(s.score, 6)}
                                 for s in result.memories],
                    "messages": [{"id": s.message.id, "author": s.message.author,
                                  "content": s.message.content, "ts": s.message.ts.isoformat()}
                                 for s in result.messages],
                    "computed": [c.model_dump() for c in result.computed]}
        return run(ctx, profile, "read", op)

    @server.tool(description="Store one durable memory for the team now (a fact, decision, "
                             "instruction, event or task). Classified unless `type` is given.")
    def remember(content: Annotated[str, Field(min_length=1, max_length=20000)], ctx: Context,
                 type: MemoryType | None = None, profile: Profile = None) -> dict[str, Any]:
        return run(ctx, profile, "write",
                   lambda p: _memory(p.remember(content, memory_type=type)))

    @server.tool(description="Mark a memory as no longer true (needs an admin key). It leaves "
                             "recall and keeps the reason in its history.")
    def forget(memory_id: Annotated[str, Field(pattern=r"^[0-9a-f]{32}$")],
               reason: Annotated[str, Field(min_length=1, max_length=1000)], ctx: Context,
               profile: Profile = None) -> dict[str, Any]:
        return run(ctx, profile, "admin", lambda p: _memory(p.forget(memory_id, reason)))

    @server.tool(name="list", description="List stored memories, oldest first, a page at a "
                                          "time; `include_inactive` adds superseded and "
                                          "forgotten ones.")
    def list_memories(ctx: Context, type: list[MemoryType] | None = None,
                      include_inactive: bool = False,
                      limit: Annotated[int, Field(ge=1, le=500)] = 50,
                      offset: Annotated[int, Field(ge=0)] = 0,
                      profile: Profile = None) -> dict[str, Any]:
        def op(p):
            found = p.list(type or None, include_inactive, limit + 1, offset)
            if not access(ctx).audits:  # what a forgotten memory said is for admins only
                found = [forgotten_tombstone(m) for m in found]
            return {"profile": p.name, "memories": [_memory(m) for m in found[:limit]],
                    "next_offset": offset + limit if len(found) > limit else None}
        return run(ctx, profile, "read", op)

    return server


class RequireKey:
    """Refuses HTTP requests without a known key (401, JSON) before they reach an MCP session;
    each tool call checks the key's profiles and scopes again."""

    def __init__(self, app, keys: KeyFile, open_paths: tuple[str, ...] = ("/healthz",
                                                                          "/metrics")):
        self.app, self.keys, self.open_paths = app, keys, open_paths

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or scope.get("path") in self.open_paths:
            return await self.app(scope, receive, send)
        from starlette.datastructures import Headers
        from starlette.responses import JSONResponse

        if self.keys.current().authenticate(_presented_key(Headers(scope=scope))) is None:
            body = {"error": {"code": "unauthorized", "message": "an API key is needed: send "
                              "`Authorization: Bearer <key>`", "details": []}}
            return await JSONResponse(body, status_code=401, headers={
                "WWW-Authenticate": "Bearer"})(scope, receive, send)
        await self.app(scope, receive, send)


def http_app(service, keys: KeyFile, bound: str | None = None, metrics=None):
    """The streamable-HTTP ASGI app (MCP endpoint at /mcp, plus /healthz and /metrics)."""
    from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
    from starlette.responses import JSONResponse, Response

    from .api.obs import LLMCollector, Metrics

    if metrics is None:
        metrics = Metrics()
        metrics.add_collector(LLMCollector(service))
    server = build_server(service, bound=bound, keys=keys, metrics=metrics)

    @server.custom_route("/healthz", methods=["GET"])
    async def healthz(request):
        return JSONResponse({"status": "ok"})

    @server.custom_route("/metrics", methods=["GET"])
    async def metrics_route(request):
        return Response(generate_latest(metrics.registry), media_type=CONTENT_TYPE_LATEST)

    # Stateless: each POST is a whole exchange, so any replica behind a load balancer answers.
    app = server.streamable_http_app(stateless_http=True, json_response=True)
    return RequireKey(app, keys)


# --- command line ------------------------------------------------------------------------------
def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--profile", help="bind the server to this profile")
    parser.add_argument("--transport", choices=["stdio", "http"], default="stdio")
    parser.add_argument("--host", default="127.0.0.1", help="http: address to listen on")
    parser.add_argument("--port", type=int, default=8765, help="http: port")
    parser.add_argument("--keys-file", help="API keys file (default: LURKER_API_KEYS_FILE)")
    sub = parser.add_subparsers(dest="mcp_command")
    p = sub.add_parser("install", help="print or write the MCP client configuration")
    p.add_argument("--client", choices=["claude-code"], required=True)
    p.add_argument("--profile", dest="install_profile", metavar="NAME",
                   help="the profile the agent uses")
    p.add_argument("--url", help="use a running `lurker mcp --transport http` at this URL "
                                 "(e.g. http://lurker:8765/mcp) instead of a local stdio server")
    p.add_argument("--write", nargs="?", const=".mcp.json", metavar="FILE",
                   help="merge the server into this config file (default: ./.mcp.json, "
                        "Claude Code's project scope) instead of printing it")
    p.add_argument("--name", default="lurker", help="server name in the config")


def client_config(profile: str | None, url: str | None, store: str | None) -> dict:
    """Claude Code's `mcpServers` entry. Over HTTP the key is read from the user's environment
    when Claude Code starts (${LURKER_API_KEY}), so it never lands in a committed file."""
    if url:
        return {"type": "http", "url": url,
                "headers": {"Authorization": "Bearer ${LURKER_API_KEY}"}}
    args = ["mcp"] + (["--profile", profile] if profile else [])
    entry: dict[str, Any] = {"type": "stdio", "command": "lurker", "args": args}
    if store:
        entry["env"] = {"LURKER_STORE": store}
    return entry


def install(args, settings) -> int:
    if not args.url and not args.install_profile:
        raise LurkerError("mcp install: name the profile (--profile) for a local stdio server, "
                          "or give --url of an HTTP one")
    entry = client_config(args.install_profile, args.url,
                          args.store or os.environ.get("LURKER_STORE"))
    if args.write:
        path = Path(args.write)
        try:
            data = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
        except json.JSONDecodeError as exc:
            raise LurkerError(f"{path}: not valid JSON ({exc.msg} at line {exc.lineno}); "
                              f"nothing was written") from None
        if not isinstance(data, dict) or not isinstance(data.setdefault("mcpServers", {}), dict):
            raise LurkerError(f"{path}: expected an object with mcpServers; nothing was written")
        data["mcpServers"][args.name] = entry
        path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
        print(f"wrote MCP server {args.name!r} to {path}")
        return 0
    print(json.dumps({"mcpServers": {args.name: entry}}, indent=2))
    if args.url:
        command = ["claude", "mcp", "add", "--transport", "http", args.name, args.url,
                   "--header", "Authorization: Bearer ${LURKER_API_KEY}"]
    else:
        command = ["claude", "mcp", "add", "--transport", "stdio", args.name, "--",
                   entry["command"], *entry["args"]]
    print(f"\n# or register it with the Claude Code CLI:\n{shlex.join(command)}",
          file=sys.stderr)
    return 0


def run_mcp(args) -> int:
    from memory.config import Settings
    from memory.service import MemoryService

    settings = Settings(**({"store": args.store} if args.store else {}))
    if args.mcp_command == "install":
        return install(args, settings)
    from .api.obs import configure_logging

    configure_logging(settings.log_format, stream=sys.stderr)  # stdout is the stdio transport
    keys_file = Path(args.keys_file) if args.keys_file else keys_path(settings)
    if args.profile is not None:
        from memory.ids import check_profile_name

        check_profile_name(args.profile)
    with MemoryService.from_settings(settings) as service:
        if args.transport == "http":
            import uvicorn

            app = http_app(service, KeyFile(keys_file), bound=args.profile)
            log.info("MCP over streamable HTTP on http://%s:%d/mcp", args.host, args.port)
            uvicorn.run(app, host=args.host, port=args.port, log_config=None, access_log=False)
            return 0
        key = None
        presented = os.environ.get("LURKER_API_KEY")
        if presented:
            key = KeyFile(keys_file).current().authenticate(presented)
            if key is None:
                raise KeyFileError(f"LURKER_API_KEY is not a key in {keys_file}")
        build_server(service, bound=args.profile, key=key).run("stdio")
    return 0
