"""What changed since leads the answer (memory.updates), on both stores: an ownership handed on,
a host migrated, a meeting cancelled, an on-call swap. None of them is a revision memory/revisions
links (no value of the same kind after "to"), so both memories stay; the newer one must lead."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from memory.dates import ANNOTATED

NOW = datetime(2026, 11, 18, 18, 0, tzinfo=timezone.utc)


def said(author, day, text, hour=9):
    return {"role": "user", "author": author, "content": text,
            "ts": f"2026-11-{day:02d}T{hour:02d}:00:00+00:00"}


@pytest.mark.parametrize("old, new, question", [
    ("Priya owns the billing service for now.",
     "Heads up: billing ownership moves to Sam starting Monday, Priya is going on leave.",
     "who owns the billing service?"),
    ("The staging database is db-stg-2.internal",
     "we migrated staging to db-stg-3.internal last night, db-stg-2 is gone",
     "what is the staging database host?"),
    ("The on-call for payments is Dan.",
     "Swapped with Dan, I'm on call for payments now.",
     "who is on call for payments?"),
    ("Priya owns the billing service.", "Billing is now owned by Sam.", "who owns billing?"),
    ("Priya owns the billing service.", "From Monday billing is now owned by Sam.",
     "who owns billing?"),
    ("The db alias points to db-2.internal", "the db alias now points to db-3.internal",
     "where does the db alias point?"),
    ("The design review is on Thursday at 3pm.",  # said Monday 16th: Thursday the 19th
     "Design review is cancelled this week.",
     "when is the design review?"),
    # a message that says it updates: the newer amount led only when ranked first
    ("ACME is asking for a refund of $1,200 for the outage.",
     "Update: finance approved the ACME refund at $900, not the full $1,200.",
     "how much is the ACME refund?"),
    # a retraction: it shares no word of the question but names what the answer states
    ("We're naming the new service ledger-api.",
     "Never mind, legal says ledger is trademarked, it's books-api now.",
     "what's the new service called?"),
    ("Decision: we'll use Postgres for the audit log store.",
     "Scratch that, audit log goes to ClickHouse, Postgres can't keep up with the write volume.",
     "what database did we pick for the audit log?"),
    # the option taken after the options weighed (27 Nov, ninth session: the options led)
    ("Options for the search backend: Elasticsearch, OpenSearch, or Typesense.",
     "We're going with Elasticsearch 9, mainly for kNN.",
     "which search backend did we pick?"),
    # a state that came back, said of what the answer names (27 Nov, ninth session: "who
    # might churn?" was answered with the threat alone)
    ("Acme is threatening to churn over the SSO outage, renewal is Dec 15.",
     "Acme is happy again after the SSO fix, call went well.",
     "who might churn?"),
    # a list said again shorter (27 Nov, ninth session: the list of three led)
    ("The on-prem customers are Globex, Initech and Umbrella.",
     "Initech churned, so on-prem is just Globex and Umbrella now.",
     "which customers are on-prem?"),
])
def test_the_newer_change_leads_and_the_older_stays_visible(profile, old, new, question):
    profile.ingest([said("maya", 16, old)], session_id="s1")
    profile.ingest([said("tomas", 17, new)], session_id="s2")
    assert len(profile.list()) == 2  # nothing hidden on a guess
    answer = profile.recall(question, now=NOW).answer
    assert answer.startswith("Latest: "), answer
    latest, before = answer.split(" Before that: ")
    latest = ANNOTATED.sub("", latest)  # "From Monday [2026-11-23]": the date labelled at ingest
    assert new.split(",")[0].rstrip(".").replace("I'm", "tomas is") in latest
    assert old.split(" at ")[0].rstrip(".") in before


@pytest.mark.parametrize("text, change", [
    ("billing ownership moves to Sam", True), ("we migrated staging last night", True),
    ("Design review is cancelled this week", True), ("Swapped with Dan", True),
    ("Dan is no longer on call", True), ("Sam took over the pager", True),
    ("Billing is now owned by Sam", True), ("the alias now points to db-3", True),
    ("I'm at the office now", False),
    ("Update: finance approved the refund at $900", True), ("correction: it's db-3", True),
    ("the update is rolling out", False), ("we need an update: the docs are stale", False),
    ("Scratch that, audit log goes to ClickHouse", True), ("never mind, it's books-api", True),
    ("On second thought, make the TTL 15 minutes", True), ("I don't mind the noise", False),
    ("_Correction:_ it's db-3", True), ("*UPDATE* - finance approved $900", True),
    ("Update — the refund is $900", True), ("update-to-date docs are in the wiki", False),
    ("update -v prints the version", False),
    # a shift by a length of time
    ("Heads up: the code freeze is pushed a week", True), ("launch pulled in by two days", True),
    ("pushed the fix to main", False),
    # moved to a date (labelled at ingest), not pushed to a branch
    ("Keycloak cutover slips to Dec 15 [2026-12-15]", True),
    ("the demo got pushed back to Friday [2026-11-27]", True),
    ("the workflow deploys on push to main", False), ("shifting to remote work", False),
    ("Sure, design sync is at 16:00 from now on", True),
    ("so on-prem is just Globex and Umbrella now", True), ("Initech churned", True),
    ("the queue is only a few items now", True), ("it is just a demo for now", False),
    ("I'm just heading out now", False),
    ("Upgraded to pnpm 10, lockfile regenerated", True), ("we should upgrade pnpm", False),
    ("the update to pnpm is in review", False),
    # nouns and everyday words say no change
    ("drawing 2 aces from the deck without replacement", False),
    ("the migration plan is in the doc", False), ("the cancellation policy is 30 days", False),
    ("the dance studio is on tenuous grounds right now", False),
    ("our group is about positive changes", False),
    # a ticket's update by its key (twenty-third session); a halt is a state, no value changed
    # ("Halting the rollout at 10%" led "what's the android rollout at?" over the newer 50%)
    ("Updated RFC-31: sessions go to a separate Postgres instance", True),
    ("I updated my calendar", False), ("Halting the rollout at 10%.", False),
    # moved to a place written as one
    ("Moved the API reference to developer.acme.io/reference", True),
    ("moved the standup notes to #eng-notes", True), ("moved the couch to the den", False),
])
def test_what_says_a_change(text, change):
    from memory.models import Memory
    from memory.updates import says_change

    memory = Memory(id="m", type="fact", content=text, created_at=NOW)
    assert says_change(memory) is change


@pytest.mark.parametrize("text, halt", [
    ("Pausing the phased rollout.", True), ("rollout resumed at 25%", True),
    ("Halting the rollout at 10%.", True), ("migration is on hold until finance confirms", True),
    ("the paused state is shown in grey", False), ("we resumed work on the doc", False),
])
def test_what_says_a_halt(text, halt):
    """Twenty-third session: "Pausing the phased rollout." is the newest word of how a release
    stands (memory.offline_answerer.changed_since), though it changes no value."""
    from memory.models import Memory
    from memory.updates import says_halt

    assert says_halt(Memory(id="m", type="fact", content=text, created_at=NOW)) is halt


@pytest.mark.parametrize("old, new, question", [
    # a state that came back changes no date
    ("Acme is threatening to churn over the SSO outage, renewal is Dec 15.",
     "Acme is happy again after the SSO fix, call went well.",
     "when is Acme's renewal?"),
    # said later, about the same thing, but no change
    ("Priya owns the billing service.", "Priya says the billing service had a quiet week.",
     "who owns the billing service?"),
    # a change of another thing that carries the question's words
    ("The payments rate limit is 100 requests per minute.",
     "The rate limit review moves to next week.", "what is the payments rate limit?"),
    # "for now" is tentative, not a change
    ("The staging database is db-stg-2.internal",
     "The staging database is slow for now, db-stg-2 is at 90% disk.",
     "what is the staging database host?"),
    # a cancellation of another day: tomorrow's (the 18th), not Thursday's review
    ("The design review is on Thursday at 3pm.", "Tomorrow's design review is cancelled.",
     "what time is the design review on Thursday?"),
    # an update of another thing about the same customer: "the", "can" were values both named
    ("Escalation: ACME Corp can't log in since the SSO change, ticket ZD-88213.",
     "Update: finance approved the ACME refund at $900, not the full $1,200.",
     "what ticket is ACME's escalation?"),
])
def test_a_later_memory_that_changes_nothing_does_not_lead(profile, old, new, question):
    profile.ingest([said("maya", 16, old)], session_id="s1")
    profile.ingest([said("tomas", 17, new)], session_id="s2")
    answer = profile.recall(question, now=NOW).answer
    assert not answer.startswith("Latest"), answer
    assert old.split(" at ")[0].rstrip(".") in answer


def test_an_update_of_another_thing_in_the_same_month_does_not_lead(profile):
    """"Update: the security audit moves to Dec 14." shared "dec" with "Launch of the mobile app
    is Dec 3.", and a message that opens "Update:" leads where it names what the answer states:
    "when is the mobile app launch?" was answered 14 December. A month's or a day's short name
    names no thing."""
    profile.ingest([said("maya", 16, "Launch of the mobile app is Dec 3.")], session_id="s1")
    profile.ingest([said("tomas", 17, "Update: the security audit moves to Dec 14.")],
                   session_id="s2")
    answer = profile.recall("when is the mobile app launch?", now=NOW).answer
    assert answer.startswith("3 December 2026: Launch of the mobile app"), answer
    assert "audit" not in answer, answer


def test_a_change_in_another_profile_does_not_lead(profile, service):
    other = service.profile(profile.name + "-other")
    profile.ingest([said("maya", 16, "Priya owns the billing service.")], session_id="s1")
    other.ingest([said("maya", 16, "Priya owns the billing service."),
                  said("tomas", 17, "billing ownership moves to Sam, Priya is going on leave.")],
                 session_id="s1")
    assert "Sam" not in profile.recall("who owns the billing service?", now=NOW).answer
    assert other.recall("who owns the billing service?", now=NOW).answer.startswith(
        "Latest: billing ownership moves to Sam")


def test_how_a_thing_is_keys_its_status_not_the_thing(profile):
    """"The staging database is slow for now" is its status: it superseded the host (the answer
    was "slow — changed from db-stg-2.internal"); the next status supersedes it instead."""
    profile.ingest([said("lee", 3, "The staging database is db-stg-2.internal")], session_id="s1")
    profile.ingest([said("lee", 5, "The staging database is *slow* for now.")], session_id="s2")
    r = profile.ingest([said("lee", 6, "the staging database is fine again")], session_id="s3")
    assert r.memories_superseded == 1
    assert sorted(m.content for m in profile.list()) == [
        "The staging database is db-stg-2.internal", "the staging database is fine again"]
    answer = profile.recall("what is the staging database host?", now=NOW).answer
    assert answer.startswith("The staging database is db-stg-2.internal"), answer


def test_a_remark_that_shares_one_question_word_is_not_an_answer_to_update():
    """On Elasticsearch "Can't wait for the offsite, booked my flight already!" ranked first for
    "When is the customer offsite?", and the correction led as its update, hiding the dated
    answer: a change leads only an answer that states something it changes."""
    from datetime import timedelta

    from memory.models import Memory
    from memory.offline_answerer import content_stems
    from memory.updates import update_of

    question = "When is the customer offsite?"
    remark = Memory(id="a", type="fact", content="Can't wait for the offsite, booked priya's "
                    "flight already!", source_message_ids=["m1"], created_at=NOW)
    fix = Memory(id="b", type="event", content="Correction: the offsite moved to December 10th, "
                 "still Denver.", source_message_ids=["m2"], created_at=NOW + timedelta(days=1))
    wanted = content_stems(question)
    assert update_of(remark, [remark, fix], question, wanted, content_stems) is None
    # the same change leads an answer that states what it changes
    stated = Memory(id="c", type="event", content="The customer offsite is on December 3rd.",
                    source_message_ids=["m0"], created_at=NOW - timedelta(days=1))
    moved = fix.model_copy(update={"content": "Correction: the customer offsite moved to "
                                              "December 10th, still Denver."})
    assert update_of(stated, [stated, remark, moved], question, wanted, content_stems) is moved


def test_a_ping_to_the_channel_is_no_word_of_what_changed():
    """6 Dec (twenty-second session): "@here prod cutover for export_v2 postponed to Dec 10"
    was no latest word of "Wednesday is the prod cutover for export_v2" ("here" was read as a
    word of the subject); the raw Slack form "<!here>" neither."""
    from datetime import timedelta

    from memory.models import Memory
    from memory.offline_answerer import content_stems
    from memory.updates import update_of

    question = "when is the export_v2 prod cutover?"
    answer = Memory(id="a", type="event", content="Wednesday [2026-12-09] is the prod cutover "
                    "for export_v2", source_message_ids=["m1"], created_at=NOW)
    for ping in ("@here", "<!here>", "@channel"):
        later = Memory(id="b", type="event", content=f"{ping} prod cutover for export_v2 "
                       "postponed to Dec 10 [2026-12-10], Snowflake quota issue",
                       source_message_ids=["m2"], created_at=NOW + timedelta(days=1))
        assert update_of(answer, [later], question, content_stems(question),
                         content_stems) is later, ping


def test_a_move_of_another_thing_a_name_shares_is_no_latest_word_of_someone_leaving():
    """6 Dec (twenty-third session): "Hooli QBR moved to Dec 11, Gavin had a conflict" was the
    latest word of "Hooli's champion Dinesh left the company last week" for "is Dinesh still at
    Hooli?" (one word shared, and a new value); the offsite's move still updates Lisbon."""
    from memory.models import Memory
    from memory.offline_answerer import content_stems
    from memory.updates import update_of

    def said(content, day):
        return Memory(id=content[:8], type="fact", content=content, created_at=NOW,
                      event_time=NOW + timedelta(days=day), source_message_ids=[content[:8]])
    left = said("Hooli's champion Dinesh left the company last week [week of 2026-11-23].", 0)
    qbr = said("Hooli QBR moved to Dec 11 [2026-12-11], Gavin had a conflict.", 2)
    question = "is Dinesh still at Hooli?"
    assert update_of(left, [left, qbr], question, content_stems(question) - {"still"},
                     content_stems) is None
    lisbon = said("The offsite is in Lisbon, March 3-5.", 0)
    porto = said("Change: the offsite moves to Porto, same dates.", 2)
    question = "is the offsite still in Lisbon?"
    assert update_of(lisbon, [lisbon, porto], question, content_stems(question) - {"still"},
                     content_stems) is porto


def test_a_corrected_sum_of_the_same_thing_is_the_latest_word():
    """6 Dec (twenty-fourth session), a finance channel: "Acme sent a corrected invoice: $21,900
    (they double-billed storage)" says no word of changing and shares one of "how much do we
    owe Acme Cloud?", and was no update of "Vendor invoice from Acme Cloud is $23,410"; a
    revised quote of another thing is none."""
    from memory.models import Memory
    from memory.offline_answerer import content_stems
    from memory.updates import update_of

    def said(content, day):
        return Memory(id=content[:8], type="fact", content=content, created_at=NOW,
                      event_time=NOW + timedelta(days=day), source_message_ids=[content[:8]])
    invoice = said("Vendor invoice from Acme Cloud is $23,410, due Dec 20 [2026-12-20].", 0)
    fixed = said("Acme sent a corrected invoice: $21,900 (they double-billed storage).", 1)
    quote = said("Datadog sent a revised quote: $7,800/month.", 1)
    question = "how much do we owe Acme Cloud?"
    wanted = content_stems(question)
    assert update_of(invoice, [invoice, fixed], question, wanted, content_stems) is fixed
    assert update_of(invoice, [invoice, quote], question, wanted, content_stems) is None
