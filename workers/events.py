"""The events chat adapters put on the queue, one per channel event, for a named profile.

    {"type": "message.created", "profile": "slack:T01", "session_id": "C42:2026-11-16",
     "external_id": "slack:C42:1715172960.000200", "role": "user", "author": "maya",
     "content": "Use pnpm for the dashboard", "ts": "1715172960.000200"}
    {"type": "message.edited", "profile": "slack:T01", "external_id": "slack:C42:1715172960.000200",
     "content": "Use yarn for the dashboard", "ts": "1715173100", "session_id": "C42:2026-11-16"}
    {"type": "message.deleted", "profile": "slack:T01", "external_id": "slack:C42:1715172960.000200"}

`session_id` is the conversation window the message belongs to (a channel-day, a thread): messages
of one session are extracted together. `ts` is ISO 8601, epoch seconds, a Slack ts or a datetime;
an edit's `ts` is when the edit was made (a stale edit older than the stored text is skipped). An
edit carrying `session_id` can be applied before its create has arrived.

`parse_event` validates one event and raises InvalidEvent naming every offending field, so a worker
can reject (and record) a malformed event without touching the rest of its batch.
"""
from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, field_validator

from memory.dates import parse_local_timestamp
from memory.errors import InvalidProfileName, LurkerError
from memory.ids import check_profile_name
from memory.ingest_input import clean_text
from memory.redaction import redact

CREATED, EDITED, DELETED = "message.created", "message.edited", "message.deleted"
EVENT_TYPES = (CREATED, EDITED, DELETED)
MAX_ID_CHARS = 512  # profile names are capped by the engine; ids from the platform here


class InvalidEvent(LurkerError, ValueError):
    """A queued event that cannot be applied; the message names each bad field."""


def _non_empty(value: Any, what: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{what} must be a non-empty string")
    if len(value) > MAX_ID_CHARS:
        raise ValueError(f"{what} is longer than {MAX_ID_CHARS} characters")
    return value


def _redacted_content(value: Any) -> str:
    """Secrets are redacted before the event reaches the broker, the spool file or a log; the
    worker redacts again to compute the message id, and gets the same text (redaction is
    idempotent), so the id is the one the raw text would have had."""
    if not isinstance(value, str) or not value.strip():
        raise ValueError("content must be a non-empty string")
    return redact(clean_text(value))[0]


class _Event(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    profile: str
    external_id: str

    @field_validator("profile", mode="before")
    @classmethod
    def _profile(cls, value: Any) -> str:
        try:
            return check_profile_name(value)
        except InvalidProfileName as exc:
            raise ValueError(str(exc)) from None

    @field_validator("external_id", mode="before")
    @classmethod
    def _external_id(cls, value: Any) -> str:
        return _non_empty(value, "external_id")

    @staticmethod
    def _timestamp(value: Any) -> datetime | None:
        if value is None:
            return None
        if isinstance(value, bool):
            raise ValueError("ts must be ISO 8601, epoch seconds or a Slack ts, not a boolean")
        # the offset it was written with is kept (the poster's zone, where the adapter knows
        # it): dates said in the message are resolved in it. ValueError names what was wrong.
        return parse_local_timestamp(value)

    def to_json(self) -> dict:
        return self.model_dump(mode="json")


class _Said(_Event):
    """What a create and an edit share: the text someone said, in a conversation (session)."""

    role: Literal["user", "assistant", "system"] = "user"
    author: str | None = None
    content: str

    @field_validator("content", mode="before")
    @classmethod
    def _content(cls, value: Any) -> str:
        return _redacted_content(value)

    @field_validator("session_id", mode="before", check_fields=False)
    @classmethod
    def _session(cls, value: Any) -> str | None:
        if value is None and not cls.model_fields["session_id"].is_required():
            return None
        return _non_empty(value, "session_id")


class MessageCreated(_Said):
    type: Literal["message.created"] = CREATED
    session_id: str
    ts: datetime
    # the external_id of the message this one answers (a thread's parent, a replied-to message):
    # extraction reads the two together however far apart they were said
    reply_to: str | None = None

    @field_validator("reply_to", mode="before")
    @classmethod
    def _reply_to(cls, value: Any) -> str | None:
        return None if value is None else _non_empty(value, "reply_to")

    @field_validator("ts", mode="before")
    @classmethod
    def _ts(cls, value: Any) -> datetime:
        if value is None:
            raise ValueError("ts is required (when the message was posted)")
        return cls._timestamp(value)

    def message(self) -> dict:
        """The message as Profile.ingest takes it."""
        return {"role": self.role, "author": self.author, "content": self.content, "ts": self.ts,
                "external_id": self.external_id, "reply_to": self.reply_to}


class MessageEdited(_Said):
    type: Literal["message.edited"] = EDITED
    ts: datetime | None = None  # when the edit was made
    session_id: str | None = None  # lets an edit that overtook its create be stored

    @field_validator("ts", mode="before")
    @classmethod
    def _ts(cls, value: Any) -> datetime | None:
        return cls._timestamp(value)


class MessageDeleted(_Event):
    type: Literal["message.deleted"] = DELETED
    ts: datetime | None = None

    @field_validator("ts", mode="before")
    @classmethod
    def _ts(cls, value: Any) -> datetime | None:
        return cls._timestamp(value)


ChatEvent = MessageCreated | MessageEdited | MessageDeleted
Event = Annotated[Union[MessageCreated, MessageEdited, MessageDeleted], Field(discriminator="type")]
_ADAPTER: TypeAdapter = TypeAdapter(Event)


def _describe(exc: ValidationError) -> str:
    parts = []
    for error in exc.errors():
        loc = ".".join(str(p) for p in error["loc"][1:] or error["loc"])  # drop the union tag
        msg = error["msg"].removeprefix("Value error, ")
        if error["type"] == "extra_forbidden":
            msg = "unknown field"
        parts.append(f"{loc}: {msg}" if loc else msg)
    return "; ".join(parts[:10]) + (f" (and {len(parts) - 10} more)" if len(parts) > 10 else "")


def parse_event(raw: Any) -> ChatEvent:
    """One event from its JSON form (or an event model); InvalidEvent says what is wrong."""
    if isinstance(raw, (MessageCreated, MessageEdited, MessageDeleted)):
        return raw
    if not isinstance(raw, dict):
        raise InvalidEvent(f"an event must be a JSON object, not {type(raw).__name__}")
    kind = raw.get("type")
    if kind not in EVENT_TYPES:
        raise InvalidEvent(f"unknown event type {kind!r}: use one of {', '.join(EVENT_TYPES)}")
    try:
        return _ADAPTER.validate_python(raw)
    except ValidationError as exc:
        where = f" (profile {raw.get('profile')!r}, external_id {raw.get('external_id')!r})"
        raise InvalidEvent(f"invalid {kind} event{where}: {_describe(exc)}") from None
