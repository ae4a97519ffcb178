"""`lurker chat`: the terminal as a third chat platform, on the embedded store with no tokens.

Each line typed is a message in the channel (ingested into the profile at once, in-process); a
line starting with `@lurker` is a mention and gets an answer with its sources. `/as NAME` changes
who is speaking, `/quit` (or end of input) leaves. The person at the terminal owns the store, so
the admin commands (`@lurker forget …`, `purge`, `memories`, `export`) are theirs. Piped input
works the same, one line at a time, so `printf '...' | lurker chat` is scriptable.

    lurker chat --demo        # the sample team conversation loaded into profile "demo" first
    lurker chat --profile team-backend
"""
from __future__ import annotations

import re
import sys
import threading
from collections.abc import Callable, Iterable
from datetime import datetime, timedelta
from pathlib import Path
from typing import TextIO

from memory.models import Message

from .contract import Actor, ChatMessage, Conversation, Place, Reply
from .core import LurkerBot, utcnow

PLATFORM = "terminal"
WORKSPACE = "local"
MENTION = re.compile(r"^@lurker\b[:,]?\s*", re.IGNORECASE)
PROMPT = "{user}> "
HELP = ("Type a message to say it in the channel; start a line with @lurker to ask me "
        "(`@lurker what did we decide about the rate limit?`, `@lurker help`). "
        "/as NAME speaks as someone else, /quit leaves.")


def render_text(reply: Reply) -> str:
    lines = [reply.text]
    for n, source in enumerate(reply.sources, 1):
        where = f" <{source.url}>" if source.url else ""
        lines.append(f"  [{n}] {source.when.isoformat()}, {source.author}: {source.snippet}"
                     f"{where}")
    if reply.choices:
        options = ", ".join(f"`{c.value}`" for c in reply.choices)
        lines.append(f"  Answer with `@lurker confirm <choice>` ({options}).")
    return "\n".join(lines)


class TerminalConversation(Conversation):
    def __init__(self, out: TextIO, export_dir: Path):
        self.out, self.export_dir = out, export_dir
        self._lock = threading.Lock()

    def _say(self, text: str) -> None:
        with self._lock:
            self.out.write("lurker> " + text.replace("\n", "\n        ") + "\n")
            self.out.flush()

    def send(self, reply: Reply) -> None:
        self._say(render_text(reply))

    def working(self) -> None:
        self._say("(looking…)")

    def send_file(self, filename: str, data: bytes, comment: str) -> None:
        path = self.export_dir / filename
        path.write_bytes(data)
        self._say(f"{comment} Written to {path}.")

    def link(self, message: Message) -> str | None:
        return None  # a terminal line has no address; the source's date and author stand

    def resolve_user(self, text: str) -> tuple[str, str] | None:
        name = text.strip().lstrip("@")
        return (name, name) if name and " " not in name else None


class TerminalChat:
    """One channel, `chat`, whose profile is fixed (`--profile`)."""

    def __init__(self, bot: LurkerBot, profile: str, out: TextIO = sys.stdout,
                 user: str = "you", export_dir: Path | None = None,
                 clock: Callable[[], datetime] = utcnow):
        self.bot, self.out, self.user, self.clock = bot, out, user, clock
        self.place = Place(PLATFORM, WORKSPACE, "chat", profile=profile)
        self.conv = TerminalConversation(out, export_dir or Path.cwd())
        self._last: datetime | None = None

    def actor(self) -> Actor:
        # the person at the terminal owns the store: an admin of it, in this machine's time zone
        return Actor(PLATFORM, self.user, self.user, platform_admin=lambda: True,
                     zone=datetime.now().astimezone().tzinfo)

    def _now(self) -> datetime:
        """Strictly increasing times: each line is its own message (and external id)."""
        now = self.clock()
        if self._last is not None and now <= self._last:
            now = self._last + timedelta(microseconds=1)
        self._last = now
        return now

    def line(self, text: str) -> Reply | None:
        """Handle one typed line; returns the reply when it was a mention."""
        text = text.rstrip("\r\n")
        stripped = text.strip()
        if not stripped:
            return None
        if stripped.startswith("/"):
            command, _, rest = stripped.partition(" ")
            if command == "/as" and rest.strip():
                self.user = rest.strip()
                self.conv._say(f"now speaking as {self.user}")
            elif command in ("/help", "/?"):
                self.conv._say(HELP)
            elif command not in ("/quit", "/exit"):
                self.conv._say(f"unknown command {command}; {HELP}")
            return None
        mention = MENTION.match(stripped)
        if mention:
            return self.bot.on_request(stripped[mention.end():], self.place, self.actor(),
                                       self.conv)
        now, actor = self._now(), self.actor()
        self.bot.on_message(ChatMessage(self.place, f"{now.timestamp():.6f}", stripped,
                                        actor.local(now), actor))
        return None

    def run(self, lines: Iterable[str] | None = None, interactive: bool | None = None) -> int:
        """Read lines (stdin by default) until /quit or the end of input."""
        interactive = sys.stdin.isatty() if interactive is None and lines is None \
            else bool(interactive)
        source = iter(lines) if lines is not None else None
        while True:
            try:
                if source is not None:
                    text = next(source)
                elif interactive:
                    text = input(PROMPT.format(user=self.user))
                else:
                    text = sys.stdin.readline()
                    if not text:
                        raise EOFError
            except (EOFError, StopIteration, KeyboardInterrupt):
                if interactive:
                    self.out.write("\n")
                return 0
            if not interactive and text.strip():
                self.out.write(PROMPT.format(user=self.user) + text.rstrip("\r\n") + "\n")
            if text.strip() in ("/quit", "/exit"):
                return 0
            self.line(text)
