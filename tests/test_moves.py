"""A date moved by a length of time ("pushed a week"), computed, never guessed (memory.moves)."""
from __future__ import annotations

from datetime import date

import pytest

from memory.dates import ResolvedDate
from memory.moves import moved_date, shift_in

DEC_1 = ResolvedDate("Dec 1", date(2026, 12, 1), date(2026, 12, 1), "day")


@pytest.mark.parametrize("text, days, months", [
    ("Heads up: the code freeze is pushed a week because of the checkout incident.", 7, 0),
    ("Update: rollout slips a week, dual-write starts Dec 8.", 7, 0),
    ("launch pulled in by two days", -2, 0),
    ("the demo moved up 3 days", -3, 0),
    ("GA brought forward a week", -7, 0),
    ("we moved the offsite out 2 weeks", 14, 0),
    ("the review is moved a week later", 7, 0),
    ("migration delayed by a month", 0, 1),
    ("postponed two weeks, sorry", 14, 0),
])
def test_a_shift_and_its_direction(text, days, months):
    shift = shift_in(text)
    assert shift is not None and (shift.days, shift.months) == (days, months), shift


@pytest.mark.parametrize("text", [
    "pushed to main", "we moved fast on the fix", "pull request #42 is up",
    "the week went by fast", "delayed responses from the API", "slips happen",
    "we moved fast for two days", "pushed the fix a week ago", "pushed it in a week",
    "we moved two weeks of data to S3", "bumped a 3 days old ticket",
])
def test_no_shift(text):
    assert shift_in(text) is None


def test_the_date_a_change_moves_to():
    assert moved_date("the code freeze is pushed a week", DEC_1).start == date(2026, 12, 8)
    assert moved_date("the freeze got pulled in by two days", DEC_1).start == date(2026, 11, 29)
    assert moved_date("launch slips a month", DEC_1).start == date(2027, 1, 1)
    # a span moves whole
    week = ResolvedDate("next week", date(2026, 11, 30), date(2026, 12, 6), "week")
    moved = moved_date("bug bash pushed a week", week)
    assert (moved.start, moved.end, moved.granularity) == (date(2026, 12, 7), date(2026, 12, 13),
                                                           "week")
    # the shift, not a date the change states for another step of the same plan
    dec_8 = ResolvedDate("Dec 8", date(2026, 12, 8), date(2026, 12, 8), "day")
    dec_14 = ResolvedDate("Dec 14", date(2026, 12, 14), date(2026, 12, 14), "day")
    assert moved_date("rollout slips a week, dual-write starts Dec 8", dec_14, dec_8).start \
        == date(2026, 12, 21)
    # no shift: the date a move states
    dec_10 = ResolvedDate("Dec 10", date(2026, 12, 10), date(2026, 12, 10), "day")
    assert moved_date("Correction: the offsite moved to Dec 10", DEC_1, dec_10) == dec_10
    # a cancellation, or no move at all, moves nothing
    assert moved_date("standup is cancelled, pushed a week", DEC_1) is None
    assert moved_date("pushed the fix, deploying Dec 10", DEC_1, dec_10) is None
    assert moved_date("the code freeze is pushed a week", None) is None


def test_the_date_a_change_states_is_the_one_it_moves_to():
    from datetime import datetime, timezone

    from memory.moves import after_change

    said = datetime(2026, 11, 20, 10, 0, tzinfo=timezone.utc)  # a Friday
    tuesday = ResolvedDate("Tuesday", date(2026, 11, 24), date(2026, 11, 24), "day")
    moved = after_change("standup moved from Tuesday to Thursday", said, tuesday)
    assert moved is not None and moved.start == date(2026, 11, 26)
    # the day a change starts is no date of the thing
    assert after_change("From Monday standup moves to 10:00 CET", said, tuesday) is None
    assert after_change("the code freeze is pushed a week", said, DEC_1).start == date(2026, 12, 8)


def test_an_update_or_a_correction_restates_the_date():
    from datetime import datetime, timezone

    from memory.moves import after_change

    said = datetime(2026, 11, 23, 9, 5, tzinfo=timezone.utc)
    dec_3 = ResolvedDate("Dec 3", date(2026, 12, 3), date(2026, 12, 3), "day")
    fix = "Correction: actually it's Dec 10 now (to priya's \"Launch of the mobile app is Dec 3.\")"
    assert after_change(fix, said, dec_3) is None  # not a restatement unless the caller says so
    assert after_change(fix, said, dec_3, restates=True).start == date(2026, 12, 10)
    # only its own words: the date it quotes is the one it corrects
    assert after_change("Correction: it's later now (to priya's \"Launch is Dec 5.\")", said,
                        dec_3, restates=True) is None
    assert after_change("Update: the launch is cancelled, was Dec 3", said, dec_3,
                        restates=True) is None
