"""Issue 12 on Slack, through the real Bolt app over signed HTTP against the loopback Web API
(tests/fake_slack_api.py): one answer per question across retries and restarts, confirmations
that survive a restart, answers that cannot ping or phish, names resolved, display names shown."""
from __future__ import annotations

import contextlib
import functools
import html
import json
import re
from datetime import datetime, timezone

import pytest

from bot.config import BotConfig
from bot.core import LurkerBot
from bot.contract import Reply
from bot.slack_app import SlackConversation, SlackLurker
from memory.config import Settings
from memory.service import MemoryService
from tests.fake_slack_api import BOT_USER, TOKEN, FakeSlackAPI
from tests.slack_support import (DB, RATE, SECRET, TEAM, click, command, event, message,
                                 serving, ts)
from workers.sinks import InProcessSink


@pytest.fixture
def api():
    fake = FakeSlackAPI(team=TEAM, domain="acme").start()
    fake.add_user("U1", "maya")
    fake.add_user("U2", "sam")
    fake.add_user("U0BOB", "bob")
    fake.users["U0BOB"]["profile"]["display_name"] = "Bob"
    fake.add_user("UCAROL", "carol.w")
    fake.users["UCAROL"]["profile"].update(display_name="Caz", real_name="Carol Whitfield")
    fake.add_user("UADA", "ada", admin=True)
    fake.add_user(BOT_USER, "lurker", bot=True)
    yield fake
    fake.stop()


@pytest.fixture
def start(api, tmp_path, embedder):
    """start() -> a served lurker over the same store and bot state each time: a restart."""
    services, stack = [], contextlib.ExitStack()

    def start_one(allowed_bots: frozenset[str] = frozenset()):
        if services:
            stack.close()
        settings = Settings(store=f"sqlite:///{tmp_path / 's.sqlite3'}", anthropic_api_key=None)
        service = MemoryService.from_settings(settings, embedder=embedder)
        services.append(service)
        config = BotConfig()
        config.audit_log = tmp_path / "audit.jsonl"
        config.allowed_bots = allowed_bots
        bot = LurkerBot(service, InProcessSink(service), config,
                        clock=lambda: datetime(2026, 11, 18, 9, tzinfo=timezone.utc))
        lurker = SlackLurker(bot, token=TOKEN, signing_secret=SECRET, base_url=api.base_url)
        stack.enter_context(serving(lurker))
        stack.callback(service.close)
        return lurker

    yield start_one
    stack.close()


def app_mention(lurker, user, text, at, event_id, retry=None):
    return event(lurker, {"type": "app_mention", "channel": "CGEN", "user": user,
                          "text": f"<@{BOT_USER}> {text}", "ts": at, "team": TEAM},
                 event_id=event_id, retry=retry)


def pager_card(status: str, by: str, at: str, ping: str = "<@U1>") -> dict:
    """PagerDuty's Slack app posting (or updating) alert #4312 as an attachment, no text."""
    return {"type": "message", "subtype": "bot_message", "bot_id": "BPD", "username":
            "PagerDuty", "text": "", "ts": at, "team": TEAM, "channel": "CGEN",
            "channel_type": "channel", "attachments": [{
                "fallback": f"{status} #4312: High error rate on checkout-api",
                "title": "#4312: High error rate on checkout-api",
                "title_link": "https://acme.pagerduty.com/incidents/Q1",
                "fields": [{"title": "Status", "value": status, "short": True},
                           {"title": "Service", "value": "checkout-api", "short": True},
                           {"title": by, "value": ping, "short": True}],
                "footer": "PagerDuty"}]}


def answers(api) -> list[dict]:
    return [p for p in api.called("chat.postMessage") if p["channel"] == "CGEN"]


def test_a_retried_mention_is_answered_once_even_after_a_restart(start, api):
    slack = start()
    message(slack, "CGEN", "U1", RATE, ts(0))
    for retry in (None, 1, 2):
        assert app_mention(slack, "U2", "what rate limit did we decide?", ts(5), "Ev0ASK",
                           retry).status_code == 200
    assert len(answers(api)) == 1 and "500 requests" in answers(api)[0]["text"]
    slack = start()  # a new process over the same store and state
    app_mention(slack, "U2", "what rate limit did we decide?", ts(5), "Ev0ASK", 3)
    assert len(answers(api)) == 1
    app_mention(slack, "U2", "what rate limit did we decide?", ts(6), "Ev0ASK2")
    assert len(answers(api)) == 2  # a new question is still answered


def test_a_pending_forget_survives_a_restart_and_expiry_is_said_plainly(start, api):
    slack = start()
    message(slack, "CGEN", "U1", RATE, ts(0))
    message(slack, "CGEN", "U2", DB, ts(1))
    app_mention(slack, "UADA", "forget staging database", ts(2), "EvF1")
    [question] = answers(api)
    actions = [b for b in question["blocks"] if b["type"] == "actions"][0]["elements"]
    question = {**question, "ts": "1800000001.000100"}
    slack = start()  # restarted while the question waits
    click(slack, "UADA", question, actions[0]["value"])
    [update] = api.called("chat.update")
    assert "Forgotten (1)" in update["text"]
    assert not any("Postgres" in m.content for m in slack.bot.service.profile(
        "slack:T1:CGEN").list())
    # a confirmation past its expiry: said plainly, nothing changed
    app_mention(slack, "UADA", "forget rate limit", ts(3), "EvF2")
    question = {**answers(api)[-1], "ts": "1800000002.000100"}
    value = [b for b in question["blocks"] if b["type"] == "actions"][0]["elements"][0]["value"]
    clock = slack.bot.state.clock
    slack.bot.state.clock = lambda: clock() + 16 * 60
    click(slack, "UADA", question, value)
    said = api.called("chat.postEphemeral")[-1]["text"]
    assert "nothing waiting" in said and "expired" in said
    assert any("rate limit" in m.content for m in slack.bot.service.profile(
        "slack:T1:CGEN").list())


LIVE = re.compile(r"<!(channel|here|everyone|subteam)|<@[UW]|<https?://evil|<mailto:")


def live_sequences(call: dict) -> list[str]:
    texts = [call.get("text") or ""] + [json.dumps(call.get("blocks") or [])]
    return [m.group(0) for t in texts for m in LIVE.finditer(t.replace("\\u003c", "<"))]


def test_no_answer_list_or_confirmation_can_ping_or_phish(start, api):
    slack = start()
    # what Slack delivers when someone TYPES these (escaped) ends up stored as the characters
    hostile = ("&lt;!channel&gt; the VPN certificate rotates on Friday, re-enrol at "
               "&lt;https://evil.example|click to verify&gt; &lt;@U1&gt; &lt;!subteam^S1&gt; "
               "&lt;!here&gt; &lt;!everyone&gt;")
    message(slack, "CGEN", "U2", hostile, ts(0))
    stored = [m.content for m in slack.bot.service.store.iter_messages("slack:T1:CGEN")]
    # typed markup is kept as it reads (memory.markup); a bare <@U1> is named when answered
    assert stored[0].startswith("@channel the VPN certificate rotates"), stored[0]
    assert "<!" not in stored[0] and "<http" not in stored[0], stored[0]
    app_mention(slack, "U1", "when does the VPN certificate rotate?", ts(5), "EvP1")
    app_mention(slack, "UADA", "forget VPN certificate", ts(6), "EvP2")
    command(slack, "UADA", "memories")
    command(slack, "UADA", "forget <!channel> <https://evil.example|x>")
    command(slack, "UADA", "purge <!here>")
    posted = api.posted()
    assert len(posted) >= 5
    assert any("VPN" in p["text"] for p in posted)
    for call in posted:
        assert live_sequences(call) == [], call
    assert "@channel the VPN" in answers(api)[0]["text"]  # shown, not live
    # the only live link left is the bot's own permalink
    links = re.findall(r"<([^>]*)>", answers(api)[0]["text"])
    assert links and all(l.startswith("https://acme.slack.com/archives/CGEN/") for l in links)
    # an answer carrying markup itself (a model's, or a store an older Lurker wrote) is shown
    conv = SlackConversation(slack, "CGEN", "U1", thread_ts=ts(5))
    conv.send(Reply(html.unescape(hostile)))
    assert live_sequences(api.posted()[-1]) == [] and "&lt;!channel&gt;" in answers(api)[-1]["text"]


def test_answers_show_display_names_not_ids(start, api):
    slack = start()
    message(slack, "CGEN", "U0BOB", "I will take the December on-call rotation.", ts(0))
    app_mention(slack, "U1", "who takes the December on-call?", ts(5), "EvN1")
    [reply] = answers(api)
    assert "U0BOB" not in reply["text"] and "bob (" not in reply["text"]
    assert "|2026-11-16, Bob>" in reply["text"]  # the source says who, by display name
    # an answer that names its author the way messages are stored (a model's answer may)
    conv = SlackConversation(slack, "CGEN", "U1", thread_ts=ts(5))
    conv.send(Reply("bob (U0BOB) said he takes December; maya (U1) agreed."))
    assert answers(api)[-1]["text"] == "Bob said he takes December; maya agreed."


def test_purge_resolves_names_or_refuses_saying_what_to_type(start, api):
    slack = start()
    message(slack, "CGEN", "UCAROL", RATE, ts(0))
    message(slack, "CGEN", "U2", DB, ts(1))
    command(slack, "UADA", "purge nobody-here")
    said = api.called("chat.postEphemeral")[-1]["text"]
    assert "nothing was purged" in said and "purge @name" in said
    assert len(list(slack.bot.service.store.iter_messages("slack:T1:CGEN"))) == 2
    for name in ("Carol Whitfield", "@carol.w", "caz"):
        message(slack, "CGEN", "UCAROL", RATE, ts(2))
        command(slack, "UADA", f"purge {name}")
        said = api.called("chat.postEphemeral")[-1]["text"]
        assert said.startswith("Purged Caz") and "0 messages" not in said, (name, said)
        left = [m.content for m in slack.bot.service.store.iter_messages("slack:T1:CGEN")]
        assert left == [DB]


def test_a_dm_is_answered_only_from_channels_the_asker_can_read(start, api):
    slack = start()
    api.members["U1"] = ["CPRIV1"]  # maya: in one private channel, not the other
    api.members["U2"] = ["CPRIV1", "CPRIV2"]
    message(slack, "CPRIV1", "U2", RATE, ts(0), channel_type="group")
    message(slack, "CPRIV2", "U2", "The acquisition of Initech closes on 4 December; keep it "
            "quiet.", ts(1), channel_type="group")
    dm = {"channel_type": "im"}
    message(slack, "DU1", "U1", "what rate limit did we decide?", ts(5), **dm)
    message(slack, "DU1", "U1", "when does the acquisition of Initech close?", ts(6), **dm)
    command(slack, "U1", "ask what acquisition closes in December?", channel="DU1")
    rate, secret = [p["text"] for p in api.called("chat.postMessage") if p["channel"] == "DU1"]
    assert "500 requests" in rate and "CPRIV1" in rate  # from the channel maya can read
    assert "Initech" not in secret and "December" not in secret
    slash = api.called("chat.postEphemeral")[-1]["text"]
    assert "Initech" not in slash
    # someone in both channels gets both
    message(slack, "DU2", "U2", "when does the acquisition of Initech close?", ts(7), **dm)
    both = [p["text"] for p in api.called("chat.postMessage") if p["channel"] == "DU2"][-1]
    assert "Initech" in both
    # a DM does not become its own empty profile, and is never ingested
    assert not list(slack.bot.service.store.iter_messages("slack:T1:DU1"))


def test_a_correction_is_the_answer_in_its_channel_only(start, api):
    """A date corrected in #general is answered corrected there; #dev, which heard only the
    first date, still has it (a correction supersedes within its own channel's profile); the
    correction deleted, the first date is #general's answer again."""
    slack = start()
    first = "The customer offsite is on December 3rd in Denver."
    message(slack, "CGEN", "U1", first, ts(0))
    message(slack, "CDEV", "U2", first, ts(1))
    message(slack, "CGEN", "U2", "Can't wait for the offsite, booked my flight already!", ts(2))
    message(slack, "CGEN", "U1", "Correction: the offsite moved to *December 10th*, still "
            "Denver.", ts(30))
    app_mention(slack, "U2", "when is the customer offsite?", ts(40), "EvOff1")
    [general] = answers(api)
    assert "10 December 2026" in general["text"] and "December 3rd" not in general["text"]
    event(slack, {"type": "app_mention", "channel": "CDEV", "user": "U2",
                  "text": f"<@{BOT_USER}> when is the customer offsite?", "ts": ts(41),
                  "team": TEAM}, event_id="EvOff2")
    [dev] = [p for p in api.called("chat.postMessage") if p["channel"] == "CDEV"]
    assert "3 December 2026" in dev["text"] and "10th" not in dev["text"]
    # maya deletes her correction: the date it corrected is the answer again, not nothing
    fix = "Correction: the offsite moved to *December 10th*, still Denver."
    event(slack, {"type": "message", "subtype": "message_deleted", "channel": "CGEN",
                  "ts": ts(50), "deleted_ts": ts(30), "team": TEAM,
                  "previous_message": {"type": "message", "user": "U1", "text": fix,
                                       "ts": ts(30)}})
    app_mention(slack, "U2", "when is the customer offsite?", ts(60), "EvOff3")
    again = answers(api)[-1]["text"]
    assert again.startswith("3 December 2026") and "10th" not in again, again


def test_slack_dates_and_user_groups_are_stored_as_people_read_them(start, api):
    """`<!date^…|Dec 10, 2025>` (what apps and the date picker write) and `<!subteam^…|@crew>`
    were stored as markup: no date to answer "when" from, and a group no one could search."""
    slack = start()
    message(slack, "CGEN", "U1", "The customer offsite is on <!date^1765353600^{date_short}|"
            "Dec 10, 2025> in Denver, <!subteam^S0CREW|@offsite-crew> please book.", ts(0))
    [stored] = list(slack.bot.service.store.iter_messages(f"slack:{TEAM}:CGEN"))
    assert stored.content == ("The customer offsite is on Dec 10, 2025 in Denver, @offsite-crew "
                              "please book.")
    app_mention(slack, "U2", "when is the customer offsite?", ts(5), "EvDate1")
    [reply] = answers(api)
    assert reply["text"].startswith("10 December 2025"), reply["text"]


def test_a_message_is_dated_in_its_writers_time_zone(start, api):
    """"We shipped the billing migration tonight" at 23:30 on Tuesday in Seattle is 07:30 on
    Wednesday in UTC: dated in UTC (the adapter knew no zone) it was Wednesday's, and "what
    happened on Tuesday?" missed it. users.info gives the zone."""
    api.add_user("UPDX", "jun")
    api.users["UPDX"].update(tz="America/Los_Angeles", tz_offset=-28800)
    slack = start()
    late = "1794987000.000100"  # 2026-11-18 07:30 UTC = 23:30 on the 17th in Seattle
    message(slack, "CGEN", "UPDX", "We shipped the billing migration tonight.", late)
    [stored] = list(slack.bot.service.store.iter_messages(f"slack:{TEAM}:CGEN"))
    assert stored.utc_offset_minutes == -480
    [memory] = slack.bot.service.profile(f"slack:{TEAM}:CGEN").list()
    assert memory.event_time.isoformat().startswith("2026-11-17T23:30:00")
    app_mention(slack, "U1", "what happened on Tuesday?", ts(5), "EvTz1")
    [reply] = answers(api)
    assert "billing migration" in reply["text"] and "(17 November 2026)" in reply["text"]


def test_bot_state_claims_once_expires_and_hands_a_confirmation_to_one_taker(tmp_path):
    from bot.state import BotState

    now = [1000.0]
    state = BotState(tmp_path / "s.sqlite3", clock=lambda: now[0])
    assert state.claim("seen:slack:Ev1", ttl=10) and not state.claim("seen:slack:Ev1", ttl=10)
    again = BotState(tmp_path / "s.sqlite3", clock=lambda: now[0])  # another process
    assert not again.claim("seen:slack:Ev1", ttl=10)
    state.put("pending:ab", {"token": "ab"}, ttl=5)
    assert again.get("pending:ab") == {"token": "ab"}
    assert [k for k, _ in again.items("pending:")] == ["pending:ab"]
    assert again.take("pending:ab") == {"token": "ab"} and state.take("pending:ab") is None
    now[0] += 11
    assert state.claim("seen:slack:Ev1", ttl=10)  # expired: a new event may reuse the key
    state.put("pending:cd", {"token": "cd"}, ttl=5)
    now[0] += 6
    assert state.get("pending:cd") is None and state.take("pending:cd") is None


def test_a_handover_leads_the_answer_in_its_channel_only(start, api):
    """Ownership handed on in #general with Slack mentions: #general's answer leads with the
    handover and keeps who owned it before; #dev, which never heard of it, answers as before."""
    slack = start()
    message(slack, "CGEN", "U1", "<@UCAROL> owns the billing service for now.", ts(0))
    message(slack, "CDEV", "U1", "<@UCAROL> owns the billing service for now.", ts(1))
    message(slack, "CGEN", "U1", "Heads up: billing ownership moves to <@UADA>, <@UCAROL> is "
            "going on leave.", ts(30))
    app_mention(slack, "U2", "who owns the billing service?", ts(40), "EvOwn1")
    [general] = answers(api)
    text = general["text"]
    assert text.startswith("Latest: Heads up: billing ownership moves to"), text
    assert "@ada" in text.split("Before that:")[0] and "Before that: @Caz owns the billing" in text
    assert "<@" not in text  # people named, never pinged
    event(slack, {"type": "app_mention", "channel": "CDEV", "user": "U2",
                  "text": f"<@{BOT_USER}> who owns the billing service?", "ts": ts(41),
                  "team": TEAM}, event_id="EvOwn2")
    [dev] = [p for p in api.called("chat.postMessage") if p["channel"] == "CDEV"]
    assert dev["text"].startswith("@Caz owns the billing service") and "ada" not in dev["text"]


def test_last_tuesdays_decision_names_and_passwords_over_slack(start, api):
    """The week's outsider findings, through the Bolt app: asked on Wednesday 18 Nov, "what did
    we decide about the rate limit last Tuesday?" shows Tuesday's decision in #general (it
    shares no word with the question; the answer had said nothing was from that day) and never
    #dev's Tuesday; "what did zoe say?" finds Zoë's words; a password holding "&" is not
    posted back in part."""
    api.add_user("UZOE", "zoë")
    slack = start()
    day = 24 * 60
    message(slack, "CGEN", "U1", "Proposal for the public API rate limit: bump it from 300 to 500 "
            "requests/min per key.", ts(0))
    message(slack, "CGEN", "U1", "ok decision: paid keys get 500/min, free tier stays at "
            "300/min.", ts(day + 300))  # Tuesday 17 Nov, 14:00 UTC
    message(slack, "CDEV", "U2", "paid keys get 900/min in the dev sandbox", ts(day + 310))
    message(slack, "CGEN", "UZOE", "deploy freeze starts Friday 18:00 UTC, no merges to main",
            ts(day + 320))
    message(slack, "CGEN", "U2", "staging creds: user=loadtest pass=Gr4nite&31x host=stg-db-3",
            ts(day + 330))
    app_mention(slack, "U2", "what did we decide about the rate limit last Tuesday?",
                ts(2 * day - 60), "EvTue1")  # Wednesday 08:00 UTC
    [reply] = answers(api)
    text = reply["text"]
    # (since 5 Dec's eighteenth session "500/min" says a rate limit by its unit: Tuesday's
    # decision is about the question itself, no longer "Nothing from last Tuesday uses the
    # question's words; said then: …, Before it: Proposal for the public API rate limit …")
    assert text.startswith("ok decision: paid keys get 500/min"), text
    assert "900" not in text
    app_mention(slack, "U1", "what did zoe say?", ts(2 * day - 50), "EvZoe1")
    assert answers(api)[-1]["text"].startswith("deploy freeze starts Friday"), answers(api)[-1]
    app_mention(slack, "U1", "what's the staging password?", ts(2 * day - 40), "EvPw1")
    text = answers(api)[-1]["text"]
    assert "[REDACTED:password]" in text and "&amp;31x" not in text and "31x" not in text, text


def test_what_a_named_person_said_over_slack_stays_in_its_channel(start, api):
    """"what did zoe say?" in #general: her words there, the latest first, a question of hers
    that made no memory included, and never what she wrote in #dev (each channel is its own
    profile, and the authors searched are that profile's); "what did <@UZOE> say?" the same."""
    api.add_user("UZOE", "zoë")
    slack = start()
    day = 24 * 60
    message(slack, "CGEN", "UZOE", "shipped webhooks v2.3 to prod, p99 budget is 250ms",
            ts(day + 10))
    message(slack, "CGEN", "UZOE", "anyone looking at the flaky login test?", ts(day + 15))
    message(slack, "CDEV", "UZOE", "the dev sandbox key is rotated, new one in 1password",
            ts(day + 20))
    message(slack, "CGEN", "U1", "Proposal: raise the rate limit to 500 per minute",
            ts(day + 25))
    app_mention(slack, "U2", "what did zoe say?", ts(2 * day), "EvZoeGen")
    text = answers(api)[-1]["text"]
    assert text.startswith("zoë said: \"anyone looking at the flaky login test?\""), text
    assert "shipped webhooks v2.3 to prod" in text, text
    assert "sandbox" not in text and "rate limit" not in text, text
    # asked with a Slack mention of her (<@UZOE> arrives as "@zoë"): the same answer
    app_mention(slack, "U2", "what did <@UZOE> say?", ts(2 * day + 1), "EvZoeAt")
    assert answers(api)[-1]["text"] == text


def test_what_is_still_open_over_slack_lists_this_channels_work_and_pings_nobody(start, api):
    """"@lurker what's still open?" in #general: the work taken on there that no later message
    closed, with what closed the rest; never #dev's work; a task that mentions someone
    (<@U2>) or the channel (<!channel>) is quoted without pinging them."""
    slack = start()
    message(slack, "CGEN", "U1", "TODO: <@U2> please update the on-call runbook by Friday",
            ts(10))
    message(slack, "CGEN", "UZED", "<!channel> I'll take the flaky login test today", ts(20))
    message(slack, "CDEV", "U1", "I'll rotate the dev sandbox keys this week", ts(30))
    message(slack, "CGEN", "UZED", "Fixed the flaky login test, PR #1290 merged", ts(60))
    app_mention(slack, "U2", "what's still open?", ts(90), "EvOpen")
    text = answers(api)[-1]["text"]
    assert "update the on-call runbook" in text and "sandbox" not in text, text
    still, _, done = text.partition("Done:")
    assert "flaky login test" not in still and "Fixed the flaky login test" in done, text
    assert "<@U2>" not in text and "<!channel>" not in text, text
    # a request put to anyone, as a question, is open work; "is anything still open?" asks it
    message(slack, "CGEN", "U1", "Initech uses Okta with a custom IdP. <!here> can someone "
            "check if they're affected before EOD?", ts(100))
    app_mention(slack, "U2", "is anything still open?", ts(110), "EvOpen2")
    text = answers(api)[-1]["text"]
    assert "Initech uses Okta with a custom IdP." in text.partition("Done:")[0], text
    assert "<!here>" not in text and "<!channel>" not in text, text


def test_what_is_still_open_asked_in_a_dm_lists_only_channels_the_asker_can_read(start, api):
    """"what's still open?" in a DM went to fused retrieval over the asker's channels and found
    nothing: it lists each readable channel's open work, with its source linked, and never the
    work of a channel the asker is not in."""
    slack = start()
    api.members["U1"] = ["CPRIV1"]
    api.members["U2"] = ["CPRIV1", "CPRIV2"]
    message(slack, "CPRIV1", "U2", "I'll rotate the staging TLS certs this week", ts(0),
            channel_type="group")
    message(slack, "CPRIV2", "U2", "I'll draft the Initech acquisition FAQ by Friday", ts(1),
            channel_type="group")
    message(slack, "CPRIV1", "U1", "Blockers: waiting on the security review for the cert "
            "rotation", ts(2), channel_type="group")
    message(slack, "DU1", "U1", "what's still open?", ts(5), channel_type="im")
    text = [p["text"] for p in api.called("chat.postMessage") if p["channel"] == "DU1"][-1]
    assert "rotate the staging TLS certs" in text and "CPRIV1" in text, text
    assert "Initech" not in text, text
    message(slack, "DU1", "U1", "who is blocked?", ts(6), channel_type="im")
    text = [p["text"] for p in api.called("chat.postMessage") if p["channel"] == "DU1"][-1]
    assert text.startswith("Blocked now:\n- sam will rotate the staging TLS certs"), text
    assert 'latest: "maya: Blockers: waiting on the security review' in text, text


def test_passwords_pasted_in_prose_over_slack_are_never_stored_or_posted(start, api, tmp_path):
    """27 Nov, from outside: a team pastes logins the way people do, with no "password:" before
    the value — "use X as the admin password", "admin / X" (Slack escapes its "&"), "(pw X)",
    in backticks and bold, a door code, "ssh admin:X@host". None of them is answered back, and the store's file holds none of
    their bytes; a menu path and two ticket ids beside a slash are kept as written."""
    slack = start()
    secrets = ["Falcon2022!", "Tr0ub4dor&31x", "qecojs563?", "Jnc!46sjoowtMk", "M4ple;697",
               "866429", "Summer2004#"]
    lines = ["use Falcon2022! as the admin password until Monday",
             "jenkins admin login: admin / `Tr0ub4dor&amp;31x`",
             "ssh pi@192.168.1.40 (pw qecojs563?)",
             "root / *Jnc!46sjoowtMk* for the router admin page",
             "grafana on staging: admin / M4ple;697",
             "the door code for the server room is 866429",
             "ssh admin:Summer2004#@10.0.0.5 works from the bastion",
             "the toggle lives in admin / settings / billing, see JIRA-2231 / JIRA-2232"]
    for i, line in enumerate(lines):
        message(slack, "CGEN", "U1", line, ts(i))
    app_mention(slack, "U2", "what's the admin password?", ts(60), "EvPw27")
    app_mention(slack, "U2", "where does the billing toggle live?", ts(61), "EvMenu27")
    said = " ".join(a["text"] for a in answers(api))
    assert "[REDACTED:password]" in said, said
    assert "admin / settings / billing" in said and "JIRA-2231 / JIRA-2232" in said, said
    stored = b"".join(p.read_bytes() for p in tmp_path.glob("s.sqlite3*"))
    for secret in secrets:
        assert secret not in said and secret.encode() not in stored, secret
        assert secret.replace("&", "&amp;") not in said, secret


def test_an_ops_channels_pastes_over_slack_are_never_stored_or_posted(start, api, tmp_path):
    """27 Nov, from outside: what an ops channel pastes into Slack, markup and all — recovery
    codes one a line and in a code block (only the first of a list was redacted, the rest
    answered back), a value pointed at its label ("X <- that's the pw for the NAS", which Slack
    sends as "&lt;-"), a TOTP seed in backticks, a vault unseal key, an htpasswd line. Asked for
    them, the bot posts none, and the store's file holds none of their bytes; the line that only
    speaks of the codes is kept."""
    slack = start()
    codes = ["8f3k-2m9q", "7x1p-4n6r", "3z8w-5t2y", "k2m9q8f3", "p4n6r7x1"]
    secrets = [*codes, "Gh7#kLq2!xw", "JBSWY3DPEHPK3PXP",
               "7d9f2a1c8e4b6f3a0d5c9e2b7a4f1c8d3e6b9a2f5c8e1d4b7a0f3c6e9b2d5a8f1",
               "$apr1$x8Yz1Q2w$Hq7mN3pL5kR9tV2bX4cZ6."]
    lines = ["GitHub org recovery codes:\n8f3k-2m9q\n7x1p-4n6r\n3z8w-5t2y",
             "backup codes for the AWS root: ```k2m9q8f3 p4n6r7x1```",
             "`Gh7#kLq2!xw` &lt;- that's the pw for the NAS",
             "TOTP seed for the shared ops account: `JBSWY3DPEHPK3PXP`",
             "the vault unseal key is "
             "7d9f2a1c8e4b6f3a0d5c9e2b7a4f1c8d3e6b9a2f5c8e1d4b7a0f3c6e9b2d5a8f1",
             "htpasswd for the staging basic auth: admin:$apr1$x8Yz1Q2w$Hq7mN3pL5kR9tV2bX4cZ6.",
             "the recovery codes are printed and in the office safe"]
    for i, line in enumerate(lines):
        message(slack, "CGEN", "U1", line, ts(i))
    for n, question in enumerate(["what are the github recovery codes?",
                                  "what's the pw for the NAS?", "what's the TOTP seed?",
                                  "what is the vault unseal key?",
                                  "where are the recovery codes kept?"]):
        app_mention(slack, "U2", question, ts(60 + n), f"EvOps{n}")
    said = " ".join(a["text"] for a in answers(api))
    assert "[REDACTED:" in said and "office safe" in said, said
    stored = b"".join(p.read_bytes() for p in tmp_path.glob("s.sqlite3*"))
    for secret in secrets:
        assert secret not in said and secret.encode() not in stored, secret


def test_a_release_channel_over_slack_with_its_markup(start, api):
    """27 Nov, from outside: a release channel as Slack sends it — versions in bold and in code,
    a release link with its label, a hotfix after a rollback — asked "what version is in prod?"
    and "when was v4.12.2 released?" through the Bolt app: the newest version shipped leads,
    4.13.0's planned date answers neither, and nothing pings."""
    slack = start()
    lines = ["*4.12.0* is out to 10% of users behind the `new_checkout` flag",
             "Rollback done, prod is on `4.11.3` again <!here>",
             "4.12.1 with the pool fix is out, 100% of users",
             "Heads up: release 4.13.0 is planned for Dec 3, feature freeze on Dec 1",
             "Hotfix <https://github.com/acme/app/releases/tag/v4.12.2|v4.12.2> shipped: fixes "
             "the JPY rounding bug"]
    for i, line in enumerate(lines):
        message(slack, "CGEN", "U1", line, ts(i))
    app_mention(slack, "U2", "what version is in prod?", ts(60), "EvRel1")
    app_mention(slack, "U2", "when was v4.12.2 released?", ts(61), "EvRel2")
    said = [a["text"] for a in answers(api)]
    assert len(said) == 2, said
    assert "v4.12.2" in said[0].split("\n")[0] and "shipped" in said[0].split("\n")[0], said
    assert "4.13.0" not in said[1].split("\n")[0] and "4.12.2" in said[1], said
    assert not any("<!here>" in s or "<!channel>" in s for s in said), said


def test_an_incident_thread_over_slack_is_answered_whole_in_its_channel_only(start, api):
    """27 Nov, from outside: an incident posted in #general, a customer added in its thread
    ("Umbrella Corp also reported …", a separate event, read with its parent from the store),
    the fix in a short second sentence ("Raised to 80."), and #dev's own incident naming other
    customers. "which customers were affected by the payments incident?" lists the thread's
    customer too and none of #dev's; "what is the connection pool limit?" says 80."""
    slack = start()
    parent = ts(10)
    message(slack, "CGEN", "U1", "Incident: payments API returned 502s for 35 minutes. "
            "Affected customers: Acme, Globex and Initech.", parent)
    message(slack, "CDEV", "U1", "Incident on the staging payments API. Affected customers: "
            "Hooli and Pied Piper.", ts(12))
    message(slack, "CGEN", "U2", "Umbrella Corp also reported failed checkouts in that window.",
            ts(15), thread_ts=parent)
    message(slack, "CGEN", "U1", "Root cause: the new connection pool limit (20) was too low "
            "under peak. Raised to 80.", ts(30))
    app_mention(slack, "U2", "which customers were affected by the payments incident?", ts(60),
                "EvInc1")
    app_mention(slack, "U2", "what is the connection pool limit?", ts(61), "EvInc2")
    said = [a["text"].split("\n")[0] for a in answers(api)]
    assert len(said) == 2, said
    assert "Acme, Globex and Initech" in said[0] and "Umbrella Corp" in said[0], said
    assert "Hooli" not in said[0] and "Pied Piper" not in said[0], said
    assert "Raised to 80" in said[1], said


def test_a_list_of_logins_over_slack_is_never_stored_or_posted(start, api, tmp_path):
    """27 Nov, from outside: a note of logins as Slack sends a bulleted list ("• db: X" under
    "*Creds for staging:*", each item named by its system, not "password"). Asked "what are the
    staging creds?" the bot posts none of them and the store's file holds none of their bytes;
    the user name beside them and a list of counts are kept."""
    slack = start()
    secrets = ["hunter2x9", "Xk9#pq2Lm", "BlueFalcon77"]
    message(slack, "CGEN", "U1", "*Creds for staging:*\n• db: hunter2x9\n• admin: Xk9#pq2Lm\n"
            "• user: breakglass", ts(1))
    message(slack, "CGEN", "U1", "Passwords:\n• wifi: BlueFalcon77", ts(2))
    message(slack, "CGEN", "U2", "Logins per region:\n• eu: 12,400\n• us: 30,125", ts(3))
    app_mention(slack, "U2", "what are the staging creds?", ts(60), "EvCreds1")
    app_mention(slack, "U2", "what's the wifi password?", ts(61), "EvCreds2")
    app_mention(slack, "U2", "how many logins in the eu?", ts(62), "EvCreds3")
    said = " ".join(a["text"] for a in answers(api))
    assert "[REDACTED:" in said and "breakglass" in said and "12,400" in said, said
    stored = b"".join(p.read_bytes() for p in tmp_path.glob("s.sqlite3*"))
    for secret in secrets:
        assert secret not in said and secret.encode() not in stored, secret


def test_a_quoted_proposal_and_a_slip_over_slack(start, api):
    """27 Nov, from outside: a reply that quotes the proposal it turns down (Slack sends the quote
    escaped, "&gt; …") was stored as the replier's own statement and answered "should we enable
    new_checkout for everyone?"; a slip said by how much ("pushed a week") left "when is the
    code freeze?" answered with the old date."""
    slack = start()
    message(slack, "CGEN", "U1", "Code freeze for the 4.2 release is *Dec 1*.", ts(0))
    message(slack, "CGEN", "U2", "&gt; we should enable the new_checkout flag for everyone\nNo, "
            "we agreed to keep `new_checkout` at 10% until the 500s are understood.", ts(5))
    message(slack, "CGEN", "U1", "Heads up: the code freeze is pushed a week because of the "
            "checkout incident.", ts(30))
    app_mention(slack, "U3", "should we enable new_checkout for everyone?", ts(60), "EvQuote1")
    app_mention(slack, "U3", "when is the code freeze?", ts(61), "EvQuote2")
    said = [a["text"].split("\n")[0] for a in answers(api)]
    assert len(said) == 2, said
    assert said[0].startswith("No, we agreed to keep"), said
    assert "we should enable the new_checkout flag for everyone" not in said[0], said
    assert said[1].startswith("8 December 2026: Heads up: the code freeze is pushed a week"), said


def test_a_correction_in_a_thread_over_slack_leads_the_answer(start, api):
    """27 Nov, from outside: "FYI the max upload size on the API is 25 MB." and, in its thread
    (a separate event, its parent read from the store), "actually it's 50 MB since the 4.1
    release, I bumped it on Monday": asked "what is the max upload size?" the bot said 25 MB (the
    reply alone said nothing of what it corrected). A reply that only agrees corrects nothing."""
    slack = start()
    parent = ts(10)
    message(slack, "CGEN", "U1", "FYI the max upload size on the API is 25 MB.", parent)
    message(slack, "CGEN", "U2", "actually it's 50 MB since the 4.1 release, I bumped it on Monday",
            ts(12), thread_ts=parent)
    message(slack, "CGEN", "U1", "oh right, my bad", ts(13), thread_ts=parent)
    other = ts(20)
    message(slack, "CGEN", "U1", "Support hours are 9-17 CET.", other)
    message(slack, "CGEN", "U2", "actually that's a great setup", ts(21), thread_ts=other)
    app_mention(slack, "U3", "what is the max upload size?", ts(60), "EvFix1")
    app_mention(slack, "U3", "what are the support hours?", ts(61), "EvFix2")
    said = [a["text"].split("\n")[0] for a in answers(api)]
    assert len(said) == 2, said
    assert said[0].startswith("Latest: Correction: actually it's 50 MB since the 4.1 release"), said
    assert "Before that: FYI the max upload size on the API is 25 MB." in said[0], said
    assert said[1].startswith("Support hours are 9-17 CET."), said
    assert "Correction" not in said[1] and "my bad" not in " ".join(said), said


def test_a_password_pasted_from_a_wiki_over_slack_is_never_stored_or_posted(start, api, tmp_path):
    """27 Nov, from outside: a password copied from a wiki page keeps the page's no-break space
    after the colon ("DB password:\\u00a0Summer2008!"), and was stored and posted whole."""
    slack = start()
    message(slack, "CGEN", "U1", "Staging DB password:\u00a0Summer2008! (from the wiki)", ts(1))
    message(slack, "CGEN", "U1", "wifi password:\u2007StormLemonViolet", ts(2))
    app_mention(slack, "U2", "what's the staging db password?", ts(60), "EvWiki1")
    app_mention(slack, "U2", "what's the wifi password?", ts(61), "EvWiki2")
    said = " ".join(a["text"] for a in answers(api))
    stored = b"".join(p.read_bytes() for p in tmp_path.glob("s.sqlite3*"))
    for secret in ("Summer2008!", "StormLemonViolet"):
        assert secret not in said and secret.encode() not in stored, secret
    assert "[REDACTED:" in said, said


def test_an_app_s_cards_and_a_forward_over_slack_are_read_and_answered(start, api, tmp_path):
    """27 Nov, from outside: a pager app posts its alert as an attachment with an empty text, a
    CI app its deploy as Block Kit (text "Deploy succeeded", the service and version in fields)
    and updates its card in place (`chat.update`: a message_changed without "edited"); a person
    forwards a message from another channel; a link's preview unfurls. Lurker read only `text`:
    the alert and the version were never stored, "what version of checkout-api is in
    production?" and "how long did the checkout-api incident last?" were declined (the two
    apps are on the config's `allowed_bots`)."""
    slack = start(allowed_bots=frozenset({"slack:BPD", "slack:BGH"}))
    pager = functools.partial(pager_card, ping="<@U1> <!here>")

    def deploy(state, version, env, at):
        return {"type": "message", "subtype": "bot_message", "bot_id": "BGH", "username":
                "GitHub Actions", "text": f"Deploy {state}", "ts": at, "team": TEAM,
                "channel": "CGEN", "channel_type": "channel", "blocks": [
                    {"type": "header", "text": {"type": "plain_text", "text": f"Deploy {state}"}},
                    {"type": "section", "fields": [
                        {"type": "mrkdwn", "text": "*Service:*\ncheckout-api"},
                        {"type": "mrkdwn", "text": f"*Version:*\n{version}"},
                        {"type": "mrkdwn", "text": f"*Environment:*\n{env}"}]},
                    {"type": "context", "elements": [
                        {"type": "mrkdwn", "text": "Triggered by <@U1>"},
                        {"type": "mrkdwn", "text": "token ghp_Q8bW2rT5yV9nM3kL7pX1cZ4hJ6gF0dS8aE2u"}]}]}

    event(slack, pager("Triggered", "Assigned to", ts(5)))
    event(slack, pager("Resolved", "Resolved by", ts(52)))
    event(slack, deploy("in progress", "v4.2.0", "production", ts(60)))
    event(slack, {"type": "message", "subtype": "message_changed", "channel": "CGEN",
                  "channel_type": "channel", "team": TEAM, "ts": ts(70),
                  "message": deploy("succeeded", "v4.2.0", "production", ts(60)),
                  "previous_message": deploy("in progress", "v4.2.0", "production", ts(60))})
    event(slack, deploy("succeeded", "v1.9.3", "staging", ts(80)))
    message(slack, "CGEN", "U2", "FYI from #infra", ts(90), attachments=[{
        "is_share": True, "is_msg_unfurl": True, "author_name": "tom", "author_id": "U0TOM",
        "text": "The Postgres 16 upgrade is on Dec 5, 02:00 UTC.",
        "from_url": "https://acme.slack.com/archives/CINFRA/p1763900000000100"}])
    message(slack, "CGEN", "U2", "docs: <https://example.com/cats>", ts(95), attachments=[{
        "from_url": "https://example.com/cats", "service_name": "Example",
        "title": "Cats of the internet", "text": "Whiskers the cat runs the checkout team."}])
    app_mention(slack, "U2", "what version of checkout-api is in production?", ts(120), "EvApp1")
    app_mention(slack, "U2", "how long did the checkout-api incident last?", ts(121), "EvApp2")
    app_mention(slack, "U2", "when is the postgres 16 upgrade?", ts(122), "EvApp3")
    app_mention(slack, "U2", "who runs the checkout team?", ts(123), "EvApp4")
    said = [a["text"].split("\n")[0] for a in answers(api)]
    assert len(said) == 4, said
    assert said[0].startswith("Deploy succeeded (Service checkout-api; Version v4.2.0; "
                              "Environment production; Triggered by @maya"), said
    assert "in progress" not in said[0] and "v1.9.3" not in said[0], said
    assert said[1].startswith("47 minutes: from "), said
    assert said[2].startswith("5 December 2026: ") and "Shared from tom: The Postgres 16" \
        in said[2], said
    assert "Whiskers" not in " ".join(said), said
    posted = " ".join(a["text"] + json.dumps(a.get("blocks")) for a in answers(api))
    assert "@​here" in posted or "@here" in posted, posted  # the card's ping, shown
    assert "<!here>" not in posted and "<!channel>" not in posted, posted  # never live
    stored = b"".join(p.read_bytes() for p in tmp_path.glob("s.sqlite3*"))
    assert b"ghp_Q8bW2rT5yV9nM3kL7pX1cZ4hJ6gF0dS8aE2u" not in stored
    assert b"Whiskers" not in stored


def test_what_a_thread_decided_last_tuesday_over_slack(start, api):
    """27 Nov, from outside, the question Lurker is for: on Tuesday a thread in #general opens
    on the rate limit, a reply argues, another settles it ("Agreed, bump to 500/min for paid
    plans …", in the thread: a separate event, its parent read from the store); #dev settles
    its own staging limit the same day. Asked on Wednesday "what did we decide about the rate
    limit last Tuesday?" the bot answered with the thread's opening, not what it settled."""
    slack = start()
    tuesday = 24 * 60
    parent = ts(tuesday + 60)
    message(slack, "CGEN", "U1", "Rate limit discussion: we're at 300/min and customers hit it "
            "daily.", parent)
    message(slack, "CGEN", "U2", "Paid customers complain the most, free ones rarely do.",
            ts(tuesday + 62), thread_ts=parent)
    message(slack, "CGEN", "U0BOB", "Agreed, bump to 500/min for paid plans, keep free at 300.",
            ts(tuesday + 65), thread_ts=parent)
    other = ts(tuesday + 70)
    message(slack, "CDEV", "U1", "Staging rate limit: should it match prod?", other)
    message(slack, "CDEV", "U2", "Let's go with 50/min on staging, it's only for tests.",
            ts(tuesday + 72), thread_ts=other)
    app_mention(slack, "U2", "what did we decide about the rate limit last Tuesday?",
                ts(2 * 24 * 60), "EvDecide1")
    said = [a["text"] for a in answers(api)]
    assert len(said) == 1, said
    first = said[0].split("\n")[0]
    assert first.startswith("Decision: Agreed, bump to 500/min for paid plans, keep free at "
                            "300. (on maya's \"Rate limit discussion:"), said
    assert "50/min" not in said[0] and "staging" not in said[0].lower(), said


def test_a_standup_bot_s_posts_over_slack_are_each_person_s_standup(start, api):
    """27 Nov, from outside: a standup app (allow-listed) posts each person's answers under the
    form's questions ("*maya* posted an update for *Daily Standup*", "*What will you do
    today?*", …). Each question became a memory, each answer lost whose it was, and one
    person's "Today:" replaced another's: "who is blocked?" found nobody, "what is maya working
    on today?" answered with the form's header, and "is tom blocked?" (tom never writes in the
    channel himself) had no answer of his."""
    slack = start(allowed_bots=frozenset({"slack:BGEEK"}))

    def standup(who, done, plan, blockers, at):
        event(slack, {"type": "message", "subtype": "bot_message", "bot_id": "BGEEK",
                      "username": "Geekbot", "channel": "CGEN", "channel_type": "channel",
                      "team": TEAM, "ts": at,
                      "text": f"*{who}* posted an update for *Daily Standup*\n*What did you do "
                              f"yesterday?*\n{done}\n*What will you do today?*\n{plan}\n"
                              f"*Anything blocking your progress?*\n{blockers}"})

    morning = 2 * 24 * 60 - 60  # Wednesday 08:00, the lurker's clock an hour later
    standup("maya", "Fixed the flaky checkout test", "Work on the billing export",
            "Waiting on legal for the DPA", ts(morning))
    standup("tom", "Reviewed the Keycloak PRs", "Pairing with li on the SSO config",
            "No blockers", ts(morning + 2))
    app_mention(slack, "U2", "who is blocked?", ts(morning + 60), "EvStand1")
    app_mention(slack, "U2", "what is maya working on today?", ts(morning + 61), "EvStand2")
    app_mention(slack, "U2", "is tom blocked?", ts(morning + 62), "EvStand3")
    said = [a["text"] for a in answers(api)]
    assert len(said) == 3, said
    blocked, maya, tom = said
    assert blocked.startswith("Blocked now:\n- Geekbot: Blockers (maya's Daily Standup): Waiting "
                              "on legal for the DPA"), said
    assert "tom's" not in blocked.split("\n\n")[0], said
    assert maya.startswith("Today (maya's Daily Standup): Work on the billing export."), said
    assert tom.startswith("tom has not said they are blocked"), said


def test_a_pager_card_updated_in_place_over_slack_is_answered_how_long(start, api):
    """27 Nov, from outside: PagerDuty's Slack app posts "#4312: High error rate on
    checkout-api" with Status Triggered and, when it resolves, updates that same message
    (`chat.update`: a message_changed without "edited", 47 minutes later). The edit replaced
    the alert's memory, so "how long did the checkout-api incident last?" had one status to
    read: "when was it triggered?" was answered with the resolution's time. Both are kept, each
    with when it was said; a person's edit of a plain message still replaces it."""
    slack = start(allowed_bots=frozenset({"slack:BPD"}))
    pager = pager_card

    event(slack, pager("Triggered", "Assigned to", ts(5)))
    event(slack, {"type": "message", "subtype": "message_changed", "channel": "CGEN",
                  "channel_type": "channel", "team": TEAM, "ts": ts(52),
                  "message": pager("Resolved", "Resolved by", ts(5)),
                  "previous_message": pager("Triggered", "Assigned to", ts(5))})
    message(slack, "CGEN", "U2", "The staging DB host is db-staging-1.", ts(60))
    event(slack, {"type": "message", "subtype": "message_changed", "channel": "CGEN",
                  "channel_type": "channel", "team": TEAM, "ts": ts(61),
                  "message": {"type": "message", "user": "U2", "ts": ts(60),
                              "text": "The staging DB host is db-staging-2.",
                              "edited": {"user": "U2", "ts": ts(61)}},
                  "previous_message": {"type": "message", "user": "U2", "ts": ts(60),
                                       "text": "The staging DB host is db-staging-1."}})
    app_mention(slack, "U2", "how long did the checkout-api incident last?", ts(120), "EvPg1")
    app_mention(slack, "U2", "when was the checkout-api alert triggered?", ts(121), "EvPg2")
    app_mention(slack, "U2", "what is the staging DB host?", ts(122), "EvPg3")
    said = [a["text"].split("\n")[0] for a in answers(api)]
    assert len(said) == 3, said
    lasted, triggered, host = said
    assert lasted.startswith("47 minutes: from 09:05 UTC on 16 November 2026 (#4312: High "
                             "error rate on checkout-api (Status Triggered"), said
    assert "to 09:52 UTC (#4312: High error rate on checkout-api (Status Resolved" in lasted, said
    assert triggered.startswith("09:05 UTC on 16 November 2026: #4312"), said
    assert host.startswith("db-staging-2 — changed from db-staging-1"), said


def test_a_question_asked_inside_a_thread_is_about_the_thread_over_slack(start, api):
    """27 Nov, from outside: a thread opens "Postgres 16 upgrade: we need a maintenance
    window.", a reply settles "Dec 5, 02:00 UTC works for everyone."; later, in that thread,
    "@lurker when is it?" was answered "I don't have anything about that in memory." (the
    question names nothing). Asked in a thread, "it" is the thread's subject; asked at the top
    level, the same words still name nothing, and another channel's thread lends nothing."""
    slack = start()
    opening = ts(60)
    message(slack, "CGEN", "U1", "Postgres 16 upgrade: we need a maintenance window.", opening)
    message(slack, "CGEN", "U2", "Dec 5, 02:00 UTC works for everyone, I'll book it.", ts(65),
            thread_ts=opening)
    message(slack, "CGEN", "U1", "The billing export is broken again for EU customers.", ts(70))
    event(slack, {"type": "app_mention", "channel": "CGEN", "user": "U2",
                  "text": f"<@{BOT_USER}> when is it?", "ts": ts(200), "thread_ts": opening,
                  "team": TEAM}, event_id="EvThread1")
    event(slack, {"type": "app_mention", "channel": "CGEN", "user": "U2",
                  "text": f"<@{BOT_USER}> when is it?", "ts": ts(201), "team": TEAM},
          event_id="EvThread2")
    said = [a["text"].split("\n")[0] for a in answers(api)]
    assert len(said) == 2, said
    in_thread, top = said
    assert in_thread.startswith("5 December 2026: "), said
    assert "02:00 UTC works for everyone" in in_thread, said
    assert top.startswith("I don't have anything about that in memory."), said
    posted = api.called("chat.postMessage")
    assert [p.get("thread_ts") for p in posted if p["channel"] == "CGEN"] == [opening, ts(201)]
    debate = ts(300)  # "what did we decide?" names nothing: it asks of the thread it is in
    message(slack, "CGEN", "U1", "Should we use Kafka or SQS for the event bus?", debate)
    message(slack, "CGEN", "U2", "Kafka gives us replay, but the ops cost is high.", ts(302),
            thread_ts=debate)
    message(slack, "CGEN", "U1", "OK let's go with SQS for now, revisit in Q2.", ts(305),
            thread_ts=debate)
    event(slack, {"type": "app_mention", "channel": "CGEN", "user": "U2",
                  "text": f"<@{BOT_USER}> what did we decide?", "ts": ts(400),
                  "thread_ts": debate, "team": TEAM}, event_id="EvThread3")
    decided = answers(api)[2]["text"].split("\n")[0]
    assert decided.startswith("Decision: OK let's go with SQS for now"), decided


def test_a_leaked_key_pasted_in_a_security_channel_over_slack_is_never_stored_or_posted(
        start, api, tmp_path):
    """27 Nov (sixth session), from outside: a security channel says a key leaked and pastes it
    the way people do — after "committed this to the public repo:", in a code span, a vault
    unseal key after "key 3 of 5 is" — then asks "@lurker what key leaked?" and "@lurker are we
    affected by CVE-2026-41021?". Neither answer holds the secrets, nor does the store's file;
    the CVE question is answered with the bump that fixed it (it was declined)."""
    slack = start()
    secrets = ["q8Jd0Lx2bV/9sPzT4mWkRyE7nHcA3uGfYt6iNo1K",
               "Yh8Kx2Pq9Lm4Wz7Rt3Vb6Nc1Fd5Gj0Hs8Kp2Lq9Mx4W="]
    message(slack, "CGEN", "U1", "Heads up: CVE-2026-41021 in libxml2 affects our ingest "
            "service, CVSS 8.1. We're on 2.11.4, fixed in 2.11.9.", ts(0))
    message(slack, "CGEN", "U1", f"someone committed this to the public repo: `{secrets[0]}` "
            "rotating now", ts(5))
    message(slack, "CGEN", "U2", f"the vault unseal key 3 of 5 is {secrets[1]}", ts(6))
    message(slack, "CGEN", "U2", "libxml2 bumped to 2.11.9 and deployed to prod. SEC-212 closed.",
            ts(30))
    app_mention(slack, "U3", "what key leaked?", ts(60), "EvLeak27")
    app_mention(slack, "U3", "are we affected by CVE-2026-41021?", ts(61), "EvCve27")
    said = [a["text"] for a in answers(api)]
    assert len(said) == 2, said
    assert said[1].startswith("libxml2 bumped to 2.11.9"), said
    stored = b"".join(p.read_bytes() for p in tmp_path.glob("s.sqlite3*"))
    for secret in secrets:
        assert secret not in " ".join(said) and secret.encode() not in stored, secret


def test_an_on_call_channel_over_slack_dates_since_and_keeps_a_dsn_out(start, api, tmp_path):
    """27 Nov (seventh session), from outside, an on-call channel: "Quiet night. No pages since
    Tuesday." (said on Friday) was dated the Tuesday after and answered "when did sam get
    paged?"; the root cause said after the spike in the same message was left out of "what
    caused the checkout 5xx spike?"; a Sentry DSN pasted for the worker was stored and posted
    whole. #dev's own page at 3am must not reach #general's answers."""
    slack = start()
    dsn_key = "3f2a9c8d7e6b5a4f3e2d1c0b9a8f7e6d"
    message(slack, "CGEN", "U1", "Handing over on-call to @sam for this week.", ts(0))
    message(slack, "CGEN", "U2", "Paged at 2am: checkout-api 5xx spike. Root cause was an "
            "expired TLS cert on the internal LB. Renewed it, 5xx back to zero by 02:40.",
            ts(17 * 60 + 14))
    message(slack, "CDEV", "U0BOB", "Paged at 3am on the staging cluster, root cause was a full "
            "disk on the checkout runner.", ts(18 * 60))
    message(slack, "CGEN", "U1", f"SENTRY_DSN for the worker: https://{dsn_key}@o450123.ingest."
            "sentry.io/5512345", ts(24 * 60 + 60))
    message(slack, "CGEN", "U2", "Quiet night. No pages since Tuesday.", ts(4 * 24 * 60 - 60))
    app_mention(slack, "U1", "when did sam get paged?", ts(4 * 24 * 60), "EvPaged27")
    app_mention(slack, "U1", "what caused the checkout 5xx spike?", ts(4 * 24 * 60 + 1),
                "EvCause27")
    app_mention(slack, "U1", "what's the sentry dsn for the worker?", ts(4 * 24 * 60 + 2),
                "EvDsn27")
    said = [a["text"] for a in answers(api)]
    assert len(said) == 3, said
    paged, cause, dsn = (s.split("\n")[0] for s in said)
    assert "Paged at 2am: checkout-api 5xx spike." in paged and "No pages" not in paged, said
    assert cause.startswith("Root cause was an expired TLS cert on the internal LB."), said
    assert "SENTRY_DSN for the worker: https://[REDACTED:sentry-dsn]@" in dsn, said
    assert "full disk" not in " ".join(said) and "staging" not in " ".join(said), said
    stored = b"".join(p.read_bytes() for p in tmp_path.glob("s.sqlite3*"))
    assert dsn_key not in " ".join(said) and dsn_key.encode() not in stored


def test_whats_coming_up_over_slack_lists_this_channels_dates_without_pinging_anyone(start,
                                                                                     api):
    """27 Nov (eighth session): "what's coming up?" and "anything planned for December?" were
    declined (no date asked, or none of the plans said in December). Over Slack: this channel's
    plans in date order, a ping written in one of them not sent again, and another channel's
    plan (its own profile) not shown."""
    slack = start()
    message(slack, "CGEN", "U1", "<!channel> Code freeze is Dec 14-18, no deploys then.", ts(0))
    message(slack, "CGEN", "U2", "<@U1> the analytics contract renews on Dec 3.", ts(1))
    message(slack, "CGEN", "U1", "Offsite is the week of Jan 11 in Lisbon.", ts(2))
    message(slack, "CSEC", "U2", "Pen test is Dec 8, keep it quiet.", ts(3))
    for n, question in enumerate(("what's coming up?", "anything planned for December?")):
        app_mention(slack, "U2", question, ts(2 * 24 * 60 + n), f"EvCAL{n}")
    said = [a["text"] for a in answers(api)]
    assert len(said) == 2, said
    for text in said:
        renews, freeze = text.find("analytics contract renews"), text.find("Code freeze")
        assert -1 < renews < freeze, said
        assert "Pen test" not in text and "Offsite" not in text, said
        assert "<!channel>" not in text and "<@U1>" not in text and "<!" not in text, said


def test_an_edited_or_deleted_plan_over_slack_leaves_the_calendar(start, api):
    """A plan edited to new days is on the calendar on those days only, and a deleted one not at
    all (the date channel reads the memories' own dates, rewritten with them)."""
    slack = start()
    message(slack, "CGEN", "U1", "Code freeze is Dec 14-18, no deploys then.", ts(0))
    message(slack, "CGEN", "U2", "Board meeting is Dec 2.", ts(1))
    message(slack, "CGEN", "U2", "Holiday party is Dec 17 at the office.", ts(2))
    edited = {"type": "message", "user": "U1", "text": "Code freeze is Jan 4-8, no deploys then.",
              "ts": ts(0), "edited": {"user": "U1", "ts": ts(30)}}
    event(slack, {"type": "message", "subtype": "message_changed", "channel": "CGEN",
                  "channel_type": "channel", "team": TEAM, "ts": ts(30), "message": edited,
                  "previous_message": {"type": "message", "user": "U1", "ts": ts(0),
                                       "text": "Code freeze is Dec 14-18, no deploys then."}})
    event(slack, {"type": "message", "subtype": "message_deleted", "channel": "CGEN",
                  "channel_type": "channel", "team": TEAM, "ts": ts(31), "deleted_ts": ts(1),
                  "previous_message": {"type": "message", "user": "U2", "ts": ts(1),
                                       "text": "Board meeting is Dec 2."}})
    app_mention(slack, "U2", "anything planned for December?", ts(2 * 24 * 60), "EvEd1")
    app_mention(slack, "U2", "anything planned for January?", ts(2 * 24 * 60 + 1), "EvEd2")
    december, january = (a["text"].split("*Sources*")[0] for a in answers(api))
    assert "Holiday party" in december and "Code freeze" not in december, december
    assert "Board meeting" not in december, december
    assert "Jan 4-8" in january and "Dec 14" not in january, january


def test_on_it_in_a_review_requests_thread_over_slack_names_the_reviewer(start, api):
    """27 Nov (ninth session): sam's "<@U1> on it" in the thread of maya's "can someone review
    my PR #901 before the weekend?" (a separate event, its parent read from the store) was too
    short to keep: "who is reviewing #901?" had no answer. Another channel's claim stays there."""
    slack = start()
    parent = ts(10)
    message(slack, "CGEN", "U1", "can someone review my PR #901 before the weekend?", parent)
    message(slack, "CGEN", "U2", "<@U1> on it", ts(12), thread_ts=parent)
    message(slack, "CDEV", "U0BOB", "can someone review PR #777 today?", ts(20))
    message(slack, "CDEV", "UCAROL", "on it", ts(21))
    app_mention(slack, "UADA", "who is reviewing #901?", ts(60), "EvOnIt1")
    app_mention(slack, "UADA", "who is reviewing PRs?", ts(61), "EvOnIt2")
    said = [a["text"] for a in answers(api)]
    assert len(said) == 2, said
    assert said[0].startswith("can someone review maya's PR #901 before the weekend? sam is on "
                              "it."), said
    assert "#777" not in " ".join(said) and "Caz" not in " ".join(said), said
    assert "<@U1>" not in " ".join(said), said


def test_on_it_edited_to_cant_over_slack_takes_the_work_back(start, api):
    """27 Nov (ninth session): a reply's memory cites the question it answers too, so an edit
    of the reply ("on it" to "actually can't today, sorry") left "sam is on it" standing (it was
    read as still said elsewhere)."""
    slack = start()
    parent = ts(10)
    message(slack, "CGEN", "U1", "can someone review my PR #901 before the weekend?", parent)
    message(slack, "CGEN", "U2", "on it", ts(12), thread_ts=parent)
    edited = {"type": "message", "user": "U2", "text": "actually can't today, sorry",
              "ts": ts(12), "thread_ts": parent, "edited": {"user": "U2", "ts": ts(20)}}
    event(slack, {"type": "message", "subtype": "message_changed", "channel": "CGEN",
                  "channel_type": "channel", "team": TEAM, "ts": ts(20), "message": edited,
                  "previous_message": {"type": "message", "user": "U2", "ts": ts(12),
                                       "thread_ts": parent, "text": "on it"}})
    app_mention(slack, "UADA", "who is reviewing #901?", ts(60), "EvEdOn1")
    app_mention(slack, "UADA", "what's still open?", ts(61), "EvEdOn2")
    said = " ".join(a["text"] for a in answers(api))
    assert "sam is on it" not in said, said
    assert "can someone review maya's PR #901" in said, said


def test_on_it_deleted_over_slack_takes_the_work_back(start, api):
    """27 Nov (ninth session): "sam is on it" cites the request it answers, and carries no word
    of "on it", so it stood after sam deleted his reply."""
    slack = start()
    parent = ts(10)
    message(slack, "CGEN", "U1", "can someone review my PR #901 before the weekend?", parent)
    message(slack, "CGEN", "U2", "on it", ts(12), thread_ts=parent)
    event(slack, {"type": "message", "subtype": "message_deleted", "channel": "CGEN",
                  "channel_type": "channel", "team": TEAM, "ts": ts(20), "deleted_ts": ts(12),
                  "previous_message": {"type": "message", "user": "U2", "ts": ts(12),
                                       "thread_ts": parent, "text": "on it"}})
    app_mention(slack, "UADA", "who is reviewing #901?", ts(60), "EvDelOn1")
    said = " ".join(a["text"] for a in answers(api))
    assert "sam is on it" not in said and "can someone review maya's PR #901" in said, said


def test_an_incident_channel_without_threads_over_slack_says_how_long_it_lasted(start, api):
    """27 Nov (ninth session): an incident channel whose messages are all top-level, each its own
    event. The resolution is read with the declaration above it: how long it lasted is
    computed; another channel's "Resolved" ends nothing here."""
    slack = start()
    message(slack, "CINC", "U1", ":rotating_light: checkout is returning 502s, declaring SEV2, "
            "I'm IC", ts(0))
    message(slack, "CINC", "U2", "Root cause looks like the new pool limit in payments-api", ts(8))
    message(slack, "CINC", "U0BOB", "Resolved, search is back", ts(20))  # ends no declared search
    message(slack, "CGEN", "U0BOB", "Resolved, checkout is fine here", ts(21))
    message(slack, "CINC", "U1", "Resolved. Checkout healthy since 09:36 UTC. <!here> "
            "Postmortem Thursday.", ts(39))
    event(slack, {"type": "app_mention", "channel": "CINC", "user": "UADA", "team": TEAM,
                  "text": f"<@{BOT_USER}> how long was checkout down?", "ts": ts(60)},
          event_id="EvFlatInc1")
    text = [p for p in api.called("chat.postMessage") if p["channel"] == "CINC"][-1]["text"]
    assert text.startswith("39 minutes: from 09:00 UTC on 16 November 2026"), text
    assert "search is back" not in text and "<!here>" not in text, text
    # the cause, its own event too, is found by the incident (28 Nov: it was declined)
    event(slack, {"type": "app_mention", "channel": "CINC", "user": "UADA", "team": TEAM,
                  "text": f"<@{BOT_USER}> what caused the checkout incident?", "ts": ts(61)},
          event_id="EvFlatInc2")
    text = [p for p in api.called("chat.postMessage") if p["channel"] == "CINC"][-1]["text"]
    assert text.startswith("Root cause looks like the new pool limit in payments-api"), text


def test_planning_notes_with_mentions_over_slack_give_each_their_items(start, api):
    """28 Nov (tenth session): planning notes posted in Slack as bullets that mention people
    ("• <@U1>: write the caching RFC by Friday"). "what are maya's action items?" was declined
    (no bullet was anyone's work); now each is the mentioned person's item, quoted without
    pinging anyone, and another channel's RFC owner ("Owner: sam." in #dev) answers nothing
    of #general's ("Owner: maya.")."""
    slack = start()
    message(slack, "CGEN", "U0BOB", "Meeting notes from planning:\n• <@U1>: write the caching "
            "RFC by Friday\n• <@U2>: benchmark the new parser\n• <!here>: review the roadmap",
            ts(0))
    message(slack, "CGEN", "U1", "RFC: move session storage from Redis to Postgres. Owner: "
            "maya. Target: end of December.", ts(5))
    message(slack, "CDEV", "U2", "RFC: replace the billing cron with Stripe webhooks. Owner: "
            "sam. Target: end of January.", ts(10))
    app_mention(slack, "UADA", "what are maya's action items?", ts(30), "EvItems1")
    text = answers(api)[-1]["text"]
    assert text.startswith("maya is on:"), text
    answer = text.split("*Sources*")[0]
    assert "write the caching RFC" in answer and "benchmark the new parser" not in answer, text
    assert "<@U1>" not in text and "<!here>" not in text, text
    app_mention(slack, "UADA", "who owns the session storage RFC?", ts(40), "EvItems2")
    text = answers(api)[-1]["text"]
    assert text.startswith("RFC: move session storage from Redis to Postgres. Owner: maya."), text
    assert "Owner: sam" not in text and "changed from" not in text, text


def test_a_guessed_cause_in_a_thread_and_is_anything_blocked_over_slack(start, api):
    """4 Dec (eleventh session): an alert posted in #general with "paging oncall", and in its
    thread "looks like the new connection pool size (20 → 5) from this morning's deploy"; #dev
    guesses another cause of its own incident. "what caused the payments incident?" was
    declined (the guess names neither payments nor an incident and cited nothing of its
    thread); now it is #general's guess, not #dev's. "is anything blocked?" was answered
    "anything has not said they are blocked"."""
    slack = start()
    root = ts(0)
    message(slack, "CGEN", "U1", "<!here> :rotating_light: payments-api error rate at 12% since "
            "09:02 UTC, paging oncall", root)
    message(slack, "CDEV", "U2", "payments sandbox returning 500s, paging oncall", ts(1))
    message(slack, "CGEN", "U2", "looks like the new connection pool size (20 → 5) from this "
            "morning's deploy", ts(8), thread_ts=root)
    message(slack, "CDEV", "U1", "probably the expired sandbox cert", ts(9), thread_ts=ts(1))
    message(slack, "CGEN", "U0BOB", "blocked on the analytics events: the segment workspace is "
            "over quota, waiting on finance", ts(20))
    app_mention(slack, "UADA", "what caused the payments incident?", ts(40), "EvGuess1")
    text = answers(api)[-1]["text"]
    assert text.startswith("looks like the new connection pool size (20 → 5)"), text
    assert "sandbox cert" not in text and "<!here>" not in text, text
    app_mention(slack, "UADA", "is anything blocked?", ts(41), "EvGuess2")
    text = answers(api)[-1]["text"]
    assert "segment workspace is over quota" in text and "has not said" not in text, text


def test_votes_in_an_rfc_thread_and_a_one_line_standup_s_blocker(start, api):
    """Over the real Bolt app: an RFC with ":+1: …" and "-1 for now, <@U1> …" in its thread,
    and bob's one-line standup "Y: …, T: …, B: waiting on <@UADA> for the AWS sandbox" that ada
    answers. "who supported RFC-7?" and "who objected to RFC-7?" found no vote (":+1:" and "-1"
    say neither, and the replies name no RFC); "what is bob blocked on?" was "bob has not said
    they are blocked" (one sentence, no standup's blocker, and "@ada" made it ada's)."""
    slack = start()
    rfc = ts(0)
    message(slack, "CGEN", "U1", "RFC-7: move the job queue from Redis lists to SQS. Decision "
            "needed by Friday.", rfc)
    message(slack, "CGEN", "U2", ":+1: makes the retries our problem less", ts(5),
            thread_ts=rfc)
    message(slack, "CGEN", "UCAROL", "-1 for now, <@U1> we'd lose the local dev story", ts(6),
            thread_ts=rfc)
    message(slack, "CGEN", "U0BOB",
            "Y: on-call, T: SQS spike, B: waiting on <@UADA> for the AWS sandbox", ts(60))
    app_mention(slack, "U2", "what is bob blocked on?", ts(61), "EvB0")
    message(slack, "CGEN", "UADA", "<@U0BOB> the AWS sandbox is ready, creds in the vault",
            ts(90))
    for n, question in enumerate(("who supported RFC-7?", "who objected to RFC-7?",
                                  "what is bob blocked on?")):
        app_mention(slack, "U2", question, ts(120 + n), f"EvQ{n}")
    blocked, supported, objected, unblocked = (a["text"] for a in answers(api))
    assert blocked.startswith("Blocked now:\n- Bob: Blockers: waiting on @ada for the AWS "
                              "sandbox"), blocked
    assert supported.startswith("sam: :+1: makes the retries our problem less (on maya's "
                                "\"RFC-7: move the job queue"), supported
    assert objected.startswith("Caz: -1 for now, @maya we'd lose the local dev story"), objected
    assert "<@" not in objected and "<!" not in objected, objected
    assert unblocked.startswith("bob is not blocked now.\nUnblocked:\n- Bob: Blockers: waiting "
                                "on @ada for the AWS sandbox"), unblocked
    assert "unblocked: \"ada: @Bob the AWS sandbox is ready" in unblocked, unblocked


def test_personal_numbers_a_passphrase_and_a_self_correction_over_slack(start, api, tmp_path):
    """5 Dec (fourteenth session), over the real Bolt app: a payroll form's SSN, a company card
    pasted for an invoice, and "pw for the shared 1password vault: <four words>" were stored and
    answered back ("what is eve's SSN?" quoted it); and "actually make that $14/seat", said in
    its own batch the morning after the same person's "$15/seat" in the channel (the next
    day's session), was no correction of it (a batch's first message was read beside the one
    before only when it was short, and only in its own day)."""
    slack = start()
    ssn, card, phrase = "219-09-9999", "4111 1111 1111 1111", "maple tiger orbit violet"
    message(slack, "CGEN", "U1", f"my SSN is {ssn} for the payroll form", ts(0))
    message(slack, "CGEN", "U1", f"use the corporate card {card} for the AWS invoice", ts(1))
    message(slack, "CGEN", "U2", f"pw for the shared 1password vault: {phrase}", ts(2))
    message(slack, "CGEN", "UCAROL", "pricing page: Team plan goes from $12 to $15/seat on "
            "Jan 1", ts(10))
    message(slack, "CGEN", "U1", "lunch order is in", ts(20))
    message(slack, "CGEN", "UCAROL", "actually make that $14/seat, finance pushed back",
            ts(10 + 20 * 60))
    for n, question in enumerate(("what is maya's SSN?", "which card do we use for the AWS "
                                  "invoice?", "what's the password for the 1password vault?",
                                  "how much is the Team plan going to be?")):
        app_mention(slack, "U0BOB", question, ts(2000 + n), f"EvS{n}")
    said = [a["text"] for a in answers(api)]
    text = " ".join(said)
    stored = b"".join(p.read_bytes() for p in tmp_path.glob("s.sqlite3*"))
    for secret in (ssn, card, card.replace(" ", ""), phrase):
        assert secret not in text and secret.encode() not in stored, secret
    assert "[REDACTED:ssn]" in said[0] and "[REDACTED:card-number]" in said[1], said[:2]
    # (as "Latest:" since 5 Dec's eighteenth session: the correction names the Team plan asked)
    assert said[3].removeprefix("Latest: ").startswith(
        "Correction: actually make that $14/seat"), said[3]


def test_bank_details_and_a_passport_number_over_slack(start, api, tmp_path):
    """5 Dec (fifteenth session), over the real Bolt app: a refund's bank account number beside
    its routing number, a contractor's IBAN and a passport's number for a travel form were
    stored and answered back ("what's the account number for the refund?" quoted it). A
    customer's account number with no bank word is no secret and is still answered."""
    slack = start()
    account, iban, passport = "40718823615", "DE89 3704 0044 0532 0130 00", "533380006"
    message(slack, "CGEN", "U1", f"bank details for the refund: acct {account}, routing "
            "011000015", ts(0))
    message(slack, "CGEN", "U2", f"IBAN {iban} for the contractor invoice", ts(1))
    message(slack, "CGEN", "UCAROL", f"my passport no. is {passport}, for the offsite travel "
            "form", ts(2))
    message(slack, "CGEN", "U1", "Acme's account 48213 moved to the Pro plan", ts(3))
    for n, question in enumerate(("what's the account number for the refund?",
                                  "what's the IBAN for the contractor invoice?",
                                  "what is Caz's passport number?",
                                  "which account moved to the Pro plan?")):
        app_mention(slack, "U0BOB", question, ts(100 + n), f"EvB{n}")
    said = [a["text"] for a in answers(api)]
    text = " ".join(said)
    stored = b"".join(p.read_bytes() for p in tmp_path.glob("s.sqlite3*"))
    for secret in (account, iban, iban.replace(" ", ""), passport):
        assert secret not in text and secret.encode() not in stored, secret
    assert "[REDACTED:bank-account]" in said[0] and "[REDACTED:iban]" in said[1], said[:2]
    assert "[REDACTED:id-number]" in said[2] and "48213" in said[3], said[2:]


def test_a_deprecation_decided_in_an_rfc_thread_over_slack(start, api):
    """5 Dec (fifteenth session), over the real Bolt app: "ok, 3.9 dropped in 6.0 (March), 5.x
    keeps it", in the RFC's thread after ada's "can we wait until March?", named no Python and
    its month in brackets was no date: "when are we dropping Python 3.9?" was answered "No date
    was given" with the RFC. A channel where the thread is not sees none of it."""
    slack = start()
    root = ts(0)
    message(slack, "CGEN", "U2", "RFC-32: drop Python 3.9 support. Last release with 3.9 is 5.8",
            root)
    message(slack, "CGEN", "UADA", "we have two enterprise customers pinned to 3.9, can we wait "
            "until March?", ts(20), thread_ts=root)
    message(slack, "CGEN", "U2", "ok, 3.9 dropped in 6.0 (March), 5.x keeps it", ts(60),
            thread_ts=root)
    app_mention(slack, "U1", "when are we dropping Python 3.9?", ts(120), "EvRfc1")
    text = answers(api)[-1]["text"]
    assert text.startswith("March 2027: ok, 3.9 dropped in 6.0 (March)"), text
    event(slack, {"type": "app_mention", "channel": "CDEV", "user": "U1",
                  "text": f"<@{BOT_USER}> when are we dropping Python 3.9?", "ts": ts(121),
                  "team": TEAM}, event_id="EvRfc2")
    [dev] = [p for p in api.called("chat.postMessage") if p["channel"] == "CDEV"]
    assert "3.9" not in dev["text"], dev["text"]


def test_what_we_decided_about_the_rate_limit_last_tuesday_over_slack(start, api):
    """The question Lurker is for, over the real Bolt app (5 Dec, fifteenth session): a rate
    limit discussed in #general on a Monday, ben's proposal and ana's "agreed, free goes to
    120/min from next Monday, pro stays 600", no thread. "what did we decide about the rate
    limit last Tuesday?" and "what's the free tier rate limit?" were answered with the opener's
    "free tier 60/min is too low", and "when does the new free limit take effect?" was
    declined."""
    slack = start()  # ts(0) is Monday 16 November 2026, 09:00 UTC
    message(slack, "CGEN", "U1", "rate limit discussion: free tier 60/min is too low, support "
            "tickets doubled", ts(24 * 60))
    message(slack, "CGEN", "U2", "proposal: free 120/min, pro 600/min, enterprise custom",
            ts(24 * 60 + 10))
    message(slack, "CGEN", "U1", "agreed, free goes to 120/min from next Monday, pro stays 600",
            ts(24 * 60 + 30))
    for n, question in enumerate(("what did we decide about the rate limit last Tuesday?",
                                  "what's the free tier rate limit?",
                                  "when does the new free limit take effect?")):
        app_mention(slack, "U0BOB", question, ts(7 * 24 * 60 + n), f"EvRl{n}")
    decided, free, effect = [a["text"] for a in answers(api)]
    assert decided.startswith("Decision: agreed, free goes to 120/min"), decided
    assert free.startswith("Decision: agreed, free goes to 120/min"), free
    assert effect.startswith("23 November 2026: Decision: agreed"), effect


def test_a_forgotten_thread_starter_leaves_no_word_in_its_replies_over_slack(start, api,
                                                                           tmp_path):
    """5 Dec (fifteenth session), over the real Bolt app: a reply carries its thread's first
    sentence among what it answers. An admin forgets "Bob is leaving in January, keep it quiet"
    (its thread has sam's reply); asked again six ways it is not answered, not even by the
    reply, and no memory keeps its words among the questions it answers."""
    slack = start()
    root = ts(0)
    message(slack, "CGEN", "U1", "Bob is leaving in January, keep it quiet until the all-hands",
            root)
    message(slack, "CGEN", "U2", "ok, I'll start planning the billing handover with finance",
            ts(5), thread_ts=root)
    app_mention(slack, "UADA", "forget Bob leaving", ts(10), "EvFB1")
    question = answers(api)[-1]
    actions = [b for b in question["blocks"] if b["type"] == "actions"][0]["elements"]
    click(slack, "UADA", {**question, "ts": "1800000003.000100"}, actions[0]["value"])
    assert "Forgotten (1)" in api.called("chat.update")[-1]["text"]
    asked = ("is Bob leaving?", "who is leaving in January?", "what's happening with Bob?",
             "what should we keep quiet?", "what's the news about Bob?",
             "what is the billing handover for?")
    for n, q in enumerate(asked):
        app_mention(slack, "U2", q, ts(20 + n), f"EvFB{n + 2}")
    said = [a["text"] for a in answers(api)[-len(asked):]]
    assert not any("leaving" in s or "quiet" in s for s in said), said
    profile = slack.bot.service.profile("slack:T1:CGEN")
    assert not any("leaving" in q for m in profile.list() for q in m.questions)


def test_a_kubeconfig_key_and_an_otp_and_a_verdict_in_a_thread_over_slack(start, api, tmp_path):
    """5 Dec (sixteenth session), over the real Bolt app: a kubeconfig's client-key-data (a
    private key base64-encoded, its first line pasted) and "the OTP they texted me is 482913"
    were stored and answered back; "reviewed, two nits, otherwise good" under "pricing page copy
    is ready for review" was no answer to "is the pricing page copy reviewed?" (it led with the
    request)."""
    slack = start()
    key = "LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQpNSUlFb3dJQkFBS0NBUUVBN3Y="
    message(slack, "CGEN", "U1", f"staging kubeconfig: client-key-data: {key}", ts(0))
    message(slack, "CGEN", "U2", "the OTP they texted me is 482913, can someone log in quick",
            ts(1))
    message(slack, "CGEN", "U1", "pricing page copy is ready for review, link in the doc", ts(2))
    message(slack, "CGEN", "UCAROL", "reviewed, two nits, otherwise good", ts(3),
            thread_ts=ts(2))
    for n, question in enumerate(("what's in the staging kubeconfig?", "what was the OTP?",
                                  "is the pricing page copy reviewed?")):
        app_mention(slack, "U0BOB", question, ts(100 + n), f"EvK{n}")
    said = [a["text"] for a in answers(api)]
    stored = b"".join(p.read_bytes() for p in tmp_path.glob("s.sqlite3*"))
    for secret in (key, key[:40], "482913"):
        assert secret not in " ".join(said) and secret.encode() not in stored, secret
    assert "[REDACTED:private-key]" in said[0] and "[REDACTED:pin]" in said[1], said[:2]
    assert said[2].startswith("Latest: reviewed, two nits, otherwise good"), said[2]


def test_a_pass_given_away_and_an_onsite_day_over_slack(start, api):
    """5 Dec (seventeenth session), over the real Bolt app, each message its own batch: "is sam
    going to KubeCon?" was answered with the list of passes, though "sam can't make it, giving
    his pass to bob" came two days later; "onsite Thursday 2pm" after "passed the phone screen"
    (said on a Wednesday) was the Thursday gone. A retried mention is answered once, and
    another channel's word of the booth does not leak into #general's answer."""
    slack = start()  # ts(0) is Monday 16 November 2026, 09:00 UTC
    day = 24 * 60
    message(slack, "CGEN", "U1", "*KubeCon EU* is March 23-26 in Amsterdam, we have 3 passes: "
            "me, sam, carol", ts(0))
    message(slack, "COTHER", "U1", "the KubeCon booth is cancelled, budget goes to travel",
            ts(5))
    message(slack, "CGEN", "U1", "sam can't make it, giving his pass to bob", ts(2 * day))
    message(slack, "CGEN", "U2", "Priya passed the phone screen, onsite Thursday 2pm, panel "
            "is omar and me", ts(2 * day + 10))
    asked = ("is sam going to KubeCon?", "when was Priya's onsite?",
             "are we having a booth at KubeCon?")
    for n, question in enumerate(asked):
        app_mention(slack, "U0BOB", question, ts(7 * day + n), f"EvPs{n}")
    app_mention(slack, "U0BOB", asked[0], ts(7 * day), "EvPs0", retry=1)
    said = [a["text"] for a in answers(api)]
    assert len(said) == len(asked), said
    assert said[0].startswith("Latest: sam can't make it, giving his pass to bob"), said[0]
    assert said[1].startswith("19 November 2026: Priya passed the phone screen"), said[1]
    assert "booth" not in said[2] and "travel" not in said[2], said[2]


def test_a_help_threads_confirmed_fix_over_slack(start, api):
    """5 Dec (seventeenth session), over the real Bolt app: in a thread, sam's suggestion was
    refuted by maya ("nope, still hangs") and carol's fix confirmed ("that was it, thanks!"),
    each its own event; "how do I fix the docker compose hang?" was answered with the refuted
    suggestion. A retried mention is answered once."""
    slack = start()
    root = ts(0)
    message(slack, "CGEN", "U1", "anyone know why `docker compose up` hangs on \"waiting for "
            "db\" locally?", root)
    message(slack, "CGEN", "U2", "try `docker compose down -v`, stale volume maybe", ts(5),
            thread_ts=root)
    message(slack, "CGEN", "U0BOB", "lunch is here, kitchen on 3", ts(7))
    message(slack, "CGEN", "U1", "nope, still hangs", ts(10), thread_ts=root)
    message(slack, "CGEN", "UCAROL", "the healthcheck uses pg_isready with the wrong port since "
            "#4410, set DB_PORT=5432 in .env", ts(20), thread_ts=root)
    message(slack, "CGEN", "U1", "that was it, thanks!", ts(30), thread_ts=root)
    app_mention(slack, "U0BOB", "how do I fix the docker compose hang?", ts(60), "EvDc1")
    app_mention(slack, "U0BOB", "how do I fix the docker compose hang?", ts(60), "EvDc1", retry=1)
    app_mention(slack, "U0BOB", "did docker compose down -v fix it?", ts(61), "EvDc2")
    said = [a["text"] for a in answers(api)]
    assert len(said) == 2, said
    assert said[0].startswith("Fix confirmed by maya: the healthcheck uses pg_isready"), said[0]
    assert said[1].startswith("Did not work for maya (\"nope, still hangs\")"), said[1]


def test_a_deadline_extended_and_a_tickets_cause_over_slack(start, api):
    """6 Dec (nineteenth session), from outside through the Bolt app: a legal channel's
    questionnaire deadline extended under `<!here>`, and a support ticket whose cause is the
    second sentence of "Looking at ESC-311. Looks like …" (naming no Acme); #dev has an Acme
    export ticket of its own with another cause. The extension is the answer, nothing pings,
    and #dev's cause stays in #dev."""
    slack = start()
    message(slack, "CGEN", "U1", "Vendor security questionnaire for Initech is due *Friday "
            "Nov 20*. Need :eyes: on section 4 from <@U07SEC>", ts(0))
    message(slack, "CGEN", "U1", "ESC-311: Acme can't export invoices to CSV since Friday's "
            "release. 40 users affected. Priority P1.", ts(10))
    message(slack, "CDEV", "U2", "ESC-400: Acme dashboard export is slow. Looks like the CDN "
            "is missing the cache.", ts(12))
    message(slack, "CGEN", "U2", "Looking at ESC-311. Looks like the export worker OOMs on "
            "accounts with >10k invoices.", ts(40))
    message(slack, "CGEN", "U1", "Heads up <!here>: Initech questionnaire deadline extended to "
            "Nov 27.", ts(2 * 1440))
    app_mention(slack, "UADA", "when is the Initech questionnaire due?", ts(3 * 1440), "EvDue")
    due = answers(api)[-1]["text"]
    assert due.startswith("27 November 2026:"), due
    assert "<!here>" not in due and "<@U07SEC>" not in due, due
    app_mention(slack, "UADA", "what caused the Acme export issue?", ts(3 * 1440 + 1), "EvWhy")
    why = answers(api)[-1]["text"]
    assert why.startswith("Looks like the export worker OOMs"), why
    assert "CDN" not in why, why


def test_a_no_go_and_a_listing_asked_over_slack(start, api):
    """6 Dec (twentieth session), from outside through the Bolt app: a go/no-go posted with
    `<!channel>` whose reason is the sentence between the verdict and the slip ("why was it a
    no-go?" gave both but the reason), and "Listing goes live Thursday :tada:" after "Shopify
    approved the app!" ("when does the Shopify listing go live?" was declined: the sentence
    names no Shopify). #dev's own no-go has another reason, which must stay there; a
    mention retried by Slack is answered once."""
    slack = start()
    message(slack, "CGEN", "U1", "Go/no-go: *NO-GO*. QA-772 lets two 50% coupons stack to 100%. "
            "Release slips to Monday. cc <!channel>", ts(0))
    message(slack, "CDEV", "U3", "Go/no-go for the desktop app: NO-GO. Crash rate on Windows 10 "
            "is 2.1%.", ts(5))
    message(slack, "CGEN", "U2", "Shopify approved the app! Listing goes live Thursday :tada:",
            ts(60))
    app_mention(slack, "UADA", "why was it a no-go?", ts(120), "EvNoGo")
    app_mention(slack, "UADA", "why was it a no-go?", ts(120), "EvNoGo", retry=1)
    said = answers(api)
    assert len(said) == 1, said
    why = said[-1]["text"]
    assert why.startswith("QA-772 lets two 50% coupons stack to 100%."), why
    assert "Crash rate" not in why and "<!channel>" not in why, why
    app_mention(slack, "UADA", "when does the Shopify listing go live?", ts(121), "EvList")
    listing = answers(api)[-1]["text"]
    assert listing.startswith("19 November 2026: Listing goes live Thursday"), listing


def test_a_short_password_after_with_and_a_cards_code_over_slack_are_never_stored(start, api,
                                                                                 tmp_path):
    """6 Dec (twentieth session), from outside: "ssh root@10.0.0.5 with password hunter2 …"
    (bold and all) and a card pasted with its code ("… exp 12/28 cvv 847") were stored, and the
    password and the code were answered back. Asked for them, the bot posts neither, the store's
    file holds none of their bytes, and "with pass rate 95%" is kept as written."""
    slack = start()
    lines = ["ssh root@10.0.0.5 with password *hunter7* if the bastion is down",
             "corporate card for the offsite: 4111 1111 1111 1111 exp 12/28 cvv 847",
             "ran the suite with pass rate 95%, two flaky"]
    for i, line in enumerate(lines):
        message(slack, "CGEN", "U1", line, ts(i))
    app_mention(slack, "U2", "what's the root password for the bastion?", ts(60), "EvPwT1")
    app_mention(slack, "U2", "what's the cvv of the corporate card?", ts(61), "EvCvvT1")
    app_mention(slack, "U2", "what was the pass rate?", ts(62), "EvRateT1")
    said = " ".join(a["text"] for a in answers(api))
    assert "[REDACTED:password]" in said and "[REDACTED:card-code]" in said, said
    assert "with pass rate 95%" in said, said
    stored = b"".join(p.read_bytes() for p in tmp_path.glob("s.sqlite3*"))
    assert "hunter7" not in said and b"hunter7" not in stored, said
    assert "cvv 847" not in said and b"cvv 847" not in stored, said


def test_a_contract_signed_and_a_disk_reading_asked_over_slack(start, api):
    """6 Dec (twenty-first session), from outside through the Bolt app: "<!channel> MSA signed
    by both sides! Effective Nov 13." (said 16 Nov) after Hooli's redlines: "is the Hooli
    MSA signed?" was answered with the redlines (the signing names no Hooli), and its Nov 13
    was next year's; "how full is the kafka-3 disk?" gave the page's 92% without its message's
    "now 58%". #dev's own MSA (Globex's, unsigned) stays there; a retried mention is answered
    once, and no answer pings the channel."""
    slack = start()
    message(slack, "CGEN", "U1", "MSA with Hooli: their redlines came back, they want uncapped "
            "liability for data breaches.", ts(0))
    message(slack, "CDEV", "U3", "MSA with Globex: sent our paper, waiting on them.", ts(5))
    message(slack, "CGEN", "U1", "<!channel> MSA signed by both sides! Effective Nov 13.", ts(60))
    message(slack, "CGEN", "U2", "Paged for disk 92% on kafka-3. Expanded the volume to 2TB, now "
            "58%.", ts(70))
    app_mention(slack, "UADA", "is the Hooli MSA signed?", ts(120), "EvMsa")
    app_mention(slack, "UADA", "is the Hooli MSA signed?", ts(120), "EvMsa", retry=1)
    said = answers(api)
    assert len(said) == 1, said
    signed = said[-1]["text"]
    # (the channel-wide mention quoted as plain text, never `<!channel>`)
    assert signed.startswith("@channel MSA signed by both sides! Effective Nov 13 [2026-11-13]."), \
        signed
    assert "<!channel>" not in signed and "Globex" not in signed, signed
    app_mention(slack, "UADA", "how full is the kafka-3 disk?", ts(121), "EvDisk")
    disk = answers(api)[-1]["text"]
    assert "now 58%" in disk, disk


def test_a_priority_moved_and_a_fix_told_by_mention_asked_over_slack(start, api):
    """6 Dec (twenty-second session), from outside through the Bolt app: "what priority is
    BUG-301?" was answered with the P1 it was triaged at, not the newer P2 (and a later "fixed
    in 2.14.0" led); "how do I fix ImportError cannot import name Registry?" with the report,
    not the "<@UCAROL> … update your import." told to whoever hit it. #dev's P0 for the same
    ticket stays there; a retried mention is answered once."""
    slack = start()
    message(slack, "CGEN", "U1", "Triage: BUG-301 (export times out for >10k rows) is P1, "
            "assigning to <@U2>.", ts(0))
    message(slack, "CDEV", "U1", "BUG-301 is P0 on the dev board.", ts(30))
    message(slack, "CGEN", "U1", "BUG-301 downgraded to P2 since the workaround is documented.",
            ts(60))
    message(slack, "CGEN", "U2", "#7781 merged, BUG-301 fixed in 2.14.0", ts(90))
    message(slack, "CGEN", "UCAROL", "after upgrading to 0.9 my plugin loader throws "
            "ImportError: cannot import name 'Registry'", ts(100))
    message(slack, "CGEN", "U2", "<@UCAROL> Registry moved to plugins.registry in 0.9, update "
            "your import.", ts(105))
    app_mention(slack, "UADA", "what priority is BUG-301?", ts(120), "EvPri")
    app_mention(slack, "UADA", "what priority is BUG-301?", ts(120), "EvPri", retry=1)
    said = answers(api)
    assert len(said) == 1, said
    priority = said[-1]["text"]
    assert priority.startswith("BUG-301 downgraded to P2"), priority
    assert "P0" not in priority, priority
    app_mention(slack, "UADA", "how do I fix ImportError cannot import name Registry?", ts(121),
                "EvFix")
    fix = answers(api)[-1]["text"]
    assert "Registry moved to plugins.registry in 0.9, update your import." in fix.split(" (")[0], \
        fix
    assert "<@" not in fix, fix


def test_a_move_announced_to_the_channel_is_the_latest_word_over_slack(start, api):
    """6 Dec (twenty-second session), from outside through the Bolt app: "<!here> prod cutover
    for export_v2 postponed to Nov 25, Snowflake quota issue" was no latest word of "Wednesday
    is the prod cutover for export_v2" ("here" was read as a word of what moved), and "when is
    the export_v2 prod cutover?" was answered with the Wednesday. The answer pings no one."""
    slack = start()
    message(slack, "CGEN", "U1", "Wednesday is the prod cutover for export_v2", ts(0))
    message(slack, "CGEN", "U2", "<!here> prod cutover for export_v2 postponed to Nov 25, "
            "Snowflake quota issue", ts(60))
    app_mention(slack, "UADA", "when is the export_v2 prod cutover?", ts(120), "EvCut")
    cutover = answers(api)[-1]["text"]
    assert cutover.startswith("25 November 2026: @here prod cutover for export_v2 postponed"), \
        cutover
    assert "<!here>" not in cutover, cutover


def test_an_escalations_workaround_and_a_releases_pause_asked_over_slack(start, api):
    """6 Dec (twenty-third session), from outside through the Bolt app: "what's the workaround
    for the Safari SSO loop?" was answered with the report alone ("ESC-521 workaround: use
    Chrome …" names its ticket, one word of the question); "what's the status of the iOS
    release?" said the release was going out, the later "Pausing the phased rollout." unread.
    #qa's pause of another rollout stays there; a retried mention is answered once."""
    slack = start()
    message(slack, "CGEN", "U1", "ESC-521: Umbrella reports SSO login loop on Safari.", ts(0))
    message(slack, "CGEN", "U2", "ESC-521 workaround: use Chrome or disable *Prevent "
            "cross-site tracking*. Real fix next sprint.", ts(30))
    message(slack, "CGEN", "U2", "iOS 4.12.1 approved! Releasing to 10% phased rollout.", ts(60))
    message(slack, "CQA", "U3", "Pausing the Android phased rollout, QA found a crash.", ts(70))
    message(slack, "CGEN", "U1", "Crash rate on 4.12.1 is 0.4%, up from 0.1%. Pausing the phased "
            "rollout.", ts(90))
    app_mention(slack, "UADA", "what's the workaround for the Safari SSO loop?", ts(120), "EvWa")
    app_mention(slack, "UADA", "what's the workaround for the Safari SSO loop?", ts(120), "EvWa",
                retry=1)
    said = answers(api)
    assert len(said) == 1, said
    workaround = said[-1]["text"]
    assert workaround.startswith("ESC-521 workaround: use Chrome"), workaround
    app_mention(slack, "UADA", "what's the status of the iOS release?", ts(121), "EvSt")
    status = answers(api)[-1]["text"]
    assert "Pausing the phased rollout." in status, status
    assert "Android" not in status, status


def test_a_doc_handed_over_while_its_owner_is_out_asked_over_slack(start, api):
    """6 Dec (twenty-third session), from outside through the Bolt app: "I'm out sick till
    Monday, <@U2> can you take the billing v2 doc?" was one question, kept as nothing ("when is
    maya back?" said no date; "who is out sick?" answered with sam's yes), and "who owns the
    billing v2 doc?" named maya, not sam who took it. #random's owner list stays there."""
    slack = start()
    message(slack, "CGEN", "U1", "Owners: saved searches <@U0BOB>, billing v2 doc <@U1>.", ts(0))
    message(slack, "CRAND", "U0BOB", "Owners: billing v2 doc <@UCAROL>.", ts(10))
    message(slack, "CGEN", "U1", "I'm out sick till Monday, <@U2> can you take the billing v2 "
            "doc?", ts(60))
    message(slack, "CGEN", "U2", "yes, I'll take the billing v2 doc.", ts(90))
    for n, question in enumerate(("who owns the billing v2 doc?", "when is maya back?")):
        app_mention(slack, "UADA", question, ts(120 + n), f"EvOwn{n}")
    owner, back = [a["text"] for a in answers(api)[-2:]]
    assert owner.startswith("yes, sam will take the billing v2 doc."), owner
    assert "carol" not in owner and "<@" not in owner, owner
    assert "maya is out sick till Monday" in back.split(" (")[0], back


def test_passwords_named_in_other_languages_over_slack_are_never_stored_or_posted(start, api,
                                                                                  tmp_path):
    """6 Dec (twenty-fourth session), from outside through the Bolt app: a team writing in
    Spanish, German, French, Portuguese and Italian pastes passwords after their own word for
    one; each was stored and answered back. Now none is posted, the store's file holds none of
    their bytes, and the line that only speaks of a password's length is kept."""
    slack = start()
    secrets = ["Verano2026!", "Sommer#2026xy", "Hiver_2026!zz", "Primavera@2026", "Autunno2026$"]
    lines = ["la contraseña del wifi de invitados es Verano2026!",
             "Passwort für den Staging-Server: Sommer#2026xy",
             "le mot de passe admin est Hiver_2026!zz",
             "a senha do banco é Primavera@2026",
             "la password del router è Autunno2026$",
             "la contraseña es demasiado corta, mínimo 12 caracteres"]
    for i, line in enumerate(lines):
        message(slack, "CGEN", "U1", line, ts(i))
    for n, question in enumerate(("cuál es la contraseña del wifi?", "what's the staging password?",
                                  "what's the router password?", "how long must a contraseña "
                                  "be?")):
        app_mention(slack, "U2", question, ts(60 + n), f"EvPwX{n}")
    said = " ".join(a["text"] for a in answers(api))
    assert "[REDACTED:" in said and "mínimo 12 caracteres" in said, said
    stored = b"".join(p.read_bytes() for p in tmp_path.glob("s.sqlite3*"))
    for secret in secrets:
        assert secret not in said and secret.encode() not in stored, secret


def test_what_a_notice_is_for_and_a_day_gone_keep_their_year_over_slack(start, api):
    """6 Dec (twenty-fifth session), from outside through the Bolt app: "sent the maintenance
    notice to #analytics for Nov 20 ✅", said Monday 16 Nov, was stored as 20 November 2025 (the
    past "sent" took the date back a year), and "Monday's deploy is out." said the next day as
    the Monday to come; each was answered so in the thread."""
    slack = start()
    message(slack, "CGEN", "U1", "DB maintenance window is Friday Nov 20, 22:00 UTC", ts(0))
    message(slack, "CGEN", "U2", "sent the maintenance notice to <#C42|analytics> for Nov 20 "
            ":white_check_mark:", ts(30))
    message(slack, "CGEN", "U3", "Monday's deploy is out. <!here> ping me if checkout acts up",
            ts(24 * 60))
    app_mention(slack, "U4", "has analytics been told about the maintenance?", ts(25 * 60),
                "EvNotice1")
    app_mention(slack, "U4", "when did the deploy go out?", ts(25 * 60 + 1), "EvDeploy1")
    notice, deploy = (a["text"] for a in answers(api))
    assert "2025" not in notice and "Nov 20" in notice, notice
    assert "2026-11-23" not in deploy and "23 November" not in deploy, deploy
    assert "16 November 2026" in deploy, deploy
    assert "<!here>" not in notice + deploy, (notice, deploy)


def test_a_delivery_delayed_and_a_release_approved_asked_over_slack(start, api):
    """6 Dec (twenty-sixth session), from outside through the Bolt app: "laptops delayed,
    @vendor says next Tuesday now" moved nothing (no "to" before its day), so "when do the
    design laptops arrive?" gave the Thursday first said; and "4.12 approved! releasing to 10%
    phased rollout Monday", said on a Friday, was the Monday gone ("phased" read as a deed),
    and "when was 4.12 approved?" was answered with that Monday."""
    slack = start()
    message(slack, "CGEN", "U1", "new laptops for the design team arrive Thursday, 6 MacBook "
            "Pro M4", ts(0))
    message(slack, "CGEN", "U1", "laptops delayed, <@U9> at Apple says next Tuesday now "
            "<!channel>", ts(2 * 24 * 60))
    message(slack, "CGEN", "U2", "4.12 approved! releasing to 10% phased rollout Monday",
            ts(4 * 24 * 60))
    app_mention(slack, "U4", "when do the design laptops arrive?", ts(4 * 24 * 60 + 5),
                "EvLaptops1")
    app_mention(slack, "U4", "when was 4.12 approved?", ts(4 * 24 * 60 + 6), "EvApproved1")
    laptops, approved = (a["text"] for a in answers(api))
    assert laptops.startswith("24 November 2026: laptops delayed"), laptops
    assert approved.startswith("20 November 2026, when it was said:"), approved
    assert "2026-11-16" not in approved and "23 November" not in approved, approved
    assert "<!channel>" not in laptops and "<@U9>" not in laptops, laptops


def test_a_numbered_type_and_a_plan_back_on_asked_over_slack(start, api):
    """6 Dec (twenty-sixth session), from outside through the Bolt app: "legal flagged the 'SOC
    2 certified' claim, we're only Type I" was stored and answered as "… only Type <speaker>",
    and "Microsoft approved the Teams app :tada: email back on for Tuesday", said on a Friday,
    as the Tuesday gone."""
    slack = start()
    message(slack, "CGEN", "U1", "legal flagged the \"SOC 2 certified\" claim, we're only Type I. "
            "changing it to \"SOC 2 Type I\"", ts(0))
    message(slack, "CGEN", "U2", "launch email on hold until the Teams app review clears",
            ts(24 * 60))
    message(slack, "CGEN", "U2", "Microsoft approved the Teams app :tada: email back on for "
            "Tuesday <!here>", ts(4 * 24 * 60))
    app_mention(slack, "U4", "what did legal flag?", ts(4 * 24 * 60 + 5), "EvLegal1")
    app_mention(slack, "U4", "is the launch email on hold?", ts(4 * 24 * 60 + 6), "EvHold1")
    legal, hold = (a["text"] for a in answers(api))
    assert "we're only Type I." in legal and "Type U1" not in legal, legal
    assert "Type maya" not in legal.split("*Sources*")[0], legal
    assert hold.startswith("Latest: Microsoft approved the Teams app"), hold
    assert "[2026-11-24]" in hold.split("Before that")[0], hold
    assert "<!here>" not in hold, hold


def test_last_tuesday_asked_over_slack_is_the_tuesday_that_decided_it(start, api):
    """7 Dec (twenty-seventh session), from outside through the Bolt app: "what did we decide
    about the rate limit last Tuesday?", asked on Wednesday 18 November, read "last Tuesday" as
    the day before and answered with its "new limits are live …" (no decision); the decision of
    Tuesday 10 November is what the answer gives now, saying which day it read, with no
    channel-wide ping quoted back and nothing of #random's own rate-limit decision."""
    slack = start()
    week = 7 * 24 * 60
    message(slack, "CGEN", "U1", "<!here> decided: rate limit for the public API goes from 100 "
            "to 300 req/min per key", ts(-week + 24 * 60))
    message(slack, "CRAND", "U0BOB", "decided: rate limit for the bowling league signup form is "
            "5 per hour", ts(-week + 24 * 60 + 5))
    message(slack, "CGEN", "U2", "new limits are live for everyone except enterprise, "
            "<@U1> enterprise tomorrow", ts(24 * 60))
    app_mention(slack, "UADA", "what did we decide about the rate limit last Tuesday?",
                ts(2 * 24 * 60), "EvLastTue")
    answer = answers(api)[-1]["text"]
    assert "decided: rate limit for the public API goes from 100 to 300" in \
        answer.split(" (")[0], answer
    assert "last Tuesday = 2026-11-10" in answer, answer
    assert "<!here>" not in answer and "bowling" not in answer, answer
