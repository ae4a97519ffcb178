"""A clock time said with its zone, read in the zone a question names.

"what time is standup in PT?" after "daily standup is at 9:30 CET": a distributed team asks it
daily, and the answer is arithmetic, done here (never by a model): 9:30 in Berlin on the day asked
is 00:30 in Los Angeles. A zone is read as people write it, the place's civil time (a "PST" in
July is the Pacific time of July), through the IANA database (`zoneinfo`; the `tzdata` package
ships it where the system has none).
"""
from __future__ import annotations

import re
from datetime import date, datetime
from zoneinfo import ZoneInfo

from .dates import WEEKDAYS, format_human

# the abbreviations teams write, each the place whose civil time it names
ZONES = {
    "utc": "UTC", "gmt": "UTC", "z": "UTC",
    "pt": "America/Los_Angeles", "pst": "America/Los_Angeles", "pdt": "America/Los_Angeles",
    "mt": "America/Denver", "mst": "America/Denver", "mdt": "America/Denver",
    "ct": "America/Chicago", "cst": "America/Chicago", "cdt": "America/Chicago",
    "et": "America/New_York", "est": "America/New_York", "edt": "America/New_York",
    "bst": "Europe/London", "uk": "Europe/London",
    "cet": "Europe/Berlin", "cest": "Europe/Berlin",
    "eet": "Europe/Helsinki", "eest": "Europe/Helsinki",
    "ist": "Asia/Kolkata", "sgt": "Asia/Singapore", "jst": "Asia/Tokyo",
    "aest": "Australia/Sydney", "aedt": "Australia/Sydney",
}
_ZONE = "|".join(sorted((z for z in ZONES if len(z) > 1), key=len, reverse=True))
# "9:30 CET", "3pm PT", "15:00 UTC", "10 a.m. ET" (an hour alone needs its am/pm: "at 3 PT" is
# no time one can trust)
_CLOCK = re.compile(rf"(?i)(?<![\w:.])(?P<h>[01]?\d|2[0-3])(?:(?::|\.)(?P<m>[0-5]\d))?\s*"
                    rf"(?P<ampm>[ap]\.?m\.?)?\s+(?P<zone>{_ZONE})\b")
_ASKS_IN = re.compile(rf"(?i)\b(?:what\s+time|when)\b[^?]*?\b(?:in|for)\s+(?P<zone>{_ZONE})\b")


def asked_zone(question: str) -> str | None:
    """The zone "what time is standup in PT?" asks its answer in (as written), or None."""
    found = _ASKS_IN.search(question)
    return found["zone"] if found else None


def clock_in(text: str, on: date, zone: str) -> str | None:
    """The first clock time with a zone in `text`, on the day `on`, read in `zone`: "00:30 PT
    (9:30 CET)", with the day where it falls on another; None when `text` holds none."""
    for found in _CLOCK.finditer(text):
        if not (found["m"] or found["ampm"]):
            continue
        hour, minute = int(found["h"]), int(found["m"] or 0)
        ampm = (found["ampm"] or "").replace(".", "").lower()
        if ampm and not 1 <= hour <= 12:
            continue
        if ampm:
            hour = hour % 12 + (12 if ampm == "pm" else 0)
        said = datetime(on.year, on.month, on.day, hour, minute,
                        tzinfo=ZoneInfo(ZONES[found["zone"].lower()]))
        there = said.astimezone(ZoneInfo(ZONES[zone.lower()]))
        day = "" if there.date() == on else \
            f" on {WEEKDAYS[there.weekday()].capitalize()} {format_human(there.date())}"
        return f"{there:%H:%M} {zone}{day} ({found.group(0).strip()})"
    return None
