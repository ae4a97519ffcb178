"""The channel's message just before a batch of new ones, for what the batch's first message
answers.

Chat arrives a few messages at a time (a bot's events, a worker's batches), so sam's "on it", 30
minutes after tom's "can someone review my PR #901 before the weekend?", is extracted alone: too
short to keep, it gave no memory, and "who is reviewing #901?" had no answer. Where a batch opens
with a short message that replies to no thread, the session's last top-level message before it,
said within BEFORE_WINDOW, is read beside it as a context line (memory.extraction.TranscriptLine
.before), as the previous message of one conversation ingested whole is. A longer message
stands alone, and is not worth the lookup.

An incident channel without threads ends an incident the same way: "Resolved. Checkout healthy
since 14:38 UTC." comes in its own batch, after the root cause and the rollback. A batch that opens
with a resolution is read with the session's latest declaration ("declaring SEV2 …") said within
INCIDENT_WINDOW before it, among the last SCANNED_INCIDENT messages.

A batch that opens with a correction ("actually make that $14/seat"), with "she"/"he" ("she
signed!!") or with a verdict alone ("approved! starting phased rollout") is read beside its
author's own last word in the channel, that day's or the day before's; one that opens with a
vote ("+1, …") beside the channel's message before it, as a short one is; one that opens with
a decision ("agreed, free goes to 120/min from next Monday") beside the proposal before it and
the discussion before that (SAID_EARLIER), each within DISCUSSION_WINDOW. A thread's reply that
says how a suggestion went ("that was it, thanks!", memory.tried) is read beside the thread's
reply before it by someone else, within TRIED_WINDOW.
"""
from __future__ import annotations

import re
from datetime import date, timedelta

from .alerts import (INCIDENT_WINDOW, declares_incident, ends_declared,
                     says_resolved)
from .models import Message
from .offline_extractor import OPENING_PRONOUN, VOTE_OPENING, decides
from .tried import says_how_tried
from .updates import VERDICT

# (not "due to" or "because of", said of anything: each batch it opened would be a lookup)
_STATES_CAUSE = re.compile(r"(?i)\b(?:root[- ]caused?|caused by|culprit|turned out|turns out|"
                           r"traced (?:it )?(?:back )?to)\b")
SAID_BEFORE = "\0said-before"  # its key among ingest_many's looked-up messages
SAID_EARLIER = "\0said-earlier"  # the one before that, where a discussion is what was closed
BEFORE_WINDOW = timedelta(hours=2)
# "on it", "me", "Yes, 14 accounts.", "I'll take it", "250"; a longer reply has words to stand
# alone, and a lookup for each (a quarter of bench/ingest.py's lines have 4 words) cost ingest
SHORT_WORDS = 3
SCANNED = 5  # the session's latest messages read to find the last top-level one
SCANNED_INCIDENT = 50  # ... and to find the declaration a resolution ends


# A person correcting what they said in the channel a day before, in a batch of its own:
# "actually make that $14/seat, finance pushed back" after their "Team plan goes from $12 to
# $15/seat" (the extractor reads it as a correction of that message, memory.offline_extractor)
_CORRECTS_OWN = re.compile(r"(?i)^\W*(?:actually\b|correction\b|scratch that\b|make that\b|"
                           r"sorry,? (?:i meant|typo)\b|typo\b)")
SELF_CORRECTION_WINDOW = timedelta(days=2)
# A decision said in the channel, in a batch of its own: "agreed, free goes to 120/min from next
# Monday" after ben's "proposal: free 120/min, …", itself after "rate limit discussion: free tier
# 60/min is too low" (the extractor reads it as a decision on the proposal, with the discussion
# it closes: memory.offline_extractor; over Slack it was a memory of no rate limit)
DISCUSSION_WINDOW = timedelta(minutes=30)
# A thread's asker saying how a suggestion went ("that was it, thanks!", memory.tried), in a
# batch of its own: read beside the thread's reply before it, said within TRIED_WINDOW
TRIED_WINDOW = timedelta(days=2)


def _decides(message: Message) -> bool:
    return not message.reply_to and decides(message.content)


def _corrects_own(message: Message) -> bool:
    return not message.reply_to and bool(_CORRECTS_OWN.match(message.content))


def _resolution(message: Message) -> bool:
    return not message.reply_to and says_resolved(message.content)


def _of_incident(message: Message) -> bool:
    """A resolution, or a cause stated in the channel ("Root cause looks like the new pool
    limit in payments-api", alone in its batch, was found by nothing of the incident)."""
    return _resolution(message) or not message.reply_to and bool(_STATES_CAUSE.search(
        message.content))


def _says_how_tried(message: Message) -> bool:
    return says_how_tried(message.content)


def wants_before(ordered: list[Message]) -> Message | None:
    """The batch's first message, when it is short (or opens with a resolution) and replies to
    no thread, or says in a thread how what was suggested went; else None."""
    first = ordered[0] if ordered else None
    if first is not None and _says_how_tried(first):
        return first
    if first is None or first.reply_to or (len(first.content.split()) > SHORT_WORDS
                                           and not _of_incident(first)
                                           and not _corrects_own(first)
                                           and not _decides(first)
                                           and not _long_correction(first)
                                           and not VOTE_OPENING.match(first.content)):
        return None
    return first


def pick_before(first: Message, newest_first: list[Message]) -> Message | None:
    """Of the session's messages before `first` (newest first), the last top-level one, if it
    was said within BEFORE_WINDOW and nothing drawn from it was forgotten; for a resolution, the
    latest declaration of an incident still open, within INCIDENT_WINDOW."""
    if _says_how_tried(first) and first.reply_to:
        # "nope, still hangs" in a thread: the thread's reply before it, by someone else
        # (in the channel: the channel's message before it, as for any short one)
        return next((m for m in newest_first if m.reply_to == first.reply_to
                     and m.author != first.author and not m.suppressed
                     and first.ts - m.ts <= TRIED_WINDOW), None)
    if _of_incident(first):
        between: list[Message] = []  # resolutions said since, of this incident or another
        for m in newest_first:
            if m.reply_to:
                continue
            if m.suppressed or first.ts - m.ts > INCIDENT_WINDOW:
                return None
            if declares_incident(m.content):  # (unless one said since ended it already)
                return None if any(ends_declared(r.content, m.content) for r in between) else m
            if _resolution(m):
                between.append(m)
        return None
    if _long_correction(first):
        # a correction: its author's own last word in the channel, within two days (or "she
        # signed!!": whom that last word named)
        return next((m for m in newest_first if not m.reply_to and not m.suppressed
                     and m.author == first.author
                     and first.ts - m.ts <= SELF_CORRECTION_WINDOW), None)
    voting = bool(VOTE_OPENING.match(first.content))
    for m in newest_first:
        if m.reply_to:  # a thread's reply is not the channel's flow
            continue
        if m.suppressed or first.ts - m.ts > BEFORE_WINDOW:
            return None
        if voting and VOTE_OPENING.match(m.content) and m.author != first.author:
            continue  # (a vote after votes is on what they voted on: cy's "+1" after ben's)
        return m
    return None


def pick_earlier(first: Message, before: Message, newest_first: list[Message]) -> Message | None:
    """For a decision, the channel's top-level message before the one it settles, said within
    DISCUSSION_WINDOW of it: the discussion the proposal was made in."""
    if not _decides(first) or first.ts - before.ts > DISCUSSION_WINDOW:
        return None
    for m in newest_first:
        if m.reply_to or m.ts >= before.ts or m.id == before.id:
            continue
        return None if m.suppressed or before.ts - m.ts > DISCUSSION_WINDOW else m
    return None


def _looked_up(first: Message, newest_first: list[Message]) -> dict[str, Message]:
    before = pick_before(first, newest_first)
    if before is None:
        return {}
    earlier = pick_earlier(first, before, newest_first)
    return {SAID_BEFORE: before, **({SAID_EARLIER: earlier} if earlier is not None else {})}


def said_before_many(store, batches: dict[str, list[Message]]) -> dict[str, dict[str, Message]]:
    """{profile: {SAID_BEFORE: the message its batch's first message may answer, and
    SAID_EARLIER: the one before that where it is a discussion's}}, in one lookup."""
    firsts = {p: first for p, ms in batches.items()
              if (first := wants_before(sorted(ms, key=lambda m: (m.ts, m.seq)))) is not None}
    if not firsts:
        return {}
    found = store.messages_before_many({p: (m.session_id, m.ts) for p, m in firsts.items()},
                                       max(_scanned(m) for m in firsts.values()))
    picked = {p: looked for p, first in firsts.items()
              if (looked := _looked_up(first, found.get(p, [])))}
    # a correction with nothing of its author's that day: the channel's day before
    again = {p: (day_before, first.ts) for p, first in firsts.items()
             if p not in picked and _long_correction(first)
             and (day_before := _day_before(first.session_id)) is not None}
    if again:
        earlier = store.messages_before_many(again, SCANNED)
        picked |= {p: {SAID_BEFORE: before} for p in again
                   if (before := pick_before(firsts[p], earlier.get(p, []))) is not None}
    return picked


def said_before(store, profile: str, ordered: list[Message]) -> dict[str, Message]:
    """{SAID_BEFORE: the message a batch's first message may answer, SAID_EARLIER: the one
    before it where that is a discussion's}, looked up in `store`; empty when none."""
    first = wants_before(ordered)
    if first is None:
        return {}
    looked = _looked_up(first, store.messages_before(profile, first.session_id, first.ts,
                                                     _scanned(first)))
    if not looked and _long_correction(first) \
            and (day_before := _day_before(first.session_id)) is not None:
        before = pick_before(first, store.messages_before(profile, day_before, first.ts,
                                                          SCANNED))
        looked = {SAID_BEFORE: before} if before is not None else {}
    return looked


# The chat adapters' session is a channel's UTC day, "<channel>:2026-12-03" (bot.contract
# .session_id): "actually make that $14/seat" the morning after "$15/seat" is in the next one
_DAY_SESSION = re.compile(r"^(?P<channel>.+):(?P<day>\d{4}-\d{2}-\d{2})$")


def _day_before(session_id: str | None) -> str | None:
    """The same channel's session of the day before, for a session named by its day; else None."""
    found = _DAY_SESSION.match(session_id or "")
    if found is None:
        return None
    try:
        day = date.fromisoformat(found["day"]) - timedelta(days=1)
    except ValueError:
        return None
    return f"{found['channel']}:{day.isoformat()}"


def _long_correction(first: Message) -> bool:
    """A message read beside its author's own last word: a correction of it, or one opening
    with "she" or "he" ("she signed!! … Omar will be her onboarding buddy", in its own batch the
    evening after the author's "offer going out to Priya today")."""
    return not first.reply_to and (len(first.content.split()) > SHORT_WORDS
                                   and _corrects_own(first)
                                   or bool(OPENING_PRONOUN.match(first.content))
                                   # (or a verdict alone: "approved! starting phased rollout",
                                   # two days after the author's "resubmitted 4.12 …")
                                   or bool(VERDICT.match(first.content)))


def _scanned(first: Message) -> int:
    return SCANNED_INCIDENT if _of_incident(first) or _says_how_tried(first) else SCANNED
