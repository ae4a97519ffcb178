"""The span of time a question names, and which records belong to it (memory/time_scope.py)."""
from __future__ import annotations

from datetime import date, datetime, timezone

import pytest

from memory.models import EventDate, Memory, Message
from memory.time_scope import asked_span, in_span, in_span_first

MONDAY = datetime(2026, 11, 23, 12, 0, tzinfo=timezone.utc)


@pytest.mark.parametrize("question, first, last", [
    ("what happened last Friday?", date(2026, 11, 20), date(2026, 11, 20)),
    ("What did we roll back on Friday?", date(2026, 11, 20), date(2026, 11, 20)),
    ("what did we ship last week?", date(2026, 11, 16), date(2026, 11, 22)),
    ("What did Maria share on 16 June, 2023?", date(2023, 6, 16), date(2023, 6, 16)),
    ("what did we decide in October?", date(2026, 10, 1), date(2026, 10, 31)),
    ("what's planned for next week?", date(2026, 11, 30), date(2026, 12, 6)),
    ("what happened on Friday, November 20th?", date(2026, 11, 20), date(2026, 11, 20)),
    # a bound elsewhere in the question is not one on its date
    ("Before the launch, what happened last Friday?", date(2026, 11, 20), date(2026, 11, 20)),
    # nothing dated, asked what lies ahead: the next four weeks
    ("what's coming up?", date(2026, 11, 23), date(2026, 12, 21)),
    ("Anything planned?", date(2026, 11, 23), date(2026, 12, 21)),
    ("what's on the calendar for the team?", date(2026, 11, 23), date(2026, 12, 21)),
    ("what meetings are coming up?", date(2026, 11, 23), date(2026, 12, 21)),
    # the week before a date is a week, counted from it (it was a bound, then no span; LoCoMo
    # dev: "Where was Tim in the week before 16 November 2023?" declined, now answered)
    ("what did John do the week before August 3, 2023?", date(2023, 7, 24), date(2023, 7, 30)),
    ("any launches planned?", date(2026, 11, 23), date(2026, 12, 21)),
])
def test_the_one_span_a_question_names(question, first, last):
    span = asked_span(question, MONDAY)
    assert span is not None and (span.start, span.end) == (first, last)


@pytest.mark.parametrize("question", [
    "when did we ship the billing webhooks?",  # asks for a date
    "how many days until the launch review?",  # date arithmetic: memory.date_questions
    "How many tournaments has Nate won by July 10, 2022?",  # a bound, not a span
    "what did we ship since Monday?",
    "what happened in 2023?",  # a year is most of a profile
    "what changed between Monday and Friday last week?",  # two dates
    "what happened last Friday the 13th?",  # two different days
    "what is the rate limit?",
    "what's coming up for the billing migration?",  # a subject: not all that lies ahead
    "what did Caroline plan?",
])
def test_no_span(question):
    assert asked_span(question, MONDAY) is None


def _memory(content: str, said: datetime, *events: tuple) -> Memory:
    """events: (start, end) days, or (start, end, granularity)."""
    return Memory(id=content[:8], type="event", content=content, created_at=said, event_time=said,
                  event_dates=[EventDate(start=e[0], end=e[1], granularity=e[2] if len(e) > 2
                                         else "day") for e in events])


def test_a_record_belongs_to_the_span_it_was_said_in_or_is_about():
    friday = asked_span("what happened last Friday?", MONDAY)
    said_friday = datetime(2026, 11, 20, 16, 0, tzinfo=timezone.utc)
    said_tuesday = datetime(2026, 11, 17, 9, 0, tzinfo=timezone.utc)
    assert in_span(_memory("rolled back search today", said_friday,
                           (date(2026, 11, 20), date(2026, 11, 20))), friday)
    # said on Tuesday about the Friday before: not last Friday's
    assert not in_span(_memory("the deploy went out last Friday", said_tuesday,
                               (date(2026, 11, 13), date(2026, 11, 13))), friday)
    # said on Tuesday about this coming Friday: it is about last Friday now
    assert in_span(_memory("the demo is on Friday", said_tuesday,
                           (date(2026, 11, 20), date(2026, 11, 20))), friday)
    # a raw message: its local day (23:30 on Thursday in Seattle is Friday in UTC)
    late = Message(id="m1", session_id="s", role="user", content="migrated the db",
                   ts=datetime(2026, 11, 20, 7, 30, tzinfo=timezone.utc), utc_offset_minutes=-480)
    assert not in_span(late, friday)
    # or a date it names, resolved against the day it was said
    plan = Message(id="m2", session_id="s", role="user", content="the demo is on Friday",
                   ts=said_tuesday)
    assert in_span(plan, friday)
    # a date wider than the span is not about it: "who's on call this week?" is not last
    # Friday's, though its week holds it; a day is about its week
    week = (date(2026, 11, 16), date(2026, 11, 22), "week")
    on_call = _memory("who's on call this week? tom.", said_tuesday, week)
    assert not in_span(on_call, friday)
    assert in_span(on_call, asked_span("what happened last week?", MONDAY))
    assert in_span(_memory("the demo is on Friday", said_tuesday,
                           (date(2026, 11, 20), date(2026, 11, 20))),
                   asked_span("what happened last week?", MONDAY))


def test_a_range_of_days_someone_named_is_about_each_of_its_days():
    """"deploy freeze from tomorrow until Monday" (said Wednesday 25 Nov) is about Saturday;
    a week that holds Saturday is not ("who's on call this week?"), nor is a range that ends
    before it."""
    said = datetime(2026, 11, 25, 17, 30, tzinfo=timezone.utc)
    saturday = asked_span("is there a deploy freeze on Saturday?", said)
    assert (saturday.start, saturday.end) == (date(2026, 11, 28), date(2026, 11, 28))
    freeze = _memory("deploy freeze from tomorrow until Monday", said,
                     (date(2026, 11, 26), date(2026, 11, 30)))
    assert in_span(freeze, saturday)
    assert not in_span(_memory("on call this week: tom", said,
                               (date(2026, 11, 23), date(2026, 11, 29), "week")), saturday)
    assert not in_span(_memory("freeze from Monday until Wednesday", said,
                               (date(2026, 11, 23), date(2026, 11, 25))), saturday)
    # a raw message's range, resolved against the day it was said
    message = Message(id="m1", session_id="s", role="user", ts=said,
                      content="deploy freeze from tomorrow until Monday 9:00 UTC")
    assert in_span(message, saturday)


def test_the_spans_records_come_first_each_group_in_its_order():
    friday = asked_span("what happened last Friday?", MONDAY)
    said = [datetime(2026, 11, d, 12, 0, tzinfo=timezone.utc) for d in (17, 20, 18, 20)]
    ranked = [_memory(f"memory {i}", s) for i, s in enumerate(said)]
    assert [m.content for m in in_span_first(ranked, friday, lambda m: m)] == \
        ["memory 1", "memory 3", "memory 0", "memory 2"]
    assert in_span_first(ranked, None, lambda m: m) == ranked


def test_what_the_answer_reads_puts_a_days_own_memories_before_those_said_then_about_another():
    """"what did kim do on tuesday?": her Tuesday standup's "- yesterday: on-call" is Monday's,
    and led the answer; Wednesday's "- yesterday: disk cleanup runbook done" is Tuesday's, and
    leads: a memory dated in the span, then one said in it without a date, then one said in it
    about another day. Only what the answer reads is reordered (the ranking keeps the span's
    records together)."""
    from memory.time_scope import about_the_span_first
    tuesday = asked_span("what did kim do on tuesday?", datetime(2026, 11, 26, 10,
                                                                 tzinfo=timezone.utc))
    monday_said_tuesday = _memory("- yesterday: on-call, 2 pages", datetime(
        2026, 11, 24, 9, 35, tzinfo=timezone.utc), (date(2026, 11, 23), date(2026, 11, 23)))
    tuesday_said_wednesday = _memory("- yesterday: disk cleanup runbook done", datetime(
        2026, 11, 25, 9, 36, tzinfo=timezone.utc), (date(2026, 11, 24), date(2026, 11, 24)))
    undated_said_tuesday = _memory("pages are noisy", datetime(2026, 11, 24, 12,
                                                                tzinfo=timezone.utc))
    ranked = in_span_first([monday_said_tuesday, undated_said_tuesday, tuesday_said_wednesday],
                           tuesday, lambda m: m)
    assert ranked[0] is monday_said_tuesday
    assert about_the_span_first(ranked, tuesday, lambda m: m) == [
        tuesday_said_wednesday, undated_said_tuesday, monday_said_tuesday]
    assert about_the_span_first(ranked, None, lambda m: m) == ranked


def test_until_a_day_is_about_every_day_from_when_it_was_said():
    """"raj is on call until Sunday", said on Tuesday, answers "who's on call today?" on
    Thursday: the phrase resolves to Sunday alone, the span it states starts when it was said."""
    tuesday = datetime(2026, 11, 24, 8, 5, tzinfo=timezone.utc)
    thursday = asked_span("who is on call today?", datetime(2026, 11, 26, 10, tzinfo=timezone.utc))
    sunday = (date(2026, 11, 29), date(2026, 11, 29))
    until = _memory("raj is on call until Sunday", tuesday).model_copy(update={"event_dates": [
        EventDate(phrase="until Sunday", start=sunday[0], end=sunday[1])]})
    assert in_span(until, thursday)
    on = until.model_copy(update={"event_dates": [
        EventDate(phrase="on Sunday", start=sunday[0], end=sunday[1])]})
    assert not in_span(on, thursday)  # "the migration runs on Sunday" is not Thursday's
    message = Message(id="m3", session_id="s", role="user", content="I'm on call until Sunday",
                      ts=tuesday)
    assert in_span(message, thursday)
    # said after the day it names ("until Sunday" in a recap on Monday): only that day
    monday = datetime(2026, 11, 30, 9, tzinfo=timezone.utc)
    recap = until.model_copy(update={"created_at": monday, "event_time": monday})
    assert not in_span(recap, thursday)
