"""Driving a Slack lurker the way Slack does, on loopback: its HTTP mode served by uvicorn on a
free port, and signed Events API, slash command and interactivity payloads posted to it."""
from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
from urllib.parse import urlencode

import httpx
import uvicorn
from slack_sdk.signature import SignatureVerifier

from bot.slack_app import SlackLurker
from tests.fake_slack_api import BOT_USER

SECRET = "8f742231b10e8888abcd99yyyzzz85a5"
TEAM = "T1"
DAY = 1_794_819_600  # 2026-11-16 09:00 UTC


def ts(minutes: int) -> str:
    return f"{DAY + minutes * 60}.000100"


RATE = "We decided to cap the API rate limit at 500 requests per minute."
DB = "The staging database moves to Postgres 16 next week."


@contextlib.contextmanager
def serving(lurker: SlackLurker):
    """The lurker's HTTP mode (uvicorn) on a free loopback port; `lurker.url` is its endpoint."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(lurker.asgi(), host="127.0.0.1", port=port,
                                           log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    lurker.url = f"http://127.0.0.1:{port}/slack/events"
    try:
        yield lurker
    finally:
        server.should_exit = True
        thread.join(10)
        lurker.close()


def signed_post(lurker, body: str, kind: str, secret: str = SECRET,
                headers: dict | None = None) -> httpx.Response:
    stamp = str(int(time.time()))
    headers = {**(headers or {}), "Content-Type": kind, "X-Slack-Request-Timestamp": stamp,
               "X-Slack-Signature": SignatureVerifier(secret).generate_signature(
                   timestamp=stamp, body=body)}
    response = httpx.post(lurker.url, content=body.encode(), headers=headers, timeout=30)
    lurker.drain()
    return response


def event(lurker, payload: dict, event_id: str | None = None, retry: int | None = None,
          **kw) -> httpx.Response:
    """A signed event_callback; `event_id` fixed and `retry` (X-Slack-Retry-Num) to send what
    Slack sends when it retries one."""
    team = lurker.team
    if retry is not None:
        kw["headers"] = {"X-Slack-Retry-Num": str(retry), "X-Slack-Retry-Reason": "http_timeout"}
    body = json.dumps({"token": "legacy", "team_id": team, "api_app_id": "A1",
                       "type": "event_callback",
                       "event_id": event_id or f"Ev{time.monotonic_ns()}",
                       "event_time": DAY, "event": payload,
                       "authorizations": [{"team_id": team, "user_id": BOT_USER,
                                           "is_bot": True}]})
    return signed_post(lurker, body, "application/json", **kw)


def message(lurker, channel, user, text, at, **extra) -> httpx.Response:
    payload = {"type": "message", "channel": channel, "user": user, "text": text, "ts": at,
               "team": lurker.team, "channel_type": "channel", **extra}
    return event(lurker, payload)


def mention(lurker, channel, user, text, at, **extra) -> httpx.Response:
    text = f"<@{BOT_USER}> {text}"
    message(lurker, channel, user, text, at, **extra)  # Slack sends both
    return event(lurker, {"type": "app_mention", "channel": channel, "user": user, "text": text,
                          "ts": at, "team": lurker.team, **extra})


def command(lurker, user, text, channel="CGEN") -> httpx.Response:
    body = urlencode({"token": "legacy", "team_id": TEAM, "channel_id": channel,
                      "channel_name": "general", "user_id": user, "user_name": user,
                      "command": "/lurker", "text": text, "trigger_id": "1.2.3",
                      "response_url": "http://127.0.0.1:9/unused", "api_app_id": "A1"})
    return signed_post(lurker, body, "application/x-www-form-urlencoded")


def click(lurker, user, question: dict, value: str, channel="CGEN") -> httpx.Response:
    payload = {"type": "block_actions", "team": {"id": TEAM}, "user": {"id": user},
               "api_app_id": "A1", "token": "legacy", "trigger_id": "1.2.3",
               "channel": {"id": channel},
               "container": {"type": "message", "message_ts": question["ts"],
                             "channel_id": channel, "is_ephemeral": False},
               "message": {"ts": question["ts"], "text": question["text"],
                           "thread_ts": question.get("thread_ts")},
               "response_url": "http://127.0.0.1:9/unused",
               "actions": [{"type": "button", "action_id": f"lurker_choice_{value.split('|')[1]}",
                            "block_id": "b", "value": value, "action_ts": "1"}]}
    return signed_post(lurker, urlencode({"payload": json.dumps(payload)}),
                       "application/x-www-form-urlencoded")
