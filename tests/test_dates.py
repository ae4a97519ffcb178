"""memory.dates: relative phrases, absolute dates, timestamps and question date math, all exact."""
from __future__ import annotations

from datetime import date, datetime, timedelta, timezone

import pytest

from memory.date_questions import compute_for_question
from memory.dates import (ResolvedDate, add_months, parse_label, annotate_dates, days_between,
                          describe_duration, describe_span, format_human, parse_date_text,
                          parse_timestamp)
from memory.models import ComputedDate
from tests.irc_support import irc_lines

UTC = timezone.utc
MON = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)  # a Monday
WED = datetime(2026, 11, 18, 9, 0, tzinfo=UTC)  # a Wednesday
SUN = datetime(2026, 11, 22, 18, 0, tzinfo=UTC)  # a Sunday


def at(y, m, d, hour=12):
    return datetime(y, m, d, hour, tzinfo=UTC)


def only(text, anchor):
    """The single ResolvedDate annotate finds in text."""
    _, found = annotate_dates(text, anchor)
    assert len(found) == 1, found
    return found[0]


# --- ResolvedDate.label --------------------------------------------------------------------------
@pytest.mark.parametrize("start,end,granularity,label", [
    (date(2023, 5, 7), date(2023, 5, 7), "day", "2023-05-07"),
    (date(2023, 5, 1), date(2023, 5, 7), "week", "week of 2023-05-01"),
    (date(2023, 5, 4), date(2023, 5, 4), "week", "week of 2023-05-01"),  # Thursday -> its Monday
    (date(2023, 5, 7), date(2023, 5, 7), "week", "week of 2023-05-01"),  # Sunday ends the week
    (date(2023, 5, 6), date(2023, 5, 7), "day", "weekend of 2023-05-06"),
    (date(2023, 5, 1), date(2023, 5, 31), "month", "May 2023"),
    (date(2023, 1, 1), date(2023, 12, 31), "year", "2023"),
])
def test_labels(start, end, granularity, label):
    assert ResolvedDate("x", start, end, granularity).label == label


@pytest.mark.parametrize("phrase", ["yesterday", "this week", "last week", "next weekend",
                                    "next month", "Q3", "last year", "from the 3rd to the 7th"])
def test_a_stored_label_reads_back_as_the_span_it_was_written_for(phrase):
    # a memory's event dates are read back from its labels: "this week" stored as its Monday
    # alone made "cancelled this week" about Monday, not about Thursday's review
    found = only(f"we talked about it {phrase}", MON)
    back = parse_label(found.label)
    assert (back.start, back.end, back.granularity) == (found.start, found.end, found.granularity)


def test_resolved_date_is_frozen():
    rd = ResolvedDate("today", date(2023, 5, 8), date(2023, 5, 8), "day")
    with pytest.raises(AttributeError):
        rd.start = date(2020, 1, 1)


# --- annotate_dates: one table of phrase / anchor / expected ----------------------------
@pytest.mark.parametrize("phrase,anchor,start,end,granularity", [
    # days around the anchor
    ("today", MON, date(2023, 5, 8), date(2023, 5, 8), "day"),
    ("tonight", MON, date(2023, 5, 8), date(2023, 5, 8), "day"),
    ("this morning", MON, date(2023, 5, 8), date(2023, 5, 8), "day"),
    ("this afternoon", MON, date(2023, 5, 8), date(2023, 5, 8), "day"),
    ("this evening", MON, date(2023, 5, 8), date(2023, 5, 8), "day"),
    ("yesterday", MON, date(2023, 5, 7), date(2023, 5, 7), "day"),
    ("last night", MON, date(2023, 5, 7), date(2023, 5, 7), "day"),
    ("the day before yesterday", MON, date(2023, 5, 6), date(2023, 5, 6), "day"),
    ("tomorrow", MON, date(2023, 5, 9), date(2023, 5, 9), "day"),
    ("the day after tomorrow", MON, date(2023, 5, 10), date(2023, 5, 10), "day"),
    # weekdays from a Wednesday (2026-11-18)
    ("last Monday", WED, date(2026, 11, 16), date(2026, 11, 16), "day"),
    ("last Tuesday", WED, date(2026, 11, 17), date(2026, 11, 17), "day"),
    ("last Thursday", WED, date(2026, 11, 12), date(2026, 11, 12), "day"),
    ("this past Friday", WED, date(2026, 11, 13), date(2026, 11, 13), "day"),
    ("next Thursday", WED, date(2026, 11, 19), date(2026, 11, 19), "day"),
    ("next Tuesday", WED, date(2026, 11, 24), date(2026, 11, 24), "day"),
    ("this Monday", WED, date(2026, 11, 16), date(2026, 11, 16), "day"),
    ("this Sunday", WED, date(2026, 11, 22), date(2026, 11, 22), "day"),
    # the anchor itself is that weekday: last/next are a full week away, this is the anchor
    ("last Monday", MON, date(2023, 5, 1), date(2023, 5, 1), "day"),
    ("next Monday", MON, date(2023, 5, 15), date(2023, 5, 15), "day"),
    ("this Monday", MON, date(2023, 5, 8), date(2023, 5, 8), "day"),
    ("last Sunday", SUN, date(2026, 11, 15), date(2026, 11, 15), "day"),
    ("next Sunday", SUN, date(2026, 11, 29), date(2026, 11, 29), "day"),
    ("this Sunday", SUN, date(2026, 11, 22), date(2026, 11, 22), "day"),
    ("this Monday", SUN, date(2026, 11, 16), date(2026, 11, 16), "day"),  # week runs Mon-Sun
    # "on <weekday>": on or before the anchor's date in past tense
    ("we met on Tuesday", WED, date(2026, 11, 17), date(2026, 11, 17), "day"),
    ("we met on Wednesday", WED, date(2026, 11, 18), date(2026, 11, 18), "day"),
    ("we met on Thursday", WED, date(2026, 11, 12), date(2026, 11, 12), "day"),
    # ... and strictly after it with a future marker
    ("we will meet on Tuesday", WED, date(2026, 11, 24), date(2026, 11, 24), "day"),
    ("we'll meet on Wednesday", WED, date(2026, 11, 25), date(2026, 11, 25), "day"),
    ("I'm going to call on Thursday", WED, date(2026, 11, 19), date(2026, 11, 19), "day"),
    ("gonna ship on Friday", WED, date(2026, 11, 20), date(2026, 11, 20), "day"),
    ("we plan to demo on Monday", WED, date(2026, 11, 23), date(2026, 11, 23), "day"),
    # a state asked ("is the office closed …?") is no past tense; asked in the past it is
    ("is the office closed on Jan 1?", WED, date(2027, 1, 1), date(2027, 1, 1), "day"),
    ("was the office closed on Jan 1?", WED, date(2026, 1, 1), date(2026, 1, 1), "day"),
    # calendar periods
    ("last week", WED, date(2026, 11, 9), date(2026, 11, 15), "week"),
    ("this week", WED, date(2026, 11, 16), date(2026, 11, 22), "week"),
    ("next week", WED, date(2026, 11, 23), date(2026, 11, 29), "week"),
    ("next week", SUN, date(2026, 11, 23), date(2026, 11, 29), "week"),
    ("last month", WED, date(2026, 10, 1), date(2026, 10, 31), "month"),
    ("this month", WED, date(2026, 11, 1), date(2026, 11, 30), "month"),
    ("next month", WED, date(2026, 12, 1), date(2026, 12, 31), "month"),
    ("last month", at(2024, 1, 15), date(2023, 12, 1), date(2023, 12, 31), "month"),
    ("next month", at(2023, 12, 15), date(2024, 1, 1), date(2024, 1, 31), "month"),
    ("last month", at(2024, 3, 31), date(2024, 2, 1), date(2024, 2, 29), "month"),
    ("last year", WED, date(2025, 1, 1), date(2025, 12, 31), "year"),
    ("this year", WED, date(2026, 1, 1), date(2026, 12, 31), "year"),
    ("next year", WED, date(2027, 1, 1), date(2027, 12, 31), "year"),
    # weekends: Saturday-Sunday of the previous / current / next Monday-Sunday week
    ("last weekend", MON, date(2023, 5, 6), date(2023, 5, 7), "day"),
    ("this weekend", MON, date(2023, 5, 13), date(2023, 5, 14), "day"),
    ("next weekend", MON, date(2023, 5, 20), date(2023, 5, 21), "day"),
    ("this past weekend", MON, date(2023, 5, 6), date(2023, 5, 7), "day"),
    ("this weekend", SUN, date(2026, 11, 21), date(2026, 11, 22), "day"),
    ("last weekend", SUN, date(2026, 11, 14), date(2026, 11, 15), "day"),
    # N units ago / in N units
    ("3 days ago", MON, date(2023, 5, 5), date(2023, 5, 5), "day"),
    ("one day ago", MON, date(2023, 5, 7), date(2023, 5, 7), "day"),
    ("a day ago", MON, date(2023, 5, 7), date(2023, 5, 7), "day"),
    ("twelve days ago", MON, date(2023, 4, 26), date(2023, 4, 26), "day"),
    ("a couple of days ago", MON, date(2023, 5, 6), date(2023, 5, 6), "day"),
    ("a couple days ago", MON, date(2023, 5, 6), date(2023, 5, 6), "day"),
    ("a few days ago", MON, date(2023, 5, 5), date(2023, 5, 5), "day"),
    ("2 weeks ago", MON, date(2023, 4, 24), date(2023, 4, 24), "week"),
    ("a week ago", WED, date(2026, 11, 11), date(2026, 11, 11), "week"),
    ("three weeks ago", SUN, date(2026, 11, 1), date(2026, 11, 1), "week"),
    ("2 months ago", MON, date(2023, 3, 1), date(2023, 3, 31), "month"),
    ("a month ago", at(2024, 3, 31), date(2024, 2, 1), date(2024, 2, 29), "month"),
    ("11 months ago", MON, date(2022, 6, 1), date(2022, 6, 30), "month"),
    ("a year ago", MON, date(2022, 1, 1), date(2022, 12, 31), "year"),
    ("five years ago", MON, date(2018, 1, 1), date(2018, 12, 31), "year"),
    ("in 2 days", MON, date(2023, 5, 10), date(2023, 5, 10), "day"),
    ("in a week", MON, date(2023, 5, 15), date(2023, 5, 15), "week"),
    ("in 3 months", at(2023, 11, 30), date(2024, 2, 1), date(2024, 2, 29), "month"),
    ("in two years", MON, date(2025, 1, 1), date(2025, 12, 31), "year"),
    ("5 days from now", MON, date(2023, 5, 13), date(2023, 5, 13), "day"),
    ("in 1 day", at(2023, 12, 31), date(2024, 1, 1), date(2024, 1, 1), "day"),
    # leap years
    ("yesterday", at(2024, 3, 1), date(2024, 2, 29), date(2024, 2, 29), "day"),
    ("yesterday", at(2023, 3, 1), date(2023, 2, 28), date(2023, 2, 28), "day"),
    ("tomorrow", at(2024, 2, 28), date(2024, 2, 29), date(2024, 2, 29), "day"),
    ("a year ago", at(2024, 2, 29), date(2023, 1, 1), date(2023, 12, 31), "year"),
])
def test_resolution_table(phrase, anchor, start, end, granularity):
    rd = only(phrase, anchor)
    assert (rd.start, rd.end, rd.granularity) == (start, end, granularity)


def test_anchor_date_is_taken_in_the_anchors_own_timezone():
    late = datetime(2023, 5, 8, 23, 30, tzinfo=timezone(timedelta(hours=-5)))
    assert only("yesterday", late).start == date(2023, 5, 7)


@pytest.mark.parametrize("text,anchor,expected", [
    ("I went there yesterday", MON, "I went there yesterday [2023-05-07]"),
    ("We shipped it 3 weeks ago.", MON, "We shipped it 3 weeks ago [week of 2023-04-17]."),
    ("Last week was busy, next month too", WED,
     "Last week [week of 2026-11-09] was busy, next month [December 2026] too"),
    ("see you this weekend!", MON, "see you this weekend [weekend of 2023-05-13]!"),
    ("a few months ago", MON, "a few months ago [February 2023]"),
    ("it was 2 years ago", MON, "it was 2 years ago [2021]"),
    ("the day before yesterday and yesterday", MON,
     "the day before yesterday [2023-05-06] and yesterday [2023-05-07]"),
    ("Yesterday's standup ran long", MON, "Yesterday's [2023-05-07] standup ran long"),
    # the day named after "EOD" is the date, not today ("sign-off needed by EOD Friday" had read
    # as due today, and "how many days until …" said 0)
    ("sign-off needed by EOD Friday.", WED, "sign-off needed by EOD Friday [2026-11-20]."),
    ("by end of day tomorrow", WED, "by end of day tomorrow [2026-11-19]"),
    ("Need it by EOD.", WED, "Need it by EOD [2026-11-18]."),
    # a month something moved to is one to come, though the move is past ("talk to May" names
    # a person)
    ("Acme pushed the renewal to January", WED,
     "Acme pushed the renewal to January [January 2027]"),
    ("talk to May about it", WED, "talk to May about it"),
    ("YESTERDAY", MON, "YESTERDAY [2023-05-07]"),
    ("Last TUESDAY we met", MON, "Last TUESDAY [2023-05-02] we met"),
    ("we use monday.com on Monday", MON, "we use monday.com on Monday [2023-05-08]"),
    ("the day before yesterday", MON, "the day before yesterday [2023-05-06]"),
    ("no dates here", MON, "no dates here"),
    # a schedule's present verb keeps the day to come, whatever participle follows: "closed Dec
    # 25" lent its past to Dec 24 (last Christmas Eve)
    ("clinic closes at 3pm on Dec 24, closed Dec 25", datetime(2026, 12, 3, 7, tzinfo=UTC),
     "clinic closes at 3pm on Dec 24 [2026-12-24], closed Dec 25 [2026-12-25]"),
    # a plan measured against is no plan to come: "were we over plan in November?" (asked 5
    # Dec) was asked of next November
    ("were we over plan in November?", datetime(2026, 12, 5, 10, tzinfo=UTC),
     "were we over plan in November [November 2026]?"),
    ("we plan to ship in March", datetime(2026, 12, 5, 10, tzinfo=UTC),
     "we plan to ship in March [March 2027]"),
    # the day a thing had, named by it, moved since is the nearest such day: "the Dec 12 party"
    # (said 2 Dec) was last year's, "moved" lending its past; "to Dec 13" five words after the
    # verb was last year's too
    ("the Dec 12 party moved to Dec 13, same terms", datetime(2026, 12, 2, 17, tzinfo=UTC),
     "the Dec 12 [2026-12-12] party moved to Dec 13 [2026-12-13], same terms"),
    ("we moved the Dec 12 party to Dec 13", datetime(2026, 12, 2, 17, tzinfo=UTC),
     "we moved the Dec 12 [2026-12-12] party to Dec 13 [2026-12-13]"),
])
def test_annotated_text(text, anchor, expected):
    assert annotate_dates(text, anchor)[0] == expected


def test_annotate_returns_phrases_in_order_as_written():
    text, found = annotate_dates("Yesterday's demo went well; TOMORROW we ship, then "
                                          "next week the retro", WED)
    assert found == [
        ResolvedDate("Yesterday", date(2026, 11, 17), date(2026, 11, 17), "day"),
        ResolvedDate("TOMORROW", date(2026, 11, 19), date(2026, 11, 19), "day"),
        ResolvedDate("next week", date(2026, 11, 23), date(2026, 11, 29), "week"),
    ]
    assert text == ("Yesterday's [2026-11-17] demo went well; TOMORROW [2026-11-19] we ship, then "
                    "next week [week of 2026-11-23] the retro")


def test_future_marker_applies_per_sentence():
    text, _ = annotate_dates("We met on Monday. We will meet again on Monday.", WED)
    assert text == "We met on Monday [2026-11-16]. We will meet again on Monday [2026-11-23]."


MON_23 = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)  # a Monday


WED_25 = datetime(2026, 11, 25, 12, 0, tzinfo=UTC)  # a Wednesday


@pytest.mark.parametrize("text,day", [
    # an incident is past whatever the clause's tense
    ("RCA for Monday's gateway incident is in the wiki", date(2026, 11, 23)),
    ("Monday’s sev2 postmortem is up", date(2026, 11, 23)),
    # a planned one, anything else, or no possessive: as before
    ("Saturday's planned outage is 2h", date(2026, 11, 28)),
    ("Friday's demo is at 3", date(2026, 11, 27)),
    ("on Friday the outage window opens", date(2026, 11, 27)),
])
def test_a_weekdays_incident_is_past(text, day):
    found = only(text, WED_25)
    assert (found.start, found.end) == (day, day)


@pytest.mark.parametrize("text,expected", [
    # the weekday holds its preposition ("until Monday"); a time of day may come between
    ("deploy freeze from tomorrow until Monday 9:00 UTC",
     "deploy freeze from tomorrow until Monday [2026-11-19 to 2026-11-23] 9:00 UTC"),
    ("freeze from Friday until Monday", "freeze from Friday until Monday [2026-11-20 to 2026-11-23]"),
    ("freeze starts Friday 18:00 UTC until Monday",
     "freeze starts Friday 18:00 UTC until Monday [2026-11-20 to 2026-11-23]"),
    ("between Friday and Monday", "between Friday and Monday [2026-11-20 to 2026-11-23]"),
    # two days, not a range
    ("I am off Friday and Monday", "I am off Friday [2026-11-20] and Monday [2026-11-23]"),
])
def test_a_range_of_days_is_one_date(text, expected):
    assert annotate_dates(text, WED)[0] == expected


@pytest.mark.parametrize("text,anchor,day", [
    # an announcement's bare participle is how a thing will be: the day to come
    ("Reminder: office closed Friday for the offsite", WED, date(2026, 11, 20)),
    ("heads up: standup cancelled on Thursday, async updates instead", MON_23, date(2026, 11, 26)),
    ("Standup cancelled Thursday", MON_23, date(2026, 11, 26)),
    ("demo confirmed for Tuesday", WED, date(2026, 11, 24)),
    # someone who did it, a determiner, or an object after it: what happened
    ("we closed the office on Friday", MON_23, date(2026, 11, 20)),
    ("the office closed on Friday because of snow", MON_23, date(2026, 11, 20)),
    ("Jun cancelled standup on Thursday", MON_23, date(2026, 11, 19)),
    ("standup was cancelled on Thursday", MON_23, date(2026, 11, 19)),
])
def test_a_headlines_bare_participle_is_not_past(text, anchor, day):
    found = only(text, anchor)
    assert (found.start, found.end) == (day, day)


@pytest.mark.parametrize("text,day", [
    # a plan after what was done, its "we're" left out: the day to come (said on a Wednesday)
    ("CI runners: ordered the 16 GB instances, switching over Monday.", date(2026, 11, 23)),
    ("bought the certs, rolling them out on Friday", date(2026, 11, 20)),
    # with a past word in its own clause it is what happened
    ("Switching over on Monday went fine.", date(2026, 11, 16)),
])
def test_a_bare_planned_clause_after_a_past_one_is_to_come(text, day):
    found = only(text, WED)
    assert found.start == day, found


@pytest.mark.parametrize("text", [
    "I went there yesterday and will go again next Friday.",
    "the day before yesterday, 3 weeks ago, last weekend, this month, a couple of days ago",
    "Yesterday's standup; on Tuesday; in 2 years; last night",
    "mixed [note: yesterday] and yesterday",
])
def test_annotating_twice_changes_nothing(text):
    once, found = annotate_dates(text, MON)
    assert found
    twice, again = annotate_dates(once, MON)
    assert twice == once and again == []
    # ...even against a different anchor: existing labels are kept.
    assert annotate_dates(once, SUN)[0] == once


def test_text_inside_brackets_is_left_alone():
    assert annotate_dates("[posted yesterday]", MON) == ("[posted yesterday]", [])


@pytest.mark.parametrize("text", [
    "todays special", "yesterdays news", "today-ish", "the other day", "handover on Mondays",
    "we track it on monday.com", "Mayday Mayday",
    "The last weekend of the season", "nextweek", "lastyear", "in 2023", "3 days later",
    "on the next day", "weekday", "in a minute", "10 hours ago",
    # slashed weekdays are a week's schedule, not this week's days ("deliveries Tue/Fri")
    "deliveries Tue/Fri", "office days are Tue/Thu", "gym Mon/Wed/Fri",
    # a weekday counted from a day said before is no day of its own week ("the Friday before
    # that", after "last Tuesday we signed Initech", was the Friday of the week said in)
    "the Friday before that we lost Hooli", "on the Monday after that we shipped",
])
def test_no_false_positives(text):
    assert annotate_dates(text, MON) == (text, [])


def test_the_last_week_of_a_month_is_its_last_seven_days_not_last_week():
    """"the last week of June" is no week before the anchor (the rules once read no date in it at
    all, so that "last week" would not be taken): it is 24-30 June, of the year the tense
    points to."""
    assert annotate_dates("the last week of June was hot", MON)[0] == \
        "the last week of June [2022-06-24 to 2022-06-30] was hot"


# --- add_months ----------------------------------------------------------------------------------
@pytest.mark.parametrize("d,months,expected", [
    (date(2023, 3, 31), -1, date(2023, 2, 28)),
    (date(2024, 3, 31), -1, date(2024, 2, 29)),  # leap year
    (date(2023, 1, 31), 1, date(2023, 2, 28)),
    (date(2023, 5, 31), 1, date(2023, 6, 30)),
    (date(2024, 2, 29), 12, date(2025, 2, 28)),
    (date(2024, 2, 29), 48, date(2028, 2, 29)),
    (date(2023, 12, 15), 1, date(2024, 1, 15)),
    (date(2023, 1, 15), -1, date(2022, 12, 15)),
    (date(2023, 1, 15), -13, date(2021, 12, 15)),
    (date(2023, 5, 8), 0, date(2023, 5, 8)),
])
def test_month_arithmetic_clamps_the_day(d, months, expected):
    assert add_months(d, months) == expected


# --- parse_date_text -----------------------------------------------------------------------------
@pytest.mark.parametrize("text,expected", [
    ("on 2023-05-08 we", [("2023-05-08", date(2023, 5, 8))]),
    ("8 May 2023", [("8 May 2023", date(2023, 5, 8))]),
    ("8 May, 2023", [("8 May, 2023", date(2023, 5, 8))]),
    ("May 8, 2023", [("May 8, 2023", date(2023, 5, 8))]),
    ("May 8 2023", [("May 8 2023", date(2023, 5, 8))]),
    ("May 8th 2023", [("May 8th 2023", date(2023, 5, 8))]),
    ("May 8th, 2023", [("May 8th, 2023", date(2023, 5, 8))]),
    ("8th of May 2023", [("8th of May 2023", date(2023, 5, 8))]),
    ("the 1st of June, 2023", [("1st of June, 2023", date(2023, 6, 1))]),
    ("05/18/2023", [("05/18/2023", date(2023, 5, 18))]),  # US month/day/year
    ("18/05/2023", [("18/05/2023", date(2023, 5, 18))]),  # European day/month/year
    ("18.05.2023", [("18.05.2023", date(2023, 5, 18))]),
    ("31/12/2023", [("31/12/2023", date(2023, 12, 31))]),
    ("12/31/2023", [("12/31/2023", date(2023, 12, 31))]),
    ("3 Jan 2024", [("3 Jan 2024", date(2024, 1, 3))]),
    ("Jan. 3, 2024", [("Jan. 3, 2024", date(2024, 1, 3))]),
    ("Sept 5 2023", [("Sept 5 2023", date(2023, 9, 5))]),
    ("27 june 2023", [("27 june 2023", date(2023, 6, 27))]),
    ("DECEMBER 25, 2026", [("DECEMBER 25, 2026", date(2026, 12, 25))]),
    ("29 February 2024", [("29 February 2024", date(2024, 2, 29))]),
    ("2023-05-08T10:00:00Z", [("2023-05-08T10:00:00Z", date(2023, 5, 8))]),
    ("2023/05/08", [("2023/05/08", date(2023, 5, 8))]),
])
def test_parse_date_formats(text, expected):
    assert parse_date_text(text) == expected


def test_parse_dates_in_order_of_appearance():
    text = "Kickoff May 1, 2023, demo 2023-05-15 and retro on 8th of June 2023 (06/30/2023 backup)"
    # (ambiguous numeric dates such as 05/08/2023 are left out: see test_parse_dates_rejects)
    assert parse_date_text(text) == [
        ("May 1, 2023", date(2023, 5, 1)), ("2023-05-15", date(2023, 5, 15)),
        ("8th of June 2023", date(2023, 6, 8)), ("06/30/2023", date(2023, 6, 30)),
    ]


@pytest.mark.parametrize("text", [
    "Mayday 2023", "May 2023", "8 May", "31 February 2023", "29 February 2023", "2023-13-01",
    "05/08/2023", "5/8/2023", "version 1.2.3", "12023-05-08", "call 555-1234", "Maya 8 2023",
])
def test_parse_dates_rejects(text):
    assert parse_date_text(text) == []


# --- parse_timestamp -----------------------------------------------------------------------------
@pytest.mark.parametrize("value,expected", [
    (datetime(2023, 5, 8, 13, 56), at(2023, 5, 8).replace(hour=13, minute=56)),  # naive -> UTC
    (datetime(2023, 5, 8, 15, 56, tzinfo=timezone(timedelta(hours=2))),
     datetime(2023, 5, 8, 13, 56, tzinfo=UTC)),
    (date(2023, 5, 8), datetime(2023, 5, 8, tzinfo=UTC)),
    (1683554160, datetime(2023, 5, 8, 13, 56, tzinfo=UTC)),
    (1683554160.5, datetime(2023, 5, 8, 13, 56, 0, 500000, tzinfo=UTC)),
    ("1683554160", datetime(2023, 5, 8, 13, 56, tzinfo=UTC)),
    ("1715172960.000200", datetime(2024, 5, 8, 12, 56, 0, 200, tzinfo=UTC)),
    ("2023-05-08T13:56:00Z", datetime(2023, 5, 8, 13, 56, tzinfo=UTC)),
    ("2023-05-08T13:56:00.250Z", datetime(2023, 5, 8, 13, 56, 0, 250000, tzinfo=UTC)),
    ("2023-05-08T15:56:00+02:00", datetime(2023, 5, 8, 13, 56, tzinfo=UTC)),
    ("2023-05-08T08:56:00-05:00", datetime(2023, 5, 8, 13, 56, tzinfo=UTC)),
    ("2023-05-08T13:56:00", datetime(2023, 5, 8, 13, 56, tzinfo=UTC)),
    ("2023-05-08 13:56", datetime(2023, 5, 8, 13, 56, tzinfo=UTC)),
    ("2023-05-08", datetime(2023, 5, 8, tzinfo=UTC)),
    ("  2023-05-08T13:56:00Z  ", datetime(2023, 5, 8, 13, 56, tzinfo=UTC)),
    ("1:56 pm on 8 May, 2023", datetime(2023, 5, 8, 13, 56, tzinfo=UTC)),
    ("10:37 am on 27 June, 2023", datetime(2023, 6, 27, 10, 37, tzinfo=UTC)),
    ("12:05 am on 1 January, 2024", datetime(2024, 1, 1, 0, 5, tzinfo=UTC)),
    ("12:30 pm on 1 Jan, 2024", datetime(2024, 1, 1, 12, 30, tzinfo=UTC)),
    ("7:00 PM on 29 February, 2024", datetime(2024, 2, 29, 19, 0, tzinfo=UTC)),
    ("8 May 2023", datetime(2023, 5, 8, tzinfo=UTC)),
])
def test_parse_timestamp(value, expected):
    got = parse_timestamp(value)
    assert got == expected and got.tzinfo == UTC


@pytest.mark.parametrize("value,message", [
    ("next blursday", "unrecognised timestamp 'next blursday'"),
    ("", "unrecognised timestamp ''"),
    ("yesterday", "unrecognised timestamp"),
    ("1:56 pm on 31 February, 2023", "unrecognised timestamp"),
    ("13:56 pm on 8 May, 2023", "invalid time of day"),
    ("0:10 am on 8 May, 2023", "invalid time of day"),
    (None, "unsupported timestamp type NoneType"),
    (True, "unsupported timestamp type bool"),
    ([2023, 5, 8], "unsupported timestamp type list"),
    (float("nan"), "epoch timestamp out of range"),
    (float("inf"), "epoch timestamp out of range"),
    (10 ** 20, "epoch timestamp out of range"),
])
def test_parse_timestamp_errors(value, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        parse_timestamp(value)


# --- helpers -------------------------------------------------------------------------------------
def test_format_human():
    assert format_human(date(2023, 5, 7)) == "7 May 2023"
    assert format_human(date(2026, 12, 25)) == "25 December 2026"
    assert format_human(datetime(2024, 2, 29, 23, 0, tzinfo=UTC)) == "29 February 2024"


@pytest.mark.parametrize("a,b,days", [
    (date(2023, 5, 1), date(2023, 5, 13), 12),
    (date(2023, 5, 13), date(2023, 5, 1), 12),
    (date(2024, 2, 28), date(2024, 3, 1), 2),  # leap day
    (date(2023, 2, 28), date(2023, 3, 1), 1),
    (date(2023, 1, 1), date(2024, 1, 1), 365),
    (date(2024, 1, 1), date(2025, 1, 1), 366),
    (date(2023, 5, 8), date(2023, 5, 8), 0),
])
def test_days_between(a, b, days):
    assert days_between(a, b) == days


@pytest.mark.parametrize("days,unit,text", [
    (0, "days", "0 days"),
    (1, "days", "1 day"),
    (12, "days", "12 days"),
    (-12, "days", "12 days"),
    (12, "day", "12 days"),
    (7, "weeks", "1 week (7 days)"),
    (21, "weeks", "3 weeks (21 days)"),
    (23, "weeks", "3 weeks and 2 days (23 days)"),
    (15, "Weeks", "2 weeks and 1 day (15 days)"),
    (5, "weeks", "5 days (less than a week)"),
    (125, "months", "about 4.1 months (125 days)"),
    (730, "years", "about 2 years (730 days)"),
])
def test_describe_duration(days, unit, text):
    assert describe_duration(days, unit) == text


def test_describe_duration_rejects_unknown_units():
    with pytest.raises(ValueError, match="unknown duration unit 'fortnights'"):
        describe_duration(14, "fortnights")


@pytest.mark.parametrize("a,b,unit,value", [
    (date(2026, 11, 1), date(2026, 11, 13), "days", "12 days"),
    (date(2026, 11, 13), date(2026, 11, 1), "days", "12 days"),
    (date(2026, 11, 1), date(2026, 11, 22), "weeks", "3 weeks (21 days)"),
    (date(2026, 1, 31), date(2026, 4, 15), "months", "2 months and 15 days (74 days)"),
    (date(2026, 1, 31), date(2026, 2, 28), "months", "1 month (28 days)"),
    (date(2026, 3, 1), date(2026, 3, 20), "months", "0 months and 19 days (19 days)"),
    (date(2020, 2, 29), date(2026, 11, 22), "years", "6 years, 8 months and 24 days (2458 days)"),
    (date(2023, 5, 8), date(2025, 5, 8), "years", "2 years (731 days)"),
])
def test_describe_span(a, b, unit, value):
    assert describe_span(a, b, unit) == value


# --- compute_for_question ------------------------------------------------------------------------
@pytest.mark.parametrize("question,expected", [
    ("what happened 3 weeks ago", [("3 weeks ago", "2026-11-01", "3 weeks before 2026-11-22")]),
    ("What did we do last Tuesday?",
     [("last Tuesday", "2026-11-17", "the most recent Tuesday before 2026-11-22")]),
    ("what broke yesterday?", [("yesterday", "2026-11-21", "a Saturday, 1 day before 2026-11-22")]),
    ("What happened last month?", [("last month", "October 2026", "2026-10-01 to 2026-10-31")]),
    ("what is planned this week",
     [("this week", "week of 2026-11-16", "2026-11-16 to 2026-11-22")]),
    ("Who was on call last weekend?",
     [("last weekend", "weekend of 2026-11-14", "2026-11-14 to 2026-11-15")]),
    ("what did we decide 2 months ago",
     [("2 months ago", "September 2026", "2 months before 2026-11-22 (2026-09-22)")]),
    ("What did we ship 3 days ago and last year?",
     [("3 days ago", "2026-11-19", "3 days before 2026-11-22"),
      ("last year", "2025", "2025-01-01 to 2025-12-31")]),
    ("what is due today", [("today", "2026-11-22", "a Sunday")]),
    ("What's happening tomorrow?", [("tomorrow", "2026-11-23", "a Monday, 1 day after 2026-11-22")]),
    ("what will we do on Friday?",
     [("on Friday", "2026-11-27", "the first Friday after 2026-11-22 (future tense)")]),
    ("When did we ship the billing webhooks?", []),
    ("When did we ship on 8 May 2023?", []),
    ("What is the rate limit?", []),
])
def test_relative_phrases_in_questions(question, expected):
    got = compute_for_question(question, SUN)
    assert [(c.expression, c.value, c.detail) for c in got] == expected


def test_month_clamp_in_questions():
    got = compute_for_question("what changed a month ago?", at(2024, 3, 31))
    assert got == [ComputedDate(expression="a month ago", value="February 2024",
                                detail="1 month before 2024-03-31 (2024-02-29)")]




@pytest.mark.parametrize("text", ["the offsite is on June 31", "31 June works for me",
                                  "we ship April 31st", "see you feb 30", "due Feb 29"])
def test_a_day_no_month_has_is_not_a_date_and_not_an_error(text, tmp_path):
    """"June 31" used to raise IndexError in the resolver, so ingesting the message failed (and
    a worker would have put its batch back on the queue for good)."""
    from memory.config import Settings
    from memory.service import MemoryService

    _, found = annotate_dates(text, WED)
    assert found == []
    service = MemoryService.from_settings(Settings(store=f"sqlite:///{tmp_path}/d.db",
                                                   anthropic_api_key=None))
    try:
        profile = service.profile("test:dates")
        profile.ingest([{"role": "user", "content": text, "ts": WED.isoformat()}],
                       session_id="s")
        assert any(text in m.content for m in service.store.iter_messages("test:dates"))
    finally:
        service.close()


def test_dates_at_the_end_of_the_calendar_are_not_an_error():
    """Found by fuzzing: a range joined near 31 Dec 9999 overflowed."""
    end = datetime(9999, 12, 30, tzinfo=UTC)
    for text in ("9999-12-31 – yesterday", "yesterday '26 Dec through 9999-12-31"):
        annotate_dates(text, end)  # no OverflowError


# --- the cheap looks that skip rules (memory.dates._families) ----------------------------------
# One text (or more) for every rule, in odd spellings; each is also tried upper-cased, with a
# non-ASCII character (the looks take another path then), and with the letters the rules' Unicode
# case folding equates with ASCII ones ("ſ" is an s, "K" (Kelvin) a k, "İ" an i).
HOSTILE = [
    "2023-05-08T10:00Z", "Migration starts Jan.", "back in Feb", "Dec 24th-Jan 2nd",
    "conferences Dec 10 and 11", "Nov 3rd & 4th, 2027",
    "pushed the renewal to January", "June 3-7", "3rd–7th of June 2024",
    "the draft will slip to 12/22, waiting on logos", "off next Mon-Wed",
    "30 May '23", "May the 3rd, 2024", "August AWS bill", "June numbers",
    "two weeks from Monday", "3 days after next Friday", "the Week  before last",
    "Christmas Eve", "before xmas", "New Year's Day", "Thanksgiving", "Valentine's",
    "30.05.2023", "05/30/2023", "on 3/14", "by 14/3", "the 22nd", "from the 3rd to the 7th",
    "mid-June", "the end of September 2024", "in June", "through July, 2025", "June 2024",
    "next March", "end of Q3", "Q4 '25", "since 2021", "in 1999", "the day before yesterday",
    "the day after tomorrow", "yday", "last night", "2morrow", "tmrw", "Tmr", "tonight", "EOD",
    "OOO tdy", "call wed 12/9", "mon 2/5 tests", "offline over the holidays", "winter break",
    "end of the day", "this afternoon", "Tuesday last week", "next week's Friday",
    "this coming Monday", "this past sat", "on Thurs.", "Wed", "Fri.", "SUNDAY", "next weekend",
    "over the weekend", "start of next quarter", "beginning of the year", "EOW", "EOY",
    "last month", "three weeks ago", "a couple of months back", "in a few days", "in an hour",
    "two years from today", "12 days from now", "by ٣/١٤", "on ١٢/٣", "monday.com",
    "today-ish", "v2023-05-08", "[2023-05-08] yesterday [2023-05-07]", "Mon-Wed next week",
    "the 3rd floor", "we shipped it last Friday and will review it on the 22nd, or by EOM",
    "the week after next", "in a fortnight", "in 3 wks", "in three business days",
    "next working day", "on Monday week", "a week on Fri", "the last week of Dec",
    "first week of January 2027", "for H1", "H2 2027", "the H1 heading",
    "October AWS bill", "September's numbers", "October is my favourite month",
    "on Tue, 17th Nov '26", "Fri., Nov the 20th", "Friday 20/11/2026", "sunday the 3rd",
    # 27 Nov, seventh session: halves of a month, a period's end, Sat/Sun before a date
    "the second half of December is quiet", "ship by year-end", "Sat 12/5 is the cutover",
    "mid-Q1 launch", "two Fridays ago", "the Friday before last", "the weekend before last",
    "the first Monday of December", "closed Thursday and Friday for Thanksgiving",
    # 27 Nov, eighth session
    "kick off the rewrite in the new year", "earlier this week", "late next week",
    "early next month", "mid-last month", "the week after Thanksgiving",
    "the Friday before Christmas", "the weekend before Dec 25",
    # 5 Dec, fifteenth session
    "3.9 dropped in 6.0 (March)", "proposal by next fri", "migrated tonite", "last nite",
    "next wed",
    # 5 Dec, sixteenth session
    "the Black Friday recap", "Cyber Monday went fine", "November expenses due",
    # 5 Dec, seventeenth session
    "up 12% on October", "higher than October", "Wednesday of next week", "Wednesday of KubeCon",
    "on the Q1 roadmap", "onsite Thursday 2pm", "go for Monday", "instead of Thursday",
    # 6 Dec, twenty-sixth session
    "phased rollout Monday", "staged release", "phased out on Monday", "gated launch",
    "overnight", "finished overnight", "overnight shipping", "an overnight stay", "over-night",
    "back on for Tuesday", "still on for the 9th", "SOC 2 Type I",
    # 7 Dec, twenty-seventh session
    "confirmed for Dec 12", "locked in for Friday", "reserved for", "extended the deadline by a "
    "week", "full paper Jan 30", "to get paid", "got paid", "reduced hours", "be done by",
    # 5 Dec, eighteenth session
    "cut the branch Dec 9 EOD", "Friday EOD please", "tomorrow EOD", "the 9th EOD",
    "SSO is planned for March", "slated for May", "SSO committed for Q2",
    # 6 Dec, nineteenth session
    "can't export since Friday's release", "since Friday's a holiday we ship Thursday",
    "deadline extended to Dec 11", "extended until next Friday",
    "my trip moved, I'm now out Dec 21-24 instead",
    # 6 Dec, twentieth session
    "approved! Releasing 4.12.0 on Thursday", "disclosure date for the CVE is Dec 9",
    "3.9 dropped in 6.0 (March)", "tags by Dec 15, untagged resources get a report",
    "Budget approved for Q1", "ssh with password hunter2", "their team is short-staffed in "
    "January", "delivery Thursday", "Adding Slack connector to Q1", "Acme renewal is 12/31",
    "the ratio is 16/9",
    # 6 Dec, twenty-first session
    "Launch is Jan 14, embargo lifts the same day", "I'll never forget that day",
    "the same day delivery costs extra", "new end date Dec 18", "Effective Dec 1",
    "credit for the November outage", "We got a booth, Feb 17-19 in Austin",
    "Expense reports for November are due Dec 5", "we are planning for November",
    # 6 Dec, twenty-fourth session: months in other languages, after their day
    "el jueves 10 de diciembre", "am Montag, 14. Dezember 2027", "le 3 mars", "3 Mars bars",
    "entrega em 10 de dezembro", "il 5 maggio", "Rain forecast Thursday, pour moved to Monday",
    # 6 Dec, twenty-fifth session: what a notice is for
    "sent the downtime notice to analytics for Dec 8", "sent the invite for Friday",
    "a reminder for the for the for", "notice" * 40 + " for Dec 8", "rsvp for",
    "Thursday's deploy is out.", "Friday's " + "x " * 50 + "is done", "Raj is out Friday",
    # 7 Dec, twenty-ninth session: what is good for a time
    "the cert is GOOD FOR 90 DAYS", "valid for an year", "good for 2 people", "good for one use",
    "compressor needs replacing, ETA 2 weeks", "ETA: ~10 DAYS", "beta 2 weeks",
    "WINTER BREAK IS DEC 21 - JAN 4", "the holidays: 2026-12-23 to 2027-01-02",
]


def _odd_spellings(text: str) -> list[str]:
    folded = (text.replace("s", "ſ").replace("k", "\u212a").replace("i", "İ")
              .replace("S", "ſ").replace("K", "\u212a"))
    return [text, text.upper(), text.lower(), f"é {text}", folded]


def _outcome(scan, text: str, anchor: datetime):
    """The dates found, or the error raised (none is expected: see the next test); the looks
    must not change either."""
    try:
        return scan(text, anchor)
    except Exception as exc:  # noqa: BLE001 - compared, not hidden
        return type(exc).__name__


def test_look_alike_letters_are_not_dates_and_never_raise():
    """"laſt week" passes the case-insensitive pattern (ſ folds to s) but no word table holds
    "laſt": it used to raise KeyError, and the message carrying it failed to ingest."""
    from memory.dates import event_dates_in, find_dates, scan_dates

    anchor = datetime(2026, 11, 2, 9, tzinfo=timezone.utc)
    for text in ("laſt week", "neXT \u212aWEEK", "the launch was laſt week", "İn 3 days",
                 "thiſ month and next month"):
        for odd in [text, *_odd_spellings(text)]:
            assert scan_dates(odd, anchor) == find_dates(odd, anchor)
            event_dates_in(odd, anchor)  # does not raise
    assert scan_dates("laſt week", anchor) == []
    assert [d.date.phrase for d in scan_dates("thiſ month and next month", anchor)] == [
        "next month"]


def test_every_rule_needs_what_its_looks_find():
    """A rule is skipped unless the text holds every family it names: wherever the rule matches,
    the looks must find them all. Every rule matches some hostile text, so none goes untested."""
    from memory.dates import _FAMILIES, _PATTERNS, _families

    texts = [odd for text in HOSTILE for odd in _odd_spellings(text)]
    matched = set()
    for text in texts:
        held = {name for bit, name in enumerate(_FAMILIES) if _families(text) >> bit & 1}
        for i, (pattern, _, needs) in enumerate(_PATTERNS):
            if pattern.search(text):
                matched.add(i)
                assert set(needs.split()) <= held, (i, text, set(needs.split()) - held)
    assert matched == set(range(len(_PATTERNS)))


def test_the_looks_never_hide_a_date():
    """find_dates (looks first) answers as scan_dates (every rule) on hostile text and on real
    chat: Ubuntu IRC lines where the benchmark data is checked out (../shared/benchdata)."""
    from memory.dates import find_dates, scan_dates

    irc = irc_lines(5000)
    texts = [odd for text in HOSTILE for odd in _odd_spellings(text)] + irc
    anchor = datetime(2026, 5, 12, 10, tzinfo=UTC)
    with_dates = 0
    for text in texts:
        found = _outcome(scan_dates, text, anchor)
        with_dates += bool(found)
        assert _outcome(find_dates, text, anchor) == found, text
    assert with_dates >= len(HOSTILE) * 3
    if not irc:
        pytest.skip("no ../shared/benchdata/ubuntu-irc here: hostile text only")


def test_a_week_stored_as_its_monday_reads_back_whole():
    """Memories stored before the fix above carry "this week" as its Monday alone."""
    from memory.models import EventDate

    old = EventDate(phrase="this week", start=date(2026, 11, 16), end=date(2026, 11, 16),
                    granularity="week")
    assert old.end == date(2026, 11, 22)
    day = EventDate(phrase="on Monday", start=date(2026, 11, 16), end=date(2026, 11, 16))
    assert day.end == date(2026, 11, 16)


@pytest.mark.parametrize("text,expected", [
    # said on Thursday 26 Nov 2026: the weekday picks the year (not 17 Nov 2027 and the coming
    # Tuesday as two dates) and the order of 20/11 and 11/20
    ("what did we decide on Tuesday 17 November?", ["2026-11-17"]),
    ("Tue 17 Nov", ["2026-11-17"]),
    ("on Tuesday, November 17th", ["2026-11-17"]),
    ("Tuesday the 17th", ["2026-11-17"]),
    ("Friday 20/11", ["2026-11-20"]),
    ("Friday 11/20", ["2026-11-20"]),
    ("Friday 20/11/2026", ["2026-11-20"]),
    ("see you Monday 30 Nov", ["2026-11-30"]),
    ("on Friday, the 4th of December", ["2026-12-04"]),
    # no such weekday near: the date as it would be read alone; an ambiguous 3/4 as the weekday
    ("Friday 3/4", ["2026-11-27"]),
    ("Monday the 3rd floor", ["2026-11-30"]),
])
def test_a_weekday_with_its_date_is_one_date_on_that_weekday(text, expected):
    from memory.dates import find_dates

    said = datetime(2026, 11, 26, 10, tzinfo=timezone.utc)
    assert [str(f.date.start) for f in find_dates(text, said)] == expected


@pytest.mark.parametrize("text, labelled", [
    ("The vendor call got moved from Thursday to next Tuesday at 3pm.",
     "The vendor call got moved from Thursday [2026-11-26] to next Tuesday [2026-12-01] at 3pm."),
    ("pushed the launch from Dec 3 to Dec 10",
     "pushed the launch from Dec 3 [2026-12-03] to Dec 10 [2026-12-10]"),
    ("the release slipped from Friday to Monday",
     "the release slipped from Friday [2026-11-27] to Monday [2026-11-30]"),
    ("moved from the 3rd to the 10th", "moved from the 3rd [2026-12-03] to the 10th [2026-12-10]"),
    # no move: still one range
    ("The offsite is from Thursday to next Tuesday.",
     "The offsite is from Thursday to next Tuesday [2026-11-26 to 2026-12-01]."),
    ("the launch is from Dec 3 to Dec 10", "the launch is from Dec 3 to Dec 10 [2026-12-03 to "
     "2026-12-10]"),
])
def test_a_day_moved_from_and_to_is_two_days_to_come(text, labelled):
    """27 Nov, from outside: "The vendor call got moved from Thursday to next Tuesday" (said on
    Wednesday 25 Nov) was labelled one range, 26 Nov to 1 Dec, and "when is the vendor call?"
    answered 26 November, the day it had left; "pushed the launch from Dec 3 to Dec 10" read
    both days as last year's (the past tense of "pushed"). A move names the old day and the new
    one, both to come when it was said."""
    said = datetime(2026, 11, 25, 10, tzinfo=timezone.utc)
    assert annotate_dates(text, said)[0] == labelled


@pytest.mark.parametrize("text, expected", [
    # said 13 Nov 2026: "the 4th" alone was 4 December, the nearest month to the day it was said
    ("I can't make March 5, leaving after lunch on the 4th", [("March 5", "2027-03-05"),
                                                           ("on the 4th", "2027-03-04")]),
    ("Offsite ends March 30, back at work on the 2nd", [("March 30", "2027-03-30"),
                                                        ("on the 2nd", "2027-04-02")]),
    ("see you on the 4th", [("on the 4th", "2026-12-04")]),
    # "for October": the month of the numbers, where "waiting for June" is a person
    ("Churn for October came in at 3.4%", [("October", "2026-10-01")]),
    ("still waiting for June to reply", []),
    # (shortened too, 7 Dec: "cross-play is not in S4, we're aiming for Feb" was no date; "Jan"
    # is a name as often)
    ("we're aiming for Feb", [("Feb", "2027-02-01")]),
    ("AP close pushed to Dec.", [("Dec.", "2026-12-01")]),
    ("still waiting for Jan to reply", []),
    ("thanks for Dec's numbers", []),
    # a month in brackets after each item of a list ("roadmap: SSO (Jan), audit logs (Feb)"
    # was no date), not one alone
    ("roadmap: SSO (Jan), audit logs (Feb)", [("(Jan)", "2027-01-01"), ("(Feb)", "2027-02-01")]),
    ("the lead (Jan) will review it", []),
])
def test_a_day_of_the_month_after_a_date_and_a_month_after_for(text, expected):
    from memory.dates import find_dates
    found = find_dates(text, date(2026, 11, 13))
    assert [(f.date.phrase, f.date.start.isoformat()) for f in found] == expected


SAT, THU, EARLY_SEP = date(2026, 11, 21), date(2026, 11, 18), date(2026, 9, 3)


@pytest.mark.parametrize("text, said, expected", [
    # a one-word status is a state, not what happened on Friday (said on Saturday 21 Nov)
    ("ADR-020: gRPC internally. Status: proposed, vote on Friday.", SAT, ["2026-11-27"]),
    ("Approved, merge on Monday.", SAT, ["2026-11-23"]),
    ("We approved it on Friday.", SAT, ["2026-11-20"]),
    ("Approved on Friday.", SAT, ["2026-11-20"]),
    # counted from a weekday: "two weeks from Monday" was read "from Monday" (23 Nov)
    ("ship it two weeks from Monday", THU, ["2026-12-07"]),
    ("retro is Monday after next", THU, ["2026-11-30"]),
    ("3 days after Friday", THU, ["2026-11-23"]),
    # a holiday is a day: "before Christmas" named none, "closed for Thanksgiving" neither
    ("code freeze before Christmas", THU, ["2026-12-25"]),
    ("office is closed for Thanksgiving", THU, ["2026-11-26"]),
    ("we celebrated Christmas with family", THU, ["2025-12-25"]),
    ("New Year's Eve deploy freeze", THU, ["2026-12-31"]),
    # a holiday and its date beside it are one day, labelled once
    ("Office is closed on Thanksgiving, Nov 26, and the day after.", THU, ["2026-11-26"]),
    # LoCoMo dev: a holiday said of every year names no day of one
    ("During Thanksgiving, we usually watch a few movies.", THU, []),
    ("Which movie does Tim mention they enjoy watching during Thanksgiving?", THU, []),
    ("What tradition does Tim mention they love during Halloween?", THU, []),
    # a month that is a name too, before an acronym or a word of accounts
    ("August AWS bill: $41,200.", EARLY_SEP, ["2026-08-01"]),
    ("June numbers are in", EARLY_SEP, ["2026-06-01"]),
    ("May is on leave", EARLY_SEP, []),
    ("talk to June about it", EARLY_SEP, []),
])
def test_dates_people_wrote_on_27_nov_sixth_session(text, said, expected):
    from memory.dates import find_dates
    assert [f.date.start.isoformat() for f in find_dates(text, said)] == expected


FRIDAY_20_NOV = datetime(2026, 11, 20, 8, 0, tzinfo=timezone.utc)


@pytest.mark.parametrize("text, said, expected", [
    # "since" looks back from when it was said: these were the Tuesday after, next year's Nov 3
    ("Quiet night. No pages since Tuesday.", FRIDAY_20_NOV, ["2026-11-17"]),
    ("we have been on call since Thursday", FRIDAY_20_NOV, ["2026-11-19"]),
    ("errors since Nov 3, still digging", FRIDAY_20_NOV, ["2026-11-03"]),
    ("the dashboard has been down since March", FRIDAY_20_NOV, ["2026-03-01"]),
    ("No incidents since the 12th", FRIDAY_20_NOV, ["2026-11-12"]),
    ("Since Monday, the queue has been slow", FRIDAY_20_NOV, ["2026-11-16"]),
    ("ever since last Tuesday it works", FRIDAY_20_NOV, ["2026-11-17"]),
    # a "since" of reason keeps its clause's tense: the Friday it is
    ("since Friday is a holiday we ship on Thursday", FRIDAY_20_NOV,
     ["2026-11-20", "2026-11-26"]),
    ("Since Monday's a holiday, standup moves to Tuesday", FRIDAY_20_NOV,
     ["2026-11-23", "2026-11-24"]),
])
def test_since_a_date_looks_back(text, said, expected):
    from memory.dates import find_dates
    assert [f.date.start.isoformat() for f in find_dates(text, said)] == expected


@pytest.mark.parametrize("text, said, expected", [
    # were no date at all
    ("Sat 12/5 is the cutover", FRIDAY_20_NOV, [("2026-12-05", "2026-12-05")]),
    ("Sun Dec 6 maintenance window", FRIDAY_20_NOV, [("2026-12-06", "2026-12-06")]),
    ("we need the audit done by year-end", FRIDAY_20_NOV, [("2026-12-31", "2026-12-31")]),
    ("invoices go out at month-end", FRIDAY_20_NOV, [("2026-11-30", "2026-11-30")]),
    ("the second half of December is a freeze", FRIDAY_20_NOV, [("2026-12-16", "2026-12-31")]),
    ("first half of January 2027 for the audit", FRIDAY_20_NOV, [("2027-01-01", "2027-01-15")]),
    # were the whole quarter, or yesterday
    ("mid-Q1 launch", FRIDAY_20_NOV, [("2027-02-01", "2027-02-28")]),
    ("early Q2 for the pricing change", FRIDAY_20_NOV, [("2027-04-01", "2027-04-30")]),
    ("day before yesterday we shipped 4.2", FRIDAY_20_NOV, [("2026-11-18", "2026-11-18")]),
    # a weekday "starting next week" is next week's (it was this week's Thursday)
    ("Ok, retro moves to Thursday 15:00 starting next week.", datetime(2026, 11, 17, 11,
                                                                     tzinfo=timezone.utc),
     [("2026-11-26", "2026-11-26"), ("2026-11-23", "2026-11-29")]),
    ("retro on Thursday, then starting next week on Fridays", datetime(2026, 11, 17, 11,
                                                                      tzinfo=timezone.utc),
     [("2026-11-19", "2026-11-19"), ("2026-11-23", "2026-11-29")]),
    # counted back, or within a month (were no date, the coming Friday, the coming Monday)
    ("shipped two Fridays ago", FRIDAY_20_NOV, [("2026-11-06", "2026-11-06")]),
    ("the Friday before last was the cutover", datetime(2026, 11, 24, 10, tzinfo=timezone.utc),
     [("2026-11-13", "2026-11-13")]),
    ("the weekend before last we migrated", datetime(2026, 11, 24, 10, tzinfo=timezone.utc),
     [("2026-11-14", "2026-11-15")]),
    ("all-hands is the first Monday of December", FRIDAY_20_NOV, [("2026-12-07", "2026-12-07")]),
    ("retro every second Tuesday", FRIDAY_20_NOV, []),
    # the days of a holiday's week (said Monday 16 Nov: they were that week's)
    ("Heads up: the office is closed Thursday and Friday for Thanksgiving.",
     datetime(2026, 11, 16, 10, tzinfo=timezone.utc),
     [("2026-11-26", "2026-11-26"), ("2026-11-27", "2026-11-27"), ("2026-11-26", "2026-11-26")]),
    ("we ship Friday, then off for Thanksgiving", datetime(2026, 11, 16, 10, tzinfo=timezone.utc),
     [("2026-11-20", "2026-11-20"), ("2026-11-26", "2026-11-26")]),
    # words, not days
    ("we sat 12 people at the offsite dinner", FRIDAY_20_NOV, []),
    ("Sun Microsystems 2 deals closed", FRIDAY_20_NOV, []),
])
def test_dates_people_wrote_on_27_nov_seventh_session(text, said, expected):
    from memory.dates import find_dates
    assert [(f.date.start.isoformat(), f.date.end.isoformat())
            for f in find_dates(text, said)] == expected


@pytest.mark.parametrize("text, said, expected", [
    # said in the last quarter, the January after (was no date)
    ("Let's kick off the mobile rewrite in the new year.", datetime(2026, 11, 18, 14,
                                                                     tzinfo=timezone.utc),
     [("2027-01-01", "2027-01-31")]),
    ("Early in the new year we move offices.", datetime(2026, 12, 20, tzinfo=timezone.utc),
     [("2027-01-01", "2027-01-31")]),
    # said in March the year has begun: no month is named
    ("in the new year we hired six people", datetime(2026, 3, 2, tzinfo=timezone.utc), []),
    ("happy new year everyone", datetime(2026, 12, 31, tzinfo=timezone.utc), []),
    # part of a week or month (was the whole of it): said Thursday 26 Nov, "earlier this week" is
    # Monday to Wednesday; said Monday, Monday itself
    ("Earlier this week I rotated the staging certs.", datetime(2026, 11, 26, 10,
                                                               tzinfo=timezone.utc),
     [("2026-11-23", "2026-11-25")]),
    ("earlier this week I rotated the certs", datetime(2026, 11, 23, 10, tzinfo=timezone.utc),
     [("2026-11-23", "2026-11-23")]),
    ("we ship later this week", datetime(2026, 11, 23, 10, tzinfo=timezone.utc),
     [("2026-11-24", "2026-11-29")]),
    ("early next month for the audit", FRIDAY_20_NOV, [("2026-12-01", "2026-12-10")]),
    ("mid next month", FRIDAY_20_NOV, [("2026-12-11", "2026-12-20")]),
    ("late next week works", FRIDAY_20_NOV, [("2026-11-26", "2026-11-29")]),
    ("early next week works", FRIDAY_20_NOV, [("2026-11-23", "2026-11-25")]),
    ("late last month we migrated", FRIDAY_20_NOV, [("2026-10-21", "2026-10-31")]),
    # a day or week counted from the day written after it (was that day, and "the Friday before
    # Christmas" the Friday just past)
    ("the week after Thanksgiving we freeze", FRIDAY_20_NOV, [("2026-11-30", "2026-12-06")]),
    ("the week before Christmas is quiet", FRIDAY_20_NOV, [("2026-12-14", "2026-12-20")]),
    ("Offsite is the week of Jan 11 in Lisbon.", FRIDAY_20_NOV, [("2027-01-11", "2027-01-17")]),
    ("off the day after Thanksgiving", FRIDAY_20_NOV, [("2026-11-27", "2026-11-27")]),
    ("the Monday after Thanksgiving we ship", FRIDAY_20_NOV, [("2026-11-30", "2026-11-30")]),
    ("party on the Friday before Christmas", FRIDAY_20_NOV, [("2026-12-18", "2026-12-18")]),
    ("the weekend before Christmas", FRIDAY_20_NOV, [("2026-12-19", "2026-12-20")]),
    # a length of time after a day is not the week after it, but the day that far on (28 Nov:
    # it was Dec 3 itself); a label read back is the label's
    ("a week after Dec 3", FRIDAY_20_NOV, [("2026-12-10", "2026-12-10")]),
    ("the day after Thanksgiving [2026-11-27]", FRIDAY_20_NOV, [("2026-11-27", "2026-11-27")]),
    # a place's closure is a notice of days to come (were last year's); a ticket closed is past
    ("Office closed Dec 24 - Jan 2.", FRIDAY_20_NOV, [("2026-12-24", "2027-01-02")]),
    ("Reminder: office closed the Friday before Christmas.", FRIDAY_20_NOV,
     [("2026-12-18", "2026-12-18")]),
    ("Support closed Dec 25.", FRIDAY_20_NOV, [("2026-12-25", "2026-12-25")]),
    ("Ticket closed Nov 3.", FRIDAY_20_NOV, [("2026-11-03", "2026-11-03")]),
    ("Shipped Dec 25.", FRIDAY_20_NOV, [("2025-12-25", "2025-12-25")]),
])
def test_dates_people_wrote_on_27_nov_eighth_session(text, said, expected):
    from memory.dates import find_dates
    assert [(f.date.start.isoformat(), f.date.end.isoformat())
            for f in find_dates(text, said)] == expected


WEDNESDAY_25_NOV = datetime(2026, 11, 25, 16, tzinfo=timezone.utc)


@pytest.mark.parametrize("text, said, expected", [
    # a bare weekday that is today's, after a later day in its sentence, is the next one (raj's
    # "back Wednesday", written on a Wednesday, was that day)
    ("I'm off Monday, back Wednesday", WEDNESDAY_25_NOV,
     [("2026-11-30", "2026-11-30"), ("2026-12-02", "2026-12-02")]),
    ("out Friday and Monday, back Wednesday", WEDNESDAY_25_NOV,
     [("2026-11-27", "2026-11-27"), ("2026-11-30", "2026-11-30"), ("2026-12-02", "2026-12-02")]),
    # ... not today's in a sentence of its own, nor after an earlier day
    ("I'm off Monday. The demo is Wednesday.", WEDNESDAY_25_NOV,
     [("2026-11-30", "2026-11-30"), ("2026-11-25", "2026-11-25")]),
    ("the demo is Wednesday", WEDNESDAY_25_NOV, [("2026-11-25", "2026-11-25")]),
    ("shipped Monday, demo Wednesday", WEDNESDAY_25_NOV,
     [("2026-11-23", "2026-11-23"), ("2026-11-25", "2026-11-25")]),
    # two weeks or months back (no date: "what did we ship the week before last?" was answered
    # with last week's releases)
    ("what did we ship the week before last?", WEDNESDAY_25_NOV, [("2026-11-09", "2026-11-15")]),
    ("the month before last we migrated", WEDNESDAY_25_NOV, [("2026-09-01", "2026-09-30")]),
])
def test_dates_people_wrote_on_27_nov_ninth_session(text, said, expected):
    from memory.dates import find_dates
    assert [(f.date.start.isoformat(), f.date.end.isoformat())
            for f in find_dates(text, said)] == expected


FRIDAY_20_NOV = datetime(2026, 11, 20, 12, tzinfo=timezone.utc)


@pytest.mark.parametrize("text, said, expected", [
    # a move's day said again beside it is one day to come ("Dec 8" was December 2025: the
    # clause after the comma took the past tense of "moved", and "the Tuesday after" was 17 Nov)
    ("pilot kickoff moved to the Tuesday after, Dec 8", FRIDAY_20_NOV,
     [("2026-12-08", "2026-12-08")]),
    ("the retro got moved to the Friday", FRIDAY_20_NOV, [("2026-11-27", "2026-11-27")]),
    ("kickoff slipped to next week, Dec 1", FRIDAY_20_NOV,
     [("2026-11-23", "2026-11-29"), ("2026-12-01", "2026-12-01")]),
    # a weekday that is not the date's stays its own day
    ("pilot moved to the Monday after, Dec 8", FRIDAY_20_NOV,
     [("2026-11-23", "2026-11-23"), ("2026-12-08", "2026-12-08")]),
    # a day counted from another ("The AWS savings plan expires 90 days after Dec 1" was 1 Dec)
    ("The AWS savings plan expires 90 days after Dec 1.", FRIDAY_20_NOV,
     [("2027-03-01", "2027-03-01")]),
    ("freeze two weeks before Dec 15", FRIDAY_20_NOV, [("2026-12-01", "2026-12-01")]),
    ("trial ends 3 months from Jan 1", FRIDAY_20_NOV, [("2027-04-01", "2027-04-01")]),
    ("review 10 days prior to Dec 15", FRIDAY_20_NOV, [("2026-12-05", "2026-12-05")]),
])
def test_dates_people_wrote_on_28_nov_tenth_session(text, said, expected):
    from memory.dates import find_dates
    assert [(f.date.start.isoformat(), f.date.end.isoformat())
            for f in find_dates(text, said)] == expected


@pytest.mark.parametrize("parent, reply, expected", [
    # 4 Dec (eleventh session): a reply's bare day is of the month its thread names
    ("Planning the team dinner for the offsite, March 3-5 in Porto",
     "partners welcome for the dinner on the 4th?", [("2027-03-04", "2027-03-04")]),
    ("Kickoff is Jan 30 in Berlin", "flying back on the 2nd", [("2027-02-02", "2027-02-02")]),
    # a thread that names no month leaves it to when it was said
    ("Planning the team dinner for the offsite", "the 4th works", [("2026-12-04", "2026-12-04")]),
])
def test_a_bare_day_in_a_reply_reads_its_threads_month(parent, reply, expected):
    from memory.dates import day_named_with_month, find_dates
    said = datetime(2026, 12, 2, 9, tzinfo=timezone.utc)
    named = day_named_with_month(parent, said)
    assert [(f.date.start.isoformat(), f.date.end.isoformat())
            for f in find_dates(reply, said, named)] == expected


THURSDAY_3_DEC = datetime(2026, 12, 3, 15, tzinfo=timezone.utc)


@pytest.mark.parametrize("text, said, expected", [
    # a month's day of the last few weeks, said with no tense, is that one (it was next year's:
    # an offsite's recap dated a year ahead)
    ("Nov 30 – Dec 2 offsite recap", THURSDAY_3_DEC, [("2026-11-30", "2026-12-02")]),
    ("Dec 1-2 were rough for support", THURSDAY_3_DEC, [("2026-12-01", "2026-12-02")]),
    ("notes from the Nov 20 incident", THURSDAY_3_DEC, [("2026-11-20", "2026-11-20")]),
    # (not further back, nor a day still to come)
    ("the Oct 30 deadline", THURSDAY_3_DEC, [("2027-10-30", "2027-10-30")]),
    ("I'm out Dec 24-26", THURSDAY_3_DEC, [("2026-12-24", "2026-12-26")]),
    # a month's nth weekday without "the" (it was the weekday alone, the coming Monday)
    ("kickoff is first Monday of January", THURSDAY_3_DEC, [("2027-01-04", "2027-01-04")]),
    ("board meeting last Friday in March", THURSDAY_3_DEC, [("2027-03-26", "2027-03-26")]),
    # a date after what was agreed to do is when it is to be done (it was the Q1 just past);
    # before it, when it was agreed
    ("we agreed to move billing to the new ledger in Q1", THURSDAY_3_DEC,
     [("2027-01-01", "2027-03-31")]),
    ("we decided to launch in March", THURSDAY_3_DEC, [("2027-03-01", "2027-03-31")]),
    ("in March we decided to launch", THURSDAY_3_DEC, [("2026-03-01", "2026-03-31")]),
])
def test_dates_people_wrote_on_4_dec_eleventh_session(text, said, expected):
    from memory.dates import find_dates
    assert [(f.date.start.isoformat(), f.date.end.isoformat())
            for f in find_dates(text, said)] == expected


@pytest.mark.parametrize("text, expected", [
    # "required" is a state to come, as "needed" is (it was January just past: said on 3 Dec)
    ("Yubikeys required for admins from Jan 1.", [("2027-01-01", "2027-01-01")]),
    ("MFA was required from Jan 1", [("2026-01-01", "2026-01-01")]),
    # a quarter pencilled in is one to come (it was the Q2 just past)
    ("ok, Dagster migration pencilled in for Q2 then", [("2027-04-01", "2027-06-30")]),
    ("we penciled in Feb 3 for the offsite", [("2027-02-03", "2027-02-03")]),
    # "in the 4th" is a quarter or an inning, no day of the month (LoCoMo: "we were down 10 in
    # the 4th" was labelled a date); "on the 4th" is one
    ("we were down 10 in the 4th and John hit the buzzer-beater", []),
    ("dinner on the 4th", [("2026-12-04", "2026-12-04")]),
    # a shortened month and its year (it was no date: "valid until Dec 2027")
    ("Renewed the cert, valid until Dec 2027.", [("2027-12-01", "2027-12-31")]),
    ("shipped in Sept 2026", [("2026-09-01", "2026-09-30")]),
    ("until Jan 5 2027", [("2027-01-05", "2027-01-05")]),
    # a closure notice with its days first (they were last year's: "closed" made it past)
    ("Dec 24-26 office closed, also Jan 1.", [("2026-12-24", "2026-12-26"),
                                             ("2027-01-01", "2027-01-01")]),
    ("Ticket closed Nov 3", [("2026-11-03", "2026-11-03")]),
])
def test_dates_people_wrote_on_4_dec_twelfth_session(text, expected):
    from memory.dates import find_dates
    assert [(f.date.start.isoformat(), f.date.end.isoformat())
            for f in find_dates(text, THURSDAY_3_DEC)] == expected


@pytest.mark.parametrize("text, expected", [
    # the day a trip ends is not before the day it starts in the same sentence (said on a
    # Thursday, "back Friday" was the next day, two days before the Sunday it leaves)
    ("flying out Sunday, hotel is the Venetian, back Friday night",
     [("2026-12-06", "2026-12-06"), ("2026-12-11", "2026-12-11")]),
    ("leaving Saturday, back Wednesday", [("2026-12-05", "2026-12-05"),
                                          ("2026-12-09", "2026-12-09")]),
    ("off from Monday until Friday", [("2026-12-07", "2026-12-11")]),
    # in sentences of their own, each is read alone; and a day not ending anything stays
    ("Ship Friday. Back Monday", [("2026-12-04", "2026-12-04"), ("2026-12-07", "2026-12-07")]),
    ("demo Monday, retro Friday", [("2026-12-07", "2026-12-07"),
                                   ("2026-12-04", "2026-12-04")]),
    # a shortened month after a preposition, a month after a verb of starting or ending (no
    # dates: "Migration starts Jan.", "back in Feb"); a person named Jan is no month
    ("Migration starts Jan.", [("2027-01-01", "2027-01-31")]),
    ("Migration starts January.", [("2027-01-01", "2027-01-31")]),
    ("she's back in Feb", [("2027-02-01", "2027-02-28")]),
    ("errors since Oct", [("2026-10-01", "2026-10-31")]),
    ("talked to Jan about it", []),
    ("in Jan's team", []),
    ("starts Jan 12", [("2027-01-12", "2027-01-12")]),
    # across two months with a bare dash (each day alone was no date, a hyphen against it)
    ("office closed Dec 24th-Jan 2nd", [("2026-12-24", "2027-01-02")]),
    ("Dec 24-Jan 2", [("2026-12-24", "2027-01-02")]),
    ("Nov 30-Dec 2 offsite recap", [("2026-11-30", "2026-12-02")]),
    ("Dec 3-Dec 5", [("2026-12-03", "2026-12-05")]),
    # a weekday and an ordinal without "the" (it was the Thursday of the week said in)
    ("demo on Thu 10th at 2pm", [("2026-12-10", "2026-12-10")]),
    ("Monday 2nd round", [("2026-12-07", "2026-12-07")]),
    # a year before a colon is the date's ("**Dec 16, 2023 - Jan 15, 2024:** Develop …" read
    # Jan 15 as the one to come, 2027); a colon and digits after it are a time's
    ("**Dec 16, 2025 - Jan 15, 2026:** Develop the ledger", [("2025-12-16", "2026-01-15")]),
    # a clause with its own subject and present verb keeps no other clause's past
    ("Hooli call went well, they want a pilot in Q1", [("2027-01-01", "2027-03-31")]),
    ("We met in March, we want to go back in May", [("2026-03-01", "2026-03-31"),
                                                    ("2027-05-01", "2027-05-31")]),
    ("I went there on Friday, they are nice", [("2026-11-27", "2026-11-27")]),
])
def test_dates_people_wrote_on_4_dec_thirteenth_session(text, expected):
    from memory.dates import find_dates
    assert [(f.date.start.isoformat(), f.date.end.isoformat())
            for f in find_dates(text, THURSDAY_3_DEC)] == expected


@pytest.mark.parametrize("text, expected", [
    # a short weekday typed in lower case before a date of digits: the date on that weekday, in
    # either order ("wed 9/12" and "wed 12/9" are both 9 December, a Wednesday)
    ("offsite planning call wed 12/9", [("2026-12-09", "2026-12-09")]),
    ("call wed 9/12? no wait, wed 12/9", [("2026-12-09", "2026-12-09"),
                                          ("2026-12-09", "2026-12-09")]),
    ("thu 12/10 at 3pm", [("2026-12-10", "2026-12-10")]),
    # and no date where the digits fall on no such weekday ("mon" alone is no Monday)
    ("mon 2/5 tests", []),
    ("fri 3/4", []),
    # "tdy" is today, as "tmrw" is tomorrow
    ("OOO tdy, back tmrw", [("2026-12-03", "2026-12-03"), ("2026-12-04", "2026-12-04")]),
    # "in 3 weeks" after words of a stretch gone by is that stretch, no day to come ("no reply
    # in 3 weeks" was the week of 21 December)
    ("Umbrella went dark, no reply in 3 weeks", []),
    ("first outage in 2 years", []),
    ("haven't shipped in a month", []),
    ("nothing new, will check in 3 days", [("2026-12-06", "2026-12-06")]),
    ("no, we ship in 2 days", [("2026-12-05", "2026-12-05")]),
    # a closure notice that names no place is one still ("closed Dec 24th to Jan 2nd" was last
    # year's, said on 1 December); a ticket closed stays past
    ("closed Dec 24th to Jan 2nd, enjoy the break everyone", [("2026-12-24", "2027-01-02")]),
    ("fyi closed Friday for the offsite", [("2026-12-04", "2026-12-04")]),
    ("Ticket closed Nov 3", [("2026-11-03", "2026-11-03")]),
    ("closed the deal on Monday", [("2026-11-30", "2026-11-30")]),
    # "over the holidays", "the winter break": 24 December to 1 January (it was no date); not a
    # habit of every year's
    ("I'll be offline over the holidays, back Jan 5", [("2026-12-24", "2027-01-01"),
                                                      ("2027-01-05", "2027-01-05")]),
    ("office is closed for the winter break", [("2026-12-24", "2027-01-01")]),
    ("we usually travel over the holidays", []),
    ("the holiday party is Dec 18", [("2026-12-18", "2026-12-18")]),
    # a plan's "arriving" after a clause in the past is to come (it was last year's week of 8 Dec)
    ("finance approved the GPU nodes, arriving week of Dec 14", [("2026-12-14", "2026-12-20")]),
    ("the parts arrived Nov 30", [("2026-11-30", "2026-11-30")]),
    # a forecast is of a day to come, whatever was done beside it (said Saturday 5 Dec: it was
    # the Thursday gone)
    ("Rain forecast Thursday, pour moved to Monday Dec 7", [("2026-12-10", "2026-12-10"),
                                                           ("2026-12-07", "2026-12-07")]),
    ("it rained Thursday, pour moved to Monday Dec 7", [("2026-12-03", "2026-12-03"),
                                                        ("2026-12-07", "2026-12-07")]),
    # a day of a month named in Spanish, German, French, Portuguese or Italian (no date was
    # read: "Cambio: la demo se mueve al viernes 11 de diciembre" moved nothing), the year by
    # tense as in English; not a Mars bar
    ("La demo es el jueves 10 de diciembre a las 11.", [("2026-12-10", "2026-12-10")]),
    ("Deployment verschoben auf Mittwoch, 16. Dezember.", [("2026-12-16", "2026-12-16")]),
    ("la réunion est le 3 mars 2027", [("2027-03-03", "2027-03-03")]),
    ("entrega em 10 de janeiro", [("2027-01-10", "2027-01-10")]),
    ("lo abbiamo rilasciato il 30 novembre", [("2026-11-30", "2026-11-30")]),
    ("3 Mars bars left", []),
    # the day moved away from, after a move with its particle (it was last year's)
    ("Board meeting moved up to Dec 14 from Dec 17.", [("2026-12-14", "2026-12-14"),
                                                       ("2026-12-17", "2026-12-17")]),
    # what a notice or an invite is for is to come, whenever it was sent ("for Dec 8" was last
    # year's, "for Friday" the Friday gone); not what was done on a day
    ("sent the downtime notice to analytics for Dec 8", [("2026-12-08", "2026-12-08")]),
    ("sent the invite for Friday", [("2026-12-04", "2026-12-04")]),
    ("I sent a reminder for last Friday", [("2026-11-27", "2026-11-27")]),
    ("we gave notice on Dec 1", [("2026-12-01", "2026-12-01")]),
    # a day's thing said done is that day gone ("Thursday's deploy is out.", said on a Friday,
    # was the Thursday to come); not someone out that day, nor a thing still to do
    ("Wednesday's deploy is out. SUP-881 should be fixed", [("2026-12-02", "2026-12-02")]),
    ("Raj is out Friday", [("2026-12-04", "2026-12-04")]),
    ("Friday's deploy will include it", [("2026-12-04", "2026-12-04")]),
])
def test_dates_people_wrote_on_5_dec_fourteenth_session(text, expected):
    from memory.dates import find_dates
    assert [(f.date.start.isoformat(), f.date.end.isoformat())
            for f in find_dates(text, THURSDAY_3_DEC)] == expected


@pytest.mark.parametrize("text, away", [
    ("SSO by Dec 15 is tight, realistic is Jan 10", [True, False]),
    ("launch Friday looks unrealistic, more like the 18th", [True, False]),
    ("Dec 15 won't happen, Jan 10 it is", [True, False]),
    ("moved from Thursday to next Tuesday", [True, False]),
    ("ship Dec 15, demo Jan 10", [False, False]),
])
def test_a_day_said_not_to_hold_is_no_longer_its_day(text, away):
    """"SSO by Dec 15 is tight, realistic is Jan 10": when SSO ships was answered 15 December."""
    from memory.dates import find_dates, moved_away_from
    assert [moved_away_from(text, f) for f in find_dates(text, THURSDAY_3_DEC)] == away


def test_weeks_from_today_are_that_day_and_in_weeks_about_then():
    """"2 weeks from today" was labelled "[week of 2026-12-14]"; it is the day two weeks on, and
    "in 2 weeks" stays the week of it."""
    from memory.dates import annotate_dates
    assert annotate_dates("demo 2 weeks from today", THURSDAY_3_DEC)[0] == \
        "demo 2 weeks from today [2026-12-17]"
    assert annotate_dates("demo in 2 weeks", THURSDAY_3_DEC)[0] == \
        "demo in 2 weeks [week of 2026-12-14]"


def test_a_day_reported_after_a_past_clause_is_the_one_to_come():
    """Said on Monday 7 Dec: "Mia's laptop didn't arrive, IT says Wednesday" was labelled the
    Wednesday before (2 Dec): the first clause's past lent to "IT says Wednesday"."""
    from memory.dates import find_dates
    monday = datetime(2026, 12, 7, 9, 30, tzinfo=timezone.utc)
    assert [(f.date.start.isoformat(), f.date.end.isoformat()) for f in find_dates(
        "Mia's laptop didn't arrive, IT says Wednesday", monday)] == [("2026-12-09", "2026-12-09")]
    assert [f.date.start.isoformat() for f in find_dates("she said Friday", monday)] == \
        ["2026-12-04"]


def test_what_thanks_are_for_was_done():
    """Said on Tuesday 1 Dec: "shoutout to @maya for fixing the billing export over the weekend"
    was the weekend to come; thanks are for what was done. Thanks for an invitation keep the
    day's own tense."""
    from memory.dates import annotate_dates
    tuesday = datetime(2026, 12, 1, 10, tzinfo=timezone.utc)
    assert annotate_dates("shoutout to @maya for fixing the export over the weekend",
                          tuesday)[0].endswith("over the weekend [weekend of 2026-11-28]")
    assert annotate_dates("thanks for joining on Friday", tuesday)[0] == \
        "thanks for joining on Friday [2026-11-27]"
    assert annotate_dates("thanks for the invite to Friday dinner", tuesday)[0] == \
        "thanks for the invite to Friday [2026-12-04] dinner"


@pytest.mark.parametrize("text, expected", [
    # a month in brackets after a release (it was no date: "when are we dropping Python 3.9?"
    # was answered "No date was given"), read by the sentence's tense; not a month alone
    ("ok, 3.9 dropped in 6.0 (March), 5.x keeps it", [("2027-03-01", "2027-03-31")]),
    ("lands in 4.2 (Jan)", [("2027-01-01", "2027-01-31")]),
    ("shipped 4.1 (Nov)", [("2026-11-01", "2026-11-30")]),
    ("talk to (May) about it", []),
    ("the march (March) is cancelled", []),
    # what someone is asked to do is to be done ("labeled" made it the Monday gone); its own
    # past stays
    ("triage: 14 issues labeled needs-repro, please take a look before Monday",
     [("2026-12-07", "2026-12-07")]),
    ("please note we closed on Monday", [("2026-11-30", "2026-11-30")]),
    # a note of what to do again later is to come ("blocked" made it last January)
    ("Node 22 upgrade blocked on the sharp image library, revisit in January",
     [("2027-01-01", "2027-01-31")]),
    ("blocked on legal, circle back in Feb", [("2027-02-01", "2027-02-28")]),
    ("revisited it in March", [("2026-03-01", "2026-03-31")]),
    # the state a change left is to come ("changed" made it last year's)
    ("update: my flight changed, now out Dec 22 - Jan 2", [("2026-12-22", "2027-01-02")]),
    ("it broke on Monday, now fixed", [("2026-11-30", "2026-11-30")]),
    # short weekdays and nights as typed ("a proposal by next fri" was no date); "mon", "wed",
    # "sat" and "sun" only after next, this or last
    ("globex wants a proposal by next fri", [("2026-12-04", "2026-12-04")]),
    ("due thurs, review tues", [("2026-12-10", "2026-12-10"), ("2026-12-08", "2026-12-08")]),
    ("staging db migrated tonite, it was slow last nite", [("2026-12-03", "2026-12-03"),
                                                          ("2026-12-02", "2026-12-02")]),
    ("see you tmw", [("2026-12-04", "2026-12-04")]),
    ("demo next wed", [("2026-12-09", "2026-12-09")]),
    ("we sat down on wed and the sun came out", []),
    # a count of things in a stretch is a rate, no day ("1+ session in 28 days" was dated)
    ('an "active user" is now anyone with 1+ session in 28 days', []),
    ("3 deploys in 2 days, twice in a week", []),
    ("demo in 3 days", [("2026-12-06", "2026-12-06")]),
    # what a thing is now, said after what was done, is to come ("done, webinar is now Dec 10
    # …, updated the invite" was last year's)
    ("done, webinar is now Dec 10 at 2pm ET, updated the invite", [("2026-12-10", "2026-12-10")]),
    ("we shipped on Monday, it's now live", [("2026-11-30", "2026-11-30")]),
])
def test_dates_people_wrote_on_5_dec_fifteenth_session(text, expected):
    from memory.dates import find_dates
    assert [(f.date.start.isoformat(), f.date.end.isoformat())
            for f in find_dates(text, THURSDAY_3_DEC)] == expected


@pytest.mark.parametrize("text, expected", [
    # a shopping holiday is its day, not the weekday in its name ("the Black Friday recap
    # deploy", said on 4 Dec, was 11 December)
    ("Saturday conflicts with the Black Friday recap deploy",
     [("2026-12-05", "2026-12-05"), ("2026-11-27", "2026-11-27")]),
    ("black friday traffic was 3x normal", [("2026-11-27", "2026-11-27")]),
    ("Cyber Monday went fine", [("2026-11-30", "2026-11-30")]),
    ("see you friday", [("2026-12-04", "2026-12-04")]),
    # a month's accounts are of the month that has begun, whatever the tense ("November
    # expenses due by Dec 7", said on 3 Dec, were November 2027's)
    ("reminder: November expenses due by Dec 7", [("2026-11-01", "2026-11-30"),
                                                  ("2026-12-07", "2026-12-07")]),
    ("submit your November timesheets", [("2026-11-01", "2026-11-30")]),
    ("the October AWS bill will be lower", [("2026-10-01", "2026-10-31")]),
    ("the November offsite will be in Lisbon", [("2027-11-01", "2027-11-30")]),
])
def test_dates_people_wrote_on_5_dec_sixteenth_session(text, expected):
    from memory.dates import find_dates
    assert [(f.date.start.isoformat(), f.date.end.isoformat())
            for f in find_dates(text, THURSDAY_3_DEC)] == expected


@pytest.mark.parametrize("text, expected", [
    # a meeting and its day, no verb, after what was done: a schedule ("Priya passed the phone
    # screen, onsite Thursday 2pm" was the Thursday gone)
    ("Priya passed the phone screen, onsite Friday 2pm, panel is omar and me",
     [("2026-12-04", "2026-12-04")]),
    ("fixed the flaky test, demo Monday", [("2026-12-07", "2026-12-07")]),
    ("had the interview, it went well Monday", [("2026-11-30", "2026-11-30")]),
    ("onsite went great Monday, we hired her", [("2026-11-30", "2026-11-30")]),
    # a month a figure is compared with ("up 12% on October ($43.0k)" was no date)
    ("AWS bill for November: $48.2k, up 12% on October ($43.0k)",
     [("2026-11-01", "2026-11-30"), ("2026-10-01", "2026-10-31")]),
    ("signups 20% higher than October", [("2026-10-01", "2026-10-31")]),
    ("churn down vs. September", [("2026-09-01", "2026-09-30")]),
    ("we met on October 3", [("2026-10-03", "2026-10-03")]),
    # a quarter's plan is made before it ("told them it's on the Q1 roadmap", said in
    # December, was Q1 2026); its goals can be of one gone
    ("Initech wants SCIM, told them it's on the Q1 roadmap, no date yet",
     [("2027-01-01", "2027-03-31")]),
    ("we finished Q1 planning", [("2027-01-01", "2027-03-31")]),
    ("we hit our Q3 goals", [("2026-07-01", "2026-09-30")]),
    # a day of an event is none of the week it was said in ("Wednesday of KubeCon", said in
    # December of a conference in March, was the Wednesday after); "of next week" is next week's
    ("my talk got accepted, Wednesday of KubeCon", []),
    ("the Wednesday of the offsite", []),
    ("Wednesday of next week", [("2026-12-09", "2026-12-09")]),
    ("Friday of this week", [("2026-12-04", "2026-12-04")]),
    # what is needed, its subject left out, is to come ("peaked …, need a bigger box before
    # Christmas" was last Christmas)
    ("CPU peaked at 88% during the Black Friday rush, need a bigger box before Christmas",
     [("2026-11-27", "2026-11-27"), ("2026-12-25", "2026-12-25")]),
    ("it broke on Monday, should have caught it", [("2026-11-30", "2026-11-30")]),
    # a go given is for the day to come ("rc2 QA passed, go for Monday" was the Monday gone)
    ("rc2 QA passed, go for Monday", [("2026-12-07", "2026-12-07")]),
    # a kind of rollout is no deed ("releasing to 10% phased rollout Monday", said on a Friday,
    # was the Monday gone); what was phased out stays done
    ("4.12 approved! releasing to 10% phased rollout Monday", [("2026-12-07", "2026-12-07")]),
    ("staged rollout to 5% Friday", [("2026-12-04", "2026-12-04")]),
    ("we phased out the v1 API on Monday", [("2026-11-30", "2026-11-30")]),
    # the night just ended is the day it was said ("backfill of the events table from June
    # finished overnight" answered "when did the backfill finish?" with June)
    ("backfill finished overnight, took 7 hours", [("2026-12-03", "2026-12-03")]),
    ("we'll run the reindex overnight", [("2026-12-03", "2026-12-03")]),
    ("use overnight shipping for the badges", []),
    # a thing on a day, no verb of its own, is its schedule ("playtest Saturday at 2pm, 12
    # testers confirmed", said on a Wednesday, was the Saturday gone)
    ("playtest Saturday at 2pm, 12 testers confirmed", [("2026-12-05", "2026-12-05")]),
    ("we played the match Saturday", [("2026-11-28", "2026-11-28")]),
    ("yoga class Saturday, loved it", [("2026-11-28", "2026-11-28")]),
    # what is back on is on for a day to come ("approved the Teams app 🎉 email back on for
    # Tuesday", said on a Friday, was the Tuesday gone)
    ("Microsoft approved the Teams app 🎉 email back on for Tuesday",
     [("2026-12-08", "2026-12-08")]),
    ("the offsite is still on for Friday", [("2026-12-04", "2026-12-04")]),
    # a day held for what is to come ("gig at The Lantern confirmed for Dec 12, load-in 6pm",
    # said 10 Nov, was last year's); a day confirmed as done stays done
    ("gig at The Lantern confirmed for Dec 12, load-in 6pm", [("2026-12-12", "2026-12-12")]),
    ("talk accepted for Jan 8, room B", [("2027-01-08", "2027-01-08")]),
    ("we confirmed the booking on Monday", [("2026-11-30", "2026-11-30")]),
    # a passive of an irregular verb after "get" or "be" is no deed ("submit invoices before
    # Dec 15 to get paid this year", said 2 Dec, was last year's), nor an offer's adjective
    # ("office closed Dec 25 and Jan 1, otherwise open with reduced hours": last Christmas)
    ("submit invoices before Dec 15 to get paid", [("2026-12-15", "2026-12-15")]),
    ("office closed Dec 25, otherwise open with reduced hours", [("2026-12-25", "2026-12-25")]),
    ("the invoice was paid Dec 1", [("2026-12-01", "2026-12-01")]),
    ("we got paid on Nov 20", [("2026-11-20", "2026-11-20")]),
    ("the contract has been sent on Monday", [("2026-11-30", "2026-11-30")]),
    ("the invoice has been paid on Monday", [("2026-11-30", "2026-11-30")]),
    ("we reduced hours on Monday", [("2026-11-30", "2026-11-30")]),
    # where a thing is kept is no deed ("Initech NDA expires Dec 31, renewal draft in the
    # shared drive", said 3 Dec, was last year's); sharing is
    ("Initech NDA expires Dec 31, renewal draft in the shared drive",
     [("2026-12-31", "2026-12-31")]),
    ("I shared the deck on Monday", [("2026-11-30", "2026-11-30")]),
    # the day a plan leaves may be today ("moved from Thursday to Monday", said on a
    # Thursday, was from 10 to 14 December, the new day put after the old one)
    ("2.15 ships Monday instead of Thursday", [("2026-12-07", "2026-12-07"),
                                               ("2026-12-03", "2026-12-03")]),
    ("release moved from Thursday to Monday", [("2026-12-03", "2026-12-03"),
                                               ("2026-12-07", "2026-12-07")]),
    ("flying out Sunday, back Friday night", [("2026-12-06", "2026-12-06"),
                                              ("2026-12-11", "2026-12-11")]),
    # a day's planning, a deadline or a due date that was: nouns, no plan ("the invoice was due
    # Nov 30", said 3 Dec, was next year's; "we agreed in Monday's planning" the Monday to come)
    ("we agreed in Monday's planning to cut scope, launch stays on the 15th",
     [("2026-11-30", "2026-11-30"), ("2026-12-15", "2026-12-15")]),
    ("invoice was due Nov 30, they paid yesterday", [("2026-11-30", "2026-11-30"),
                                                     ("2026-12-02", "2026-12-02")]),
    ("the deadline was Friday", [("2026-11-27", "2026-11-27")]),
    ("the deadline is Friday", [("2026-12-04", "2026-12-04")]),
    ("due Nov 30", [("2027-11-30", "2027-11-30")]),
    # a plan's day after what was done ("kickoff the week of Dec 14" was last year's)
    ("contract signed last Friday, kickoff the week of Dec 14",
     [("2026-11-27", "2026-11-27"), ("2026-12-14", "2026-12-20")]),
    ("kickoff the week of Nov 16 went well", [("2026-11-16", "2026-11-22")]),
    # what a day holds, said in the present after what was done ("3.8.4 released with the CVE
    # fix, advisory goes public Dec 9" was last year's Dec 9)
    ("3.8.4 released with the CVE fix, advisory goes public Dec 9",
     [("2026-12-09", "2026-12-09")]),
    ("4.0 rc1 tagged, final planned for Jan 6", [("2027-01-06", "2027-01-06")]),
    ("we planned for Monday but it slipped", [("2026-11-30", "2026-11-30")]),
    ("it was planned for Monday", [("2026-11-30", "2026-11-30")]),
])
def test_dates_people_wrote_on_5_dec_seventeenth_session(text, expected):
    from memory.dates import find_dates
    assert [(f.date.start.isoformat(), f.date.end.isoformat())
            for f in find_dates(text, THURSDAY_3_DEC)] == expected


@pytest.mark.parametrize("text, expected", [
    # "EOD" after the day it ends is that day, not the message's ("cut the branch Dec 9 EOD",
    # said 4 Dec, showed "EOD [2026-12-04]" beside "Dec 9 [2026-12-09]")
    ("code freeze starts Dec 10, cut the branch Dec 9 EOD", [("2026-12-10", "2026-12-10"),
                                                             ("2026-12-09", "2026-12-09")]),
    ("Friday EOD please", [("2026-12-04", "2026-12-04")]),
    ("done by tomorrow EOD", [("2026-12-04", "2026-12-04")]),
    ("by the 9th EOD", [("2026-12-09", "2026-12-09")]),
    ("on Dec 9, EOD", [("2026-12-09", "2026-12-09")]),
    # (alone, or before its day, as before)
    ("send it by EOD", [("2026-12-03", "2026-12-03")]),
    ("by EOD Friday", [("2026-12-04", "2026-12-04")]),
    # what is committed for a quarter is to come ("Initech signed a 2-year renewal …, SSO
    # committed for Q2", said 4 Dec, was the Q2 gone, and answered "when is Initech's renewal?")
    ("Initech signed a 2-year renewal at $96k ARR, SSO committed for Q2",
     [("2027-04-01", "2027-06-30")]),
    # a month a plan is for, of the months that are names too (no date: "for March" alone)
    ("SSO is planned for March", [("2027-03-01", "2027-03-31")]),
    ("the offsite is slated for May", [("2027-05-01", "2027-05-31")]),
    ("it was planned for March but slipped", [("2026-03-01", "2026-03-31")]),
    ("we're waiting for May", []),
])
def test_dates_people_wrote_on_5_dec_eighteenth_session(text, expected):
    from memory.dates import find_dates
    assert [(f.date.start.isoformat(), f.date.end.isoformat())
            for f in find_dates(text, THURSDAY_3_DEC)] == expected


MONDAY_30_NOV = datetime(2026, 11, 30, 8, 10, tzinfo=timezone.utc)


@pytest.mark.parametrize("text, expected", [
    # "since" before a day's possessive looks back ("Acme can't export invoices to CSV since
    # Friday's release", said Monday 30 Nov, was dated the Friday to come, 4 Dec)
    ("Acme can't export invoices to CSV since Friday's release", [("2026-11-27", "2026-11-27")]),
    ("errors since Friday's deploy", [("2026-11-27", "2026-11-27")]),
    # (a reason's "'s" is "is", as before: the Friday to come)
    ("since Friday's a holiday, we ship Thursday", [("2026-12-04", "2026-12-04"),
                                                    ("2026-12-03", "2026-12-03")]),
    # a deadline extended moved to its day ("extended to Dec 11" is a move, as "pushed to")
    ("Initech questionnaire deadline extended to Dec 11", [("2026-12-11", "2026-12-11")]),
    # what one is now, after a move said in the past tense, is to come ("Update: my trip moved,
    # I'm now out Dec 21-24 instead", said 30 Nov or 2 Dec, was last year's Dec 21-24)
    ("Update: my trip moved, I'm now out Dec 21-24 instead.", [("2026-12-21", "2026-12-24")]),
])
def test_dates_people_wrote_on_6_dec_nineteenth_session(text, expected):
    from memory.dates import find_dates
    assert [(f.date.start.isoformat(), f.date.end.isoformat())
            for f in find_dates(text, MONDAY_30_NOV)] == expected


THURSDAY_3_DEC_EVENING = datetime(2026, 12, 3, 18, 0, tzinfo=timezone.utc)


@pytest.mark.parametrize("text, expected", [
    # a sentence runs past a version's dots ("Build 884 approved! Releasing iOS 4.12.0 manually
    # on Thursday", said on a Thursday, was cut at "4.12." and read as today)
    ("Build 884 approved! Releasing iOS 4.12.0 manually on Thursday.",
     [("2026-12-10", "2026-12-10")]),
    ("We shipped v2.3 yesterday. Next is 2.4 on Friday.", [("2026-12-02", "2026-12-02"),
                                                            ("2026-12-04", "2026-12-04")]),
    # (what a release takes out is to come: the past of "dropped" had been cut off with "6.")
    ("ok, 3.9 dropped in 6.0 (March), 5.x keeps it", [("2027-03-01", "2027-03-31")]),
    # a day that something is, whatever participle names it ("Coordinated disclosure date for
    # the CVE is Dec 9", said 2 Dec, was last year's)
    ("Coordinated disclosure date for the CVE is Dec 9, 14:00 UTC.",
     [("2026-12-09", "2026-12-09")]),
    ("Blocked release is Friday", [("2026-12-04", "2026-12-04")]),
    # "un-" participles are states ("…, untagged resources get a weekly report", said 4 Dec of
    # "tags by Dec 15", was last year's); "unblocked" is a deed
    ("Tagging policy: every resource needs team and env tags by Dec 15, untagged resources get "
     "a weekly report to their account owner.", [("2026-12-15", "2026-12-15")]),
    ("we unblocked the deploy on Tuesday", [("2026-12-01", "2026-12-01")]),
    # a budget approved for a quarter is that quarter to come, as "committed for"
    ("Globex discovery call: 400 seats. Budget approved for Q1.", [("2027-01-01", "2027-03-31")]),
    # a clause with its own subject and "is" keeps no other clause's past ("Auditor moved
    # fieldwork to Jan 19, their team is short-staffed in January", said 4 Dec: last January)
    ("Auditor moved fieldwork to Jan 19, their team is short-staffed in January.",
     [("2027-01-19", "2027-01-19"), ("2027-01-01", "2027-01-31")]),
    # "Adding X to Q1" is a plan ("…, top request (14 accounts asked)", said 3 Dec: last Q1)
    ("Adding Slack connector to Q1, top request from enterprise (14 accounts asked).",
     [("2027-01-01", "2027-03-31")]),
])
def test_dates_people_wrote_on_6_dec_twentieth_session(text, expected):
    from memory.dates import find_dates
    assert [(f.date.start.isoformat(), f.date.end.isoformat())
            for f in find_dates(text, THURSDAY_3_DEC_EVENING)] == expected


@pytest.mark.parametrize("text, expected", [
    # a delivery's day is a schedule's ("Ordered 2TB volumes for db-3, delivery Thursday", said
    # on a Monday, was the Thursday gone)
    ("Ordered 2TB volumes for db-3 and db-4, delivery Thursday.", [("2026-12-03", "2026-12-03")]),
    ("Shipped the replacement router, arrival Friday", [("2026-12-04", "2026-12-04")]),
    # about that far on ("db-3 disk at 72% … Full in about 3 weeks at this rate" had no date);
    # "some 3 weeks ago" stays ago
    ("db-3 disk at 72%, growing ~1.5%/day. Full in about 3 weeks at this rate.",
     [("2026-12-21", "2026-12-21")]),
    ("in roughly two weeks", [("2026-12-14", "2026-12-14")]),
    # the day of a thing that has one, with no preposition: "Acme renewal is 12/31" (said 30
    # Nov, no date); a ratio is none
    ("Acme renewal is 12/31, $84k ARR.", [("2026-12-31", "2026-12-31")]),
    ("the deadline is 1/15 at 5pm", [("2027-01-15", "2027-01-15")]),
    ("the ratio is 16/9", []),
    ("I was there some 3 weeks ago", [("2026-11-09", "2026-11-09")]),
])
def test_dates_people_wrote_on_6_dec_twentieth_session_said_on_a_monday(text, expected):
    from memory.dates import find_dates
    assert [(f.date.start.isoformat(), f.date.end.isoformat())
            for f in find_dates(text, MONDAY_30_NOV)] == expected


TUESDAY_24_NOV = datetime(2026, 11, 24, 10, 0, tzinfo=timezone.utc)
FRIDAY_4_DEC = datetime(2026, 12, 4, 10, 0, tzinfo=timezone.utc)


@pytest.mark.parametrize("text, expected", [
    # a day of a month set off by itself after what was done is the nearest such day ("We got a
    # 10x10 booth at DevWorld, Feb 17-19 in Austin", said 24 Nov, was last February's); what
    # was done on a day of a month just gone keeps it
    ("We got a 10x10 booth at DevWorld, Feb 17-19 in Austin. Booth #412.",
     [("2027-02-17", "2027-02-19")]),
    ("Deployed the fix to prod, Nov 20", [("2026-11-20", "2026-11-20")]),
    ("On Nov 20, we shipped", [("2026-11-20", "2026-11-20")]),
    ("We got the keys on Feb 17", [("2026-02-17", "2026-02-17")]),
])
def test_dates_people_wrote_on_6_dec_twenty_first_session(text, expected):
    from memory.dates import find_dates
    assert [(f.date.start.isoformat(), f.date.end.isoformat())
            for f in find_dates(text, TUESDAY_24_NOV)] == expected


@pytest.mark.parametrize("text, expected", [
    # a day named "date", "deadline" or "ETA" is a schedule's, two words before it ("EXP-214
    # restarted, new end date Dec 18", said 4 Dec, was last year's); "was" keeps its past
    ("SRM fixed by excluding the crawler UA. EXP-214 restarted, new end date Dec 18.",
     [("2026-12-18", "2026-12-18")]),
    ("It restarted, new go-live date is Jan 5", [("2027-01-05", "2027-01-05")]),
    ("We restarted it, the end date was Dec 1.", [("2026-12-01", "2026-12-01")]),
    ("Close is running late, new target Dec 10.", [("2026-12-10", "2026-12-10")]),
    # a month naming a thing of it is the nearest such month, not another clause's tense
    # ("$1,200 credit for the November outage, applied to their next invoice", said 2 Dec, was
    # next November's)
    ("Refund approved for Globex: $1,200 credit for the November outage, applied to their next "
     "invoice.", [("2026-11-01", "2026-11-30")]),
    ("we will do the March release", [("2027-03-01", "2027-03-31")]),
    ("we shipped the March release", [("2026-03-01", "2026-03-31")]),
    # approved for a day is that day to come; approved for someone lends no future
    ("Budget approved for Q1", [("2027-01-01", "2027-03-31")]),
    # a day of a month a thing starts from is the nearest ("MSA signed by both sides! Effective
    # Dec 1.", said 3 Dec, was next year's); a weekday's stays to come, a move's too
    ("MSA signed by both sides! Effective Dec 1.", [("2026-12-01", "2026-12-01")]),
    ("Effective Jan 1, prices go up", [("2027-01-01", "2027-01-01")]),
    ("starting Monday we deploy daily", [("2026-12-07", "2026-12-07")]),
    ("the release moved to Dec 1", [("2027-12-01", "2027-12-01")]),
    # "that day" is the day said before it ("Launch date for Lurker 2.0 is Jan 14. Press embargo
    # lifts at 9am ET that day." had no date for the embargo); with none before it, none
    ("Launch date for Lurker 2.0 is Jan 14. Press embargo lifts at 9am ET that day.",
     [("2027-01-14", "2027-01-14"), ("2027-01-14", "2027-01-14")]),
    ("We shipped on Monday and fixed it that same day", [("2026-11-30", "2026-11-30"),
                                                         ("2026-11-30", "2026-11-30")]),
    ("I'll never forget that day", []),
    ("the same day delivery costs extra", []),
    # a month's accounts written before the month ("Expense reports for November are due Dec 5",
    # said 2 Dec, were next November's); a plan for a month stays to come
    ("Expense reports for November are due Dec 5.", [("2026-11-01", "2026-11-30"),
                                                    ("2026-12-05", "2026-12-05")]),
    ("we are planning for November", [("2027-11-01", "2027-11-30")]),
])
def test_dates_people_wrote_on_6_dec_twenty_first_session_said_on_a_friday(text, expected):
    from memory.dates import find_dates
    assert [(f.date.start.isoformat(), f.date.end.isoformat())
            for f in find_dates(text, FRIDAY_4_DEC)] == expected


@pytest.mark.parametrize("text, expected", [
    # a weekday said in a clause with "this week" is this week's ("community call moved from
    # Thursday to Friday 17:00 UTC this week only", said on Friday 4 Dec, was 10 and 11 Dec);
    # another clause's week lends it nothing
    ("community call moved from Thursday to Friday 17:00 UTC this week only",
     [("2026-12-03", "2026-12-03"), ("2026-12-04", "2026-12-04"), ("2026-11-30", "2026-12-06")]),
    ("this week the call is on Friday", [("2026-11-30", "2026-12-06"),
                                         ("2026-12-04", "2026-12-04")]),
    ("Demo on Friday and release next week", [("2026-12-04", "2026-12-04"),
                                              ("2026-12-07", "2026-12-13")]),
    ("See you Thursday, this week is long", [("2026-12-10", "2026-12-10"),
                                              ("2026-11-30", "2026-12-06")]),
    # a move past a ticket's or a version's name is a move ("Apple delayed PO-7712 shipment to
    # Jan 6", said 4 Dec, was last January's); a deed on a day stays past
    ("Apple delayed PO-7712 shipment to Jan 6.", [("2027-01-06", "2027-01-06")]),
    ("we pushed the v2.3.1 release to Jan 8", [("2027-01-08", "2027-01-08")]),
    ("we shipped PO-12 on Jan 6", [("2026-01-06", "2026-01-06")]),
])
def test_dates_people_wrote_on_6_dec_twenty_second_session_said_on_a_friday(text, expected):
    from memory.dates import find_dates
    assert [(f.date.start.isoformat(), f.date.end.isoformat())
            for f in find_dates(text, FRIDAY_4_DEC)] == expected


@pytest.mark.parametrize("text,expected", [
    # the day a moved thing had, after its new one, is the nearest such day ("Health inspection
    # moved to Dec 10, was Dec 8", said 4 Dec, was last year's Dec 8: its "was" read as past)
    ("Health inspection moved to Dec 10, was Dec 8.", [("2026-12-10", "2026-12-10"),
                                                       ("2026-12-08", "2026-12-08")]),
    ("Inspection moved to the 10th (was the 8th)", [("2026-12-10", "2026-12-10"),
                                                    ("2026-12-08", "2026-12-08")]),
    ("Offsite pushed to March 3, originally Feb 24", [("2027-03-03", "2027-03-03"),
                                                      ("2027-02-24", "2027-02-24")]),
    # (a day that was, with no move before it, stays past)
    ("Sprint review was Dec 2", [("2026-12-02", "2026-12-02")]),
    ("The audit was Dec 8", [("2025-12-08", "2025-12-08")]),
    # a month's accrual is of a month that has begun ("Payroll accrual for November booked:
    # $612k", said 4 Dec, was next November's: "booked" is a plan's word)
    ("Payroll accrual for November booked: $612k.", [("2026-11-01", "2026-11-30")]),
    ("Commissions for November paid out", [("2026-11-01", "2026-11-30")]),
    ("Room booked for November 20", [("2027-11-20", "2027-11-20")]),
    # two days running are one span ("Parent-teacher conferences are Dec 10 and 11" was the
    # 10th alone); two days apart stay the first, and a count after them is no day
    ("Parent-teacher conferences are Dec 10 and 11, 3-7pm.", [("2026-12-10", "2026-12-11")]),
    ("Office hours Dec 10 & 11th", [("2026-12-10", "2026-12-11")]),
    ("Demos on Dec 10 and 17", [("2026-12-10", "2026-12-10")]),
    ("party on Dec 10 and 11 guests so far", [("2026-12-10", "2026-12-10")]),
    # a need by a day is a deadline to come, whatever is done beside it
    ("Umbrella DPA needs signature by Dec 12, they're in the EU so we need SCCs attached.",
     [("2026-12-12", "2026-12-12")]),
    ("we needed the keys by Dec 1", [("2026-12-01", "2026-12-01")]),
])
def test_dates_people_wrote_on_6_dec_twenty_third_session_said_on_a_friday(text, expected):
    from memory.dates import find_dates
    assert [(f.date.start.isoformat(), f.date.end.isoformat())
            for f in find_dates(text, FRIDAY_4_DEC)] == expected


def test_a_range_read_again_with_its_label_is_one_range():
    """6 Dec (twenty-second session): "The code freeze is Dec 18 to Jan 4 [2026-12-18 to
    2027-01-04]", read again at recall, was Dec 18 and then the range (its label follows the
    range's end), and "when does the code freeze end?" was answered 18 December."""
    from memory.dates import find_dates
    anchor = datetime(2026, 11, 30, 9, tzinfo=timezone.utc)
    said = "The code freeze is Dec 18 to Jan 4."
    annotated = annotate_dates(said, anchor)[0]
    assert annotated == "The code freeze is Dec 18 to Jan 4 [2026-12-18 to 2027-01-04]."
    for text in (said, annotated):
        assert [(f.date.phrase, f.date.start.isoformat(), f.date.end.isoformat())
                for f in find_dates(text, anchor)] == [("Dec 18 to Jan 4", "2026-12-18",
                                                        "2027-01-04")], text
    # (two days labelled each stay two)
    assert len(find_dates("Dec 18 [2026-12-18] to Jan 4 [2027-01-04]", anchor)) == 2


SATURDAY_28_NOV = datetime(2026, 11, 28, 7, tzinfo=timezone.utc)


@pytest.mark.parametrize("text, expected", [
    # 7 Dec (twenty-ninth session): a weekday and its date a shift's words apart are one day
    # ("can anyone swap my Saturday night shift (Dec 5)?", said that Saturday, was labelled
    # "Saturday [2026-11-28]", the day it was said)
    ("can anyone swap my Saturday night shift (Dec 5)?", [("2026-12-05", "2026-12-05")]),
    ("the Saturday night shift on Dec 5", [("2026-12-05", "2026-12-05")]),
    ("Saturday morning (Dec 5) works", [("2026-12-05", "2026-12-05")]),
    # a weekday that is not the date's stays its own day
    ("Friday night shift (Dec 5)", [("2026-12-04", "2026-12-04"), ("2026-12-05", "2026-12-05")]),
    # a bare weekday after days named in its sentence is one of them ("bus leaves at 6am
    # Saturday" was the coming Saturday, two weeks before the tournament)
    ("tournament is the weekend of Dec 12-13, bus leaves the school at 6am Saturday",
     [("2026-12-12", "2026-12-13"), ("2026-12-12", "2026-12-12")]),
    ("offsite Dec 14-16, dinner on Tuesday", [("2026-12-14", "2026-12-16"),
                                              ("2026-12-15", "2026-12-15")]),
    # (not past the sentence's end, and not a week said without its date)
    ("offsite Dec 14-16. Friday we ship", [("2026-12-14", "2026-12-16"),
                                           ("2026-12-04", "2026-12-04")]),
])
def test_dates_people_wrote_on_7_dec_twenty_ninth_session(text, expected):
    from memory.dates import find_dates
    assert [(f.date.start.isoformat(), f.date.end.isoformat())
            for f in find_dates(text, SATURDAY_28_NOV)] == expected


@pytest.mark.parametrize("text, expected", [
    # a stretch that starts and runs through a day is one range ("can I deploy on Dec 20?"
    # under "the deploy freeze starts Dec 18 and runs through Jan 4" found two days, neither 20)
    ("heads up, the deploy freeze starts Dec 18 and runs through Jan 4",
     [("2026-12-18", "2027-01-04")]),
    ("the sale starts Dec 10 and goes until Dec 14", [("2026-12-10", "2026-12-14")]),
    # a day of a month that ends a stretch after its start is a year on, not weeks on ("promo
    # starts Dec 1 and goes to Dec 24" ended on 2 December 2027)
    ("promo starts Dec 1 and goes to Dec 24", [("2027-12-01", "2027-12-24")]),
    # the day a thing good for a time runs out ("when does the SSL cert expire?" under "renewed
    # the SSL cert, it's good for 90 days" was "No date was given")
    ("renewed the SSL cert, it's good for 90 days", [("2027-03-04", "2027-03-04")]),
    ("the voucher is valid for 2 weeks", [("2026-12-18", "2026-12-18")]),
    ("the coupon is good for one use", []),
    ("good for 2 people", []),
])
def test_stretches_people_wrote_on_7_dec_said_on_a_friday(text, expected):
    """(and read the same again with the label ingest wrote: "when does the deploy freeze
    end?" was 18 December, the range labelled after its end and its start read alone)"""
    from memory.dates import find_dates
    for said in (text, annotate_dates(text, FRIDAY_4_DEC)[0]):
        assert [(f.date.start.isoformat(), f.date.end.isoformat())
                for f in find_dates(said, FRIDAY_4_DEC)] == expected, said


@pytest.mark.parametrize("text, expected", [
    # an ETA given as a wait is that far on ("when will the freezer be fixed?" under "facilities
    # says the compressor needs replacing, ETA 2 weeks" was the day the alarm went off)
    ("facilities says the compressor needs replacing, ETA 2 weeks", [("2026-12-18", "2026-12-18")]),
    ("ETA: 10 days", [("2026-12-14", "2026-12-14")]),
    ("ETA is two weeks", [("2026-12-18", "2026-12-18")]),
    ("eta ~3 days", [("2026-12-07", "2026-12-07")]),
    # (not a wait past a thing, nor a delay, nor a word ending in "eta")
    ("ETA 2 weeks after launch", []),
    ("the ETA slipped, now 2 weeks late", []),
    ("beta 2 weeks", []),
])
def test_an_eta_given_as_a_wait_said_on_a_friday(text, expected):
    from memory.dates import find_dates
    assert [(f.date.start.isoformat(), f.date.end.isoformat())
            for f in find_dates(text, FRIDAY_4_DEC)] == expected


def test_an_eta_in_weeks_is_labelled_the_week_as_in_weeks_is():
    assert annotate_dates("the compressor needs replacing, ETA 2 weeks", FRIDAY_4_DEC)[0] == \
        "the compressor needs replacing, ETA 2 weeks [week of 2026-12-14]"


@pytest.mark.parametrize("text, expected", [
    # a season whose own days are said is those days, not 24 December to 1 January beside them
    # ("winter break [2026-12-24 to 2027-01-01] is Dec 21 - Jan 4" read two breaks)
    ("winter break is Dec 21 - Jan 4, school resumes Jan 5",
     [("2026-12-21", "2027-01-04"), ("2027-01-05", "2027-01-05")]),
    ("the winter break runs from December 21", [("2026-12-21", "2026-12-21")]),
    # (said without its days, it is still the season)
    ("winter break is coming", [("2026-12-24", "2027-01-01")]),
])
def test_a_season_said_with_its_days_on_a_friday(text, expected):
    from memory.dates import find_dates
    assert [(f.date.start.isoformat(), f.date.end.isoformat())
            for f in find_dates(text, FRIDAY_4_DEC)] == expected


@pytest.mark.parametrize("text, expected", [
    # a change said as going on is one to come, whatever was done beside it ("rent is going up
    # to $2,400 starting January, landlord emailed", said 28 Nov, was last January)
    ("rent is going up to $2,400 starting January, landlord emailed",
     [("2027-01-01", "2027-01-31")]),
    ("prices are increasing in January, vendor emailed", [("2027-01-01", "2027-01-31")]),
    # (not a state since a month, nor one that was)
    ("she is going through a rough patch since January", [("2026-01-01", "2026-01-31")]),
    ("it was going well in January", [("2026-01-01", "2026-01-31")]),
])
def test_a_change_going_on_said_on_a_saturday(text, expected):
    from memory.dates import find_dates
    assert [(f.date.start.isoformat(), f.date.end.isoformat())
            for f in find_dates(text, SATURDAY_28_NOV)] == expected


@pytest.mark.parametrize("text, expected", [
    # a participle with no subject, after a clause in the present, is of that clause's time
    # ("finalized after comp committee on Dec 15", said 4 Dec, was last year's Dec 15)
    ("Q4 bonus accrual is $312k, finalized after comp committee on Dec 15",
     [("2026-10-01", "2026-12-31"), ("2026-12-15", "2026-12-15")]),
    # (the nearest is the day gone, when it is gone: "the invoice is $5k, paid on Dec 1")
    ("the invoice is $5k, paid on Dec 1", [("2026-12-01", "2026-12-01")]),
    # (and after a clause in the past it stays past)
    ("the bonus was $5k, finalized after the committee on Dec 15", [("2025-12-15", "2025-12-15")]),
])
def test_a_participle_after_a_present_clause_said_on_a_friday(text, expected):
    from memory.dates import find_dates
    assert [(f.date.start.isoformat(), f.date.end.isoformat())
            for f in find_dates(text, FRIDAY_4_DEC)] == expected


@pytest.mark.parametrize("text, expected", [
    # a record of a day is of a day gone, whatever looks ahead beside it ("need the council
    # minutes from Nov 18", said 4 Dec, were next November's)
    ("I'm on the zoning piece, need the council minutes from Nov 18",
     [("2026-11-18", "2026-11-18")]),
    ("need the logs from Monday", [("2026-11-30", "2026-11-30")]),
    # (not a range of days to come, nor a day a thing is done on)
    ("we will take photos from Dec 20 to Dec 24", [("2026-12-20", "2026-12-24")]),
    ("post the photos Monday", [("2026-12-07", "2026-12-07")]),
])
def test_a_record_from_a_day_said_on_a_friday(text, expected):
    from memory.dates import find_dates
    assert [(f.date.start.isoformat(), f.date.end.isoformat())
            for f in find_dates(text, FRIDAY_4_DEC)] == expected


@pytest.mark.parametrize("text, expected", [
    # days of a week to come joined by a hyphen ("I'm off next Mon-Wed" was no date at all)
    ("I'm off next Mon-Wed, Jo is covering the front desk", [("2026-12-07", "2026-12-09")]),
    ("off next Monday-Wednesday", [("2026-12-07", "2026-12-09")]),
    # (without next / this / last they are most often hours, and stay undated as before)
    ("we are open Mon-Fri 9-5", []),
    ("next Mon-Wednesday-ish", []),
])
def test_days_joined_by_a_hyphen_said_on_a_friday(text, expected):
    from memory.dates import find_dates
    assert [(f.date.start.isoformat(), f.date.end.isoformat())
            for f in find_dates(text, FRIDAY_4_DEC)] == expected


@pytest.mark.parametrize("text, expected", [
    # a day a thing moves to, written with a slash ("will slip to 12/22" was no date)
    ("heads up the brand guidelines draft will slip to 12/22, waiting on their logo files",
     [("2026-12-22", "2026-12-22")]),
    ("the launch got pushed back to 1/14", [("2027-01-14", "2027-01-14")]),
    # (not "to" alone, nor a move to what is no day)
    ("we're up to 3/4 of the budget", []),
    ("bumped the ratio to 16/9", []),
])
def test_a_move_to_a_day_with_a_slash_said_on_a_friday(text, expected):
    from memory.dates import find_dates
    assert [(f.date.start.isoformat(), f.date.end.isoformat())
            for f in find_dates(text, FRIDAY_4_DEC)] == expected


@pytest.mark.parametrize("text, expected", [
    # a clause saying its day with a present verb of its own keeps no other clause's past
    # ("unit 3B lease ends Jan 31, tenant gave notice", said 30 Nov, was last January's)
    ("unit 3B lease ends Jan 31, tenant gave notice, listing goes up Dec 15",
     [("2027-01-31", "2027-01-31"), ("2026-12-15", "2026-12-15")]),
    ("the party is Dec 12, we booked the hall", [("2026-12-12", "2026-12-12")]),
    # (its own past stays)
    ("the party was Dec 12, we booked the hall", [("2025-12-12", "2025-12-12")]),
])
def test_a_present_clause_beside_a_past_one_said_on_a_monday(text, expected):
    from memory.dates import find_dates
    assert [(f.date.start.isoformat(), f.date.end.isoformat())
            for f in find_dates(text, MONDAY_30_NOV)] == expected


@pytest.mark.parametrize("text, expected", [
    # a condition set for a day is to be met, whatever was done before it ("legal approved a
    # 12% discount for Initech if they sign by Dec 20", said 2 Dec, was last year's Dec 20)
    ("legal approved a 12% discount for Initech if they sign by Dec 20",
     [("2026-12-20", "2026-12-20")]),
    ("approved, once we ship on Dec 20", [("2026-12-20", "2026-12-20")]),
    # (a condition met is past)
    ("they signed on Dec 20", [("2025-12-20", "2025-12-20")]),
])
def test_a_condition_set_for_a_day_said_on_a_monday(text, expected):
    from memory.dates import find_dates
    assert [(f.date.start.isoformat(), f.date.end.isoformat())
            for f in find_dates(text, MONDAY_30_NOV)] == expected


@pytest.mark.parametrize("text, expected", [
    # a weekday counted from an event with no date of its own is no day of the week said in
    # ("electrician (Voltz) starts rough-in the Monday after framing", said 27 Nov, was 30 Nov)
    ("electrician (Voltz) starts rough-in the Monday after framing", []),
    ("the Sunday after the recital we rest", []),
    # (counted from a date or a holiday, it is that day's; from a time of day, this week's)
    ("the Monday after Dec 14 works", [("2026-12-21", "2026-12-21")]),
    ("the Friday before Christmas", [("2026-12-18", "2026-12-18")]),
    ("we ship Monday after lunch", [("2026-11-30", "2026-11-30")]),
])
def test_a_weekday_counted_from_an_undated_event_said_on_a_monday(text, expected):
    from memory.dates import find_dates
    assert [(f.date.start.isoformat(), f.date.end.isoformat())
            for f in find_dates(text, MONDAY_30_NOV)] == expected


@pytest.mark.parametrize("text, expected", [
    # a night into the next day starts today ("the server migration happens overnight Saturday
    # into Sunday", said on a Saturday morning, had next week's Saturday and tomorrow's Sunday)
    ("the server migration happens overnight Saturday into Sunday",
     [("2026-12-05", "2026-12-05"), ("2026-12-05", "2026-12-05"), ("2026-12-06", "2026-12-06")]),
    # (another day's night is that day's)
    ("the migration will run Friday night into Saturday",
     [("2026-12-11", "2026-12-11"), ("2026-12-12", "2026-12-12")]),
])
def test_a_night_into_the_next_day_said_on_a_saturday(text, expected):
    from memory.dates import find_dates
    saturday = datetime(2026, 12, 5, 10, 0, tzinfo=timezone.utc)
    assert [(f.date.start.isoformat(), f.date.end.isoformat())
            for f in find_dates(text, saturday)] == expected
