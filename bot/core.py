"""The platform-agnostic lurker: what to ingest, how to answer, the admin commands.

Adapters (bot/slack_app.py, bot/discord_app.py, bot/terminal.py) turn platform events into
`ChatMessage`s and call `LurkerBot.on_message` / `on_edit` / `on_delete` (ingestion, through an
EventSink) and `on_request` (a mention, a DM, a slash command); they implement `Conversation`, the
few things the handlers need to say something back in one place (the types: bot/contract.py).

Requests (after the mention, or as `/lurker <text>`):
    ask <question>            (or just the question)  recall on the channel's profile
    forget <memory id|text>   admin: by id at once; by text shows matches and asks to confirm
    purge <user>              admin: delete a user's messages and the memories drawn only from them
    memories [page]           admin: what the profile holds, 10 a page
    export                    admin: the profile as a JSONL file
    confirm [token] <choice> / cancel [token]   answer a confirmation in text
    help
"""
from __future__ import annotations

import logging
import re
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, timezone

from memory.dates import format_human
from memory.errors import LurkerError, UnknownMemory
from memory.models import Memory, Message, RecallResult
from memory.synthesis import NO_ANSWER
from memory.thread_questions import in_thread
from workers.events import InvalidEvent, MessageCreated, MessageDeleted, MessageEdited
from workers.sinks import EventSink

from .audit import AuditLog
from .state import BotState
from .config import BotConfig, channel_key
from .contract import (Actor, ChatMessage, Choice, Conversation, Place, Reply, Source,
                       external_id, parse_external_id, session_id)

log = logging.getLogger("lurker.bot")

PAGE_SIZE = 10
MAX_SOURCES = 5
CONFIRM_TTL_S = 15 * 60
SNIPPET_CHARS = 140
REFUSAL = ("Sorry, only workspace admins and the admins named in Lurker's configuration can do "
           "that. Nothing was changed.")
HELP = ("Ask me anything the channel has discussed: `@lurker what did we decide about the rate "
        "limit?`\nAdmins: `forget <memory id | text>`, `purge <user>`, `memories [page]`, "
        "`export`.")
_MEMORY_ID = re.compile(r"[0-9a-f]{8,32}")
_USER_ID = re.compile(r"[UW][A-Z0-9]+|[0-9]{15,21}")  # a Slack user id, a Discord snowflake


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


@dataclass
class Pending:
    token: str
    action: str
    profile: str
    memory_ids: list[str]
    actor: str | None
    place: str
    expires: float


# --- the bot ----------------------------------------------------------------------------------
class LurkerBot:
    def __init__(self, service, sink: EventSink, config: BotConfig | None = None,
                 audit: AuditLog | None = None, *, ack_after: float = 1.0,
                 clock: Callable[[], datetime] = utcnow):
        self.service = service
        self.sink = sink
        self.config = config or BotConfig()
        self.audit = audit or AuditLog(self.config.audit_log)
        self.ack_after = ack_after
        self.clock = clock
        self._state: BotState | None = None
        self._guard = threading.Lock()

    # --- what survives a restart (bot/state.py) -------------------------------------------
    @property
    def state(self) -> BotState:
        with self._guard:
            if self._state is None:
                self._state = BotState(self.config.state_path)
            return self._state

    def first_time(self, platform: str, event_id: str | None) -> bool:
        """False when this chat event (Slack `event_id`, Discord message id) was handled before,
        by this process or an earlier one: Slack's retries and gateway replays get one answer."""
        if not event_id:
            return True
        return self.state.claim(f"seen:{platform}:{event_id}")

    def _pending_put(self, pending: Pending) -> None:
        self.state.put(f"pending:{pending.token}", vars(pending),
                       max(1.0, pending.expires - time.time()))

    def _pending_get(self, token: str) -> Pending | None:
        found = self.state.get(f"pending:{token}") if token else None
        return Pending(**found) if found else None

    def _pending_take(self, token: str) -> Pending | None:
        found = self.state.take(f"pending:{token}")
        return Pending(**found) if found else None

    # --- profiles -------------------------------------------------------------------------
    def profile_for(self, place: Place) -> str:
        return place.profile or self.config.profile_for(place.key)

    def _foreign(self, profile: str, message: Message) -> bool:
        """A message from a channel that the config now maps to another profile."""
        if not message.external_id:
            return False
        parsed = parse_external_id(message.external_id)
        if parsed is None or parsed[0] == "terminal":
            return False
        try:
            return self.config.profile_for(channel_key(*parsed[:3])) != profile
        except LurkerError:
            return True

    # --- ingestion ------------------------------------------------------------------------
    def ingestible(self, msg: ChatMessage) -> bool:
        """Channel messages from people, and from bots on the allow-list; never DMs to Lurker."""
        if msg.place.is_dm or not msg.text or not msg.text.strip():
            return False
        if msg.author.is_bot and not self.config.bot_allowed(
                msg.author.platform, msg.author.id, *msg.author.bot_ids):
            return False
        return True

    def local(self, actor: Actor | None, when: datetime) -> datetime:
        """`when` in the person's time zone (Slack's users.info), else the team's (the config's
        `time_zone`; Discord gives no one's), else as it is (UTC)."""
        zone = (actor.zone if actor is not None else None) or self.config.zone
        return when.astimezone(zone) if zone is not None and when is not None else when

    def created_event(self, msg: ChatMessage) -> MessageCreated | None:
        try:
            return MessageCreated(profile=self.profile_for(msg.place), session_id=msg.session_id,
                                  external_id=msg.external_id, author=msg.author.author,
                                  content=msg.text, ts=self.local(msg.author, msg.ts),
                                  reply_to=msg.reply_to)
        except (InvalidEvent, ValueError, LurkerError) as exc:
            log.warning("not ingesting %s: %s", msg.external_id, exc)
            return None

    def on_message(self, msg: ChatMessage) -> bool:
        """A message seen in a channel (not addressed to Lurker): put it on the sink."""
        if not self.ingestible(msg):
            return False
        event = self.created_event(msg)
        if event is None:
            return False
        self.sink.publish([event])
        return True

    def on_edit(self, place: Place, message_id: str, text: str, *, edited_at: datetime | None,
                author: Actor | None = None, posted_at: datetime | None = None,
                thread: str | None = None) -> bool:
        if place.is_dm or not text or not text.strip():
            return False
        if author is not None and author.is_bot and not self.config.bot_allowed(
                author.platform, author.id, *author.bot_ids):
            return False
        try:
            event = MessageEdited(
                profile=self.profile_for(place), external_id=external_id(place, message_id),
                content=text, ts=self.local(author, edited_at),
                session_id=session_id(place, posted_at, thread) if posted_at else None,
                author=author.author if author else None)
        except (ValueError, LurkerError) as exc:
            log.warning("not applying an edit of %s: %s", message_id, exc)
            return False
        self.sink.publish([event])
        return True

    def on_delete(self, place: Place, message_id: str, deleted_at: datetime | None = None) -> bool:
        if place.is_dm:
            return False
        try:
            event = MessageDeleted(profile=self.profile_for(place),
                                   external_id=external_id(place, message_id), ts=deleted_at)
        except (ValueError, LurkerError) as exc:
            log.warning("not applying a delete of %s: %s", message_id, exc)
            return False
        self.sink.publish([event])
        return True

    # --- requests -------------------------------------------------------------------------
    def on_request(self, text: str, place: Place, actor: Actor, conv: Conversation) -> Reply:
        """A mention (mention already stripped), a DM or a slash command. Replies through `conv`
        and returns the reply (for tests and the terminal)."""
        try:
            reply = self._request(text.strip(), place, actor, conv)
        except LurkerError as exc:
            reply = Reply(f"Sorry, that did not work: {exc}", kind="error")
        except Exception:
            log.exception("request %r in %s failed", text[:200], place.key)
            reply = Reply("Sorry, something went wrong on my side; nothing was changed.",
                          kind="error")
        if reply is not None:
            conv.send(reply)
        return reply

    def _request(self, text: str, place: Place, actor: Actor, conv: Conversation) -> Reply | None:
        command, _, rest = text.partition(" ")
        command, rest = command.lower(), rest.strip()
        if not text or command in ("help", "--help", "-h", "?"):
            return Reply(HELP)
        if command == "ask":
            return self.ask(rest, place, conv, actor) if rest else \
                Reply("Ask me what? `ask <question>`")
        if command == "forget":
            return self.forget(rest, place, actor, conv)
        if command == "purge":
            return self.purge(rest, place, actor, conv)
        if command in ("memories", "list"):
            return self.memories(rest, place, actor)
        if command == "export":
            return self.export(place, actor, conv)
        if command in ("confirm", "yes"):
            token, choice = self._token_and_choice(rest, place, actor)
            return self.on_choice(token, choice, place, actor, conv, send=False)
        if command == "cancel":
            token, _ = self._token_and_choice(rest + " cancel", place, actor)
            return self.on_choice(token, "cancel", place, actor, conv, send=False)
        return self.ask(text, place, conv, actor)

    # ask
    def ask(self, question: str, place: Place, conv: Conversation,
            actor: Actor | None = None) -> Reply:
        """`actor`: who asks; a question in the first person ("what did I promise?") also
        searches their own messages (stored under their author, `name (id)`)."""
        asker = actor.author if actor is not None else None
        question = conv.plain_text(question)  # "what did <@U7> say?" asks about zoë
        # "last Friday" is counted from the asker's own day, in their zone or the team's
        now = self.local(actor, self.clock())
        readable = conv.readable_places() if place.is_dm else None
        if readable is not None:
            return self.ask_readable(question, readable, conv, asker, now)
        name = self.profile_for(place)
        question = self._about_thread(question, name, place, conv)
        timer = threading.Timer(self.ack_after, self._working, (conv,))
        timer.daemon = True
        timer.start()
        try:
            result = self.service.profile(name).recall(question, now=now, asker=asker)
            result = self._without_foreign(name, question, result, asker, now)
        finally:
            timer.cancel()
            timer.join()
        if NO_ANSWER in result.answer:
            return Reply(result.answer, kind="no_answer")
        return Reply(result.answer, sources=self.sources(name, result, conv), kind="answer")

    def _about_thread(self, question: str, name: str, place: Place, conv: Conversation) -> str:
        """"when is it?" asked in a thread: "it" is what the thread's first message is about
        (memory.thread_questions), read from what this channel's profile stored of it."""
        key = conv.thread_opening()
        if key is None:
            return question
        try:
            stored = self.service.profile(name).messages_by_external_id([key]).get(key)
        except LurkerError:
            return question
        return in_thread(question, stored.content if stored is not None else None)

    def ask_readable(self, question: str, places: list[Place], conv: Conversation,
                     asker: str | None = None, now: datetime | None = None) -> Reply:
        """A DM: one answer from the profiles of the channels the asker can read right now, and
        nothing drawn from a channel they cannot (a profile shared with such a channel keeps
        only what came from the readable ones)."""
        keys = {p.key for p in places}
        names = sorted({self.profile_for(p) for p in places})
        if not names:
            return Reply("You are not in any channel I am in, so I have nothing to answer from.",
                         kind="no_answer")
        timer = threading.Timer(self.ack_after, self._working, (conv,))
        timer.daemon = True
        timer.start()
        try:
            now = now or self.clock()
            found = self.service.recall_across(names, question, now=now, asker=asker)
            result, profile_of = found.result, found.profile_of

            def readable(message: Message) -> bool:
                parsed = parse_external_id(message.external_id or "")
                return parsed is not None and channel_key(*parsed[:3]) in keys

            sources: dict[str, list[Message]] = {}
            for scored in result.memories:
                ids = scored.memory.source_message_ids
                sources[scored.memory.id] = self.service.profile(
                    profile_of[scored.memory.id]).messages(ids) if ids else []
            memories = [s for s in result.memories
                        if sources[s.memory.id] and all(readable(m)
                                                        for m in sources[s.memory.id])]
            messages = [s for s in result.messages if readable(s.message)]
            if len(memories) != len(result.memories) or len(messages) != len(result.messages):
                answer = self.service.answerer.answer(
                    question, now, [s.memory for s in memories],
                    [s.message for s in messages], result.computed, asker=asker)
                result = RecallResult(answer=answer, memories=memories, messages=messages,
                                      computed=result.computed)
        finally:
            timer.cancel()
            timer.join()
        if NO_ANSWER in result.answer:
            return Reply(result.answer, kind="no_answer")
        out: list[Source] = []
        for name in names:  # sources, each looked up in its own profile
            part = RecallResult(
                answer=result.answer,
                memories=[s for s in result.memories if profile_of[s.memory.id] == name],
                messages=[s for s in result.messages if profile_of[s.message.id] == name],
                computed=result.computed)
            if part.memories or part.messages:
                out += self.sources(name, part, conv)
        return Reply(result.answer, sources=sorted(out, key=lambda s: s.when)[:MAX_SOURCES],
                     kind="answer")

    @staticmethod
    def _working(conv: Conversation) -> None:
        try:
            conv.working()
        except Exception:  # an acknowledgement must never sink the answer
            log.warning("could not acknowledge a slow request", exc_info=True)

    def _without_foreign(self, name: str, question: str, result: RecallResult,
                         asker: str | None = None, now: datetime | None = None) -> RecallResult:
        """Answers never quote messages from channels mapped to another profile (the config
        changed after they were stored): drop them, and answer again from the rest if any went."""
        ids = {i for s in result.memories for i in s.memory.source_message_ids}
        stored = {m.id: m for m in self.service.profile(name).messages(ids)} if ids else {}
        foreign = {i for i, m in stored.items() if self._foreign(name, m)}
        memories = [s for s in result.memories
                    if not (s.memory.source_message_ids
                            and set(s.memory.source_message_ids) <= foreign)]
        messages = [s for s in result.messages if not self._foreign(name, s.message)]
        if len(memories) == len(result.memories) and len(messages) == len(result.messages):
            return result
        answer = self.service.answerer.answer(
            question, now or self.clock(), [s.memory for s in memories],
            [s.message for s in messages], result.computed, asker=asker)
        return RecallResult(answer=answer, memories=memories, messages=messages,
                            computed=result.computed)

    def sources(self, name: str, result: RecallResult, conv: Conversation) -> list[Source]:
        """The original messages behind the answer: the raw messages it quotes, those of the
        memories it states (else of the best three), then raw messages when neither."""
        answer = result.answer
        memories = [s.memory for s in result.memories]
        quoted = [s.message.id for s in result.messages
                  if s.message.content and s.message.content in answer]
        used = [m for m in memories if m.content and m.content in answer] or memories[:3]
        ids = list(dict.fromkeys([*quoted, *(i for m in used for i in m.source_message_ids)]))
        by_id = {m.id: m for m in self.service.profile(name).messages(ids)} if ids else {}
        # a suppressed message (a memory drawn from it was forgotten) is never quoted
        messages = [by_id[i] for i in ids if i in by_id and not by_id[i].suppressed]
        if not messages:
            messages = [s.message for s in result.messages[:2]]
        # the first MAX_SOURCES in that order (what the answer quotes first), shown oldest first
        messages = [m for m in messages if not self._foreign(name, m)][:MAX_SOURCES]
        out: list[Source] = []
        for message in sorted(messages, key=lambda m: m.ts):
            try:
                url = conv.link(message)
            except Exception:
                log.warning("no link for %s", message.external_id, exc_info=True)
                url = None
            text = " ".join(message.content.split())
            if len(text) > SNIPPET_CHARS:
                text = text[: SNIPPET_CHARS - 1].rstrip() + "…"
            out.append(Source(url=url, when=message.ts.date(),
                              author=conv.display_name(message.author or message.role),
                              snippet=text, external_id=message.external_id))
        return out

    # admin
    def _authorised(self, action: str, place: Place, actor: Actor, profile: str,
                    detail: dict | None = None) -> bool:
        allowed = self.config.is_admin(actor.platform, actor.id, profile)
        if not allowed:
            try:
                allowed = bool(actor.platform_admin())
            except Exception:
                log.warning("could not check whether %s is an admin", actor.id, exc_info=True)
                allowed = False
        if not allowed:
            self._audit(action, "refused", place, actor, profile, detail)
        return allowed

    def _audit(self, action: str, outcome: str, place: Place, actor: Actor, profile: str | None,
               detail: dict | None = None) -> None:
        self.audit.write(action, outcome, profile=profile, platform=place.platform,
                         place=place.key, actor=actor.id, actor_name=actor.name, detail=detail)

    def forget(self, arg: str, place: Place, actor: Actor, conv: Conversation) -> Reply:
        name = self.profile_for(place)
        if not arg:
            return Reply("Forget what? `forget <memory id>` or `forget <words>`")
        if not self._authorised("forget", place, actor, name, {"query": arg}):
            return Reply(REFUSAL, kind="refusal")
        profile = self.service.profile(name)
        if _MEMORY_ID.fullmatch(arg.lower()):
            matches = profile.memories_by_id_prefix(arg.lower())
            if len(matches) == 1:
                reason = f"forgotten by {actor.label} on {place.platform}"
                with self.sink.writing(name):
                    memory = profile.forget(matches[0].id, reason)
                self._audit("forget", "done", place, actor, name,
                            {"memory_ids": [memory.id], "reason": reason})
                # the id, not the content: once forgotten, the bot does not say it again
                return Reply(f"Forgotten: `{memory.id[:12]}` ({memory.type}).", kind="info")
            if len(matches) > 1:
                return Reply(f"{len(matches)} memories start with `{arg}`: give more of the id.")
        hits = profile.search(arg, channels=("topic", "memory_text"), k=5)
        found = [h.record for h in hits if isinstance(h.record, Memory)
                 and h.record.status == "active"][:5]
        if not found:
            self._audit("forget", "nothing_found", place, actor, name, {"query": arg})
            return Reply(f"Nothing in memory matches “{arg}”; nothing was forgotten.")
        token = secrets.token_hex(4)
        self._pending_put(Pending(token, "forget", name, [m.id for m in found], actor.id,
                                  place.key, time.time() + CONFIRM_TTL_S))
        lines = [f"{n}. `{m.id[:12]}` {m.content} ({format_human(_when(m))})"
                 for n, m in enumerate(found, 1)]
        choices = [Choice(str(n), f"Forget {n}") for n in range(1, len(found) + 1)]
        if len(found) > 1:
            choices.append(Choice("all", f"Forget all {len(found)}"))
        choices.append(Choice("cancel", "Cancel"))
        return Reply(f"These memories match “{arg}”. Forget which?\n" + "\n".join(lines),
                     choices=choices, token=token, kind="confirm")

    def _token_and_choice(self, rest: str, place: Place, actor: Actor) -> tuple[str | None, str]:
        words = rest.split()
        if len(words) >= 2 and self._pending_get(words[0]) is not None:
            return words[0], words[1].lower()
        mine = [p["token"] for _, p in self.state.items("pending:")
                if p["place"] == place.key and p["actor"] == actor.id]
        choice = (words[-1] if words else "").lower()  # none given: fine for a single match
        return (mine[-1] if mine else None), choice

    def on_choice(self, token: str | None, choice: str, place: Place, actor: Actor,
                  conv: Conversation, send: bool = True) -> Reply:
        """A button, a reaction or `confirm <token> <choice>` answering a confirmation."""
        pending = self._pending_get(token or "")
        if pending is None:
            reply = Reply("There is nothing waiting for a confirmation (it may have expired); "
                          "nothing was changed.")
        elif pending.actor != actor.id and not self._authorised(
                "forget.confirm", place, actor, pending.profile, {"token": token}):
            reply = Reply(REFUSAL, kind="refusal")
        else:
            reply = self._settle(pending, choice, place, actor)
        if send:
            conv.send(reply)
        return reply

    def _settle(self, pending: Pending, choice: str, place: Place, actor: Actor) -> Reply:
        ids = pending.memory_ids
        if choice == "cancel":
            picked: list[str] = []
        elif choice == "all" or (not choice and len(ids) == 1):
            picked = ids
        elif choice.isdigit() and 1 <= int(choice) <= len(ids):
            picked = [ids[int(choice) - 1]]
        else:
            return Reply(f"Answer with a number from 1 to {len(ids)}, `all` or `cancel`.")
        if self._pending_take(pending.token) is None:
            return Reply("That was already answered; nothing more was changed.")
        if not picked:
            self._audit("forget", "cancelled", place, actor, pending.profile,
                        {"token": pending.token, "memory_ids": ids})
            return Reply("Cancelled; nothing was forgotten.", resolves=pending.token)
        reason = f"forgotten by {actor.label} on {place.platform}"
        profile = self.service.profile(pending.profile)
        done = []
        with self.sink.writing(pending.profile):
            for memory_id in picked:
                try:
                    done.append(profile.forget(memory_id, reason))
                except UnknownMemory:
                    continue
        self._audit("forget", "done", place, actor, pending.profile,
                    {"token": pending.token, "memory_ids": [m.id for m in done],
                     "reason": reason})
        lines = "\n".join(f"• `{m.id[:12]}` ({m.type})" for m in done)  # ids, not contents
        return Reply(f"Forgotten ({len(done)}):\n{lines}", resolves=pending.token,
                     kind="forgotten")

    def purge(self, arg: str, place: Place, actor: Actor, conv: Conversation) -> Reply:
        name = self.profile_for(place)
        if not arg:
            return Reply("Purge whom? `purge <user>`")
        if not self._authorised("purge", place, actor, name, {"user": arg}):
            return Reply(REFUSAL, kind="refusal")
        resolved = conv.resolve_user(arg)
        if resolved is None and _USER_ID.fullmatch(arg.strip()):
            resolved = (arg.strip(), arg.strip())  # a platform user id, as stored: `maya (U1)`
        if resolved is None:  # never purge "0 messages" of a name that is nobody
            self._audit("purge", "unknown_user", place, actor, name, {"user": arg})
            return Reply(f"I can't tell who “{arg}” is, so nothing was purged. Mention them "
                         "(`purge @name`), or give their exact handle, display name or full "
                         "name.", kind="error")
        target, label = resolved
        with self.sink.writing(name):
            result = self.service.profile(name).purge_author(target)
        self._audit("purge", "done", place, actor, name,
                    {"user": target, "messages_deleted": result.messages_deleted,
                     "memories_erased": result.memories_erased,
                     "memories_updated": result.memories_updated})
        return Reply(f"Purged {label} from {name}: {result.messages_deleted} messages deleted, "
                     f"{result.memories_erased} memories erased, {result.memories_updated} "
                     f"memories kept without their messages.")

    def memories(self, arg: str, place: Place, actor: Actor) -> Reply:
        name = self.profile_for(place)
        if not self._authorised("memories", place, actor, name):
            return Reply(REFUSAL, kind="refusal")
        page = int(arg) if arg.isdigit() and int(arg) > 0 else 1
        found = self.service.profile(name).list(limit=PAGE_SIZE + 1,
                                                offset=(page - 1) * PAGE_SIZE)
        self._audit("memories", "done", place, actor, name, {"page": page})
        if not found:
            return Reply(f"{name} holds no memories" + (f" on page {page}." if page > 1 else "."))
        lines = [f"`{m.id[:12]}` {m.type}: {m.content} ({format_human(_when(m))})"
                 for m in found[:PAGE_SIZE]]
        more = f"\n`memories {page + 1}` for more." if len(found) > PAGE_SIZE else ""
        return Reply(f"Memories of {name}, page {page}:\n" + "\n".join(lines) + more)

    def export(self, place: Place, actor: Actor, conv: Conversation) -> Reply | None:
        name = self.profile_for(place)
        if not self._authorised("export", place, actor, name):
            return Reply(REFUSAL, kind="refusal")
        lines = list(self.service.profile(name).export())
        data = ("\n".join(lines) + "\n").encode("utf-8")
        filename = f"lurker-{re.sub(r'[^A-Za-z0-9._-]', '_', name)}-" \
                   f"{self.clock().date().isoformat()}.jsonl"
        conv.send_file(filename, data, f"Export of {name}: {len(lines) - 1} records.")
        self._audit("export", "done", place, actor, name,
                    {"records": len(lines) - 1, "bytes": len(data), "filename": filename})
        return None


def _when(memory: Memory) -> date:
    return memory.said_at.date()
