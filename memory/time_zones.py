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
from types import MappingProxyType
from zoneinfo import ZoneInfo, available_timezones

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
# places people name a zone by where their colleagues are ("what time is standup for the
# Bangalore folks?", "9:30 Berlin time"): the IANA database's own cities (its last part, "New_York"
# read "new york"), and the cities and countries teams say that it names by another city
_NOT_PLACES = {"north", "south", "east", "west", "center", "act", "nsw", "lhi", "oral", "knox",
               "knox in", "easter", "christmas", "canary", "universal", "zulu", "general"}
_REGIONS = {"Africa", "America", "Asia", "Atlantic", "Australia", "Europe", "Indian", "Pacific"}
_SAID_FOR = {
    "sf": "America/Los_Angeles", "san francisco": "America/Los_Angeles",
    "bay area": "America/Los_Angeles", "seattle": "America/Los_Angeles",
    "nyc": "America/New_York", "boston": "America/New_York", "atlanta": "America/New_York",
    "miami": "America/New_York", "austin": "America/Chicago", "dallas": "America/Chicago",
    "bangalore": "Asia/Kolkata", "bengaluru": "Asia/Kolkata", "mumbai": "Asia/Kolkata",
    "delhi": "Asia/Kolkata", "hyderabad": "Asia/Kolkata", "pune": "Asia/Kolkata",
    "chennai": "Asia/Kolkata", "india": "Asia/Kolkata", "munich": "Europe/Berlin",
    "frankfurt": "Europe/Berlin", "hamburg": "Europe/Berlin", "germany": "Europe/Berlin",
    "france": "Europe/Paris", "spain": "Europe/Madrid", "barcelona": "Europe/Madrid",
    "milan": "Europe/Rome", "italy": "Europe/Rome", "netherlands": "Europe/Amsterdam",
    "manchester": "Europe/London", "edinburgh": "Europe/London", "ireland": "Europe/Dublin",
    "poland": "Europe/Warsaw", "krakow": "Europe/Warsaw", "tel aviv": "Asia/Jerusalem",
    "israel": "Asia/Jerusalem", "beijing": "Asia/Shanghai", "shenzhen": "Asia/Shanghai",
    "osaka": "Asia/Tokyo", "japan": "Asia/Tokyo", "korea": "Asia/Seoul",
    "philippines": "Asia/Manila", "uae": "Asia/Dubai", "kenya": "Africa/Nairobi",
    "nigeria": "Africa/Lagos", "ukraine": "Europe/Kyiv",
}


def _places() -> MappingProxyType:
    found = {}
    for key in sorted(available_timezones()):
        parts = key.split("/")
        if len(parts) > 1 and parts[0] in _REGIONS:
            found.setdefault(parts[-1].replace("_", " ").lower(), key)
    for name in _NOT_PLACES:
        found.pop(name, None)
    return MappingProxyType({**found, **_SAID_FOR})


PLACES = _places()  # immutable: read by every thread
_ZONE = "|".join(sorted((z for z in ZONES if len(z) > 1), key=len, reverse=True))
_PLACE = "|".join(re.escape(p).replace(r"\ ", r"\s+")
                  for p in sorted(PLACES, key=len, reverse=True))
# "9:30 CET", "3pm PT", "15:00 UTC", "10 a.m. ET", "9:30 Berlin time" (an hour alone needs its
# am/pm: "at 3 PT" is no time one can trust; a place without "time" may be where it is)
_CLOCK = re.compile(rf"(?i)(?<![\w:.])(?P<h>[01]?\d|2[0-3])(?:(?::|\.)(?P<m>[0-5]\d))?\s*"
                    rf"(?P<ampm>[ap]\.?m\.?)?\s+(?:(?P<zone>{_ZONE})|(?P<place>{_PLACE})\s+time)\b")
_ASKS_IN = re.compile(rf"(?i)\b(?:what\s+time|when)\b[^?]*?\b(?:in|for)\s+(?P<zone>{_ZONE})\b")
# a place asks for its time only with "what time" or "… time" ("when is the offsite in Lisbon?"
# asks where, not in which zone)
_ASKS_AT = re.compile(rf"(?i)\bwhat\s+time\b[^?]*?\b(?:in|for)\s+(?:the\s+)?"
                      rf"(?P<place>{_PLACE})\b(?!-)|\b(?:what\s+time|when)\b[^?]*?"
                      rf"\b(?:in\s+)?(?P<timed>{_PLACE})\s+time\b|\bwhat\s+time\b[^?]*?"
                      rf"\b(?P<team>{_PLACE})\s+(?:team|folks|office|people|crew)\b")


def asked_zone(question: str) -> str | None:
    """The zone "what time is standup in PT?" asks its answer in (as written; a place with
    capitals: "Bangalore"), or None."""
    found = _ASKS_IN.search(question)
    if found:
        return found["zone"]
    found = _ASKS_AT.search(question)
    if found:
        place = " ".join((found["place"] or found["timed"] or found["team"]).split())
        if place == place.lower():  # written lower-case: "sf" reads "SF", "bangalore" "Bangalore"
            place = place.upper() if len(place) <= 3 else place.title()
        return place
    return None


def _zone_of(written: str) -> ZoneInfo:
    key = " ".join(written.lower().split())
    return ZoneInfo(ZONES.get(key) or PLACES[key])


def _label(written: str) -> str:
    """"PT" stays "PT"; a place reads "Bangalore time"."""
    return written if written.lower() in ZONES else f"{written} time"


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
                        tzinfo=_zone_of(found["zone"] or found["place"]))
        there = said.astimezone(_zone_of(zone))
        day = "" if there.date() == on else \
            f" on {WEEKDAYS[there.weekday()].capitalize()} {format_human(there.date())}"
        return f"{there:%H:%M} {_label(zone)}{day} ({' '.join(found.group(0).split())})"
    return None
