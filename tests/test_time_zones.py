"""A clock time said with its zone, read in the zone a question names (memory/time_zones.py)."""
from __future__ import annotations

from datetime import date

import pytest

from memory.time_zones import asked_zone, clock_in


@pytest.mark.parametrize("question, zone", [
    ("what time is standup in PT?", "PT"),
    ("when is the Initech call in UTC?", "UTC"),
    ("What time is the demo for CET folks?", "CET"),
    ("what time is standup?", None),
    ("when is the offsite in Lisbon?", None),
    # where colleagues are: the IANA database's cities, and those teams say it names by another
    ("what time is standup for the Bangalore folks?", "Bangalore"),
    ("what time is the release call for the london team?", "London"),
    ("what time is standup in new york?", "New York"),
    ("when is the demo in Tokyo time?", "Tokyo"),
    ("what time is standup in sf?", "SF"),
    ("what time is the demo in Davis's calendar?", None),
])
def test_the_zone_a_question_asks_in(question, zone):
    assert asked_zone(question) == zone


@pytest.mark.parametrize("text, on, zone, read", [
    # Berlin in winter is UTC+1, Los Angeles UTC-8
    ("daily standup is at 9:30 CET", date(2026, 12, 7), "PT", "00:30 PT (9:30 CET)"),
    # summer: both on daylight time (a "CET" written in July is Berlin's time of July)
    ("daily standup is at 9:30 CET", date(2026, 7, 6), "PT", "00:30 PT (9:30 CET)"),
    # the weeks Europe and America differ (US on daylight time from 8 March 2026, Europe from
    # 29 March): 9:30 in Berlin is 01:30 in Los Angeles
    ("daily standup is at 9:30 CET", date(2026, 3, 16), "PT", "01:30 PT (9:30 CET)"),
    # onto the next day, said with it
    ("release call at 3pm PT", date(2026, 12, 3), "CET",
     "00:00 CET on Friday 4 December 2026 (3pm PT)"),
    ("sync at 10 a.m. ET", date(2026, 7, 3), "UTC", "14:00 UTC (10 a.m. ET)"),
    ("cutover 15:00 UTC", date(2026, 12, 3), "IST", "20:30 IST (15:00 UTC)"),
    # an hour alone, a version, a time without its zone: nothing to read
    ("at 3 PT", date(2026, 12, 3), "CET", None),
    ("v2.3 PT build", date(2026, 12, 3), "CET", None),
    ("standup at 9:30", date(2026, 12, 3), "PT", None),
    ("13pm PT", date(2026, 12, 3), "CET", None),
    # a place with "time" is a zone; asked in a place, the answer says the place's time
    ("daily standup is at 9:30 Berlin time", date(2026, 12, 7), "Bangalore",
     "14:00 Bangalore time (9:30 Berlin time)"),
    ("release call at 3pm PT", date(2026, 12, 3), "Tokyo",
     "08:00 Tokyo time on Friday 4 December 2026 (3pm PT)"),
    ("standup 9:30 CET", date(2026, 12, 7), "NYC", "03:30 NYC time (9:30 CET)"),
    # a place without "time" may be where it is
    ("lunch at 1pm Paris office", date(2026, 12, 3), "PT", None),
])
def test_a_clock_time_read_in_another_zone(text, on, zone, read):
    assert clock_in(text, on, zone) == read
