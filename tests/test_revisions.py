"""A correction supersedes what it corrects (memory.revisions), on both stores: "Correction: the
offsite moved to December 10th" retires "The customer offsite is on December 3rd", which no
topic key links it to; a person moving, or a memory that only mentions the subject, is left be."""
from __future__ import annotations

from datetime import datetime, timezone

import pytest

from memory.revisions import revised_subject
from memory.text import stem_tokens

NOW = datetime(2026, 11, 16, 18, 0, tzinfo=timezone.utc)


def said(author, day, text, hour=9):
    return {"role": "user", "author": author, "content": text,
            "ts": f"2026-11-{day:02d}T{hour:02d}:00:00-08:00"}


@pytest.mark.parametrize("text, subject", [
    ("Correction: the offsite moved to December 10th [2026-12-10], still Denver.", "offsite"),
    ("we decided to raise the rate limit to 250 requests per minute", "rate limit"),
    ("the rate limit is now 250", "rate limit"),
    ("The launch got pushed back to Dec 3", "launch"),
    ("standup moved to 10am", "standup"),
    ("The offsite moved to next week [week of 2026-11-30]", "offsite"),
    ("Correction: the demo is on Thursday [2026-11-19]", "demo"),
    ("bumped our request timeout to 30s", "request timeout"),
    ("FYI the session TTL is now 7200 after the SSO change.", "session ttl"),  # no "fyi" in it
])
def test_a_change_names_its_subject(text, subject):
    assert revised_subject(text) == frozenset(stem_tokens(subject))


@pytest.mark.parametrize("text", [
    "The customer offsite is on December 3rd in Denver.",  # says no change
    "Caroline moved to the US 4 years ago",  # a person moving (a name, no "the")
    "tom moved to Berlin",  # to no value
    "it moved to Friday [2026-11-20]",  # no subject
    "we moved the team to the new office",
    "I changed my mind about the design",
    # "sets up the server to bind to port 10000": no change, and "to" is no subject's word
    "Your Gunicorn config sets up the server to bind to port 10000 and use 3 workers.",
    # "to" a place, with a date or number after it: the value must follow "to" itself
    "I pushed the fix to main 2 hours ago [2026-11-26]",
    "we pushed the fix to staging yesterday [2026-11-25]",
])
def test_what_is_not_a_change_of_a_value(text):
    assert revised_subject(text) is None


def test_a_correction_supersedes_the_event_it_corrects(profile):
    profile.ingest([said("li", 4, "The customer offsite is on December 3rd in Denver."),
                    said("priya", 5, "Can't wait for the offsite, booked my flight already!")],
                   session_id="s1")
    r = profile.ingest([said("li", 9, "Correction: the offsite moved to December 10th, "
                                      "still Denver.")], session_id="s2")
    assert r.memories_superseded == 1
    everything = profile.list(include_inactive=True)
    old = next(m for m in everything if "December 3rd" in m.content)
    new = next(m for m in everything if "December 10th" in m.content)
    assert old.status == "superseded" and old.superseded_by == new.id
    assert new.supersedes == old.id
    # the memory that only mentions the offsite (no date, no number) is left be
    assert next(m for m in everything if "flight" in m.content).status == "active"
    assert old.id not in profile.service.store.vector_ids(profile.name)
    answer = profile.recall("When is the customer offsite?", now=NOW).answer
    assert answer.startswith("10 December 2026") and "December 3rd" not in answer


def test_a_raised_limit_supersedes_the_old_value_in_one_ingest(profile):
    """Both said in one conversation (one write): the earlier memory of the same write is found
    too, and the change takes the old memory's topic key so the next "is" statement chains on."""
    r = profile.ingest([
        said("priya", 2, "Reminder: the payments API rate limit is 100 requests per minute."),
        said("priya", 3, "Update: we decided to raise the rate limit to 250 requests per "
                         "minute, starting Monday.")], session_id="s1")
    assert r.memories_superseded == 1
    answer = profile.recall("What is the payments API rate limit?", now=NOW).answer
    assert answer.startswith("250 requests per minute — raised from 100")
    r = profile.ingest([said("priya", 12, "The payments API rate limit is 400 requests per "
                                          "minute.")], session_id="s2")
    assert r.memories_superseded == 1
    active = [m for m in profile.list() if "rate limit" in m.content]
    assert len(active) == 1 and "400" in active[0].content


def test_a_person_moving_supersedes_nothing_and_nothing_leaks_across_profiles(profile, service):
    other = service.profile(profile.name + "-other")
    other.ingest([said("li", 4, "The customer offsite is on December 3rd in Denver.")],
                 session_id="s1")
    profile.ingest([said("sam", 4, "Sam is 31 years old and lives in Lisbon.")], session_id="s1")
    r = profile.ingest([said("sam", 9, "Sam moved to Porto 2 weeks ago."),
                        said("li", 9, "Correction: the offsite moved to December 10th.")],
                       session_id="s2")
    assert r.memories_superseded == 0  # the offsite of the other profile is not this one's
    assert [m for m in other.list() if "December 3rd" in m.content]
    assert not [m for m in profile.list(include_inactive=True) if m.status == "superseded"]


def test_deleting_a_correction_brings_back_what_it_corrected(profile):
    """The correction's message is deleted in the channel: what it had superseded is the current
    version again (with its vector), not lost with it; a version that was no longer current when
    its message went brings nothing back."""
    first = said("li", 4, "The customer offsite is on December 3rd in Denver.")
    fix = said("li", 9, "Correction: the offsite moved to December 10th, still Denver.")
    profile.ingest([{**first, "external_id": "m1"}], session_id="s1")
    profile.ingest([{**fix, "external_id": "m2"}], session_id="s2")
    profile.delete_message("m2")
    [old] = [m for m in profile.list() if "December 3rd" in m.content]
    assert old.superseded_by is None
    assert old.id in profile.service.store.vector_ids(profile.name)
    assert profile.recall("When is the customer offsite?", now=NOW).answer.startswith(
        "3 December 2026")
    # a topic's versions: deleting the middle one restores nothing, the newest stands
    for i, value in enumerate((100, 300, 500)):
        profile.ingest([{**said("priya", 10 + i, f"The rate limit is {value} requests per "
                                                 "minute."), "external_id": f"r{i}"}],
                       session_id=f"r{i}")
    profile.delete_message("r1")
    assert [m.content for m in profile.list() if m.topic_key == "rate limit"] == [
        "The rate limit is 500 requests per minute."]
    profile.delete_message("r2")
    assert [m.content for m in profile.list() if m.topic_key == "rate limit"] == [
        "The rate limit is 100 requests per minute."]


def test_a_speaker_moving_to_a_version_supersedes_nothing_of_theirs(profile):
    """"I moved to 2.6.10" is stored as "tom moved to 2.6.10": tom is who said it, no subject
    whose value changed (it superseded "tom's new number is ...")."""
    profile.ingest([said("tom", 3, "My new number is 415 555 0199 if anyone needs me.")],
                   session_id="s1")
    r = profile.ingest([said("tom", 5, "I moved to 2.6.10 this morning, inotify works now.")],
                       session_id="s2")
    assert r.memories_superseded == 0
    assert [m for m in profile.list() if "415 555 0199" in m.content]


def test_a_change_asked_for_revises_nothing():
    """5 Dec (fifteenth session): ivy's "can we move the webinar to 2pm ET? the CEO has a board
    call at 11" superseded "webinar registrations at 312, target is 500" (a number, and the word
    "webinar"): the registrations left every answer. A question proposes a change; it makes
    none."""
    from memory.revisions import revised_subject
    assert revised_subject("can we move the webinar to 2pm ET? the CEO has a board call at 11") \
        is None
    assert revised_subject("should we raise the rate limit to 500?") is None
    assert revised_subject("the webinar moved to 2pm ET") == frozenset({"webinar"})
    assert revised_subject("we moved the webinar to Dec 10. ok?") == frozenset({"webinar"})


def test_a_days_digits_are_no_number_and_a_number_planned_is_not_revised():
    """6 Dec (nineteenth session): "window moves to Sunday Dec 13" states a day, not a number
    (it revised "the maintenance window needs … at least 72h before"); "bumped to 5.1" sets 5.1,
    which "we need to bump it to 5.1 first" planned rather than stated otherwise."""
    from memory.models import Memory
    from memory.revisions import new_number, revised_memory, value_kinds

    def memory(text, day, dates=()):
        at = datetime(2026, 11, day, 9, tzinfo=timezone.utc)
        return Memory(id=f"m{day}{len(text)}", type="fact", content=text, created_at=at,
                      event_time=at, source_message_ids=[f"s{day}{len(text)}"], dates=list(dates))

    moved = memory("Change of plan: window moves to Sunday Dec 13 [2026-12-13], same hours.", 30,
                   ["2026-12-13"])
    assert value_kinds(moved) == {"date"}
    notice = memory("FYI the maintenance window needs a status page notice at least 72h before.",
                    28)
    target = memory("Target window: Saturday Dec 12 [2026-12-12], 02:00-04:00 UTC.", 23,
                    ["2026-12-12"])
    assert revised_memory(moved, revised_subject(moved.content), [notice, target]) is target
    assert new_number("pg_partman bumped to 5.1 on staging, tests green.") == "5.1"
    bumped = memory("pg_partman bumped to 5.1 on staging, tests green.", 26)
    plan = memory("Found an issue: pg_partman 4.x isn't compatible with PG16, we need to bump it "
                  "to 5.1 first.", 25)
    older = memory("pg_partman is on 4.7 in every environment.", 20)
    assert revised_memory(bumped, revised_subject(bumped.content), [plan, older]) is older
