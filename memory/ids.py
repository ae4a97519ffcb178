"""Content-addressed ids: the same input always gets the same id, so re-ingesting adds nothing."""
from __future__ import annotations

import hashlib
import re

from .errors import InvalidProfileName

PROFILE_NAME = re.compile(r"[A-Za-z0-9:._-]{1,128}")


def _digest(*parts: str) -> str:
    # NUL separators keep ("ab","c") and ("a","bc") apart; 128 bits = 32 hex chars.
    return hashlib.sha256("\x00".join(parts).encode("utf-8")).hexdigest()[:32]


def message_id(session_id: str, role: str, content: str) -> str:
    return _digest(session_id, role, content)


def repeated_message_id(session_id: str, role: str, content: str, author: str | None,
                        external_id: str | None) -> str:
    """The id of a message whose text another message of its session said first, by someone
    else or under another platform id: a second "+1" on an RFC, the same bot alert twice in a
    day. By text alone it was the first one re-ingested, and was dropped (one vote of two
    counted). Re-ingesting it gives this id again."""
    return _digest(session_id, role, content, "\x01again", author or "", external_id or "")


def another_message(first_author: str | None, first_external_id: str | None,
                    author: str | None, external_id: str | None) -> bool:
    """Whether a message with the same id as a first one is another message, not the same
    one again: said by someone else, or under another platform id."""
    return first_author != author or bool(first_external_id and external_id
                                          and first_external_id != external_id)


def memory_id(memory_type: str, content: str, source_ids: list[str] | tuple[str, ...]) -> str:
    return _digest("memory", memory_type, content, *sorted(source_ids))


# "." and ".." are path segments: URL clients rewrite them away, so such a profile could be written
# by one client and never addressed by another.
DOT_SEGMENTS = (".", "..")


def check_profile_name(name: str) -> str:
    if not isinstance(name, str) or not PROFILE_NAME.fullmatch(name):
        raise InvalidProfileName(
            f"invalid profile name {name!r}: use 1-128 characters from A-Z a-z 0-9 : . _ -"
        )
    if name in DOT_SEGMENTS:
        raise InvalidProfileName(f"invalid profile name {name!r}: '.' and '..' are path "
                                 f"segments that URLs cannot address; add a letter or digit")
    return name
