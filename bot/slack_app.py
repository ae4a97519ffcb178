"""The Slack lurker (slack-bolt): Events API in, LurkerBot calls out.

- Every message in a channel the bot is in (thread replies too) becomes a `message.created` event
  for the channel's profile (`slack:<team>:<channel>`); `message_changed` and `message_deleted`
  follow. Lurker's own messages are never ingested; other bots' only when the config's
  `allowed_bots` lists their bot or user id. System notices (joins, topic changes) are skipped.
- An `app_mention`, a DM, or `/lurker ask|forget|purge|memories|export` runs
  `LurkerBot.on_request`: the reply goes in the message's thread (slash commands: ephemerally to
  whoever ran it), sources as chat.getPermalink links (constructed from the workspace URL when
  that fails). If recall takes over a second, an ephemeral "looking…" note is posted first.
- Workspace admins/owners (users.info) and the config's admins may run the admin commands.
  `forget <text>` asks with Block Kit buttons; the answered question is updated in place.
  Exports go to the admin's DM, never into the channel.
- When the bot joins a channel, the channel's history is paged in (`SlackHistory`, the
  bot/backfill.py HistorySource: conversations.history + conversations.replies, cursor paging,
  429s waited out per Retry-After); `lurker backfill` does it for every channel it is in.

Transports: Socket Mode (SLACK_APP_TOKEN, no public URL) or HTTP (`/slack/events`, every request's
signature checked with SLACK_SIGNING_SECRET, served by uvicorn). Listeners only hand work to the
adapter's lanes (bot/lanes.py, so Slack gets its acknowledgement at once): ingestion runs on one
thread in arrival order (an edit or delete does not overtake its message), requests on a small pool
and wait for what was said before them.
"""
from __future__ import annotations

import html
import logging
import os
import re
import threading
import time
from collections.abc import Iterable, Iterator
from dataclasses import replace
from datetime import datetime, timedelta, timezone, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from slack_bolt import App
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError
from slack_sdk.http_retry.builtin_handlers import RateLimitErrorRetryHandler

from memory.markup import MENTION, readable_slack
from memory.models import Message

from .app_content import slack_body, slack_card_lines
from .backfill import BackfillReport, Progress, backfill
from .contract import (Actor, ChatMessage, Conversation, Place, Reply, fitting_pieces,
                       parse_external_id)
from .contract import external_id as external_id_of
from .core import LurkerBot
from .lanes import Lanes

log = logging.getLogger("lurker.slack")

PLATFORM = "slack"
TOKEN_ENV, APP_TOKEN_ENV, SECRET_ENV = "SLACK_BOT_TOKEN", "SLACK_APP_TOKEN", "SLACK_SIGNING_SECRET"
EVENTS_PATH = "/slack/events"
RATE_LIMIT_RETRIES = 8  # 429s waited out per call (Retry-After) before giving up
HISTORY_PAGE = 200  # conversations.history's recommended page size
USER_CACHE_S = 600.0  # names and admin flags from users.info
READABLE_CACHE_S = 60.0  # which channels a DM's asker is in (users.conversations)
MAX_BLOCK_TEXT = 2900  # a section block holds 3000 characters
WORKING = "Looking through what this channel has discussed…"
# message subtypes that are people (or allowed bots) saying something; the rest are notices
SAID = {None, "thread_broadcast", "file_share", "me_message", "bot_message"}
_CHOICE_ACTION = re.compile(r"^lurker_choice_")
_PERMALINK = re.compile(r"https://[A-Za-z0-9.-]+/archives/[A-Z0-9]+/p[0-9]+[^<>|\s]*$")
_AUTHOR = re.compile(r"([^\s()<>]+) \(([UW][A-Z0-9]+)\)")


def slack_time(ts: str) -> datetime:
    return datetime.fromtimestamp(float(ts), timezone.utc)


def user_zone(user: dict) -> tzinfo | None:
    """The time zone users.info gives a person: `tz` ("America/Los_Angeles", its daylight saving
    included), else the fixed `tz_offset` (seconds), if the machine has no zone database."""
    if isinstance(user.get("tz"), str) and user["tz"]:
        try:
            return ZoneInfo(user["tz"])
        except (ZoneInfoNotFoundError, ValueError):
            pass
    offset = user.get("tz_offset")
    if isinstance(offset, int) and not isinstance(offset, bool) and abs(offset) < 86_400:
        return timezone(timedelta(seconds=offset))
    return None


def constructed_permalink(team_url: str, channel: str, ts: str, thread: str | None = None) -> str:
    """`https://acme.slack.com/archives/C42/p1715172960000200` (what chat.getPermalink returns,
    give or take its thread parameters)."""
    link = f"{team_url.rstrip('/')}/archives/{channel}/p{ts.replace('.', '')}"
    return f"{link}?thread_ts={thread}&cid={channel}" if thread and thread != ts else link


def rate_limited_client(token: str, base_url: str | None = None) -> WebClient:
    client = WebClient(token=token, **({"base_url": base_url} if base_url else {}))
    client.retry_handlers.append(RateLimitErrorRetryHandler(max_retry_count=RATE_LIMIT_RETRIES))
    return client


# --- rendering --------------------------------------------------------------------------------
def render_text(reply: Reply) -> str:
    """The answer, then `• <permalink|2026-11-16, maya> snippet` per source (mrkdwn). Every piece
    of text is escaped (`&`, `<`, `>`): whatever a stored message or an answer says, nothing the
    bot posts can be `<!channel>`, `<!here>`, `<!everyone>`, `<@U…>`, `<!subteam^…>` or a
    disguised `<url|label>` link; the only live links are the permalinks the bot makes itself."""
    parts = [_escape(reply.text)]
    if reply.sources:
        lines = []
        for s in reply.sources:
            label = _escape(f"{s.when.isoformat()}, {s.author}").replace("|", "¦")
            where = f"<{s.url}|{label}>" if s.url and _PERMALINK.match(s.url) else \
                f"{label} ({_escape(s.external_id or '')})"
            lines.append(f"• {where}: {_escape(s.snippet)}")
        parts.append("*Sources*\n" + "\n".join(lines))
    return "\n\n".join(p for p in parts if p)


def render_blocks(reply: Reply) -> list[dict]:
    text = render_text(reply)
    blocks = [{"type": "section", "text": {"type": "mrkdwn", "text": chunk}}
              for chunk in _chunks(text, MAX_BLOCK_TEXT)]
    if reply.choices and reply.token:
        blocks.append({"type": "actions", "block_id": f"lurker_confirm_{reply.token}",
                       "elements": [_button(reply.token, c.value, c.label)
                                    for c in reply.choices]})
    return blocks


def _button(token: str, value: str, label: str) -> dict:
    button = {"type": "button", "action_id": f"lurker_choice_{value}",
              "text": {"type": "plain_text", "text": label[:75]}, "value": f"{token}|{value}"}
    if value == "cancel":
        return button
    return {**button, "style": "danger"}


def _chunks(text: str, limit: int) -> list[str]:
    return [piece for piece in fitting_pieces(text, limit) if piece.strip()] or [" "]


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _defused(text: str) -> str:
    """Slack text the bot posted before, as it comes back: its own permalinks stay, any other
    control sequence (had one slipped in) is escaped."""
    return re.sub(r"<([^<>]*)>", lambda m: m.group(0) if _PERMALINK.match(
        m.group(1).split("|", 1)[0]) else _escape(m.group(0)), text)


# --- talking back -----------------------------------------------------------------------------
class SlackConversation(Conversation):
    """A channel thread (mentions), a DM, or ephemeral replies to one user (slash commands)."""

    def __init__(self, lurker: SlackLurker, channel: str, user: str | None,
                 thread_ts: str | None = None, ephemeral: bool = False,
                 opening: str | None = None):
        self.lurker, self.channel, self.user = lurker, channel, user
        self.thread_ts, self.ephemeral, self.opening = thread_ts, ephemeral, opening
        self.client = lurker.client

    def thread_opening(self) -> str | None:
        return self.opening

    def plain_text(self, text: str) -> str:
        return self.lurker.readable(text)

    def send(self, reply: Reply) -> None:
        reply = replace(reply, text=self.lurker.named(reply.text))
        text, blocks = render_text(reply), render_blocks(reply)
        if self.ephemeral:
            self.client.chat_postEphemeral(channel=self.channel, user=self.user, text=text,
                                           blocks=blocks, thread_ts=self.thread_ts)
        else:
            self.client.chat_postMessage(channel=self.channel, text=text, blocks=blocks,
                                         thread_ts=self.thread_ts, unfurl_links=False,
                                         unfurl_media=False)

    def working(self) -> None:
        if self.user:
            self.client.chat_postEphemeral(channel=self.channel, user=self.user, text=WORKING,
                                           thread_ts=self.thread_ts)

    def send_file(self, filename: str, data: bytes, comment: str) -> None:
        """To the requester's DM: an export is not for everyone in the channel."""
        dm = self.client.conversations_open(users=self.user)["channel"]["id"]
        self.client.files_upload_v2(channel=dm, content=data, filename=filename, title=filename,
                                    initial_comment=_escape(comment))
        if dm != self.channel:
            self.send(Reply(f"{comment} I sent it to you in a direct message."))

    def link(self, message: Message) -> str | None:
        return self.lurker.permalink(message.external_id) if message.external_id else None

    def resolve_user(self, text: str) -> tuple[str, str] | None:
        found = MENTION.fullmatch(text.strip())
        if not found:
            return self.lurker.find_user(text)
        user_id = found.group(1)
        return user_id, found.group(2) or self.lurker.user_name(user_id) or user_id

    def display_name(self, author: str | None) -> str:
        return self.lurker.named(author) if author else "someone"

    def readable_places(self) -> list[Place] | None:
        return self.lurker.readable_places(self.user) if self.user else None


# --- history ----------------------------------------------------------------------------------
class SlackHistory:
    """bot/backfill.py's HistorySource for Slack."""

    def __init__(self, lurker: SlackLurker, page_size: int = HISTORY_PAGE):
        self.lurker, self.client, self.page_size = lurker, lurker.client, page_size

    def places(self) -> Iterator[Place]:
        for page in self.client.users_conversations(types="public_channel,private_channel",
                                                    exclude_archived=True, limit=200):
            for channel in page["channels"]:
                yield Place(PLATFORM, self.lurker.team, channel["id"])

    def pages(self, place: Place, oldest: datetime | None = None) -> Iterator[list[ChatMessage]]:
        extra = {"oldest": f"{oldest.timestamp():.6f}"} if oldest else {}
        for page in self.client.conversations_history(channel=place.channel,
                                                      limit=self.page_size, **extra):
            batch, threads = [], []
            for raw in page["messages"]:
                message = self.lurker.history_message(place, raw)
                if message is not None:
                    batch.append(message)
                if raw.get("reply_count") and raw.get("thread_ts") == raw.get("ts"):
                    threads.append(raw["ts"])
            yield batch
            for thread_ts in threads:
                yield from self._replies(place, thread_ts)

    def _replies(self, place: Place, thread_ts: str) -> Iterator[list[ChatMessage]]:
        for page in self.client.conversations_replies(channel=place.channel, ts=thread_ts,
                                                      limit=self.page_size):
            batch = [self.lurker.history_message(place, raw) for raw in page["messages"]
                     if raw.get("ts") != thread_ts]  # the parent came with the history
            yield [m for m in batch if m is not None]


# --- the lurker -------------------------------------------------------------------------------
class SlackLurker:
    def __init__(self, bot: LurkerBot, *, token: str, signing_secret: str | None = None,
                 base_url: str | None = None, backfill_on_join: bool = True,
                 request_threads: int = 4):
        self.bot = bot
        self.client = rate_limited_client(token, base_url)
        identity = self.client.auth_test()
        self.team: str = identity["team_id"]
        self.team_url: str = identity.get("url") or "https://slack.com/"
        self.bot_user_id: str = identity["user_id"]
        self.bot_id: str | None = identity.get("bot_id")
        self.backfill_on_join = backfill_on_join
        self._users: dict[str, tuple[float, dict | None]] = {}
        self._permalinks: dict[str, str] = {}
        self._directory: tuple[float, list[dict]] | None = None
        self._readable: dict[str, tuple[float, list[Place]]] = {}
        self._cache_lock = threading.Lock()
        self.lanes = Lanes(PLATFORM, request_threads)
        self.app = App(client=self.client, signing_secret=signing_secret,
                       request_verification_enabled=signing_secret is not None,
                       token_verification_enabled=False,  # auth.test was just called
                       process_before_response=True, name="lurker")
        self._register()

    # --- bolt wiring ----------------------------------------------------------------------
    def _register(self) -> None:
        app = self.app
        app.event("message")(self._on_message_event)
        app.event("app_mention")(self._on_mention)
        app.event("member_joined_channel")(self._on_member_joined)
        app.command("/lurker")(self._on_command)
        app.action(_CHOICE_ACTION)(self._on_choice)

    def drain(self, timeout: float = 30.0) -> None:
        """Wait for the work handed on so far (tests, shutdown); jobs may start others."""
        self.lanes.drain(timeout)

    def close(self) -> None:
        self.lanes.close()

    # --- who is who -----------------------------------------------------------------------
    def user(self, user_id: str) -> dict | None:
        now = time.monotonic()
        with self._cache_lock:
            cached = self._users.get(user_id)
        if cached and now - cached[0] < USER_CACHE_S:
            return cached[1]
        try:
            found = self.client.users_info(user=user_id)["user"]
        except SlackApiError as exc:
            log.warning("users.info %s: %s", user_id, exc.response.get("error"))
            found = None
        with self._cache_lock:
            self._users[user_id] = (now, found)
        return found

    def user_name(self, user_id: str) -> str | None:
        user = self.user(user_id)
        if not user:
            return None
        profile = user.get("profile") or {}
        return profile.get("display_name") or user.get("name") or profile.get("real_name")

    def named(self, text: str) -> str:
        """`bob (U0BOB)` (how authors are stored) -> `Bob`, the display name users.info gives."""
        return _AUTHOR.sub(lambda m: self.user_name(m.group(2)) or m.group(1), text)

    def find_user(self, text: str) -> tuple[str, str] | None:
        """A user by `@handle`, handle, display name or real name (case-insensitive, from
        users.list, cached like users.info); None unless exactly one person matches."""
        wanted = " ".join(text.strip().lstrip("@").split()).casefold()
        if not wanted:
            return None
        found = {}
        for user in self.directory():
            profile = user.get("profile") or {}
            names = {user.get("name"), user.get("real_name"), profile.get("display_name"),
                     profile.get("real_name"), profile.get("display_name_normalized"),
                     profile.get("real_name_normalized")}
            if wanted in {" ".join(n.split()).casefold() for n in names if n}:
                found[user["id"]] = user
        if len(found) != 1:
            return None
        [(user_id, _)] = found.items()
        return user_id, self.user_name(user_id) or user_id

    def directory(self) -> list[dict]:
        now = time.monotonic()
        with self._cache_lock:
            if self._directory and now - self._directory[0] < USER_CACHE_S:
                return self._directory[1]
        users: list[dict] = []
        try:
            for page in self.client.users_list(limit=200):
                users.extend(u for u in page["members"] if not u.get("deleted"))
        except SlackApiError as exc:
            log.warning("users.list: %s", exc.response.get("error"))
            return users
        with self._cache_lock:
            self._directory = (now, users)
            for user in users:
                self._users[user["id"]] = (now, user)
        return users

    def readable_places(self, user_id: str) -> list[Place]:
        """The channels `user_id` is a member of right now (users.conversations for that user,
        public and private), cached READABLE_CACHE_S: what a DM may be answered from. Any error:
        none (a DM answers from nothing rather than from a channel they may have left)."""
        now = time.monotonic()
        with self._cache_lock:
            cached = self._readable.get(user_id)
        if cached and now - cached[0] < READABLE_CACHE_S:
            return cached[1]
        places: list[Place] = []
        try:
            for page in self.client.users_conversations(
                    user=user_id, types="public_channel,private_channel", exclude_archived=True,
                    limit=200):
                places += [Place(PLATFORM, self.team, c["id"]) for c in page["channels"]]
        except SlackApiError as exc:
            log.warning("users.conversations %s: %s", user_id, exc.response.get("error"))
            return []
        with self._cache_lock:
            self._readable[user_id] = (now, places)
        return places

    def is_workspace_admin(self, user_id: str) -> bool:
        user = self.user(user_id) or {}
        return bool(user.get("is_admin") or user.get("is_owner") or user.get("is_primary_owner"))

    def actor(self, user_id: str | None, bot_id: str | None = None,
              username: str | None = None) -> Actor:
        user = (self.user(user_id) or {}) if user_id else {}
        is_bot = bool(bot_id) or bool(user.get("is_bot"))
        name = (self.user_name(user_id) if user_id else None) or username
        return Actor(PLATFORM, user_id or bot_id, name, is_bot=is_bot,
                     bot_ids=tuple(i for i in (bot_id,) if i),
                     platform_admin=(lambda: self.is_workspace_admin(user_id)) if user_id
                     else (lambda: False), zone=user_zone(user))

    def is_me(self, raw: dict) -> bool:
        return raw.get("user") == self.bot_user_id or (
            self.bot_id is not None and raw.get("bot_id") == self.bot_id)

    def readable(self, text: str) -> str:
        """Slack's markup as people read it: `<@U1>` -> `@maya`, links, `&amp;`."""
        return html.unescape(readable_slack(text, self.user_name))

    def permalink(self, external_id: str) -> str | None:
        with self._cache_lock:
            if external_id in self._permalinks:
                return self._permalinks[external_id]
        parsed = parse_external_id(external_id)
        if parsed is None or parsed[0] != PLATFORM or parsed[1] != self.team:
            return None
        _, _, channel, _, ts = parsed
        try:
            link = self.client.chat_getPermalink(channel=channel, message_ts=ts)["permalink"]
        except SlackApiError as exc:
            log.info("chat.getPermalink %s: %s", external_id, exc.response.get("error"))
            link = constructed_permalink(self.team_url, channel, ts)
        with self._cache_lock:
            self._permalinks[external_id] = link
        return link

    # --- messages -------------------------------------------------------------------------
    def place(self, channel: str, channel_type: str | None = None) -> Place:
        return Place(PLATFORM, self.team, channel,
                     is_dm=channel_type == "im" or channel.startswith("D"))

    def chat_message(self, place: Place, raw: dict) -> ChatMessage:
        thread = raw.get("thread_ts")
        author = self.actor(raw.get("user"), raw.get("bot_id"), raw.get("username"))
        return ChatMessage(place=place, id=raw["ts"], text=self.readable(slack_body(raw)),
                           ts=author.local(slack_time(raw["ts"])), author=author,
                           thread=thread if thread and thread != raw["ts"] else None,
                           reply_to=external_id_of(place, thread) if thread and thread != raw["ts"]
                           else None)

    def history_message(self, place: Place, raw: dict) -> ChatMessage | None:
        """A message from conversations.history/replies, or None for notices and our own."""
        if raw.get("subtype") not in SAID or self.is_me(raw) or not raw.get("ts"):
            return None
        if self._addressed_to_me(raw.get("text") or ""):
            return None  # a question to Lurker, not knowledge
        return self.chat_message(place, raw)

    def _addressed_to_me(self, text: str) -> bool:
        return any(m.group(1) == self.bot_user_id for m in MENTION.finditer(text))

    def _without_my_mention(self, text: str) -> str:
        return MENTION.sub(lambda m: "" if m.group(1) == self.bot_user_id else m.group(0),
                            text).strip()

    def _on_message_event(self, event: dict, body: dict) -> None:
        team = body.get("team_id") or event.get("team")
        if team and team != self.team:
            return
        if not self.bot.first_time(PLATFORM, body.get("event_id")):
            return  # Slack retried it (X-Slack-Retry-Num), perhaps before a restart
        subtype = event.get("subtype")
        place = self.place(event["channel"], event.get("channel_type"))
        if subtype == "message_changed":
            self.lanes.ingest(self._edited, place, event)
        elif subtype == "message_deleted":
            self.lanes.ingest(self.bot.on_delete, place, event["deleted_ts"],
                              slack_time(event["ts"]))
        elif subtype not in SAID or self.is_me(event):
            return
        elif place.is_dm:  # a DM to Lurker is a request
            thread = event.get("thread_ts")
            conv = SlackConversation(self, place.channel, event.get("user"), thread_ts=thread)
            self._request(self._without_my_mention(event.get("text") or ""), place,
                          event.get("user"), conv)
        elif not self._addressed_to_me(event.get("text") or ""):  # mentions: app_mention
            self.lanes.ingest(self._created, place, event)

    def _created(self, place: Place, event: dict) -> None:
        self.bot.on_message(self.chat_message(place, event))

    def _edited(self, place: Place, event: dict) -> None:
        new, old = event.get("message") or {}, event.get("previous_message") or {}
        if new.get("subtype") == "tombstone":  # a thread parent deleted, its replies stay
            self.bot.on_delete(place, new.get("ts") or old["ts"], slack_time(event["ts"]))
            return
        if self.is_me(new) or "edited" not in new and new.get("text") == old.get("text") \
                and slack_card_lines(new) == slack_card_lines(old):
            return  # our own, a reply count changing or a link unfurled; an app's update is one
        edited = new.get("edited", {}).get("ts") or event["ts"]
        author = self.actor(new.get("user"), new.get("bot_id"), new.get("username"))
        thread = new.get("thread_ts")
        self.bot.on_edit(place, new["ts"], self.readable(slack_body(new)),
                         edited_at=author.local(slack_time(edited)), author=author,
                         posted_at=author.local(slack_time(new["ts"])),
                         thread=thread if thread and thread != new["ts"] else None)

    # --- requests -------------------------------------------------------------------------
    def _request(self, text: str, place: Place, user_id: str | None, conv: Conversation) -> None:
        self.lanes.request(self.bot.on_request, text, place, self.actor(user_id), conv,
                           conversation=place.channel)

    def _on_mention(self, event: dict, body: dict) -> None:
        if self.is_me(event) or not self.bot.first_time(PLATFORM, body.get("event_id")):
            return  # our own, or a retry of a mention already answered
        place = self.place(event["channel"], event.get("channel_type"))
        thread = event.get("thread_ts")
        conv = SlackConversation(self, place.channel, event.get("user"),
                                 thread_ts=thread or event["ts"],
                                 opening=external_id_of(place, thread)
                                 if thread and thread != event["ts"] else None)
        self._request(self._without_my_mention(event.get("text") or ""), place,
                      event.get("user"), conv)

    def _on_command(self, ack, command: dict) -> None:
        ack()
        place = self.place(command["channel_id"],
                           "im" if command.get("channel_name") == "directmessage" else None)
        conv = SlackConversation(self, place.channel, command["user_id"], ephemeral=True)
        self._request(command.get("text") or "", place, command["user_id"], conv)

    def _on_choice(self, ack, body: dict, action: dict) -> None:
        ack()
        token, _, choice = (action.get("value") or "").partition("|")
        channel = (body.get("channel") or {}).get("id") or body["container"]["channel_id"]
        message = body.get("message") or {}
        ephemeral = bool((body.get("container") or {}).get("is_ephemeral"))
        user = body["user"]["id"]
        place = self.place(channel)
        # what is not the answer to the question (a refusal, "expired") goes to the clicker only
        conv = SlackConversation(self, channel, user, thread_ts=message.get("thread_ts"),
                                 ephemeral=True)
        self.lanes.request(self._settle, token, choice, place, user, conv,
                           None if ephemeral else message, conversation=place.channel)

    def _settle(self, token: str, choice: str, place: Place, user_id: str,
                conv: SlackConversation, question: dict | None) -> None:
        reply = self.bot.on_choice(token, choice, place, self.actor(user_id), conv, send=False)
        if reply.resolves and question is not None:
            # the question loses its buttons and says how it was answered; once forgotten, the
            # matches it listed go too (the bot does not say what it forgot)
            asked = question.get("text") or ""
            if reply.kind == "forgotten":
                asked = asked.split("\n", 1)[0]
            # `asked` is what Slack shows already (escaped when it was posted)
            text = f"{_defused(asked)}\n\n{render_text(reply)}"
            self.client.chat_update(channel=place.channel, ts=question["ts"], text=text,
                                    blocks=[{"type": "section",
                                             "text": {"type": "mrkdwn", "text": chunk}}
                                            for chunk in _chunks(text, MAX_BLOCK_TEXT)])
        else:
            conv.send(reply)

    # --- history --------------------------------------------------------------------------
    def _on_member_joined(self, event: dict) -> None:
        if event.get("user") == self.bot_user_id and self.backfill_on_join:
            place = self.place(event["channel"])
            self.lanes.request(self.backfill_channel, place)

    def backfill_channel(self, place: Place, oldest: datetime | None = None,
                         progress: Progress | None = None) -> BackfillReport:
        return backfill(self.bot, SlackHistory(self), place, oldest=oldest, progress=progress)

    def places(self, channels: Iterable[str] | None = None) -> list[Place]:
        if channels:
            return [self.place(c) for c in channels]
        return list(SlackHistory(self).places())

    # --- transports -----------------------------------------------------------------------
    def asgi(self):
        from slack_bolt.adapter.asgi import SlackRequestHandler

        return SlackRequestHandler(self.app, path=EVENTS_PATH)

    def serve_http(self, host: str = "0.0.0.0", port: int = 3000) -> None:
        import uvicorn

        uvicorn.run(self.asgi(), host=host, port=port, log_level="info")

    def socket_mode_handler(self, app_token: str):
        """Bolt's Socket Mode handler for this app: `.start()` blocks, `.connect()` does not. The
        WebSocket URL comes from apps.connections.open on the lurker's Web API client."""
        from slack_bolt.adapter.socket_mode import SocketModeHandler

        return SocketModeHandler(self.app, app_token, web_client=self.client)

    def serve_socket_mode(self, app_token: str) -> None:
        self.socket_mode_handler(app_token).start()


def from_env(bot: LurkerBot, *, http: bool = False, base_url: str | None = None,
             backfill_on_join: bool = True) -> SlackLurker:
    """A SlackLurker from SLACK_BOT_TOKEN (and SLACK_SIGNING_SECRET for HTTP mode); a clear
    error naming the missing variable otherwise."""
    from .config import ConfigError

    token = os.environ.get(TOKEN_ENV)
    if not token:
        raise ConfigError(f"{TOKEN_ENV} is not set: the bot token (xoxb-…) from the Slack app's "
                          "OAuth & Permissions page")
    secret = os.environ.get(SECRET_ENV)
    if http and not secret:
        raise ConfigError(f"{SECRET_ENV} is not set: HTTP mode verifies every request with the "
                          "app's signing secret (Basic Information)")
    return SlackLurker(bot, token=token, signing_secret=secret if http else None,
                       base_url=base_url or os.environ.get("SLACK_API_URL"),
                       backfill_on_join=backfill_on_join)
