"""A loopback Slack Web API for the Slack lurker's tests (as bolt-python's own tests do): a
ThreadingHTTPServer on 127.0.0.1 answering the methods the lurker calls, from a small in-memory
workspace, and recording every call. The real slack_sdk WebClient talks to it over HTTP through
`base_url`; file uploads go to its own upload URL.

    api = FakeSlackAPI(team="T1", domain="acme").start()
    api.add_user("U1", "maya", admin=True)
    api.add_history("C1", [{"user": "U1", "text": "...", "ts": "1715172960.000200"}])
    client = WebClient(token="xoxb-test", base_url=api.base_url)
"""
from __future__ import annotations

import json
import threading
from collections import defaultdict
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qsl, urlparse

BOT_USER = "UBOT"
BOT_ID = "BBOT"
TOKEN = "xoxb-test-token"
APP_TOKEN = "xapp-1-test-app-token"  # Socket Mode's app-level token (apps.connections.open)


@dataclass
class Call:
    method: str
    args: dict


@dataclass
class FakeSlackAPI:
    team: str = "T1"
    domain: str = "acme"
    page_size: int = 2  # small pages, so paging is exercised
    users: dict[str, dict] = field(default_factory=dict)
    history: dict[str, list[dict]] = field(default_factory=lambda: defaultdict(list))
    replies: dict[tuple[str, str], list[dict]] = field(default_factory=dict)
    member_of: list[str] = field(default_factory=list)
    members: dict[str, list[str]] = field(default_factory=dict)  # user -> channels they are in
    calls: list[Call] = field(default_factory=list)
    uploads: dict[str, bytes] = field(default_factory=dict)
    rate_limit: dict[str, int] = field(default_factory=dict)  # method -> 429s still to give
    retry_after: int = 0
    permalinks_fail: bool = False
    socket_url: str | None = None  # what apps.connections.open hands out (tests/fake_slack_socket)

    def __post_init__(self):
        self._lock = threading.Lock()
        self._ts = 1_800_000_000
        self._server: ThreadingHTTPServer | None = None

    # --- workspace ---------------------------------------------------------------------------
    def add_user(self, user_id: str, name: str, admin: bool = False, owner: bool = False,
                 bot: bool = False) -> dict:
        user = {"id": user_id, "team_id": self.team, "name": name, "real_name": name.title(),
                "is_admin": admin, "is_owner": owner, "is_primary_owner": False, "is_bot": bot,
                "profile": {"display_name": name, "real_name": name.title()}}
        self.users[user_id] = user
        return user

    def add_history(self, channel: str, messages: list[dict], member: bool = True) -> None:
        self.history[channel].extend({"type": "message", **m} for m in messages)
        if member and channel not in self.member_of:
            self.member_of.append(channel)

    def add_replies(self, channel: str, thread_ts: str, messages: list[dict]) -> None:
        parent = next(m for m in self.history[channel] if m["ts"] == thread_ts)
        parent.update(thread_ts=thread_ts, reply_count=len(messages))
        self.replies[(channel, thread_ts)] = [parent] + [
            {"type": "message", "thread_ts": thread_ts, **m} for m in messages]

    def called(self, method: str) -> list[dict]:
        with self._lock:
            return [c.args for c in self.calls if c.method == method]

    def posted(self) -> list[dict]:
        """chat.postMessage and chat.postEphemeral calls, in order."""
        with self._lock:
            return [dict(c.args, _method=c.method) for c in self.calls
                    if c.method in ("chat.postMessage", "chat.postEphemeral")]

    # --- server ------------------------------------------------------------------------------
    @property
    def base_url(self) -> str:
        assert self._server is not None
        return f"http://127.0.0.1:{self._server.server_address[1]}/api/"

    def start(self) -> FakeSlackAPI:
        api = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # quiet
                pass

            def do_GET(self):
                self._serve()

            def do_POST(self):
                self._serve()

            def _serve(self):
                url = urlparse(self.path)
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                if url.path.startswith("/upload/"):
                    api.uploads[url.path.rsplit("/", 1)[1]] = raw
                    return self._send(200, b"OK - uploaded", "text/plain")
                method = url.path.removeprefix("/api/")
                args = dict(parse_qsl(url.query))
                kind = self.headers.get("Content-Type", "")
                if raw and "json" in kind:
                    args.update(json.loads(raw))
                elif raw and "form" in kind:
                    args.update(parse_qsl(raw.decode()))
                auth = self.headers.get("Authorization", "")
                status, body, headers = api.dispatch(method, args, auth)
                self._send(status, json.dumps(body).encode(), "application/json", headers)

            def _send(self, status, data, kind, headers=None):
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(data)))
                for k, v in (headers or {}).items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(data)

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()

    # --- methods -----------------------------------------------------------------------------
    def _next_ts(self) -> str:
        self._ts += 1
        return f"{self._ts}.000100"

    def dispatch(self, method: str, args: dict, auth: str) -> tuple[int, dict, dict]:
        with self._lock:
            self.calls.append(Call(method, args))
            if self.rate_limit.get(method, 0) > 0:
                self.rate_limit[method] -= 1
                return 429, {"ok": False, "error": "ratelimited"}, {
                    "Retry-After": str(self.retry_after)}
        if method == "apps.connections.open":  # the only method taking the app-level token
            if auth != f"Bearer {APP_TOKEN}" or not self.socket_url:
                return 200, {"ok": False, "error": "invalid_auth"}, {}
            return 200, {"ok": True, "url": self.socket_url}, {}
        if auth != f"Bearer {TOKEN}":
            return 200, {"ok": False, "error": "invalid_auth"}, {}
        handler = getattr(self, "m_" + method.replace(".", "_"), None)
        if handler is None:
            return 200, {"ok": False, "error": "unknown_method"}, {}
        return 200, {"ok": True, **handler(args)}, {}

    def m_auth_test(self, args):
        return {"url": f"https://{self.domain}.slack.com/", "team": self.domain,
                "user": "lurker", "team_id": self.team, "user_id": BOT_USER, "bot_id": BOT_ID}

    def m_users_info(self, args):
        user = self.users.get(args.get("user"))
        if user is None:
            return {"ok": False, "error": "user_not_found"}
        return {"user": user}

    def m_users_list(self, args):
        return self._page(list(self.users.values()), args, "members")

    def m_chat_getPermalink(self, args):
        if self.permalinks_fail:
            return {"ok": False, "error": "message_not_found"}
        ts = args["message_ts"].replace(".", "")
        return {"channel": args["channel"],
                "permalink": f"https://{self.domain}.slack.com/archives/{args['channel']}/p{ts}"}

    def m_chat_postMessage(self, args):
        ts = self._next_ts()
        return {"channel": args["channel"], "ts": ts,
                "message": {"text": args.get("text"), "user": BOT_USER, "bot_id": BOT_ID,
                            "ts": ts}}

    def m_chat_postEphemeral(self, args):
        return {"message_ts": self._next_ts()}

    def m_chat_update(self, args):
        return {"channel": args["channel"], "ts": args["ts"], "text": args.get("text")}

    def m_conversations_open(self, args):
        return {"channel": {"id": "D" + args["users"]}}

    def m_files_getUploadURLExternal(self, args):
        file_id = f"F{len(self.uploads) + len(self.called('files.getUploadURLExternal'))}"
        port = self._server.server_address[1]
        return {"upload_url": f"http://127.0.0.1:{port}/upload/{file_id}", "file_id": file_id}

    def m_files_completeUploadExternal(self, args):
        files = args["files"]
        files = json.loads(files) if isinstance(files, str) else files
        return {"files": [{"id": f["id"], "title": f.get("title")} for f in files]}

    def _page(self, items: list[dict], args: dict, key: str) -> dict:
        start = int(args.get("cursor") or 0)
        limit = min(int(args.get("limit") or self.page_size), self.page_size)
        page = items[start:start + limit]
        more = start + limit < len(items)
        return {key: page, "has_more": more,
                "response_metadata": {"next_cursor": str(start + limit) if more else ""}}

    def m_conversations_history(self, args):
        oldest = float(args.get("oldest") or 0)
        items = sorted((m for m in self.history.get(args["channel"], [])
                        if float(m["ts"]) > oldest), key=lambda m: float(m["ts"]), reverse=True)
        return self._page(items, args, "messages")

    def m_conversations_replies(self, args):
        items = self.replies.get((args["channel"], args["ts"]), [])
        return self._page(items, args, "messages")

    def m_users_conversations(self, args):
        ids = self.members.get(args["user"], []) if args.get("user") else self.member_of
        channels = [{"id": c, "name": c.lower(), "is_channel": True} for c in ids]
        return self._page(channels, args, "channels")
