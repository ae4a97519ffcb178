"""A loopback Discord for the real discord.py client: one aiohttp server on 127.0.0.1 plays the REST
API (`/api/v10/...`, recording every request the bot makes) and the gateway websocket (HELLO,
IDENTIFY -> READY + GUILD_CREATE, heartbeats, then whatever dispatch payloads a test sends).

The client under test is unmodified discord.py: tests only point `discord.http.Route.BASE` and
`DiscordWebSocket.DEFAULT_GATEWAY` at this server. Payload builders below produce the raw JSON
Discord sends (snowflakes encode their creation time, so `message(..., at=...)` dates a message).

Everything runs on one event loop in a background thread (`LoopThread`), so plain synchronous
tests drive it with `run(coro)` and `wait_for(predicate)`.
"""
from __future__ import annotations

import asyncio
import itertools
import json
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from aiohttp import WSMsgType, web
from discord.utils import time_snowflake

API = "/api/v10"
APP_ID = "900000000000000001"
BOT_ID = APP_ID  # a bot user's id is its application's id
_ids = itertools.count(1)


def snowflake(at: datetime | None = None) -> str:
    """A unique id whose timestamp is `at` (now by default)."""
    at = at or datetime.now(timezone.utc)
    return str(time_snowflake(at) + next(_ids) % 4096)


# --- raw payload builders ---------------------------------------------------------------------
def user(user_id: str, name: str, *, bot: bool = False) -> dict:
    return {"id": user_id, "username": name, "global_name": None, "discriminator": "0",
            "avatar": None, "bot": bot, "public_flags": 0}


def member(roles: list[str] | None = None, **extra) -> dict:
    return {"roles": roles or [], "joined_at": "2026-01-01T00:00:00+00:00", "deaf": False,
            "mute": False, "flags": 0, "nick": None, **extra}


def role(role_id: str, name: str, permissions: int) -> dict:
    return {"id": role_id, "name": name, "permissions": str(permissions), "position": 0,
            "color": 0, "hoist": False, "managed": False, "mentionable": False, "flags": 0}


def text_channel(channel_id: str, guild_id: str, name: str, position: int = 0) -> dict:
    return {"id": channel_id, "type": 0, "guild_id": guild_id, "name": name,
            "position": position, "permission_overwrites": [], "nsfw": False,
            "parent_id": None, "topic": None, "last_message_id": None,
            "rate_limit_per_user": 0}


def thread_channel(thread_id: str, guild_id: str, parent_id: str, name: str) -> dict:
    return {"id": thread_id, "type": 11, "guild_id": guild_id, "parent_id": parent_id,
            "name": name, "owner_id": "1", "message_count": 0, "member_count": 1,
            "rate_limit_per_user": 0, "flags": 0,
            "thread_metadata": {"archived": False, "auto_archive_duration": 1440,
                                "archive_timestamp": "2026-01-01T00:00:00+00:00",
                                "locked": False}}


def guild(guild_id: str, name: str, *, owner_id: str, channels: list[dict],
          roles: list[dict], threads: list[dict] | None = None,
          members: list[dict] | None = None) -> dict:
    return {"id": guild_id, "name": name, "owner_id": owner_id, "icon": None, "splash": None,
            "discovery_splash": None, "afk_channel_id": None, "afk_timeout": 300,
            "verification_level": 0, "default_message_notifications": 0,
            "explicit_content_filter": 0, "roles": roles, "emojis": [], "stickers": [],
            "features": [], "mfa_level": 0, "application_id": None, "system_channel_id": None,
            "system_channel_flags": 0, "rules_channel_id": None, "vanity_url_code": None,
            "description": None, "banner": None, "premium_tier": 0,
            "preferred_locale": "en-US", "public_updates_channel_id": None, "nsfw_level": 0,
            "premium_progress_bar_enabled": False, "large": False, "member_count": 3,
            "joined_at": "2026-01-01T00:00:00+00:00", "unavailable": False,
            "channels": channels, "threads": threads or [], "members": members or [],
            "voice_states": [], "presences": [], "stage_instances": [],
            "guild_scheduled_events": [], "soundboard_sounds": []}


def message(channel_id: str, author: dict, content: str, *, guild_id: str | None = None,
            at: datetime | None = None, message_id: str | None = None,
            author_member: dict | None = None, mentions: list[dict] | None = None,
            reference: str | None = None, edited_at: datetime | None = None,
            kind: int = 0) -> dict:
    data = {"id": message_id or snowflake(at), "channel_id": channel_id, "author": author,
            "content": content,
            "timestamp": (at or datetime.now(timezone.utc)).isoformat(),
            "edited_timestamp": edited_at.isoformat() if edited_at else None, "tts": False,
            "mention_everyone": False, "mentions": mentions or [], "mention_roles": [],
            "attachments": [], "embeds": [], "pinned": False, "type": kind, "flags": 0,
            "components": []}
    if guild_id is not None:
        data["guild_id"] = guild_id
        data["member"] = author_member or member()
    if reference is not None:
        data["message_reference"] = {"message_id": reference, "channel_id": channel_id,
                                     **({"guild_id": guild_id} if guild_id else {})}
        data["type"] = 19
    return data


def slash(guild_id: str, channel: dict, invoker: dict, permissions: int, subcommand: str,
          options: list[dict] | None = None, resolved: dict | None = None) -> dict:
    """An INTERACTION_CREATE for `/lurker <subcommand> ...` from a guild member."""
    data: dict[str, Any] = {"id": "910000000000000001", "name": "lurker", "type": 1,
                            "options": [{"name": subcommand, "type": 1,
                                         "options": options or []}]}
    if resolved:
        data["resolved"] = resolved
    return {"id": snowflake(), "application_id": APP_ID, "type": 2, "token": f"tok{next(_ids)}",
            "version": 1, "guild_id": guild_id, "channel_id": channel["id"], "channel": channel,
            "member": member(user=invoker, permissions=str(permissions)), "data": data,
            "app_permissions": str(2 ** 41 - 1), "locale": "en-US", "guild_locale": "en-US",
            "entitlements": [], "authorizing_integration_owners": {"0": guild_id}, "context": 0,
            "attachment_size_limit": 8 * 1024 * 1024}


# --- the server -------------------------------------------------------------------------------
def _json(data, status: int = 200, headers: dict | None = None) -> web.Response:
    """discord.py decodes a body only when Content-Type is exactly application/json."""
    return web.Response(body=json.dumps(data).encode(), status=status,
                        headers={"Content-Type": "application/json", **(headers or {})})


@dataclass
class Request:
    method: str
    path: str  # without /api/v10
    query: dict
    json: Any = None
    files: dict[str, bytes] = field(default_factory=dict)


class FakeDiscord:
    def __init__(self, guilds: list[dict]):
        self.guilds = guilds
        self.member_roles: dict[tuple[str, str], list[str]] = {}  # (guild, user) -> role ids
        self.requests: list[Request] = []
        self.history: dict[str, list[dict]] = {}  # channel id -> messages, served by GET
        self.dm_channels: dict[str, str] = {}  # user id -> the DM channel opened with them
        self.users: dict[str, dict] = {}  # user payloads by id, for DM channels' recipients
        self.member_nicks: dict[str, str] = {}  # user id -> nick, for members fetched by id
        self.dm_refused: set[str] = set()  # user ids whose DMs answer 403 (DMs turned off)
        self.identify: dict | None = None
        self.rate_limit_next: set[str] = set()  # paths answered once with a 429
        self._ws: web.WebSocketResponse | None = None
        self._seq = 0
        self._runner: web.AppRunner | None = None
        self.port = 0

    # lifecycle (on the loop)
    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", API + "/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]

    async def stop(self) -> None:
        if self._ws is not None:
            await self._ws.close()
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}{API}"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    # gateway
    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        self._ws = ws
        await ws.send_json({"op": 10, "d": {"heartbeat_interval": 45000}, "s": None, "t": None})
        async for frame in ws:
            if frame.type != WSMsgType.TEXT:
                continue
            payload = json.loads(frame.data)
            if payload["op"] == 1:
                await ws.send_json({"op": 11, "d": None, "s": None, "t": None})
            elif payload["op"] == 2:
                self.identify = payload["d"]
                await self.dispatch("READY", {
                    "v": 10, "user": user(BOT_ID, "lurker", bot=True),
                    "guilds": [{"id": g["id"], "unavailable": True} for g in self.guilds],
                    "session_id": "session", "resume_gateway_url": self.gateway_url,
                    "application": {"id": APP_ID, "flags": 0}, "private_channels": [],
                    "relationships": []})
                for g in self.guilds:
                    await self.dispatch("GUILD_CREATE", g)
        return ws

    async def dispatch(self, event: str, data: dict) -> None:
        self._seq += 1
        await self._ws.send_json({"op": 0, "t": event, "s": self._seq, "d": data})

    # REST
    async def _rest(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        body, files = None, {}
        if request.content_type == "application/json":
            body = await request.json()
        elif request.content_type.startswith("multipart/"):
            form = await request.post()
            for key, value in form.items():
                if key == "payload_json":
                    body = json.loads(value)
                elif hasattr(value, "file"):
                    files[value.filename] = value.file.read()
        self.requests.append(Request(request.method, path, dict(request.query), body, files))
        if path in self.rate_limit_next:
            self.rate_limit_next.discard(path)
            return _json(
                {"message": "You are being rate limited.", "retry_after": 0.05, "global": False},
                status=429, headers={"Retry-After": "0.05", "X-RateLimit-Limit": "5",
                                     "X-RateLimit-Remaining": "0",
                                     "X-RateLimit-Reset-After": "0.05",
                                     "X-RateLimit-Bucket": "history", "X-RateLimit-Scope": "user",
                                     "Via": "1.1 google"})  # discord.py: no Via = a ban
        return self._answer(request.method, path, request.query, body)

    def _answer(self, method: str, path: str, query, body) -> web.StreamResponse:
        parts = path.strip("/").split("/")
        if path == "/users/@me":
            return _json(user(BOT_ID, "lurker", bot=True))
        if path == "/oauth2/applications/@me":
            return _json({
                "id": APP_ID, "name": "lurker", "icon": None, "description": "",
                "bot_public": True, "bot_require_code_grant": False,
                "owner": user("1", "owner"), "verify_key": "00", "flags": 0,
                "interactions_endpoint_url": None})
        if parts[:1] == ["applications"] and parts[-1] == "commands" and method == "PUT":
            return _json([{**c, "id": str(910000000000000001 + n),
                                       "application_id": APP_ID, "version": "1",
                                       "default_member_permissions": None, "type": 1}
                                      for n, c in enumerate(body or [])])
        if path == "/users/@me/channels" and method == "POST":  # open a DM (User.create_dm)
            recipient = str((body or {}).get("recipient_id"))
            channel_id = self.dm_channels.setdefault(recipient, snowflake())
            return _json({"id": channel_id, "type": 1, "last_message_id": None,
                          "recipients": [self.users.get(recipient, user(recipient, "someone"))]})
        if path == "/users/@me/guilds":
            return _json([{"id": g["id"], "name": g["name"], "icon": None, "owner": False,
                           "permissions": "0", "features": []} for g in self.guilds])
        if parts[:1] == ["guilds"] and parts[2:3] == ["members"] and len(parts) == 4:
            return self._member(parts[1], parts[3])
        if parts[:1] == ["guilds"] and parts[2:] == ["channels"]:
            return _json([c for g in self.guilds if g["id"] == parts[1] for c in g["channels"]])
        if parts[:1] == ["channels"]:
            channel_id = parts[1]
            if len(parts) == 2 and method == "GET":
                found = [c for g in self.guilds for c in g["channels"] + g.get("threads", [])
                         if c["id"] == channel_id]
                return _json(found[0]) if found else _json(
                    {"message": "Unknown Channel", "code": 10003}, status=404)
            if parts[2:] == ["typing"]:
                return web.Response(status=204)
            if parts[2:3] == ["messages"] and len(parts) == 3 and method == "POST":
                if any(self.dm_channels.get(u) == channel_id for u in self.dm_refused):
                    return _json({"message": "Cannot send messages to this user",
                                  "code": 50007}, status=403)
                return _json(self._posted(channel_id, body))
            if parts[2:3] == ["messages"] and len(parts) == 3 and method == "GET":
                return _json(self._page(channel_id, query))
            if "reactions" in parts:
                return web.Response(status=204)
        if parts[:1] == ["interactions"] and parts[-1] == "callback":
            return _json({"interaction": {
                "id": parts[1], "type": body.get("type"), "response_message_loading": True,
                "response_message_ephemeral": False}})
        if parts[:1] == ["webhooks"] and len(parts) == 3 and method == "POST":
            return _json(self._posted(self.interaction_channel, body))
        return _json({"message": f"fake Discord: no route {method} {path}",
                                  "code": 0}, status=404)

    def _member(self, guild_id: str, user_id: str) -> web.Response:
        """GET /guilds/<id>/members/<id>: the guild's member entry, or a user registered in
        `users` (with `member_nicks`) as a plain member."""
        roles = self.member_roles.get((guild_id, user_id))
        for g in self.guilds:
            if g["id"] != guild_id:
                continue
            for entry in g.get("members", []):
                if entry.get("user", {}).get("id") == user_id:
                    return _json(entry if roles is None else {**entry, "roles": roles})
            if user_id in self.users:
                return _json(member(roles, user=self.users[user_id],
                                    nick=self.member_nicks.get(user_id)))
            # any other user is a member with the roles `member_roles` gives them (none:
            # @everyone only)
            return _json({**member(roles or []), "user": user(user_id, f"user{user_id[-4:]}")})
        return _json({"message": "Unknown Member", "code": 10007}, status=404)

    interaction_channel = "0"  # where follow-ups appear (set by the test before an interaction)

    def _posted(self, channel_id: str, body: dict | None) -> dict:
        body = body or {}
        data = message(channel_id, user(BOT_ID, "lurker", bot=True), body.get("content") or "",
                       guild_id=self._guild_of(channel_id))
        self.history.setdefault(channel_id, []).append(data)
        return data

    def _guild_of(self, channel_id: str) -> str | None:
        for g in self.guilds:
            if any(c["id"] == channel_id for c in g["channels"] + g.get("threads", [])):
                return g["id"]
        return None

    def _page(self, channel_id: str, query) -> list[dict]:
        """Like Discord: the `limit` messages right after `after` (or before `before`), newest
        first."""
        limit = int(query.get("limit", 50))
        items = sorted(self.history.get(channel_id, []), key=lambda m: int(m["id"]))
        if "after" in query:
            items = [m for m in items if int(m["id"]) > int(query["after"])][:limit]
        else:
            if "before" in query:
                items = [m for m in items if int(m["id"]) < int(query["before"])]
            items = items[-limit:]
        return list(reversed(items))

    def dms(self, user_id: str) -> list[Request]:
        """What the bot posted in its DM with `user_id`."""
        channel_id = self.dm_channels.get(user_id)
        return [] if channel_id is None else self.posts(channel_id)

    # what the bot said
    def posts(self, channel_id: str | None = None) -> list[Request]:
        return [r for r in self.requests if r.method == "POST" and (
            (r.path.startswith("/channels/") and r.path.endswith("/messages")
             and (channel_id is None or r.path == f"/channels/{channel_id}/messages"))
            or (r.path.startswith("/webhooks/") and channel_id is None))]


class LoopThread:
    """An asyncio loop in a daemon thread; `run` a coroutine on it from the test thread."""

    def __init__(self):
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self._thread.start()

    def run(self, coro, timeout: float = 10.0):
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def wait_for(self, predicate, timeout: float = 10.0, what: str = "the condition"):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            value = predicate()
            if value:
                return value
            time.sleep(0.01)
        raise AssertionError(f"timed out after {timeout}s waiting for {what}")

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(5)
        self.loop.close()
