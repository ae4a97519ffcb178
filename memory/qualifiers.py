"""Qualifiers that exclude each other: the platform or the environment a question asks about.

"is iOS 5.2.1 live?" is not answered by "bumping android 5.2.1 to 50%" (5 Dec, eighteenth
session: the Android rollout led, sharing the version and the newest date). Where a question
names a platform (or an environment), what names only another of the same kind is about
something else; what names none of its kind may still be about it ("5.2.1 approved!").
"""
from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")

# each group's alternatives are its members, one capture group a member ("Play" alone is a verb)
_KINDS = (
    re.compile(r"(?i)\b(?:(ios|iphone|ipad|ipados|app\s+store|testflight)|"
               r"(android|play\s+store|google\s+play|play\s+console)|"
               # (the web app and the desktop app are platforms of their own: "is the dark mode
               # fix out on web?" is not answered by "dark mode fix shipped in iOS 5.3")
               r"(web\s+app|web\s+client|on\s+web|in\s+the\s+browser)|"
               r"(desktop\s+app|desktop\s+client|electron\s+app|on\s+desktop))\b"),
    # (not "live", "stage", "dev" or "qa": words of their own in chat)
    re.compile(r"(?i)\b(?:(prod|production)|(staging))\b"),
    # a region: "is EU data residency live?" is not answered by "US residency GA'd" ("US" in
    # capitals only: "us" is a pronoun)
    re.compile(r"\b(?:((?i:eu|europe|emea|eu-west-\d|eu-central-\d))|"
               r"(US|USA|(?i:us-east-\d|us-west-\d|north\s+america))|"
               r"((?i:apac|asia|ap-southeast-\d|ap-northeast-\d)))\b"),
)


def _named(kind: re.Pattern[str], text: str) -> set[int]:
    return {m.lastindex for m in kind.finditer(text) if m.lastindex}


def of_asked_qualifiers(question: str, items: Sequence[T], text_of: Callable[[T], str]) -> list[T]:
    """`items` without those that name only other members of a kind the question names (all of
    them kept where none would remain)."""
    kept = list(items)
    for kind in _KINDS:
        asked = _named(kind, question)
        if not asked:
            continue
        narrowed = [x for x in kept if not (named := _named(kind, text_of(x))) or named & asked]
        kept = narrowed or kept
    return kept
