"""The next day of a schedule: "Design sync is every other Thursday at 15:00, next one Nov 12",
asked "when is the next design sync?" on 26 Nov, is today, not 12 November.

A schedule's next day is date arithmetic, done here and never by a model: a weekday every week
("every Thursday", "on Tuesdays"), every other week ("every other Thursday", "biweekly on
Thursday", "every two weeks on Thursday": which weeks only a date of the schedule says, so
without one there is no answer), every weekday, or every day.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta

_DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_DAY = r"(mon|tues|wednes|thurs|fri|satur|sun)day"  # the one group of each pattern below
_EVERY_OTHER = re.compile(r"(?i)\b(?:every other|every second|every (?:2|two) weeks? on|"
                          rf"(?:bi-?weekly|fortnightly) on)\s+(?:a\s+)?{_DAY}\b")
_EVERY = [re.compile(rf"(?i)\b(?:every|each)\s+{_DAY}\b"),  # "every Thursday"
          re.compile(rf"(?i)\b(?:on\s+)?{_DAY}s\b")]  # "1:1s are on Tuesdays"
# several days of each week: "deliveries on Tuesdays and Fridays", "office days are Tue/Thu"
_ABBR = r"(mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)"
_DAY_LISTED = rf"{_ABBR}(?:day)?s?\.?"
_SEVERAL = re.compile(rf"(?i)\b(?:every\s+|each\s+|on\s+)?{_DAY_LISTED}(?:\s*/\s*{_DAY_LISTED})+\b"
                      rf"|\b(?:every\s+|each\s+|on\s+)?{_DAY}s?(?:\s*,\s*{_DAY}s?)*"
                      rf"\s*(?:,\s*)?(?:and|&)\s+{_DAY}s?\b")
_LISTED_DAY = re.compile(rf"(?i){_ABBR}")
_WEEKDAYS = re.compile(r"(?i)\b(?:every (?:weekday|business day|working day|work day)|"
                       r"(?:on )?weekdays|mon(?:day)?\s*(?:-|\u2013|to|through)\s*fri(?:day)?)\b")
_COUNTED = re.compile(r"(?i)\b(?:\d+|two|three|four|five|few|several|couple of|some|those|these|"
                      r"the|last|past|next|both)\s+$")
_DAILY = re.compile(r"(?i)\b(?:every day|daily|each day)\b")


@dataclass(frozen=True)
class Schedule:
    phrase: str  # as written: "every other Thursday"
    weekday: int | None  # 0 = Monday; None: every weekday or every day
    weeks: int  # 1 or 2
    weekdays_only: bool = False
    also: tuple[int, ...] = ()  # more days of each week: "on Tuesdays and Fridays"


def schedule_in(text: str) -> Schedule | None:
    """The schedule `text` says, or None."""
    if m := _EVERY_OTHER.search(text):
        return Schedule(m.group(0).strip(), _weekday(m.group(1)), 2)
    for m in _SEVERAL.finditer(text):
        said = m.group(0)
        # (a list of days is a schedule when the days are many of each week, "every", or
        # slashed: "Tuesday and Friday" alone are this week's)
        if not ("/" in said or re.search(r"(?i)\bevery|\beach|days\b", said)) \
                or _COUNTED.search(text, 0, m.start()):
            continue
        days = list(dict.fromkeys(_weekday(d) for d in _LISTED_DAY.findall(
            re.sub(r"(?i)\b(?:every|each|on|and)\b", " ", said))))
        if len(days) > 1:
            return Schedule(said.strip(), days[0], 1, also=tuple(days[1:]))
    for pattern in _EVERY:
        for m in pattern.finditer(text):
            if not _COUNTED.search(text, 0, m.start()):  # "two Fridays off" is no schedule
                return Schedule(m.group(0).strip(), _weekday(m.group(1)), 1)
    if m := _WEEKDAYS.search(text):
        return Schedule(m.group(0).strip(), None, 1, weekdays_only=True)
    if m := _DAILY.search(text):
        return Schedule(m.group(0).strip(), None, 1)
    return None


def _weekday(stem: str) -> int:
    return next(i for i, d in enumerate(_DAYS) if d.startswith(stem.lower()[:3]))


def next_day(schedule: Schedule, today: date, known: list[date] = ()) -> date | None:
    """The schedule's first day on or after `today`; `known`: days of it that were said (an
    every-other-week schedule needs one of its weekday to know which weeks)."""
    if schedule.weekday is None:
        day = today
        while schedule.weekdays_only and day.weekday() >= 5:
            day += timedelta(days=1)
        return day
    day = today + timedelta(days=min((w - today.weekday()) % 7
                                     for w in (schedule.weekday, *schedule.also)))
    if schedule.weeks == 1:
        return day
    anchor = next((d for d in known if d.weekday() == schedule.weekday), None)
    if anchor is None:
        return None  # every other Thursday, but which: no date of it was said
    return day if (day - anchor).days % 14 == 0 else day + timedelta(days=7)
