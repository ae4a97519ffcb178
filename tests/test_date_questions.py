"""memory.date_questions: which arithmetic a question asks, and the value computed from the
dates of its ends (written in the question, or an event the caller dates)."""
from __future__ import annotations

from datetime import date, datetime, timezone

import pytest

from memory.date_questions import (DateQuestion, Dated, compute, compute_for_question,
                                   parse_date_question)
from memory.dates import ResolvedDate
from memory.models import ComputedDate

SUN = datetime(2026, 11, 22, 18, 0, tzinfo=timezone.utc)  # a Sunday


@pytest.mark.parametrize("question,kind,a,b,unit", [
    ("How many days between the Postgres migration and the launch review?", "between",
     "the Postgres migration", "the launch review", "days"),
    ("how many weeks passed between the beta launch and the GA release", "between",
     "the beta launch", "the GA release", "weeks"),
    ("How long was it between Maya's promotion and her move to Berlin?", "between",
     "Maya's promotion", "her move to Berlin", "days"),
    ("How many days from the outage to the postmortem?", "between", "the outage",
     "the postmortem", "days"),
    ("How far apart were the two outages and the audit?", "between", "the two outages",
     "the audit", "days"),
    ("How many days after the Postgres migration is the launch review?", "after",
     "the Postgres migration", "the launch review", "days"),
    ("How long after the launch did the first outage happen?", "after", "the launch",
     "the first outage", "days"),
    ("How many weeks before the launch was the security review?", "after",
     "the security review", "the launch", "weeks"),
    ("How long ago was the Postgres migration?", "ago", "the Postgres migration", None, "days"),
    ("how many months ago did we sign with Acme?", "ago", "we sign with Acme", None, "months"),
    ("How long has it been since the last outage?", "ago", "the last outage", None, "days"),
    ("How many days until the launch review?", "until", "the launch review", None, "days"),
    ("how many days are left until the offsite", "until", "the offsite", None, "days"),
    ("How soon is the board meeting?", "until", "the board meeting", None, "days"),
    ("What date is two weeks after the Postgres migration?", "offset",
     "the Postgres migration", None, "weeks"),
    ("What's the date 3 days before the launch?", None, None, None, None),
    ("what date is 3 days before the launch?", "offset", "the launch", None, "days"),
    ("Which came first, the launch review or the Postgres migration?", "order",
     "the launch review", "the Postgres migration", "days"),
    ("Did the audit happen before the launch?", "order", "the audit", "the launch", "days"),
    ("When is the launch review?", None, None, None, None),
    ("What is the difference between Redis and Memcached?", None, None, None, None),
    ("How long is the drive from Oslo to Bergen?", None, None, None, None),
    ("How many tickets between the launch and the retro?", None, None, None, None),
    ("how long did the outage last?", None, None, None, None),
    # a state asked is no order of two events ("is the office open after Christmas?" was
    # answered "same day: the office open and Christmas on 25 December 2026")
    ("is the office open after Christmas?", None, None, None, None),
    ("is raj out after the offsite?", None, None, None, None),
    ("Is the launch before the freeze?", "order", "the launch", "the freeze", "days"),
])
def test_parse_date_question(question, kind, a, b, unit):
    q = parse_date_question(question)
    if kind is None:
        assert q is None
    else:
        assert (q.kind, q.a, q.b, q.unit) == (kind, a, b, unit)


def day(y, m, d, phrase="x") -> ResolvedDate:
    return ResolvedDate(phrase, date(y, m, d), date(y, m, d), "day")


EVENTS = {"the Postgres migration": day(2026, 5, 5), "the launch review": day(2026, 6, 3),
          "the kickoff": day(2027, 1, 5)}


def dater(phrase: str) -> Dated:
    if phrase == "the offsite":
        return Dated(phrase, None, mentioned=date(2026, 5, 12))
    if phrase == "Q3 planning":
        return Dated(phrase, ResolvedDate("Q3", date(2026, 7, 1), date(2026, 9, 30), "quarter"))
    if phrase == "the pricing refresh":  # "lands mid-December"
        return Dated(phrase, ResolvedDate("mid-December", date(2026, 12, 11), date(2026, 12, 20),
                                          "day"))
    if phrase == "the hackathon":  # "the week after next", said on 4 November
        return Dated(phrase, ResolvedDate("the week after next", date(2026, 11, 16),
                                          date(2026, 11, 22), "week"))
    return Dated(phrase, EVENTS.get(phrase))


@pytest.mark.parametrize("question,value,detail", [
    ("How many days between the Postgres migration and the launch review?", "29 days",
     "from 5 May 2026 (the Postgres migration) to 3 June 2026 (the launch review)"),
    ("How many days between the launch review and the Postgres migration?", "29 days",
     "from 5 May 2026 (the Postgres migration) to 3 June 2026 (the launch review)"),
    ("How many days after the Postgres migration is the launch review?", "29 days",
     "from 5 May 2026 (the Postgres migration) to 3 June 2026 (the launch review)"),
    ("How many days after the launch review is the Postgres migration?", "29 days before, not after",
     "5 May 2026 (the Postgres migration) came before 3 June 2026 (the launch review)"),
    ("How many weeks between the Postgres migration and the launch review?",
     "4 weeks and 1 day (29 days)",
     "from 5 May 2026 (the Postgres migration) to 3 June 2026 (the launch review)"),
    ("How long ago was the Postgres migration?", "201 days",
     "from 5 May 2026 (the Postgres migration) to 22 November 2026 (today)"),
    ("How many days until the kickoff?", "44 days",
     "from 22 November 2026 (today) to 5 January 2027 (the kickoff)"),
    ("How many days until the launch review?", "already past: 172 days ago",
     "from 22 November 2026 (today) to 3 June 2026 (the launch review)"),
    ("What date is two weeks after the Postgres migration?", "19 May 2026",
     "5 May 2026 (the Postgres migration) + 2 weeks"),
    ("What date is 1 month before the kickoff?", "5 December 2026",
     "5 January 2027 (the kickoff) - 1 months"),
    ("Which came first, the launch review or the Postgres migration?",
     "the Postgres migration came first",
     "5 May 2026 (the Postgres migration) before 3 June 2026 (the launch review)"),
    ("How many days between the Postgres migration and the offsite?", "not computed",
     "no date for the offsite in memory, only that it was mentioned on 12 May 2026"),
    ("How many days between the retro and the offsite?", "not computed",
     "no date for the retro in memory; no date for the offsite in memory, only that it was "
     "mentioned on 12 May 2026"),
    ("How many days until Q3 planning?", "not computed", "Q3 planning is dated only to Q3 2026"),
    # a span of days is counted to its first and last day; one that holds today is today
    ("How many days until the pricing refresh?", "19 days to 28 days",
     "from 22 November 2026 (today) to 11 December 2026 to 20 December 2026 (the pricing "
     "refresh)"),
    ("How many days until the hackathon?", "0 days: today is within it",
     "22 November 2026 (today) is in the week of 16 November 2026 (the hackathon)"),
    ("How long ago was the pricing refresh?", "not computed",
     "the pricing refresh is dated only to 11 December 2026 to 20 December 2026"),
    ("How many days between yesterday and the kickoff?", "45 days",
     "from 21 November 2026 (yesterday) to 5 January 2027 (the kickoff)"),
    ("How many days between 1 May 2023 and 13 May 2023?", "12 days",
     "from 1 May 2023 to 13 May 2023"),
    ("How many days are there from 28 February 2024 until 1 March 2024?", "2 days",
     "from 28 February 2024 to 1 March 2024"),
    ("How many months between 31 January 2026 and 15 April 2026?",
     "2 months and 15 days (74 days)", "from 31 January 2026 to 15 April 2026"),
    ("How many years since 8 May 2023?", "3 years, 6 months and 14 days (1294 days)",
     "from 8 May 2023 to 22 November 2026 (today)"),
])
def test_compute(question, value, detail):
    q = parse_date_question(question)
    fact = compute(q, SUN.date(), dater)
    assert (fact.value, fact.detail) == (value, detail)
    assert fact.expression == q.expression


def test_compute_for_question_resolves_the_questions_own_dates_first():
    got = compute_for_question("How many days between yesterday and 1 November 2026?", SUN)
    assert got == [
        ComputedDate(expression="yesterday", value="2026-11-21", detail="a Saturday, 1 day before 2026-11-22"),
        ComputedDate(expression="How many days between yesterday and 1 November 2026",
                     value="20 days", detail="from 1 November 2026 to 21 November 2026 (yesterday)"),
    ]


def test_without_a_dater_events_are_undated_never_guessed():
    got = compute_for_question("how many days until the offsite?", SUN)
    assert got == [ComputedDate(expression="how many days until the offsite",
                                value="not computed", detail="no date for the offsite in memory")]


def test_the_mention_date_is_never_an_event_date():
    """The issue's bug: the review mentioned on 12 May, scheduled for 3 June. Given only the
    mention, nothing is computed."""
    q = DateQuestion("between", "between A and B", "the Postgres migration", "the launch review")
    fact = compute(q, SUN.date(), lambda p: Dated(p, EVENTS[p]) if p != "the launch review"
                   else Dated(p, None, mentioned=date(2026, 5, 12)))
    assert fact.value == "not computed" and "7 days" not in fact.detail
