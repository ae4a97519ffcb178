"""A correction supersedes what it corrects.

Topic keys link a new statement to an old one only when both name their subject the same way
("the rate limit is 100" / "the rate limit is 250"). Corrections rarely do: "Correction: the
offsite moved to December 10th" follows "The customer offsite is on December 3rd in Denver" (an
event, which has no key), and "we decided to raise the rate limit to 250" states no "X is Y".
Both stayed live, and "when is the customer offsite?" was answered with the stale date first.

A memory *revises* an earlier one when its text says a change (a change verb with "to": moved,
pushed, raised, lowered, ...; "X is now"; or a correction label before "the X is") and names the
subject it changed. The earlier memory is the newest live one of the same profile, said before
it from another message, that carries every word of that subject and a value of the same kind
(a date where a date changed, a number where a number did). Nothing else is linked: a wrong link
hides a true fact, while a missed one only leaves both visible, as before.
"""
from __future__ import annotations

import re
from collections.abc import Iterable

from .dates import ANNOTATED, ANY_DAY, MARKUP, find_dates
from .models import Memory
from .people import display_name
from .stores.base import CH_MEMORY_TEXT, SearchRequest, Store
from .text import stem_tokens

_LABEL = re.compile(r"^(?:correction|update|updated|change of plans?|scratch that|actually|"
                    r"revised|clarification|heads[ -]up|fyi)\s*[:,\u2013\u2014-]\s*")
_OWNER = r"(?:the|our|this|this week's|next week's|today's|tomorrow's|team's|their)"
# up to four words, none of them "the"/"our"/... or "to" ("FYI the session TTL is now" is about
# "session ttl", not "fyi the session ttl")
_WORD = rf"(?!(?:{_OWNER}|to)\b)[a-z][\w-]*"
_SUBJECT = rf"(?P<subject>{_WORD}(?:\s+{_WORD}){{0,3}}?)"
# ... to a new value, right after "to": a number ("to 250", "to $5k") or a date phrase ("to
# December 10th", "to next week"), checked by _to_a_value; "moved to Berlin" and "pushed the fix
# to staging yesterday" change no value
_TO_VALUE = r"\s+(?:to|until|till)\s+(?=\S)"
_NUMBER = re.compile(r"[\d$€£]")
# every form: "the offsite moved to", "we're moving standup to", "raise the limit to"
_CHANGE = (r"(?:move|moves|moved|moving|push|pushes|pushed|pushing|postpone|postponed|reschedule|"
           r"rescheduled|delay|delayed|shift|shifts|shifted|bump|bumped|bumping|raise|raised|"
           r"raising|lower|lowered|lowering|increase|increased|increasing|decrease|decreased|"
           r"reduce|reduced|cut|extend|extended|change|changed|changing|update|updated|upped)")
# "the offsite moved to ...", "standup got pushed back to ...": the subject before the change
# (without "the"/"our" only at the start, and not a name: "Caroline moved to ...")
_SUBJECT_CHANGED = re.compile(
    rf"(?:^|\b{_OWNER}\s+){_SUBJECT}\s+(?:(?:has|have)\s+been\s+|(?:is|are|was|were|got|gets|"
    rf"been|will\s+be)\s+)?{_CHANGE}(?:\s+(?:back|out|up|forward|again))?{_TO_VALUE}")
# "we decided to raise the rate limit to 250", "bumped our timeout to 30s": the changed object
_CHANGE_OBJECT = re.compile(rf"\b{_CHANGE}\s+{_OWNER}\s+{_SUBJECT}{_TO_VALUE}")
# "the rate limit is now 250"
_IS_NOW = re.compile(rf"(?:^|\b{_OWNER}\s+){_SUBJECT}\s+(?:is|are)\s+now\b")
# after a correction label: "Correction: the offsite is on December 10th"
_LABELLED_IS = re.compile(rf"^{_OWNER}\s+{_SUBJECT}\s+(?:is|are|will\s+be)\b")
_DIGIT = re.compile(r"\d")


def revised_subject(content: str) -> frozenset[str] | None:
    """The word stems of the subject `content` says was changed, or None when it says no change
    (or names no subject: "it moved to Friday")."""
    original = content.strip()
    labelled = _LABEL.match(original.lower())
    if labelled:
        original = original[labelled.end():]
    text = original.lower()
    patterns = (_CHANGE_OBJECT, _SUBJECT_CHANGED, _IS_NOW) + ((_LABELLED_IS,) if labelled else ())
    for pattern in patterns:
        for m in pattern.finditer(text):
            if m.start("subject") == 0 and original[:1].isupper():
                continue  # a capital with no "the" before it: a name ("Caroline moved to ...")
            if pattern in (_CHANGE_OBJECT, _SUBJECT_CHANGED) and not _to_a_value(original,
                                                                                 m.end()):
                continue
            if _asked(text, m.end()):
                # a change asked for is none yet: "can we move the webinar to 2pm ET?" took
                # "webinar registrations at 312, target is 500" out of every answer
                continue
            stems = frozenset(stem_tokens(m.group("subject")))
            if stems:
                return stems
    return None


_SENTENCE_MARK = re.compile(r"[.!?\n](?!\d)")


def _asked(text: str, at: int) -> bool:
    """Whether the sentence around `at` is a question."""
    end = _SENTENCE_MARK.search(text, at)
    return end is not None and end.group() == "?"


def _to_a_value(text: str, at: int) -> bool:
    """Whether a number or a date phrase starts at `at` (right after "to"; chat markup before
    it, "to *December 10th*", is skipped)."""
    while at < len(text) and text[at] in MARKUP:
        at += 1
    return bool(_NUMBER.match(text, at)) or any(
        found.start == at for found in find_dates(text, ANY_DAY))


def value_kinds(memory: Memory) -> set[str]:
    """What a memory states that a correction could change: a date, a number (a day's own
    digits are no number: "window moves to Sunday Dec 13" revised "the maintenance window needs
    a status page notice at least 72h before", not the window's "Saturday Dec 12")."""
    kinds = {"date"} if memory.event_dates else set()
    text = ANNOTATED.sub("", memory.content)
    if _DIGIT.search(text) and _DIGIT.search(_without_days(text)):
        kinds.add("number")
    return kinds


def _without_days(text: str) -> str:
    for found in reversed(find_dates(text, ANY_DAY)):
        text = f"{text[:found.start]} {text[found.end:]}"
    return text


_NEW_NUMBER = re.compile(r"[$€£]?\d[\d.,]*(?<![.,])")


def new_number(content: str) -> str | None:
    """The number a change sets, right after its "to" ("bumped to 5.1" -> "5.1"), or None."""
    original = content.strip()
    labelled = _LABEL.match(original.lower())
    original = original[labelled.end():] if labelled else original
    text = original.lower()
    for pattern in (_CHANGE_OBJECT, _SUBJECT_CHANGED):
        for m in pattern.finditer(text):
            at = m.end()
            while at < len(text) and text[at] in MARKUP:
                at += 1
            number = _NEW_NUMBER.match(text, at)
            if number is not None:
                return number.group(0)
    return None


def revised_memory(revision: Memory, subject: frozenset[str],
                   candidates: Iterable[Memory]) -> Memory | None:
    """The newest candidate `revision` revises (see the module), or None."""
    kinds = value_kinds(revision)
    said = revision.said_at
    # (one that named the new number already planned it, it held no other: "pg_partman 4.x isn't
    # compatible with PG16, we need to bump it to 5.1 first", then "pg_partman bumped to 5.1"
    # took the blocker out of "what blocked the upgrade?")
    number = new_number(revision.content)
    planned = re.compile(rf"(?<![\w.]){re.escape(number)}(?![\w]|\.\d)") if number else None
    best = None
    for old in candidates:
        when = old.said_at
        if (old.id == revision.id or old.status != "active" or when >= said
                or set(old.source_message_ids) & set(revision.source_message_ids)
                or not subject <= set(stem_tokens(old.content))
                or not kinds & value_kinds(old)
                or planned is not None and planned.search(ANNOTATED.sub("", old.content))):
            continue
        if best is None or when > best.said_at:
            best = old
    return best


def link_revisions(store: Store, profile: str, fresh: list[Memory],
                   changed: dict[str, Memory]) -> None:
    """Supersede what each of `fresh` (this write's memories, in the order said) revises: an
    earlier memory of the same write, or a stored one found by its subject's words. `changed`
    collects the superseded memories to write back (topic-key supersession's already there)."""
    for i, memory in enumerate(fresh):
        if memory.supersedes or memory.status != "active":
            continue
        subject = revised_subject(memory.content)
        if subject is None or subject & _speakers(store, profile, memory):
            continue  # "tom moved to 2.6.10" (tom's "I moved to ..."): a person, no subject
        hits = store.search(profile, SearchRequest(text=" ".join(sorted(subject)),
                                                   channels=(CH_MEMORY_TEXT,), k=20))
        stored = [changed.get(h.record.id, h.record) for h in hits.get(CH_MEMORY_TEXT, [])
                  if isinstance(h.record, Memory)]
        old = revised_memory(memory, subject, [*fresh[:i], *stored])
        if old is None:
            continue
        old.status, old.superseded_by = "superseded", memory.id
        memory.supersedes = old.id
        if memory.topic_key is None and memory.type in ("fact", "instruction"):
            memory.topic_key = old.topic_key  # later statements of the old key supersede this
        changed[old.id] = old


def _speakers(store: Store, profile: str, memory: Memory) -> set[str]:
    """The word stems of the names of whoever said the memory's messages (a first-person
    sentence is stored with its speaker's name: "tom moved to 2.6.10")."""
    messages = store.get_messages(profile, memory.source_message_ids)
    return set(stem_tokens(" ".join(display_name(m.author) or "" for m in messages)))
