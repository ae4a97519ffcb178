"""Validation of incoming conversation messages: clear errors, nothing half-written.

Rules (documented in README): role must be user/assistant/system (user when left out); content
must be a non-empty string; content above the size limit is truncated on a UTF-8 boundary with a
visible marker; lone surrogates and NUL characters (which no store can keep) are replaced, and
invisible characters that split words (zero-width space, soft hyphen, word joiner) dropped;
secrets are redacted (memory.redaction) before anything is stored or hashed; `ts` may be ISO
8601, epoch seconds or a Slack-style "1715172960.000200" and defaults to the ingest time."""
from __future__ import annotations

import re

from datetime import datetime, timedelta, timezone

from .dates import parse_local_timestamp, utc_offset_minutes
from .errors import InvalidMessage
from .ids import another_message, message_id, repeated_message_id
from .markup import readable_slack
from .models import Message
from .redaction import INVISIBLE, redact

ROLES = ("user", "assistant", "system")
TRUNCATION_MARKER = "\n[truncated by Lurker: {omitted} bytes omitted]"


_UNSTORABLE = re.compile("[\ud800-\udfff\x00]")  # lone surrogates (a str holds no pairs), NUL
# Invisible characters inside words (a zero-width space, a soft hyphen pasted from a web page):
# "Re\u200bdis max\u00admemory is 4gb" was found by no search for "redis maxmemory".
_INVISIBLE = re.compile(f"[{INVISIBLE}]")


def clean_text(text: str) -> str:
    """Replace what UTF-8 and the stores cannot hold (lone surrogates, NUL) with U+FFFD, drop
    invisible characters that split words (not the zero-width joiner of an emoji sequence), and
    write Slack's markup as people read it (memory.markup: nothing stored can ping a channel)."""
    return readable_slack(_INVISIBLE.sub("", _UNSTORABLE.sub("\ufffd", text)))


def truncate_utf8(text: str, max_bytes: int) -> tuple[str, bool]:
    raw = text.encode("utf-8")
    if len(raw) <= max_bytes:
        return text, False
    kept = raw[:max_bytes].decode("utf-8", "ignore")  # "ignore" drops a split trailing character
    return kept + TRUNCATION_MARKER.format(omitted=len(raw) - len(kept.encode("utf-8"))), True


def to_messages(raw_messages: list, session_id: str, now: datetime,
                max_bytes: int) -> list[Message]:
    """Validate the whole conversation first; raise InvalidMessage listing every bad position."""
    if not isinstance(session_id, str) or not session_id.strip():
        raise InvalidMessage("session_id must be a non-empty string")
    problems: list[str] = []
    out: list[Message] = []
    for i, raw in enumerate(raw_messages):
        if hasattr(raw, "model_dump"):
            raw = raw.model_dump()
        if not isinstance(raw, dict):
            problems.append(f"message {i}: expected an object with role and content")
            continue
        # a chat export has no roles: its messages are people's (as the API and events default)
        role, content = raw.get("role", "user"), raw.get("content")
        if role not in ROLES:
            problems.append(f"message {i}: invalid role {role!r} (use one of {', '.join(ROLES)})")
            continue
        if not isinstance(content, str) or not content.strip():
            other = next((k for k in ("text", "message", "body", "msg") if k in raw), None)
            problems.append(f"message {i}: content must be a non-empty string" + (
                f" (it has {other!r}: the text goes in \"content\")" if other and content is None
                else ""))
            continue
        author = raw.get("author")
        if author is not None and not isinstance(author, str):
            problems.append(f"message {i}: author must be a string")
            continue
        try:
            # Without timestamps, keep conversation order with 1 ms steps. The offset the time
            # was written with is kept: dates in the message are resolved in that local time.
            local = (parse_local_timestamp(raw["ts"]) if raw.get("ts") is not None
                     else now + timedelta(milliseconds=i))
            ts, offset = local.astimezone(timezone.utc), utc_offset_minutes(local)
        except ValueError as exc:
            problems.append(f"message {i}: {exc}")
            continue
        external_id = raw.get("external_id")
        if external_id is not None and (not isinstance(external_id, str) or not external_id):
            problems.append(f"message {i}: external_id must be a non-empty string")
            continue
        reply_to = raw.get("reply_to")
        if reply_to is not None and (not isinstance(reply_to, str) or not reply_to):
            problems.append(f"message {i}: reply_to must be a non-empty string (the external_id "
                            "of the message it answers)")
            continue
        content = redact(clean_text(content))[0]
        stored, truncated = truncate_utf8(content, max_bytes)
        out.append(Message(
            id=message_id(session_id, role, content), session_id=session_id, role=role,
            author=clean_text(author) if author else None, content=stored, ts=ts, seq=i,
            truncated=truncated, external_id=external_id, utc_offset_minutes=offset or None,
            reply_to=reply_to if reply_to != external_id else None))
    if problems:
        raise InvalidMessage("nothing was ingested: " + "; ".join(problems[:20]) +
                             (f" (and {len(problems) - 20} more)" if len(problems) > 20 else ""))
    return distinct_repeats(out)


def distinct_repeats(messages: list[Message]) -> list[Message]:
    """A message saying what an earlier one of the conversation said, by someone else or under
    another platform id, is another message (memory.ids.repeated_message_id): two people's "+1"
    are two votes."""
    first: dict[str, Message] = {}
    out = []
    for m in messages:
        seen = first.setdefault(m.id, m)
        if seen is not m and another_message(seen.author, seen.external_id, m.author,
                                             m.external_id):
            m = m.model_copy(update={"id": repeated_message_id(
                m.session_id, m.role, m.content, m.author, m.external_id)})
        out.append(m)
    return out
