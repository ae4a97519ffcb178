"""The time a question is about, and which records belong to it.

"What happened last Friday?" asked on Monday 23 November is about Friday 20 November. A memory of
"the billing deploy went out last Friday", said on 17 November, shares the question's words but is
about 13 November: shown as the answer, it is the wrong Friday. So when a question names one span
of time (a day, a week, a month or a quarter: "yesterday", "last week", "on 3 May", "in
October"), the stores' `date` channel brings the messages said on its days (the rollback of that
Friday shares no word with the question), the records said in that span or about it come first
in the ranking, and the offline answerer answers from those only. A question that asks for a
date ("when …?") or for date arithmetic ("how many days until …") names none:
memory.date_questions computes those.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import date, datetime, timedelta
from typing import TypeVar

from .date_questions import parse_date_question
from .dates import ResolvedDate, find_dates, local_time
from .fusion import Fused
from .models import Memory, Message

# Spans a question narrows to; a year ("in 2023") is most of a profile's history.
_NARROW = frozenset({"day", "week", "month", "quarter"})
# "by July 10", "the week before August 3", "since May": a bound, not the span asked about,
# written before the date or as the start of its phrase
_BOUND_BEFORE = re.compile(r"(?i)\b(?:by|before|after|since|until|till|as of|prior to|up to|"
                           r"through|from)\s+(?:the\s+)?$")
_BOUND_PHRASE = re.compile(r"(?i)^(?:by|before|after|since|until|till|from)\s")
# A question that asks for the date names dates only as context ("when in May did we …?").
_ASKS_WHEN = re.compile(r"^\s*(when\b|(what|which) (date|day|year|month|week|time)\b|"
                        r"(since )?how long\b)", re.IGNORECASE)


# "what's coming up?", "anything planned?": what is dated in the weeks ahead (it was declined:
# no date, so no span, and the words share nothing with what is planned)
_ASKS_AHEAD = re.compile(r"(?i)^\W*(?:what(?:['’]s|\s+is|\s+are)?|(?:is\s+there\s+)?anything|"
                         r"any\s+plans)\s+(?:coming\s+up|upcoming|planned|scheduled|"
                         r"on\s+the\s+(?:calendar|agenda)|ahead)"
                         r"(?:\s+for\s+(?:us|the\s+team))?\W*$")
# and of a kind: "what meetings are coming up?", "any launches planned?" (the kind stays a word
# the answer's memories share)
_ASKS_AHEAD_OF = re.compile(r"(?i)^\W*(?:what|which|any)\s+(?:\w[\w-]*\s+){1,3}?(?:(?:are|is)\s+)?"
                            r"(?:coming\s+up|upcoming|planned|scheduled|ahead)"
                            r"(?:\s+for\s+(?:us|the\s+team))?\W*$")
# what is due or coming up by a day asks of the days until it
_ASKS_DUE = re.compile(r"(?i)\b(?:due|deadlines?|coming\s+up|upcoming|planned|scheduled)\b")
_DUE_BOUND = re.compile(r"(?i)\b(?P<word>by|before|until|till)\s+(?:the\s+)?$")
_DUE_BOUND_PHRASE = re.compile(r"(?i)^(?P<word>by|before|until|till)\s")
_DUE_REACH = timedelta(days=92)
AHEAD = timedelta(days=28)
AHEAD_PHRASE = "the next four weeks"


def looks_ahead(span: ResolvedDate) -> bool:
    """Whether the span is what a question of what is coming up asks (the weeks ahead)."""
    return span.phrase == AHEAD_PHRASE


def asked_span(question: str, now: datetime | date) -> ResolvedDate | None:
    """The one span of time the question is about, or None (none, several, too wide, or a
    question that asks for a date)."""
    if _ASKS_WHEN.match(question) or parse_date_question(question) is not None:
        return None
    today = now.date() if isinstance(now, datetime) else now
    if _ASKS_AHEAD.match(question) or _ASKS_AHEAD_OF.match(question):
        return ResolvedDate(AHEAD_PHRASE, today, today + AHEAD, "day")
    found = find_dates(question, today)
    if len(found) == 1 and _ASKS_DUE.search(question):
        # "what's due before Christmas?": from today to the day (declined: a bound is no span,
        # and no memory of what is due names Christmas)
        bound = _DUE_BOUND.search(question[:found[0].start]) \
            or _DUE_BOUND_PHRASE.match(found[0].date.phrase)
        if bound is not None:
            end = found[0].date.start - timedelta(days=1) \
                if bound["word"].lower() == "before" else found[0].date.end
            if today <= end <= today + _DUE_REACH:
                at = bound.start() if bound.re is _DUE_BOUND else found[0].start
                return ResolvedDate(question[at:found[0].end], today, end, "day")
    # "on Friday, November 20th" is one day written twice
    if len({(f.date.start, f.date.end) for f in found}) != 1 \
            or found[0].date.granularity not in _NARROW \
            or any(_BOUND_BEFORE.search(question[:f.start]) or _BOUND_PHRASE.match(f.date.phrase)
                   for f in found):
        return None
    # the whole of what the question wrote for it ("on Friday, November 20th")
    return replace(found[0].date, phrase=question[found[0].start:found[-1].end])


def _overlaps(start: date, end: date, span: ResolvedDate) -> bool:
    return start <= span.end and end >= span.start


def said_on(record: Memory | Message) -> date | None:
    """The local day a record was said on: a message's in its own UTC offset, a memory's in its
    first message's (its event_time keeps that offset)."""
    if isinstance(record, Message):
        return local_time(record.ts, record.utc_offset_minutes).date()
    return record.said_at.date()


def said_in_span(record: Memory | Message, span: ResolvedDate) -> bool:
    """Said within the span (what it is about aside)."""
    said = said_on(record)
    return said is not None and span.start <= said <= span.end


def in_span(record: Memory | Message, span: ResolvedDate) -> bool:
    """Said within the span, or about a date within it (a memory's event dates resolved at
    ingest; a raw message's date expressions resolved here against the day it was said on).
    Both count: "what did Maria share on 16 June?" asks when it was said, "what happened last
    Friday?" what it is about (LoCoMo dev, a memory with event dates counted as of those only:
    T@10 0.797 against 0.799, two more answerable questions declined)."""
    if said_in_span(record, span):
        return True
    said = said_on(record)
    if isinstance(record, Memory):
        return any(_about(_from_said(e, said), span) for e in record.event_dates)
    if said is None:
        return False
    return any(_about(_from_said(f.date, said), span) for f in find_dates(record.content, said))


def first_day_about(memory: Memory, span: ResolvedDate) -> date | None:
    """The first day of the earliest of the memory's event dates that is about the span, or None
    (the order of a span's calendar: "anything planned for December?")."""
    said = said_on(memory)
    return min((d.start for e in memory.event_dates
                if _about(d := _from_said(e, said), span)), default=None)


_UNTIL = re.compile(r"(?i)^\W*(?:until|till|til|through|thru)\b")


def _from_said(date_, said: date | None):
    """"Kim is on call until Sunday", said on Monday, is about every day to Sunday: "who's on
    call today?" on Wednesday is answered by it. The phrase resolves to its last day only."""
    if said is None or not _UNTIL.match(date_.phrase or "") or not said < date_.start:
        return date_
    return ResolvedDate(date_.phrase, said, date_.end, "day")


def _about(date_: ResolvedDate, span: ResolvedDate) -> bool:
    """A date is about the span when it overlaps it and is no wider: "who's on call this week?"
    is not about last Thursday, though that week holds it ("what happened last Thursday?" led
    with it); a day is about its week. A range of days someone named ("deploy freeze from
    Friday until Monday") is about each day in it: "is there a freeze on Saturday?"."""
    ranged = date_.granularity == "day" and date_.start < date_.end
    return _overlaps(date_.start, date_.end, span) and (
        ranged or (date_.end - date_.start) <= (span.end - span.start))


T = TypeVar("T")


def in_span_first(ranked: Sequence[T], span: ResolvedDate | None,
                  record: Callable[[T], Memory | Message | None]) -> list[T]:
    """The ranking with the records of the span first, each group in its own order."""
    if span is None:
        return list(ranked)
    inside = [(x := record(r)) is not None and in_span(x, span) for r in ranked]
    return ([r for r, i in zip(ranked, inside) if i]
            + [r for r, i in zip(ranked, inside) if not i])


def about_the_span_first(ranked: Sequence[T], span: ResolvedDate | None,
                         record: Callable[[T], Memory | Message | None]) -> list[T]:
    """For what the answer reads, the memories about the span (an event date in it) first, then
    the rest, then those said in the span about another day: "what did kim do on tuesday?" is
    not answered by her Tuesday standup's "- yesterday: on-call" (Monday's) but by Wednesday's
    "- yesterday: disk cleanup runbook done", and "what did sam do yesterday?" first by his
    "Today [25 Nov]: start the Stripe tax integration", then by that day's "Blockers: …". The
    ranking itself (in_span_first) keeps them together (LoCoMo dev: this order in the ranking
    cost T@10 0.802 → 0.791, while no answer changed)."""
    if span is None:
        return list(ranked)

    def tier(entry: T) -> int:
        x = record(entry)
        if not isinstance(x, Memory) or not x.event_dates:
            return 1
        if any(_about(e, span) for e in x.event_dates):
            return 0
        return 2 if said_in_span(x, span) else 1

    tiers = [tier(r) for r in ranked]
    return [r for t in (0, 1, 2) for r, x in zip(ranked, tiers) if x == t]


def fused_record(entry: Fused) -> Memory | Message | None:
    return entry.record if isinstance(entry.record, (Memory, Message)) else None


def scoped(fused: Sequence[Fused], question: str, now: datetime | date) -> list[Fused]:
    """A fused ranking (memory.fusion) with the records of the question's span first."""
    return in_span_first(fused, asked_span(question, now), fused_record)
