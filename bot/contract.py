"""The contract between the platform-agnostic core (bot/core.py) and the adapters (Slack, Discord,
the terminal): what an adapter hands in (`Place`, `Actor`, `ChatMessage`), what the core hands back
(`Reply` with its `Source`s and `Choice`s), and `Conversation`, the few things the core needs an
adapter to do to talk back in one place. Also the platform ids the profiles and stored messages
are keyed by (`external_id`, `session_id`)."""
from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime, timezone, tzinfo

from memory.models import Message

from .config import channel_key

_AUTHOR_ID = re.compile(r" \([^()]*\)$")


# --- what adapters hand in ----------------------------------------------------------------------
@dataclass(frozen=True)
class Place:
    """Where a message lives. `channel` is the conversation the platform addresses (for a Discord
    thread: the thread); `parent` the channel a thread belongs to (profiles follow the parent)."""

    platform: str  # slack | discord | terminal
    workspace: str  # Slack team id, Discord guild id, "local"
    channel: str
    parent: str | None = None
    is_dm: bool = False
    profile: str | None = None  # a fixed profile (the terminal); else from the config

    @property
    def key(self) -> str:
        """The channel's name in the config, and its default profile."""
        return channel_key(self.platform, self.workspace, self.parent or self.channel)


@dataclass
class Actor:
    platform: str
    id: str | None
    name: str | None = None
    is_bot: bool = False
    bot_ids: tuple[str, ...] = ()  # other ids a bot is known by (Slack bot_id, app id)
    platform_admin: Callable[[], bool] = field(default=lambda: False, repr=False)
    # the person's time zone where the platform says it (Slack's users.info): what "tonight" in
    # their message and "last Friday" in their question are counted in; None: UTC
    zone: tzinfo | None = None

    def local(self, when: datetime) -> datetime:
        """`when` in this person's time zone (unchanged without one)."""
        return when.astimezone(self.zone) if self.zone is not None else when

    @property
    def author(self) -> str | None:
        """What is stored as the message's author: `name (id)`, so a purge by id finds every name
        the user had, and extraction still reads a name."""
        if self.name and self.id and self.name != self.id:
            return f"{self.name} ({self.id})"
        return self.name or self.id

    @property
    def label(self) -> str:
        return self.name or self.id or "someone"


@dataclass
class ChatMessage:
    place: Place
    id: str  # the platform's message id: Slack ts, Discord snowflake
    text: str
    ts: datetime
    author: Actor
    thread: str | None = None  # the thread a reply belongs to (Slack thread_ts, Discord thread id)
    # the external id of the message this one answers (its thread's parent, the message a Discord
    # reply points at): extraction reads them together
    reply_to: str | None = None

    @property
    def external_id(self) -> str:
        return external_id(self.place, self.id)

    @property
    def session_id(self) -> str:
        return session_id(self.place, self.ts, self.thread)


def external_id(place: Place, message_id: str) -> str:
    """`slack:T01:C42:1715172960.000200`; a Discord thread message keeps its thread:
    `discord:9001:1234:5678/91011` (parent channel 1234, thread 5678)."""
    locator = f"{place.channel}/{message_id}" if place.parent else message_id
    return f"{place.key}:{locator}"


def parse_external_id(value: str) -> tuple[str, str, str, str, str] | None:
    """(platform, workspace, channel, conversation, message) of an external id, or None."""
    parts = value.split(":", 3)
    if len(parts) != 4:
        return None
    platform, workspace, channel, locator = parts
    conversation, _, message = locator.rpartition("/")
    return platform, workspace, channel, conversation or channel, message


def session_id(place: Place, ts: datetime, thread: str | None = None) -> str:
    """The conversation window: a thread, else the channel's (UTC) day."""
    channel = place.parent or place.channel
    if thread:
        return f"{channel}:thread:{thread}"
    return f"{channel}:{ts.astimezone(timezone.utc).date().isoformat()}"


def display_author(author: str | None) -> str:
    return _AUTHOR_ID.sub("", author) if author else "someone"


# --- what the handlers hand back ----------------------------------------------------------------
@dataclass
class Source:
    url: str | None
    when: date
    author: str
    snippet: str
    external_id: str | None = None


@dataclass
class Choice:
    value: str  # "1".."5", "all", "cancel"
    label: str


@dataclass
class Reply:
    text: str
    sources: list[Source] = field(default_factory=list)
    choices: list[Choice] = field(default_factory=list)
    token: str | None = None  # the confirmation the choices answer
    resolves: str | None = None  # the confirmation this reply settles (adapters may edit it)
    kind: str = "info"  # answer | no_answer | refusal | confirm | forgotten | error | info


def fitting_pieces(text: str, limit: int) -> list[str]:
    """`text` split at line ends (a longer line hard) into pieces of at most `limit` characters,
    in order, for platforms with a message size limit; an empty text is one empty piece."""
    out: list[str] = []
    current = ""
    for line in text.splitlines(keepends=True):
        while len(line) > limit:
            if current:
                out.append(current)
                current = ""
            out.append(line[:limit])
            line = line[limit:]
        if len(current) + len(line) > limit:
            out.append(current)
            current = ""
        current += line
    if current or not out:
        out.append(current)
    return out


class Conversation(ABC):
    """One place to answer in (a channel thread, a DM, the terminal), implemented per platform."""

    @abstractmethod
    def send(self, reply: Reply) -> None: ...

    def working(self) -> None:
        """Recall is taking a while: a typing indicator or an ephemeral note."""

    def send_file(self, filename: str, data: bytes, comment: str) -> None:
        self.send(Reply(f"{comment}\n(this platform cannot receive files here)", kind="error"))

    def link(self, message: Message) -> str | None:
        """A link to the original message, if it is on this platform."""
        return None

    def plain_text(self, text: str) -> str:
        """A question's platform markup as people read it (`<@U1>` -> `@maya`), as messages are
        stored: "what did <@U1> say?" asks about maya."""
        return text

    def resolve_user(self, text: str) -> tuple[str, str] | None:
        """A user mention in the platform's syntax -> (user id, display name)."""
        return None

    def thread_opening(self) -> str | None:
        """The external id (`external_id`) of the message a request was made under: the
        thread's first message ("@lurker when is it?" under "Postgres 16 upgrade: …"), or the
        message it replies to; None at the top level."""
        return None

    def readable_places(self) -> list[Place] | None:
        """In a DM: the channels the asker can read right now (None: this platform cannot say,
        and the DM is answered from its own profile only)."""
        return None

    def display_name(self, author: str | None) -> str:
        """A stored author (`maya (U1)`) as people here know them."""
        return display_author(author)
