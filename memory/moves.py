"""A date moved by a length of time: "the code freeze is pushed a week", "launch pulled in by two
days", "rollout slips a week".

A team says a slip by how much, not to when. Asked "when is the code freeze?" after "Code freeze
for the 4.2 release is Dec 1" and then "Heads up: the code freeze is pushed a week", Lurker
answered 1 December (the only date written). The new date is the old one plus the shift, computed
here, never by a model: `moved_date` adds it to the date the earlier memory resolved at ingest.
A shift is a verb of moving, an optional direction, and a count of days, weeks or months:
"pushed to main" or "moved fast" say no shift.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta

from .dates import ANNOTATED, GIVEN_UNTIL, MOVE_VERBS, ResolvedDate, add_months, find_dates

_COUNT = r"a|an|one|two|three|four|five|six|\d{1,2}"
SHIFT = re.compile(
    r"\b(?P<verb>push(?:ed|es|ing)?|slip(?:s|ped|ping)?|delay(?:s|ed|ing)?|"
    r"postpon(?:e|es|ed|ing)|mov(?:e|es|ed|ing)|shift(?:s|ed|ing)?|bump(?:s|ed|ing)?|"
    r"pull(?:s|ed|ing)?|br(?:ing|ings|inging|ought)|extend(?:s|ed|ing)?)"
    # what moved may sit between ("moved the offsite out 2 weeks"), no time words ("moved fast
    # for two days", "pushed it in a week")
    r"(?:\s+(?!(?:for|in|during|over|within|after|before|about|every|each|per|since|until|"
    r"by|out|back|up|forward|ahead)\b)[\w'-]+){0,4}?"
    r"(?:\s+(?P<way>out|back|in|forward|up|ahead))?\s+(?:by\s+)?"
    rf"(?P<n>{_COUNT})\s+(?P<unit>days?|weeks?|months?)(?!\s+(?:ago|of|worth|old)\b)"
    r"(?:\s+(?P<then>earlier|sooner|later|out|back))?\b",
    re.IGNORECASE)
_EARLIER = {"in", "forward", "up", "ahead", "earlier", "sooner"}
_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}


@dataclass(frozen=True)
class Shift:
    days: int  # for days and weeks; 0 for months
    months: int
    phrase: str  # as written: "pushed a week"

    def apply(self, day: ResolvedDate) -> ResolvedDate:
        """`day` moved by the shift (a span moves whole; its granularity stays)."""
        if self.months:
            start, end = add_months(day.start, self.months), add_months(day.end, self.months)
        else:
            delta = timedelta(days=self.days)
            start, end = day.start + delta, day.end + delta
        return ResolvedDate(f"{day.phrase}, {self.phrase}", start, end, day.granularity)


def shift_in(text: str) -> Shift | None:
    """The first shift `text` says, or None."""
    m = SHIFT.search(text)
    if m is None:
        return None
    if (m["way"] or "").lower() == "in" and not m["verb"].lower().startswith("pull"):
        return None  # "pushed it in a week" is when, not how far ("pulled in a week" is)
    count = m["n"].lower()
    n = int(count) if count.isdigit() else _NUMBERS[count]
    way = (m["way"] or m["then"] or "").lower()
    earlier = way in _EARLIER or (m["verb"].lower().startswith(("pull", "br"))
                                  and way not in ("out", "back", "later"))
    sign = -1 if earlier else 1
    unit = m["unit"].lower().rstrip("s")
    if unit == "month":
        return Shift(0, sign * n, m.group(0))
    return Shift(sign * n * (7 if unit == "week" else 1), 0, m.group(0))


# a move, then the day said of it: "laptops delayed, Apple says next Tuesday now", "slipped
# again, ETA Friday" (memory.updates reads it as a change)
MOVED_THEN_SAID = (rf"{MOVE_VERBS}\w*(?:\s+again)?[,;:]?\s+(?:[@\w'’-]+\s+){{0,3}}?(?:says|said|"
                   r"now|expects?|expected|eta|estimates?|looking\s+like|more\s+like)\s+"
                   r"(?:is\s+)?(?:on\s+|for\s+)?")
# what names a thing's new day: "new target Dec 10", "new slot is Monday Dec 7"
NEW_DAY_NOUNS = (r"(?:target|date|deadline|eta|go-live|window|slot|appointment|booking|day|"
                 r"cut-?off)")
# the words before a date that a thing is moved to: "the offsite moved to Dec 10", "standup
# rescheduled for Thursday", "pushed back until Monday" (not "From Monday standup moves to 10:00":
# that day is when the change starts, no date of the thing)
# (memory.dates reads such a date as one to come; "for" and "on" are read here too)
_MOVED_TO_BEFORE = re.compile(rf"\b(?:{MOVE_VERBS}|pull|br[io]ng|brought)\w*\s+"
                              r"(?:[\w'-]+\s+){0,3}?(?:to|until|till|for|on)\s+$"
                              # or a new day set: "new target Dec 10", "new slot is Monday Dec 7"
                              rf"|\bnew\s+(?:[\w-]+\s+)?{NEW_DAY_NOUNS}\s+(?:is\s+)?(?:now\s+)?"
                              r"(?:on\s+|for\s+)?$"
                              # or the day said of it after the move
                              rf"|\b{MOVED_THEN_SAID}$|{GIVEN_UNTIL}$", re.IGNORECASE)
_GIVEN = re.compile(GIVEN_UNTIL, re.IGNORECASE)
_NEW_DAY = re.compile(rf"(?i)\bnew\s+(?:[\w-]+\s+)?{NEW_DAY_NOUNS}\b")


def moves_to(text_before: str) -> bool:
    """Whether a date written right after `text_before` is the date something is moved to."""
    return bool(_MOVED_TO_BEFORE.search(text_before))


def days_left(text: str, found: list) -> list:
    """Of the dates `found` in `text`, those written before a date the same sentence moves a thing
    to: the day it leaves ("Saturday's match vs Riverside is moved to Sunday Dec 6": Saturday)."""
    targets = [f for f in found if moves_to(text[:f.start])]
    return [f for f in found if any(f.end <= t.start and _one_sentence(text, f.end, t.start)
                                    for t in targets)]


def _one_sentence(text: str, start: int, end: int) -> bool:
    """No sentence ends between, or the next opens with the move itself, no subject of its own:
    "game vs Eagles this Saturday 9am is cancelled, field flooded. rescheduled to Jan 9"."""
    ends = [m.end() for m in _SENTENCE_END.finditer(text, start, end)]
    if not ends:
        return True
    opening = ends[-1] + len(text[ends[-1]:end]) - len(text[ends[-1]:end].lstrip())
    return bool(_MOVE.match(text, opening))


_SENTENCE_END = re.compile(r"[.;!?](?:\s|$)")


# a move to a date the change states ("the offsite moved to Dec 10", "standup rescheduled for
# Thursday"; not "pushed the fix, deploying Friday"); a cancellation is no move
_MOVE = re.compile(r"\b(?:mov(?:e|es|ed|ing)|postpon\w*|reschedul\w*|delay\w*|slip\w*|"
                   # ("Upgrade pushed to Dec 15, same time.")
                   r"shift(?:s|ed|ing)?|push(?:ed|es|ing)? (?:back|out|to)|"
                   # "deadline extended to Nov 27"
                   r"extend(?:s|ed|ing)?)\b", re.IGNORECASE)
_FROM_TO = re.compile(r"(?i)^from\s.+?\s(?:to|until|till)\s(?P<to>.+)$")
# what says a thing will not happen (memory.updates reads it as a change too)
CANCEL_WORDS = (r"cancel(?:s|led|ed|ling|ing)?|call(?:s|ed|ing)? off|scrap(?:s|ped|ping)?|"
                r"not happening")
CANCELLED = re.compile(rf"\b(?:{CANCEL_WORDS})\b", re.IGNORECASE)  # a plan called off


def moved_date(change_text: str, before: ResolvedDate | None,
               stated: ResolvedDate | None = None) -> ResolvedDate | None:
    """The date a thing dated `before` has after `change_text` moved it: `before` moved by the
    shift it says ("pushed a week"), else the date the change states (`stated`, resolved at
    ingest: "the offsite moved to Dec 10"); None when it moves nothing."""
    if CANCELLED.search(change_text):
        return None
    shift = shift_in(change_text)
    if shift is not None and before is not None:
        # the shift, not a date it states: "rollout slips a week, dual-write starts Dec 8" moves
        # the flag flip of the same rollout from Dec 14 to Dec 21
        return shift.apply(before)
    return stated if stated is not None and (shift is not None or _MOVE.search(change_text)
                                             or _NEW_DAY.search(change_text)
                                             or _GIVEN.search(change_text)) else None


def date_moved_to(text: str, said_at: datetime, before: ResolvedDate | None
                  ) -> ResolvedDate | None:
    """The date a change (`text`, said at `said_at`) says a thing is moved to ("standup moved
    from Tuesday to Thursday"), not the one before it, nor the day a change starts ("From Monday
    standup moves to 10:00")."""
    for found in reversed(find_dates(text, said_at)):
        day = found.date
        ranged = _FROM_TO.match(day.phrase)
        if ranged and day.granularity == "day" and _MOVE.search(text, 0, found.start):
            # "moved from Tuesday to Thursday" is read as one span: its end is where it went
            day = ResolvedDate(ranged["to"], day.end, day.end, "day")
        elif not moves_to(text[:found.start]):
            continue
        if before is None or (day.start, day.end) != (before.start, before.end):
            return day
    return None


def after_change(change_text: str, said_at: datetime, before: ResolvedDate | None,
                 restates: bool = False) -> ResolvedDate | None:
    """`before` as the change said at `said_at` leaves it (moved by its shift, or to the date it
    moves the thing to), or None when the change moves no date. A change that `restates` the
    thing (an "Update: …", a "Correction: actually it's Dec 10 now (to priya's "… Dec 3.")")
    gives the first date of its own words that is not `before`."""
    moved = moved_date(ANNOTATED.sub("", change_text), before,
                       date_moved_to(change_text, said_at, before))
    if moved is not None or not restates or CANCELLED.search(change_text):
        return moved
    own = change_text.split(' (to ', 1)[0]  # not the words it quotes of what it corrects
    return next((f.date for f in find_dates(own, said_at)
                 if before is None or (f.date.start, f.date.end) != (before.start, before.end)),
                None)
