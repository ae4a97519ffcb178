"""memory.open_tasks: which questions ask what is still open, and how later words close work."""
from __future__ import annotations

from datetime import date, datetime, timezone

import pytest

from memory.models import EventDate, Memory
from memory.open_tasks import asks_open_work, open_work

NOW = datetime(2026, 11, 26, 10, 0, tzinfo=timezone.utc)


@pytest.mark.parametrize("question", [
    "what tasks are still open?", "What's still open?", "what's left for the sprint?",
    "any outstanding action items?", "what is left to do?", "open tasks?",
    "which todos are not done?", "what’s open right now?", "show me the to-do list",
    "what do we still need to do?", "are there any pending tasks for this week?",
    "is anything still open?", "anything outstanding?", "is there anything left to do?",
    "what still needs doing?", "anything unresolved?", "what hasn't been done yet?",
    "what's left in the sprint?", "what's left this sprint?", "what remains to be done?",
    "what tickets are still open?", "any bugs still open?", "what's open in support?"])
def test_questions_that_ask_what_is_still_open(question):
    assert asks_open_work(question)


@pytest.mark.parametrize("question", [
    "is port 8080 open?", "what's left in the budget?", "who opened the incident?",
    "when does the office open?", "is the flaky login test fixed?",
    "what did we decide about the open source license?", "what ports are open on the db host?",
    "how many tasks did the worker run?", "is anything still open in the store?",
    "is there anything left in the fridge?", "anything else?", "anything new?",
    "what's left of the budget?", "what's open on the weekend?"])
def test_questions_that_do_not(question):
    assert not asks_open_work(question)


def _memory(content: str, day: int, kind: str = "event", dates=()) -> Memory:
    said = datetime(2026, 11, day, 9, tzinfo=timezone.utc)
    return Memory(id=f"m{day}{len(content)}", content=content, type=kind, created_at=said,
                  event_time=said,
                  event_dates=[EventDate(phrase="p", start=s, end=e) for s, e in dates])


def test_done_closes_partly_done_does_not_and_names_are_no_shared_work():
    work = open_work([
        _memory("lena will take the flaky login test.", 23, "task"),
        _memory("lena will review the billing export spec.", 23, "task"),
        _memory("The flaky login test is half done, the fixture is left.", 24),
        _memory("lena fixed the cache warmup.", 25),  # shares only her name
        _memory("Billing export spec reviewed and done.", 25),
    ], NOW, names=lambda m: {"lena"})
    by = {w.commitment.content: w for w in work}
    flaky = by["lena will take the flaky login test."]
    assert flaky.closed_by is None
    assert [m.content for m in flaky.latest] == [
        "The flaky login test is half done, the fixture is left."]
    assert by["lena will review the billing export spec."].closed_by.content == \
        "Billing export spec reviewed and done."
    assert len(work) == 2  # "lena fixed the cache warmup." closed nothing and is no commitment


def test_a_closing_word_said_before_the_work_was_taken_on_closes_nothing():
    work = open_work([
        _memory("Fixed the docs site search.", 20),
        _memory("omar is going to fix the docs site search again.", 23),
    ], NOW)
    assert [(w.commitment.content, w.closed_by) for w in work] == [
        ("omar is going to fix the docs site search again.", None)]


def test_an_announcement_whose_days_are_past_is_no_open_work():
    freeze = _memory("deploy freeze until Monday, no merges to main please", 17, "task",
                     [(date(2026, 11, 20), date(2026, 11, 23))])
    request = _memory("TODO: @raj please write the release notes by Wednesday", 23, "task",
                      [(date(2026, 11, 25), date(2026, 11, 25))])  # overdue: still open
    assert [w.commitment.content for w in open_work([freeze, request], NOW)] == [
        request.content]


def test_blocked_work_is_open_and_a_later_commitment_to_it_is_its_latest_word():
    work = open_work([
        _memory("Billing export is blocked on the finance team's CSV spec.", 24),
        _memory("maya will start the billing export once the CSV spec arrives.", 25),
    ], NOW)
    assert len(work) == 1 and work[0].closed_by is None
    assert work[0].latest[0].content.startswith("maya will start the billing export")


def test_what_a_standup_waited_on_unblocks_it_and_other_progress_does_not():
    """27 Nov (ninth session): raj's "Blocked on staging creds." was read as unblocked by omar's
    "Queue migration is 60% done" (its latest word, and "60% done" closed it), and dana's
    "staging creds sent to raj" was of no work."""
    from memory.open_tasks import blocked_answer, blocked_work
    standup = _memory("Standup: yesterday reviewed #890, today pairing with omar on the queue "
                      "migration. Blocked on staging creds.", 24)
    progress = _memory("Queue migration is 60% done, should wrap Monday.", 24)
    work = open_work([standup, progress], NOW)
    assert [w.closed_by for w in work] == [None] and blocked_work(work) == work
    assert blocked_answer(work, whom="raj").startswith("Blocked now:\n- Standup: yesterday")
    sent = _memory("staging creds sent to raj via 1Password", 25)
    work = open_work([standup, progress, sent], NOW)
    assert work[0].closed_by is None and work[0].unblocked_by is sent
    said = blocked_answer(blocked_work(work), whom="raj")
    assert said.startswith("raj is not blocked now.\nUnblocked:\n- Standup: yesterday"), said
    assert said.endswith('unblocked: "staging creds sent to raj via 1Password" (25 November 2026)')


def test_versions_tell_alike_work_apart_and_a_closing_word_need_not_repeat_them():
    work = open_work([
        _memory("sam will migrate the ingest v9920 dashboards to region a7 by Friday", 20),
        _memory("li will migrate the auth v9840 dashboards to region a7 by Friday", 21),
        _memory("We migrated the auth v9840 dashboards to region a7.", 23),
        _memory("TODO: @raj please write the release notes for 3.2", 23, "task"),
        _memory("Release notes written and published on the blog.", 25),
    ], NOW)
    by = {w.commitment.content.split()[0]: w.closed_by for w in work}
    assert by["sam"] is None
    assert by["li"].content.startswith("We migrated the auth v9840")
    assert by["TODO:"].content.startswith("Release notes written")


@pytest.mark.parametrize("content, commits", [
    ("sam will fix the alert routing", True), ("We need to upgrade node before December", True),
    ("Design note: we'll move sessions to JWTs", True), ("omar can do the rotation", True),
    ("TODO: @raj please write the release notes", True), ("action item: cert alerts", True),
    ("CI is blocked by the flaky test", True),
    ("Initech uses a custom IdP. Can someone check before EOD?", True),
    ("who can take the on-call swap on Friday?", True),
    ("could someone explain why the cache is cold?", False),
    ("maya will be out tomorrow", False), ("The release will ship Friday", False),
    ("It will take a while to index", False), ("the cache will expire after 5 minutes", False),
    ("priya owns the billing service", False), ("you can do that with a cron job", False),
    ("Kafka has to be restarted after a config change", False),
    ("deploy freeze, no merges to main please", False),
    # whom someone reports to, or the team they join, is no work (7 Dec, thirtieth session:
    # "what is Tomás working on?" was "tomas is on: … will report to Aisha")
    ("small change: Tomás will report to Aisha, not Wei, after the reorg", False),
    ("Kim will join the platform team in January", False)])
def test_what_is_said_as_work_someone_will_do(content, commits):
    from memory.open_tasks import is_commitment
    memory = _memory(content, 24)
    assert is_commitment(memory, NOW) is commits


def test_work_taken_on_after_a_mention_or_a_filler_word_is_a_commitment():
    from memory.open_tasks import is_commitment
    for content in ("@channel zed will take the flaky login test today [2026-11-16]",
                    "ok so sam will fix the alert routing"):
        assert is_commitment(_memory(content, 16, "task",
                                     [(date(2026, 11, 16), date(2026, 11, 16))]), NOW), content


@pytest.mark.parametrize("content, blocked", [
    ("Blockers: need API keys for the Stripe test account", True),
    ("- blocked: waiting on the finance CSV spec", True), ("Blockers: none", False),
    ("- blocked: no", False), ("blockers: n/a", False), ("CI is still blocked", True),
    ("the job scheduler blocks on the lock", False),
    # a standup's sentence (27 Nov, ninth session: raj "has not said they are blocked")
    ("Standup: today pairing with omar on the queue migration. Blocked on staging creds.", True),
    ("shipped the fix, blocked by the security review", True),
    ("the deploy got blocked on Friday by the freeze", False),
    ("Blocked on nothing today", False)])
def test_a_blocker_is_open_work_and_none_is_none(content, blocked):
    from memory.open_tasks import is_blocked, is_commitment
    memory = _memory(content, 24)
    assert is_blocked(memory) is blocked and is_commitment(memory, NOW) is blocked


@pytest.mark.parametrize("content", ["Today [2026-11-24]: pairing with priya on the SSO bug",
                                     "- today: write the runbook for disk cleanup",
                                     "This week: the Postgres upgrade"])
def test_a_standups_plan_is_open_work(content):
    from memory.open_tasks import is_commitment
    assert is_commitment(_memory(content, 24), NOW)


@pytest.mark.parametrize("question, asks", [
    ("who is blocked?", True), ("what is blocking priya?", True), ("any blockers?", True),
    ("blockers?", True), ("what are the blockers", True), ("who's waiting on IT?", True),
    ("does the queue block on a full disk?", False), ("who blocked the deploy?", False)])
def test_questions_that_ask_who_is_blocked(question, asks):
    from memory.open_tasks import asks_blocked
    assert asks_blocked(question) is asks


def test_a_later_word_like_the_latest_word_closes_the_work():
    """sam's "pairing with priya on the SSO bug", priya's "fix the SSO redirect loop" as its
    latest word, then "SSO redirect loop fixed": the last shares one word with the first, three
    with the second."""
    work = open_work([
        _memory("Today: pairing with priya on the SSO bug", 24),
        _memory("y: SSO bug repro. t: fix SSO redirect loop with sam", 24),
        _memory("Yesterday: SSO redirect loop fixed with priya (PR #2231).", 25),
    ], NOW)
    assert len(work) == 1 and work[0].closed_by.content.startswith("Yesterday: SSO redirect")


def test_a_notes_list_of_action_items_is_work_item_by_item():
    """A retro's action items, kept as one memory (memory.note_lists): each item is work of its
    own, one done closes no other, and the same note's "Went well: … shipped" closes none."""
    note = "Retro notes (sprint 47), Action items: @tomas: quarantine the flaky e2e tests; " \
           "@lena: add disk alerts for staging DB; @raj: upgrade the CI runners to 16 GB."
    retro = _memory(note, 20)
    went_well = _memory("Retro notes (sprint 47), Went well: webhooks v2 shipped on time; "
                        "on-call was quiet.", 20).model_copy(
        update={"id": "m20b", "source_message_ids": retro.source_message_ids or ["msg20"]})
    retro = retro.model_copy(update={"source_message_ids": went_well.source_message_ids})
    work = open_work([retro, went_well,
                      _memory("Disk alerts for staging DB are live, threshold 80%.", 24)], NOW)
    by_item = {w.commitment.content.split("Action items: ")[1]: w for w in work}
    assert set(by_item) == {"@tomas: quarantine the flaky e2e tests",
                            "@lena: add disk alerts for staging DB",
                            "@raj: upgrade the CI runners to 16 GB"}, by_item
    assert by_item["@lena: add disk alerts for staging DB"].closed_by.content.startswith("Disk")
    assert by_item["@tomas: quarantine the flaky e2e tests"].closed_by is None
    assert by_item["@raj: upgrade the CI runners to 16 GB"].closed_by is None
    assert all(w.commitment.id == retro.id for w in work)  # cited as the memory it came from


def test_nothing_said_in_the_message_that_took_work_on_closes_it():
    """A retro note's "Went well: the webhook retries runbook shipped" shares the words of its
    own action item "@maya: write the webhook retries runbook" (a section of the same message,
    about the sprint before): it closed the item the note had just handed out."""
    same = ["msg-retro"]
    items = _memory("Retro notes, Action items: @maya: write the webhook retries runbook; "
                    "@raj: upgrade the CI runners.", 20).model_copy(
        update={"source_message_ids": same})
    went_well = _memory("Retro notes, Went well: the webhook retries runbook shipped.",
                        20).model_copy(update={"id": "m20w", "source_message_ids": same})
    work = open_work([items, went_well], NOW)
    maya = next(w for w in work if "@maya" in w.commitment.content)
    assert maya.closed_by is None and not maya.latest, maya


def test_a_notes_points_marked_as_action_items_are_work_and_a_ticked_box_closes_one():
    """A sync's notes, kept as one memory: its "AI:" points are work each, its decision and open
    question are not; "[x] runbook updated" closes sam's point though it is read as answering the
    notes' open question (it cites the notes' message as its second source)."""
    notes = _memory("Weekly sync notes: Decided: we drop IE11 support in January; AI: @sam to "
                    "update the runbook by Fri; AI: nina to email Acme about the renewal; "
                    "Open question: do we need a second region?.", 20).model_copy(
        update={"source_message_ids": ["msg20"]})
    ticked = _memory("[x] runbook updated for the new LB", 21).model_copy(
        update={"source_message_ids": ["msg21", *notes.source_message_ids]})
    work = open_work([notes, ticked], NOW)
    assert [w.commitment.content for w in work] == [
        "Weekly sync notes: @sam to update the runbook by Fri",
        "Weekly sync notes: nina to email Acme about the renewal"]
    assert work[0].closed_by is ticked and work[1].closed_by is None


def test_numbered_action_items_are_work_each_and_done_of_one_closes_it():
    """"Action items from the postmortem: 1) … (ravi) 2) … (omar) 3) … (nina)": three pieces of
    work; "Done with #2, webhook secret rotation is now a quarterly cron." closes the second (its
    done clause names no work of its own, the memory is about the rotation)."""
    items = _memory("Action items from the postmortem: 1) add alerting on cert expiry (ravi) "
                    "2) rotate the webhook secret quarterly (omar) 3) write a customer comms "
                    "template (nina)", 20)
    done = _memory("Done with #2, webhook secret rotation is now a quarterly cron.", 22)
    work = open_work([items, done], NOW)
    assert [w.commitment.content.split(": ", 1)[1] for w in work] == [
        "add alerting on cert expiry (ravi)", "rotate the webhook secret quarterly (omar)",
        "write a customer comms template (nina)"]
    assert [w.closed_by for w in work] == [None, done, None]
    # a done clause with words of other work closes nothing it does not name
    other = _memory("Done with the billing export, webhook secret rotation starts next week.", 22)
    assert all(w.closed_by is None for w in open_work([items, other], NOW))


def test_a_sprint_plans_items_each_with_its_aside_are_work_each():
    """"Sprint 49 planning: SSO for Acme (8 pts, dana), CSV export fix (3 pts, omar), billing v2
    doc (5 pts, lee)": three pieces of work ("what's left in the sprint?" found no task at all),
    and the story merged closes its own."""
    plan = _memory("Sprint 49 planning: SSO for Acme (8 pts, dana), CSV export fix (3 pts, "
                   "omar), billing v2 doc (5 pts, lee).", 20)
    merged = _memory("CSV export fix merged, closing the story.", 22)
    work = open_work([plan, merged], NOW)
    assert [w.commitment.content for w in work] == [
        "Sprint 49 planning: SSO for Acme (8 pts, dana)",
        "Sprint 49 planning: CSV export fix (3 pts, omar)",
        "Sprint 49 planning: billing v2 doc (5 pts, lee)"]
    assert [w.closed_by for w in work] == [None, merged, None]


def test_a_ticket_reported_is_open_until_something_names_it_closed():
    """"New ticket ZD-9921: …" and "ZD-9950: CSV export times out …" are work ("what tickets are
    still open?" was declined); "Customer confirmed ZD-9921 is fixed, closing." closes the one
    it names though it shares no other word; an encoding or a standard is no ticket."""
    safari = _memory("New ticket ZD-9921: checkout button does nothing on Safari 17.", 20)
    csv = _memory("ZD-9950: CSV export times out for accounts with more than 50k rows.", 21)
    utf = _memory("UTF-8: all exports are written in it.", 21)
    fixed = _memory("Customer confirmed ZD-9921 is fixed, closing.", 23)
    work = open_work([safari, csv, utf, fixed], NOW)
    assert [(w.commitment.content, w.closed_by) for w in work] == [
        (safari.content, fixed), (csv.content, None)]


def test_the_works_own_verb_said_done_closes_it():
    """8 Dec (thirty-fourth session): "TODO: renew the SSL cert for api.acme.io before Dec 20"
    stayed open after "SSL cert renewed, good until Dec 2027" (no done word of a list, and
    "until" read as not yet); what is still to be done or asked stays open."""
    renew = _memory("TODO: renew the SSL cert for api.acme.io before Dec 20", 20, "task")
    renewed = _memory("SSL cert renewed, good until Dec 2027", 22)
    update = _memory("TODO: update the failover runbook", 20, "task")
    asked = _memory("the failover runbook needs updated for the new LB", 21)
    seeded = _memory("TODO: seed the staging db", 20, "task")
    seed_again = _memory("staging db seed script is flaky", 21)
    work = open_work([renew, update, seeded, renewed, asked, seed_again], NOW)
    assert {w.commitment.content: w.closed_by for w in work} == {
        renew.content: renewed, update.content: None, seeded.content: None}


def test_work_taken_on_as_it_is_the_work_asked():
    """8 Dec (thirty-fourth session): "sure, I'll do it by Thursday", a reply to "@omar can you
    update the runbook for the failover?", was listed as "omar will do it by Thursday", and
    "failover runbook updated" did not close it."""
    took = Memory(id="took", content="sure, omar will do it by Thursday", type="task",
                  created_at=datetime(2026, 11, 20, 9, tzinfo=timezone.utc),
                  event_time=datetime(2026, 11, 20, 9, tzinfo=timezone.utc),
                  questions=["@omar can omar update the runbook for the failover?"])
    done = _memory("failover runbook updated and linked from the wiki", 23)
    work = open_work([took, done], NOW)
    assert [(w.commitment.id, w.closed_by) for w in work] == [("took", done)]
    from memory.open_tasks import answer
    assert 'to "@omar can omar update the runbook' in answer(open_work([took], NOW), NOW)
