"""The next day of a schedule, computed (memory.recurrence)."""
from __future__ import annotations

from datetime import date

import pytest

from memory.recurrence import next_day, schedule_in

THU_26 = date(2026, 11, 26)


@pytest.mark.parametrize("text, known, expected", [
    # every other Thursday from the 12th: the 26th is one of its days (today)
    ("Design sync is every other Thursday at 15:00, next one Nov 12", [date(2026, 11, 12)],
     THU_26),
    # from the 19th, the 26th is not: the next is 3 December
    ("Design sync is every other Thursday at 15:00", [date(2026, 11, 19)], date(2026, 12, 3)),
    ("biweekly on Monday, starting Nov 16", [date(2026, 11, 16)], date(2026, 11, 30)),
    ("1:1s with new hires are on Tuesdays at 11:00", [], date(2026, 12, 1)),
    ("every Friday we demo what shipped", [], date(2026, 11, 27)),
    ("Standup is at 9:30 CET every weekday", [], THU_26),
    ("backups run daily at 2am", [], THU_26),
    # several days of each week: the nearest of them ("deliveries Tue/Fri" was the Tuesday)
    ("fish deliveries on Tuesdays and Fridays", [], date(2026, 11, 27)),
    ("fish now comes from Harbor Catch, deliveries Tue/Fri", [], date(2026, 11, 27)),
    ("office days are Tue/Thu", [], THU_26),
    ("gym Mon/Wed/Fri at 7", [], date(2026, 11, 27)),
    ("every Monday, Wednesday and Friday we sync", [], date(2026, 11, 27)),
])
def test_the_next_day_of_a_schedule(text, known, expected):
    schedule = schedule_in(text)
    assert schedule is not None and next_day(schedule, THU_26, known) == expected


def test_every_weekday_skips_the_weekend_and_every_other_week_needs_one_of_its_days():
    assert next_day(schedule_in("standup every weekday"), date(2026, 11, 28)) == date(2026, 11, 30)
    # which weeks is unknown: no answer rather than a guess
    assert next_day(schedule_in("design sync is every other Thursday"), THU_26, []) is None


@pytest.mark.parametrize("text", [
    "We had two Fridays off in a row", "the last Mondays of the quarter were slow",
    "Thursday works for me", "the design sync went well",
    # two days of this week, no schedule
    "standup Monday and Friday this week", "we met Tuesday and Friday",
])
def test_no_schedule(text):
    assert schedule_in(text) is None
