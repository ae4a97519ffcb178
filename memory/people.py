"""People as answers name them: their names, never platform ids.

Chat adapters store a message's author as `name (platform id)` ("maya (U01ABC)"), so a data
deletion request by id finds every name a user had. Extraction and answers show the name only, and
mention markup that reached the store raw (`<@U01ABC>`, Discord's `<@!81234>`) becomes the person's
name when a retrieved message tells it, else "someone".
"""
from __future__ import annotations

import re
from collections.abc import Iterable

from anyascii import anyascii

_AUTHOR_ID = re.compile(r"\s+\([^()]*\)$")
_MENTION = re.compile(r"<@!?(?P<id>[A-Z0-9]+)(?:\|(?P<name>[^>]*))?>")


def display_name(author: str | None) -> str | None:
    """"maya (U01ABC)" -> "maya"; a plain name as it is."""
    if not author:
        return author
    return _AUTHOR_ID.sub("", author).strip() or author


def name_letters(text: str) -> str:
    """The text with its names as people type them on any keyboard: "zoe" asks for Zoë, "soren"
    for Søren, "sasha" for Саша (anyascii's transliteration; ASCII text comes back as it is)."""
    return text if text.isascii() else anyascii(text)


def platform_id(author: str | None) -> str | None:
    """"maya (U01ABC)" -> "U01ABC"; None for a plain name."""
    m = re.search(r"\(([^()]*)\)$", author or "")
    return m.group(1) if m and author and author[:m.start()].strip() else None


def same_person(author: str | None, other: str | None) -> bool:
    """Two stored authors are one person: the same string, or the same platform id under
    another name ("maya (U1)" renamed "maya.k (U1)")."""
    if not author or not other:
        return False
    ident = platform_id(author)
    return author == other or (ident is not None and ident == platform_id(other))


def without_platform_ids(text: str, authors: Iterable[str | None] = ()) -> str:
    """`text` with every known "name (id)" written as the name, and mention markup as @name."""
    names = {}
    for author in authors:
        ident, name = platform_id(author), display_name(author)
        if ident and name:
            names[ident] = name
            text = text.replace(f"{name} ({ident})", name)
    return _MENTION.sub(lambda m: "@" + (m["name"] or names.get(m["id"]) or "someone"), text)


# "what did I decide", "my ticket", "remind me", "I'm", "I’ve": the person asking is asked about.
_FIRST_PERSON = re.compile(r"\b(?:i(?!\.e\.)|me|my|mine|myself)\b|\bi['’](?:m|ve|d|ll)\b",
                           re.IGNORECASE)


def asks_about_self(question: str) -> bool:
    """Whether a question speaks in the first person singular (the asker channels run for it)."""
    return bool(_FIRST_PERSON.search(question))


# "what did you recommend", "have you mentioned", "you told me": what the one asked said before.
# Requests ("can you", "would you suggest") ask for something new, and "did you know" asks nothing.
_WHAT_YOU_SAID = re.compile(
    r"\b(?:did|have|had)\s+you\b(?!\s+(?:ever\s+)?(?:know|hear|see|notice)\b)"
    r"|\byou(?:['’]ve)?\s+(?:recommended|suggested|said|mentioned|told|advised|explained|"
    r"proposed|gave|shared|showed|wrote|promised)\b",
    re.IGNORECASE)


def asks_what_you_said(question: str) -> bool:
    """Whether a question asks what the one it is put to said before ("How did you recommend
    …?"): with a known addressee, the asker channels search the addressee's messages."""
    return bool(_WHAT_YOU_SAID.search(question))
