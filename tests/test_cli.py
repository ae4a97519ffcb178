"""The `lurker` CLI end to end in a subprocess, on the embedded store: stable --json keys, clear
one-line errors with exit code 2."""
from __future__ import annotations

import json
import re
import os
import socket
import subprocess
import sys

import pytest
from memory.synthesis import NO_ANSWER
from tests.forget_support import HOST, QUESTION, STATEMENT


@pytest.fixture
def lurker(tmp_path):
    env = {**os.environ, "LURKER_STORE": f"sqlite:///{tmp_path / 'cli.sqlite3'}"}
    env.pop("ANTHROPIC_API_KEY", None)

    def run(*args, expect=0, store=None):
        e = dict(env, LURKER_STORE=store) if store else env
        proc = subprocess.run([sys.executable, "-m", "memory.cli", *args], env=e,
                              capture_output=True, text=True, timeout=240)
        assert proc.returncode == expect, proc.stderr
        return proc
    return run


def write_jsonl(path, rows):
    path.write_text("\n".join(r if isinstance(r, str) else json.dumps(r) for r in rows) + "\n")
    return str(path)


def test_ingest_recall_list_forget_export_import(lurker, tmp_path):
    conv = write_jsonl(tmp_path / "c.jsonl", [
        {"role": "user", "author": "tomas", "content": "The rate limit is 300 requests per minute.",
         "ts": "2026-11-17T14:20:00Z"},
        {"role": "user", "author": "maya", "content": "We shipped the webhooks yesterday.",
         "ts": "2026-11-17T14:25:00Z"}])
    out = json.loads(lurker("ingest", conv, "--session", "s1", "--profile", "team", "--json").stdout)
    assert out == {"messages_new": 2, "messages_skipped": 0, "memories_created": 2,
                   "memories_superseded": 0}
    again = json.loads(lurker("ingest", conv, "--session", "s1", "--profile", "team",
                              "--json").stdout)
    assert again["messages_skipped"] == 2 and again["memories_created"] == 0

    rec = json.loads(lurker("recall", "what is the rate limit?", "--profile", "team", "--json",
                            "--now", "2026-11-18T09:00:00Z").stdout)
    assert set(rec) == {"answer", "memories", "messages", "computed"} and "300" in rec["answer"]
    assert {"id", "type", "content", "topic_key", "source_message_ids"} <= set(rec["memories"][0])

    listed = json.loads(lurker("list", "--profile", "team", "--json").stdout)["memories"]
    assert len(listed) == 2
    assert json.loads(lurker("list", "--profile", "other", "--json").stdout) == {"memories": []}
    victim = next(m for m in listed if m["type"] == "event")
    lurker("forget", victim["id"], "--reason", "wrong", "--profile", "team")
    assert len(json.loads(lurker("list", "--profile", "team", "--json").stdout)["memories"]) == 1
    assert len(json.loads(lurker("list", "--all", "--profile", "team", "--json").stdout)
               ["memories"]) == 2

    export = tmp_path / "team.jsonl"  # the audit export: everything, the forgotten text too
    lurker("export", "--profile", "team", "--out", str(export), "--audit")
    imported = json.loads(lurker("import", str(export), "--profile", "copy", "--json").stdout)
    assert imported == {"messages": 2, "memories": 2, "redacted": 0}
    ordinary = tmp_path / "ordinary.jsonl"  # without the message the forgotten memory came from
    lurker("export", "--profile", "team", "--out", str(ordinary))
    assert json.loads(lurker("import", str(ordinary), "--profile", "copy2", "--json").stdout) \
        == {"messages": 1, "memories": 2, "redacted": 0}


def test_recall_asker_answers_a_first_person_question_from_their_own_words(lurker, tmp_path):
    runbook = "The refund service deploy builds the image, then the canary, then promotes it. "
    rows = [{"role": "user", "author": "ravi", "content": f"Deploy report {i}: " + runbook * 8,
             "ts": f"2026-11-16T08:{i:02d}:00Z"} for i in range(10)]
    rows.append({"role": "user", "author": "maya", "ts": "2026-11-16T09:00:00Z",
                 "content": "I've never deployed the refund service on my own, can you help?"})
    lurker("ingest", write_jsonl(tmp_path / "d.jsonl", rows), "--session", "s1", "--profile", "ops")
    asked = ["recall", "have I ever deployed the refund service myself?", "--profile", "ops",
             "--json", "--now", "2026-11-18T09:00:00Z"]
    mine = json.loads(lurker(*asked, "--asker", "maya").stdout)
    assert mine["answer"].startswith("You said: \"I've never deployed the refund service")
    assert mine["messages"][0]["author"] == "maya"
    assert not json.loads(lurker(*asked).stdout)["answer"].startswith("You said")


def test_recall_addressee_answers_what_did_you_recommend_from_their_words(lurker, tmp_path):
    rows = [{"role": "assistant", "author": "review-bot", "ts": f"2026-11-16T07:0{i}:00Z",
             "content": f"Review {i}: the {part} handler reads the request body twice."}
            for i, part in enumerate(("login", "export"))]
    rows += [{"role": "user", "author": "maya", "ts": f"2026-11-16T08:{i:02d}:00Z",
              "content": f"My rate limiter keeps failing when the retries burst ({what}), how "
                         f"should I handle the flow of requests?"}
             for i, what in enumerate(("login", "export", "sync", "webhooks"))]
    rows.append({"role": "assistant", "author": "review-bot", "ts": "2026-11-16T09:30:00Z",
                 "content": "I recommend a token bucket: refill 10 tokens a second, allow a burst "
                            "of 20, back off with jitter."})
    lurker("ingest", write_jsonl(tmp_path / "d.jsonl", rows), "--session", "s1", "--profile", "ops")
    asked = ["recall", "What did you recommend for the flow of requests when my retries burst?",
             "--profile", "ops", "--json", "--now", "2026-11-18T09:00:00Z", "--asker", "maya"]
    put = json.loads(lurker(*asked, "--addressee", "review-bot").stdout)
    assert put["answer"].startswith("review-bot said: ") and "token bucket" in put["answer"]
    # without it, "my" makes it maya's question: her own words lead
    assert json.loads(lurker(*asked).stdout)["answer"].startswith("You said: \"My rate limiter")


def test_recall_of_a_named_day_answers_from_that_day(lurker, tmp_path):
    """What a user typing `lurker recall "what happened last Friday?"` on a Monday sees."""
    conv = write_jsonl(tmp_path / "week.jsonl", [
        {"role": "user", "author": "maya", "ts": "2026-11-17T09:00:00Z",
         "content": "The billing deploy went out last Friday, no incidents."},
        {"role": "user", "author": "tomas", "ts": "2026-11-20T16:00:00Z",
         "content": "We rolled back the search service today after the latency spike."},
        {"role": "user", "author": "sam", "ts": "2026-11-19T23:30:00-08:00",
         "content": "Just migrated the auth DB tonight, all green."}])
    lurker("ingest", conv, "--session", "week")
    out = json.loads(lurker("recall", "what happened last Friday?", "--now",
                            "2026-11-23T12:00:00Z", "--json").stdout)
    assert "rolled back the search service" in out["answer"]
    assert "billing deploy" not in out["answer"]
    # said at 23:30 on Thursday in Seattle (Friday in UTC): Thursday's, memory and message alike
    assert "migrated the auth DB" not in out["answer"]
    assert out["computed"][0]["value"] == "2026-11-20"
    out = json.loads(lurker("recall", "what happened on Thursday?", "--now",
                            "2026-11-23T12:00:00Z", "--json").stdout)
    assert "migrated the auth DB" in out["answer"]  # 23:30 in Seattle: Thursday there
    assert "(19 November 2026)" in out["answer"]  # said on Thursday, where it was said


def test_a_correction_is_what_recall_answers(lurker, tmp_path):
    """A team's week typed into `lurker ingest`, then asked from the shell: the corrected date
    and the raised limit are the answers, the stale ones are history (`list --all`), and the
    labelled rule is said only where it governs."""
    conv = write_jsonl(tmp_path / "team.jsonl", [
        {"role": "user", "author": "priya", "ts": "2026-11-02T09:05:00-08:00",
         "content": "Reminder: the payments API rate limit is 100 requests per minute per key."},
        {"role": "user", "author": "li", "ts": "2026-11-02T09:10:00-08:00",
         "content": "Standing rule: never deploy on Fridays after 3pm."},
        {"role": "user", "author": "priya", "ts": "2026-11-03T10:00:00-08:00",
         "content": "Update: we decided to raise the rate limit to 250 requests per minute, "
                    "starting Monday."},
        {"role": "user", "author": "li", "ts": "2026-11-04T14:00:00-08:00",
         "content": "The customer offsite is on December 3rd in Denver."},
        {"role": "user", "author": "li", "ts": "2026-11-09T09:30:00-08:00",
         "content": "Correction: the offsite moved to December 10th, still Denver."}])
    ingested = json.loads(lurker("ingest", conv, "--session", "week", "--json").stdout)
    assert ingested["memories_superseded"] == 2
    now = ("--now", "2026-11-16T18:00:00Z", "--json")
    answer = json.loads(lurker("recall", "when is the customer offsite?", *now).stdout)["answer"]
    assert answer.startswith("10 December 2026") and "December 3rd" not in answer, answer
    answer = json.loads(lurker("recall", "what is the payments API rate limit?",
                               *now).stdout)["answer"]
    assert answer.startswith("250 requests per minute — raised from 100"), answer
    assert "starting Monday [2026-11-09]" in answer  # said on Tuesday the 3rd: the Monday after
    assert "never deploy" not in answer
    history = lurker("list", "--all").stdout
    assert "(superseded)  The customer offsite is on December 3rd" in history


def test_what_changed_since_leads_what_recall_answers(lurker, tmp_path):
    """A handover, a migration, a cancelled meeting and a state ("slow for now") typed into
    `lurker ingest`: each question is answered with what changed first and what stood before
    it after; the state leaves the host it does not replace alone."""
    conv = write_jsonl(tmp_path / "ops.jsonl", [
        {"author": "maya", "ts": "2026-11-02T09:00:00Z",
         "content": "Priya owns the billing service for now."},
        {"author": "lee", "ts": "2026-11-03T10:00:00Z",
         "content": "The staging database is `db-stg-2.internal`"},
        {"author": "lee", "ts": "2026-11-05T10:00:00Z",
         "content": "The staging database is *slow* for now, db-stg-2 is at 90% disk."},
        {"author": "maya", "ts": "2026-11-12T10:00:00Z",
         "content": "Heads up: billing ownership moves to Sam starting Monday, Priya is going "
                    "on leave."},
        {"author": "lee", "ts": "2026-11-14T10:00:00Z",
         "content": "we migrated staging to db-stg-3.internal last night, db-stg-2 is gone"},
        {"author": "maya", "ts": "2026-11-16T10:00:00Z",
         "content": "The design review is on Thursday at 3pm."},
        {"author": "maya", "ts": "2026-11-17T10:00:00Z",
         "content": "Design review is cancelled this week."}])
    ingested = json.loads(lurker("ingest", conv, "--session", "ops", "--json").stdout)
    assert ingested["memories_superseded"] == 0  # nothing hidden on a guess
    now = ("--now", "2026-11-18T18:00:00Z", "--json")

    def ask(question):
        return json.loads(lurker("recall", question, *now).stdout)["answer"]
    answer = ask("who owns the billing service?")
    assert answer.startswith("Latest: Heads up: billing ownership moves to Sam"), answer
    assert "Before that: Priya owns the billing service" in answer
    answer = ask("what is the staging database host?")
    assert answer.startswith("Latest: we migrated staging to db-stg-3.internal"), answer
    assert "Before that: The staging database is `db-stg-2.internal`" in answer
    answer = ask("when is the design review?")
    assert answer.startswith("Latest: Design review is cancelled this week"), answer


def test_a_teams_week_asked_from_the_shell(lurker, tmp_path):
    """A week of a team's channel typed into `lurker ingest` and asked as people ask, on
    Thursday 26 Nov: a password holding "&" is not quoted back in part, "zoe" is Zoë, "what
    did priya say?" is answered with her words, "last Tuesday" (the 24th) shows what was said
    that day though it shares no word with the question, and "Tuesday 17 November" is one day."""
    conv = write_jsonl(tmp_path / "week.jsonl", [
        {"author": "maya", "ts": "2026-11-16T09:05:00Z",
         "content": "Morning! Proposal for the public API rate limit: bump it from 300 to 500 "
                    "requests/min per key. Thoughts?"},
        {"author": "tomas", "ts": "2026-11-16T09:12:00Z",
         "content": "500 feels high for the free tier, maybe 500 for paid and keep 300 for "
                    "free?"},
        {"author": "maya", "ts": "2026-11-17T14:30:00Z",
         "content": "ok decision: paid keys get 500/min, free tier stays at 300/min. Rolling "
                    "out Thursday."},
        {"author": "zoë", "ts": "2026-11-16T08:00:00Z",
         "content": "Zoë says: we should say yes to the search cluster resize."},
        {"author": "zoë", "ts": "2026-11-17T15:00:00Z",
         "content": "deploy freeze starts Friday 18:00 UTC until Monday, no merges to main"},
        {"author": "priya", "ts": "2026-11-18T11:00:00Z",
         "content": "staging creds for the load test: user=loadtest pass=Gr4nite&31x "
                    "host=stg-db-3"},
        {"author": "maya", "ts": "2026-11-24T09:00:00Z",
         "content": "Update: paid keys go to 600/min instead of 500, customers kept hitting the "
                    "cap."}])
    lurker("ingest", conv, "--session", "team")
    now = ("--now", "2026-11-26T10:00:00Z", "--json")
    # the decision, a reply citing Monday's question, was said on Tuesday
    [decision] = [m for m in json.loads(lurker("list", "--json").stdout)["memories"]
                  if m["content"].startswith("ok decision")]
    assert len(decision["source_message_ids"]) == 2, decision
    assert decision["event_time"].startswith("2026-11-17T14:30"), decision

    def ask(question):
        return json.loads(lurker("recall", question, *now).stdout)["answer"]
    exported = lurker("export").stdout
    assert "Gr4nite" not in exported and "&31x" not in exported, exported
    answer = ask("what's the staging password?")
    assert "&31x" not in answer and "[REDACTED:password]" in answer, answer
    answer = ask("what did zoe say?")  # what she said last, first
    assert answer.startswith("deploy freeze starts Friday"), answer
    assert "say yes to the search cluster resize" in answer.split("deploy freeze")[1], answer
    answer = ask("what did priya say?")
    assert answer.startswith("staging creds for the load test"), answer
    # (since 5 Dec's eighteenth session "600/min" says a rate limit by its unit: what was said
    # that day is about the question, no longer "Nothing from last Tuesday uses the question's
    # words; said then: …")
    answer = ask("what did we decide about the rate limit last Tuesday?")
    assert answer.startswith("Update: paid keys go to 600/min instead of 500"), answer
    answer = ask("what did we decide on Tuesday 17 November?")
    assert "paid keys get 500/min" in answer and "600/min" not in answer, answer


def test_an_ops_channels_fortnight_asked_from_the_shell(lurker, tmp_path):
    """An ops channel's fortnight through `lurker ingest`, asked on Thursday 26 Nov: the
    announcements "office closed Friday" (said Wednesday) and "standup cancelled on Thursday"
    (said Monday) are the days to come, "who owns …?" names who took it on, a pasted staging
    env answers "what's the staging database url?" without its password, and a freeze "from
    tomorrow until Monday" holds on Saturday."""
    conv = write_jsonl(tmp_path / "ops.jsonl", [
        {"author": "alex", "ts": "2026-11-16T08:55:00Z",
         "content": "Postmortem draft is up. The outage on Nov 12 was caused by the expired TLS "
                    "cert on the edge proxy."},
        {"author": "jun", "ts": "2026-11-16T09:10:00Z",
         "content": "thanks! action item: cert-manager alerts 14 days before expiry. I'll own "
                    "that."},
        {"author": "alex", "ts": "2026-11-17T16:20:00Z",
         "content": "here's the staging env if anyone needs it:\n```\nDATABASE_URL=postgres://"
                    "svc_app:Wint3r!sComing@staging-db.internal:5432/app\nAWS_ACCESS_KEY_ID="
                    "AKIAZ7QX3MPLE4T2RW9Q\nAWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiC"
                    "Yz9Q2lLmT0p\n```"},
        {"author": "priya", "ts": "2026-11-18T09:30:00Z",
         "content": "Reminder: office closed Friday for the offsite, we meet at the Harbour "
                    "Hall at 10"},
        {"author": "priya", "ts": "2026-11-23T09:00:00Z",
         "content": "heads up: standup cancelled on Thursday, async updates in #eng-standup "
                    "instead"},
        {"author": "kofi", "ts": "2026-11-25T17:30:00Z",
         "content": "@everyone deploy freeze from tomorrow until Monday 9:00 UTC"}])
    lurker("ingest", conv, "--session", "ops")
    listed = lurker("list").stdout
    assert "office closed Friday [2026-11-20]" in listed, listed
    assert "standup cancelled on Thursday [2026-11-26]" in listed, listed
    exported = lurker("export").stdout
    for secret in ("Wint3r", "AKIAZ7QX3MPLE4T2RW9Q", "wJalrXUtnFEMI"):
        assert secret not in exported

    def ask(question):
        return json.loads(lurker("recall", question, "--now", "2026-11-26T10:00:00Z",
                                 "--json").stdout)["answer"]
    assert ask("who owns the cert alerts?").startswith("jun said: thanks! action item")
    answer = ask("what's the staging database url?")
    assert "postgres://svc_app:[REDACTED:url-password]@staging-db.internal:5432/app" in answer, \
        answer
    assert "Wint3r" not in answer
    assert ask("when is the offsite?").startswith("20 November 2026:")
    assert "standup cancelled on Thursday [2026-11-26]" in ask("is there standup today?")
    # Saturday is inside the freeze's days (it was "nothing in memory is about saturday")
    assert ask("is there a deploy freeze on saturday?").startswith(
        "@everyone deploy freeze from tomorrow until Monday [2026-11-26 to 2026-11-30]")


SPRINT = [
    {"author": "maya", "ts": "2026-11-23T09:02:00Z",
     "content": "Sprint 48 kickoff. Goals: ship the billing export, fix the flaky login test, "
                "migrate the docs site."},
    {"author": "maya", "ts": "2026-11-23T09:05:00Z",
     "content": "TODO: @raj please write the release notes for 3.2 by Wednesday"},
    {"author": "lena", "ts": "2026-11-23T09:20:00Z",
     "content": "I'll take the flaky login test, looks like a race in the session fixture."},
    {"author": "omar", "ts": "2026-11-23T10:00:00Z",
     "content": "I'm going to migrate the docs site to the new theme this week."},
    {"author": "maya", "ts": "2026-11-23T11:30:00Z",
     "content": "Can someone rotate the Stripe webhook secret before Friday? It leaked into a CI "
                "log: whsec_" + "5f3a9c1e7b2d4f6a8c0e1b3d5f7a9c2e"},
    {"author": "omar", "ts": "2026-11-23T11:45:00Z",
     "content": "I can do the webhook rotation tomorrow morning."},
    {"author": "omar", "ts": "2026-11-24T09:30:00Z",
     "content": "Stripe webhook secret rotated, the old one is revoked."},
    {"author": "lena", "ts": "2026-11-24T15:10:00Z",
     "content": "Fixed the flaky login test, PR #1290 merged. It was the shared session fixture."},
    {"author": "raj", "ts": "2026-11-25T17:00:00Z",
     "content": "release notes for 3.2 are still in progress, will finish tomorrow"},
    {"author": "omar", "ts": "2026-11-26T08:40:00Z",
     "content": "Docs site migration is about half done, the search page is left."}]


def unredacted(export: str, marker: str, secret: str) -> str:
    """The export as the code before the rule for `secret` wrote it: the secret whole, and the
    content-addressed ids computed from that text."""
    from memory.ids import memory_id, message_id

    records, renamed = [json.loads(line) for line in export.splitlines()], {}
    for r in records:
        if r.get("kind") == "message" and marker in r["content"]:
            r["content"] = r["content"].replace(marker, secret)
            renamed[r["id"]] = r["id"] = message_id(r["session_id"], r["role"], r["content"])
    for r in records:
        if r.get("kind") == "memory":
            r["source_message_ids"] = [renamed.get(i, i) for i in r["source_message_ids"]]
            if marker in r["content"]:
                r["content"] = r["content"].replace(marker, secret)
                r["id"] = memory_id(r["type"], r["content"], r["source_message_ids"])
    return "\n".join(json.dumps(r) for r in records) + "\n"


def test_a_sprint_channel_asked_from_the_shell(lurker, tmp_path):
    """A sprint's week through `lurker ingest`, asked on Thursday 26 Nov. A Stripe webhook
    signing secret pasted from a CI log was stored, listed, exported and shown among recall's
    sources (detect-secrets has no rule for `whsec_`), and "what tasks are still open?" found
    nothing."""
    conv = write_jsonl(tmp_path / "sprint.jsonl", SPRINT)
    lurker("ingest", conv, "--session", "sprint")
    secret = "5f3a9c1e7b2d4f6a8c0e1b3d5f7a9c2e"
    for out in (lurker("list").stdout, lurker("export").stdout,
                lurker("recall", "what is the stripe webhook secret?", "--now",
                       "2026-11-26T10:00:00Z", "--json").stdout):
        assert secret[:10] not in out
    assert "[REDACTED:stripe-webhook-secret]" in lurker("list").stdout
    # "what tasks are still open?" was "I don't have anything about that in memory"
    answer = lurker("recall", "what tasks are still open?", "--now", "2026-11-26T10:00:00Z").stdout
    still, _, done = answer.partition("\nDone:\n")
    assert "release notes for 3.2" in still and "migrate the docs site" in still, answer
    assert 'latest: "omar: Docs site migration is about half done' in still, answer
    assert "Fixed the flaky login test" in done and "Stripe webhook secret rotated" in done, answer
    assert "flaky login test" not in still and secret[:10] not in answer
    # the docs migration is dropped: forgotten by the id recall's sources show (its first 12
    # characters: "profile 'default' has no memory with id …" before), it leaves the open work
    shown = re.search(r"\[([0-9a-f]{12})\] \w+ +\S+ +omar is going to migrate", answer)
    assert shown, answer
    forgot = lurker("forget", shown[1], "--reason", "dropped from the sprint").stdout
    assert forgot.startswith(f"forgot {shown[1]}") and len(forgot.split()[1].rstrip(":")) == 32
    again = lurker("recall", "what tasks are still open?", "--now", "2026-11-26T10:00:00Z").stdout
    assert "release notes for 3.2" in again and "migrate the docs site" not in again, again
    assert "has no memory with id '00000001'" in lurker("forget", "00000001", "--reason", "x",
                                                       expect=2).stderr
    # an export written under older rules (the secret whole) is redacted as it is imported, and
    # `lurker scrub` then finds nothing left
    (tmp_path / "old.jsonl").write_text(
        unredacted(lurker("export").stdout, "[REDACTED:stripe-webhook-secret]", "whsec_" + secret),
        encoding="utf-8")
    imported = lurker("import", tmp_path / "old.jsonl", "--profile", "copy").stdout
    assert "redacted 1 that held secrets" in imported, imported
    assert secret[:10] not in lurker("export", "--audit", "--profile", "copy").stdout
    assert "It leaked into a CI log: [REDACTED:stripe-webhook-secret]" in lurker(
        "list", "--profile", "copy").stdout
    assert lurker("scrub", "--profile", "copy").stdout.strip() == \
        "messages redacted: 0, memories erased: 0, memories redacted: 0"
    assert json.loads(lurker("scrub", "--all", "--json").stdout) == {
        name: {"messages_redacted": 0, "memories_erased": 0, "memories_redacted": 0}
        for name in ("copy", "default")}


def first_lines(lurker, now: tuple[str, str], questions: tuple[str, ...]) -> dict[str, str]:
    """Each question's answer as `lurker recall` prints it first, before its sources."""
    return {q: lurker("recall", q, *now).stdout.split("\n")[0] for q in questions}


def chat(*rows: tuple[str, str, str]) -> list[dict]:
    return [{"author": a, "ts": ts, "content": c} for a, ts, c in rows]


def asked_after(lurker, tmp_path, rows: list[dict], now: str, *questions: str) -> list[str]:
    """Ingest `rows` as one conversation, then each question's first line as of `now`."""
    lurker("ingest", write_jsonl(tmp_path / "conversation.jsonl", rows), "--session", "s")
    return list(first_lines(lurker, ("--now", now), questions).values())


def threaded(*rows: tuple[str, str, str, str | None, str]) -> list[dict]:
    """(author, ts, external id, the id it replies to or None, content) rows."""
    return [{"author": a, "ts": ts, "external_id": i, "content": c,
             **({"reply_to": r} if r else {})} for a, ts, i, r, c in rows]


SUPPORT = chat(
    ("nina", "2026-11-23T08:10:00Z",
     "Escalation: ACME Corp can't log in since the SSO change, ticket ZD-88213. Their admin "
     "is Dana Whitfield."),
    ("omar", "2026-11-23T08:25:00Z",
     "Looking. Their IdP metadata still points at the old cert, expired on Nov 20."),
    ("nina", "2026-11-23T09:40:00Z",
     "ACME is asking for a refund of $1,200 for the outage."),
    ("lee", "2026-11-23T11:02:00Z",
     "Refund policy: anything over $500 needs finance sign-off (Priya)."),
    ("omar", "2026-11-23T14:05:00Z",
     "Fixed: re-uploaded ACME's IdP metadata, logins work again as of 14:00 UTC."),
    ("nina", "2026-11-24T10:15:00Z",
     "Update: finance approved the ACME refund at $900, not the full $1,200."),
    ("nina", "2026-11-24T10:20:00Z",
     "Globex also reported the same SSO error this morning, ticket ZD-88240."),
    ("omar", "2026-11-24T16:45:00Z",
     "Globex fixed too. Root cause: our cert rotation job skipped tenants with custom IdPs. "
     "Postmortem on Friday."),
    ("lee", "2026-11-25T09:00:00Z",
     "Postmortem moved to Monday Dec 1, 3pm CET."),
    ("nina", "2026-11-25T09:30:00Z",
     "Initech wants to know if they're affected — they use Okta with a custom IdP. Can "
     "someone check before EOD?"))


def test_a_support_escalation_asked_from_the_shell(lurker, tmp_path):
    """A support channel's week through `lurker ingest`, asked on Thursday 26 Nov: the refund
    finance approved "Update: … at $900, not the full $1,200" was answered with the $1,200 asked
    for first (no change word linked them), and "is anything still open?" found nothing (it was
    no question the open work knew, and the one open request, "Can someone check before EOD?",
    was dropped as a question); "who fixed Globex?" found nothing."""
    conv = write_jsonl(tmp_path / "support.jsonl", SUPPORT)
    lurker("ingest", conv, "--session", "support")
    now = ("--now", "2026-11-26T10:00:00Z")
    refund = lurker("recall", "how much is the ACME refund?", *now).stdout
    assert refund.startswith("Latest: Update: finance approved the ACME refund at $900"), refund
    assert "Before that: ACME is asking for a refund of $1,200" in refund, refund
    still = lurker("recall", "is anything still open?", *now).stdout
    assert still.startswith("Still open (26 November 2026):\n- nina: Initech wants to know if "
                            "they're affected"), still
    assert "Can someone check before EOD [2026-11-25]?" in still.split("\n")[1], still
    assert "ACME" not in still.partition("sources:")[0], still
    # "Globex fixed too." was dropped (three words); then "Globex" was taken for who fixed it
    assert lurker("recall", "who fixed Globex?", *now).stdout.startswith(
        "omar said: Globex fixed too.")


DESIGN = chat(
    ("maya", "2026-11-23T10:00:00Z",
     "Decision: we'll use Postgres for the audit log store."),
    ("raj", "2026-11-23T10:05:00Z",
     "Let's cache sessions in Redis with a 30 minute TTL."),
    ("maya", "2026-11-24T09:00:00Z",
     "Scratch that, audit log goes to ClickHouse, Postgres can't keep up with the write "
     "volume."),
    ("raj", "2026-11-24T11:00:00Z",
     "On second thought, make the session TTL 15 minutes, security asked."),
    ("lena", "2026-11-24T15:00:00Z",
     "We're naming the new service ledger-api."),
    ("lena", "2026-11-25T09:10:00Z",
     "Never mind, legal says ledger is trademarked, it's books-api now."),
    ("omar", "2026-11-25T10:00:00Z",
     "Deploy window is Tuesdays 14:00-16:00 UTC."),
    ("omar", "2026-11-25T16:30:00Z",
     "Correction: deploy window is Wednesdays, same hours."))


def test_a_design_channels_reversals_asked_from_the_shell(lurker, tmp_path):
    """Decisions taken back the way people take them back ("Scratch that, …", "Never mind, …",
    "Correction: …"), asked on Thursday 26 Nov: the old decision led "what database did we pick
    for the audit log?", the rename was not in "what's the new service called?" at all, and
    "Never mind, legal says …" was said beside another answer as a standing rule ("Never …")."""
    conv = write_jsonl(tmp_path / "design.jsonl", DESIGN)
    lurker("ingest", conv, "--session", "design")
    now = ("--now", "2026-11-26T10:00:00Z")
    ask = first_lines(lurker, now, (
        "what database did we pick for the audit log?", "what's the new service called?",
        "when is the deploy window?"))
    assert ask["what database did we pick for the audit log?"].startswith(
        "Latest: Scratch that, audit log goes to ClickHouse"), ask
    assert ask["what's the new service called?"].startswith(
        "Latest: Never mind, legal says ledger is trademarked, it's books-api now."), ask
    # a schedule is its own answer ("No date was given" was said before it), and no rule
    assert ask["when is the deploy window?"].startswith(
        "Correction: deploy window is Wednesdays, same hours."), ask
    assert "Standing rule" not in ask["when is the deploy window?"], ask


CALENDAR = chat(
    ("maya", "2026-11-13T10:00:00Z",
     "The security audit is next Tuesday, block your calendars."),
    ("raj", "2026-11-16T09:00:00Z",
     "Office is closed on Thanksgiving, Nov 26, and the day after."),
    ("lena", "2026-11-18T15:00:00Z",
     "The audit went fine, two minor findings, report due in two weeks."),
    ("omar", "2026-11-20T11:00:00Z",
     "Offsite is on the 8th, in Lisbon."),
    ("maya", "2026-11-24T09:00:00Z",
     "Reminder: code freeze starts this Friday at noon and ends Monday morning."),
    ("raj", "2026-11-25T12:00:00Z",
     "I'm out from tomorrow until next Wednesday."))


def test_a_teams_calendar_asked_from_the_shell(lurker, tmp_path):
    """Dates said around a team's month, asked on Thursday 26 Nov (Thanksgiving): "is the office
    open today?" shared one word of three with "Office is closed on Thanksgiving, Nov 26" ("today"
    counted as one to share) and was not answered; "code freeze starts this Friday at noon and
    ends Monday morning" was two dates, so "is there a code freeze this weekend?" said nothing in
    memory was about the weekend; "when is raj back?" found nothing of "raj is out from tomorrow
    until next Wednesday"."""
    conv = write_jsonl(tmp_path / "calendar.jsonl", CALENDAR)
    lurker("ingest", conv, "--session", "calendar")
    now = ("--now", "2026-11-26T10:00:00Z")
    office = lurker("recall", "is the office open today?", *now).stdout
    assert office.startswith("Office is closed on Thanksgiving, Nov 26 [2026-11-26]"), office
    freeze = lurker("recall", "is there a code freeze this weekend?", *now).stdout
    assert freeze.startswith("Reminder: code freeze starts this Friday at noon and ends Monday "
                             "[2026-11-27 to 2026-11-30] morning."), freeze
    # "back" and "off" are said as "out … until": the question shared no word with it
    back = lurker("recall", "when is raj back?", *now).stdout
    assert back.startswith("Away until 2 December 2026: raj is out from tomorrow until next "
                           "Wednesday"), back
    assert lurker("recall", "is raj off tomorrow?", *now).stdout.startswith("raj is out")


RELEASES = chat(
    ("ana", "2026-11-16T10:00:00Z", "Cutting release 4.12.0 today, RC build is green."),
    ("ben", "2026-11-16T15:30:00Z",
     "4.12.0 is out to 10% of users behind the new_checkout flag."),
    ("ana", "2026-11-17T09:10:00Z",
     "Seeing a spike in 502s from payments-svc since the rollout, rolling back 4.12.0 to "
     "4.11.3."),
    ("ben", "2026-11-17T09:45:00Z",
     "Rollback done, prod is on 4.11.3 again. Error rate back to normal."),
    ("chen", "2026-11-18T11:00:00Z",
     "Root cause of the 502s: connection pool size was 10 in the new config, should be 50. "
     "Fix in PR #4471."),
    ("ana", "2026-11-19T14:00:00Z",
     "4.12.1 with the pool fix is out, 100% of users, new_checkout flag on for everyone."),
    ("ben", "2026-11-20T16:00:00Z",
     "Heads up: release 4.13.0 is planned for Dec 3, feature freeze on Dec 1."),
    ("chen", "2026-11-23T10:30:00Z",
     "We're deprecating the v1 API on Jan 15, customers were emailed today."),
    ("ana", "2026-11-24T09:00:00Z",
     "Hotfix 4.12.2 shipped: fixes the currency rounding bug in invoices (JPY showed "
     "decimals)."),
    ("ben", "2026-11-25T13:00:00Z",
     "Who's release captain for 4.13? I was last time. @chen can you take it?"),
    ("chen", "2026-11-25T13:20:00Z", "Sure, I'll be release captain for 4.13.0."))


def test_a_release_channel_asked_from_the_shell(lurker, tmp_path):
    """A release channel's fortnight, asked on Friday 27 Nov: "what version is in prod?" was
    answered with the rollback to 4.11.3 of ten days before (the hotfix shipped on Tuesday
    shares none of its words), "in production" found nothing ("prod" is what the team writes),
    "when was 4.12.2 released?" with 4.13.0's planned date (it shared "4", "12", "release"),
    "when is the next release?" with the release cut on 16 Nov, and "deprecating the v1 API on
    Jan 15" (said in November, then "customers were emailed today") was last January."""
    conv = write_jsonl(tmp_path / "releases.jsonl", RELEASES)
    lurker("ingest", conv, "--session", "releases")
    now = ("--now", "2026-11-27T10:00:00Z")
    ask = first_lines(lurker, now, (
        "what version is in prod?", "what version is in production right now?",
        "when was 4.12.2 released?", "when was 4.12.9 released?", "when is the next release?",
        "when does the v1 API go away?"))
    assert ask["what version is in prod?"].startswith("Latest: Hotfix 4.12.2 shipped"), ask
    assert "Before that: Rollback done, prod is on 4.11.3" in ask["what version is in prod?"]
    assert ask["what version is in production right now?"].startswith(
        ("Latest: Hotfix 4.12.2 shipped", "Hotfix 4.12.2 shipped")), ask
    assert "Hotfix 4.12.2 shipped" in ask["when was 4.12.2 released?"], ask
    assert "4.13.0" not in ask["when was 4.12.2 released?"], ask
    assert ask["when was 4.12.9 released?"] == NO_ANSWER, ask  # no other version instead
    assert ask["when is the next release?"].startswith(
        "3 December 2026: Heads up: release 4.13.0 is planned"), ask
    assert ask["when does the v1 API go away?"].startswith("15 January 2027:"), ask
    # "when was the last release?" had 4.13.0's planned date; "what shipped last week?" nothing
    last = lurker("recall", "when was the last release?", *now).stdout.split("\n")[0]
    assert last.startswith("24 November 2026: Hotfix 4.12.2 shipped"), last
    shipped = lurker("recall", "what shipped last week?", *now).stdout.split("\n")[0]
    assert "4.12.1 with the pool fix is out" in shipped, shipped
    # the hotfix forgotten by the id recall shows: the newest one shipped before it answers,
    # and 4.12.2 is said nowhere
    shown_id = re.search(r"\[([0-9a-f]{12})\] \w+ +2026-11-24  Hotfix",
                         lurker("recall", "when was the last release?", *now).stdout).group(1)
    lurker("forget", shown_id, "--reason", "posted in the wrong channel")
    for q in ("what version is in prod?", "when was the last release?"):
        out = lurker("recall", q, *now).stdout
        assert "4.12.2" not in out, out
        assert "4.12.1 with the pool fix is out" in out.split("\n")[0], out


REVIEWS = chat(
    ("reviewbot", "2026-11-23T10:00:00Z",
     "Review of PR #512 (payments: retry webhooks)\n\n"
     "Summary: the change adds exponential backoff to webhook delivery. Overall good, three "
     "issues.\n\n"
     "1. Retry logic: `deliver()` retries on every exception, including 4xx responses. Only "
     "retry on 5xx, timeouts and connection errors.\n"
     "2. Backoff cap: the delay doubles without a cap, so the 8th retry waits 256 s × jitter. "
     "Cap it at 60 s.\n"
     "3. Idempotency: the retry sends a new `Idempotency-Key` each attempt. Reuse the key from "
     "the first attempt, otherwise merchants may double-process."),
    ("anna", "2026-11-23T11:30:00Z",
     "Thanks bot. Fixed 1 and 3, capped backoff at 30s instead of 60s, we agreed with SRE."),
    ("kim", "2026-11-25T14:00:00Z", "PR #512 merged."))


def test_a_review_bots_long_message_and_the_reply_to_it(lurker, tmp_path):
    """A code-review bot's long review and the author's reply, asked on Friday 27 Nov: "the 8th
    retry" was a date (8 December, shown as "[2026-12-08]" in the answer), and "what is the
    backoff cap?" put the bot's 60 s and the 30 s agreed after it side by side in ranking order
    (in a longer review the 60 s came first), never saying which is current: "30s instead of
    60s" named no value of "60 s", and its clause's "Fixed 1 and 3" was read as its subject."""
    conv = write_jsonl(tmp_path / "reviews.jsonl", REVIEWS)
    lurker("ingest", conv, "--session", "reviews")
    now = ("--now", "2026-11-27T10:00:00Z")
    cap = lurker("recall", "what is the backoff cap?", *now).stdout
    assert cap.startswith("Latest: Fixed 1 and 3, capped backoff at 30s instead of 60s"), cap
    assert "2026-12-08" not in cap and "8 December" not in cap, cap
    # (as a date said: a memory's created_at is the wall clock's, on 8 Dec too)
    listed = lurker("list", "--json").stdout
    assert "[2026-12-08]" not in listed and "8 December" not in listed, listed


UNICODE_CHANNEL = chat(
    ("José", "2026-11-23T09:00:00Z",
     "The deploy is blocked on the cert renewal 🔒, I'll handle it tomorrow."),
    ("Øyvind", "2026-11-24T08:00:00Z", "Re\u200bdis max\u00admemory is 4gb now, bumped from 2gb."),
    ("amélie", "2026-11-24T09:05:00Z",
     "ＰＡＳＳＷＯＲＤ： Ｔｒ０ｕｂ４ｄｏｒ＆３ for the ｓｔａｇｉｎｇ box"),
    ("amélie", "2026-11-24T09:06:00Z", "prod box password: Sn0w\u200bfall;42 (don't ask)"),
    ("José", "2026-11-25T09:00:00Z", "Cert renewed ✅ deploy unblocked."))


def test_a_channel_typed_on_other_keyboards(lurker, tmp_path):
    """A channel as other keyboards and pastes type it, asked on Thursday 26 Nov: a password in
    fullwidth letters (a CJK keyboard's) and one split by a zero-width space were stored whole,
    "Re<zero-width space>dis max<soft hyphen>memory" was found by no search for "redis
    maxmemory", and "is the deploy still blocked?" was answered "The deploy is blocked" though
    "deploy unblocked" came two days later."""
    conv = write_jsonl(tmp_path / "unicode.jsonl", UNICODE_CHANNEL)
    lurker("ingest", conv, "--session", "unicode")
    now = ("--now", "2026-11-26T10:00:00Z")
    assert lurker("recall", "what is the redis maxmemory?", *now).stdout.startswith(
        "Redis maxmemory is 4gb now")
    assert lurker("recall", "is the deploy still blocked?", *now).stdout.startswith(
        "Latest: Cert renewed ✅ deploy unblocked.")
    said = lurker("recall", "what's the staging password?", *now).stdout
    stored = b"".join(p.read_bytes() for p in tmp_path.glob("*.sqlite3*")) \
        + lurker("export").stdout.encode()
    assert stored and "[REDACTED:password]" in lurker("export").stdout
    for secret in ("Ｔｒ０ｕｂ４ｄｏｒ", "Sn0w\u200bfall", "Sn0wfall", "Tr0ub4dor"):
        assert secret not in said and secret.encode() not in stored, secret


SETTINGS = chat(
    ("tom", "2026-11-16T09:00:00Z", "API rate limit is 100 requests per minute per key."),
    ("priya", "2026-11-18T10:00:00Z",
     "Bumped the rate limit from 100 to 300 rpm for paid keys; free keys stay at 100."),
    ("tom", "2026-11-20T15:00:00Z", "Max upload size is 25 MB."),
    ("priya", "2026-11-23T11:00:00Z", "Raised max upload to 50MB, S3 multipart handles it fine."),
    ("sam", "2026-11-24T09:00:00Z", "Session timeout went from 30 to 15 minutes, security asked."),
    ("tom", "2026-11-25T14:00:00Z",
     "Reverted the session timeout change, back to 30 min, too many complaints."))


def test_settings_changed_by_value_lead_with_the_new_value(lurker, tmp_path):
    """Settings a team changes by saying the new value, asked on Thursday 26 Nov: "what is the
    rate limit?" led with the 100/min of ten days before the bump to 300, "what's the max upload
    size?" with 25 MB, and "what is the session timeout?" with the 15 minutes that were reverted
    the next day (bumped, raised, reverted, "back to" said no change, and "50MB" named no "MB")."""
    conv = write_jsonl(tmp_path / "settings.jsonl", SETTINGS)
    lurker("ingest", conv, "--session", "settings")
    now = ("--now", "2026-11-26T10:00:00Z")
    ask = first_lines(lurker, now, (
        "what is the rate limit?", "what's the max upload size?", "what is the session timeout?"))
    assert ask["what is the rate limit?"].startswith("Latest: Bumped the rate limit from 100 to "
                                                     "300 rpm"), ask
    assert ask["what's the max upload size?"].startswith("Latest: Raised max upload to 50MB"), ask
    assert ask["what is the session timeout?"].startswith(
        "Latest: Reverted the session timeout change, back to 30 min"), ask


HIRING = chat(
    ("lena", "2026-11-17T16:00:00Z",
     "Interviewed Alex Chen for the backend role today: strong on distributed systems, weak on "
     "testing. Leaning hire."),
    ("omar", "2026-11-18T11:00:00Z",
     "My take on Alex: great system design round, but he dodged the on-call question. Hire "
     "with reservations."),
    ("lena", "2026-11-19T10:00:00Z",
     "Priya Raman (frontend) did the take-home, it was excellent. Strong hire from me."),
    ("maya", "2026-11-20T15:00:00Z",
     "Decision: offer to Priya Raman, Alex goes to a second round with the SRE team."),
    ("maya", "2026-11-25T12:00:00Z", "Priya accepted! Start date is January 11."))


def test_a_hiring_channel_asked_about_candidates(lurker, tmp_path):
    """A hiring channel, asked on Thursday 26 Nov about people who never wrote in it: "what did
    we think of Alex?" declined ("think" was the one word an answer had to share), "what did
    lena say about Priya?" declined ("Priya Raman": the surname made it someone else's), and
    "when does Priya start?" declined ("Priya accepted!" was dropped as too short, so "Start
    date is January 11" was nobody's)."""
    conv = write_jsonl(tmp_path / "hiring.jsonl", HIRING)
    lurker("ingest", conv, "--session", "hiring")
    now = ("--now", "2026-11-26T10:00:00Z")
    ask = first_lines(lurker, now, (
        "what did we think of Alex?", "what did lena say about Priya?",
        "when does Priya start?"))
    assert "Alex" in ask["what did we think of Alex?"].split(" (")[0], ask
    assert ask["what did lena say about Priya?"].startswith(
        "Priya Raman (frontend) did the take-home, it was excellent."), ask
    assert ask["when does Priya start?"].startswith(
        "11 January 2027: Priya accepted! Start date is January 11"), ask


COSTS = chat(
    ("fin", "2026-11-03T09:00:00Z",
     "October AWS bill: $48,210, up 12% from September ($43,050). Biggest jump is NAT gateway "
     "traffic."),
    ("fin", "2026-11-04T10:00:00Z", "Datadog is $6.2k/month, contract renews Feb 1."),
    ("ops", "2026-11-10T14:00:00Z",
     "Moved the batch jobs to spot instances, should save ~$4k/month on EC2."),
    ("fin", "2026-11-20T09:00:00Z",
     "Datadog quote for renewal came in at $7.8k/month, 26% more. Need a decision by Dec 15."))


def test_a_costs_channel_asked_what_things_cost(lurker, tmp_path):
    """A costs channel, asked on Thursday 26 Nov: "how much was the AWS bill in October?"
    declined ("October AWS bill", said on 3 Nov, named no date: a month alone needed "in"), and
    "how much do we pay for Datadog?" declined ("pay" was the one word to share; "$6.2k/month"
    says it without it), and "when do we need to decide on Datadog?" declined ("Need a decision
    by Dec 15." was a memory of its own, naming no Datadog, and "decision" is no "decide" to the
    stemmer)."""
    conv = write_jsonl(tmp_path / "costs.jsonl", COSTS)
    lurker("ingest", conv, "--session", "costs")
    now = ("--now", "2026-11-26T10:00:00Z")
    bill = lurker("recall", "how much was the AWS bill in October?", *now).stdout
    assert bill.startswith("October [October 2026] AWS bill: $48,210"), bill
    pay = lurker("recall", "how much do we pay for Datadog?", *now).stdout
    assert pay.startswith("Datadog is $6.2k/month"), pay
    decide = lurker("recall", "when do we need to decide on Datadog?", *now).stdout
    assert decide.startswith("15 December 2026: Datadog quote for renewal came in at "
                             "$7.8k/month, 26% more. Need a decision by Dec 15"), decide


PLATFORM = [
    {"author": "dana", "ts": "2026-11-16T09:00:00Z", "external_id": "m1",
     "content": "Proposal for the queue: (A) stay on Redis lists, (B) move to RabbitMQ, (C) move "
                "to SQS. I lean B."},
    {"author": "omar", "ts": "2026-11-16T09:20:00Z", "external_id": "m2", "reply_to": "m1",
     "content": "C is less ops work for us, we're already on AWS."},
    {"author": "dana", "ts": "2026-11-16T10:05:00Z", "external_id": "m3", "reply_to": "m1",
     "content": "ok fair, let's go with SQS then."},
    {"author": "omar", "ts": "2026-11-18T15:00:00Z", "external_id": "m5",
     "content": "Incident: payments API returned 502s from 14:05 to 14:40 UTC. Affected "
                "customers: Acme, Globex and Initech."},
    {"author": "dana", "ts": "2026-11-18T15:30:00Z", "external_id": "m6", "reply_to": "m5",
     "content": "Umbrella Corp also reported failed checkouts in that window."},
    {"author": "omar", "ts": "2026-11-19T09:00:00Z", "external_id": "m7",
     "content": "Root cause for yesterday's 502s: the new connection pool limit (20) was too low "
                "under peak. Raised to 80."},
    {"author": "lee", "ts": "2026-11-20T11:00:00Z", "external_id": "m8",
     "content": "Postmortem for the payments incident is Tuesday at 3pm, owner is Dana."},
    {"author": "dana", "ts": "2026-11-23T16:00:00Z", "external_id": "m9",
     "content": "Change of plan on the queue: SQS FIFO limits bite us, we're going with RabbitMQ "
                "after all."},
    {"author": "lee", "ts": "2026-11-24T10:00:00Z", "external_id": "m10",
     "content": "Omar owns the billing service now, I'm handing it over this week."},
    {"author": "omar", "ts": "2026-11-25T08:30:00-08:00", "external_id": "m11",
     "content": "I'll be offline tomorrow morning, dentist. Back by 1pm."}]


def test_a_platform_channel_with_threads_an_incident_and_a_change_of_plan(lurker, tmp_path):
    """A platform channel, asked on Wednesday evening 25 Nov: "when is omar back?" answered
    "Away until 29 November: Omar owns the billing service now, lee is handing it over this
    week" (a memory that names him and a week, and no time away); "what is the connection pool
    limit?" stated the old 20 ("Raised to 80." and "Back by 1pm." were too short to keep); the
    queue's "Change of plan … going with RabbitMQ after all" came second to the proposal it
    takes back; and "which customers were affected?" left out Umbrella Corp, named in a thread
    reply that shares no word with the question."""
    conv = write_jsonl(tmp_path / "platform.jsonl", PLATFORM)
    lurker("ingest", conv, "--session", "platform")
    now = ("--now", "2026-11-26T02:00:00Z")
    ask = first_lines(lurker, now, (
        "when is omar back?", "what is the connection pool limit?",
        "which queue are we moving to?", "which customers were affected by the payments incident?"))
    back = ask["when is omar back?"]
    assert back.startswith("26 November 2026: omar will be offline tomorrow") \
        and "Back by 1pm" in back and "billing" not in back, ask
    assert "Raised to 80" in ask["what is the connection pool limit?"], ask
    assert ask["which queue are we moving to?"].startswith(
        "Latest: Change of plan on the queue: SQS FIFO limits bite us, we're going with "
        "RabbitMQ after all."), ask
    affected = ask["which customers were affected by the payments incident?"]
    assert "Acme, Globex and Initech" in affected and "Umbrella Corp" in affected, ask
    # nobody said the billing owner is away: no "Away until" from a week's handover
    assert "Away until" not in lurker("recall", "is lee back?", *now).stdout.split("\n")[0]


RETRO = chat(
    ("maya", "2026-11-20T16:00:00Z",
     "Retro notes (sprint 47):\nWent well:\n- webhooks v2 shipped on time\n- on-call was quiet\n"
     "Didn't go well:\n- flaky e2e tests blocked 3 deploys\n- staging DB ran out of disk twice\n"
     "Action items:\n- @tomas: quarantine the flaky e2e tests by Wednesday\n"
     "- @lena: add disk alerts for staging DB\n- @maya: write the runbook for webhook retries\n"
     "- @raj: upgrade the CI runners to 16 GB\n- everyone: fill in the on-call survey by Friday"),
    ("raj", "2026-11-25T11:00:00Z",
     "CI runners: ordered the 16 GB instances, switching over Monday."))


def test_retro_notes_are_kept_whole_with_their_headings(lurker, tmp_path):
    """A retro's notes as a team writes them (headings, bullets), asked on Friday 27 Nov: each
    bullet was a memory without its heading, and the bound on memories per message dropped the
    rest, so "what is lena supposed to do?" and "what didn't go well?" declined (her item and
    both of what went wrong were never stored); "when do we switch to the new CI runners?"
    answered 23 November, the Monday before raj said "switching over Monday"."""
    conv = write_jsonl(tmp_path / "retro.jsonl", RETRO)
    lurker("ingest", conv, "--session", "retro")
    now = ("--now", "2026-11-27T10:00:00Z")
    ask = first_lines(lurker, now, (
        "what is lena supposed to do?", "what are the action items from the retro?",
        "what didn't go well in the retro?", "when do we switch to the new CI runners?"))
    q = "what are the action items from the retro?"
    assert ask[q].startswith("Retro notes (sprint 47), Action items: @tomas: quarantine"), ask
    assert all(f"@{who}:" in ask[q] for who in ("lena", "maya", "raj")), ask
    # (lena's own item, as "what does tom need to do?" is answered, 28 Nov: the whole list was)
    assert ask["what is lena supposed to do?"] == "lena is on:", ask
    lena = lurker("recall", "what is lena supposed to do?", *now).stdout.split("\n\n")[0]
    assert "Action items: @lena: add disk alerts for staging DB" in lena, lena
    assert "@tomas" not in lena and "@raj" not in lena, lena
    assert "Retro notes (sprint 47), Didn't go well: flaky e2e tests blocked 3 deploys; " \
        "staging DB ran out of disk twice" in ask["what didn't go well in the retro?"], ask
    assert ask["when do we switch to the new CI runners?"].startswith("30 November 2026: "), ask
    # each action item is open work of its own: raj's, with his later word on it, still open
    still = lurker("recall", "which action items are still open?", *now).stdout
    open_part = still.split("Done:")[0]
    assert still.startswith("Still open (27 November 2026):"), still
    assert all(f"Action items: @{who}:" in open_part for who in ("lena", "maya", "raj")), still
    assert "switching over Monday [2026-11-30]" in open_part, still


RATE_LIMITS = chat(
    ("tomas", "2026-11-17T14:00:00Z",
     "Rate limit discussion: we agreed to cap the public API at 300 req/min per key, burst 50."),
    ("tomas", "2026-11-24T10:00:00Z",
     "Revisited the rate limit: enterprise keys get 600 req/min, everyone else stays at 300."),
    ("maya", "2026-11-24T11:00:00Z", "Also decided: no rate limit on the health endpoint."),
    ("lee", "2026-11-25T09:00:00Z", "FYI the rate limiter ships Thursday."))


def test_what_a_setting_is_leads_with_its_latest_value(lurker, tmp_path):
    """Asked on Friday 27 Nov "what is the rate limit?": the answer was "FYI the rate limiter
    ships Thursday" and "no rate limit on the health endpoint" (the newest words that share it),
    and neither value said that week or the week before."""
    conv = write_jsonl(tmp_path / "limits.jsonl", RATE_LIMITS)
    lurker("ingest", conv, "--session", "limits")
    now = ("--now", "2026-11-27T10:00:00Z")
    ask = first_lines(lurker, now, ("what is the rate limit?", "what's the rate limit now?"))
    for said in ask.values():
        assert said.startswith("Revisited the rate limit: enterprise keys get 600 req/min, "
                               "everyone else stays at 300."), ask
    # a question for a date is still answered by the date
    assert lurker("recall", "when does the rate limiter ship?", *now).stdout.startswith(
        "26 November 2026: FYI the rate limiter ships Thursday")


def test_an_agents_notes_answer_which_tool_of_a_kind(lurker):
    """Coding agents' notes kept with `lurker remember`, asked as an agent asks: "what package
    manager do we use?" declined ("Build uses pnpm 9" names the tool, never its kind), and
    "which test framework do we use?" the same; a kind nothing names still gets no tool."""
    for note in ("Build uses pnpm 9. Run the unit tests with: pnpm test -- --runInBand (jest "
                 "hangs in parallel on CI).",
                 "Never commit directly to main; open a PR and wait for the review bot.",
                 "Use Node 20 LTS; Node 22 breaks the canvas dependency."):
        lurker("remember", note, "--profile", "agents")
    now = ("--now", "2026-11-27T10:00:00Z", "--profile", "agents")
    assert lurker("recall", "what package manager do we use?", *now).stdout.startswith(
        "Build uses pnpm 9.")
    assert lurker("recall", "which test framework do we use?", *now).stdout.startswith(
        "Build uses pnpm 9.")
    ci = lurker("recall", "which message queue do we use?", *now).stdout.split("\n")[0]
    assert "pnpm" not in ci, ci


ON_CALL = chat(
    ("maya", "2026-11-20T09:00:00Z", "On-call rotation: week of Nov 23 — dana, week of Nov 30 — "
     "raj, week of Dec 7 — omar."),
    ("dana", "2026-11-24T08:00:00Z", "Swapping with raj: he takes this week, I take next week."),
    ("raj", "2026-11-24T08:05:00Z", "Confirmed, I'm on call until Sunday."),
    ("maya", "2026-11-26T09:00:00Z",
     "Holiday coverage: nobody is paged for P3s on Thursday and Friday."))


def test_on_call_until_sunday_answers_who_is_on_call_today(lurker, tmp_path):
    """Asked on Thursday 26 Nov "who is on call today?": "Confirmed, I'm on call until Sunday"
    (said Tuesday) was dated Sunday alone, so the answer led with "Nothing from today uses the
    question's words" and the day's holiday note before raj."""
    conv = write_jsonl(tmp_path / "oncall.jsonl", ON_CALL)
    lurker("ingest", conv, "--session", "oncall")
    said = lurker("recall", "who is on call today?", "--now", "2026-11-26T10:00:00Z").stdout
    assert said.startswith("Confirmed, raj is on call until Sunday"), said


RFC = chat(
    ("priya", "2026-11-24T10:00:00Z",
     "## RFC: search backend for the help center\n\n**Decision:** move help center search to "
     "Elasticsearch 9, behind the `hc_es_search` flag.\n\n**Alternatives considered:**\n"
     "- Meilisearch: fast, but no cross-cluster replication\n- Postgres trigram index: tried "
     "in October, p95 only dropped to 1.1 s\n- Algolia: $2.4k/month at our volume\n\n"
     "**Rollout:**\n1. dual-write from Dec 1\n2. shadow reads for a week\n3. flip the flag on "
     "Dec 14\n\nOwner: priya."),
    ("priya", "2026-11-26T15:00:00Z", "Update: rollout slips a week, dual-write starts Dec 8."))


def test_a_design_doc_answers_why_not_the_alternatives(lurker, tmp_path):
    """A design doc in Markdown (bold labels, a list of the alternatives and why each lost),
    asked on Friday 27 Nov: "why not Meilisearch?" declined ("not" was a word an answer had to
    carry; "Meilisearch: fast, but no cross-cluster replication" says "no"), and so did "why
    didn't we pick Algolia?"; the rollout's slip leads "when does dual-write start?"."""
    conv = write_jsonl(tmp_path / "rfc.jsonl", RFC)
    lurker("ingest", conv, "--session", "rfc")
    now = ("--now", "2026-11-27T10:00:00Z")
    ask = first_lines(lurker, now, ("why not Meilisearch?", "why didn't we pick Algolia?",
                                    "when does dual-write start?", "when do we flip the flag?"))
    for q in ("why not Meilisearch?", "why didn't we pick Algolia?"):
        assert ask[q].startswith("Alternatives considered: Meilisearch: fast, but no "
                                 "cross-cluster replication; "), ask
    assert ask["when does dual-write start?"].startswith("8 December 2026: Update: rollout "
                                                         "slips a week"), ask
    # the slip moves the flag flip of the same rollout too: Dec 14 plus a week, not Dec 8
    assert ask["when do we flip the flag?"].startswith("21 December 2026: Update: rollout "
                                                       "slips a week"), ask
    assert "Before that: 14 December 2026: " in ask["when do we flip the flag?"], ask


FREEZE = chat(
    ("maya", "2026-11-16T09:00:00Z",
     "Code freeze for the 4.2 release is Dec 1. Please land features before then."),
    ("dev", "2026-11-16T09:30:00Z",
     "What if we moved the release to GCP Cloud Run instead of our k8s cluster? Just thinking "
     "out loud."),
    ("maya", "2026-11-16T09:35:00Z",
     "Not for 4.2. We are NOT moving the release pipeline off k8s this quarter."),
    ("ops-bot", "2026-11-17T14:00:00Z", "Deployed api v4.1.7 to production (build 8812)."),
    ("ops-bot", "2026-11-19T16:00:00Z", "Deployed api v4.1.8 to production (build 8840)."),
    ("sam", "2026-11-19T17:10:00Z", "4.1.8 is throwing 500s on checkout, rolling back."),
    ("ops-bot", "2026-11-19T17:20:00Z",
     "Rolled back api to v4.1.7 in production (build 8812)."),
    ("maya", "2026-11-20T10:00:00Z",
     "Heads up: the code freeze is pushed a week because of the checkout incident."),
    ("lena", "2026-11-20T11:00:00Z",
     "> we should enable the new_checkout flag for everyone\nNo, we agreed to keep "
     "new_checkout at 10% until the 500s are understood."),
    ("ops-bot", "2026-11-23T11:30:00Z", "Deployed api v4.1.9 to production (build 8871)."),
    ("lena", "2026-11-23T12:00:00Z", "new_checkout flag bumped to 50% after the fix in 4.1.9."))


def test_a_slip_by_a_week_and_a_quoted_proposal_asked_from_the_shell(lurker, tmp_path):
    """A release channel's fortnight (a deploy bot, a rollback, a slip said by how much, a quoted
    proposal turned down), asked on Wednesday 25 Nov: "when is the code freeze?" was answered
    "1 December" after "the code freeze is pushed a week"; the quoted proposal ("> we should
    enable the new_checkout flag for everyone") was a memory of lena's and answered "should we
    enable new_checkout for everyone?"; "when did we deploy 4.1.9?" said no date was given, though
    the bot reported it done that day; "Just thinking out loud." was a fact."""
    conv = write_jsonl(tmp_path / "releases.jsonl", FREEZE)
    lurker("ingest", conv, "--session", "releases")
    now = ("--now", "2026-11-25T10:00:00Z")
    ask = first_lines(lurker, now, (
        "when is the code freeze?", "should we enable new_checkout for everyone?",
        "when did we deploy 4.1.9?", "are we moving to cloud run?"))
    assert ask["when is the code freeze?"].startswith(
        "8 December 2026: Heads up: the code freeze is pushed a week"), ask
    assert "Before that: 1 December 2026: Code freeze for the 4.2 release" \
        in ask["when is the code freeze?"], ask
    assert ask["should we enable new_checkout for everyone?"].startswith(
        "No, we agreed to keep new_checkout at 10%"), ask
    assert ask["when did we deploy 4.1.9?"].startswith(
        "23 November 2026, when it was reported: Deployed api v4.1.9 to production"), ask
    assert ask["are we moving to cloud run?"].startswith(
        "We are NOT moving the release pipeline off k8s this quarter"), ask
    # date arithmetic counts to the date it moved to, not the one first said
    until = lurker("recall", "how many days until the code freeze?", *now).stdout
    assert until.startswith("13 days: from 25 November 2026 (today) to 8 December 2026 (the code "
                            "freeze, moved on 20 November 2026)."), until
    listed = lurker("list").stdout
    assert "> we should enable" not in listed and "thinking out loud" not in listed, listed
    assert "enable the new_checkout flag for everyone" not in " ".join(
        line for line in listed.splitlines() if "new_checkout" in line and "10%" not in line)


def test_a_lower_case_name_is_whom_recall_answers_about(lurker, tmp_path):
    """Chat is typed in lower case: "what did sam say …" was answered with what priya and tom
    said, and "what did priya say …" with tom's words beside hers."""
    conv = write_jsonl(tmp_path / "votes.jsonl", [
        {"author": "priya", "ts": "2026-11-10T09:00:00Z",
         "content": "I think we should cap the rate limit at 300 per minute."},
        {"author": "tom", "ts": "2026-11-10T09:05:00Z",
         "content": "I'd rather keep the rate limit at 100 until the cache lands."},
        {"author": "maya", "ts": "2026-11-10T09:10:00Z",
         "content": "The rate limit review moves to sam next week."}])
    lurker("ingest", conv, "--session", "votes")

    def ask(question):
        return json.loads(lurker("recall", question, "--json").stdout)["answer"]
    answer = ask("what did priya say about the rate limit?")
    assert answer.startswith("priya thinks we should cap the rate limit at 300"), answer
    assert "tom" not in answer
    assert "100" not in ask("what did Priya say about the rate limit?")
    answer = ask("what did sam say about the rate limit?")
    assert "300" not in answer and "100" not in answer, answer
    assert "review moves to sam" not in answer, answer  # maya's words that name him, not his
    assert "review moves to sam" in ask("what did maya say about the rate limit review?")


def test_a_chat_export_without_roles_is_ingested_and_a_misnamed_text_is_named(lurker,
                                                                             tmp_path):
    """A newcomer's first file: no roles (they are people), and the text under "text". It was
    refused as "invalid role None" for every line."""
    plain = write_jsonl(tmp_path / "plain.jsonl", [
        {"author": "li", "ts": "2026-11-02T09:10:00-08:00",
         "content": "The staging database moves to Postgres 16 next sprint."}])
    assert "messages new: 1" in lurker("ingest", plain, "--session", "s").stdout
    misnamed = write_jsonl(tmp_path / "misnamed.jsonl", [{"author": "li", "text": "hi there"}])
    err = lurker("ingest", misnamed, "--session", "s", expect=2).stderr
    assert "message 0: content must be a non-empty string (it has 'text'" in err, err
    assert "invalid role" not in err


def test_a_reader_that_stops_early_gets_no_error(lurker, tmp_path):
    """`lurker export | head -1`: the export is cut short by the reader, which is not an error to
    print ("lurker: error: Broken pipe" was)."""
    conv = write_jsonl(tmp_path / "many.jsonl", [
        {"role": "user", "author": "maya", "content": f"Service {i} listens on port {8000 + i} "
         f"and its owner is team {i % 7}; its runbook is at https://wiki.example/run/{i}."}
        for i in range(400)])
    lurker("ingest", conv, "--session", "many")
    env = {**os.environ, "LURKER_STORE": f"sqlite:///{tmp_path / 'cli.sqlite3'}"}
    proc = subprocess.Popen([sys.executable, "-m", "memory.cli", "export"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout.readline().startswith(b'{"kind": "header"')
    proc.stdout.close()  # more than a pipe's buffer is still to come
    _, err = proc.communicate(timeout=120)
    assert err == b"" and proc.returncode == 1


def test_errors_are_one_clear_line(lurker, tmp_path):
    bad = write_jsonl(tmp_path / "bad.jsonl", [
        {"role": "user", "content": "fine"}, "{broken", {"role": "user", "content": "ok too"}, "[1"])
    proc = lurker("ingest", bad, "--session", "s", expect=2)
    assert "line 2" in proc.stderr and "line 4" in proc.stderr and "Traceback" not in proc.stderr
    proc = lurker("ingest", write_jsonl(tmp_path / "r.jsonl", [{"role": "bot", "content": "x"}]),
                  "--session", "s", expect=2)
    assert "invalid role 'bot'" in proc.stderr
    proc = lurker("forget", "deadbeef", "--reason", "x", expect=2)
    assert "no memory with id 'deadbeef'" in proc.stderr
    proc = lurker("recall", "x", "--profile", "bad name", expect=2)
    assert "invalid profile name" in proc.stderr
    proc = lurker("ingest", str(tmp_path / "missing.jsonl"), "--session", "s", expect=2)
    assert "missing.jsonl" in proc.stderr and "Traceback" not in proc.stderr


def test_unreachable_elasticsearch_names_the_url(lurker):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed once we leave the block: nothing listens there
    url = f"http://127.0.0.1:{port}"
    proc = lurker("list", expect=2, store=url)
    assert url in proc.stderr and "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


def test_demo_answers_from_the_sample(lurker):
    proc = lurker("demo")
    assert "300 requests per minute" in proc.stdout
    out = json.loads(lurker("demo", "--json").stdout)
    assert out["ingest"]["messages_new"] == 0  # second run: content-addressed, nothing new
    assert "300" in out["answer"]


# Forget means the bot stops saying it (issue 12): ask, forget, ask again.
# --- CLI and the terminal channel, as subprocesses ------------------------------------------------
@pytest.fixture
def lurker_stdout(tmp_path):
    environ = {k: v for k, v in os.environ.items()
               if not k.startswith(("SLACK_", "ANTHROPIC_", "LURKER_BOT_"))}
    environ.update(LURKER_STORE=f"sqlite:///{tmp_path / 'cli.sqlite3'}", USER="maya")

    def run(*args, stdin=""):
        proc = subprocess.run([sys.executable, "-m", "memory.cli", *args], input=stdin,
                              env=environ, capture_output=True, text=True, timeout=240,
                              cwd=tmp_path)
        assert proc.returncode == 0, proc.stderr
        return proc.stdout
    return run


def test_cli_forget_then_recall_and_export_no_longer_say_it(lurker_stdout, tmp_path):
    conversation = tmp_path / "c.jsonl"
    conversation.write_text("\n".join(json.dumps(m) for m in [
        {"role": "user", "author": "li", "content": STATEMENT, "ts": "2026-11-16T09:00:00Z"},
        {"role": "user", "author": "maya", "content": "Deploys are on Tuesdays.",
         "ts": "2026-11-16T09:01:00Z"}]) + "\n")
    lurker_stdout("ingest", str(conversation), "--session", "s1", "--profile", "team")
    assert HOST in lurker_stdout("recall", QUESTION, "--profile", "team", "--json")
    listed = json.loads(lurker_stdout("list", "--profile", "team", "--json"))["memories"]
    memory_id = next(m["id"] for m in listed if HOST in m["content"])
    lurker_stdout("forget", memory_id, "--reason", "moved to vault", "--profile", "team")
    for query in (QUESTION, "db-stage-7"):
        assert HOST not in lurker_stdout("recall", query, "--profile", "team", "--json")
    assert HOST not in lurker_stdout("export", "--profile", "team")
    audit = lurker_stdout("export", "--profile", "team", "--audit")
    assert HOST in audit and '"suppressed": true' in audit


def test_terminal_channel_forget_then_ask_again(lurker_stdout):
    before, _, after = lurker_stdout("chat", "--profile", "team", stdin=(
        f"{STATEMENT}\n"
        "Deploys are on Tuesdays after standup.\n"
        f"@lurker {QUESTION}\n"
        "@lurker forget staging database host\n"
        "@lurker confirm 1\n"
        "---\n"
        f"@lurker {QUESTION}\n"
        "@lurker db-stage-7\n")).partition("Forgotten (1)")
    assert HOST in before and after, before
    assert HOST not in after
    again = lurker_stdout("chat", "--profile", "team", stdin=f"@lurker {QUESTION}\n")
    assert HOST not in again


MEETINGS = chat(
    ("maya", "2026-11-09T08:00:00Z", "Standup is at 9:30 CET every weekday in the #eng huddle."),
    ("maya", "2026-11-09T08:05:00Z",
     "Design sync is every other Thursday at 15:00, next one Nov 12."),
    ("tom", "2026-11-13T16:00:00Z",
     "From Monday standup moves to 10:00 CET so the Lisbon folks can join."),
    ("raj", "2026-11-19T10:00:00Z", "Can we move design sync to 16:00? I have a clash at 15:00."),
    ("maya", "2026-11-19T10:20:00Z", "Sure, design sync is at 16:00 from now on."),
    ("lena", "2026-11-20T12:00:00Z",
     "1:1s with new hires are on Tuesdays at 11:00, booked by Priya."),
    ("tom", "2026-11-23T09:00:00Z",
     "Retro this sprint is on Wednesday at 14:00 instead of Thursday."))


def test_a_teams_meetings_asked_from_the_shell(lurker, tmp_path):
    """Meetings as a team sets and moves them, asked on Thursday 26 Nov: "when is the next
    design sync?" was answered "12 November" (the one date written, two weeks gone: every other
    Thursday from the 12th is today); "From Monday standup moves to 10:00 CET" led "what time is
    standup?" with 16 November, the day the change started; "design sync is at 16:00 from now on"
    was no change, so 15:00 answered "what time is design sync?"."""
    conv = write_jsonl(tmp_path / "meetings.jsonl", MEETINGS)
    lurker("ingest", conv, "--session", "meetings")
    now = ("--now", "2026-11-26T10:00:00Z")
    ask = first_lines(lurker, now, (
        "when is the next design sync?", "what time is standup?", "what time is design sync?",
        "when is the next 1:1 with new hires?", "when is the next standup?",
        "when is the next retro?"))
    assert ask["when is the next design sync?"].startswith(
        "26 November 2026 (today), every other Thursday: Latest: Sure, design sync is at 16:00 "
        "from now on."), ask
    assert ask["what time is standup?"].startswith(
        "Latest: From Monday [2026-11-16] standup moves to 10:00 CET"), ask
    assert ask["what time is design sync?"].startswith(
        "Latest: Sure, design sync is at 16:00 from now on."), ask
    assert ask["when is the next 1:1 with new hires?"].startswith(
        "1 December 2026, on Tuesdays: 1:1s with new hires are on Tuesdays"), ask
    assert ask["when is the next standup?"].startswith(
        "26 November 2026 (today), every weekday: Latest: From Monday [2026-11-16] standup "
        "moves to 10:00 CET"), ask
    # another schedule that says "next" is no answer about the retro
    assert "Design sync" not in ask["when is the next retro?"], ask


def test_corrections_in_threads_asked_from_the_shell(lurker, tmp_path):
    """Values corrected in a thread the way people correct them ("actually it's 50 MB since …",
    "I think it's 15 now? we upgraded in October", "wrong, 8-18 since November"), asked on
    Thursday 26 Nov: each answer stated the value the thread had corrected, and "oh right, my
    bad" was a memory."""
    rows = [
        ("priya", "2026-11-23T09:00:00Z", "p1", None,
         "FYI the max upload size on the API is 25 MB."),
        ("tom", "2026-11-23T09:10:00Z", "p2", "p1",
         "actually it's 50 MB since the 4.1 release, I bumped it on Monday"),
        ("priya", "2026-11-23T09:12:00Z", "p3", "p1", "oh right, my bad"),
        ("lee", "2026-11-24T14:00:00Z", "p4", None, "The staging cluster runs Postgres 14."),
        ("omar", "2026-11-24T14:05:00Z", "p5", "p4",
         "I think it's 15 now? we upgraded in October"),
        ("lee", "2026-11-24T14:07:00Z", "p6", "p4", "you're right, 15."),
        ("maya", "2026-11-25T10:00:00Z", "p7", None, "Support hours are 9-17 CET."),
        ("raj", "2026-11-25T10:02:00Z", "p8", "p7", "wrong, 8-18 since November")]
    conv = write_jsonl(tmp_path / "threads.jsonl", [
        {"author": a, "ts": t, "external_id": e, "content": c,
         **({"reply_to": r} if r else {})} for a, t, e, r, c in rows])
    lurker("ingest", conv, "--session", "threads")
    now = ("--now", "2026-11-26T10:00:00Z")
    ask = first_lines(lurker, now, ("what is the max upload size?",
                                    "what postgres version does staging run?",
                                    "what are the support hours?"))
    assert ask["what is the max upload size?"].startswith(
        "Latest: Correction: actually it's 50 MB since the 4.1 release, tom bumped it on "
        "Monday"), ask
    assert ask["what postgres version does staging run?"].startswith(
        "Latest: Correction: omar thinks it's 15 now?"), ask
    assert ask["what are the support hours?"].startswith(
        "Latest: Correction: wrong, 8-18 since November"), ask
    listed = lurker("list").stdout
    assert "my bad" not in listed and "you're right" not in listed, listed


def test_a_schedules_next_day_comes_from_its_written_dates(lurker, tmp_path):
    """"every other Thursday" is labelled at ingest with the Thursday after it was said, whichever
    week the schedule keeps: said on Monday 16 Nov with "the first one was on Nov 12", "when is
    the next design sync?" on Wednesday 18 Nov said 19 November (the label), not 26 November."""
    conv = write_jsonl(tmp_path / "sync.jsonl", chat(
        ("maya", "2026-11-16T09:00:00Z",
         "Design sync is every other Thursday at 15:00, the first one was on Nov 12.")))
    lurker("ingest", conv, "--session", "sync")
    for now, day in (("2026-11-18T10:00:00Z", "26 November 2026"),
                     ("2026-11-26T10:00:00Z", "26 November 2026 (today)"),
                     ("2026-11-27T10:00:00Z", "10 December 2026")):
        said = lurker("recall", "when is the next design sync?", "--now", now).stdout
        assert said.startswith(f"{day}, every other Thursday: Design sync is every other "
                               "Thursday"), (now, said)


def test_a_state_asked_without_still_is_its_latest(lurker, tmp_path):
    """"is staging down?" on Wednesday was answered "Staging is down for the DB upgrade until
    14:00 UTC" (Monday morning) before "Staging is back up" (Monday afternoon): only "is it still
    down?" asked for the latest. A state that can end (down, blocked, broken, offline …) asked
    in the present is asked as of now."""
    conv = write_jsonl(tmp_path / "state.jsonl", chat(
        ("raj", "2026-11-23T10:00:00Z", "Staging is down for the DB upgrade until 14:00 UTC."),
        ("raj", "2026-11-23T14:20:00Z", "Staging is back up."),
        ("maya", "2026-11-23T09:00:00Z",
         "We are not going to use Kafka for the event bus, NATS is simpler for our volume.")))
    lurker("ingest", conv, "--session", "state")
    now = ("--now", "2026-11-25T15:00:00Z")
    ask = first_lines(lurker, now, ("is staging down?", "are we using kafka?"))
    assert ask["is staging down?"].startswith(
        "Latest: Staging is back up. (23 November 2026). Before that: Staging is down"), ask
    assert ask["are we using kafka?"].startswith("We are not going to use Kafka"), ask


def test_an_incident_channel_asked_how_long_from_the_shell(lurker, tmp_path):
    """An incident as a pager bot and the on-call write it, asked on Wednesday 25 Nov: "how long
    did the checkout outage last?" listed the TRIGGERED and RESOLVED messages by their day and
    left the subtraction to the reader; "Postmortem owner: lena. Draft due Friday." lost its
    second sentence (three words), so "when is the postmortem draft due?" had no date."""
    conv = write_jsonl(tmp_path / "incident.jsonl", chat(
        ("pagerbot", "2026-11-24T14:05:00Z", "TRIGGERED: checkout-api error rate > 5% (SEV2)"),
        ("raj", "2026-11-24T14:07:00Z",
         "Ack, looking. Seems like the payments provider is timing out."),
        ("pagerbot", "2026-11-24T14:20:00Z", "TRIGGERED: search-api latency p99 > 2s (SEV3)"),
        ("raj", "2026-11-24T14:30:00Z", "Mitigated: failed over to the backup provider at 14:28."),
        ("pagerbot", "2026-11-24T14:52:00Z", "RESOLVED: checkout-api error rate > 5% (SEV2)"),
        ("pagerbot", "2026-11-24T17:10:00Z", "RESOLVED: search-api latency p99 > 2s (SEV3)"),
        ("raj", "2026-11-24T16:00:00Z", "Postmortem owner: lena. Draft due Friday.")))
    lurker("ingest", conv, "--session", "incident")
    now = ("--now", "2026-11-25T12:00:00Z")
    ask = first_lines(lurker, now, ("how long did the checkout outage last?",
                                    "how long was search slow?",
                                    "when is the postmortem draft due?"))
    assert ask["how long did the checkout outage last?"] == (
        "47 minutes: from 14:05 UTC on 24 November 2026 (TRIGGERED: checkout-api error rate > 5% "
        "(SEV2)) to 14:52 UTC (RESOLVED: checkout-api error rate > 5% (SEV2))."), ask
    assert ask["how long was search slow?"].startswith(
        "2 hours 50 minutes: from 14:20 UTC on 24 November 2026 (TRIGGERED: search-api"), ask
    assert ask["when is the postmortem draft due?"].startswith(
        "27 November 2026: Postmortem owner: lena. Draft due Friday"), ask


def test_an_agents_notes_of_a_tool_upgrade_from_the_shell(lurker):
    """A coding agent's notes kept with `lurker remember`: "Build uses pnpm 9 …", then "Upgraded
    to pnpm 10, lockfile regenerated." Asked "what pnpm version do we use?" it said pnpm 9
    ("upgraded" was no word of a change)."""
    lurker("remember", "Build uses pnpm 9; run pnpm install --frozen-lockfile in CI.")
    lurker("remember", "Upgraded to pnpm 10, lockfile regenerated.")
    said = lurker("recall", "what pnpm version do we use?").stdout
    assert said.startswith("Latest: Upgraded to pnpm 10, lockfile regenerated."), said
    assert "Before that: Build uses pnpm 9" in said, said
    # a version is a value: the newest stated leads ("what node version does the api use?"
    # had the 20 of all services first)
    lurker("remember", "Node version is 20 LTS for all services.")
    lurker("remember", "Node bumped to 22 for the api service only.")
    # (as the change of what stood: "Node 20" states a version, no longer only "version" does)
    said = lurker("recall", "what node version does the api use?").stdout
    assert said.startswith("Latest: Node bumped to 22 for the api service only."), said
    assert "Before that: Node version is 20 LTS for all services." in said, said


def test_a_corrected_date_and_another_things_update_from_the_shell(lurker, tmp_path):
    """"Launch of the mobile app is Dec 3." with "actually it's Dec 10 now …" in its thread, and a
    day later "Update: the security audit moves to Dec 14.", asked on Wednesday 25 Nov: "when is
    the mobile app launch?" was led by the audit's update ("dec" was a value both named, and a
    message that opens "Update:" leads when it names what the answer states), and the
    correction, had it led, gave no date."""
    conv = write_jsonl(tmp_path / "launch.jsonl", [
        {"author": "maya", "ts": "2026-11-20T09:00:00Z", "external_id": "a0",
         "content": "The security audit is on Dec 7."},
        {"author": "priya", "ts": "2026-11-23T09:00:00Z", "external_id": "a1",
         "content": "Launch of the mobile app is Dec 3."},
        {"author": "tom", "ts": "2026-11-23T09:05:00Z", "external_id": "a2", "reply_to": "a1",
         "content": "actually it's Dec 10 now, app store review takes longer"},
        {"author": "maya", "ts": "2026-11-24T09:00:00Z", "external_id": "a3",
         "content": "Update: the security audit moves to Dec 14."}])
    lurker("ingest", conv, "--session", "launch")
    now = ("--now", "2026-11-25T10:00:00Z")
    ask = first_lines(lurker, now, ("when is the mobile app launch?", "when is the security audit?",
                                    "how many days until the mobile app launch?"))
    assert ask["when is the mobile app launch?"].startswith(
        "10 December 2026: Correction: actually it's Dec 10"), ask
    assert "security audit" not in ask["when is the mobile app launch?"], ask
    assert ask["when is the security audit?"].startswith("14 December 2026: Update: the "
                                                         "security audit moves to Dec 14"), ask
    assert ask["how many days until the mobile app launch?"].startswith(
        "15 days: from 25 November 2026 (today) to 10 December 2026"), ask


def test_a_correction_of_a_day_in_a_thread_from_the_shell(lurker, tmp_path):
    """"no, it's Thursday this sprint" in the thread of "The retro is on Wednesday at 3pm.": a
    weekday is an English word, not a name, so the reply named no value of its own and was no
    correction; "when is the retro?" said Wednesday. A date is a value now."""
    conv = write_jsonl(tmp_path / "retro.jsonl", [
        {"author": "maya", "ts": "2026-11-23T09:00:00Z", "external_id": "r1",
         "content": "The retro is on Wednesday at 3pm."},
        {"author": "tom", "ts": "2026-11-23T09:05:00Z", "external_id": "r2", "reply_to": "r1",
         "content": "no, it's Thursday this sprint"}])
    lurker("ingest", conv, "--session", "retro")
    said = lurker("recall", "when is the retro?", "--now", "2026-11-24T10:00:00Z").stdout
    assert said.startswith("26 November 2026: Correction: no, it's Thursday"), said
    assert "Before that: 25 November 2026: The retro is on Wednesday" in said, said


def test_a_new_value_said_with_now_in_a_thread_from_the_shell(lurker, tmp_path):
    """27 Nov, from outside: in the thread of "The staging DB host is db-staging-2.internal.",
    tom wrote "no, that is the old one" and then "it's db-staging-3.internal now". The first
    became the correction (its "old" and "one" were values the parent lacked), the second was
    dropped as too short: "what is the staging db host?" led with "Correction: no, that is the
    old one" and never said db-staging-3. A reply stating what "it's … now" is a correction; a
    correction names a value of the kind its parent states."""
    host, ttl = asked_after(lurker, tmp_path, threaded(
        ("priya", "2026-11-23T10:00:00Z", "h1", None,
         "The staging DB host is db-staging-2.internal."),
        ("tom", "2026-11-23T10:05:00Z", "h2", "h1", "no, that is the old one"),
        ("tom", "2026-11-23T10:06:00Z", "h3", "h1", "it’s db-staging-3.internal now"),
        ("maya", "2026-11-23T11:00:00Z", "h4", None, "Redis cache TTL is 15 minutes."),
        ("lee", "2026-11-23T11:05:00Z", "h5", "h4", "it's a good default now")),
        "2026-11-24T10:00:00Z", "what is the staging db host?", "what is the cache ttl?")
    said = (host, ttl)
    assert host.startswith("Latest: Correction: it’s db-staging-3.internal now (to priya's "
                           "\"The staging DB host is db-staging-2.internal.\")"), said
    assert "old one" not in host, said
    assert ttl.startswith("Redis cache TTL is 15 minutes."), said


DEBATES = threaded(
    ("alice", "2026-11-17T10:00:00Z", "d1", None, "Should we use Kafka or SQS for the event bus?"),
    ("bob", "2026-11-17T10:03:00Z", "d2", "d1",
     "Kafka gives us replay, but the ops cost is high."),
    ("carol", "2026-11-17T10:05:00Z", "d3", "d1", "SQS is simpler, we don't need replay yet."),
    ("alice", "2026-11-17T10:09:00Z", "d4", "d1", "OK let's go with SQS for now, revisit in Q2."),
    ("dan", "2026-11-18T09:00:00Z", "d5", None,
     "Rate limit discussion: we're at 300/min, customers hit it daily."),
    ("erin", "2026-11-18T09:04:00Z", "d6", "d5",
     "Agreed, bump to 500/min for paid plans, keep free at 300."),
    ("dan", "2026-11-18T09:06:00Z", "d8", "d5", "👍 shipping that tomorrow"),
    ("dan", "2026-11-19T09:00:00Z", "d7", None,
     "Why did we drop the nightly reindex? It was decided in October I think."))


def test_what_a_thread_decided_from_the_shell(lurker, tmp_path):
    """27 Nov, from outside: a thread asks "Should we use Kafka or SQS for the event bus?",
    two replies argue, and a third settles it ("OK let's go with SQS for now, revisit in Q2.");
    another thread opens on the rate limit and a reply agrees to bump it. The settling replies
    named neither the event bus nor the rate limit: "what did we decide about the event bus?"
    was answered with the debate ("SQS is simpler …"), "are we using kafka?" with "Kafka gives
    us replay …", and "what did we decide about the rate limit last Wednesday?" with the
    thread's opening. A reply that opens with a decision's words is the thread's decision. The
    opener's "👍 shipping that tomorrow" in the thread named nothing it ships ("when does the
    rate limit change ship?" was answered with the opening, undated): a reply that points back
    ("that", "it") is found by its thread's words."""
    said = asked_after(lurker, tmp_path, DEBATES, "2026-11-24T10:00:00Z",
                       "what did we decide about the event bus?", "are we using kafka?",
                       "what did we decide about the rate limit last Wednesday?",
                       "when does the rate limit change ship?")
    bus, kafka, limit, ships = said
    assert ships.startswith("19 November 2026: 👍 shipping that tomorrow"), said
    for answer in (bus, kafka):
        assert answer.startswith("Decision: OK let's go with SQS for now, revisit in Q2"), said
        assert "(on alice's \"Should we use Kafka or SQS for the event bus?\")" in answer, said
    assert limit.startswith("Decision: Agreed, bump to 500/min for paid plans, keep free at "
                            "300. (on dan's \"Rate limit discussion:"), said


def test_a_closure_and_a_rota_asked_by_day_from_the_shell(lurker, tmp_path):
    """27 Nov, from outside: "The office is closed Dec 24 – Jan 2 for the holidays." and "@sam is
    on call until Monday 9am, then @lee takes over for the week.". "is the office open on Dec
    28?" was declined (open is not closed: the closure shared one word of four), "is the office
    closed on Jan 1?" was read as last January ("closed" as a past tense), and "who is on call
    next Tuesday?" was declined (the rota shares "call", not "next Tuesday"). A day not in the
    closure says nothing is about it, and what stands."""
    said = asked_after(lurker, tmp_path, chat(
        ("hr", "2026-11-20T10:00:00Z", "The office is closed Dec 24 – Jan 2 for the holidays."),
        ("ops", "2026-11-23T09:00:00Z",
         "@sam is on call until Monday 9am, then @lee takes over for the week.")),
        "2026-11-26T10:00:00Z", "is the office open on Dec 28?", "is the office closed on Jan 1?",
        "is the office open on Dec 22?", "who is on call next Tuesday?")
    open_28, closed_1, open_22, rota = said
    for answer in (open_28, closed_1):
        assert answer.startswith("The office is closed Dec 24 – Jan 2"), said
    assert "Jan 1 = 2027-01-01" in closed_1, said
    assert open_22.startswith("Nothing in memory is about Dec 22 yet; what stands: The office "
                              "is closed Dec 24"), said
    # (since the handover is read: the one after "then" on a day after the first one's turn)
    assert rota.startswith("@lee, on 1 December 2026: @sam is on call until Monday"), said
    assert "@lee takes over for the week" in rota, said


def test_a_pasted_log_under_its_heading_from_the_shell(lurker, tmp_path):
    """27 Nov, from outside: a CI bot's "Build failed:" over 600 lines of a stack trace. The
    heading was too short to keep and the trace's lines named no build: "why did the build
    fail?" was declined. Each line kept under a message's heading says it; a bounded number are
    kept."""
    trace = "\n".join(f"  at com.acme.Foo.bar(Foo.java:{i}) ERROR timeout connecting to "
                      f"db-prod-1:5432" for i in range(600))
    conv = write_jsonl(tmp_path / "ci.jsonl", chat(
        ("ci", "2026-11-23T10:00:00Z", f"Build failed:\n{trace}")))
    out = json.loads(lurker("ingest", conv, "--session", "ci", "--json").stdout)
    assert 1 <= out["memories_created"] <= 10, out
    said = lurker("recall", "why did the build fail?", "--now", "2026-11-24T10:00:00Z").stdout
    assert said.startswith("Build failed: at com.acme.Foo.bar(Foo.java:"), said
    assert "ERROR timeout connecting to db-prod-1:5432" in said.split("\n")[0], said


def test_a_date_slipped_to_and_a_measure_that_moved_from_the_shell(lurker, tmp_path):
    """27 Nov, from outside: "cutover is Dec 8", then "Keycloak cutover slips to Dec 15"; "the
    p99 latency SLO for checkout is 300ms; we're at 420ms this week", then "Checkout p99 is down
    to 280ms after the cache fix". "how many days until the keycloak cutover?" counted to 8
    December (a slip *to* a date was no change), "what is the checkout latency?" led with the
    420ms. A CI workflow that deploys "on push to main" moves no date."""
    said = asked_after(lurker, tmp_path, chat(
        ("maya", "2026-11-16T09:10:00Z",
         "Reminder: we're migrating auth to Keycloak, cutover is Dec 8."),
        ("sam", "2026-11-17T14:00:00Z",
         "The p99 latency SLO for checkout is 300ms; we're at 420ms this week."),
        ("maya", "2026-11-18T09:00:00Z",
         "Keycloak cutover slips to Dec 15, the SSO vendor needs more time."),
        ("sam", "2026-11-20T12:00:00Z", "Checkout p99 is down to 280ms after the cache fix 🎉"),
        ("tom", "2026-11-20T13:00:00Z",
         "The release workflow deploys on push to main, the cutover runbook is in the wiki.")),
        "2026-11-23T10:00:00Z", "how many days until the keycloak cutover?",
        "when is the keycloak cutover?", "what is the checkout latency?")
    days, when, latency = said
    assert days.startswith("22 days: from 23 November 2026 (today) to 15 December 2026 (the "
                           "keycloak cutover, moved on 18 November 2026)"), said
    assert when.startswith("15 December 2026: Keycloak cutover slips to Dec 15"), said
    # (since 27 Nov's sixth session "is down to" says a change: the old value follows it as
    # "Before that:")
    assert latency.startswith("Latest: Checkout p99 is down to 280ms"), said
    assert "Before that: The p99 latency SLO for checkout is 300ms; we're at 420ms" in latency


def test_a_slip_of_a_release_named_only_in_the_question_from_the_shell(lurker, tmp_path):
    """27 Nov, from outside: "Code freeze for the 4.2 release is Dec 1.", "Heads up: the code
    freeze is pushed a week …", then "Code freeze for 4.3 is Jan 12.". Asked with the release
    ("when is the code freeze for 4.2?", "how many days until the 4.2 code freeze?") the slip
    was left out (it names no 4.2) and the answers gave 1 December. A slip that names no
    release may move the one asked about; 4.3's freeze, said after it, is not moved."""
    said = asked_after(lurker, tmp_path, chat(
        ("maya", "2026-11-16T09:00:00Z", "Code freeze for the 4.2 release is Dec 1."),
        ("tom", "2026-11-18T09:00:00Z",
         "Heads up: the code freeze is pushed a week because of the checkout incident."),
        ("maya", "2026-11-19T09:00:00Z", "Code freeze for 4.3 is Jan 12.")),
        "2026-11-23T10:00:00Z", "when is the code freeze for 4.2?",
        "how many days until the 4.2 code freeze?", "when is the 4.3 code freeze?")
    when, days, later = said
    assert when.startswith("8 December 2026: Heads up: the code freeze is pushed a week"), said
    assert "Before that: 1 December 2026: Code freeze for the 4.2 release" in when, said
    assert days.startswith("15 days: from 23 November 2026 (today) to 8 December 2026"), said
    assert later.startswith("12 January 2027: Code freeze for 4.3 is Jan 12"), said


def test_dates_said_loosely_asked_how_far_from_the_shell(lurker, tmp_path):
    """27 Nov, from outside: "Security review sign-off needed by EOD Friday." was due today
    ("EOD" read alone: "how many days until the security review sign-off?" said 0), and "how
    many days until the pricing page refresh?" after "lands mid-December", or "how long until
    the data migration starts?" after "starts in two weeks", had no answer (a span of days
    counts to its first and last day now)."""
    said = asked_after(lurker, tmp_path, chat(
        ("b", "2026-11-18T10:01:00Z", "Security review sign-off needed by EOD Friday."),
        ("f", "2026-11-18T10:05:00Z", "Pricing page refresh lands mid-December."),
        ("d", "2026-11-18T10:03:00Z", "The data migration starts in two weeks.")),
        "2026-11-18T12:00:00Z", "how many days until the security review sign-off?",
        "how many days until the pricing page refresh?",
        "how long until the data migration starts?")
    signoff, refresh, migration = said
    assert signoff.startswith("2 days: from 18 November 2026 (today) to 20 November 2026"), said
    assert refresh.startswith("23 days to 32 days: from 18 November 2026 (today) to 11 December "
                              "2026 to 20 December 2026"), said
    assert migration.startswith("12 days to 18 days: from 18 November 2026 (today) to the week "
                                "of 30 November 2026"), said


def test_an_incident_thread_asked_for_its_cause_and_commander_from_the_shell(lurker, tmp_path):
    """27 Nov, from outside: an incident declared in a message ("Declaring SEV2: … I'm IC,
    @omar is comms."), its cause found in the thread ("Found it: the 14:00 deploy of
    payments-api v3.8.1 dropped the idempotency header."). "what was the root cause of the
    checkout incident?" was declined (the reply says no "cause" and names no checkout), "what
    caused the checkout errors?" answered with the status page's update, and "who was the
    incident commander?" was declined (a team writes "IC")."""
    said = asked_after(lurker, tmp_path, threaded(
        ("lena", "2026-11-24T14:07:00Z", "o1", None,
         "Declaring SEV2: checkout error rate at 12%. I'm IC, @omar is comms."),
        ("omar", "2026-11-24T14:10:00Z", "o2", "o1",
         "Status page updated: investigating elevated checkout errors."),
        ("raj", "2026-11-24T14:25:00Z", "o3", "o1",
         "Found it: the 14:00 deploy of payments-api v3.8.1 dropped the idempotency header."),
        ("lena", "2026-11-24T14:31:00Z", "o4", "o1", "Rolling back payments-api to v3.8.0.")),
        "2026-11-25T10:00:00Z", "what was the root cause of the checkout incident?",
        "what caused the checkout errors?", "who was the incident commander?")
    root, caused, commander = said
    for answer in (root, caused):
        assert answer.startswith("Found it: the 14:00 deploy of payments-api v3.8.1 dropped the "
                                 "idempotency header."), said
    assert commander.startswith("lena is IC, @omar is comms."), said


def test_a_rollout_that_ramps_from_the_shell(lurker, tmp_path):
    """27 Nov, from outside: "new_checkout is rolled out to 10% of users.", then "Ramping
    new_checkout to 25% today …", then "new_checkout at 50% now …". "what percentage is
    new_checkout rolled out to?" said 10% (the later ones share neither "percentage" nor
    "rolled out"), and "is new_checkout at 100%?" led with it too. A share asked for is its
    newest first."""
    said = asked_after(lurker, tmp_path, chat(
        ("maya", "2026-11-16T10:00:00Z", "new_checkout is rolled out to 10% of users."),
        ("maya", "2026-11-18T10:00:00Z",
         "Ramping new_checkout to 25% today, conversion looks good."),
        ("tom", "2026-11-20T10:00:00Z", "new_checkout at 50% now, no alerts over the weekend.")),
        "2026-11-24T10:00:00Z", "what percentage is new_checkout rolled out to?",
        "is new_checkout at 100%?", "how far is the new_checkout rollout?")
    for answer in said:
        assert answer.startswith("new_checkout at 50% now"), said


def test_whether_someone_is_still_here_from_the_shell(lurker, tmp_path):
    """27 Nov, from outside: "Marco's last day is Friday, Nov 20." and marco's own "Today is my
    last day, thanks everyone!". "is marco still here?" was declined (it shared "marco" alone,
    one word of three); a last day, leaving or quitting answers it, the newest first, and
    joining answers it of someone who joined."""
    said = asked_after(lurker, tmp_path, chat(
        ("hr", "2026-11-16T10:00:00Z",
         "Marco's last day is Friday, Nov 20. Priya takes over his on-call shifts."),
        ("marco", "2026-11-20T16:00:00Z", "Today is my last day, thanks everyone! 👋"),
        ("hr", "2026-11-23T09:00:00Z",
         "Please welcome Dana, joining the data team today as a senior engineer.")),
        "2026-11-24T10:00:00Z", "is marco still here?", "is marco still at the company?",
        "is dana still on the team?")
    here, company, dana = said
    for answer in (here, company):
        assert answer.startswith("Today [2026-11-20] is marco's last day, thanks everyone"), said
        assert "Marco's last day is Friday, Nov 20" in answer, said
    assert dana.startswith("Please welcome Dana, joining the data team"), said


def test_a_deal_pushed_to_a_month_from_the_shell(lurker, tmp_path):
    """27 Nov, from outside: "Acme renewal is $120k ARR, closing Dec 15." then "Acme pushed the
    renewal to January, legal review on their side.". "when does the Acme renewal close?" said
    15 December and "how many days until the acme renewal?" 21 days: "to January" was no date
    (only "in January" was), and a move with words between the verb and "to" no change."""
    said = asked_after(lurker, tmp_path, chat(
        ("sara", "2026-11-16T10:00:00Z", "Acme renewal is $120k ARR, closing Dec 15."),
        ("sara", "2026-11-19T10:00:00Z",
         "Acme pushed the renewal to January, legal review on their side.")),
        "2026-11-24T10:00:00Z", "when does the Acme renewal close?",
        "how many days until the acme renewal?")
    when, days = said
    assert when.startswith("January 2027: Acme pushed the renewal to January"), said
    assert days.startswith("38 days to 68 days: from 24 November 2026 (today) to January 2027 "
                           "(the acme renewal"), said


def test_a_retro_s_items_and_a_weekly_wipe_from_the_shell(lurker, tmp_path):
    """27 Nov, from outside: tom posts "Retro action items: @li fix the flaky e2e test; @tom
    write the deploy runbook; @priya update the on-call doc." and li later "flaky e2e test fixed
    🎉"; li posts "The staging DB will be wiped every Sunday at 02:00 UTC starting this week.".
    "what does tom need to do?" was declined (only "what is tom working on?" was read as asking
    someone's work), and then listed priya's item as tom's (he had said it); "when is staging
    wiped?" said "the week of 23 November". An item put to someone else by @name is theirs, and
    a schedule asked in the present gives its next day."""
    said = asked_after(lurker, tmp_path, chat(
        ("li", "2026-11-24T10:00:00Z",
         "The staging DB will be wiped every Sunday at 02:00 UTC starting this week."),
        ("tom", "2026-11-24T11:00:00Z", "Retro action items: @li fix the flaky e2e test; @tom "
         "write the deploy runbook; @priya update the on-call doc."),
        ("li", "2026-11-25T15:00:00Z", "flaky e2e test fixed 🎉")),
        "2026-11-26T10:00:00Z", "what does tom need to do?", "what's on priya's plate?",
        "when is staging wiped?")
    tom, priya, wipe = said
    assert tom.startswith("tom is on:"), said
    assert priya.startswith("priya is on:"), said
    assert wipe.startswith("29 November 2026, every Sunday: The staging DB will be wiped"), said
    details = {q: lurker("recall", q, "--now", "2026-11-26T10:00:00Z").stdout.split("\n\n")[0]
               for q in ("what does tom need to do?", "what's on priya's plate?")}
    assert "@tom write the deploy runbook" in details["what does tom need to do?"], details
    assert "@priya" not in details["what does tom need to do?"], details
    assert "@priya update the on-call doc" in details["what's on priya's plate?"], details


def test_an_incident_resolved_in_its_thread_asked_how_long_and_when_from_the_shell(lurker,
                                                                                tmp_path):
    """27 Nov, from outside: "Declaring SEV2: checkout is returning 502s …", then in its thread
    "Resolved. Error rate back to baseline. Postmortem Thursday." "how long did the checkout
    incident last?" listed the declaration and the cause by their day (the short "Resolved."
    was dropped, so nothing said it ended), "when was the checkout SEV2 resolved?" answered
    with when it was declared, "when is the postmortem?" was declined, and "who was IC for the
    checkout incident?" was declined with "maya is IC" shown under it. A resolution's own date
    ("Thursday") is not when it was resolved."""
    said = asked_after(lurker, tmp_path, threaded(
        ("maya", "2026-11-24T14:03:00Z", "i1", None,
         "Declaring SEV2: checkout is returning 502s for ~20% of requests. I'm IC, @tom on "
         "comms."),
        ("tom", "2026-11-24T14:10:00Z", "i2", "i1", "Status page updated."),
        ("lee", "2026-11-24T14:31:00Z", "i3", "i1",
         "Found it: the new connection pool limit on checkout-api. Rolling back."),
        ("maya", "2026-11-24T15:12:00Z", "i4", "i1",
         "Resolved. Error rate back to baseline. Postmortem Thursday."),
        ("lee", "2026-11-25T09:00:00Z", "i5", None, "Search is slow for some users, looking."),
        ("lee", "2026-11-25T09:20:00Z", "i6", "i5", "Resolved, it was a cold cache.")),
        "2026-11-26T10:00:00Z", "how long did the checkout incident last?",
        "when was the checkout SEV2 resolved?", "when was the checkout incident declared?",
        "when is the postmortem?", "who was IC for the checkout incident?")
    lasted, resolved, declared, postmortem, commander = said
    assert lasted.startswith("1 hour 9 minutes: from 14:03 UTC on 24 November 2026 (Declaring "
                             "SEV2: checkout is returning 502s"), said
    assert "to 15:12 UTC (Resolved. Error rate back to baseline." in lasted, said
    assert resolved.startswith("15:12 UTC on 24 November 2026, 1 hour 9 minutes after it "
                               "began"), said
    assert declared.startswith("14:03 UTC on 24 November 2026: Declaring SEV2"), said
    assert "26 November 2026" in postmortem and "Postmortem Thursday" in postmortem, said
    assert commander.startswith("maya is IC, @tom on comms."), said


def test_a_partner_channel_s_thread_answers_and_short_approvals_from_the_shell(lurker, tmp_path):
    """27 Nov, from outside: "we're sunsetting the v1 webhooks API on January 31", then in its
    thread "Do we have a list of who still calls it?" and "Yes, 14 accounts." "how many
    accounts still use v1 webhooks?" was declined: the answer names no "v1" (its thread does),
    and a question naming a version is answered only by what carries it. And "Globex asked to
    extend their v1 webhooks deadline to March 1. Approved by Sam.": the approval, three words,
    was dropped, so "who approved the Globex extension?" was declined."""
    said = asked_after(lurker, tmp_path, threaded(
        ("dana", "2026-11-16T09:12:00Z", "a1", None,
         "Heads up: we're sunsetting the v1 webhooks API on January 31. Customers got the "
         "email today."),
        ("raj", "2026-11-16T09:20:00Z", "a2", "a1", "Do we have a list of who still calls it?"),
        ("dana", "2026-11-16T09:25:00Z", "a3", "a1",
         "Yes, 14 accounts. Biggest are Acme and Globex."),
        ("dana", "2026-11-20T16:00:00Z", "a7", None,
         "Globex asked to extend their v1 webhooks deadline to March 1. Approved by Sam."),
        ("raj", "2026-11-21T10:00:00Z", "a8", None, "The v2 webhooks API has 230 accounts.")),
        "2026-11-25T10:00:00Z", "how many accounts still use v1 webhooks?",
        "who approved the Globex extension?")
    accounts, approved = said
    assert accounts.startswith("Do we have a list of who still calls it? dana: Yes, 14 "
                               "accounts."), said
    assert "230" not in accounts, said
    assert approved.startswith("Globex asked to extend their v1 webhooks deadline to March 1 "
                               "[2027-03-01]. Approved by Sam."), said


def test_an_agent_s_notes_asked_which_tool_and_how_from_the_shell(lurker):
    """27 Nov, from outside: a coding agent and a review bot write notes with `lurker remember`.
    "what logging library do we use?" was declined with "new Python services log with
    structlog" stored (a note names the tool, never its kind), a rule was said beside it for
    sharing "use", and "how do I get the payments secrets?" led with "Latest: Retries in
    payments-api now use our own retry helper": two notes sharing the word "use" were read as
    one value changed."""
    for note in ("Repo convention: new Python services log with structlog, never print().",
                 "In payments-api, retries use tenacity with exponential backoff capped at 30s.",
                 "Code review bot: PR #512 was approved after switching from requests to httpx.",
                 "Never commit .env files; use the vault CLI (vault kv get secret/payments) "
                 "instead.",
                 "Retries in payments-api now use our own retry helper (lib/retry.py), tenacity "
                 "was removed."):
        lurker("remember", note, "--profile", "eng")
    said = {q: lurker("recall", q, "--profile", "eng").stdout.split("\n")[0] for q in (
        "what logging library do we use?", "which http client do we use?",
        "how do I get the payments secrets?", "do we use tenacity?")}
    logging, http, secrets, tenacity = said.values()
    assert logging == "Repo convention: new Python services log with structlog, never " \
                      f"print(). ({logging.rsplit('(', 1)[1]}", said
    assert http.startswith("Code review bot: PR #512 was approved after switching from "
                           "requests to httpx."), said
    assert secrets.startswith("Never commit .env files; use the vault CLI"), said
    assert "Latest" not in secrets, said
    assert tenacity.startswith("Latest: Retries in payments-api now use our own retry helper"), \
        said


def test_a_move_and_two_dates_in_one_message_from_the_shell(lurker, tmp_path):
    """27 Nov, from outside: "The vendor call got moved from Thursday to next Tuesday at 3pm."
    was answered "26 November" for "when is the vendor call?" (the day it left, read as one
    range with the new one), and "Two weeks ago we signed Initech; kickoff is in 10 days." was
    answered with the kickoff's day for "when did we sign Initech?" (the nearest date to
    "Initech", counted through the other's label)."""
    said = asked_after(lurker, tmp_path, chat(
        ("raj", "2026-11-25T10:00:00Z",
         "The vendor call got moved from Thursday to next Tuesday at 3pm."),
        ("dana", "2026-11-25T11:00:00Z", "Two weeks ago we signed Initech; kickoff is in 10 "
         "days.")),
        "2026-11-27T10:00:00Z", "when is the vendor call?", "when did we sign Initech?",
        "when is the Initech kickoff?")
    call, signed, kickoff = said
    assert call.startswith("1 December 2026: The vendor call got moved from Thursday"), said
    assert signed.startswith("the week of 9 November 2026: Two weeks ago"), said
    assert kickoff.startswith("5 December 2026: "), said


def test_a_rota_s_handover_asked_for_a_day_from_the_shell(lurker, tmp_path):
    """27 Nov, from outside: "I'm on call from tomorrow through Sunday, then @sam." (lee, on
    Tuesday). "who is on call on Monday?" led with the holiday Monday and the vendor call (the
    rota shares "call", not "Monday"); the one on call after lee's turn is the one named after
    "then", for the week after; during the turn, lee."""
    said = asked_after(lurker, tmp_path, chat(
        ("lee", "2026-11-24T16:00:00Z", "I'm on call from tomorrow through Sunday, then @sam."),
        ("raj", "2026-11-25T10:00:00Z",
         "The vendor call got moved from Thursday to next Tuesday at 3pm."),
        ("omar", "2026-11-26T08:00:00Z",
         "Reminder that Monday is a company holiday, no deploys that day.")),
        "2026-11-27T10:00:00Z", "who is on call on Monday?", "who is on call on Saturday?",
        "who is on call on Dec 20?")
    monday, saturday, later = said
    assert monday.startswith("@sam, on 30 November 2026: lee is on call from tomorrow through "
                             "Sunday"), said
    assert saturday.startswith("lee, on 28 November 2026: "), said
    assert "@sam" not in later.split(":")[0], said  # weeks after: the rota says nothing of it


def test_a_sales_channel_s_customers_named_once_a_message_from_the_shell(lurker, tmp_path):
    """27 Nov, from outside, a sales channel: each message names its customer once and then says
    "they" and "their" ("Globex renewal: $48k ARR … @carla is their AM going forward.", "Acme
    churned. They're moving to a competitor …", in Globex's thread "🎉 nice. Their contract
    renews on March 31 next year."). "who is Globex's account manager?", "why did Acme churn?"
    and "when does the Globex contract renew?" were declined ("Acme churned." was too short to
    keep, and the other sentences never name the customer), and "how much is the Globex
    contract worth?" was declined with "$48k ARR" in memory."""
    said = asked_after(lurker, tmp_path, threaded(
        ("nina", "2026-11-16T09:00:00Z", "s1", None,
         "Globex renewal: $48k ARR, up from $36k. Signed yesterday. @carla is their AM going "
         "forward."),
        ("carla", "2026-11-16T09:05:00Z", "s2", "s1",
         "🎉 nice. Their contract renews on March 31 next year."),
        ("ben", "2026-11-17T14:00:00Z", "s3", None,
         "Acme churned. They're moving to a competitor at the end of the month, citing the SSO "
         "issues."),
        ("nina", "2026-11-18T10:00:00Z", "s4", None,
         "Standup moves to 9 AM on Mondays. It was too early for the west coast.")),
        "2026-11-25T10:00:00Z", "who is Globex's account manager?", "why did Acme churn?",
        "when does the Globex contract renew?", "how much is the Globex contract worth?",
        "who is Initech's account manager?")
    manager, churn, renews, worth, initech = said
    assert manager.startswith("@carla is their AM going forward."), said
    assert "They're moving to a competitor at the end of the month" in churn, said
    assert renews.startswith("31 March 2027: Their contract renews on March 31"), said
    assert worth.startswith("Globex renewal: $48k ARR, up from $36k."), said
    assert initech.startswith("I don't have anything about that in memory."), said


def test_a_deal_s_update_and_its_next_step_from_the_shell(lurker, tmp_path):
    """27 Nov, from outside: "Initech wants a 15% discount to sign a 3-year deal.", then "Update:
    Initech accepted 12%, we meet them halfway. Contract goes out Monday." "what discount did
    Initech get?" answered 15% (the update says no "discount"), and "when does the Initech
    contract go out?" was declined ("Contract goes out Monday" names no Initech)."""
    said = asked_after(lurker, tmp_path, chat(
        ("ben", "2026-11-19T11:00:00Z",
         "Initech wants a 15% discount to sign a 3-year deal. I said we can do 10% max."),
        ("carla", "2026-11-20T15:00:00Z",
         "Update: Initech accepted 12%, we meet them halfway. Contract goes out Monday.")),
        "2026-11-25T10:00:00Z", "what discount did Initech get?",
        "when does the Initech contract go out?")
    discount, contract = said
    assert discount.startswith("Update: Initech accepted 12%"), said
    assert contract.startswith("23 November 2026: Contract goes out Monday"), said


def test_a_pr_merged_then_reverted_and_one_approved_from_the_shell(lurker, tmp_path):
    """27 Nov, from outside, an engineering channel with GitHub's notifications: "maya merged PR
    #482 …", later "Reverted #482, it caused double charges for ~30 customers.", then #490 and
    in its thread tom's "LGTM, approved. Ship it after the freeze lifts on Monday." "is PR 482
    in production?" answered with the merge alone ("PR 482" was no identifier, and the revert
    shares only "482"); "is #490 approved?" had lost "LGTM, approved." (too short alone)."""
    said = asked_after(lurker, tmp_path, threaded(
        ("GitHub", "2026-11-23T10:00:00Z", "g1", None,
         "maya merged PR #482: Add retries to the payments client (+120 −8)"),
        ("lee", "2026-11-23T15:00:00Z", "g3", None,
         "Reverted #482, it caused double charges for ~30 customers. Refunds are being issued "
         "by support."),
        ("maya", "2026-11-24T09:00:00Z", "g5", None,
         "Reopened the retries work as #490 with idempotency keys this time. Needs review from "
         "@tom."),
        ("tom", "2026-11-25T11:00:00Z", "g6", "g5",
         "LGTM, approved. Ship it after the freeze lifts on Monday.")),
        "2026-11-26T10:00:00Z", "is PR 482 in production?", "is #490 approved?",
        "is PR 483 in production?")
    in_prod, approved, other = said
    assert in_prod.startswith("Reverted #482, it caused double charges"), said
    # (a vote in the thread, the voter's, on what it votes on)
    assert approved.startswith("tom: LGTM, approved. Ship it after the freeze lifts on Monday"), \
        said
    assert "#482" not in other and "#490" not in other, said


def test_an_office_channel_s_short_notes_and_a_weekday_with_its_date_from_the_shell(lurker,
                                                                                   tmp_path):
    """27 Nov, from outside, HR and office notes: "Holiday party is Dec 18 at 6pm at The
    Foundry. RSVP by Dec 10. Plus-ones welcome." "when do I need to RSVP for the holiday
    party?" answered 18 December (the RSVP note named no party) and "can I bring a plus-one to
    the party?" was declined (too short, dropped). "Parking garage access cards need to be
    renewed by Friday, Dec 4." was labelled two days, this Friday and Dec 4, and answered
    "27 November"."""
    said = asked_after(lurker, tmp_path, chat(
        ("office", "2026-11-20T08:30:00Z", "Parking garage access cards need to be renewed by "
         "Friday, Dec 4. Bring your badge to reception."),
        ("hr", "2026-11-23T09:00:00Z",
         "Holiday party is Dec 18 at 6pm at The Foundry. RSVP by Dec 10. Plus-ones welcome.")),
        "2026-11-25T10:00:00Z", "when do I need to RSVP for the holiday party?",
        "when is the holiday party?", "can I bring a plus-one to the party?",
        "when do parking cards need to be renewed?")
    rsvp, party, plus_one, parking = said
    assert rsvp.startswith("10 December 2026: Holiday party is Dec 18"), said
    assert party.startswith("18 December 2026: Holiday party is Dec 18"), said
    assert "Plus-ones welcome." in plus_one, said
    assert parking.startswith("4 December 2026: "), said


def test_a_roadmap_that_slipped_asked_still_from_the_shell(lurker, tmp_path):
    """27 Nov, from outside, a product channel: "Q1 priorities: SSO, audit logs, usage-based
    billing.", then "Audit logs slipped to Q2, legal review takes longer than expected." and
    "We're hiring 2 backend engineers and 1 SRE in Q1. Headcount approved today." "are audit
    logs still in Q1?" answered with the Q1 list (the slip is dated Q2, outside the quarter
    asked, and lacks "Q1"); "is SSO still in Q1?" led "Latest: We're hiring … Headcount
    approved" (it shared "Q1" and said "approved"); "is usage-based billing still in Q1?" read
    "based" as a past tense and looked in last year's Q1."""
    said = asked_after(lurker, tmp_path, chat(
        ("pm", "2026-11-16T10:00:00Z",
         "Q1 priorities: SSO, audit logs, usage-based billing. Mobile app is deprioritized."),
        ("pm", "2026-11-20T10:00:00Z",
         "Audit logs slipped to Q2, legal review takes longer than expected."),
        ("cto", "2026-11-25T10:00:00Z",
         "We're hiring 2 backend engineers and 1 SRE in Q1. Headcount approved today.")),
        "2026-11-26T10:00:00Z", "are audit logs still in Q1?", "is SSO still in Q1?",
        "is usage-based billing still in Q1?")
    audit, sso, billing = said
    assert audit.startswith("Latest: Audit logs slipped to Q2"), said
    for answer in (sso, billing):
        assert answer.startswith("Q1 [Q1 2027] priorities: SSO, audit logs"), said


def test_a_security_channel_s_leaked_key_and_a_cve_from_the_shell(lurker, tmp_path):
    """27 Nov (sixth session), from outside, a security channel: an AWS secret pasted after
    "someone committed this to the public repo:" with no key id before it was stored and quoted
    back ("what was the key that leaked?"); "are we affected by CVE-2026-41021?" was declined
    (a CVE's two numbers were no identifier, and the advisory was replaced by the bump); "is
    SEC-212 done?" said "2.11.9 — bumped from CVE-2026-41021"."""
    secret = "q8Jd0Lx2bV/9sPzT4mWkRyE7nHcA3uGfYt6iNo1K"
    said = asked_after(lurker, tmp_path, chat(
        ("nina", "2026-11-16T09:02:00Z",
         "Heads up: CVE-2026-41021 in libxml2 affects our ingest service, CVSS 8.1. We're on "
         "2.11.4, fixed in 2.11.9."),
        ("omar", "2026-11-16T09:10:00Z", "I'll bump it today. Ticket SEC-212."),
        ("nina", "2026-11-16T15:30:00Z",
         f"someone committed this to the public repo: {secret} rotating now"),
        ("nina", "2026-11-16T15:48:00Z", "Key rotated and the old one revoked."),
        ("omar", "2026-11-17T10:05:00Z",
         "libxml2 bumped to 2.11.9 and deployed to prod. SEC-212 closed.")),
        "2026-11-23T09:00:00Z", "are we affected by CVE-2026-41021?", "is SEC-212 done?",
        "what was the key that leaked?")
    cve, ticket, key = said
    assert cve.startswith("libxml2 bumped to 2.11.9") and "Before that: Heads up: CVE-2026-41021" \
        in cve, said
    # (since 6 Dec's nineteenth session "SEC-212 closed." is a memory of its own, and the
    # answer: a short report that a ticket is closed was too short to keep)
    assert ticket.startswith(("libxml2 bumped to 2.11.9", "SEC-212 closed.")) \
        and "bumped from" not in ticket, said
    whole = lurker("recall", "what was the key that leaked?", "--now", "2026-11-23T09:00:00Z",
                   "--json").stdout
    assert secret not in key and secret not in whole and "[REDACTED:credential]" in whole
    export = tmp_path / "export.jsonl"
    lurker("export", "--out", str(export), "--audit")
    listed = lurker("list", "--all", "--json").stdout
    assert secret not in export.read_text() and secret not in listed
    assert secret[:12] not in export.read_text()


def test_a_metrics_channel_asked_about_past_weeks_and_months_from_the_shell(lurker, tmp_path):
    """27 Nov (sixth session), from outside, a metrics channel of weekly numbers: "how many
    signups did we get last week?" and "what was DAU two weeks ago?" were declined (this week's
    numbers had replaced last week's, and the message of last week folded into its other
    sentence's memory); "what was churn in October?" was declined ("Churn for October …",
    said in November: "for October" was no date)."""
    said = asked_after(lurker, tmp_path, chat(
        ("lena", "2026-11-09T09:00:00Z",
         "Weekly numbers: DAU 12.4k, signups 830, trial-to-paid conversion 2.6%."),
        ("lena", "2026-11-16T09:00:00Z",
         "Weekly numbers: DAU 13.1k, signups 910, trial-to-paid conversion 2.1%. Conversion "
         "drop is from the new pricing page."),
        ("lena", "2026-11-18T14:00:00Z",
         "Churn for October came in at 3.4%, up from 2.9% in September."),
        ("lena", "2026-11-23T09:00:00Z",
         "Weekly numbers: DAU 13.6k, signups 1,020, conversion back to 2.5%.")),
        "2026-11-24T09:00:00Z", "how many signups did we get last week?",
        "what was DAU two weeks ago?", "what was churn in October?", "what's our DAU?")
    signups, dau_then, churn, dau = said
    assert "signups 910" in signups and "1,020" not in signups and "DAU 13.1k —" not in signups
    assert "DAU 12.4k" in dau_then, said
    assert churn.startswith("Churn for October [October 2026] came in at 3.4%"), said
    assert dau.startswith("DAU 13.6k — changed from 13.1k"), said


def test_an_offsite_moved_asked_where_and_who_leaves_early_from_the_shell(lurker, tmp_path):
    """27 Nov (sixth session), from outside, an offsite's channel: "where is the offsite?"
    after "offsite moved to March 10-12" answered "March 10-12 — changed from confirmed:
    Lisbon on 10 March 2027 to 12 March 2027" (a date for a place, and the new date as the day
    it changed); "I can't make March 5, leaving after lunch on the 4th" read "the 4th" as 4
    December."""
    said = asked_after(lurker, tmp_path, chat(
        ("dana", "2026-11-10T10:00:00Z",
         "Offsite is confirmed: Lisbon, March 3-5. Hotel is the Memmo Alfama."),
        ("rui", "2026-11-13T09:00:00Z", "I can't make March 5, leaving after lunch on the 4th."),
        ("dana", "2026-11-18T11:00:00Z",
         "Change of plan: offsite moved to March 10-12, the hotel had a double booking. Same "
         "hotel.")),
        "2026-11-24T09:00:00Z", "where is the offsite?", "why did the offsite move?",
        "who can't make the last day?")
    where, why, early = said
    assert "Before that: Offsite is confirmed: Lisbon" in where and "changed from" not in where
    assert why.startswith("Change of plan: offsite moved to March 10-12"), said
    assert "on the 4th [2027-03-04]" in early, said


def test_an_open_source_community_s_support_and_releases_from_the_shell(lurker, tmp_path):
    """27 Nov (sixth session), from outside, an open-source project's Discord: "why do I get
    ImportError cannot import name Session?" was answered with the user's own report, not the
    maintainer's reply to it ("Session moved to fastq.sessions in 2.3"); "what's the latest
    version?" added "Before that: Server rules: … with your version and OS"."""
    said = asked_after(lurker, tmp_path, chat(
        ("mod_anna", "2026-11-02T10:00:00Z",
         "Server rules: be kind, no self-promotion in #general, bug reports go in #bugs with "
         "your version and OS."),
        ("maint_li", "2026-11-05T18:00:00Z",
         "v2.3.0 is out! Highlights: async client, Python 3.13 support, dropped Python 3.8."),
        ("user_kofi", "2026-11-06T09:12:00Z",
         "after upgrading to 2.3.0 I get ImportError: cannot import name 'Session' from "
         "'fastq.client'"),
        ("maint_li", "2026-11-06T09:40:00Z",
         "Session moved to fastq.sessions in 2.3, the old import was deprecated in 2.1. We'll "
         "add a shim in 2.3.1."),
        ("maint_li", "2026-11-09T17:00:00Z",
         "v2.3.1 released with the Session shim and a fix for the retry loop on 429s.")),
        "2026-11-23T09:00:00Z", "why do I get ImportError cannot import name Session?",
        "what's the latest version?")
    why, latest = said
    assert "Session moved to fastq.sessions in 2.3" in why.split("Before that")[0], said
    assert latest.startswith("v2.3.1 released") and "Server rules" not in latest, said


def test_whose_shifts_a_pronoun_means_and_a_measure_that_came_down_from_the_shell(lurker,
                                                                                  tmp_path):
    """27 Nov (sixth session), from outside: "who covers Tom's on-call shifts?" after "Tom is
    out on paternity leave from Dec 1. Priya takes over his on-call shifts." was declined (whose
    shifts only the first sentence says); "are we meeting the checkout SLO?" answered with the
    old 420ms, not "After the cache fix checkout p95 is down to 240ms"."""
    said = asked_after(lurker, tmp_path, chat(
        ("maya", "2026-11-16T09:00:00Z",
         "Tom is out on paternity leave from Dec 1. Priya takes over his on-call shifts."),
        ("sre", "2026-11-10T09:00:00Z", "Checkout p95 latency is 420ms, SLO is 300ms."),
        ("sre", "2026-11-20T09:00:00Z", "After the cache fix checkout p95 is down to 240ms.")),
        "2026-11-23T09:00:00Z", "who covers Tom's on-call shifts?",
        "are we meeting the checkout SLO?")
    shifts, slo = said
    assert shifts.startswith("Priya takes over his on-call shifts"), said
    assert slo.startswith("Latest: After the cache fix checkout p95 is down to 240ms"), said


def test_a_routine_s_time_before_and_after_its_change_starts_from_the_shell(lurker, tmp_path):
    """27 Nov (sixth session), from outside, a team across time zones: "what time is standup?"
    was led by "correction: 3pm PT is 11pm UTC, yes, but that's midnight CET" (a release call's,
    sharing "CET"), and once that was fixed, answered with the week the change starts ("the
    week of 23 November 2026:"), no time. Asked before that week the routine stands and the
    change follows with its day; asked in it, the change leads."""
    lurker("ingest", write_jsonl(tmp_path / "tz.jsonl", chat(
        ("jo", "2026-11-16T08:00:00Z", "Standup is at 9:30 CET every weekday."),
        ("jo", "2026-11-18T08:00:00Z",
         "From next week standup moves to 10:00 CET, the US folks asked."),
        ("ana", "2026-11-19T09:00:00Z", "Release call today at 3pm PT / 11pm UTC."),
        ("ana", "2026-11-19T09:05:00Z",
         "correction: 3pm PT is 11pm UTC, yes, but that's midnight CET. Sorry EU folks."))),
        "--session", "s")
    before = first_lines(lurker, ("--now", "2026-11-20T09:00:00Z"), ("what time is standup?",))
    after = first_lines(lurker, ("--now", "2026-11-24T09:00:00Z"), ("what time is standup?",))
    assert before["what time is standup?"].startswith(
        "Standup is at 9:30 CET every weekday. (16 November 2026) From the week of 23 November "
        "2026: From next week [week of 2026-11-23] standup moves to 10:00 CET"), before
    assert after["what time is standup?"].startswith(
        "Latest: From next week [week of 2026-11-23] standup moves to 10:00 CET"), after
    assert "midnight" not in before["what time is standup?"] + after["what time is standup?"]


def test_who_is_out_this_week_from_the_shell(lurker, tmp_path):
    """27 Nov (sixth session), from outside, a team's time off: "who is out this week?" said
    "Nothing in memory is from this week" though lee wrote "OOO next Monday and Tuesday" the
    week before ("who is out" was no question of time away); and who says they are out comes
    before who says they are around after all."""
    said = asked_after(lurker, tmp_path, chat(
        ("sam", "2026-11-17T10:00:00Z", "I'm out Nov 30 to Dec 4, visiting family."),
        ("lee", "2026-11-18T10:00:00Z", "OOO next Monday and Tuesday for a dentist thing."),
        ("sam", "2026-11-20T11:00:00Z",
         "Change of plans, my trip is cancelled, I'm around next week after all.")),
        "2026-11-24T09:00:00Z", "who is out this week?")
    assert said[0].startswith("lee said: OOO next Monday [2026-11-23] and Tuesday"), said


def test_a_monthly_bill_asked_by_month_and_as_it_stands_from_the_shell(lurker, tmp_path):
    """27 Nov (sixth session), from outside, a finance channel posting each month's bill early
    the next: "what's our AWS bill?" led with August's $41,200 before October's, and "August AWS
    bill: $41,200" named no month ("August", a name too, was read as a date only after "in")
    so "what was the AWS bill in August?" found nothing said in August."""
    said = asked_after(lurker, tmp_path, chat(
        ("fin", "2026-09-03T09:00:00Z", "August AWS bill: $41,200."),
        ("fin", "2026-10-02T09:00:00Z",
         "September AWS bill: $44,900, up because of the new GPU nodes."),
        ("fin", "2026-11-03T09:00:00Z",
         "October AWS bill: $48,210. Savings plan kicks in next month."),
        ("fin", "2026-11-20T09:00:00Z", "Datadog renewal is $62k/year, up from $55k.")),
        "2026-11-24T09:00:00Z", "what's our AWS bill?", "what was the AWS bill in August?")
    now, august = said
    assert now.startswith("October [October 2026] AWS bill: $48,210"), said
    assert august.startswith("August [August 2026] AWS bill: $41,200"), said


def test_a_product_channel_that_changes_its_mind_from_the_shell(lurker, tmp_path):
    """27 Nov (sixth session), from outside, a product channel that changes its mind: "which
    payment provider are we using for billing?" was answered with the pricing ("payment" and
    "pay" are one stem, a sum came first), never with "nvm on Stripe Checkout … Going with
    Adyen."; "how much is the Business plan?" was declined ("Business" read as a name left
    "plan" the one word to share)."""
    said = asked_after(lurker, tmp_path, chat(
        ("eng", "2026-11-17T09:00:00Z",
         "We're going with Stripe Checkout for the new billing page."),
        ("eng", "2026-11-18T09:00:00Z",
         "nvm on Stripe Checkout, legal wants us on Adyen for EU. Going with Adyen."),
        ("pm", "2026-11-19T09:00:00Z", "Pricing: $12/seat/month for Pro, $25 for Business."),
        ("pm", "2026-11-20T09:00:00Z", "On second thought, Business is $29. Pro stays $12.")),
        "2026-11-24T09:00:00Z", "which payment provider are we using for billing?",
        "how much is the Business plan?")
    provider, business = said
    # ("Going with Adyen." is a memory of its own since 6 Dec, twenty-fifth session: the change
    # it makes is said plainly, "nvm on Stripe Checkout …" its message)
    assert provider.startswith("Adyen — changed from Stripe Checkout on 18 November 2026. Going "
                               "with Adyen."), said
    assert business.startswith("On second thought, Business is $29."), said


def test_a_deploy_channel_asked_when_first_and_how_many_from_the_shell(lurker, tmp_path):
    """27 Nov (sixth session), from outside, a deploy channel: "when did we first see the
    502s?" answered "Latest: Rolled back to 4.12.0, 502s gone. Before that: No date was given
    …"; "how many deploys did we do last week?" showed two of last week's three deploys (an
    answer shows two memories)."""
    said = asked_after(lurker, tmp_path, chat(
        ("ci", "2026-11-16T14:00:00Z", "Deployed api v4.12.0 to production."),
        ("ci", "2026-11-18T10:00:00Z", "Deployed api v4.12.1 to production."),
        ("sre", "2026-11-18T10:40:00Z", "Seeing 502s on checkout since the 4.12.1 deploy."),
        ("sre", "2026-11-18T11:05:00Z", "Rolled back to 4.12.0, 502s gone."),
        ("ci", "2026-11-20T16:00:00Z", "Deployed api v4.12.2 to production.")),
        "2026-11-24T09:00:00Z", "when did we first see the 502s?",
        "how many deploys did we do last week?")
    first, deploys = said
    assert first.startswith("18 November 2026: Seeing 502s on checkout since the 4.12.1 deploy"), \
        said
    assert deploys.startswith("In memory from last week: Deployed api v4.12.0"), said
    for version in ("v4.12.0", "v4.12.1", "v4.12.2"):
        assert f"Deployed api {version} to production" in deploys, said
    assert "Rolled back" not in deploys, said


def test_whether_someone_is_still_out_from_the_shell(lurker, tmp_path):
    """27 Nov (sixth session), from outside: "is sam still out next week?" after "I'm out Nov 30
    to Dec 4, visiting family." was declined ("still" between the name and "out" hid the
    question of time away); "is sam out next week?" was answered."""
    said = asked_after(lurker, tmp_path, chat(
        ("sam", "2026-11-17T10:00:00Z", "I'm out Nov 30 to Dec 4, visiting family.")),
        "2026-11-24T09:00:00Z", "is sam still out next week?", "is sam out next week?")
    still, out = said
    assert still.startswith("sam is out Nov 30 to Dec 4"), said
    assert out.startswith("sam is out Nov 30 to Dec 4"), said


ON_CALL_PAGED = chat(
    ("maya", "2026-11-16T09:02:00Z", "Handing over on-call to @ravi for this week."),
    ("ravi", "2026-11-17T02:14:00Z",
     "Paged at 2am: checkout-api 5xx spike. Root cause was an expired TLS cert on the internal "
     "LB. Renewed it, 5xx back to zero by 02:40."),
    ("maya", "2026-11-19T16:45:00Z",
     "FYI the runbook for the LB cert lives at https://wiki.example.com/runbooks/lb-cert"),
    ("ravi", "2026-11-20T08:00:00Z", "Quiet night. No pages since Tuesday."))


def test_an_on_call_channel_asked_when_what_caused_and_where_from_the_shell(lurker, tmp_path):
    """27 Nov (seventh session), from outside, an on-call channel: "No pages since Tuesday"
    (said on Friday 20 Nov) was dated the Tuesday after, 24 November, and answered "when did
    ravi get paged?"; "what caused the checkout 5xx spike?" gave the spike without the root
    cause said after it in the same message; "where is the LB cert runbook?" led with the root
    cause (two of its words) over the runbook's link."""
    said = asked_after(lurker, tmp_path, ON_CALL_PAGED, "2026-11-24T10:00:00Z",
                       "when did ravi get paged?", "what caused the checkout 5xx spike?",
                       "where is the LB cert runbook?")
    paged, cause, runbook = said
    assert "24 November" not in paged and "No pages" not in paged, said
    # (the day it was said, said as such: "No date was given; it was said on 17 November 2026"
    # until 7 Dec, twenty-ninth session)
    assert "17 November 2026, when it was reported: Paged at 2am: checkout-api 5xx spike." \
        in paged, said
    assert cause.startswith("Root cause was an expired TLS cert on the internal LB."), said
    assert runbook.startswith("FYI the runbook for the LB cert lives at https://wiki.example.com"), \
        said
    listed = lurker("list", "--all", "--json").stdout
    assert "No pages since Tuesday [2026-11-17]" in listed, listed


def test_a_hiring_channel_asked_what_happened_and_a_reqs_budget_from_the_shell(lurker, tmp_path):
    """27 Nov (seventh session), from outside, a hiring channel: "what happened with Alex?" was
    declined ("happen" was a word to share, though "what did Alex do?" was answered), and
    "what's the budget for the senior backend role?" gave the req without its budget ("Budget is
    up to $185k base." said after it in the same message named nothing of the role)."""
    said = asked_after(lurker, tmp_path, chat(
        ("lena", "2026-11-09T10:00:00Z",
         "Opening a req for a senior backend engineer, REQ-114. Budget is up to $185k base."),
        ("omar", "2026-11-10T14:00:00Z",
         "Candidate pipeline for REQ-114: Jordan Lee (onsite Nov 18), Priya Nair (phone screen "
         "Nov 12), Alex Kim (take-home due Nov 14)."),
        ("lena", "2026-11-14T09:00:00Z", "Alex withdrew, accepted another offer.")),
        "2026-11-26T10:00:00Z", "what happened with Alex?", "what happened to alex?",
        "what's the budget for the senior backend role?", "what happened with Morgan?")
    alex, alex_lower, budget, morgan = said
    assert alex.startswith("Alex withdrew, accepted another offer."), said
    assert alex_lower.startswith("Alex withdrew, accepted another offer."), said
    assert budget.startswith("Budget is up to $185k base."), said
    assert morgan.startswith("I don't have anything about that in memory."), said


def test_a_review_channel_asked_of_a_pr_by_its_number_from_the_shell(lurker, tmp_path):
    """27 Nov (seventh session), from outside, a code-review channel: "when will 530 land?" was
    answered by "Will re-land next week with capped jitter", said of #512 (a bare number was
    no identifier), and "what's blocking #530?" by "Nobody has said they are blocked in the
    last two months" (the standups' blockers, asked of a PR)."""
    said = asked_after(lurker, tmp_path, chat(
        ("reviewbot", "2026-11-18T10:00:00Z",
         'PR #530 "Drop Python 3.9 support" by @lee: 1 blocking comment. Our Helm chart still '
         "pins the 3.9 base image."),
        ("lee", "2026-11-19T15:00:00Z",
         "#530 on hold until the platform team moves the base image, probably early December."),
        ("omar", "2026-11-20T10:00:00Z",
         "Heads up: we're reverting #512, the jitter change doubled p99 latency on the sender. "
         "Will re-land next week with capped jitter.")),
        "2026-11-24T10:00:00Z", "when will 530 land?", "what's blocking #530?",
        "what's blocking the base image?", "who is blocked?", "when will 512 land?")
    land, blocking, image, who, other = said
    assert "#530 on hold until the platform team moves the base image" in land, said
    assert "re-land" not in land, said
    assert blocking.startswith("#530 on hold until the platform team moves the base image"), said
    assert "Nobody has said" not in image, said
    assert who.startswith("Nobody has said they are blocked"), said
    assert "Will re-land next week" in other, said


def test_a_place_named_in_someones_own_words_is_no_other_person_from_the_shell(lurker, tmp_path):
    """27 Nov (seventh session), from outside: "what flight is kai on?" after kai's "Flying to
    Berlin for the conference on Dec 2, flight LH 2041 lands 14:05." was declined: "Berlin"
    read as someone else's name, so the memory was not kai's. A person named after "with"
    still is someone else."""
    said = asked_after(lurker, tmp_path, chat(
        ("kai", "2026-11-18T10:00:00Z",
         "Flying to Berlin for the conference on Dec 2, flight LH 2041 lands 14:05."),
        ("sam", "2026-11-18T11:00:00Z", "Sharing a cab with Marta from the airport.")),
        "2026-11-25T09:00:00Z", "what flight is kai on?", "who is kai sharing a cab with?")
    flight, cab = said
    assert flight.startswith("Flying to Berlin for the conference on Dec 2"), said
    assert cab.startswith("I don't have anything about that in memory."), said


def test_an_rfc_and_its_review_asked_owner_cost_and_instance_type_from_the_shell(lurker, tmp_path):
    """27 Nov (seventh session), from outside, an architecture channel's RFC and its review:
    "who owns RFC-42?" was answered with who spoke of it, not "Owner: nina." ("owns" and
    "owner" were two words); "how much will the ES cluster cost?" was declined ("ES" was not
    Elasticsearch); "what instance type are we using?" was declined (the decision names
    "r6i.2xlarge", no word of the question)."""
    said = asked_after(lurker, tmp_path, chat(
        ("nina", "2026-11-10T10:00:00Z",
         "RFC-42: Moving search from Postgres full-text to Elasticsearch. Motivation: p95 search "
         "latency is 1.8s on the messages table. Cost estimate: about $2,100/month. Owner: "
         "nina."),
        ("raj", "2026-11-12T15:00:00Z", "On RFC-42: +1 overall."),
        ("lena", "2026-11-19T11:00:00Z", "RFC-42 approved in arch review. Decisions: no Postgres "
         "fallback, r6i.2xlarge nodes, dual-write for 10 days instead of two weeks.")),
        "2026-11-24T10:00:00Z", "who owns RFC-42?", "how much will the ES cluster cost?",
        "what instance type are we using?", "why are we moving search to Elasticsearch?")
    owner, cost, instance, why = said
    # (the RFC's motivation, not its title, which says what: it led)
    assert why.startswith("Motivation: p95 search latency is 1.8s"), said
    # (a field carries its note's first sentence: whose RFC nina owns, 28 Nov)
    assert owner.startswith("RFC-42: Moving search from Postgres full-text to Elasticsearch. "
                            "Owner: nina."), said
    assert cost.startswith("Cost estimate: about $2,100/month."), said
    assert instance.startswith("Decisions: no Postgres fallback, r6i.2xlarge nodes"), said


def test_what_a_customer_asked_for_is_what_was_said_of_it_from_the_shell(lurker, tmp_path):
    """27 Nov (seventh session), from outside, a support channel: "what did Globex ask for?" was
    declined: "ask" read it as a question of Globex's own words, and no message is Globex's.
    What someone who speaks here said is still theirs alone."""
    said = asked_after(lurker, tmp_path, chat(
        ("nina", "2026-11-16T09:00:00Z",
         "Acme wants SSO with Okta by end of December, otherwise they won't renew."),
        ("nina", "2026-11-16T09:30:00Z",
         "Globex asked for a data export of all their invoices since 2023."),
        ("omar", "2026-11-17T10:00:00Z", "Can we ask legal about the export format?")),
        "2026-11-24T10:00:00Z", "what did Globex ask for?", "what did omar ask?",
        "what did lee ask for?")
    globex, omar, lee = said
    assert globex.startswith("Globex asked for a data export of all their invoices"), said
    assert "Globex" not in omar and "legal" in omar, said
    assert lee.startswith("I don't have anything"), said


def test_questions_typed_the_way_chat_is_typed_from_the_shell(lurker, tmp_path):
    """27 Nov (seventh session), from outside: "wat time is standup" and "whats in prod rn?"
    were declined (their words were "wat" and "rn"), and "when did 4.13 go live" after
    "🚀 v4.13 is live in prod! 🎉" said no date was given."""
    said = asked_after(lurker, tmp_path, chat(
        ("lee", "2026-11-17T09:00:00Z", "Standup moves to 9:30 starting Monday."),
        ("omar", "2026-11-19T15:00:00Z", "🚀 v4.13 is live in prod! 🎉")),
        "2026-11-24T10:00:00Z", "wat time is standup", "whats in prod rn?",
        "when did 4.13 go live")
    standup, prod, live = said
    assert "Standup moves to 9:30" in standup, said
    assert prod.startswith("🚀 v4.13 is live in prod!"), said
    assert live.startswith("19 November 2026, when it was reported: 🚀 v4.13 is live in prod!"), \
        said


def test_what_was_done_in_part_of_a_month_from_the_shell(lurker, tmp_path):
    """27 Nov (seventh session), from outside, a deploy channel: "what did we deploy in the
    first half of November?" and "… in early November?" were declined: the span's words
    ("first", "half", "early") were words a memory had to share."""
    said = asked_after(lurker, tmp_path, chat(
        ("ci", "2026-11-03T10:00:00Z", "Deployed api v4.10.0 to production."),
        ("ci", "2026-11-12T10:00:00Z", "Deployed api v4.11.0 to production."),
        ("ci", "2026-11-19T10:00:00Z", "Deployed api v4.12.0 to production.")),
        "2026-11-24T10:00:00Z", "what did we deploy in the first half of November?",
        "what did we deploy in early November?")
    half, early = said
    assert half.startswith("Deployed api v4.10.0 to production. (3 November 2026) Deployed api "
                           "v4.11.0 to production. (12 November 2026)"), said
    assert "v4.12.0" not in half, said
    assert early.startswith("Deployed api v4.10.0 to production. (3 November 2026)"), said
    assert "v4.11.0" not in early, said


def test_a_team_writing_chinese_and_japanese_is_answered_from_its_messages_from_the_shell(
        lurker, tmp_path):
    """27 Nov (seventh session), from outside, a team that writes Chinese and Japanese: every
    question was declined, though the messages were found (their words, written without
    spaces, were no words to the answerer). A question about something never said still is."""
    said = asked_after(lurker, tmp_path, chat(
        ("yuki", "2026-11-16T10:00:00Z", "来週の金曜日にリリースします。バージョンは4.13です。"),
        ("li", "2026-11-17T10:00:00Z", "数据库迁移定在12月1日，负责人是王伟。")),
        "2026-11-24T10:00:00Z", "リリースはいつですか？", "谁负责数据库迁移？", "预算是多少？")
    release, owner, budget = said
    # (from their memories since the eighth session: a sentence without spaces was one word,
    # too short to keep, and the answers quoted the messages)
    assert release.startswith("来週の金曜日にリリースします。"), said
    assert owner.startswith("数据库迁移定在12月1日，负责人是王伟。"), said
    assert budget.startswith("I don't have anything about that in memory."), said


def test_a_sprint_channel_asked_who_how_far_and_what_is_open_from_the_shell(lurker, tmp_path):
    """27 Nov (seventh session), from outside, a sprint's channel: "who is doing SSO for Acme?"
    led with the blocker note (it names Okta, read as someone) over "dana will take SSO for
    Acme"; "how far along is the billing v2 doc?" led with the offer to start it, not the
    review's "at 60%"; "what tasks are still open?" left out "I can start the billing v2 design
    doc" and, once it was work, called it done because the review said "CSV fix done"."""
    rows = chat(
        ("dana", "2026-11-16T09:10:00Z", "I'll take SSO for Acme."),
        ("omar", "2026-11-16T09:12:00Z", "I'll take the CSV export fix."),
        ("lee", "2026-11-16T09:15:00Z", "I can start the billing v2 design doc."),
        ("omar", "2026-11-18T14:00:00Z", "CSV export fix merged."),
        ("dana", "2026-11-20T17:00:00Z",
         "SSO for Acme is blocked on Acme's IT sending the Okta metadata."),
        ("pm", "2026-11-23T09:00:00Z",
         "Sprint 48 review: CSV fix done, SSO slipped to sprint 49, billing v2 doc at 60%."))
    said = asked_after(lurker, tmp_path, rows, "2026-11-24T10:00:00Z",
                       "who is doing SSO for Acme?", "how far along is the billing v2 doc?")
    who, far = said
    assert who.startswith("dana will take SSO for Acme."), said
    assert far.startswith("Sprint 48 review: CSV fix done, SSO slipped to sprint 49, billing v2 "
                          "doc at 60%."), said
    open_work = lurker("recall", "what tasks are still open?", "--now",
                       "2026-11-24T10:00:00Z").stdout
    still, done = open_work.split("Done:")[0], open_work.split("Done:")[1].split("sources:")[0]
    assert "lee can start the billing v2 design doc" in still, open_work
    assert "dana will take SSO for Acme" in still, open_work
    assert "omar will take the CSV export fix" in done and "billing" not in done, open_work


def test_a_settings_channel_asked_what_changed_and_a_later_value_from_the_shell(lurker, tmp_path):
    """27 Nov (seventh session), from outside: "what's the rate limit for free plans?" after
    "Raised the rate limit to 500/min for paid plans, free stays at 300" was answered "500/min
    for paid plans — raised from 300 …"; "what changed last week?" showed one change of the
    week's three (the one that said "changed")."""
    said = asked_after(lurker, tmp_path, chat(
        ("maya", "2026-11-10T10:00:00Z", "Rate limit is 300 requests per minute for all plans."),
        ("maya", "2026-11-17T10:00:00Z",
         "Raised the rate limit to 500/min for paid plans, free stays at 300."),
        ("lee", "2026-11-18T10:00:00Z", "Session timeout changed from 30 to 60 minutes."),
        ("lee", "2026-11-20T10:00:00Z",
         "Reverted the session timeout back to 30 minutes, 60 broke the SSO refresh.")),
        "2026-11-24T10:00:00Z", "what's the rate limit for free plans?",
        "what's the rate limit for paid plans?", "what changed last week?")
    free, paid, changed = said
    assert free.startswith("Raised the rate limit to 500/min for paid plans, free stays at 300"), \
        said
    assert paid.startswith("500/min for paid plans — raised from 300"), said
    assert changed.startswith("In memory from last week: Raised the rate limit"), said
    assert "Session timeout changed from 30 to 60" in changed and "Reverted" in changed, said
    assert "Rate limit is 300 requests" not in changed, said


def test_a_pager_alert_resolved_with_less_text_and_its_cause_from_the_shell(lurker, tmp_path):
    """27 Nov (seventh session), from outside, a payments incident: PagerDuty resolved with less
    than it fired with ("(5xx > 5%)" left out), so "how long did the payments outage last?"
    listed both alerts; "what caused the payments-api errors?" led with them too ("payments"
    is a word of paying: the sums came first)."""
    said = asked_after(lurker, tmp_path, chat(
        ("pagerduty", "2026-11-21T03:12:00Z",
         "TRIGGERED: High error rate on payments-api (5xx > 5%) #PD-8812"),
        ("sre", "2026-11-21T03:40:00Z",
         "Found it: the webhook signing secret was rotated yesterday but payments-api still has "
         "the old one. Updated the secret in vault and restarted."),
        ("pagerduty", "2026-11-21T03:52:00Z", "RESOLVED: High error rate on payments-api #PD-8812"),
        ("pagerduty", "2026-11-22T05:00:00Z", "TRIGGERED: Disk full on db-2 #PD-8820"),
        ("pagerduty", "2026-11-22T06:30:00Z", "RESOLVED: Disk almost full on db-3 #PD-8833")),
        "2026-11-24T10:00:00Z", "how long did the payments outage last?",
        "what caused the payments-api errors?", "how long was db-2's disk full?")
    lasted, cause, disk = said
    assert lasted.startswith("40 minutes: from 03:12 UTC on 21 November 2026"), said
    assert cause.startswith("Found it: the webhook signing secret was rotated yesterday"), said
    assert not disk.startswith(("90 minutes", "1 hour")), said  # another alert's resolution


def test_whether_anyone_mentioned_something_from_the_shell(lurker, tmp_path):
    """27 Nov (seventh session), from outside: "did anyone mention SOC2?" and "has anyone
    talked about the audit?" were declined ("anyone" and "mention" were words to share);
    something never said still is."""
    said = asked_after(lurker, tmp_path, chat(
        ("lena", "2026-11-18T10:00:00Z", "Reminder: the SOC2 audit evidence is due Dec 5.")),
        "2026-11-24T10:00:00Z", "did anyone mention SOC2?", "has anyone talked about the audit?",
        "did anyone mention Kubernetes?")
    soc2, audit, k8s = said
    assert soc2.startswith("Reminder: the SOC2 audit evidence is due Dec 5"), said
    assert audit.startswith("Reminder: the SOC2 audit evidence is due Dec 5"), said
    assert k8s.startswith("I don't have anything about that in memory."), said


def test_a_thread_that_moves_the_retro_and_approves_a_pr_from_the_shell(lurker, tmp_path):
    """27 Nov (seventh session), from outside: "Ok, retro moves to Thursday 15:00 starting next
    week." (said on Tuesday 17 Nov) was dated that week's Thursday, 19 November; "is #541
    approved?" was answered with the request for review, not the thread's "Approved, one nit
    about naming" (the PR's number is in the thread's opening only)."""
    said = asked_after(lurker, tmp_path, threaded(
        ("maya", "2026-11-17T10:00:00Z", "m1", None, "Should we move the weekly retro to "
         "Thursdays?"),
        ("maya", "2026-11-17T11:00:00Z", "m4", "m1",
         "Ok, retro moves to Thursday 15:00 starting next week."),
        ("sam", "2026-11-18T09:00:00Z", "m5", None,
         "Can someone review my PR for the retry budget? #541"),
        ("dana", "2026-11-18T12:00:00Z", "m7", "m5", "Approved, one nit about naming")),
        "2026-11-24T10:00:00Z", "when is the retro?", "is #541 approved?")
    retro, approved = said
    assert retro.startswith("26 November 2026:"), said
    assert approved.startswith("Approved, one nit about naming"), said


def test_a_decision_about_a_kind_of_tool_from_the_shell(lurker, tmp_path):
    """27 Nov (seventh session), from outside: "what did we decide about CI?" was declined
    ("Decision: we move to GitHub Actions …" names no word of it), and a reply that says
    "Decision:" itself was kept as "Decision: Decision: …"."""
    said = asked_after(lurker, tmp_path, threaded(
        ("maya", "2026-11-10T10:00:00Z", "d1", None,
         "Proposal: move from Jenkins to GitHub Actions. Thoughts?"),
        ("tom", "2026-11-10T10:30:00Z", "d2", "d1", "I'm worried about the macOS runners cost."),
        ("maya", "2026-11-12T09:00:00Z", "d4", "d1", "Decision: we move to GitHub Actions in Q1, "
         "self-hosted macOS runners, Jenkins off by March 31.")),
        "2026-11-24T10:00:00Z", "what did we decide about CI?", "what did we decide about Jenkins?")
    ci, jenkins = said
    assert ci.startswith("Decision: we move to GitHub Actions in Q1"), said
    assert jenkins.startswith("Decision: we move to GitHub Actions in Q1"), said
    assert "Decision: Decision:" not in lurker("list", "--all", "--json").stdout


def test_the_days_of_a_holidays_week_from_the_shell(lurker, tmp_path):
    """27 Nov (seventh session), from outside: "the office is closed Thursday and Friday for
    Thanksgiving." said on Monday 16 Nov was dated 19 and 20 November, so "is the office open on
    Friday?" asked on the 24th said nothing was about that Friday."""
    said = asked_after(lurker, tmp_path, chat(
        ("maya", "2026-11-16T10:00:00Z",
         "Heads up: the office is closed Thursday and Friday for Thanksgiving.")),
        "2026-11-24T10:00:00Z", "is the office open on Friday?")
    assert said[0].startswith("Heads up: the office is closed Thursday [2026-11-26] and Friday "
                              "[2026-11-27] for Thanksgiving"), said


def test_who_joined_recently_from_the_shell(lurker, tmp_path):
    """27 Nov (seventh session), from outside: "who joined recently?" was declined ("Welcome
    @kira, our new SRE!" says so in none of its words)."""
    said = asked_after(lurker, tmp_path, chat(
        ("lena", "2026-11-20T10:00:00Z",
         "Welcome @kira, our new SRE! She starts Monday and will shadow ravi on call."),
        ("sam", "2026-11-18T10:00:00Z", "The staging cluster is back to 3 nodes.")),
        "2026-11-24T10:00:00Z", "who joined recently?", "any new hires?")
    joined, hires = said
    assert joined.startswith("Welcome @kira, our new SRE!"), said
    assert hires.startswith("Welcome @kira, our new SRE!"), said


def test_what_has_not_happened_since_a_day_answers_no_when_question_from_the_shell(lurker,
                                                                                   tmp_path):
    """27 Nov (seventh session): "haven't been paged since the 17th" is nothing since a day, as
    "No pages since Tuesday" is ("n't" after a word was never read so)."""
    said = asked_after(lurker, tmp_path, chat(
        ("ravi", "2026-11-17T02:14:00Z", "Paged at 2am: checkout-api 5xx spike."),
        ("ravi", "2026-11-20T08:00:00Z", "Quiet week, haven't been paged since the 17th.")),
        "2026-11-24T10:00:00Z", "when did ravi get paged?")
    assert "haven't" not in said[0] and "Paged at 2am: checkout-api 5xx spike." in said[0], said


PLANNING = chat(
    ("maya", "2026-11-16T09:05:00Z", "Code freeze is between Dec 14 and Dec 18, no deploys then."),
    ("maya", "2026-11-17T10:00:00Z",
     "Office is closed Friday Dec 25 for Christmas and Jan 1 for New Year."),
    ("nina", "2026-11-24T09:30:00Z",
     "Dec 7-11 is the security training week, everyone please block your calendars."),
    ("maya", "2026-11-25T08:45:00Z", "Offsite is the week of Jan 11 in Lisbon."),
    ("nina", "2026-11-25T10:00:00Z", "The analytics contract renews on the 3rd."),
    ("sam", "2026-11-26T13:00:00Z", "Load test results are in, all green."),
    ("sam", "2026-11-26T13:05:00Z", "Earlier this week I rotated the staging certs."))


def test_what_is_planned_for_a_month_lists_what_is_dated_in_it_from_the_shell(lurker, tmp_path):
    """27 Nov (eighth session): "anything scheduled next month?" was declined and "what's
    happening in December?" showed two of four — none of them said in December, so the date
    channel (messages said in the span) found none, and only those sharing words were read."""
    december = ["The analytics contract renews on the 3rd", "Dec 7-11", "Code freeze",
                "Office is closed Friday Dec 25"]
    said = asked_after(lurker, tmp_path, PLANNING, "2026-11-27T12:00:00Z",
                       "anything scheduled next month?", "what's happening in December?",
                       "what's on the calendar for December?", "what's planned for January?",
                       "what's coming up?", "anything planned?", "any training coming up?")
    for answer in said[:3]:
        assert answer.startswith("In memory for"), said
        at = [answer.find(part) for part in december]
        assert -1 not in at and at == sorted(at), said  # each, in the order of their dates
        assert "Offsite" not in answer and "Load test" not in answer, said
    assert "Offsite is the week of Jan 11" in said[3] and "Code freeze" not in said[3], said
    # no date named: the next four weeks, what is still to start (not what sam did this week)
    # of a kind: the kind is the subject ("coming" and "up" are no words to share)
    assert "security training week" in said[6] and "Code freeze" not in said[6], said
    for answer in said[4:6]:
        assert answer.startswith("In memory for the next four weeks:"), said
        at = [answer.find(part) for part in december]
        assert -1 not in at and at == sorted(at), said
        assert "staging certs" not in answer and "Offsite" not in answer, said


MEETING = chat(
    ("maya", "2026-11-23T15:00:00Z",
     "Weekly sync notes:\n- Decided: we drop IE11 support in January\n- AI: @sam to update the "
     "runbook by Fri\n- AI: nina to email Acme about the renewal\n- Open question: do we need a "
     "second region?"),
    ("sam", "2026-11-23T15:30:00Z", "[x] runbook updated for the new LB"),
    ("nina", "2026-11-24T10:00:00Z", "TODO(nina): chase legal on the DPA redlines"),
    ("ravi", "2026-11-24T11:00:00Z",
     "Action items from the postmortem: 1) add alerting on cert expiry (ravi) 2) rotate the "
     "webhook secret quarterly (omar) 3) write a customer comms template (nina)"),
    ("omar", "2026-11-25T09:00:00Z",
     "Done with #2, webhook secret rotation is now a quarterly cron."))


def test_a_meetings_action_items_are_each_open_or_done_from_the_shell(lurker, tmp_path):
    """27 Nov (eighth session): a sync's "AI: …" points and a postmortem's "1) … 2) … 3) …" were
    one task each (or none), "[x] runbook updated" under the notes closed nothing (the notes'
    open question is what it was read as answering), nor did "Done with #2, …"."""
    lurker("ingest", write_jsonl(tmp_path / "conversation.jsonl", MEETING), "--session", "s")
    now = ("--now", "2026-11-27T12:00:00Z")
    open_now = lurker("recall", "what tasks are still open?", *now).stdout
    still, _, done = open_now.partition("Done:")
    for item in ("write a customer comms template", "add alerting on cert expiry",
                 "chase legal on the DPA redlines", "nina to email Acme about the renewal"):
        assert item in still, open_now
    for item in ("rotate the webhook secret quarterly", "@sam to update the runbook"):
        assert item in done and item not in still, open_now
    said = first_lines(lurker, now, ["what does sam need to do?"])
    assert list(said.values())[0].startswith("Nothing of sam's is open in memory."), said
    nina = lurker("recall", "what is nina working on?", *now).stdout.split("sources:")[0]
    assert nina.count("\n   - ") + nina.count("\n- ") >= 3 and "comms template" in nina \
        and "DPA" in nina and "email Acme" in nina and "cert expiry" not in nina, nina


def test_how_a_customer_is_doing_is_what_was_said_of_them_newest_first_from_the_shell(
        lurker, tmp_path):
    """27 Nov (eighth session): "how is Acme doing?" was declined: read as "what is Acme
    doing?", it asked for Acme's own words, and Acme says nothing in the channel."""
    said = asked_after(lurker, tmp_path, chat(
        ("nina", "2026-11-16T09:00:00Z",
         "Acme is threatening to churn over the SSO outage, renewal is Dec 15."),
        ("nina", "2026-11-17T10:00:00Z", "Globex renewed for 2 years, $240k ARR."),
        ("omar", "2026-11-20T13:00:00Z", "Acme is happy again after the SSO fix, call went well."),
        ("sam", "2026-11-23T09:00:00Z", "I'm doing the Acme QBR deck today.")),
        "2026-11-27T12:00:00Z", "how is Acme doing?", "how's Acme doing?", "what is sam doing?")
    for answer in said[:2]:
        assert answer.startswith("Acme is happy again after the SSO fix"), said
        assert "Globex" not in answer, said
    assert "Acme QBR deck" in said[2], said  # what someone is doing is still their own words


def test_who_mentioned_a_bug_is_who_said_it_not_a_reply_in_another_thread_from_the_shell(
        lurker, tmp_path):
    """27 Nov (eighth session): "who mentioned the Safari bug?" answered with omar's fix, posted
    in the ticket's thread: it was read as the answer to tom's channel question said between,
    which then had no place of its own."""
    said = asked_after(lurker, tmp_path, threaded(
        ("nina", "2026-11-23T09:00:00Z", "m1", None,
         "New ticket ZD-9921: checkout button does nothing on Safari 17."),
        ("tom", "2026-11-23T09:20:00Z", "m2", None,
         "anyone else seeing the Safari bug on the pricing page too?"),
        ("omar", "2026-11-23T11:00:00Z", "m3", "m1",
         "Found it, a polyfill for structuredClone was missing. Fix is in PR #812."),
        ("omar", "2026-11-24T10:00:00Z", "m4", None, "#812 merged and deployed.")),
        "2026-11-27T12:00:00Z", "who mentioned the Safari bug?",
        "which PR fixed the Safari bug?", "is the Safari bug fixed?")
    assert said[0].startswith('tom said: "anyone else seeing the Safari bug'), said
    # omar's reply names no Safari: the ticket its message answers does (it was read through
    # tom's question before; "Safari" is a product, as a customer is, not someone here)
    assert said[1].startswith("Fix is in PR #812."), said
    assert said[2].startswith("Latest: #812 merged and deployed."), said


def test_what_an_agent_remembered_today_is_not_coming_up_unless_dated_ahead_from_the_shell(
        lurker):
    """27 Nov (eighth session): "what's coming up?" asks the next four weeks from today, and an
    agent's "Always run make lint before pushing", remembered today, was said in them: it was
    listed as coming up beside the freeze."""
    lurker("remember", "Release freeze starts Dec 14 and ends Dec 18.")
    lurker("remember", "Always run make lint before pushing.")
    said = first_lines(lurker, ("--now", "2026-11-27T12:00:00Z"), ["what's coming up?"])
    answer = list(said.values())[0]
    assert "Release freeze starts Dec 14" in answer and "make lint" not in answer, said


def test_a_forgotten_plan_is_on_no_calendar_from_the_shell(lurker, tmp_path):
    """The date channel reads the memories dated in a span: a forgotten one (and the message it
    came from) is in no answer, no source and no JSON of "what's coming up?"."""
    lurker("ingest", write_jsonl(tmp_path / "plans.jsonl", chat(
        ("maya", "2026-11-16T09:00:00Z", "Code freeze is Dec 14-18, no deploys then."),
        ("ravi", "2026-11-17T09:00:00Z",
         "Secret acquisition talks with Initech on Dec 9, do not share."),
        ("nina", "2026-11-18T09:00:00Z", "Security training is Dec 7-11."))), "--session", "s")
    listed = json.loads(lurker("list", "--json").stdout)["memories"]
    talks = next(m for m in listed if "Initech" in m["content"])
    lurker("forget", talks["id"], "--reason", "confidential")
    now = ("--now", "2026-11-27T12:00:00Z")
    for question in ("what's coming up?", "anything planned for December?",
                     "what's happening on Dec 9?", "any talks coming up?"):
        for form in ((), ("--json",)):
            out = lurker("recall", question, *now, *form).stdout
            assert "Initech" not in out and "acquisition" not in out, (question, out)
    assert "Security training" in lurker("recall", "what's coming up?", *now).stdout


def test_units_as_chat_writes_them_answer_the_words_written_out_from_the_shell(lurker, tmp_path):
    """27 Nov (eighth session): "how many points is the SSO story?" was declined: the plan says
    "(8 pts, dana)" and the re-estimate "13 pts"; the newest leads."""
    said = asked_after(lurker, tmp_path, chat(
        ("lee", "2026-11-23T10:00:00Z", "Sprint 49 planning: SSO for Acme (8 pts, dana), CSV "
         "export fix (3 pts, omar), billing v2 doc (5 pts, lee). Sprint ends Dec 4."),
        ("dana", "2026-11-24T10:00:00Z", "SSO estimate was too low, bumping it to 13 pts."),
        ("omar", "2026-11-25T10:00:00Z", "The nightly backup takes 40 mins now.")),
        "2026-11-27T12:00:00Z", "how many points is the SSO story?",
        "how many minutes does the nightly backup take?")
    assert said[0].startswith("SSO estimate was too low, bumping it to 13 pts."), said
    assert "40 mins" in said[1], said


def test_what_tickets_are_still_open_from_the_shell(lurker, tmp_path):
    """27 Nov (eighth session): "what tickets are still open?" and "what's open in support?"
    were declined; a ticket reported is open work until a later word names it closed."""
    lurker("ingest", write_jsonl(tmp_path / "support.jsonl", threaded(
        ("nina", "2026-11-23T09:00:00Z", "m1", None,
         "New ticket ZD-9921: checkout button does nothing on Safari 17."),
        ("omar", "2026-11-23T11:00:00Z", "m2", "m1",
         "Found it, a polyfill for structuredClone was missing. Fix is in PR #812."),
        ("nina", "2026-11-24T12:00:00Z", "m3", None,
         "Customer confirmed ZD-9921 is fixed, closing."),
        ("lee", "2026-11-25T09:00:00Z", "m4", None,
         "ZD-9950: CSV export times out for accounts with more than 50k rows."))),
        "--session", "s")
    for question in ("what tickets are still open?", "what's open in support?"):
        out = lurker("recall", question, "--now", "2026-11-27T12:00:00Z").stdout
        still, _, done = out.split("sources:")[0].partition("Done:")
        assert "ZD-9950: CSV export times out" in still and "ZD-9921" not in still, out
        assert "Customer confirmed ZD-9921 is fixed" in done, out


def test_a_team_writing_chinese_gets_memories_and_its_budget_answered_from_the_shell(lurker,
                                                                                 tmp_path):
    """27 Nov (eighth session): a Chinese sentence was one word to the extractor, too short to
    keep, so the team had no memories, and "预算是多少？" was declined though "预算是五万元。" was
    said (in a message whose first sentence was about the migration)."""
    lurker("ingest", write_jsonl(tmp_path / "zh.jsonl", chat(
        ("li", "2026-11-20T09:00:00Z", "数据库迁移定在12月1日，请大家提前备份。预算是五万元。"),
        ("wang", "2026-11-20T09:05:00Z", "好的"))), "--session", "s")
    listed = [m["content"] for m in json.loads(lurker("list", "--json").stdout)["memories"]]
    assert sorted(listed) == sorted(["数据库迁移定在12月1日，请大家提前备份。", "预算是五万元。"]), listed
    said = first_lines(lurker, ("--now", "2026-11-27T12:00:00Z"), ["预算是多少？"])
    assert list(said.values())[0].startswith("预算是五万元。"), said


def test_a_rule_posted_as_a_psa_is_said_to_who_asks_on_a_friday_from_the_shell(lurker, tmp_path):
    """27 Nov (ninth session): "PSA: never deploy on Fridays after 3pm" was no rule (its label
    came first), so "can I deploy today at 4pm?", asked on a Friday, was declined and told
    nothing, and "today" was computed without its weekday."""
    said = asked_after(lurker, tmp_path, chat(
        ("dana", "2026-11-13T10:00:00Z", "PSA: never deploy on Fridays after 3pm"),
        ("maya", "2026-11-16T10:00:00Z", "the new grafana dashboard for queue depth is up")),
        "2026-11-27T12:00:00Z", "can I deploy today at 4pm?")
    assert "today = 2026-11-27 (a Friday)" in said[0], said
    assert "Standing rule: PSA: never deploy on Fridays after 3pm" in said[0], said


def test_when_someone_is_back_from_the_shell(lurker, tmp_path):
    """27 Nov (ninth session): "when is dana back?" was answered with raj's "off Monday, back
    Wednesday" ("dana", an English word, was no name in the question), and that with the day raj
    wrote it (his "back Wednesday", written on a Wednesday); dana's "OOO tomorrow and Friday"
    gave its first day away."""
    said = asked_after(lurker, tmp_path, chat(
        ("dana", "2026-11-25T16:00:00Z", "heads up, I'm OOO tomorrow and Friday"),
        ("raj", "2026-11-25T16:05:00Z", "I'm off Monday, back Wednesday"),
        ("tom", "2026-11-17T10:00:00Z", "I'll be out Dec 21 through Jan 3, sam covers my reviews")),
        "2026-11-27T12:00:00Z", "when is dana back?", "when is raj back?", "when is tom back?")
    assert said[0].startswith("Away until 27 November 2026: heads up, dana is OOO"), said
    assert said[1].startswith("Back on 2 December 2026: raj is off Monday"), said
    assert said[2].startswith("Away until 3 January 2027: tom will be out"), said


def test_on_it_under_a_request_of_anyone_takes_the_work_from_the_shell(lurker, tmp_path):
    """27 Nov (ninth session): sam's "on it" under tom's "can someone review my PR #901 before
    the weekend?" was too short to keep, so "who is reviewing #901?" had no answer and the PR's
    open work no taker."""
    said = asked_after(lurker, tmp_path, chat(
        ("tom", "2026-11-26T09:00:00Z", "can someone review my PR #901 before the weekend?"),
        ("sam", "2026-11-26T09:30:00Z", "on it"),
        ("nina", "2026-11-26T11:00:00Z", "thanks for the coffee")),
        "2026-11-27T12:00:00Z", "who is reviewing #901?")
    assert said[0].startswith("can someone review tom's PR #901 before the weekend? sam is on "
                              "it. (26 November 2026)"), said
    work = lurker("recall", "what's open?", "--now", "2026-11-27T12:00:00Z").stdout
    assert "- tom: can someone review tom's PR #901 before the weekend? (26 November 2026); " \
           "latest: \"can someone review tom's PR #901 before the weekend? sam is on it.\"" \
        in work, work


def test_is_someone_still_blocked_after_a_standup_from_the_shell(lurker, tmp_path):
    """27 Nov (ninth session): raj's standup ended "Blocked on staging creds." and "is raj still
    blocked?" was answered "raj has not said they are blocked in the last two months" (the
    sentence was no blocker, then omar's "60% done" closed it); dana sending the creds is what
    unblocks him."""
    standup = chat(
        ("raj", "2026-11-26T09:05:00Z", "Standup: yesterday reviewed #890, today pairing with "
                                        "omar on the queue migration. Blocked on staging creds."),
        ("omar", "2026-11-26T10:00:00Z", "Queue migration is 60% done, should wrap Monday."))
    said = asked_after(lurker, tmp_path, standup, "2026-11-27T12:00:00Z", "is raj still blocked?")
    assert said == ["Blocked now:"], said
    lurker("ingest", write_jsonl(tmp_path / "later.jsonl", chat(
        ("dana", "2026-11-27T09:00:00Z", "staging creds sent to raj via 1Password"))),
        "--session", "s")
    out = lurker("recall", "is raj still blocked?", "--now", "2026-11-27T12:00:00Z").stdout
    assert out.startswith("raj is not blocked now.\nUnblocked:\n- raj: Standup: yesterday"), out
    assert 'unblocked: "dana: staging creds sent to raj via 1Password"' in out, out


def test_are_we_using_a_vendor_named_once_from_the_shell(lurker, tmp_path):
    """27 Nov (ninth session): "are we using Adyen?" shared only "Adyen" (read as a person's name)
    with "Decision: we'll keep Stripe for EU too, Adyen is off the table." and was declined."""
    said = asked_after(lurker, tmp_path, chat(
        ("lena", "2026-11-26T14:00:00Z", "Decision: we'll keep Stripe for EU too, Adyen is off "
                                         "the table."),
        ("nina", "2026-11-26T16:00:00Z", "Released 4.13.0 to prod, changelog in #releases.")),
        "2026-11-27T12:00:00Z", "are we using Adyen?")
    assert said[0].startswith("Decision: we'll keep Stripe for EU too, Adyen is off the table."), \
        said


STANDUP_DAY = chat(
    ("maya", "2026-11-26T09:00:00Z",
     "Standup: I finished the SSO callback fix, today I'm on the audit log export."),
    ("raj", "2026-11-26T09:05:00Z", "Standup: yesterday reviewed #890, today pairing with omar on "
                                    "the queue migration. Blocked on staging creds."),
    ("omar", "2026-11-26T10:00:00Z", "Queue migration is 60% done, should wrap Monday."),
    ("lena", "2026-11-26T14:00:00Z", "Decision: we'll keep Stripe for EU too, Adyen is off the "
                                     "table."),
    ("nina", "2026-11-26T16:00:00Z", "Released 4.13.0 to prod, changelog in #releases."),
    ("dana", "2026-11-27T09:00:00Z", "staging creds sent to raj via 1Password"))


def test_what_happened_and_what_someone_did_from_the_shell(lurker, tmp_path):
    """27 Nov (ninth session): "what happened yesterday?" showed two of the day's five memories;
    "what did nina do yesterday?" was answered with raj's standup ("nina", an English word, was
    no name); "what did raj do yesterday?" was declined (his standup names omar, and opens a
    sentence with "Blocked", both read as someone else) and "what did raj do?" answered with
    dana's "staging creds sent to raj"."""
    said = asked_after(lurker, tmp_path, STANDUP_DAY, "2026-11-27T12:00:00Z",
                       "what happened yesterday?", "what happened this week?",
                       "what did nina do yesterday?", "what did raj do yesterday?",
                       "what did raj do?")
    for day in said[:2]:
        assert day.startswith("In memory from "), said
        for text in ("maya finished the SSO callback fix", "Blocked on staging creds",
                     "Queue migration is 60% done", "Adyen is off the table",
                     "Released 4.13.0 to prod"):
            assert text in day, (text, day)
    assert said[2].startswith("Released 4.13.0 to prod"), said
    assert said[3].startswith("Standup: yesterday [2026-11-25] reviewed #890"), said
    assert said[4].startswith("Standup: yesterday [2026-11-25] reviewed #890"), said


def test_the_option_taken_and_why_from_the_shell(lurker, tmp_path):
    """27 Nov (ninth session): "which search backend did we pick?" was answered with the options
    weighed, and "why did we pick Elasticsearch?" with the cluster's "slipped … because of the
    VPC change"; the pick ("We're going with Elasticsearch 9, mainly for kNN …") now leads both.
    Asked for the options, the options are the answer."""
    said = asked_after(lurker, tmp_path, chat(
        ("maya", "2026-11-16T10:00:00Z",
         "Options for the search backend: Elasticsearch, OpenSearch, or Typesense."),
        ("raj", "2026-11-16T10:10:00Z", "Typesense is out, no multi-tenant isolation."),
        ("maya", "2026-11-18T15:00:00Z",
         "We're going with Elasticsearch 9, mainly for kNN and the team's experience."),
        ("tom", "2026-11-24T11:00:00Z",
         "heads up: ES cluster provisioning slipped to Dec 7 because of the VPC change")),
        "2026-11-27T12:00:00Z", "which search backend did we pick?",
        "why did we pick Elasticsearch?", "what were the options for search?")
    assert said[0].startswith("Latest: We're going with Elasticsearch 9"), said
    assert "Before that: Options for the search backend" in said[0], said
    assert said[1].startswith("We're going with Elasticsearch 9, mainly for kNN"), said
    assert said[2].startswith("Options for the search backend"), said


def test_short_answers_arriving_a_message_at_a_time_from_the_shell(lurker, tmp_path):
    """27 Nov (ninth session): chat arrives a message at a time; "me", "vpn-stg.acme.internal" and
    "250", each ingested alone after the question it answers, are answers (memory.said_before);
    "250" had no word to keep it even beside its question."""
    rows = chat(
        ("lena", "2026-11-20T10:00:00Z", "who's on call this weekend?"),
        ("omar", "2026-11-20T10:02:00Z", "me"),
        ("dana", "2026-11-23T09:00:00Z", "does anyone know the staging VPN endpoint?"),
        ("raj", "2026-11-23T09:05:00Z", "vpn-stg.acme.internal"),
        ("nina", "2026-11-24T09:00:00Z", "how many seats does Globex have?"),
        ("tom", "2026-11-24T09:30:00Z", "250"))
    for n, row in enumerate(rows):
        lurker("ingest", write_jsonl(tmp_path / f"m{n}.jsonl", [row]), "--session", "s")
    said = first_lines(lurker, ("--now", "2026-11-27T12:00:00Z"), (
        "who was on call last weekend?", "what's the staging VPN endpoint?",
        "how many seats does Globex have?"))
    got = list(said.values())
    assert got[0].startswith("who's on call this weekend? omar."), got
    assert got[1].startswith("does anyone know the staging VPN endpoint? raj: "
                             "vpn-stg.acme.internal"), got
    assert got[2].startswith("how many seats does Globex have? tom: 250"), got


def test_an_incident_channel_without_threads_from_the_shell(lurker, tmp_path):
    """27 Nov (ninth session): an incident channel whose messages are all top-level. "when did
    the checkout outage start?" and "what caused the checkout incident?" were declined, and "how
    long was checkout down?" listed two messages; the resolution now ends the incident declared
    above it, and a cause stated while it was open is found by what was declared."""
    said = asked_after(lurker, tmp_path, chat(
        ("dana", "2026-11-24T14:02:00Z",
         ":rotating_light: checkout is returning 502s, declaring SEV2, I'm IC"),
        ("omar", "2026-11-24T14:10:00Z",
         "Root cause looks like the new connection pool limit (20) in payments-api"),
        ("dana", "2026-11-24T14:25:00Z", "rolled back payments-api to v4.12.1, errors dropping"),
        ("dana", "2026-11-24T14:41:00Z",
         "Resolved. Checkout healthy since 14:38 UTC. Postmortem Thursday.")),
        "2026-11-27T12:00:00Z", "when did the checkout outage start?",
        "how long was checkout down?", "what caused the checkout incident?")
    assert said[0].startswith("14:02 UTC on 24 November 2026: :rotating_light: checkout is "
                              "returning 502s"), said
    assert "It ended 39 minutes later (14:41 UTC: Resolved." in said[0], said
    assert said[1].startswith("39 minutes: from 14:02 UTC on 24 November 2026"), said
    assert said[2].startswith("Root cause looks like the new connection pool limit"), said


def test_news_said_in_other_words_from_the_shell(lurker, tmp_path):
    """27 Nov (ninth session): "who did we hire this week?", "any new customers?" and "who left
    recently?" were declined: "Priya accepted! Start date Jan 4.", "Hooli signed! $80k ARR" and
    "Today is my last day at Acme Corp" say so in none of their words."""
    said = asked_after(lurker, tmp_path, chat(
        ("raj", "2026-11-09T10:00:00Z", "Today is my last day at Acme Corp, it's been a ride."),
        ("nina", "2026-11-23T09:00:00Z", "Hooli signed! $80k ARR, kickoff Dec 2."),
        ("lena", "2026-11-25T09:00:00Z", "Candidate Priya Shah did great in the onsite, we're "
                                         "making her an offer for the staff SRE role."),
        ("lena", "2026-11-26T17:00:00Z", "Priya accepted! Start date Jan 4."),
        ("tom", "2026-11-26T18:00:00Z", "The staging cluster is on 1.29 now.")),
        "2026-11-27T12:00:00Z", "who did we hire this week?", "any new customers?",
        "who left recently?")
    assert said[0].startswith("Priya accepted! Start date Jan 4"), said
    assert said[1].startswith("Hooli signed! $80k ARR"), said
    assert "raj's last day at Acme Corp" in said[2], said
    assert "staging cluster" not in " ".join(said), said


def test_customers_at_risk_and_one_that_came_back_from_the_shell(lurker, tmp_path):
    """27 Nov (ninth session): "who might churn?" was answered with Acme's threat alone, though
    "Acme is happy again after the SSO fix" came after it; "is Acme still at risk?" was read as
    asking whether Acme is still at a company (declined); "which customers are at risk?" named
    one of two."""
    said = asked_after(lurker, tmp_path, chat(
        ("nina", "2026-11-16T09:00:00Z",
         "Acme is threatening to churn over the SSO outage, renewal is Dec 15."),
        ("omar", "2026-11-18T11:00:00Z", "Initech hasn't logged in for 30 days, flagging as at-risk."),
        ("nina", "2026-11-19T12:00:00Z",
         "Umbrella asked for a discount, otherwise they'll move to a competitor."),
        ("omar", "2026-11-20T13:00:00Z", "Acme is happy again after the SSO fix, call went well."),
        ("nina", "2026-11-23T09:00:00Z", "Hooli signed! $80k ARR, kickoff Dec 2.")),
        "2026-11-27T12:00:00Z", "who might churn?", "is Acme still at risk?",
        "which customers are at risk?", "when is Acme's renewal?")
    for answer in said[:2]:
        assert answer.startswith("Latest: Acme is happy again after the SSO fix"), said
        assert "Before that: Acme is threatening to churn" in answer, said
    assert "Initech" in said[2] and "Umbrella" in said[2] and "Hooli" not in said[2], said
    assert said[3].startswith("15 December 2026: Acme is threatening to churn"), said


def test_a_planning_channels_rota_prices_and_items_from_the_shell(lurker, tmp_path):
    """28 Nov (tenth session), from outside: an on-call rota, a price agreed then raised, and
    planning notes whose bullets put work to people ("- maya: write the caching RFC by Friday").
    "who was on call last week?" led with "Latest: Update: after the sales call we're raising
    Pro to $59/month" ("call" in "sales call"), then with a swap said last week for the week
    after; "how much is the Pro plan?" led with the $49 agreed first; "what are maya's action
    items?" and "what does maya need to do?" were declined (no bullet was work), and "what is
    sam supposed to do?" too."""
    rows = chat(
        ("maya", "2026-11-16T09:00:00Z", "On-call this week is sam, next week is priya."),
        ("sam", "2026-11-16T09:05:00Z", "ack. I'll hand off to priya Monday morning."),
        ("priya", "2026-11-18T14:00:00Z",
         "swapping with tom for next week, I'm at a conference. tom is on call 23-27 Nov."),
        ("maya", "2026-11-19T10:00:00Z", "Meeting notes from planning:\n- maya: write the caching "
         "RFC by Friday\n- sam: benchmark the new parser\n- priya: talk to Acme about the renewal"),
        ("maya", "2026-11-19T10:02:00Z",
         "We agreed to price the Pro plan at $49/month, billed annually."),
        ("raj", "2026-11-20T16:00:00Z",
         "Update: after the sales call we're raising Pro to $59/month. Annual billing stays."),
        ("sam", "2026-11-20T17:00:00Z",
         "parser benchmark done: 3.2x faster than the old one on the big corpus."))
    said = asked_after(lurker, tmp_path, rows, "2026-11-24T10:00:00Z",
                       "who was on call last week?", "how much is the Pro plan?",
                       "what's the price of Pro?", "what are maya's action items?",
                       "what does maya need to do?", "what is sam supposed to do?")
    last_week, much, price, items, owed, sam = said
    assert last_week.startswith("On-call this week [week of 2026-11-16] is sam"), said
    assert "sales call" not in last_week and "swapping" not in last_week.split(" (")[0], said
    for answer in (much, price):
        # (as "Latest:" since 5 Dec's eighteenth session: an update naming the Pro plan the
        # question names is a change of the price agreed before)
        assert answer.removeprefix("Latest: ").startswith(
            "Update: after the sales call we're raising Pro to $59"), said
    for answer in (items, owed):
        assert answer.startswith("maya is on:"), said
    assert sam.startswith("sam is on:"), said
    details = {q: lurker("recall", q, "--now", "2026-11-24T10:00:00Z").stdout.split("\n\n")[0]
               for q in ("what are maya's action items?", "what is sam supposed to do?",
                         "what's still open?")}
    assert "maya: write the caching RFC" in details["what are maya's action items?"], details
    assert "sam:" not in details["what are maya's action items?"], details
    assert "priya:" not in details["what are maya's action items?"], details
    assert "Done lately:" in details["what is sam supposed to do?"], details
    assert "sam: benchmark the new parser" in details["what is sam supposed to do?"] \
        .split("Done lately:")[1], details
    assert "priya: talk to Acme about the renewal" in details["what's still open?"] \
        .split("Done:")[0], details
    # (the notes themselves, asked for as action items, were declined too)
    items = lurker("recall", "what are the action items from planning?",
                   "--now", "2026-11-24T10:00:00Z").stdout
    assert items.startswith("Meeting notes from planning: maya: write the caching RFC"), items


def test_two_rfcs_fields_stay_their_own_from_the_shell(lurker, tmp_path):
    """28 Nov (tenth session), from outside: ana's RFC ("… Owner: ana. Target: end of December.")
    and, two days later, ben's ("… Owner: ben. Target: end of January."). Each field line took
    its label as topic key ("owner", "target", "risk", "rfc"), so ben's RFC superseded every
    field of ana's: "who owns the session storage RFC?" was answered "ben — changed from ana on
    18 November 2026", and ana's risks and target were gone from `lurker list`."""
    rows = chat(
        ("ana", "2026-11-16T10:00:00Z", "RFC: move session storage from Redis to Postgres.\n\n"
         "Context: sessions live in Redis today, and we lost them twice this quarter.\n\n"
         "Risks: write load on Postgres goes up ~15%.\n\nOwner: ana. Target: end of December."),
        ("ben", "2026-11-18T10:00:00Z", "RFC: replace the billing cron with Stripe webhooks.\n\n"
         "Context: the nightly cron misses refunds.\n\nRisks: webhook delivery can lag.\n\n"
         "Owner: ben. Target: end of January."),
        ("ana", "2026-11-24T16:00:00Z", "Session migration is live in production as of today."))
    said = asked_after(lurker, tmp_path, rows, "2026-11-25T10:00:00Z",
                       "who owns the session storage RFC?", "who owns the billing RFC?",
                       "what's the target for the session storage move?",
                       "what are the risks of the session migration?")
    session, billing, target, risks = said
    assert risks.startswith("Risks: write load on Postgres goes up ~15%."), said
    assert session.startswith("RFC: move session storage from Redis to Postgres. Owner: ana."), \
        said
    assert "changed from" not in session, said
    assert billing.startswith("RFC: replace the billing cron with Stripe webhooks. Owner: ben."), \
        said
    assert target.startswith("RFC: move session storage from Redis to Postgres. Target: end of "
                             "December."), said
    listed = lurker("list").stdout
    for field in ("Risks: write load on Postgres goes up ~15%.", "Owner: ana.",
                  "Target: end of December.", "RFC: move session storage"):
        assert field in listed, listed


def test_a_deal_desks_dates_moved_and_due_from_the_shell(lurker, tmp_path):
    """28 Nov (tenth session), from outside: "demo went great, they want a pilot starting in
    two weeks", then "pilot kickoff moved to the Tuesday after, Dec 8" (said 20 Nov: "Dec 8"
    was read as December 2025, so "when does the pilot start?" said 17 November); "what's
    happening next week?" listed the pilot with no word that it moved; "what's due this week?"
    listed "EOM deadline for the SOC2 evidence" (said this Monday, due next Monday)."""
    rows = chat(
        ("maya", "2026-11-17T18:00:00Z",
         "demo went great, they want a pilot starting in two weeks"),
        ("raj", "2026-11-18T10:00:00Z", "security questionnaire for Acme due end of next week"),
        ("sam", "2026-11-19T11:00:00Z", "invoice goes out on the 5th"),
        ("maya", "2026-11-20T12:00:00Z", "pilot kickoff moved to the Tuesday after, Dec 8"),
        ("raj", "2026-11-23T09:00:00Z", "EOM deadline for the SOC2 evidence"))
    said = asked_after(lurker, tmp_path, rows, "2026-11-25T10:00:00Z",
                       "when does the pilot start?", "what's happening next week?",
                       "what's due this week?")
    start, ahead, due = said
    assert start.startswith("8 December 2026: pilot kickoff moved"), said
    assert "they want a pilot starting in two weeks [week of 2026-11-30] (17 November 2026) " \
           "Moved since: pilot kickoff moved to the Tuesday after, Dec 8 [2026-12-08]" in ahead, said
    assert due.startswith("security questionnaire for Acme due end of next week [2026-11-27]"), said
    assert "SOC2" not in due, said


def test_a_review_bots_numbered_points_and_their_fixes_from_the_shell(lurker, tmp_path):
    """28 Nov (tenth session), from outside: a review bot posts "PR #2211 review: 3 issues
    found. 1) … 2) … 3) …" and the author answers "fixed 2 and 3 in PR #2211, 1 will be a
    follow-up". "what did the review bot find on PR #2211?" showed the count and one point of
    three; "is the expired rows issue fixed?" showed point 1 alone, as if nothing had been said
    of it since."""
    rows = chat(
        ("reviewbot", "2026-11-17T08:00:00Z", "PR #2211 review: 3 issues found. 1) sessions.py "
         "line 40: expired rows are never deleted when the nightly job fails. 2) missing index "
         "on sessions.expires_at. 3) data column should be jsonb not json."),
        ("ana", "2026-11-17T09:00:00Z", "fixed 2 and 3 in PR #2211, 1 will be a follow-up"),
        ("ben", "2026-11-18T14:00:00Z", "Load test results: Postgres write load +12%, p99 login "
         "latency +7ms. Within budget."))
    found, fixed = asked_after(lurker, tmp_path, rows, "2026-11-25T10:00:00Z",
                               "what did the review bot find on PR #2211?",
                               "is the expired rows issue fixed?")
    assert found.startswith("PR #2211 review: 3 issues found."), found
    points = [found.index(p) for p in ("1) sessions.py line 40", "2) missing index",
                                       "3) data column should be jsonb")]
    assert points == sorted(points), found
    assert fixed.startswith("Latest: fixed 2 and 3 in PR #2211, 1 will be a follow-up"), fixed
    assert "Before that: 1) sessions.py line 40" in fixed, fixed


def test_a_relayed_review_keys_no_topic_from_the_shell(lurker, tmp_path):
    """28 Nov (tenth session): "reviewbot says: PR #77 review: 2 issues found." took the topic
    key "reviewbot say", so the next relayed review, of another PR, superseded it and `lurker
    list` no longer had PR #77's."""
    write_jsonl(tmp_path / "c.jsonl", chat(
        ("sam", "2026-11-19T10:05:00Z", "reviewbot says: PR #77 review: 2 issues found."),
        ("sam", "2026-11-20T10:05:00Z", "reviewbot says: PR #78 review: no issues found.")))
    lurker("ingest", str(tmp_path / "c.jsonl"), "--session", "review")
    listed = lurker("list").stdout
    assert "PR #77 review: 2 issues found" in listed and "PR #78 review" in listed, listed


def test_who_took_it_who_joined_and_who_is_still_here_from_the_shell(lurker, tmp_path):
    """28 Nov (tenth session), from outside: "who took the flaky checkout test?" led with tom's
    "can someone take …?" (kofi's "I'll take it" second); "who joined recently?" listed omar's
    move to the data team ("starting Monday"); "is raj still with us?", "… on the team?" and
    "does raj still work here?" were declined after raj's "Today is my last day here"."""
    rows = chat(
        ("tom", "2026-11-23T09:00:00Z",
         "can someone take the flaky checkout test? it failed 4 times today"),
        ("kofi", "2026-11-23T09:10:00Z", "I'll take it"),
        ("raj", "2026-11-25T17:00:00Z", "Today is my last day here, thanks all!"),
        ("lena", "2026-11-26T09:00:00Z", "Welcome Priya, who joined the platform team today!"),
        ("omar", "2026-11-26T10:00:00Z", "I'm moving to the data team starting Monday"))
    said = asked_after(lurker, tmp_path, rows, "2026-11-27T10:00:00Z",
                       "who took the flaky checkout test?", "who joined recently?",
                       "is raj still with us?", "is raj still on the team?",
                       "does raj still work here?", "is tom still with us?")
    took, joined, *raj, tom = said
    assert "kofi will take it" in took.split(" (23 November 2026)")[0], said
    assert joined.startswith("Welcome Priya") and "omar" not in joined, said
    for answer in raj:
        assert answer.startswith("Today [2026-11-25] is raj's last day here"), said
    assert tom.startswith(NO_ANSWER), said


def test_an_azure_connection_string_of_any_key_length_is_never_stored_from_the_shell(lurker,
                                                                                   tmp_path):
    """28 Nov (tenth session): an Azure storage connection string whose AccountKey was not the
    88 characters detect-secrets' shape wants was stored whole and quoted back by "what's the
    azure storage connection string?"."""
    key = "Zq8V3kP0x9Lm2Zt7Rw4Yc1Nb6Hd5Jf3Gs8Ae2Qu0Io9Kl7Mn4Bv6Cx1Zs3Dw5Fe8Rg2Th0Yj4Uk6Ol9Pi=="
    write_jsonl(tmp_path / "c.jsonl", chat(
        ("lee", "2026-11-19T09:09:00Z", "azure storage conn string for prod: "
         f"DefaultEndpointsProtocol=https;AccountName=acmeprod;AccountKey={key};"
         "EndpointSuffix=core.windows.net")))
    lurker("ingest", str(tmp_path / "c.jsonl"), "--session", "ops")
    answer = lurker("recall", "what's the azure storage connection string?",
                    "--now", "2026-11-25T10:00:00Z").stdout
    assert "AccountKey=[REDACTED:credential]" in answer and key[:20] not in answer, answer
    assert key[:20] not in lurker("export").stdout
    assert key[:20].encode() not in (tmp_path / "cli.sqlite3").read_bytes()


def test_an_offsite_moved_to_another_city_from_the_shell(lurker, tmp_path):
    """28 Nov (tenth session), from outside: "Offsite is confirmed: Lisbon, March 3-5." then
    "Change: the offsite moves to Porto, same dates." "is the offsite still in Lisbon?" was
    answered with the Lisbon plan alone ("Porto" names no Lisbon, and "Lisbon", capitalised,
    was read as a name the change had to name); "Change:" was a topic key, so any later
    "Change: …" would have superseded it."""
    rows = chat(
        ("nina", "2026-11-16T09:00:00Z", "Offsite is confirmed: Lisbon, March 3-5. Hotel is the "
         "Memmo Alfama, we have a block of 20 rooms."),
        ("nina", "2026-11-24T09:00:00Z",
         "Change: the offsite moves to Porto, same dates. Hotel TBD."),
        ("lee", "2026-11-24T15:00:00Z", "Change: standup is at 09:30 from Monday."))
    still, where = asked_after(lurker, tmp_path, rows, "2026-11-25T10:00:00Z",
                               "is the offsite still in Lisbon?", "where is the offsite?")
    assert still.startswith("Latest: Change: the offsite moves to Porto"), still
    assert "Before that: Offsite is confirmed: Lisbon" in still, still
    assert "Porto" in where.split(" (24 November 2026)")[0], where
    assert "the offsite moves to Porto" in lurker("list").stdout


def test_a_metrics_channels_values_over_time_from_the_shell(lurker, tmp_path):
    """28 Nov (tenth session), from outside: weekly metrics posts ("Weekly metrics: DAU 12.4k,
    conversion 2.8%, …"), each replacing the week before's. "how has DAU trended?" showed the
    newest alone; "what's the conversion rate?" led with "conversion drop is the new pricing
    page" (no value) before "conversion back to 2.7%"."""
    rows = chat(
        ("ivy", "2026-11-09T09:00:00Z", "Weekly metrics: DAU 12.4k, conversion 2.8%, churn 1.1%"),
        ("ivy", "2026-11-16T09:00:00Z", "Weekly metrics: DAU 13.1k, conversion 2.5%, churn 1.3%"),
        ("ivy", "2026-11-23T09:00:00Z", "Weekly metrics: DAU 13.9k, conversion 2.1%, churn 1.2%"),
        ("max", "2026-11-23T10:00:00Z",
         "conversion drop is the new pricing page, we're reverting it Wednesday"),
        ("ivy", "2026-11-26T09:00:00Z",
         "pricing page reverted, conversion back to 2.7% in the daily numbers"))
    trend, rate = asked_after(lurker, tmp_path, rows, "2026-11-27T10:00:00Z",
                              "how has DAU trended?", "what's the conversion rate?")
    assert trend.startswith("Over time:"), trend
    weeks = [trend.index(f"DAU {v}") for v in ("12.4k", "13.1k", "13.9k")]
    assert weeks == sorted(weeks), trend
    assert rate.startswith("pricing page reverted, conversion back to 2.7%"), rate


def test_notes_putting_work_to_mentioned_people_from_the_shell(lurker, tmp_path):
    """28 Nov (tenth session): bob's "Meeting notes:" with "• @maya to write the caching RFC by
    Friday" and "• @sam to benchmark the new parser". Neither maya nor sam wrote anything, so
    "what are maya's action items?" was declined ("maya" is an English word too, and no
    author's name) and the bullets were no one's work."""
    rows = chat(("bob", "2026-11-19T10:00:00Z", "Meeting notes:\n• @maya to write the caching "
                 "RFC by Friday\n• @sam to benchmark the new parser\n• we need to revisit "
                 "pricing"))
    maya, sam = asked_after(lurker, tmp_path, rows, "2026-11-24T10:00:00Z",
                            "what are maya's action items?", "what does sam need to do?")
    assert maya == "maya is on:", maya
    assert sam == "sam is on:", sam
    details = lurker("recall", "what are maya's action items?",
                     "--now", "2026-11-24T10:00:00Z").stdout.split("\n\n")[0]
    assert "@maya to write the caching RFC" in details and "@sam" not in details, details


def test_a_releases_date_in_the_sentence_after_its_scope_from_the_shell(lurker, tmp_path):
    """28 Nov (tenth session): "4.3 scope: SSO for Acme, CSV export fix, new billing page. Code
    freeze Dec 1, release Dec 8." "when does 4.3 ship?" was answered "No date was given" (the
    scope names 4.3 and no date; the sentence with the dates names no 4.3, nor "ship")."""
    rows = chat(
        ("lin", "2026-11-16T09:00:00Z", "4.3 scope: SSO for Acme, CSV export fix, new billing "
         "page. Code freeze Dec 1, release Dec 8."),
        ("lin", "2026-11-20T14:00:00Z", "dropping the new billing page from 4.3, it moves to 4.4"))
    ship, freeze = asked_after(lurker, tmp_path, rows, "2026-11-25T10:00:00Z",
                               "when does 4.3 ship?", "when is the 4.3 code freeze?")
    assert ship.startswith("8 December 2026: Code freeze Dec 1"), ship
    assert freeze.startswith("1 December 2026: Code freeze Dec 1"), freeze


def test_decision_records_in_markdown_sections_from_the_shell(lurker, tmp_path):
    """28 Nov (tenth session): ADRs posted with Markdown sections ("## Context", "## Decision",
    "## Consequences") were read with each heading glued to the sentence before it ("ADR-001:
    Use Postgres for the event store ## Context"), and "what did we decide in ADR-001?" was
    answered with that title. A section of a note is a field ("Decision: We will use …"); any
    other heading only ends the sentence before it."""
    rows = chat(
        ("ana", "2026-11-10T10:00:00Z", "ADR-001: Use Postgres for the event store\n## Context\n"
         "We need durable ordered events for billing.\n## Decision\nWe will use Postgres with an "
         "append-only events table.\n## Consequences\nWe must partition the table monthly."),
        ("ben", "2026-11-17T10:00:00Z", "ADR-002: Use NATS for internal messaging\n## Context\n"
         "Services poll each other today.\n## Decision\nWe will use NATS JetStream.\n"
         "## Consequences\nOps needs to run a 3-node NATS cluster.\n### Final Thoughts\nIt is "
         "a good fit for our scale."))
    decided, consequences = asked_after(lurker, tmp_path, rows, "2026-11-25T10:00:00Z",
                                        "what did we decide in ADR-001?",
                                        "what are the consequences of ADR-002?")
    assert decided.startswith("Decision: We will use Postgres with an append-only events "
                              "table."), decided
    assert consequences.startswith("Consequences: Ops needs to run a 3-node NATS cluster."), \
        consequences
    listed = lurker("list").stdout
    assert "##" not in listed and "Final Thoughts" not in listed, listed


def test_notice_periods_and_days_counted_from_a_date_from_the_shell(lurker, tmp_path):
    """28 Nov (tenth session), a finance channel: "Datadog contract renews Feb 1, with a 60-day
    cancellation notice." "when do we need to give notice to Datadog?" was answered "1 February
    2027" (the renewal, not the last day to give notice); "The AWS savings plan expires 90 days
    after Dec 1." was dated 1 December. Both are computed, never guessed."""
    rows = chat(
        ("fin", "2026-11-16T09:00:00Z",
         "Datadog contract renews Feb 1, with a 60-day cancellation notice."),
        ("fin", "2026-11-17T09:00:00Z",
         "Slack renewal is March 15; they need 30 days notice to downgrade."),
        ("fin", "2026-11-18T09:00:00Z", "The AWS savings plan expires 90 days after Dec 1."))
    said = asked_after(lurker, tmp_path, rows, "2026-11-25T10:00:00Z",
                       "when do we need to give notice to Datadog?",
                       "when is the Slack downgrade deadline?",
                       "when does the AWS savings plan expire?",
                       "how many days until the Datadog renewal?")
    notice, slack, aws, renewal = said
    assert notice.startswith("3 December 2026: 60 days before 1 February 2027, Datadog"), said
    assert slack.startswith("13 February 2027: 30 days before 15 March 2027, Slack"), said
    assert aws.startswith("1 March 2027: The AWS savings plan expires 90 days after Dec 1"), said
    assert renewal.startswith("68 days: from 25 November 2026 (today) to 1 February 2027"), said


HIRING_PIPELINE = chat(
    ("rita", "2026-11-30T09:05:00Z",
     "Candidate pipeline for the backend role: Jonas Weber (onsite Thursday), Aiko Tanaka "
     "(phone screen Wed 3pm CET), Marco Rossi (take-home due Friday)."),
    ("sam", "2026-12-02T16:30:00Z", "Aiko's screen went well, moving her to onsite next week."),
    ("rita", "2026-12-04T10:15:00Z", "Marco withdrew, he took another offer."),
    ("omar", "2026-12-03T09:12:00Z",
     "vote for the offsite venue: 👍 Porto, 🎉 Seville. Closes Friday."),
    ("omar", "2026-12-04T12:00:00Z", "Vote closed: Porto 9, Seville 4. Porto it is."))


def test_a_hiring_pipeline_and_a_vote_from_the_shell(lurker, tmp_path):
    """4 Dec (eleventh session), a hiring channel: "is marco still in the pipeline?" was
    answered with the pipeline that lists him, not "Marco withdrew" said since; "when was aiko's
    phone screen?" with her onsite next week (a memory ranked above, sharing "aiko" and
    "screen"), then that same memory as a change of the screen; "where is the offsite?" with
    the vote's options, not its outcome."""
    marco, screen, offsite = asked_after(
        lurker, tmp_path, HIRING_PIPELINE, "2026-12-04T15:00:00Z",
        "is marco still in the pipeline?", "when was aiko's phone screen?", "where is the offsite?")
    assert marco.startswith("Latest: Marco withdrew, he took another offer."), marco
    assert screen.startswith("2 December 2026: Candidate pipeline"), screen
    assert "moving her" not in screen, screen
    assert offsite.startswith("Latest: Vote closed: Porto 9, Seville 4. Porto it is."), offsite


def test_renewals_and_a_dependency_bump_from_the_shell(lurker, tmp_path):
    """4 Dec (eleventh session), a customer-success channel and a dependency bot: "which
    renewals are coming up this month?" was declined (its words "coming up" were taken for the
    subject); "what is initech's health?" led with the red of Monday, not "Health back to
    yellow." (a sentence of a later message that names Initech in its first); "what version of
    django are we on?" with the bot's PR alone, not that it is on hold."""
    rows = chat(
        ("cs-bot", "2026-11-30T07:00:00Z",
         "Weekly renewals: Initech renews Dec 15 ($48,000/yr, owner: dana), Hooli renews Jan 31 "
         "($120k/yr, owner: omar)."),
        ("dana", "2026-11-30T10:20:00Z",
         "Initech health is red: their champion left and usage dropped 40% since October."),
        ("dana", "2026-12-02T16:05:00Z",
         "Initech call went fine, new champion is Priya Nair (VP Eng). Health back to yellow."),
        ("dependabot", "2026-12-02T05:00:00Z", "Bump django from 4.2.16 to 4.2.17 in /api (#1440)"),
        ("sam", "2026-12-02T09:00:00Z",
         "merged #1432, holding #1440 until the 4.2.17 regression in the admin is fixed"))
    renewals, health, doing, django = asked_after(
        lurker, tmp_path, rows, "2026-12-04T15:00:00Z",
        "which renewals are coming up this month?", "what is initech's health?",
        "how's initech looking?", "what version of django are we on?")
    assert renewals.startswith("Weekly renewals: Initech renews Dec 15 [2026-12-15]"), renewals
    assert health.startswith("Latest: Health back to yellow. (2 December 2026). Before that: "
                             "Initech health is red"), health
    assert doing.startswith("Initech call went fine"), doing
    assert django.startswith("Latest: merged #1432, holding #1440"), django


def test_a_guessed_cause_and_a_bare_day_in_threads_from_the_shell(lurker, tmp_path):
    """4 Dec (eleventh session): "what caused the payments incident?" was declined while the
    incident's thread held "looks like the new connection pool size (20 → 5) from this
    morning's deploy" (a guessed cause, which names neither payments nor an incident, and cited
    nothing of its thread); "partners welcome for the dinner on the 4th?", a reply under "the
    offsite, March 3-5", was dated 4 December (the month it was said in); "when did the payments
    errors start?" with the guessed cause's "this morning"."""
    rows = threaded(
        ("kofi", "2026-12-01T14:07:00Z", "m1", None,
         "🚨 payments-api error rate at 12% since 14:02 UTC, paging oncall"),
        ("ana", "2026-12-01T14:15:00Z", "m2", "m1",
         "looks like the new connection pool size (20 → 5) from this morning's deploy"),
        ("ana", "2026-12-01T14:31:00Z", "m3", "m1", "rolled back to 7.3.1, error rate back under 0.1%"),
        ("kofi", "2026-12-01T14:40:00Z", "m4", "m1",
         "Resolved. Impact: 29 minutes, ~1,800 failed payments. Postmortem Thursday."),
        ("ana", "2026-12-02T09:00:00Z", "m5", None,
         "Planning the team dinner for the offsite, March 3-5 in Porto"),
        ("lee", "2026-12-02T09:20:00Z", "m6", "m5", "partners welcome for the dinner on the 4th?"),
        ("ana", "2026-12-02T09:22:00Z", "m7", "m5", "yes, partners welcome. Booking for 14 people."))
    cause, partners, began = asked_after(lurker, tmp_path, rows, "2026-12-04T15:00:00Z",
                                         "what caused the payments incident?",
                                         "can partners come to the dinner?",
                                         "when did the payments errors start?")
    assert cause.startswith("looks like the new connection pool size (20 → 5)"), cause
    # ("paging oncall" opens an incident: its start was answered with the guessed cause's
    # "this morning's deploy", and the "Resolved." under it was dropped)
    assert began.startswith("14:07 UTC on 1 December 2026: 🚨 payments-api error rate"), began
    assert "It ended 33 minutes later (14:40 UTC: Resolved." in began, began
    assert "the 4th [2027-03-04]?" in partners, partners
    assert "2026-12-04" not in lurker("list").stdout


def test_is_anything_blocked_from_the_shell(lurker, tmp_path):
    """4 Dec (eleventh session), a launch checklist's thread: "is anything blocked?" was
    answered "anything has not said they are blocked in the last two months." ("anything" read
    as a person's name) while sam's reply said he was blocked."""
    rows = threaded(
        ("pm", "2026-11-30T09:00:00Z", "c1", None,
         "Launch checklist for v2 pricing page (ship date Dec 10):\n1. copy review - jen\n"
         "2. Stripe price IDs - omar\n3. analytics events - sam"),
        ("jen", "2026-12-01T11:00:00Z", "c2", "c1", "copy review done ✅"),
        ("sam", "2026-12-03T10:00:00Z", "c4", "c1",
         "blocked on analytics: the segment workspace is over quota, waiting on finance to "
         "approve the upgrade"))
    lurker("ingest", write_jsonl(tmp_path / "c.jsonl", rows), "--session", "s")
    for question in ("is anything blocked?", "is something blocked?"):
        said = lurker("recall", question, "--now", "2026-12-04T15:00:00Z").stdout
        assert "blocked on analytics: the segment workspace is over quota" in said, said
        assert "has not said" not in said, said


def test_a_recap_of_days_just_past_from_the_shell(lurker, tmp_path):
    """4 Dec (eleventh session): "Nov 30 – Dec 2 offsite recap", posted on 3 December, was
    dated November 2027 ("when was the offsite?" answered a year ahead); "kickoff is first
    Monday of January" was the coming Monday."""
    rows = chat(
        ("ana", "2026-12-03T15:00:00Z",
         "Nov 30 – Dec 2 offsite recap: we agreed to move billing to the new ledger in Q1."),
        ("ana", "2026-12-03T15:05:00Z", "Ledger kickoff is first Monday of January."))
    offsite, kickoff = asked_after(lurker, tmp_path, rows, "2026-12-04T10:00:00Z",
                                   "when was the offsite?", "when is the ledger kickoff?")
    assert offsite.startswith("30 November 2026 to 2 December 2026:"), offsite
    assert kickoff.startswith("4 January 2027:"), kickoff


def test_a_review_bots_markdown_review_from_the_shell(lurker, tmp_path):
    """4 Dec (eleventh session), a code-review bot's review in Markdown with bold headings and
    the author's reply, then an agent's load-test note naming the PR: "what issues did the
    review find in PR 2290?" was answered "Latest: … p99 webhook latency went from 180ms to
    210ms …" (a change of the latency, taken for a change of the review), before the review's
    title alone; its issues were glued to its summary and verdict."""
    rows = chat(
        ("reviewbot", "2026-12-01T10:00:00Z",
         "Review of PR #2290 (add retry budget to the webhook sender):\n\n**Summary**: The "
         "change adds a per-endpoint retry budget and exponential backoff capped at 60s.\n\n"
         "**Issues**\n1. `RetryBudget.consume()` is not thread-safe: two workers can both see "
         "budget=1 and both retry.\n2. The backoff cap is read from `WEBHOOK_MAX_BACKOFF` but the "
         "default in `settings.py` is 600, not 60.\n3. No test covers the budget refilling after "
         "a minute.\n\n**Verdict**: request changes."),
        ("agent-codex", "2026-12-02T09:30:00Z",
         "Note for the team: I ran the load test on staging for PR #2290. p99 webhook latency "
         "went from 180ms to 210ms under 2k rps."))
    issues, verdict = asked_after(lurker, tmp_path, rows, "2026-12-04T15:00:00Z",
                                  "what issues did the review find in PR 2290?",
                                  "what was the verdict on PR 2290?")
    assert issues.startswith("Issues: `RetryBudget.consume()` is not thread-safe"), issues
    assert "No test covers the budget refilling after a minute. (1 December" in issues, issues
    assert "Latest" not in issues, issues
    assert verdict.startswith("Review of PR #2290 (add retry budget to the webhook sender): "
                              "Verdict: request changes."), verdict


def test_a_process_that_recalled_before_searches_the_vectors_another_process_wrote(lurker,
                                                                                   tmp_path):
    """The API's process keeps a profile's vector matrices between recalls; `lurker ingest` (as a
    worker's processes do) writes new vectors into the same embedded file. The reader's next
    recall searches them: its dense channels found the new memory (they never did before a
    restart)."""
    from datetime import datetime, timezone

    from memory.config import Settings
    from memory.service import MemoryService

    now = datetime(2026, 12, 4, 9, tzinfo=timezone.utc)
    lurker("ingest", write_jsonl(tmp_path / "a.jsonl", chat(
        ("maya", "2026-12-01T10:00:00Z", "The billing service timeout is 30 seconds."))),
        "--session", "a", "--profile", "ops")
    reader = MemoryService.from_settings(Settings(
        store=f"sqlite:///{tmp_path / 'cli.sqlite3'}", anthropic_api_key=None))
    try:
        first = reader.profile("ops").recall("what is the billing timeout?", now=now)
        assert "vector" in first.memories[0].channels  # the matrix is read (and kept) now
        lurker("ingest", write_jsonl(tmp_path / "b.jsonl", chat(
            ("sam", "2026-12-02T10:00:00Z",
             "The kubernetes autoscaler ceiling is forty nodes per cluster."))),
            "--session", "b", "--profile", "ops")
        then = reader.profile("ops").recall("what is the autoscaler ceiling?", now=now)
        found = [m for m in then.memories if "forty nodes" in m.memory.content]
        assert found and {"vector", "passage_vector"} <= set(found[0].channels), then.memories
    finally:
        reader.close()


MOBILE_RELEASE = chat(
    ("lena", "2026-11-23T10:00:00Z", "iOS 4.12.0 submitted to App Store review this morning."),
    ("omar", "2026-11-23T16:20:00Z", "Android 4.12.0 is at 10% rollout on Play."),
    ("lena", "2026-11-24T09:05:00Z",
     "Apple rejected 4.12.0: guideline 5.1.1, the account deletion flow is too hard to find."),
    ("omar", "2026-11-26T08:00:00Z",
     "Crash rate on Android 4.12.0 is 1.8%, mostly the camera screen on Pixel 6. Halting "
     "rollout at 10%."),
    ("omar", "2026-11-30T10:00:00Z",
     "Android 4.12.2 fixes the camera crash, rollout back on: 20% today, 50% Wednesday, 100% "
     "Friday if crash rate stays under 0.5%."),
    ("omar", "2026-12-03T17:00:00Z", "Android at 50%, crash rate 0.3%."),
    ("sam", "2026-12-03T18:00:00Z",
     "SSO enforcement for contractors goes live Monday. Yubikeys required for admins from "
     "Jan 1."))


def test_a_mobile_release_channel_asked_where_things_stand(lurker, tmp_path):
    """A mobile release channel asked on Friday 4 Dec: "what's the android rollout at?" led with
    the 10% of 23 Nov and the halt (the 50% of yesterday came fourth), "is the android rollout
    halted?" answered that it was (it was back on since 30 Nov), "what's the latest iOS
    version?" was declined ("latest" and "version" were words an answer had to share), and
    "Yubikeys required for admins from Jan 1" (said on 3 Dec) was January just past."""
    at, halted, ios, keys = asked_after(
        lurker, tmp_path, MOBILE_RELEASE, "2026-12-04T10:00:00Z",
        "what's the android rollout at?", "is the android rollout halted?",
        "what's the latest iOS version?", "when do admins need yubikeys?")
    assert at.startswith("Android at 50%"), at
    assert halted.startswith("Latest: Android 4.12.2 fixes the camera crash, rollout back on"), \
        halted
    assert ios.startswith("iOS 4.12.0 submitted to App Store review"), ios
    assert keys.startswith("1 January 2027:"), keys


SECURITY_CHANNEL = chat(
    ("priya", "2026-11-30T09:10:00Z",
     "Heads up: CVE-2026-4417 in libxml2 affects the ingest and export images. Severity high."),
    ("kofi", "2026-11-30T09:14:00Z", "I'll patch ingest today, export tomorrow."),
    ("priya", "2026-11-30T09:20:00Z",
     "We're rotating the Stripe key after the leak. New one for staging: "
     "sk_test_51NzQvL2eZvKYlo2C8xq3RtYbUu9PpLmN0aB"),
    ("sam", "2026-11-30T10:02:00Z",
     "db creds for the replica are user=report_ro password: Tr0ub4dor&3x, host "
     "replica-2.internal"),
    ("kofi", "2026-12-01T08:30:00Z",
     "Ingest image patched and redeployed. Export still pending, blocked on the base image "
     "rebuild."),
    ("noor", "2026-12-02T11:00:00Z", "Export patched too. CVE-2026-4417 fully remediated."))


def test_a_security_channel_asked_what_still_blocks(lurker, tmp_path):
    """A security channel asked on 4 Dec: "what's blocking the export patch?" answered with the
    block of 1 Dec ("Export patched too.", the next day, was dropped as too short and no
    question of a block asked whether it had ended); the pasted key and password stay out."""
    blocking, key, password = asked_after(
        lurker, tmp_path, SECURITY_CHANNEL, "2026-12-04T10:00:00Z",
        "what's blocking the export patch?", "what's the new stripe key?",
        "what is the password for the replica?")
    assert blocking.startswith(("Export patched too. (2 December 2026)",
                                "Latest: Export patched too. (2 December 2026)")), blocking
    assert "sk_test_51NzQvL2eZvKYlo2C8xq3RtYbUu9PpLmN0aB" not in key and "REDACTED" in key, key
    assert "Tr0ub4dor&3x" not in password and "REDACTED" in password, password
    dump = lurker("export", "--out", str(tmp_path / "all.jsonl"))
    assert dump.returncode == 0
    exported = (tmp_path / "all.jsonl").read_text()
    assert "Tr0ub4dor" not in exported and "NzQvL2eZvKYlo2C8" not in exported


DATA_PLATFORM = chat(
    ("jo", "2026-11-25T14:00:00Z", "Backfill of events_2024 is 40% done, ETA Friday."),
    ("jo", "2026-11-27T16:00:00Z", "Backfill done. 1.2B rows, took 3 days."),
    ("ravi", "2026-11-30T10:00:00Z",
     "Proposal: move the dbt runs from Airflow to Dagster next quarter. Thoughts?"),
    ("mei", "2026-11-30T10:20:00Z",
     "+1, Airflow's scheduler has been flaky since the 2.9 upgrade"),
    ("jo", "2026-11-30T10:25:00Z",
     "-1 for Q1, we have the SOC2 audit then. Q2 at the earliest."),
    ("ravi", "2026-12-01T09:00:00Z", "ok, Dagster migration pencilled in for Q2 then"))


def test_a_data_platform_channel_asked_what_was_settled(lurker, tmp_path):
    """A data platform channel asked on 4 Dec: "when are we moving to dagster?" answered with
    the proposal's next quarter (Q2 was pencilled in the next day, and read as the Q2 just past:
    "pencilled" was a past tense), and "how many rows did the backfill have?" with "Backfill
    done." (its "1.2B rows, took 3 days." was a memory of nothing)."""
    when, rows = asked_after(
        lurker, tmp_path, DATA_PLATFORM, "2026-12-04T10:00:00Z",
        "when are we moving to dagster?", "how many rows did the backfill have?")
    assert when.startswith("Latest: ok, Dagster migration pencilled in for Q2 [Q2 2027]"), when
    assert rows.startswith("Backfill done. 1.2B rows, took 3 days."), rows


PAYMENTS_POSTMORTEM = chat(
    ("dana", "2026-11-30T15:00:00Z",
     "Postmortem: payments outage on Nov 27\n\nSummary: card payments failed for 47 minutes "
     "(14:02–14:49 UTC).\n\nRoot cause: 7.3.0 pinned TLS 1.3 only; the acquirer's gateway still "
     "negotiates TLS 1.2.\n\nAction items:\n1. Add a TLS handshake check to the canary (owner: "
     "li, due Dec 11)\n2. Contract test against the acquirer sandbox (owner: mo, due Dec 18)\n"
     "3. Page payments oncall on canary failure, not just errors (owner: dana, due Dec 4)"),
    ("li", "2026-12-02T10:00:00Z", "Canary TLS check is merged, item 1 done."))


def test_a_postmortems_action_items_each_keep_their_due_date(lurker, tmp_path):
    """"when is the contract test due?" of a postmortem whose every action item is "due":
    it was 11 December, the first item's (the clause nearest a "due" won, not the clause that
    holds the contract test)."""
    contract, canary, paging = asked_after(
        lurker, tmp_path, PAYMENTS_POSTMORTEM, "2026-12-04T10:00:00Z",
        "when is the contract test due?", "when is the canary handshake check due?",
        "when is paging on canary failure due?")
    assert contract.startswith("18 December 2026:"), contract
    assert canary.startswith("11 December 2026:"), canary
    assert paging.startswith("4 December 2026"), paging


FEATURE_REQUESTS = chat(
    ("amy", "2026-11-20T10:00:00Z",
     "Feature request from Globex: SAML SSO. That's the 4th enterprise asking this month."),
    ("amy", "2026-11-23T11:00:00Z", "Hooli also wants SAML SSO, 5 now."),
    ("ben", "2026-11-24T09:00:00Z",
     "PM update: SAML SSO is on the Q1 roadmap, Okta first, Azure AD after."))


def test_how_many_asked_reads_the_newest_running_count(lurker, tmp_path):
    """"how many customers asked for SAML SSO?" on 4 Dec led with Globex's request (the 4th),
    not Hooli's "5 now" three days later."""
    [count] = asked_after(lurker, tmp_path, FEATURE_REQUESTS, "2026-12-04T10:00:00Z",
                          "how many customers asked for SAML SSO?")
    assert count.startswith("Hooli also wants SAML SSO, 5 now."), count


ONCALL_WEEK = chat(
    ("kai", "2026-11-30T08:00:00Z",
     "Oncall handoff: I'm primary this week (Nov 30 – Dec 6), zoe is secondary. 3 open "
     "incidents carried over: INC-771 (disk alerts on db-4), INC-774 (flaky health check on "
     "edge-2), INC-780 (cert expiry warning for api.acme.io, expires Dec 12)."),
    ("zoe", "2026-12-01T13:00:00Z", "INC-774 closed, health check timeout raised from 2s to 5s."),
    ("kai", "2026-12-02T02:30:00Z",
     "Paged at 2:30am for db-4 disk at 91%, cleaned up old WAL files, now 64%. INC-771 stays "
     "open until we add the retention job."),
    ("ops-bot", "2026-12-02T09:00:00Z", "Reminder: cert for api.acme.io expires in 10 days."),
    ("zoe", "2026-12-03T11:00:00Z",
     "Renewed the api.acme.io cert, valid until Dec 2027. INC-780 resolved."))


def test_an_oncall_week_asked_what_is_still_open_and_when_a_cert_expires(lurker, tmp_path):
    """An on-call week asked on 4 Dec: "which incidents are still open?" answered with the three
    carried over on Monday (two were closed since, by their numbers alone), and "when does the
    api.acme.io cert expire?" with 12 December (it was renewed the day before, "valid until Dec
    2027", which was no date)."""
    still_open, expiry = asked_after(
        lurker, tmp_path, ONCALL_WEEK, "2026-12-04T10:00:00Z",
        "which incidents are still open?", "when does the api.acme.io cert expire?")
    assert still_open.startswith("3 open incidents carried over"), still_open
    closed = still_open.split("Closed since:")[1]
    assert "INC-774 closed" in closed and "INC-780 resolved" in closed, still_open
    assert "INC-771" not in closed, still_open
    assert expiry.startswith("December 2027: Renewed the api.acme.io cert"), expiry


PEOPLE_OPS = chat(
    ("hana", "2026-11-25T09:00:00Z", "Dec 24-26 office closed, also Jan 1. Enjoy the break!"),
    ("hana", "2026-12-03T15:00:00Z", "Reminder: expense reports for Q4 due by Jan 8."))


def test_a_people_ops_channel_asked_about_closures_and_deadlines(lurker, tmp_path):
    """Asked on 4 Dec: "Dec 24-26 office closed, also Jan 1" (said 25 Nov) was last year's days
    ("closed" made the sentence past: its days came before the office), and "when are Q4
    expense reports due?" answered Q4 (the question's "Q4" was read as a word beside it)."""
    open_24, new_year, due = asked_after(
        lurker, tmp_path, PEOPLE_OPS, "2026-12-04T10:00:00Z",
        "is the office open on Dec 24?", "is the office closed on new year's day?",
        "when are Q4 expense reports due?")
    assert open_24.startswith("Dec 24-26 [2026-12-24 to 2026-12-26] office closed, also Jan 1 "
                              "[2027-01-01]."), open_24
    assert new_year.startswith("Dec 24-26 [2026-12-24 to 2026-12-26] office closed"), new_year
    assert due.startswith("8 January 2027:"), due


RELEASES_AND_CI = chat(
    ("github", "2026-11-30T10:00:00Z",
     "Release v2.3.0 published by ana\n## What's Changed\n* feat: bulk export API by @ana in "
     "#1201\n* fix: timezone offset in reports by @raj in #1207\n**Full Changelog**: "
     "v2.2.4...v2.3.0"),
    ("ci-bot", "2026-12-01T14:12:00Z",
     "❌ Build failed on main: test_reports_tz (tests/reports/test_tz.py) after #1215 "
     "\"refactor report scheduler\" by @kim"),
    ("kim", "2026-12-01T14:30:00Z", "on it, reverting #1215"),
    ("ci-bot", "2026-12-01T15:02:00Z", "✅ Build passed on main (revert of #1215)"),
    ("github", "2026-12-02T09:00:00Z",
     "Release v2.3.1 published by raj\n## What's Changed\n* fix: CSV export header order by "
     "@raj in #1218"))


def test_a_release_and_ci_channel_asked_what_is_latest_and_what_broke(lurker, tmp_path):
    """GitHub's and a CI bot's posts, asked on 4 Dec: "what's the latest release?" was v2.3.0
    ("published" was no word of releasing), "when was v2.3.0 released?" had no date, "which PR
    broke the build?" was declined ("failed" and "#1215" are neither "broke" nor "PR"), "is main
    green?" said the revert was under way as the latest (the build passed half an hour after),
    and a release's list of changes named no release."""
    latest, released, broke, green = asked_after(
        lurker, tmp_path, RELEASES_AND_CI, "2026-12-04T10:00:00Z",
        "what's the latest release?", "when was v2.3.0 released?",
        "which PR broke the build?", "is main green?")
    assert latest.startswith("Latest: Release v2.3.1 published by raj"), latest
    assert released.startswith("30 November 2026, when it was reported:"), released
    assert broke.startswith("❌ Build failed on main"), broke
    assert green.startswith("✅ Build passed on main (revert of #1215)"), green
    listed = lurker("list").stdout
    assert "Release v2.3.0 published by ana, What's Changed: feat: bulk export API" in listed


WEBINAR = chat(
    ("tess", "2026-12-03T14:00:00Z",
     "Webinar with Acme confirmed for Dec 16, 11am ET. 240 signups so far."))


def test_a_running_count_stays_with_what_it_counts(lurker, tmp_path):
    """"how many people signed up for the webinar?" was declined: "240 signups so far." was a
    memory of its own that named no webinar, and "signups" is no "signed up"."""
    [count] = asked_after(lurker, tmp_path, WEBINAR, "2026-12-04T10:00:00Z",
                          "how many people signed up for the webinar?")
    assert count.startswith("Webinar with Acme confirmed for Dec 16 [2026-12-16], 11am ET. 240 "
                            "signups so far."), count


IT_HELP = threaded(
    ("nora", "2026-11-30T09:00:00Z", "m1", None, "how do I get VPN access?"),
    ("it-sam", "2026-11-30T09:05:00Z", "m2", "m1",
     "File a ticket in the IT portal under Access > VPN, approval takes a day."),
    ("kim", "2026-12-03T09:00:00Z", "m9", None, "How do I request a new monitor?"))


def test_a_help_channels_unanswered_question_is_not_quoted_as_an_answer(lurker, tmp_path):
    """An IT help channel asked on 4 Dec: a question nobody answered was the answer, quoted as
    what kim "said"; one answered in its thread is answered by the reply."""
    vpn, monitor = asked_after(lurker, tmp_path, IT_HELP, "2026-12-04T10:00:00Z",
                               "how do I get VPN access?", "how do I request a new monitor?")
    assert vpn.startswith("File a ticket in the IT portal under Access > VPN"), vpn
    assert monitor.startswith("Nothing in memory answers it; kim asked: \"How do I request a "
                              "new monitor?\""), monitor


ROUTINES = chat(
    ("lead", "2026-11-20T09:00:00Z",
     "From Monday, daily standup is at 9:30 CET in the #eng huddle."),
    ("lead", "2026-12-01T09:00:00Z",
     "From Monday, the retro moves to Thursdays at 16:00, every other week."),
    ("lead", "2026-12-02T09:00:00Z",
     "Reminder: deploy window is Tuesdays and Thursdays 14:00-16:00 UTC."))


def test_a_schedule_in_force_is_its_own_answer_not_the_day_it_began(lurker, tmp_path):
    """"when is standup?" on 4 Dec led with 23 November, the Monday "From Monday, daily standup
    is at 9:30 CET" began; a schedule still to begin leads with its first day, and the deploy
    window is its own answer as before."""
    standup, retro, window = asked_after(
        lurker, tmp_path, ROUTINES, "2026-12-04T10:00:00Z",
        "when is standup?", "when is the retro?", "when is the deploy window?")
    assert standup.startswith("From Monday [2026-11-23], daily standup is at 9:30 CET"), standup
    assert retro.startswith("7 December 2026:"), retro
    assert window.startswith("Reminder: deploy window is Tuesdays and Thursdays"), window


REVIEW_AND_REPLY = threaded(
    ("review-bot", "2026-12-02T10:00:00Z", "r1", None,
     "**PR #2290 review**\n\n**Summary**: adds a Kafka consumer for webhook events.\n\n"
     "**Issues**\n1. `consume()` is not thread-safe: the offset map is shared across workers.\n"
     "2. No backoff on retries, a poison message loops forever.\n3. The DLQ topic name is "
     "hard-coded.\n\n**Verdict**: request changes."),
    ("dev-tom", "2026-12-02T15:00:00Z", "r2", "r1",
     "fixed 1 with a lock and 2 with capped exponential backoff, 3 is a follow-up (#2301)"),
    ("agent-load", "2026-12-03T09:00:00Z", "r3", None,
     "Load test for PR #2290: p99 webhook latency went from 180ms to 210ms at 2k rps, within "
     "budget."))


def test_a_reviews_points_answered_by_number_in_its_thread(lurker, tmp_path):
    """A review bot's numbered issues, the author's reply by number in its thread ("fixed 1 with
    a lock …"), and an agent's load test of the PR, asked on 4 Dec: "is the thread-safety issue
    fixed?" answered "Latest:" with the load test (it names the PR; the reply names no issue's
    words), and "what issues did the review find on PR 2290?" led with the verdict (the issues'
    label came after the review's title, and was no field)."""
    fixed, issues = asked_after(
        lurker, tmp_path, REVIEW_AND_REPLY, "2026-12-04T10:00:00Z",
        "is the thread-safety issue fixed?", "what issues did the review find on PR 2290?")
    assert fixed.startswith("Latest: fixed 1 with a lock and 2 with capped exponential backoff"), \
        fixed
    assert issues.startswith("**PR #2290 review**, Issues: `consume()` is not thread-safe"), issues


OFFER_NEGOTIATION = chat(
    ("lena", "2026-11-30T10:00:00Z",
     "Jonas Berg (backend) passed the onsite. Offer going out today: €85k base + 0.1% equity, "
     "start Feb 1."),
    ("lena", "2026-12-02T11:00:00Z", "Jonas countered at €92k, we met at €89k. He accepted!"))


def test_a_short_note_of_what_he_did_stays_with_whom_it_is_of(lurker, tmp_path):
    """"Jonas countered at €92k, we met at €89k. He accepted!": the acceptance was dropped as too
    short, so "did jonas accept?" answered with the counter-offer alone and "what salary did
    jonas accept?" was declined."""
    accepted, salary = asked_after(lurker, tmp_path, OFFER_NEGOTIATION, "2026-12-04T10:00:00Z",
                                   "did jonas accept?", "what salary did jonas accept?")
    assert accepted.startswith("Jonas countered at €92k, we met at €89k. He accepted!"), accepted
    assert salary.startswith("Jonas countered at €92k, we met at €89k. He accepted!"), salary


LAUNCH_CHECKLIST = threaded(
    ("pm", "2026-11-30T09:00:00Z", "c1", None,
     "Launch checklist for v3 (ship Dec 10):\n- [ ] pricing page live\n- [ ] docs updated\n"
     "- [ ] status page entry\n- [ ] legal review of ToS changes\n- [ ] email to customers"),
    ("web", "2026-12-01T10:00:00Z", "c2", "c1", "pricing page is live"),
    ("mia", "2026-12-02T16:00:00Z", "c3", "c1", "docs done"),
    ("legal", "2026-12-03T11:00:00Z", "c4", "c1",
     "ToS review blocked till Monday, waiting on outside counsel"))


def test_a_launch_checklist_and_its_threads_word_on_each_item(lurker, tmp_path):
    """A launch checklist with replies in its thread, asked on 4 Dec: "what's left for the
    launch?" answered with the checklist as posted (what its thread said since shares no word
    with the question), "are the docs updated?" with the checklist ("docs done" was dropped as
    too short), and "when is legal review done?" with the ship date (the reply names no
    "legal")."""
    left, docs, legal = asked_after(
        lurker, tmp_path, LAUNCH_CHECKLIST, "2026-12-04T10:00:00Z",
        "what's left for the launch?", "are the docs updated?", "when is legal review done?")
    assert left.startswith("Launch checklist for v3"), left
    since = left.split("Since then:")[1]
    assert since.index("pricing page is live") < since.index("docs done") \
        < since.index("ToS review blocked till Monday"), left
    assert docs.startswith("docs done (2 December 2026)"), docs
    assert legal.startswith("7 December 2026: ToS review blocked till Monday"), legal


SSO_TICKET = chat(
    ("support", "2026-12-01T09:00:00Z",
     "ZD-10422: Acme users stuck in an SSO redirect loop after login since this morning."),
    ("eng-ana", "2026-12-01T11:00:00Z",
     "ZD-10422 root cause: the session cookie got SameSite=Strict in yesterday's release, so the "
     "IdP POST back drops it."),
    ("support", "2026-12-02T09:00:00Z", "Acme confirms ZD-10422 is fixed."))


def test_a_tickets_cause_said_by_its_number_answers_what_caused_it(lurker, tmp_path):
    """"what caused the SSO loop?" answered with the report: the cause was said of the ticket by
    its number ("ZD-10422 root cause: …"), which shares no word with the question."""
    [cause] = asked_after(lurker, tmp_path, SSO_TICKET, "2026-12-04T10:00:00Z",
                          "what caused the SSO loop?")
    assert cause.startswith("ZD-10422 root cause: the session cookie got SameSite=Strict"), cause


SALES_PIPELINE = chat(
    ("kim", "2026-11-24T10:00:00Z",
     "Umbrella deal: $240k ARR, verbal yes, procurement starts next week."),
    ("kim", "2026-12-04T08:00:00Z", "Hooli closed-lost, went with a competitor on price."))


def test_which_deals_were_lost_is_what_says_closed_lost(lurker, tmp_path):
    """"which deals did we lose?" answered with the live Umbrella deal (it says "deal"; "closed-
    lost" is no "lose" to a stemmer)."""
    [lost] = asked_after(lurker, tmp_path, SALES_PIPELINE, "2026-12-04T10:00:00Z",
                         "which deals did we lose?")
    assert lost.startswith("Hooli closed-lost, went with a competitor on price."), lost


ONE_LINE_STANDUPS = chat(
    ("maya", "2026-11-30T09:02:00Z",
     "Yesterday: finished the billing export. Today: pagination for the audit log. Blockers: none"),
    ("leo", "2026-11-30T09:05:00Z",
     "Y: reviewed #1204, T: start on the webhook retries, B: waiting on staging creds from ops"),
    ("maya", "2026-12-01T09:01:00Z",
     "Yesterday: audit log pagination merged. Today: CSV export of invoices. Blockers: need "
     "design for the empty state"),
    ("leo", "2026-12-01T09:07:00Z",
     "Y: webhook retries in review (#1211). T: fix flaky test_payout_sync. B: still no staging "
     "creds"),
    ("ops-priya", "2026-12-01T11:30:00Z",
     "@leo staging creds are in 1Password under \"staging-api\", sorry for the delay"))


def test_one_line_standups_blockers_and_what_cleared_them(lurker, tmp_path):
    """Standups typed on one line ("Y: …, T: …, B: …"), asked the next day: "what is leo
    blocked on?" was answered "leo has not said they are blocked" (the one-line standup was one
    sentence, its blocker no standup's, and the creds "are in 1Password" cleared nothing), and
    "what is maya working on today?" with her older standup ("working" was a subject, as
    "doing" is not)."""
    lurker("ingest", write_jsonl(tmp_path / "standups.jsonl", ONE_LINE_STANDUPS),
           "--session", "s")
    before = lurker("recall", "what is leo blocked on?", "--now",
                    "2026-12-01T10:00:00Z").stdout
    assert before.startswith("Blocked now:\n- leo: Blockers: still no staging creds") \
        or before.startswith("Blocked now:\n- leo: Blockers: waiting on staging creds"), before
    after = lurker("recall", "what is leo blocked on?", "--now", "2026-12-02T10:00:00Z").stdout
    assert after.startswith("leo is not blocked now.\nUnblocked:\n- leo: Blockers: waiting on "
                            "staging creds from ops (30 November 2026); unblocked: \"ops-priya: "
                            "@leo staging creds are in 1Password"), after
    maya = lurker("recall", "what is maya working on today?", "--now",
                  "2026-12-02T10:00:00Z").stdout
    assert maya.startswith("Nothing from today yet; the latest: Today [2026-12-01]: CSV export "
                           "of invoices."), maya


TEAM_WEEK = chat(
    ("raj", "2026-11-25T13:00:00Z",
     "Heads up: upgrading Node from 18 to 20 across all services next week"),
    ("raj", "2026-12-02T13:00:00Z",
     "Node 20 is live on api and web. worker stays on 18 until the sharp bug is fixed"),
    ("hana", "2026-12-02T17:00:00Z",
     "Feedback for Jonas (backend, senior): strong hire from me, great system design"),
    ("dev", "2026-12-02T17:20:00Z",
     "Jonas: hire. Coding round was solid, a bit slow on the SQL question"),
    ("ana", "2026-12-02T17:45:00Z", "Jonas: no hire from me, weak on ownership questions"),
    ("ana", "2026-12-03T18:00:00Z",
     "For re:Invent trip: flying out Sunday, hotel is the Venetian, back Friday night"),
    ("dev", "2026-12-03T18:05:00Z", "I land Monday 9am, can someone grab the booth badges?"))


def test_versions_views_and_a_trip_asked_the_next_day(lurker, tmp_path):
    """Asked on 4 Dec: "which Node version are we on?" was declined ("Node 20" says no
    "version"); "what did people think of Jonas?" was declined ("people" a word to share), then
    answered "no hire — changed from hire" (ana's vote replaced dev's, one "Jonas" key); "when
    is ana flying out?" was declined ("Invent" of "re:Invent" read as someone else named); "when
    does dev land?" quoted as a question ("…, can someone grab the booth badges?"); "who said
    no hire for Jonas?" added dev's "Jonas: hire."."""
    node, views, flying, lands, no_hire = asked_after(
        lurker, tmp_path, TEAM_WEEK, "2026-12-04T10:00:00Z",
        "which Node version are we on?", "what did people think of Jonas?",
        "when is ana flying out?", "when does dev land?", "who said no hire for Jonas?")
    assert node.startswith("Node 20 is live on api and web."), node
    assert "changed from" not in views, views
    assert views.index("strong hire from hana") < views.index("dev said: Jonas: hire.") \
        < views.index("Jonas: no hire from ana"), views
    assert flying.startswith("6 December 2026: For re:Invent trip: flying out Sunday "
                             "[2026-12-06], hotel is the Venetian, back Friday [2026-12-11]"), \
        flying
    assert lands.startswith("7 December 2026: dev lands Monday [2026-12-07] 9am."), lands
    # (and not dev's "Jonas: hire." beside ana's "no hire": the word without its "no")
    assert no_hire.startswith("Jonas: no hire from ana") and "Jonas: hire." not in no_hire, \
        no_hire


RFC_THREAD = threaded(
    ("nina", "2026-11-20T10:00:00Z", "r1", None,
     "RFC-51: move job scheduling from cron boxes to Temporal. Owner: nina. Decision needed by "
     "Dec 1."),
    ("omar", "2026-11-20T11:00:00Z", "r2", "r1",
     "+1 on Temporal, but worried about the ops load of running it ourselves"),
    ("kai", "2026-11-21T09:00:00Z", "r3", "r1",
     "-1, pricing is steep; Airflow would cover 90% of it"),
    ("li", "2026-11-21T10:00:00Z", "r4", "r1", "+1"),
    ("nina", "2026-12-01T16:00:00Z", "r5", "r1",
     "Decision: going with Temporal Cloud, kai's cost concern addressed by the startup credits. "
     "Migration starts Jan."))


def test_an_rfc_thread_s_votes_and_its_decision(lurker, tmp_path):
    """An RFC with "+1"/"-1" replies in its thread, asked on 4 Dec: "who objected to RFC-51?"
    was answered with nina's RFC (neither "-1" nor "worried" says "object"), "who supported
    RFC-51?" too (a bare "+1" was let go, and "+1 on Temporal, …" names no RFC), "what did
    people think of RFC-51?" showed nina's RFC twice, and "Migration starts Jan." had no date."""
    objected, supported, views, starts, votes = asked_after(
        lurker, tmp_path, RFC_THREAD, "2026-12-04T10:00:00Z",
        "who objected to RFC-51?", "who supported RFC-51?", "what did people think of RFC-51?",
        "when does the Temporal migration start?", "what were the votes on RFC-51?")
    assert objected.startswith("omar: +1 on Temporal, but worried about the ops load"), objected
    assert "kai: -1, pricing is steep" in objected, objected
    assert supported.startswith("li: +1 (on nina's \"RFC-51: move job scheduling"), supported
    assert "omar: +1 on Temporal" in supported and "kai" not in supported, supported
    assert views.count("RFC-51: move job scheduling from cron boxes to Temporal. Owner") == 1, \
        views
    assert views.index("omar: +1") < views.index("kai: -1") < views.index("li: +1") \
        < views.index("Decision: going with Temporal Cloud"), views
    assert starts.startswith("January 2027: Decision: going with Temporal Cloud"), starts
    # (the votes as views: each, with whose)
    assert "omar: +1" in votes and "kai: -1" in votes and "li: +1" in votes, votes


FLAKES_AND_HANDOFFS = chat(
    ("ci-bot", "2026-12-02T08:00:00Z",
     "test_checkout_retry flaked 3 times in the last 24h (main)"),
    ("sam", "2026-12-02T09:00:00Z", "quarantined test_checkout_retry, ticket QA-310 to fix it"),
    ("sam", "2026-12-03T15:00:00Z",
     "QA-310 fixed: race in the mock clock. test_checkout_retry back in the suite"),
    ("zoe", "2026-12-03T23:30:00Z",
     "Handoff to @ravi: one open issue, redis memory at 85% on cache-2, watch it. Nothing else."),
    ("ravi", "2026-12-04T07:00:00Z", "ack. cache-2 at 88% now, bumped maxmemory to 12gb"))


def test_a_flake_s_cause_and_an_on_call_handoff(lurker, tmp_path):
    """"what was the cause of the checkout retry flake?" was answered with the flake itself (a
    race named is a cause), and "what did zoe hand over?" was declined ("Handoff" is no "hand
    over" to a stemmer)."""
    cause, handed = asked_after(
        lurker, tmp_path, FLAKES_AND_HANDOFFS, "2026-12-04T10:00:00Z",
        "what was the cause of the checkout retry flake?", "what did zoe hand over?")
    assert cause.startswith("QA-310 fixed: race in the mock clock."), cause
    assert handed.startswith("Handoff to @ravi: one open issue, redis memory at 85%"), handed


RELEASE_NOTES_AND_EMBARGO = chat(
    ("raj", "2026-11-20T10:00:00Z",
     "Release v2.3.0 published by raj. ## What's Changed: * Add CSV export by @maya in #1180 * "
     "Fix login redirect by @leo in #1185. Full changelog: "
     "https://github.com/acme/app/compare/v2.2.0...v2.3.0"),
    ("kim", "2026-11-24T10:00:00Z",
     "Next release (v2.4) will include the audit log and SSO for Acme; cut is Dec 8"),
    ("sam", "2026-11-25T10:00:00Z", "Globex signed, net-60 payment terms, $120k ARR"),
    ("lee", "2026-11-26T10:00:00Z", "we're switching from pip-tools to uv for lockfiles, PR #1201"),
    ("lee", "2026-12-01T10:00:00Z",
     "Embargo on the security advisory is Dec 10. If the patch slips, the embargo moves with it."),
    ("lee", "2026-12-03T10:00:00Z", "patch slipped to Dec 14"),
    ("ana", "2026-12-01T10:00:00Z", "H1 was rough for the platform team, we lost two people"),
    ("ana", "2026-12-02T10:00:00Z", "let's revisit pricing in two sprints"),
    ("ana", "2026-12-02T11:00:00Z", "the office move happens over the holidays"))


def test_a_date_said_in_the_sentence_before_its_condition(lurker, tmp_path):
    """"when is the embargo?" was answered "No date was given" with "If the patch slips, the
    embargo moves with it.": the sentence before it, "Embargo … is Dec 10.", was moved below
    eight memories sharing no word with the question (fusion puts a message's second memory
    after new evidence) and the answer read eight."""
    [embargo] = asked_after(lurker, tmp_path, RELEASE_NOTES_AND_EMBARGO, "2026-12-04T10:00:00Z",
                            "when is the embargo?")
    assert embargo.startswith("10 December 2026: Embargo on the security advisory is Dec 10"), \
        embargo


FREEZE_AND_WEBINAR = chat(
    ("ops", "2026-11-20T09:00:00Z",
     "Reminder: no deploys on Fridays, and never during the holiday freeze (Dec 21 - Jan 4)"),
    ("ops", "2026-12-03T09:00:00Z", "Holiday freeze starts Dec 18 this year, not Dec 21"),
    ("mkt", "2026-12-01T09:00:00Z", "Webinar on Dec 10 at 11am ET, 340 signups so far, budget $5k"),
    ("mkt", "2026-12-03T09:00:00Z", "webinar moved to Dec 17, same time"),
    ("omar", "2026-12-02T17:00:00Z",
     "SLA for Initech is 4h response on P1, 1 business day on P2"))


def test_what_a_change_replaced_still_answers_what_the_change_did_not_say(lurker, tmp_path):
    """Asked on 4 Dec: "can I deploy on Dec 19?" was answered with the freeze "Dec 21 - Jan 4"
    alone ("…, not Dec 21" said no change), and "how many signups for the webinar?" with the
    move alone (a move supersedes what it moves, and the signups left recall with it)."""
    deploy, signups, when = asked_after(
        lurker, tmp_path, FREEZE_AND_WEBINAR, "2026-12-04T10:00:00Z",
        "can I deploy on Dec 19?", "how many signups for the webinar?", "when is the webinar?")
    assert deploy.startswith("Nothing in memory is about Dec 19 yet; what stands: Latest: "
                             "Holiday freeze starts Dec 18"), deploy
    assert "Before that: Reminder: no deploys on Fridays" in deploy, deploy
    assert signups.startswith("Webinar on Dec 10 [2026-12-10] at 11am ET, 340 signups so far"), \
        signups
    assert "webinar moved to Dec 17" in signups, signups
    assert when.startswith("17 December 2026: webinar moved to Dec 17"), when


CUSTOMER_SUCCESS = chat(
    ("cs-amy", "2026-11-10T10:00:00Z",
     "Initech renewal is Jan 31, they're asking for a 15% discount"),
    ("cs-amy", "2026-12-02T10:00:00Z",
     "Initech agreed to renew at 10% off, 2-year term, signed today"),
    ("cs-amy", "2026-12-03T10:00:00Z", "Globex churned, moving to a competitor at end of Dec"))


def test_a_customer_leaving_and_a_contract_s_term_in_other_words(lurker, tmp_path):
    """"when does Globex leave?" and "how long is the Initech contract?" were declined: "churned,
    moving to a competitor" says no "leave", "2-year term" no "contract"."""
    leave, term = asked_after(lurker, tmp_path, CUSTOMER_SUCCESS, "2026-12-04T10:00:00Z",
                              "when does Globex leave?", "how long is the Initech contract?")
    assert leave.startswith("31 December 2026: Globex churned, moving to a competitor"), leave
    assert term.startswith("Initech agreed to renew at 10% off, 2-year term"), term


DESIGN_WRITE_UP = chat(
    ("nina", "2026-12-01T10:00:00Z",
     "**Design: tenant-level rate limiting**\nOwner: nina. Reviewers: omar, kai.\n\n**Problem**: "
     "one noisy tenant can starve others; last month Acme's batch import took down search for 40 "
     "minutes.\n\n**Proposal**: token bucket per tenant in Redis, 600 req/min default, burst "
     "100. Enterprise plans get 3000 req/min.\n\n**Rollout**: shadow mode Dec 7-11 (log only), "
     "enforce for free plans Dec 14, all plans Jan 5.\n\n**Risks**: Redis becomes a hard "
     "dependency on the request path; we fall back to allow-all if Redis is down for more than "
     "2s.\n\n**Open questions**: do we count websocket messages? Do internal services get an "
     "exemption?"),
    ("omar", "2026-12-01T14:00:00Z",
     "on the design: websocket messages should count, 1 msg = 1 request. internal services: no "
     "exemption, give them their own tenant"),
    ("kai", "2026-12-02T09:00:00Z",
     "on the design: the 2s fallback is too long, p99 budget is 300ms. make it 200ms"))


def test_a_design_write_up_s_sections_and_fields(lurker, tmp_path):
    """A design pasted with its fields and sections, asked on 4 Dec: "who reviews the rate
    limiting design?" had no answer (its "Reviewers:" line was cut, six memories a message);
    "what are the risks …?" was led by the title ("**Design: …**" read as a field "Design");
    a reply "on the design: …" keyed "on design", which the next reply on it replaced."""
    reviews, risks, why, websockets = asked_after(
        lurker, tmp_path, DESIGN_WRITE_UP, "2026-12-04T10:00:00Z",
        "who reviews the rate limiting design?", "what are the risks of the rate limiting design?",
        "why are we doing tenant rate limiting?", "do websocket messages count?")
    assert reviews.startswith("**Design: tenant-level rate limiting** Reviewers: omar, kai."), \
        reviews
    assert risks.startswith("Risks: Redis becomes a hard dependency on the request path"), risks
    assert why.startswith("Problem: one noisy tenant can starve others"), why
    assert websockets.startswith("on the design: websocket messages should count"), websockets


HELP_DESK = threaded(
    ("leo", "2026-12-02T11:00:00Z", "q2", None, "is the VPN down for anyone else?"),
    ("ops-ana", "2026-12-02T11:05:00Z", "a2", "q2",
     "yes, Zscaler outage, use the backup VPN profile \"acme-b\" until it's fixed"),
    ("ops-ana", "2026-12-02T13:00:00Z", "a3", "q2",
     "VPN is back, you can switch back to the main profile"))


def test_a_later_answer_in_the_same_thread_that_says_a_change_leads(lurker, tmp_path):
    """"which VPN profile should I use?" asked two days after the outage was answered "use the
    backup VPN profile "acme-b"": the thread's later "VPN is back, you can switch back to the
    main profile" says no "use", and came second."""
    [profile] = asked_after(lurker, tmp_path, HELP_DESK, "2026-12-04T10:00:00Z",
                            "which VPN profile should I use?")
    assert profile.startswith("Latest: VPN is back, you can switch back to the main profile"), \
        profile


GITHUB_RELEASES = chat(
    ("raj", "2026-11-20T10:00:00Z",
     "Release v2.3.0 published by raj\n## What's Changed\n* Add CSV export by @maya in #1180\n* "
     "Fix login redirect by @leo in #1185\n**Full Changelog**: "
     "https://github.com/acme/app/compare/v2.2.0...v2.3.0"),
    ("raj", "2026-12-01T10:00:00Z",
     "Release v2.3.1 published by raj\n## What's Changed\n* Fix CSV export encoding by @maya in "
     "#1210\n**Full Changelog**: https://github.com/acme/app/compare/v2.3.0...v2.3.1"))


def test_what_changed_in_a_release_is_its_what_s_changed(lurker, tmp_path):
    """GitHub's release posts: "what changed in v2.3.0?" and "what's in v2.3.1?" were answered
    with "Release v2.3.0 published by raj" and a changelog link (the post's "What's Changed"
    list, the same message's, came third)."""
    changed, contents = asked_after(lurker, tmp_path, GITHUB_RELEASES, "2026-12-04T10:00:00Z",
                                    "what changed in v2.3.0?", "what's in v2.3.1?")
    assert changed.startswith("Release v2.3.0 published by raj, What's Changed: Add CSV export "
                              "by @maya in #1180; Fix login redirect"), changed
    assert contents.startswith("Release v2.3.1 published by raj, What's Changed: Fix CSV export "
                               "encoding"), contents


def test_whose_a_thing_is_is_not_answered_by_a_sum(lurker, tmp_path):
    """"who owns billing?" was answered with "PO-7781 for the Snyk renewal ($18k/yr) approved
    by finance": "billing" stems as "bill", a word of paying, and any sum was about it."""
    [owner] = asked_after(lurker, tmp_path, chat(
        ("lee", "2026-11-30T12:00:00Z", "PO-7781 for the Snyk renewal ($18k/yr) approved by "
         "finance"),
        ("sam", "2026-12-01T15:00:00Z", "AWS bill for November came in at $48.2k")),
        "2026-12-04T10:00:00Z", "who owns billing?")
    # (the AWS bill shares "bill" itself, a stemmer's word for "billing")
    assert "Snyk" not in owner, owner


PARTNERS_AND_REQUESTS = chat(
    ("pm", "2026-12-01T10:00:00Z",
     "Top feature requests this month: dark mode (14), SSO for Pro (9), CSV import (6)"),
    ("bd", "2026-11-28T10:00:00Z", "NDA signed with Hooli, first call next Tuesday"),
    ("bd", "2026-12-01T16:00:00Z", "Hooli call went well, they want a pilot in Q1"))


def test_a_partner_s_pilot_to_come_and_a_count_of_requests(lurker, tmp_path):
    """Said on 1 Dec, "Hooli call went well, they want a pilot in Q1" labelled Q1 2026 (the
    first clause's past lent to the second), and "when was the Hooli call?" answered "Q1 2026";
    "how many people asked for SSO for Pro?" was declined ("requests" is no "asked")."""
    call, pilot, asked = asked_after(
        lurker, tmp_path, PARTNERS_AND_REQUESTS, "2026-12-04T10:00:00Z",
        "when was the Hooli call?", "what does Hooli want?",
        "how many people asked for SSO for Pro?")
    assert call.startswith("1 December 2026: NDA signed with Hooli, first call next Tuesday"), \
        call
    assert pilot.startswith("Hooli call went well, they want a pilot in Q1 [Q1 2027]"), pilot
    assert asked.startswith("Top feature requests this month [December 2026]: dark mode (14), "
                            "SSO for Pro (9)"), asked


def test_a_follow_up_said_minutes_later_answers_why(lurker, tmp_path):
    """"why did the AWS bill go up?" was answered with the bill alone: sam's "Biggest jump is NAT
    gateway data transfer, $6.1k alone", two minutes later, shared no word with the question."""
    [why] = asked_after(lurker, tmp_path, chat(
        ("sam", "2026-12-01T15:00:00Z", "AWS bill for November came in at $48.2k, up from $39k "
         "in October. Budget is $45k/month."),
        ("sam", "2026-12-01T15:02:00Z", "Biggest jump is NAT gateway data transfer, $6.1k alone"),
        ("kim", "2026-12-01T15:10:00Z", "we should move the image CDN traffic off the NAT")),
        "2026-12-04T10:00:00Z", "why did the AWS bill go up?")
    assert why.startswith("Biggest jump is NAT gateway data transfer, $6.1k alone"), why


def test_a_refund_reported_done_closes_its_action_item(lurker, tmp_path):
    """A postmortem's action items, asked on 4 Dec: "which action items are still open?" kept
    "refund the 312 orders" open after support's "all 312 orders refunded" ("refunded" was no
    word of done)."""
    lurker("ingest", write_jsonl(tmp_path / "pm.jsonl", chat(
        ("lena", "2026-12-01T09:05:00Z",
         "Action items: 1) flag rollouts need a second approver (owner: omar, due Dec 10) 2) "
         "alert on checkout error rate > 2% (owner: kai, due Dec 5) 3) refund the 312 orders "
         "(owner: support, due Dec 3)"),
        ("support", "2026-12-03T17:00:00Z", "all 312 orders refunded"),
        ("kai", "2026-12-04T09:00:00Z", "checkout error rate alert is live"))), "--session", "s")
    still = lurker("recall", "which action items are still open?", "--now",
                   "2026-12-04T12:00:00Z").stdout
    open_part, _, done = still.partition("Done:")
    assert "second approver" in open_part and "refund the 312 orders" not in open_part, still
    assert "all 312 orders refunded" in done, still


def test_a_day_settled_in_a_short_sentence_and_thanks_for_what_was_done(lurker, tmp_path):
    """"when is the team dinner?" after "Friday it is! Dinner at Nopa, 7pm" had no date ("Friday
    it is!" was dropped, too short); "shoutout to @maya for fixing the billing export over the
    weekend" (said Tuesday) was labelled the weekend to come."""
    dinner, fixed = asked_after(lurker, tmp_path, chat(
        ("ana", "2026-12-02T10:00:00Z", "Poll: team dinner on Thu or Fri? Thu: 4 votes, Fri: 7"),
        ("ana", "2026-12-02T16:00:00Z", "Friday it is! Dinner at Nopa, 7pm"),
        ("li", "2026-12-01T10:00:00Z",
         "shoutout to @maya for fixing the billing export over the weekend 🙌")),
        "2026-12-03T10:00:00Z", "when is the team dinner?", "who fixed the billing export?")
    assert dinner.startswith("4 December 2026: Friday [2026-12-04] it is! Dinner at Nopa"), dinner
    assert "over the weekend [weekend of 2026-11-28]" in fixed, fixed


def test_what_time_a_meeting_is_in_another_zone(lurker, tmp_path):
    """"what time is standup in PT?" was declined ("PT" and "time" are no words of "daily standup
    is at 9:30 CET"); it is read in Pacific time on the day standup is (memory.time_zones)."""
    standup, call = asked_after(lurker, tmp_path, chat(
        ("zoe", "2026-12-01T09:00:00Z", "From Monday, daily standup is at 9:30 CET"),
        ("nina", "2026-12-02T16:00:00Z", "Customer call with Initech moved to Thursday 3pm PT")),
        "2026-12-02T18:00:00Z", "what time is standup in PT?",
        "what time is the Initech call in CET?")
    assert standup.startswith("00:30 PT (9:30 CET): From Monday [2026-12-07], daily standup"), \
        standup
    assert call.startswith("00:00 CET on Friday 4 December 2026 (3pm PT): Customer call with "
                           "Initech moved to Thursday [2026-12-03]"), call


def test_what_time_a_meeting_is_where_colleagues_are(lurker, tmp_path):
    """"what time is standup for the Bangalore folks?" was declined ("Bangalore" read as a
    person, "folks" a word to share); a zone is named by where people are as often as by its
    abbreviation, and "9:30 Berlin time" is a time with its zone."""
    folks, london, offsite = asked_after(lurker, tmp_path, chat(
        ("lena", "2026-12-01T09:00:00Z", "daily standup is at 9:30 Berlin time, starting Monday"),
        ("sam", "2026-12-01T09:10:00Z", "release call Thursday at 3pm PT"),
        ("ana", "2026-12-01T09:20:00Z", "offsite kicks off 10am ET in Lisbon")),
        "2026-12-02T10:00:00Z", "what time is standup for the Bangalore folks?",
        "what time is the release call for the london team?", "when is the offsite in Lisbon?")
    assert folks.startswith("14:00 Bangalore time (9:30 Berlin time): daily standup is at "
                            "9:30 Berlin time"), folks
    assert london.startswith("23:00 London time (3pm PT): release call Thursday"), london
    # where it is, not the zone asked in
    assert "Lisbon time" not in offsite and "offsite kicks off 10am ET" in offsite, offsite


DEAL_DESK = chat(
    ("dana", "2026-11-30T15:00:00Z", "Acme signed! 3-year deal, $120k ARR, kicks off Jan 5"),
    ("li", "2026-12-01T10:00:00Z", "Initech wants SSO before they sign, can we do that by Dec 15?"),
    ("kai", "2026-12-01T10:20:00Z", "SSO by Dec 15 is tight, realistic is Jan 10"),
    ("li", "2026-12-02T11:00:00Z", "Umbrella went dark, no reply in 3 weeks"),
    ("maya", "2026-11-20T10:00:00Z", "the AWS bill jumped to $14k this month"),
    ("maya", "2026-11-20T10:05:00Z", "Sam owns billing now, I'm moving to the data team"),
    ("tom", "2026-12-03T09:00:00Z", "OOO tdy, back tmrw"),
    ("rita", "2026-12-03T09:30:00Z", "offsite planning call wed 9/12? no wait, wed 12/9"),
    ("dana", "2026-12-03T16:00:00Z", "Initech verbal yes, paper by Friday"))


def test_a_deal_desk_channel(lurker, tmp_path):
    """A sales channel as typed: "Acme signed!" kept apart from its deal ("when does Acme kick
    off?" was declined); "Dec 15 is tight, realistic is Jan 10" answered Dec 15; "what's the
    status with Initech?" was declined (no "status" said); dana's Initech news, six hours after
    rita's offsite question and sharing no word of it, was its answer ("when is the offsite
    planning call?": Friday); "no reply in 3 weeks" was the week of 21 December; "who owns
    billing?" showed the AWS bill beside the owner; "wed 12/9" and "tdy" were no dates."""
    kickoff, sso, status, umbrella, billing, offsite, tom = asked_after(
        lurker, tmp_path, DEAL_DESK, "2026-12-04T10:00:00Z",
        "when does Acme kick off?", "when can we ship SSO?", "what's the status with Initech?",
        "what's the latest with Umbrella?", "who owns billing?",
        "when is the offsite planning call?", "when is tom back?")
    assert kickoff.startswith("5 January 2027: Acme signed! 3-year deal, $120k ARR, kicks off"), \
        kickoff
    assert sso.startswith("10 January 2027: SSO by Dec 15"), sso
    assert status.startswith("Initech verbal yes, paper by Friday [2026-12-04]"), status
    assert "[week of" not in umbrella and umbrella.startswith("Umbrella went dark"), umbrella
    assert billing.startswith("Sam owns billing now") and "AWS" not in billing, billing
    assert offsite.startswith("9 December 2026: offsite planning call wed 9/12"), offsite
    assert "OOO tdy [2026-12-03], back tmrw [2026-12-04]" in tom, tom


def test_a_days_figure_said_the_day_after_and_a_lunch_asked_with_an_emoji(lurker, tmp_path):
    """"what was DAU yesterday?", asked on the 4th, showed "DAU yesterday [2026-12-02] 12.3k"
    (said on the 3rd) as the 3rd's; it says whose day the figure is. "who's in for tacos
    friday? 🌮" was a memory of its own (the emoji hid the question mark) and answered who is
    coming to tacos by kim, who asked."""
    dau, tacos = asked_after(lurker, tmp_path, chat(
        ("ana", "2026-12-03T10:00:00Z", "DAU yesterday 12.3k, down 4% (the outage)"),
        ("kim", "2026-12-03T12:00:00Z", "who's in for tacos friday? 🌮"),
        ("raj", "2026-12-03T12:01:00Z", "me!")),
        "2026-12-04T10:00:00Z", "what was DAU yesterday?", "who's coming to tacos?")
    assert dau.startswith("Of 2 December 2026, said yesterday: DAU yesterday [2026-12-02] "
                          "12.3k"), dau
    assert tacos.startswith("who's in for tacos friday? raj.") and "kim" not in tacos, tacos


def test_a_closure_notice_and_whether_a_day_in_it_is_open(lurker, tmp_path):
    """HR's "closed Dec 24th to Jan 2nd, enjoy the break everyone" (no place named) was last
    year's; and "is the office open on Dec 28?" answered with "open enrollment closes Dec 15"
    ("28", a word of the day asked, was a word to share with the closure)."""
    closed, open_on = asked_after(lurker, tmp_path, chat(
        ("hr-bot", "2026-12-01T09:00:00Z", "Reminder: open enrollment closes Dec 15."),
        ("jen", "2026-12-01T10:00:00Z", "closed Dec 24th to Jan 2nd, enjoy the break everyone")),
        "2026-12-04T10:00:00Z", "when are we closed for the holidays?",
        "is the office open on Dec 28?")
    # (the whole closure: its first day alone was the head while "Dec 24th to Jan 2nd", read
    # again with its label, was two dates; 6 Dec, twenty-second session)
    assert closed.startswith("24 December 2026 to 2 January 2027: closed Dec 24th to Jan 2nd "
                             "[2026-12-24 to 2027-01-02]"), closed
    assert open_on.startswith("closed Dec 24th to Jan 2nd [2026-12-24 to 2027-01-02]"), open_on


def test_a_review_bots_issues_asked_by_file_and_by_pr(lurker, tmp_path):
    """A review bot's numbered issues: "what did review say about parser.go?" led with the
    re-review's "approved" (sharing "review"; a source file was no identifier), and "what issues
    did review find in PR 2311?" showed the re-review and the title, not the issues (the title
    ranked second, and held its "Verdict: …" too)."""
    parser, issues = asked_after(lurker, tmp_path, chat(
        ("review-bot", "2026-12-01T10:00:00Z", "PR #2311 (payments): 2 issues.\n1) parser.go:88 "
         "missing nil check on resp.Body\n2) retry loop has no backoff.\nVerdict: request "
         "changes"),
        ("review-bot", "2026-12-01T11:30:00Z", "PR #2311 re-review: approved")),
        "2026-12-04T10:00:00Z", "what did review say about parser.go?",
        "what issues did review find in PR 2311?")
    assert parser.startswith("1) parser.go:88 missing nil check on resp.Body"), parser
    assert "1) parser.go:88 missing nil check" in issues \
        and "2) retry loop has no backoff" in issues, issues


def test_what_someone_said_names_places_and_things_in_capitals(lurker, tmp_path):
    """"what did ana say?" was declined after "the new office is at 42 Elm Street, 3rd floor":
    "Elm" and "Street" were read as other people the memory was about, not ana's words."""
    [said] = asked_after(lurker, tmp_path, chat(
        ("ana", "2026-12-01T10:00:00Z", "the new office is at 42 Elm Street, 3rd floor"),
        ("ben", "2026-12-01T10:10:00Z", "the Q1 budget is $480k")),
        "2026-12-04T10:00:00Z", "what did ana say?")
    assert said.startswith("the new office is at 42 Elm Street, 3rd floor"), said


def test_a_launch_that_slips_and_a_price_corrected_by_who_set_it(lurker, tmp_path):
    """"launch slips to Dec 15. Embargo moves with it": "when does the press embargo lift?" kept
    Dec 10 (the short sentence was a memory alone, naming no day); "actually make that $14/seat"
    the day after the same person's "$15/seat" was no correction of it (only a thread's reply
    was), and "finance pushed back" then read as a move of the launch."""
    embargo, launch, price = asked_after(lurker, tmp_path, chat(
        ("mia", "2026-11-27T10:00:00Z", "launch is Dec 10, press embargo lifts the same day at "
                                        "9am ET"),
        ("mia", "2026-12-01T10:00:00Z", "launch slips to Dec 15. Embargo moves with it"),
        ("kai", "2026-12-02T10:00:00Z", "pricing page: Team plan goes from $12 to $15/seat on "
                                        "Jan 1, existing customers grandfathered until July"),
        ("kai", "2026-12-03T10:00:00Z", "actually make that $14/seat, finance pushed back")),
        "2026-12-04T10:00:00Z", "when does the press embargo lift?", "when is the launch?",
        "how much is the Team plan going to be?")
    assert embargo.startswith("15 December 2026: launch slips to Dec 15 [2026-12-15]. Embargo "
                              "moves with it"), embargo
    assert launch.startswith("15 December 2026: launch slips to Dec 15"), launch
    # (as "Latest:" since 5 Dec's eighteenth session: a correction naming the Team plan the
    # question names is a change of the price before it)
    assert price.removeprefix("Latest: ").startswith("Correction: actually make that $14/seat"), \
        price


def test_a_crash_pasted_with_its_traceback_and_the_fix(lurker, tmp_path):
    """"payments worker keeps crashing:" over a pasted traceback was a memory without its error
    (the code block was dropped whole); "is the RateLimitError fixed?" read the error as a
    person's name, and "fixed" as a word "no RateLimitErrors since" lacks; "what version fixed
    the rate limit errors?" shared no word of "RateLimitErrors"."""
    why, fixed, version = asked_after(lurker, tmp_path, chat(
        ("ana", "2026-12-02T10:00:00Z", "payments worker keeps crashing:\n```\nTraceback (most "
         "recent call last):\n  File \"/app/worker.py\", line 88, in handle\n    charge = "
         "stripe.Charge.create(amount=amt)\nstripe.error.RateLimitError: Request rate limit "
         "exceeded\n```\nstarted after the 10:00 deploy"),
        ("ben", "2026-12-02T14:00:00Z", "token bucket shipped in worker v2.4.1, no "
                                        "RateLimitErrors since")),
        "2026-12-04T10:00:00Z", "why is the payments worker crashing?",
        "is the RateLimitError fixed?", "what version fixed the rate limit errors?")
    assert why.startswith("payments worker keeps crashing: stripe.error.RateLimitError: Request "
                          "rate limit exceeded (worker.py line 88, in handle)"), why
    assert fixed.startswith("token bucket shipped in worker v2.4.1, no RateLimitErrors since"), \
        fixed
    assert "v2.4.1" in version, version


def test_who_is_out_over_the_holidays_on_a_day_asked_by_its_short_month(lurker, tmp_path):
    """"who is out on Dec 29?" read "Dec" as a person's name, so only a memory holding "Dec"
    answered it; and "offline over the holidays" had no date."""
    [out] = asked_after(lurker, tmp_path, chat(
        ("tom", "2026-12-02T12:00:00Z", "I'll be offline over the holidays, back Jan 5"),
        ("ana", "2026-12-02T12:05:00Z", "I'm out Dec 28-30")),
        "2026-12-04T10:00:00Z", "who is out on Dec 29?")
    assert "ana is out Dec 28-30" in out and "tom will be offline over the holidays " \
        "[2026-12-24 to 2027-01-01]" in out, out


def test_a_checklist_and_its_items_reported_done_in_the_channel(lurker, tmp_path):
    """"what's left for the 5.0 release?" showed the checklist as posted: "load test done" and
    "security review passed", said in the channel (no thread), were not read as its items'."""
    [left] = asked_after(lurker, tmp_path, chat(
        ("lena", "2026-12-02T10:00:00Z", "Release 5.0 checklist:\n- [x] changelog\n- [ ] load "
                                         "test (kai)\n- [ ] security review (sam)\n- [ ] docs "
                                         "site update"),
        ("kai", "2026-12-03T10:00:00Z", "load test done, p99 180ms at 2x traffic"),
        ("sam", "2026-12-03T15:00:00Z", "security review passed, one low finding filed as SEC-88")),
        "2026-12-04T10:00:00Z", "what's left for the 5.0 release?")
    assert "Since then: load test done, p99 180ms" in left \
        and "security review passed" in left, left


def test_a_decision_taken_back_is_shown_before_what_replaced_it(lurker, tmp_path):
    """"what database are we using for events?" showed "scratch that, going with DynamoDB" and
    the "decided: we go with Postgres" it took back side by side, as two answers."""
    [db] = asked_after(lurker, tmp_path, chat(
        ("raj", "2026-11-24T10:00:00Z", "decided: we go with Postgres for the events store"),
        ("raj", "2026-11-26T15:00:00Z", "scratch that, going with DynamoDB for events, Postgres "
                                        "can't keep up with the write volume")),
        "2026-12-04T10:00:00Z", "what database are we using for events?")
    assert db.startswith("scratch that, going with DynamoDB for events"), db
    assert "Before that: decided: we go with Postgres" in db, db


def test_how_long_an_alertmanager_alert_lasted(lurker, tmp_path):
    """"[RESOLVED] HighErrorRate checkout-api" was dropped as too short, and named less than
    its "[FIRING] HighErrorRate checkout-api 5xx > 5% for 5m": "how long did the outage last?"
    was declined."""
    [lasted] = asked_after(lurker, tmp_path, chat(
        ("pagerduty", "2026-12-02T14:02:00Z", "[FIRING] HighErrorRate checkout-api 5xx > 5% "
                                              "for 5m"),
        ("ana", "2026-12-02T14:10:00Z", "rolled back checkout-api to v3.8.1, errors dropping"),
        ("pagerduty", "2026-12-02T14:20:00Z", "[RESOLVED] HighErrorRate checkout-api")),
        "2026-12-04T10:00:00Z", "how long did the outage last?")
    assert lasted.startswith("18 minutes: from 14:02 UTC on 2 December 2026"), lasted


def test_whose_a_key_result_is_is_the_one_named(lurker, tmp_path):
    """"who owns KR2?" of OKRs posted in one message was answered with KR1's owner: "KR2" was no
    identifier, every point of the message named it by its message, and KR1's owner speaks
    here."""
    [owner] = asked_after(lurker, tmp_path, chat(
        ("vp", "2026-12-01T10:00:00Z",
         "Q1 OKRs for platform: O1 make checkout fast. KR1 p95 under 200ms (owner: kai). KR2 "
         "error rate under 0.1% (owner: omar). O2 cut infra cost 15% (owner: sam)"),
        ("kai", "2026-12-03T10:00:00Z", "KR1 update: p95 at 240ms, down from 310ms"),
        ("sam", "2026-12-03T11:00:00Z", "infra cost down 6% so far")),
        "2026-12-04T10:00:00Z", "who owns KR2?")
    assert "KR2 error rate under 0.1% (owner: omar)" in owner.split("(1 December 2026)")[0], owner


OFFER_SIGNED = chat(
    ("nina", "2026-11-30T15:00:00Z", "Priya Raman onsite is Thu 12/3, loop: system design (me), "
     "coding (Omar), values (Lee)"),
    ("omar", "2026-12-03T19:30:00Z", "strong hire from me on Priya R, great debugging"),
    ("nina", "2026-12-04T09:00:00Z", "offer going out to Priya today: L5, $185k base, start date "
     "Jan 11"),
    ("nina", "2026-12-04T22:40:00Z", "she signed!! 🎉 starting Jan 11, Omar will be her "
     "onboarding buddy"),
    ("omar", "2026-12-04T22:45:00Z", "🎉🎉"))


def test_she_signed_the_evening_after_her_offer_went_out(lurker, tmp_path):
    """A hiring channel as typed: "she signed!! … Omar will be her onboarding buddy", the evening
    after the same person's "offer going out to Priya today", named no one ("who's Priya's
    onboarding buddy?" was declined); "when does Priya start?" was answered with the day the
    offer went out (nearer "Priya" than "start" is to Jan 11)."""
    buddy, start = asked_after(lurker, tmp_path, OFFER_SIGNED, "2026-12-05T09:00:00Z",
                               "who's Priya's onboarding buddy?", "when does Priya start?")
    assert buddy.startswith("Priya signed!! 🎉 starting Jan 11 [2027-01-11], Omar will be her "
                            "onboarding buddy"), buddy
    assert start.startswith("11 January 2027: "), start


def test_a_ticket_asked_by_its_customer_and_a_page_after_minutes_written_short(lurker, tmp_path):
    """Support escalations and an on-call channel: "what's the status of the Contoso ticket?"
    was declined (no memory says "ticket": "closing #4821"), and "who gets paged after 15
    minutes?" too ("after 15 min unacked it goes to the EM")."""
    ticket, paged = asked_after(lurker, tmp_path, chat(
        ("jo", "2026-12-01T14:10:00Z", "escalating #4821 from Contoso: SSO login loops back to "
         "the IdP after the 2.3.0 upgrade, affects all their users"),
        ("kim", "2026-12-01T18:02:00Z", "fix is in 2.3.1, rolling out tomorrow morning"),
        ("jo", "2026-12-02T11:30:00Z", "Contoso confirmed 2.3.1 fixes it, closing #4821"),
        ("lee", "2026-12-04T17:45:00Z", "reminder: escalation policy changed, after 15 min "
         "unacked it goes to the EM, not the director")),
        "2026-12-05T09:00:00Z", "what's the status of the Contoso ticket?",
        "who gets paged after 15 minutes?")
    assert ticket.startswith("Contoso confirmed 2.3.1 fixes it, closing #4821"), ticket
    assert "after 15 min unacked it goes to the EM" in paged, paged


def test_a_deprecation_decided_in_a_thread_and_a_budget_per_head(lurker, tmp_path):
    """An RFC's thread: "ok, 3.9 dropped in 6.0 (March), 5.x keeps it", tom's answer to ana's
    "can we wait until March?" under "RFC-32: drop Python 3.9 support.", named no Python and
    its month in brackets was no date ("when are we dropping Python 3.9?": "No date was given";
    the RFC). And "budget is $75/head" did not answer "what's the budget per person for the
    dinner?"."""
    dropping, budget = asked_after(lurker, tmp_path, [*threaded(
        ("tom", "2026-12-04T10:00:00Z", "r7", None, "RFC-32: drop Python 3.9 support. Last "
         "release with 3.9 is 5.8"),
        ("ana", "2026-12-04T10:20:00Z", "r8", "r7", "we have two enterprise customers pinned "
         "to 3.9, can we wait until March?"),
        ("tom", "2026-12-04T11:00:00Z", "r9", "r7", "ok, 3.9 dropped in 6.0 (March), 5.x "
         "keeps it")), *chat(
        ("amy", "2026-12-04T16:00:00Z", "team dinner is Thu Dec 17 at Flour + Water, 7:30pm"),
        ("amy", "2026-12-04T16:05:00Z", "budget is $75/head, company covers it. drinks beyond "
         "2 are on you"))],
        "2026-12-05T09:00:00Z", "when are we dropping Python 3.9?",
        "what's the budget per person for the dinner?")
    assert dropping.startswith("March 2027: ok, 3.9 dropped in 6.0 (March) [March 2027]"), \
        dropping
    assert budget.startswith("budget is $75/head"), budget


def test_an_open_source_projects_discord(lurker, tmp_path):
    """A project's community channel: "I get unexpected keyword argument timeout_ms, what do I
    do?" quoted the user's report back (the maintainer's answer cited no report: the error's
    name came late in it); "please take a look before Monday", said on a Friday after
    "labeled", was the Monday gone."""
    fix, triage = asked_after(lurker, tmp_path, chat(
        ("user42", "2026-11-29T09:12:00Z", "after upgrading to 1.4.0 I get `TypeError: "
         "Client.__init__() got an unexpected keyword argument 'timeout_ms'`"),
        ("maint", "2026-11-29T09:40:00Z", "timeout_ms was renamed to timeout (seconds, float) "
         "in 1.4, it's in the migration guide. we'll add a deprecation shim in 1.4.1"),
        ("user42", "2026-11-29T09:45:00Z", "ah thanks, works now"),
        ("contrib", "2026-12-04T08:00:00Z", "triage team: 14 open issues labeled needs-repro, "
         "please take a look before Monday")),
        "2026-12-05T09:00:00Z", "I get unexpected keyword argument timeout_ms, what do I do?",
        "when do the needs-repro issues need a look?")
    assert fix.startswith("timeout_ms was renamed to timeout"), fix
    assert "before Monday [2026-12-07]" in triage, triage


def test_a_release_that_says_what_a_later_one_removes(lurker, tmp_path):
    """"1.4.1 released with the timeout_ms shim (warns, removed in 2.0)": "when is timeout_ms
    removed?" was answered with the day 1.4.1 was released, as if the removal were reported;
    when 1.4.1 was released still is."""
    removed, released = asked_after(lurker, tmp_path, chat(
        ("maint", "2026-12-02T17:00:00Z", "1.4.1 released with the timeout_ms shim (warns, "
         "removed in 2.0)"),
        ("maint", "2026-12-03T12:00:00Z", "office hours moved to Thursdays 17:00 UTC starting "
         "this week, same voice channel")),
        "2026-12-05T09:00:00Z", "when is timeout_ms removed?", "when was 1.4.1 released?")
    assert removed.startswith("No date was given; it was said on 2 December 2026: 1.4.1 "
                              "released"), removed
    assert released.startswith("2 December 2026, when it was reported: 1.4.1 released"), \
        released


def test_how_a_customer_is_looking(lurker, tmp_path):
    """A customer-success channel: "how is Globex looking?" was declined (no memory says
    "look"); it asks what was said of Globex, newest first."""
    [looking] = asked_after(lurker, tmp_path, chat(
        ("lina", "2026-11-30T09:00:00Z", "Q4 renewals: Acme ($240k) signed, Globex ($90k) at "
         "risk - champion left, Initech ($60k) pending legal"),
        ("lina", "2026-12-01T14:00:00Z", "Globex update: new champion is Dana Wu (VP Eng), intro "
         "call Thursday"),
        ("lina", "2026-12-03T17:00:00Z", "Globex call went well, Dana wants a pilot of the "
         "analytics add-on, back to yellow")),
        "2026-12-05T09:00:00Z", "how is Globex looking?")
    assert looking.startswith("Globex call went well"), looking


HOLIDAY_COVERAGE = chat(
    ("kim", "2026-12-01T10:00:00Z", "holiday coverage thread: please add your PTO for Dec 21 - "
     "Jan 4"),
    ("raj", "2026-12-01T10:15:00Z", "out Dec 23 - Jan 2, back Jan 5"),
    ("sue", "2026-12-01T10:20:00Z", "I'm around the whole break except Dec 25 and Jan 1"),
    ("leo", "2026-12-01T11:00:00Z", "PTO Dec 21-24, then working remotely from Lisbon until "
     "Jan 8 (UTC+0)"),
    ("raj", "2026-12-03T12:00:00Z", "update: my flight changed, now out Dec 22 - Jan 2"))


def test_a_holiday_coverage_channel(lurker, tmp_path):
    """December's PTO thread: raj's "my flight changed, now out Dec 22 - Jan 2" (said 3 Dec)
    was last year's days ("when is raj back?" led with 22 December 2025); "is sue working on
    Christmas?" listed her work ("sue is on:"), then, read as a day, asked for a memory naming
    "Christmas"; "where is leo working from?" was declined ("Lisbon" read as someone else)."""
    back, christmas, where = asked_after(
        lurker, tmp_path, HOLIDAY_COVERAGE, "2026-12-05T09:00:00Z", "when is raj back?",
        "is sue working on Christmas?", "where is leo working from?")
    assert back.startswith("Away until 2 January 2027: update: raj's flight changed, now out "
                           "Dec 22 - Jan 2 [2026-12-22 to 2027-01-02]"), back
    assert christmas.startswith("sue is around the whole break except Dec 25"), christmas
    assert where.startswith("PTO Dec 21-24"), where


def test_a_months_close_asked_by_its_figures(lurker, tmp_path):
    """A finance channel's monthly close: "what's our ARR?" led with "mostly Acme's expansion
    (+$180k)", the answer to "what drove the ARR jump?" said after November's close, and "how
    much runway do we have?" with October's 26 months (neither was read as asking a figure)."""
    arr, runway = asked_after(lurker, tmp_path, chat(
        ("cfo", "2026-11-02T16:00:00Z", "October close: ARR $4.2M, net revenue retention 112%, "
         "burn $310k/mo, runway 26 months"),
        ("cfo", "2026-12-01T16:00:00Z", "November close: ARR $4.5M (+7% MoM), NRR 115%, burn "
         "$295k/mo, runway 28 months"),
        ("ana", "2026-12-01T16:20:00Z", "nice! what drove the ARR jump?"),
        ("cfo", "2026-12-01T16:35:00Z", "mostly Acme's expansion (+$180k) and two new logos")),
        "2026-12-05T09:00:00Z", "what's our ARR?", "how much runway do we have?")
    assert arr.startswith("November [November 2026] close: ARR $4.5M"), arr
    assert runway.startswith("November [November 2026] close:"), runway


def test_a_data_teams_channel(lurker, tmp_path):
    """A data team's channel: the definition "anyone with 1+ session in 28 days" was dated four
    weeks on; "what was wrong with the Globex revenue numbers?" and "why is snowflake so
    expensive?" were declined ("wrong" and "expensive" were words to share)."""
    active, wrong, costly = asked_after(lurker, tmp_path, chat(
        ("li", "2026-12-01T10:00:00Z", "definition change: an \"active user\" is now anyone with "
         "1+ session in 28 days (was 7 days). dashboards updated"),
        ("pat", "2026-12-02T15:00:00Z", "the revenue dashboard is showing EUR as USD for Globex, "
         "ticket DATA-412"),
        ("sam", "2026-12-04T09:00:00Z", "warehouse costs: snowflake bill was $22k in Nov, up "
         "from $15k. biggest chunk is the hourly full refresh of events")),
        "2026-12-05T09:00:00Z", "what counts as an active user?",
        "what was wrong with the Globex revenue numbers?", "why is snowflake so expensive?")
    assert active.startswith("definition change: an \"active user\" is now anyone with 1+ "
                             "session in 28 days (was 7 days)"), active
    assert wrong.startswith("the revenue dashboard is showing EUR as USD for Globex"), wrong
    assert costly.startswith("warehouse costs: snowflake bill was $22k"), costly


def test_a_launch_channel_where_a_move_is_asked_then_made(lurker, tmp_path):
    """A marketing channel: "can we move the webinar to 2pm ET?" took "webinar registrations at
    312, target is 500" out of every answer (read as a change of it), and "done, webinar is now
    Dec 10 at 2pm ET, updated the invite" (said 5 Dec) was last year's 10 December."""
    when, target = asked_after(lurker, tmp_path, chat(
        ("zoe", "2026-12-01T10:00:00Z", "launch plan for Insights v2: blog post + email on Dec 9, "
         "webinar Dec 10 at 11am ET"),
        ("zoe", "2026-12-04T17:00:00Z", "webinar registrations at 312, target is 500"),
        ("ivy", "2026-12-05T08:00:00Z", "can we move the webinar to 2pm ET? the CEO has a board "
         "call at 11"),
        ("zoe", "2026-12-05T08:30:00Z", "done, webinar is now Dec 10 at 2pm ET, updated the "
         "invite")),
        "2026-12-05T09:00:00Z", "when is the webinar?", "what's the registration target?")
    assert when.startswith("10 December 2026: done, webinar is now Dec 10 [2026-12-10]"), when
    assert target.startswith("webinar registrations at 312, target is 500"), target


def test_a_certs_expiry_after_its_renewal_ticket_is_done(lurker, tmp_path):
    """An infra channel: "when does the wildcard cert expire?" was answered 18 December 2026
    after "OPS-771 done, new cert valid until Dec 18 2027" (the renewal names the ticket, not
    "expire"): the ticket's word since leads."""
    [expiry] = asked_after(lurker, tmp_path, chat(
        ("ops", "2026-12-01T09:00:00Z", "the wildcard cert for *.acme.io expires Dec 18, renewal "
         "ticket OPS-771, owner: kim"),
        ("kim", "2026-12-03T15:00:00Z", "OPS-771 done, new cert valid until Dec 18 2027, deployed "
         "to all LBs"),
        ("ops", "2026-12-04T12:00:00Z", "redis memory at 85%, we'll scale the cluster to 6 shards "
         "next Tuesday")),
        "2026-12-05T09:00:00Z", "when does the wildcard cert expire?")
    assert expiry.startswith("Latest: OPS-771 done, new cert valid until Dec 18 2027"), expiry


def test_a_vendor_renewal_negotiated_in_the_channel(lurker, tmp_path):
    """A procurement channel: "what did we end up paying for Datadog?" led with "Datadog came
    back at $131k." (its "I said no" dropped) over the signed "$128k/yr for 2 years", which says
    no "pay"; "how long is the Datadog contract?" was declined."""
    paid, length = asked_after(lurker, tmp_path, chat(
        ("dana", "2026-11-16T15:00:00Z", "Datadog renewal is due Feb 1. They quoted $142k/yr, "
         "up 18% from this year"),
        ("dana", "2026-11-18T10:00:00Z", "countered at $120k for a 2-year term, waiting on them"),
        ("dana", "2026-11-24T16:30:00Z", "Datadog came back at $131k. I said no"),
        ("dana", "2026-12-01T14:00:00Z", "signed: Datadog at $128k/yr for 2 years, includes 20 "
         "more APM hosts"),
        ("dana", "2026-12-01T14:10:00Z", "PagerDuty auto-renews Mar 15, no change, $38k")),
        "2026-12-05T09:00:00Z", "what did we end up paying for Datadog?",
        "how long is the Datadog contract?")
    assert paid.startswith("signed: Datadog at $128k/yr for 2 years"), paid
    assert "dana said no" in paid or "$131k" not in paid, paid
    assert length.startswith("signed: Datadog at $128k/yr for 2 years"), length


def test_an_app_review_channel_where_verdicts_come_alone(lurker, tmp_path):
    """A mobile release channel: "4.12 rejected: guideline 5.1.1, …" and "approved! starting
    phased rollout" name no iOS and no build: "why was the iOS build rejected?" was declined and
    "when was 4.12 approved?" answered with the day it was first submitted, on no date."""
    why, when = asked_after(lurker, tmp_path, chat(
        ("kai", "2026-11-23T17:00:00Z", "iOS 4.12 submitted to App Review"),
        ("kai", "2026-11-25T08:00:00Z", "4.12 rejected: guideline 5.1.1, they want account "
         "deletion in-app"),
        ("lena", "2026-11-25T09:30:00Z", "I can add the delete-account screen today, it's mostly "
         "done on android already"),
        ("kai", "2026-11-26T18:00:00Z", "resubmitted 4.12 (build 311) with account deletion"),
        ("kai", "2026-11-28T07:45:00Z", "approved! starting phased rollout, 7 days")),
        "2026-12-05T09:00:00Z", "why was the iOS build rejected?", "when was 4.12 approved?")
    assert why.startswith("4.12 rejected: guideline 5.1.1"), why
    assert when.startswith("28 November 2026, when it was reported: approved!"), when


def test_an_offsites_dinner_on_a_bare_day_of_its_dates(lurker, tmp_path):
    """An offsite channel: "partners welcome for the dinner on the 11th", said a week after
    "offsite is confirmed: Lisbon, March 9-12" and no reply to it, was 11 December."""
    [partners] = asked_after(lurker, tmp_path, chat(
        ("gwen", "2026-11-20T10:00:00Z", "offsite is confirmed: Lisbon, March 9-12"),
        ("gwen", "2026-11-27T14:00:00Z", "hotel is Memmo Alfama, I booked the whole block"),
        ("sam", "2026-11-27T14:30:00Z", "can partners come?"),
        ("gwen", "2026-11-27T15:00:00Z", "partners welcome for the dinner on the 11th, not the "
         "sessions")),
        "2026-12-05T09:00:00Z", "can I bring my partner?")
    assert partners.startswith("partners welcome for the dinner on the 11th [2027-03-11]"), \
        partners


def test_a_team_channel_where_someone_joins_and_someone_hands_over(lurker, tmp_path):
    """"when does Ana start?" of "Ana joins on Monday" and "who owns billing now?" of "Femi is
    taking over billing" were declined: neither says the question's word."""
    start, owner = asked_after(lurker, tmp_path, chat(
        ("mara", "2026-11-30T09:00:00Z", "some news: I'm leaving Acme, my last day is the 18th"),
        ("jon", "2026-11-30T09:05:00Z", "who's taking over the billing service?"),
        ("mara", "2026-11-30T09:10:00Z", "Femi is taking over billing, we're pairing on the "
         "handover this week and next"),
        ("jon", "2026-12-03T11:00:00Z", "also, Ana joins on Monday as our new designer, she'll "
         "sit with the growth squad")),
        "2026-12-05T09:00:00Z", "when does Ana start?", "who owns billing now?")
    assert start.startswith("7 December 2026: also, Ana joins on Monday"), start
    assert owner.startswith("Femi is taking over billing"), owner


REVIEW_BOT = chat(
    ("reviewbot", "2026-12-02T10:00:00Z", "Review of PR #1502 (payments: idempotency keys) by "
     "reviewbot\n\nSummary: adds idempotency keys to the charge endpoint.\n\nBlocking:\n1. The "
     "key is stored after the charge call, so a crash between the two double-charges on retry. "
     "Store it first.\n2. Keys never expire; the table grows forever. Add a TTL (24h is what "
     "Stripe uses).\n\nNits:\n- rename `idem_key` to `idempotency_key` for consistency\n- "
     "missing test for concurrent retries"),
    ("ana", "2026-12-02T14:00:00Z", "fixed 1 and 2 in #1502, TTL is 24h. skipping the rename "
     "for now"),
    ("reviewbot", "2026-12-02T15:30:00Z", "PR #1502 re-review: blocking issues resolved. 1 nit "
     "open (missing test for concurrent retries). Approved."),
    ("ana", "2026-12-03T09:00:00Z", "merged #1502, deploying with the 2.14 train on Tuesday"))


def test_a_review_bots_points_and_what_is_said_of_its_pr_later(lurker, tmp_path):
    """A code-review bot's channel: point 1's second sentence ran into point 2 ("Store it first;
    Keys never expire; …") and "Add a TTL" lost its point; "what's still open on 1502?" listed
    tasks ("I don't have any tasks …"); "fixed 1 and 2 in #1502, TTL is 24h", said in the
    channel, was no answer to the TTL; "when does the idempotency change ship?" was declined
    ("merged #1502, deploying …" names no idempotency)."""
    blocking, ttl, still_open, ship = asked_after(
        lurker, tmp_path, REVIEW_BOT, "2026-12-05T09:00:00Z",
        "what were the blocking issues on PR 1502?", "what's the TTL for idempotency keys?",
        "what's still open on 1502?", "when does the idempotency change ship?")
    assert "Keys never expire; the table grows forever; Add a TTL" in blocking, blocking
    assert "double-charges on retry; Store it first." in blocking, blocking
    assert ttl.startswith("fixed 1 and 2 in #1502, TTL is 24h"), ttl
    assert still_open.startswith("1 nit open (missing test for concurrent retries)"), still_open
    assert ship.startswith("8 December 2026: merged #1502, deploying with the 2.14 train"), ship


def test_a_vote_said_in_the_channel_after_a_proposal(lurker, tmp_path):
    """"+1, replication lag has bitten us twice this month", said in the channel an hour after
    omar's proposal and under no thread, was no vote on it: "who supported the Redis proposal?"
    listed the proposal's own lines."""
    [supported] = asked_after(lurker, tmp_path, chat(
        ("omar", "2026-12-01T10:00:00Z", "Proposal: move session storage from Postgres to "
         "Redis\n\nProblem: the sessions table does 4k writes/s at peak and causes replication "
         "lag of up to 30s on the read replicas.\n\nOwner: omar. Target: end of Q1."),
        ("kim", "2026-12-01T11:00:00Z", "+1, replication lag has bitten us twice this month"),
        ("lee", "2026-12-02T09:00:00Z", "worried about failover, can we use Redis with AOF "
         "everysec?")),
        "2026-12-05T09:00:00Z", "who supported the Redis proposal?")
    assert supported.startswith("kim: +1, replication lag has bitten us twice"), supported


def test_an_incident_channel_with_no_threads_read_from_its_bot(lurker, tmp_path):
    """An incident worked in the channel, no threads: "culprit: the 13:50 config push …" was no
    cause ("what caused the search incident?" was declined), nor "reverted the config, results
    back to normal" a fix of it; the bot's "✅ SEV2 resolved. duration 68 min" ended nothing, so
    "how long did the search incident last?" listed the declaration."""
    cause, fixed, lasted = asked_after(lurker, tmp_path, chat(
        ("bot", "2026-12-03T14:02:00Z", "🔥 SEV2 declared: search returning empty results for "
         "~20% of queries. IC: maya"),
        ("maya", "2026-12-03T14:10:00Z", "looking at the indexer, lag is 0 so it's not ingestion"),
        ("raf", "2026-12-03T14:25:00Z", "culprit: the 13:50 config push set shard_count=3 on the "
         "new cluster, queries to shards 4-5 return nothing"),
        ("maya", "2026-12-03T14:40:00Z", "reverted the config, results back to normal. "
         "monitoring"),
        ("bot", "2026-12-03T15:10:00Z", "✅ SEV2 resolved. duration 68 min")),
        "2026-12-05T09:00:00Z", "what caused the search incident?",
        "how was the search issue fixed?", "how long did the search incident last?")
    assert cause.startswith("culprit: the 13:50 config push set shard_count=3"), cause
    assert fixed.startswith("reverted the config, results back to normal"), fixed
    assert lasted.startswith("1 hour 8 minutes: from 14:02 UTC on 3 December 2026"), lasted


def test_a_launch_moved_asked_when_it_moved_and_when_it_is(lurker, tmp_path):
    """"when is the launch?" was answered 3 December, the day of "code freeze starts Thursday
    for the launch" (the freeze's day, said for the launch); "when did we move the launch?"
    took the same day (a past asked, and the move's days were still to come), not the day the
    move was said; "when did we find the perf regression?" took the day it was fixed ("found"
    was no word of "find")."""
    when, moved, found = asked_after(lurker, tmp_path, chat(
        ("pm", "2026-11-24T10:00:00Z", "launch moved from Dec 8 to Dec 15, legal needs another "
         "week"),
        ("eng", "2026-11-30T09:00:00Z", "code freeze starts Thursday for the launch"),
        ("eng", "2026-12-02T16:00:00Z", "yesterday we found a perf regression in search, fixed "
         "this morning")),
        "2026-12-05T09:00:00Z", "when is the launch?", "when did we move the launch?",
        "when did we find the perf regression?")
    assert when.startswith("15 December 2026: launch moved from Dec 8"), when
    assert moved.startswith("24 November 2026, when it was said: launch moved from Dec 8"), moved
    assert found.startswith("1 December 2026: yesterday [2026-12-01] we found"), found


def test_a_threads_decision_and_a_verdict_under_a_request(lurker, tmp_path):
    """A product channel's threads: "how many projects do free users get?" led with "1 is too
    harsh, most free users have 2", a reply before the thread's "ok going with 2 projects on
    free"; "is the pricing page copy reviewed?" led with "ready for review" (the reply
    "reviewed, two nits, otherwise good" cited nothing it was said under)."""
    free, reviewed = asked_after(lurker, tmp_path, threaded(
        ("pm", "2026-11-30T10:00:00Z", "m1", None, "should we keep the free tier at 3 projects "
         "or drop it to 1?"),
        ("eng", "2026-11-30T10:20:00Z", "m2", "m1", "1 is too harsh, most free users have 2"),
        ("sales", "2026-11-30T10:40:00Z", "m3", "m1", "2 then? keeps the upgrade pressure"),
        ("pm", "2026-11-30T11:00:00Z", "m4", "m1", "ok going with 2 projects on free, effective "
         "Jan 1"),
        ("pm", "2026-12-02T09:00:00Z", "m5", None, "pricing page copy is ready for review, link "
         "in the doc"),
        ("design", "2026-12-02T09:30:00Z", "m6", "m5", "reviewed, two nits, otherwise good")),
        "2026-12-05T09:00:00Z", "how many projects do free users get?",
        "is the pricing page copy reviewed?")
    assert free.startswith("Latest: Decision: ok going with 2 projects on free"), free
    assert reviewed.startswith("Latest: reviewed, two nits, otherwise good"), reviewed


def test_a_price_or_a_version_no_memory_names_is_declined(lurker, tmp_path):
    """"how much do we pay for Slack?" was answered with Figma's and PagerDuty's sums (a sum
    shares the words of paying), and "when was 4.13 approved?" with 4.12's approval: what the
    question names, no memory says."""
    slack, figma, version = asked_after(lurker, tmp_path, chat(
        ("dana", "2026-12-01T14:10:00Z", "PagerDuty auto-renews Mar 15, no change, $38k"),
        ("mo", "2026-12-02T11:00:00Z", "heads up: Figma is switching us to the org plan in "
         "January, $12k more"),
        ("kai", "2026-11-26T18:00:00Z", "resubmitted 4.12 (build 311) with account deletion"),
        ("kai", "2026-11-28T07:45:00Z", "approved! starting phased rollout, 7 days")),
        "2026-12-05T09:00:00Z", "how much do we pay for Slack?",
        "what did we end up paying for Figma?", "when was 4.13 approved?")
    assert slack.startswith("I don't have anything about that in memory."), slack
    assert figma.startswith("heads up: Figma is switching us to the org plan"), figma
    assert version.startswith("I don't have anything about that in memory."), version


def test_a_correction_of_one_figure_is_no_latest_word_of_another(lurker, tmp_path):
    """A people-ops channel: "correction: carry-over cap is 10 days, not 5" led "how many PTO
    days do we get next year?" as the policy's latest word (it shares "days" alone), though
    it changes only the carry-over of "PTO policy for 2027: 25 days …"."""
    days, carry = asked_after(lurker, tmp_path, chat(
        ("hr", "2026-11-10T10:00:00Z", "PTO policy for 2027: 25 days plus your birthday off. "
         "carry-over capped at 5 days"),
        ("hr", "2026-12-01T10:00:00Z", "correction: carry-over cap is 10 days, not 5")),
        "2026-12-05T09:00:00Z", "how many PTO days do we get next year?",
        "how many days can I carry over?")
    assert days.startswith("PTO policy for 2027: 25 days plus your birthday off"), days
    assert carry.startswith("correction: carry-over cap is 10 days, not 5"), carry


def test_a_projects_help_channel_asked_a_fix_and_a_version(lurker, tmp_path):
    """A project's help channel on Discord, no threads: "how do I fix No module named yaml?"
    showed the report alone ("getting `ModuleNotFoundError: …`", said with no "I get", was no
    problem the maintainer's "install with the extras: …" answered). And "does it support
    python 3.14?" must not lead with "3.3.0 is out: …": this session's verdict rule first read
    "is out" as a verdict on the maintainer's message before, which names 3.14."""
    fix, support = asked_after(lurker, tmp_path, chat(
        ("newbie", "2026-12-01T10:00:00Z", "getting `ModuleNotFoundError: No module named 'yaml'` "
         "when I run the cli after pip install"),
        ("maint", "2026-12-01T10:05:00Z", "install with the extras: pip install \"ourtool[yaml]\", "
         "pyyaml is optional since 3.0"),
        ("maint", "2026-12-02T12:10:00Z", "3.13 works from 3.2.1, 3.14 not yet (waiting on a C "
         "extension dep)"),
        ("maint", "2026-12-03T09:00:00Z", "3.3.0 is out: adds --json output, drops python 3.9. "
         "changelog in #announcements")),
        "2026-12-05T09:00:00Z", "how do I fix No module named yaml?",
        "does it support python 3.14?")
    assert fix.startswith("install with the extras: pip install"), fix
    assert support.startswith("3.13 works from 3.2.1, 3.14 not yet"), support


def test_a_months_expenses_asked_after_it_ended(lurker, tmp_path):
    """A finance channel on 3 Dec: "reminder: November expenses due by Dec 7, after that they
    roll to January" labelled November 2027 (the sentence looks ahead), and "when are November
    expenses due?" read its November as next year's too."""
    [due] = asked_after(lurker, tmp_path, chat(
        ("cfo", "2026-11-02T09:00:00Z", "expense policy: meals up to $50/day when traveling"),
        ("cfo", "2026-12-03T09:00:00Z", "reminder: November expenses due by Dec 7, after that "
         "they roll to January")),
        "2026-12-05T09:00:00Z", "when are November expenses due?")
    assert due.startswith("7 December 2026: reminder: November [November 2026] expenses"), due
    assert "2027" not in due.split("roll to")[0], due


def test_an_on_call_channel_asked_who_has_the_pager_and_why_it_was_slow(lurker, tmp_path):
    """An on-call channel: "who is on call right now?" was declined ("handing off the pager to
    dana until Monday 9am" says no "on call", and "right now" counted as two words to share),
    and "why was checkout slow on Thursday?" too ("checkout p99 at 2.4s" says no "slow")."""
    now, slow, gcp = asked_after(lurker, tmp_path, chat(
        ("maya", "2026-11-30T09:00:00Z", "handing off the pager to dana until Monday 9am, "
         "nothing open"),
        ("dana", "2026-12-01T03:12:00Z", "paged: disk 91% on db-3, cleared old WAL segments, "
         "now 64%"),
        ("dana", "2026-12-03T22:10:00Z", "paged again: checkout p99 at 2.4s, it was a noisy "
         "neighbour on node-7, cordoned it"),
        ("maya", "2026-12-04T16:00:00Z", "next week's primary is raj, secondary is me")),
        "2026-12-05T09:00:00Z", "who is on call right now?", "why was checkout slow on Thursday?",
        "who is on call for GCP?")
    assert now.startswith("handing off the pager to dana until Monday"), now
    assert slow.startswith("paged again: checkout p99 at 2.4s"), slow
    assert gcp.startswith("handing off the pager") or "GCP" not in gcp, gcp


def test_a_hiring_channels_onsite_is_the_day_to_come(lurker, tmp_path):
    """A hiring channel on Wednesday 25 Nov: "Priya Nair passed the phone screen, onsite
    Thursday 2pm, panel is …" dated the onsite 19 November, the Thursday gone ("passed" made
    the sentence past); omar's feedback came the next day."""
    onsite, panel = asked_after(lurker, tmp_path, chat(
        ("ines", "2026-11-25T14:00:00Z", "Priya Nair passed the phone screen, onsite Thursday "
         "2pm, panel is omar, li and me"),
        ("omar", "2026-11-26T17:00:00Z", "Priya: strong hire from me, great system design"),
        ("ines", "2026-12-04T15:00:00Z", "Priya accepted! start date Jan 11")),
        "2026-12-05T09:00:00Z", "when was Priya's onsite?", "who was on Priya's panel?")
    assert onsite.startswith("26 November 2026: Priya Nair passed the phone screen"), onsite
    assert "2026-11-19" not in panel and "onsite Thursday [2026-11-26]" in panel, panel


def test_a_feature_flags_steps_and_its_rollback(lurker, tmp_path):
    """A feature-flag channel: "new_checkout to 25%" (three words) was no memory, and "when did
    new_checkout go to 25%?" was answered with the 50% after it; "why was new_checkout rolled
    back?" led with "new_checkout at 50% now", not "back to 0%, card declines doubled …"."""
    when, why = asked_after(lurker, tmp_path, chat(
        ("bo", "2026-11-24T10:00:00Z", "new_checkout flag at 5% (internal + beta cohort)"),
        ("bo", "2026-11-26T10:00:00Z", "new_checkout to 25%"),
        ("bo", "2026-11-27T08:30:00Z", "new_checkout back to 0%, card declines doubled in the "
         "treatment group"),
        ("cy", "2026-11-30T12:00:00Z", "declines fixed in #3120, was sending the wrong currency "
         "for EUR carts"),
        ("bo", "2026-12-02T10:00:00Z", "new_checkout at 50% now")),
        "2026-12-05T09:00:00Z", "when did new_checkout go to 25%?",
        "why was new_checkout rolled back?")
    assert "26 November 2026: new_checkout to 25%" in when, when
    assert why.startswith("new_checkout back to 0%, card declines doubled"), why


def test_a_cloud_bill_asked_of_the_month_before_and_of_another_cloud(lurker, tmp_path):
    """A cost channel: "what was the October AWS bill?" was declined ("… up 12% on October
    ($43.0k)" named no October), and "how much is the GCP bill?" answered with the AWS bill
    (a name in capitals was no name the sum must carry)."""
    october, gcp, aws = asked_after(lurker, tmp_path, chat(
        ("fin", "2026-12-02T10:00:00Z", "AWS bill for November: $48.2k, up 12% on October "
         "($43.0k)"),
        ("fin", "2026-12-02T10:05:00Z", "biggest jump is NAT gateway data processing, +$3.1k"),
        ("fin", "2026-12-04T09:10:00Z", "budget for Q1 is $150k total for AWS, hard cap")),
        "2026-12-05T09:00:00Z", "what was the October AWS bill?", "how much is the GCP bill?",
        "how much was the AWS bill last month?")
    assert october.startswith("AWS bill for November [November 2026]: $48.2k, up 12% on "
                              "October [October 2026]"), october
    assert gcp.startswith("I don't have anything about that in memory."), gcp
    assert aws.startswith("AWS bill for November"), aws


def test_a_support_escalation_asked_its_cause_workaround_and_start(lurker, tmp_path):
    """A support channel: "what caused the Acme SSO issue?" and "when did the Acme issue
    start?" were declined (the report says "login loops", the cause "root cause", neither
    "issue"); "what's the workaround for the login loop?" led with the report (the workaround's
    label names Acme, no word of the question); "told them it's on the Q1 roadmap" (said in
    December) was Q1 2026; and "did Globex get a refund?" had no word of the credit."""
    cause, workaround, start, scim, refund = asked_after(lurker, tmp_path, chat(
        ("kim", "2026-11-30T14:00:00Z", "Acme reports SSO login loops since 9:14 UTC today, "
         "ticket ZD-4411, P1"),
        ("kim", "2026-11-30T14:20:00Z", "workaround for Acme: clear cookies for id.acme.com, "
         "confirmed it works for 3 of their users"),
        ("leo", "2026-12-01T10:00:00Z", "ZD-4411 root cause: our SAML cert rotated and Acme's "
         "IdP had the old fingerprint"),
        ("kim", "2026-12-01T16:00:00Z", "Acme confirmed fixed after they updated the "
         "fingerprint, closing ZD-4411"),
        ("kim", "2026-12-03T11:00:00Z", "Globex asking for a refund for November downtime, "
         "ticket ZD-4502, escalated to finance"),
        ("fin", "2026-12-04T10:00:00Z", "approved a 15% credit for Globex on the December "
         "invoice"),
        ("kim", "2026-12-04T12:00:00Z", "Initech wants SCIM, told them it's on the Q1 roadmap, "
         "no date yet")),
        "2026-12-05T09:00:00Z", "what caused the Acme SSO issue?",
        "what's the workaround for the login loop?", "when did the Acme issue start?",
        "what did we tell Initech about SCIM?", "did Globex get a refund?")
    assert cause.startswith("ZD-4411 root cause: our SAML cert rotated"), cause
    assert workaround.startswith("workaround for Acme: clear cookies"), workaround
    assert start.startswith("30 November 2026: Acme reports SSO login loops"), start
    assert "Q1 [Q1 2027]" in scim and "2026]" not in scim.split("(")[0], scim
    assert "15% credit for Globex" in refund, refund


def test_a_dependency_bots_merge_and_block(lurker, tmp_path):
    """A dependency bot's channel: "merged #2231" (verb first, two words) was no memory, and
    "was #2231 merged?" answered with the bump alone; "what's blocking the React upgrade?" was
    declined ("#2250 on hold until …" says no "block", the bump no "upgrade")."""
    merged, blocking, axios = asked_after(lurker, tmp_path, chat(
        ("renovate", "2026-11-24T08:00:00Z", "bump axios from 1.6.0 to 1.7.2 (#2231)"),
        ("jo", "2026-11-24T11:00:00Z", "merged #2231"),
        ("renovate", "2026-12-01T08:00:00Z", "bump react from 18.3.1 to 19.0.0 (#2250)"),
        ("jo", "2026-12-02T14:00:00Z", "#2250 on hold until the design system supports React "
         "19")),
        "2026-12-05T09:00:00Z", "was #2231 merged?", "what's blocking the React upgrade?",
        "what version of axios are we on?")
    assert merged.startswith("merged #2231"), merged
    assert blocking.startswith("#2250 on hold until the design system supports React 19"), \
        blocking
    assert "1.7.2" in axios, axios


def test_a_conference_pass_given_away_and_a_day_of_the_conference(lurker, tmp_path):
    """A team-events channel: "is arjun going to KubeCon?" was answered with the list of three
    passes, though "arjun can't make it, giving his pass to mo" came after; "Wednesday of
    KubeCon" (said on Tuesday 1 Dec, of a conference in March) was dated the next day and led
    "when is KubeCon?"."""
    arjun, when, lea = asked_after(lurker, tmp_path, chat(
        ("lea", "2026-11-20T10:00:00Z", "KubeCon EU is March 23-26 in Amsterdam, we have 3 "
         "passes: me, arjun, sven"),
        ("lea", "2026-11-27T10:00:00Z", "arjun can't make it, giving his pass to mo"),
        ("sven", "2026-12-01T10:00:00Z", "my talk got accepted! \"Scaling Celery to 10k "
         "tasks/s\", Wednesday of KubeCon"),
        ("lea", "2026-12-03T10:00:00Z", "arjun can't make it to standup tomorrow")),
        "2026-12-05T09:00:00Z", "is arjun going to KubeCon?", "when is KubeCon?",
        "is lea going to KubeCon?")
    assert arjun.startswith("Latest: arjun can't make it, giving his pass to mo"), arjun
    assert when.startswith("23 March 2027 to 26 March 2027: KubeCon EU"), when
    assert "can't make it" not in lea, lea


def test_a_standup_threads_blocker_its_end_and_who_was_out(lurker, tmp_path):
    """A standup bot's threads: "who is blocked?" answered "Nobody is blocked now." (amy's
    "Blockers: need a reviewer for #3201" took raj's "reviewed #3188, merged" as its latest
    word: a PR's number was no identifier to the open-work reader); "is raj still waiting on
    design?" showed his blocker without his "design landed" the next day; lu's "out sick today"
    was no memory, and "who was out on Thursday?" listed the others' items."""
    blocked, waiting, out = asked_after(lurker, tmp_path, threaded(
        ("bot", "2026-12-03T09:00:00Z", "s1", None, "Standup for Thursday Dec 3"),
        ("amy", "2026-12-03T09:05:00Z", "s2", "s1", "Yesterday: finished the invoice PDF export. "
         "Today: starting on tax rounding. Blockers: none"),
        ("raj", "2026-12-03T09:07:00Z", "s3", "s1", "Y: on-call, 2 pages. T: reviewing #3188. "
         "B: waiting on design for the settings page"),
        ("lu", "2026-12-03T09:12:00Z", "s4", "s1", "out sick today"),
        ("bot", "2026-12-04T09:00:00Z", "f1", None, "Standup for Friday Dec 4"),
        ("amy", "2026-12-04T09:04:00Z", "f2", "f1", "Yesterday: tax rounding done, PR #3201. "
         "Today: release notes. Blockers: need a reviewer for #3201"),
        ("raj", "2026-12-04T09:06:00Z", "f3", "f1", "Y: reviewed #3188, merged. T: settings "
         "page, design landed. B: none")),
        "2026-12-05T09:00:00Z", "who is blocked?", "is raj still waiting on design?",
        "who was out on Thursday?")
    assert blocked.startswith("Blocked now:"), blocked
    assert waiting.startswith("Latest: Today [2026-12-04]: settings page, design landed"), \
        waiting
    assert out.startswith("lu said: out sick today"), out


def test_a_capacity_channel_asked_what_stands_now_and_by_when(lurker, tmp_path):
    """A capacity channel: "what's the kafka retention now?" was declined ("now" was a word to
    share), and "… peaked at 88% during the Black Friday rush, need a bigger box before
    Christmas" (said 4 Dec) was last Christmas ("peaked" made the sentence past)."""
    retention, box = asked_after(lurker, tmp_path, chat(
        ("zoe", "2026-11-23T10:05:00Z", "options: add 3 brokers ($4.2k/mo) or cut kafka "
         "retention from 7d to 3d"),
        ("ian", "2026-11-24T09:00:00Z", "retention can't go below 5d, the audit replay needs it"),
        ("zoe", "2026-11-25T16:00:00Z", "ok, going with 2 more brokers and retention at 5d, "
         "ordering tomorrow"),
        ("ian", "2026-12-04T15:00:00Z", "postgres primary CPU peaked at 88% during the Black "
         "Friday rush, need a bigger box before Christmas")),
        "2026-12-05T09:00:00Z", "what's the kafka retention now?",
        "when do we need a bigger postgres box?")
    assert retention.split("Before that")[0].lstrip("Latest: ").startswith(
        "ok, going with 2 more brokers and retention at 5d"), retention
    assert box.startswith("25 December 2026: postgres primary CPU peaked"), box


def test_a_sales_channels_last_word_and_ceiling_and_an_agents_gotcha(lurker, tmp_path):
    """A sales channel and a coding agent's notes: "when did we last hear from Pied Piper?"
    answered "No date was given" ("no reply since Nov 20" says no day a reply came, and what
    did not happen since a day was never its answer, even of when it last did); "what's the
    max discount we can give?" and "why is my migration not running?" were declined ("we can go
    to 15% max" says no "discount", "silently skips migrations" no "running")."""
    heard, discount, migration = asked_after(lurker, tmp_path, chat(
        ("nora", "2026-12-01T16:00:00Z", "Hooli wants 20% off for a 2-year deal, I offered 10%"),
        ("pete", "2026-12-01T16:30:00Z", "we can go to 15% max, not more"),
        ("nora", "2026-12-04T09:00:00Z", "Pied Piper went dark, no reply since Nov 20, moving to "
         "closed-lost end of month"),
        ("agent", "2026-12-02T15:00:00Z", "Gotcha: `make migrate` silently skips migrations "
         "whose filename has uppercase letters")),
        "2026-12-05T09:00:00Z", "when did we last hear from Pied Piper?",
        "what's the max discount we can give?", "why is my migration not running?")
    assert heard.startswith("20 November 2026: Pied Piper went dark"), heard
    assert discount.startswith("we can go to 15% max, not more"), discount
    assert migration.startswith("Gotcha: `make migrate` silently skips"), migration


def test_a_release_channels_go_its_moved_day_and_the_next_release(lurker, tmp_path):
    """A release channel: "rc2 QA passed, go for Monday" (said on a Friday) was the Monday gone;
    "2.15 ships Monday instead of Thursday" (said on the Thursday) left next week's Thursday;
    "what's in 2.16?" led with "Latest: 2.15 ships Monday …", a change of another release."""
    ship, qa, next_release = asked_after(lurker, tmp_path, chat(
        ("rm", "2026-11-30T10:00:00Z", "2.15 branch cut, QA starts tomorrow, target ship "
         "Thursday"),
        ("dev", "2026-12-03T11:00:00Z", "PAY-884 won't make 2.15, rounding rewrite is too risky, "
         "moving it to 2.16"),
        ("rm", "2026-12-03T16:00:00Z", "2.15 ships Monday instead of Thursday, we need one more "
         "QA pass on rc2"),
        ("qa", "2026-12-04T18:00:00Z", "rc2 QA passed, go for Monday")),
        "2026-12-05T09:00:00Z", "when does 2.15 ship?", "did QA pass?", "what's in 2.16?")
    assert ship.startswith("7 December 2026: 2.15 ships Monday [2026-12-07] instead of "
                           "Thursday [2026-12-03]"), ship
    assert qa.startswith("rc2 QA passed, go for Monday [2026-12-07]"), qa
    assert next_release.startswith("PAY-884 won't make 2.15"), next_release


def test_an_incident_asked_by_its_weekday_its_cause_and_who_fixed_it(lurker, tmp_path):
    """An incident worked by people, no bot: "what happened with checkout on Wednesday?" was
    declined (the weekday was a word to share: only "today", "yesterday" and the like were the
    span's own words), "what caused the 503s?" led with the rollback ("failing after the 07:30
    cert rotation" said no cause word), and "who fixed it?" was declined."""
    happened, cause, fixed = asked_after(lurker, tmp_path, chat(
        ("lin", "2026-12-02T07:40:00Z", "🚨 checkout returning 503s for EU users since 07:32 "
         "UTC, investigating"),
        ("lin", "2026-12-02T07:55:00Z", "EU load balancer health checks failing after the 07:30 "
         "cert rotation"),
        ("max", "2026-12-02T08:10:00Z", "rolled back the cert on the EU LB, 503s dropping"),
        ("lin", "2026-12-02T08:25:00Z", "all clear, error rate back to baseline. impact ~53 "
         "min, ~2,100 failed checkouts")),
        "2026-12-05T09:00:00Z", "what happened with checkout on Wednesday?",
        "what caused the 503s?", "who fixed it?")
    assert happened.startswith("🚨 checkout returning 503s for EU users"), happened
    assert cause.startswith("EU load balancer health checks failing after the 07:30 cert "
                            "rotation"), cause
    assert fixed.startswith("max said: rolled back the cert on the EU LB"), fixed


def test_whats_due_before_a_holiday_is_what_falls_until_it(lurker, tmp_path):
    """A team channel's dates: "what's due before Christmas?" was declined (a day after "before"
    or "by" was no span, and no memory of what is due names Christmas); it is what falls from
    today to the day before, not what fell due already."""
    [due] = asked_after(lurker, tmp_path, chat(
        ("pm", "2026-11-30T09:00:00Z", "security training due Friday"),
        ("hr", "2026-12-02T10:00:00Z", "benefits enrollment closes Dec 15, don't miss it"),
        ("it", "2026-12-04T11:00:00Z", "laptops refresh: pick up yours before Dec 18 at the IT "
         "desk"),
        ("hr", "2026-12-04T12:00:00Z", "January payroll runs Jan 25")),
        "2026-12-05T09:00:00Z", "what's due before Christmas?")
    assert "benefits enrollment closes Dec 15" in due and "before Dec 18" in due, due
    assert "security training" not in due and "Jan 25" not in due, due


def test_a_decision_after_options_in_a_channel_without_threads(lurker, tmp_path):
    """A capacity channel without threads: "what did we decide about kafka capacity?" was
    answered with the status that opened it ("kafka cluster is at 71% disk …"): the decision two
    days later ("ok, going with 2 more brokers and retention at 5d") names no kafka, only what
    the same author's options five minutes after the status named."""
    [decided] = asked_after(lurker, tmp_path, chat(
        ("zoe", "2026-11-23T10:00:00Z", "kafka cluster is at 71% disk, growing ~3%/week, we hit "
         "85% around Dec 21"),
        ("zoe", "2026-11-23T10:05:00Z", "options: add 3 brokers ($4.2k/mo) or cut retention from "
         "7d to 3d"),
        ("ian", "2026-11-24T09:00:00Z", "retention can't go below 5d, the audit replay needs it"),
        ("zoe", "2026-11-25T16:00:00Z", "ok, going with 2 more brokers and retention at 5d, "
         "ordering tomorrow"),
        ("ian", "2026-11-26T10:00:00Z", "we decided to keep the office plants, thanks all")),
        "2026-12-05T09:00:00Z", "what did we decide about kafka capacity?")
    assert decided.startswith("ok, going with 2 more brokers and retention at 5d"), decided


def test_an_agents_remembered_rule_answers_a_question_naming_a_branch(lurker, tmp_path):
    """A coding agent's remembered rules: "can I force-push to release/2.15?" was declined ("I
    don't have anything about that in memory.", the rule appended after it): the branch's
    "2.15" was read as a version every answer must name."""
    lurker("remember", "Never force-push to release branches", "--profile", "agentx")
    lurker("remember", "Run 'make lint' before opening a PR; the pre-commit hook is broken on "
           "macOS", "--profile", "agentx")
    answer = lurker("recall", "can I force-push to release/2.15?", "--profile",
                    "agentx").stdout.splitlines()[0]
    assert answer.startswith("Never force-push to release branches"), answer


def test_a_maintainers_channel_asked_an_advisory_day_an_objection_and_a_plan(lurker, tmp_path):
    """An open-source maintainers' channel: "3.8.4 released with the CVE fix, advisory goes public
    Dec 9" and "4.0 rc1 tagged, final planned for Jan 6" were last year's days (each sentence
    past by its first clause); "who objected to async by default?" led with the plan's later
    change as "Latest:", and "is connect_legacy removed in 4.0?" too (it shares only "4.0")."""
    advisory, final, objected, legacy = asked_after(lurker, tmp_path, chat(
        ("maint1", "2026-11-25T10:00:00Z", "4.0 plan: drop Python 3.9, make async the default, "
         "remove the deprecated `connect_legacy()`"),
        ("maint2", "2026-11-26T09:00:00Z", "-1 on async default in 4.0, too many sync users, "
         "let's do it in 5.0"),
        ("maint1", "2026-11-27T14:00:00Z", "fair, async default moves to 5.0; 4.0 keeps sync "
         "default with async opt-in"),
        ("maint1", "2026-12-02T16:00:00Z", "3.8.4 released with the CVE fix, advisory goes public "
         "Dec 9"),
        ("maint2", "2026-12-04T10:00:00Z", "4.0 rc1 tagged, final planned for Jan 6")),
        "2026-12-05T09:00:00Z", "when does the advisory go public?", "when is 4.0 final?",
        "who objected to async by default?", "is connect_legacy removed in 4.0?")
    assert advisory.startswith("9 December 2026: 3.8.4 released"), advisory
    assert final.startswith("6 January 2027: 4.0 rc1 tagged"), final
    assert objected.startswith("maint2 said: -1 on async default in 4.0"), objected
    assert legacy.startswith("4.0 plan: drop Python 3.9"), legacy


def test_a_maintenance_window_moved_under_its_short_name(lurker, tmp_path):
    """An ops channel: "heads up: PG16 upgrade pushed a week …, new window Sat Dec 19" moved
    "the Postgres 16 upgrade: Sat Dec 12", yet "when is the Postgres upgrade?" was answered 12
    December ("PG16" and "Postgres" were no word in common), and "what's happening on Dec 12?"
    showed the old window alone."""
    when, on_day = asked_after(lurker, tmp_path, chat(
        ("sre", "2026-11-30T10:00:00Z", "maintenance window for the Postgres 16 upgrade: Sat Dec "
         "12, 02:00-04:00 UTC, expect ~10 min of writes paused"),
        ("sre", "2026-12-02T12:00:00Z", "dry run of the PG16 upgrade on staging took 7 minutes, "
         "no issues"),
        ("sre", "2026-12-04T09:00:00Z", "heads up: PG16 upgrade pushed a week because of the "
         "payments freeze, new window Sat Dec 19 same time")),
        "2026-12-05T09:00:00Z", "when is the Postgres upgrade?", "what's happening on Dec 12?")
    assert when.startswith("19 December 2026: heads up: PG16 upgrade pushed a week"), when
    assert on_day.startswith("Latest: heads up: PG16 upgrade pushed a week"), on_day


def test_an_okr_check_in_read_by_its_key_results(lurker, tmp_path):
    """OKR check-ins: "KR3 71%" (a later check-in) is the newer reading of "KR3 migrate 80% of
    services to k8s: 55%", yet "what percent of services are on k8s?" was answered 55% and "what
    is p95 latency now?" 240ms (the later readings name the key result, not what it measures,
    and say no change); "who owns KR3?" led with the check-in, not "KR3 owner changes from tom to
    ada"."""
    k8s, latency, owner = asked_after(lurker, tmp_path, chat(
        ("lead", "2026-11-16T10:00:00Z", "Q4 OKR check-in: KR1 p95 API latency < 200ms: at 240ms, "
         "at risk. KR2 99.95% uptime: 99.97%, on track. KR3 migrate 80% of services to k8s: "
         "55%, behind"),
        ("lead", "2026-11-30T10:00:00Z", "Q4 OKR check-in: KR1 at 205ms, on track now after the "
         "cache work. KR2 99.93% after the Nov 24 outage, at risk. KR3 71%"),
        ("lead", "2026-12-03T15:00:00Z", "KR3 owner changes from tom to ada, tom is moving to the "
         "data team")),
        "2026-12-05T09:00:00Z", "what percent of services are on k8s?",
        "what is p95 latency now?", "who owns KR3?")
    assert k8s.startswith("Latest:") and "KR3 71%" in k8s.split("Before that")[0], k8s
    assert latency.startswith("Latest:") and "KR1 at 205ms" in latency.split("Before that")[0], \
        latency
    assert "KR3 owner changes from tom to ada" in owner.split("(")[0], owner


def test_whether_someone_has_moved_teams_now(lurker, tmp_path):
    """An org update, then "Kenji's move to Growth is delayed to January": "is Kenji on Growth
    now?" was declined ("now" was the one word beyond the names the question asked of)."""
    [moved] = asked_after(lurker, tmp_path, chat(
        ("vp", "2026-11-20T10:00:00Z", "org update: Mara is the new eng manager for Platform, "
         "starting Dec 1; Kenji moves to Growth as tech lead"),
        ("vp", "2026-12-03T09:00:00Z", "Kenji's move to Growth is delayed to January, he stays on "
         "Platform through the migration")),
        "2026-12-05T09:00:00Z", "is Kenji on Growth now?")
    assert moved.startswith("Kenji's move to Growth is delayed to January"), moved


def test_a_help_threads_refuted_suggestion_and_confirmed_fix(lurker, tmp_path):
    """An internal help channel's thread: the asker refuted the first suggestion ("nope, still
    hangs") and confirmed the next ("that was it, thanks!"); "how do I fix the docker compose
    hang?" and "why does docker compose hang …?" were answered with the refuted suggestion, and
    "did docker compose down -v fix it?" too, as though it had."""
    fix, why, tried = asked_after(lurker, tmp_path, threaded(
        ("dev1", "2026-12-01T10:00:00Z", "h1", None, "anyone know why `docker compose up` hangs "
         "on \"waiting for db\" locally?"),
        ("dev2", "2026-12-01T10:05:00Z", "h2", "h1", "try `docker compose down -v`, stale "
         "volume maybe"),
        ("dev1", "2026-12-01T10:20:00Z", "h3", "h1", "nope, still hangs"),
        ("dev3", "2026-12-01T10:30:00Z", "h4", "h1", "the healthcheck uses pg_isready with the "
         "wrong port since #4410, set DB_PORT=5432 in .env"),
        ("dev1", "2026-12-01T10:40:00Z", "h5", "h1", "that was it, thanks!")),
        "2026-12-05T09:00:00Z", "how do I fix the docker compose hang?",
        "why does docker compose hang on waiting for db?", "did docker compose down -v fix it?")
    assert fix.startswith("Fix confirmed by dev1: the healthcheck uses pg_isready"), fix
    assert why.startswith("Fix confirmed by dev1: the healthcheck uses pg_isready"), why
    assert tried.startswith("Did not work for dev1 (\"nope, still hangs\")"), tried


def test_a_community_channels_help_without_threads(lurker, tmp_path):
    """A Discord help channel without threads: "didn't help" after one suggestion and "that
    did it, thank you!" after the next, both by the asker, under their own question. A "nope"
    to a message that answered no question of the sayer's is no word on a fix."""
    fix, cache, lunch = asked_after(lurker, tmp_path, chat(
        ("newbie", "2026-12-01T10:00:00Z", "after upgrading to 2.0 the CLI says \"config not "
         "found\", anyone?"),
        ("helper1", "2026-12-01T10:03:00Z", "delete ~/.cache/tool and retry"),
        ("newbie", "2026-12-01T10:10:00Z", "didn't help"),
        ("helper2", "2026-12-01T10:15:00Z", "2.0 moved the config to ~/.config/tool/config.toml, "
         "move yours there"),
        ("newbie", "2026-12-01T10:20:00Z", "that did it, thank you!"),
        ("ana", "2026-12-01T12:00:00Z", "pizza in the kitchen for the release party"),
        ("bo", "2026-12-01T12:05:00Z", "nope, still hangs")),
        "2026-12-05T09:00:00Z", "how do I fix config not found after upgrading to 2.0?",
        "does deleting the cache fix config not found?", "what did not work for bo?")
    assert fix.startswith("Fix confirmed by newbie: 2.0 moved the config to "
                          "~/.config/tool/config.toml"), fix
    assert cache.startswith("Did not work for newbie (\"didn't help\"): delete ~/.cache/tool"), \
        cache
    assert "pizza" not in lunch, lunch


def test_a_review_threads_request_and_the_authors_answer(lurker, tmp_path):
    """A PR's thread: "what did the review of #3301 ask for?" led with the later "LGTM,
    approving" (it names the PR through its thread's first message, and "requesting changes" was
    no verdict the reply cites), and "is the retry budget per tenant?" with the review's "it
    should be per tenant", not lena's "made it per tenant" after it."""
    asked, tenant = asked_after(lurker, tmp_path, threaded(
        ("bot", "2026-12-02T10:00:00Z", "p1", None, "PR #3301 \"Add retry budget to webhook "
         "sender\" opened by lena"),
        ("rev", "2026-12-02T11:00:00Z", "p2", "p1", "requesting changes: the retry budget resets "
         "per process, it should be per tenant. also missing tests for the 429 path"),
        ("lena", "2026-12-02T15:00:00Z", "p3", "p1", "made it per tenant and added the 429 "
         "tests"),
        ("rev", "2026-12-02T16:30:00Z", "p4", "p1", "LGTM, approving")),
        "2026-12-05T09:00:00Z", "what did the review of #3301 ask for?",
        "is the retry budget per tenant?")
    assert asked.startswith("requesting changes: the retry budget resets per process"), asked
    assert tenant.split("Before that")[0].lstrip("Latest: ").startswith(
        "made it per tenant and added the 429 tests"), tenant


def test_a_purchase_order_asked_by_its_number_and_by_what_it_was_for(lurker, tmp_path):
    """A finance channel: "was PO-1190 approved?" led with "what was PO-1190 for again? the
    Datadog APM add-on, $18k" (the newest word of the PO, no verdict), and "when can we resubmit
    the Datadog APM PO?" was answered "No date was given": the rejection names the PO, not what
    it was for, which a later message says of its number."""
    approved, resubmit = asked_after(lurker, tmp_path, chat(
        ("fin", "2026-11-24T10:00:00Z", "approved PO-1182 for $12k (Figma renewal, 1 year)"),
        ("fin", "2026-11-26T10:00:00Z", "PO-1190 rejected: over Q4 budget, resubmit in January"),
        ("ops", "2026-12-03T09:00:00Z", "what was PO-1190 for again? the Datadog APM add-on, "
         "$18k")),
        "2026-12-05T09:00:00Z", "was PO-1190 approved?",
        "when can we resubmit the Datadog APM PO?")
    assert approved.startswith("PO-1190 rejected: over Q4"), approved
    assert resubmit.startswith("January 2027: PO-1190 rejected"), resubmit


def test_a_failing_job_asked_whether_it_still_fails(lurker, tmp_path):
    """A data channel: "is daily_revenue still failing?" led with the failure, its later "✅ DAG
    daily_revenue succeeded" second ("succeeded" ended no state)."""
    [still] = asked_after(lurker, tmp_path, chat(
        ("airflow", "2026-12-01T06:10:00Z", "❌ DAG daily_revenue failed at task load_to_warehouse "
         "(try 3/3)"),
        ("dan", "2026-12-01T07:30:00Z", "daily_revenue failed because the Stripe export landed "
         "late, rerunning manually"),
        ("airflow", "2026-12-04T08:15:00Z", "✅ DAG daily_revenue succeeded")),
        "2026-12-05T09:00:00Z", "is daily_revenue still failing?")
    assert still.startswith("Latest: ✅ DAG daily_revenue succeeded"), still


def test_time_off_taken_back_is_the_latest_word_of_who_is_out(lurker, tmp_path):
    """A team channel: ana's "update: cancelled my PTO next week, I'll be around" came after her
    "I'm out Dec 7-11", yet "is ana out next week?" led with the time off, the cancellation
    second (it says "PTO", no "out"), and "who is out next week?" listed her time off alone."""
    ana, who = asked_after(lurker, tmp_path, chat(
        ("ana", "2026-11-30T09:00:00Z", "I'm out Dec 7-11, back Monday the 14th"),
        ("ana", "2026-12-03T16:00:00Z", "update: cancelled my PTO next week, I'll be around"),
        ("lu", "2026-12-04T10:00:00Z", "out Monday for a family thing")),
        "2026-12-05T09:00:00Z", "is ana out next week?", "who is out next week?")
    assert ana.startswith("Latest: update: cancelled ana's PTO next week"), ana
    assert "lu said: out Monday" in who and "cancelled ana's PTO" in who \
        and "out Dec 7-11" not in who, who


def test_a_key_a_platform_and_a_rate_limit_asked_from_the_shell(lurker, tmp_path):
    """5 Dec (eighteenth session), through `lurker` as a user types it: a wandb key pasted with
    no credential word is never stored, exported or said; "is iOS 5.2.1 live?" is not answered by
    the Android rollout; the rate limit agreed in "rpm" answers the rate limit asked."""
    key = "3f9a1c2b7d8e4f60a1b2c3d4e5f60718293a4b5c"
    rows = chat(
        ("ana", "2026-12-03T13:20:00Z", f"wandb key for the shared project if anyone needs it: "
                                        f"{key}"),
        ("kim", "2026-12-04T08:30:00Z", "iOS 5.2.1 approved! releasing manually Monday morning"),
        ("raj", "2026-12-04T16:00:00Z", "bumping android 5.2.1 to 50%"),
        ("wei", "2026-11-24T15:00:00Z", "sync notes: agreed on 100 rpm for free and 1000 for "
                                        "pro, burst of 20. rollout Dec 1"),
        ("ines", "2026-12-01T11:00:00Z", "RATE_LIMIT_V2 on for 10% of free keys"))
    wandb, live, limit = asked_after(lurker, tmp_path, rows, "2026-12-05T10:00:00Z",
                                     "what's the wandb key?", "is iOS 5.2.1 live?",
                                     "what is the rate limit for free keys?")
    assert key not in wandb and "[REDACTED:credential]" in wandb, wandb
    assert key[:12] not in lurker("export").stdout
    assert live.startswith("iOS 5.2.1 approved!") and "android" not in live.lower(), live
    assert limit.startswith("sync notes: agreed on 100 rpm for free"), limit


def test_a_window_moved_a_blocker_and_a_tickets_eta_asked_from_the_shell(lurker, tmp_path):
    """6 Dec (nineteenth session), through `lurker` as a user types it: a Postgres upgrade
    whose window moved ("when is the postgres upgrade?" gave the old day), whose blocker was
    superseded by the bump it planned ("what blocked the upgrade?" gave the staging run), and a
    ticket's ETA said in a sentence naming neither the fix nor Safari SSO (declined)."""
    rows = chat(
        ("nina", "2026-11-23T10:00:00Z", "Kicking off the Postgres 14 -> 16 upgrade for the "
                                         "orders DB. Target window: Saturday Dec 12, 02:00-04:00 "
                                         "UTC."),
        ("nina", "2026-11-24T09:15:00Z", "Staging upgrade done, took 41 minutes, no errors."),
        ("omar", "2026-11-25T16:00:00Z", "Found an issue: pg_partman 4.x isn't compatible with "
                                         "PG16, we need to bump it to 5.1 first."),
        ("nina", "2026-11-26T11:00:00Z", "pg_partman bumped to 5.1 on staging, tests green."),
        ("leo", "2026-11-30T08:45:00Z", "FYI the maintenance window needs a status page notice "
                                        "at least 72h before."),
        ("omar", "2026-12-01T13:20:00Z", "Change of plan: window moves to Sunday Dec 13, same "
                                         "hours, because the payments team has a batch run "
                                         "Saturday night."),
        ("jo", "2026-11-30T13:30:00Z", "ESC-312: Umbrella Corp SSO login loops on Safari only. "
                                       "P2."),
        ("mo", "2026-12-03T09:20:00Z", "ESC-312 is Safari's ITP blocking our third-party cookie. "
                                       "Moving the auth callback to our own domain; ETA next "
                                       "Wednesday."))
    when, blocked, eta = asked_after(lurker, tmp_path, rows, "2026-12-05T10:00:00Z",
                                     "when is the postgres upgrade?", "what blocked the upgrade?",
                                     "when will the Safari SSO fix land?")
    assert when.startswith("Latest: 13 December 2026: Change of plan"), when
    assert "pg_partman 4.x isn't compatible" in blocked, blocked
    assert eta.startswith("9 December 2026: Moving the auth callback"), eta


def test_a_release_a_cve_and_a_no_go_asked_from_the_shell(lurker, tmp_path):
    """6 Dec (twentieth session), through `lurker` as a user types it: a CVE's disclosure "date
    … is Dec 9" (said 2 Dec) was last year's; "Releasing iOS 4.12.0 manually on Thursday",
    said on a Thursday evening after "Build 884 approved!", was that same day (the sentence was
    cut at the version's dots); "why was it a no-go?" gave the verdict and the slip, not the
    reason said between them; "which config …?" was answered by the day the run moved to."""
    rows = chat(
        ("tom", "2026-12-02T11:00:00Z", "Coordinated disclosure date for the CVE is Dec 9, "
                                        "14:00 UTC. Security releases go out then."),
        ("ana", "2026-12-03T18:00:00Z", "Build 884 approved! Releasing iOS 4.12.0 manually on "
                                        "Thursday."),
        ("leo", "2026-12-03T12:00:00Z", "Go/no-go: NO-GO. QA-772 lets two 50% coupons stack to "
                                        "100%. Release slips to Monday."),
        ("kai", "2026-12-02T16:00:00Z", "We're going with r-2215's config for the 7B run. "
                                        "Starting Thursday on the 64-GPU pool."),
        ("mo", "2026-12-03T11:00:00Z", "GPU pool is booked by the speech team until Friday noon, "
                                       "so the 7B run starts Friday afternoon instead."))
    cve, ios, nogo, config = asked_after(
        lurker, tmp_path, rows, "2026-12-05T10:00:00Z", "when is the CVE disclosed?",
        "when is iOS 4.12.0 being released?", "why was it a no-go?",
        "which config are we using for the 7B run?")
    assert cve.startswith("9 December 2026: Coordinated disclosure date"), cve
    assert ios.startswith("10 December 2026: Releasing iOS 4.12.0"), ios
    assert nogo.startswith("QA-772 lets two 50% coupons stack to 100%."), nogo
    assert config.startswith("We're going with r-2215's config"), config


def test_a_booth_a_contract_and_an_oncall_week_asked_from_the_shell(lurker, tmp_path):
    """6 Dec (twenty-first session), through `lurker` as a user types it: "We got a 10x10 booth
    at DevWorld, Feb 17-19 in Austin" (said 24 Nov) was last February's; "is the Hooli MSA
    signed?" was answered with Hooli's redlines, the signing naming no Hooli, and its "Effective
    Dec 1" (said 3 Dec) was next year's; "who is on call this week?" was declined ("Handoff to
    @bea for this week."); "which PR fixed the export?" was "Ships with Thursday's release"."""
    rows = chat(
        ("meg", "2026-11-24T10:00:00Z", "We got a 10x10 booth at DevWorld, Feb 17-19 in Austin. "
                                        "Booth #412."),
        ("liz", "2026-11-23T10:00:00Z", "MSA with Hooli: their redlines came back, they want "
                                        "uncapped liability for data breaches."),
        ("liz", "2026-12-03T10:00:00Z", "MSA signed by both sides! Effective Dec 1."),
        ("al", "2026-11-30T09:00:00Z", "Handoff to @bea for this week. Open: INC-1201 (elevated "
                                       "5xx on search, mitigated, RCA pending)."),
        ("ada", "2026-12-01T16:00:00Z", "Fix for ZD-4410 in PR #3301, paginates the PDF render. "
                                        "Ships with Thursday's release."),
        ("ben", "2026-12-04T09:00:00Z", "Initech confirmed exports work. Closing ZD-4410."))
    devworld, signed, oncall, pr = asked_after(
        lurker, tmp_path, rows, "2026-12-05T10:00:00Z", "when is DevWorld?",
        "is the Hooli MSA signed?", "who is on call this week?", "which PR fixed the export?")
    assert devworld.startswith("17 February 2027 to 19 February 2027: We got a 10x10 booth"), \
        devworld
    assert signed.startswith("MSA signed by both sides! Effective Dec 1 [2026-12-01]."), signed
    assert oncall.startswith("Handoff to @bea for this week"), oncall
    assert pr.startswith("Fix for ZD-4410 in PR #3301"), pr


def test_a_triage_a_postmortem_and_a_flag_asked_from_the_shell(lurker, tmp_path):
    """6 Dec (twenty-second session), through `lurker` as a user types it: "what priority is
    BUG-301?" was answered with the P1 it was triaged at, not the newer P2; "what's left from
    the postmortem?" gave the action items without what was done of them since; "anything new
    on new_checkout?" led with the ramp, not the next day's rollback; "which ticket tracked the
    quickstart bug?" was declined."""
    rows = chat(
        ("ana", "2026-12-01T10:00:00Z", "Triage: BUG-301 (export times out for >10k rows) is P1, "
                                        "assigning to @tom."),
        ("ana", "2026-12-03T10:00:00Z", "BUG-301 downgraded to P2 since the workaround (CSV in "
                                        "chunks) is documented."),
        ("tom", "2026-12-04T11:00:00Z", "#7781 merged, BUG-301 fixed in 2.14.0"),
        ("pat", "2026-12-01T10:05:00Z", "Action items from the search postmortem: @li add circuit "
                                        "breaker, @vic raise ES heap to 16g, @pat write the "
                                        "runbook."),
        ("vic", "2026-12-02T16:00:00Z", "ES heap raised to 16g on all search nodes."),
        ("priya", "2026-12-03T10:05:00Z", "new_checkout ramped to 50%."),
        ("priya", "2026-12-04T16:00:00Z", "rolled new_checkout back to 0% — payment errors on "
                                          "Safari 16. INC-812."),
        ("rob", "2026-12-03T09:00:00Z", "Quickstart is broken for Node 18 — `fetch` polyfill "
                                        "missing. Filed DOCS-88."))
    priority, left, new, ticket = asked_after(
        lurker, tmp_path, rows, "2026-12-05T10:00:00Z", "what priority is BUG-301?",
        "what's left from the postmortem?", "anything new on new_checkout?",
        "which ticket tracked the quickstart bug?")
    assert priority.startswith("BUG-301 downgraded to P2"), priority
    assert left.startswith("Action items from the search postmortem") \
        and "Since then: ES heap raised to 16g" in left, left
    assert new.startswith("rolled new_checkout back to 0%"), new
    assert ticket.startswith("Quickstart is broken for Node 18"), ticket


def test_a_data_channel_a_party_and_a_lab_asked_from_the_shell(lurker, tmp_path):
    """6 Dec (twenty-third session), through `lurker` as a user types it: "how long was dbt
    broken?" listed "dbt run failing" and "dbt fixed" and left the subtraction to the reader;
    "what's the budget for the party?" led with the venue's move over "Budget $8,000."; "what
    was the baseline accuracy?" led with "Still +0.7 over baseline."; and "Payroll accrual for
    November booked", said 4 Dec, was dated next November."""
    rows = chat(
        ("nia", "2026-12-03T15:00:00Z", "dbt run failing since 6am on stg_payments, schema "
                                        "change upstream."),
        ("nia", "2026-12-03T18:00:00Z", "dbt fixed, added the new currency column to "
                                        "stg_payments."),
        ("maya", "2026-11-30T10:00:00Z", "Holiday party venue booked: The Foundry, Dec 18, "
                                         "6-10pm. Budget $8,000."),
        ("maya", "2026-12-04T10:00:00Z", "The Foundry double-booked us, party moves to Dec 19, "
                                         "same time."),
        ("priya", "2026-11-30T10:00:00Z", "Baseline ResNet-50 run finished: 76.1% top-1 on "
                                          "ImageNet val."),
        ("tom", "2026-12-02T09:00:00Z", "Reran at 90 epochs: 76.8%. Still +0.7 over baseline."),
        ("ben", "2026-12-04T15:00:00Z", "Payroll accrual for November booked: $612k."))
    broken, budget, baseline, accrual = asked_after(
        lurker, tmp_path, rows, "2026-12-05T10:00:00Z", "how long was dbt broken?",
        "what's the budget for the party?", "what was the baseline accuracy?",
        "what's the payroll accrual?")
    assert broken.startswith("At least 3 hours: reported at 15:00 UTC on 3 December 2026 (dbt "
                             "run failing"), broken
    assert "back at 18:00 UTC (dbt fixed" in broken, broken
    assert budget.startswith("Holiday party venue booked: The Foundry"), budget
    assert baseline.startswith("Baseline ResNet-50 run finished: 76.1%"), baseline
    assert "[November 2026]" in accrual and "2027" not in accrual, accrual


def test_what_a_status_reads_since_and_a_sum_beside_are_forgotten_from_the_shell(lurker,
                                                                                  tmp_path):
    """6 Dec (twenty-third session): the reads added for a status ("Pausing the phased rollout."
    found by a lead's words), a sum beside its lead ("Compressor relay was bad, $420.") and a
    thing back up ("Cooler is back up") go through the store's active memories: forgotten by the
    id `lurker recall` shows, none of them is said again."""
    now = ("--now", "2026-12-05T12:00:00Z")
    answers = asked_after(
        lurker, tmp_path, chat(
            ("kai", "2026-12-04T08:00:00Z", "4.12.1 approved! Releasing to 10% phased rollout."),
            ("sara", "2026-12-04T17:00:00Z", "Crash rate on 4.12.1 is 0.4%, up from 0.1%. "
                                             "Pausing the phased rollout."),
            ("marco", "2026-12-01T07:00:00Z", "Walk-in cooler is down, temp at 48F."),
            ("jen", "2026-12-01T12:40:00Z", "Cooler is back up, holding 36F. Compressor relay "
                                            "was bad, $420.")),
        now[1], "what's the status of the iOS release?", "how much did the cooler repair cost?",
        "how long was the walk-in down?")
    assert "Pausing the phased rollout." in answers[0], answers
    assert answers[1].startswith("Compressor relay was bad, $420."), answers
    assert answers[2].startswith("At least 5 hours 40 minutes"), answers
    for question, said in (("what's the status of the iOS release?", "Pausing the phased"),
                           ("how much did the cooler repair cost?", "Compressor relay"),
                           ("how long was the walk-in down?", "Cooler is back up")):
        out = lurker("recall", question, *now).stdout
        shown = re.search(rf"\[([0-9a-f]{{12}})\] \w+ +2026-12-0\d  {said}", out).group(1)
        lurker("forget", shown, "--reason", "posted in the wrong channel")
        out = lurker("recall", question, *now).stdout
        assert said not in out, out
    assert "$420" not in lurker("recall", "how much did the cooler repair cost?", *now).stdout


def test_a_thread_deciding_to_drop_a_browser_asked_from_the_shell(lurker, tmp_path):
    """6 Dec (twenty-third session), a thread typed into `lurker`: "when are we dropping IE11?"
    was answered "Q3 2026" (ola's "they were still on IE11 last quarter", a day already past
    when it was said, is no plan's day) over "Dropping IE11 in 5.0." (a release is when), and
    "are we dropping IE11?" led with "It's the IE11 polyfill removal." (the verb asked is what
    was decided)."""
    rows = threaded(
        ("kim", "2026-12-02T10:00:00Z", "t1", None, "Should we drop IE11 support in the next "
                                                    "release?"),
        ("raj", "2026-12-02T10:10:00Z", "t2", "t1", "+1, it's 0.2% of traffic"),
        ("ola", "2026-12-02T10:20:00Z", "t3", "t1", "-1 until the gov customers confirm, they "
                                                    "were still on IE11 last quarter"),
        ("kim", "2026-12-03T09:00:00Z", "t4", "t1", "Gov customers confirmed they moved to Edge. "
                                                    "Dropping IE11 in 5.0."),
        ("sam", "2026-12-03T15:00:00Z", "t5", None, "Who can review PR #1880? It's the IE11 "
                                                    "polyfill removal."))
    when, whether = asked_after(lurker, tmp_path, rows, "2026-12-05T10:00:00Z",
                                "when are we dropping IE11?", "are we dropping IE11?")
    assert when.startswith("No date was given; it was said on 3 December 2026: Dropping IE11 in "
                           "5.0."), when
    assert "Q3 2026" not in when, when
    assert whether.startswith("Dropping IE11 in 5.0."), whether


def test_a_hiring_pipeline_someone_withdrew_from_asked_from_the_shell(lurker, tmp_path):
    """6 Dec (twenty-third session), through `lurker`: "who is still in the pipeline for the
    backend role?" listed Ben after "Ben withdrew, took another offer."; "why did Ben drop out?"
    was declined; "Offer out to Aiko: …. She has until Dec 9 to decide." kept "She has …" (she
    is the one person the sentences before name)."""
    rows = chat(
        ("hr", "2026-11-30T10:00:00Z", "Backend role: 3 candidates in onsite stage: Aiko, Ben, "
                                       "Carla."),
        ("lin", "2026-12-02T17:00:00Z", "Ben withdrew, took another offer."),
        ("hr", "2026-12-03T11:00:00Z", "Offer out to Aiko: $185k base, start Jan 11. She has "
                                       "until Dec 9 to decide."))
    still, why, decide = asked_after(
        lurker, tmp_path, rows, "2026-12-05T10:00:00Z",
        "who is still in the pipeline for the backend role?", "why did Ben drop out?",
        "when does Aiko have to decide by?")
    assert still.startswith("Latest: Ben withdrew, took another offer."), still
    assert why.startswith("Ben withdrew, took another offer."), why
    assert "Aiko has until Dec 9" in decide, decide


def test_a_pager_an_it_desk_and_passwords_in_other_languages_from_the_shell(lurker, tmp_path):
    """6 Dec (twenty-fourth session), through `lurker`: "why did search go down?" gave the ack
    and the RESOLVED line (what kai found between them shares no word of it); "why was the VPN
    dropping?" the rollback, not the known issue said 45 minutes after the report; "when is the
    Monterrey demo?" the old day ("se mueve al viernes 11 de diciembre" moved nothing); and
    passwords named in Spanish, German, French, Portuguese and Italian were stored and quoted
    back."""
    rows = chat(
        ("pd", "2026-12-03T09:20:00Z", "TRIGGERED: search-api 5xx rate > 5% (SEV1) #PD-5120, "
                                       "assigned to kai"),
        ("kai", "2026-12-03T09:24:00Z", "ack, looking. search has been down since 9:15"),
        ("kai", "2026-12-03T09:40:00Z", "ES cluster ran out of disk on data-3, cleared old "
                                        "indices"),
        ("pd", "2026-12-03T09:52:00Z", "RESOLVED: search-api 5xx rate > 5% (SEV1) #PD-5120"),
        ("max", "2026-12-01T08:15:00Z", "VPN keeps dropping every 10 min since the update"),
        ("it", "2026-12-01T09:00:00Z", "Known issue with GlobalProtect 6.2.1, rolling back to "
                                       "6.1.4 tonight."),
        ("it", "2026-12-02T08:00:00Z", "VPN rollback done, drops should be gone."),
        ("lucia", "2026-12-01T09:00:00Z", "La demo con el cliente de Monterrey es el jueves 10 "
                                          "de diciembre a las 11."),
        ("lucia", "2026-12-02T16:00:00Z", "Cambio: la demo se mueve al viernes 11 de diciembre, "
                                          "mismo horario."),
        ("ana", "2026-12-01T09:00:00Z", "la contraseña del wifi de invitados es Verano2026!"),
        ("jonas", "2026-12-01T09:05:00Z", "Passwort für den Staging-Server: Sommer#2026xy"),
        ("marie", "2026-12-01T09:10:00Z", "le mot de passe admin est Hiver_2026!zz"),
        ("rui", "2026-12-01T09:15:00Z", "a senha do banco é Primavera@2026"),
        ("gio", "2026-12-01T09:20:00Z", "la password del router è Autunno2026$"))
    search, vpn, demo, wifi, staging = asked_after(
        lurker, tmp_path, rows, "2026-12-05T10:00:00Z",
        "why did search go down?", "why was the VPN dropping?", "when is the Monterrey demo?",
        "cuál es la contraseña del wifi?", "what's the staging password?")
    assert search.startswith("ES cluster ran out of disk on data-3, cleared old indices"), search
    assert vpn.startswith("Known issue with GlobalProtect 6.2.1"), vpn
    assert demo.startswith("11 December 2026: Cambio: la demo se mueve al viernes"), demo
    stored = b"".join(p.read_bytes() for p in tmp_path.glob("*.sqlite3*")) \
        + lurker("export").stdout.encode()
    for secret in ("Verano2026", "Sommer#2026", "Hiver_2026", "Primavera@2026", "Autunno2026"):
        assert secret not in wifi + staging and secret.encode() not in stored, secret


def test_a_lab_a_kitchen_and_a_migration_from_the_shell(lurker, tmp_path):
    """6 Dec (twenty-fifth session), through `lurker`: "when is the mass spec booked?" gave the
    old day ("new slot is Monday Dec 7" set none); "what's replacing the halibut?" gave a pump
    seal replaced, not "Swapping in black cod."; "how much do we owe Acme Cloud?" the first
    invoice, not "Acme sent a corrected invoice"; "when does the Intercom migration start?" was
    declined ("Going with Intercom." was too short to keep); "when is the postgres upgrade?"
    gave no day for "Upgrade pushed to Dec 15"."""
    rows = chat(
        ("priya", "2026-11-30T14:02:00Z", "Mass spec is booked for Thursday Dec 3, 9am-1pm for "
                                          "the lipid samples."),
        ("priya", "2026-12-02T11:00:00Z", "Mass spec slot got bumped by the core facility, new "
                                          "slot is Monday Dec 7 same time."),
        ("marco", "2026-11-30T13:00:00Z", "Hobart tech replaced the pump seal, dishwasher good "
                                          "now. $380 invoice."),
        ("ana", "2026-12-02T11:00:00Z", "We're 86ing the halibut on the new menu, price went up "
                                        "to $34/lb. Swapping in black cod."),
        ("fin", "2026-11-20T10:00:00Z", "Vendor invoice from Acme Cloud is $23,410, due Dec 20."),
        ("fin", "2026-11-25T10:00:00Z", "Acme sent a corrected invoice: $21,900 (they "
                                        "double-billed storage)."),
        ("pm", "2026-12-04T16:00:00Z", "Going with Intercom. Migration starts in January."),
        ("tomas", "2026-11-24T09:00:00Z", "Postgres 14 -> 16 upgrade plan: dry run on staging "
                                          "Dec 1, prod cutover Dec 8 22:00 UTC."),
        ("tomas", "2026-12-03T17:00:00Z", "Found a blocker: pg_partman 4.x isn't compatible with "
                                          "16. Upgrade pushed to Dec 15, same time."))
    spec, halibut, owed, intercom, upgrade = asked_after(
        lurker, tmp_path, rows, "2026-12-05T10:00:00Z",
        "when is the mass spec booked?", "what's replacing the halibut?",
        "how much do we owe Acme Cloud?", "when does the Intercom migration start?",
        "when is the postgres upgrade?")
    assert spec.startswith("7 December 2026: Mass spec slot got bumped"), spec
    assert "Swapping in black cod." in halibut and "pump seal" not in halibut, halibut
    assert owed.startswith("Latest: Acme sent a corrected invoice: $21,900"), owed
    assert intercom.startswith("January 2027: Migration starts in January"), intercom
    assert upgrade.startswith("15 December 2026: Upgrade pushed to Dec 15"), upgrade


def test_a_slack_export_with_its_markup_and_a_pypi_token_from_the_shell(lurker, tmp_path):
    """7 Dec (thirty-second session), a maintainers' channel exported from Slack and fed to
    `lurker ingest`: recall quoted `<!here>` back as written (an agent posting the answer to
    Slack would ping the channel), "who reported the CVE?" gave the CVE over "the reporter is
    <@U07QX|mhalvorsen>", and the pasted PyPI token must stay out of everything kept."""
    token = ("pypi-AgEIcHlwaS5vcmcCJGE4ZjQyYzY3LWQ1ZTEtNDk3ZC1hMmQ5LTYxYjQ3ZGE5Y2UxMwACKlsz"
             "LCJhYmMiXQAABiD4kD2nQ")
    rows = chat(
        ("kenji", "2026-11-30T09:00:00Z", "v3.2.0 is out on PyPI, changelog in "
         "<https://github.com/acme/widget/releases/tag/v3.2.0|the release notes>"),
        ("rosa", "2026-11-30T14:00:00Z", "<!here> v3.2.0 breaks pandas 1.x users, the "
                                         "`to_frame` import fails. Yanking it"),
        ("rosa", "2026-11-30T14:20:00Z", "yanked 3.2.0 from PyPI, 3.1.4 is latest again"),
        ("dana", "2026-12-02T11:00:00Z", "CVE-2026-41822 reported against our YAML loader, "
                                         "embargo until Dec 15, don't discuss in public issues"),
        ("dana", "2026-12-02T11:05:00Z", "the reporter is <@U07QX|mhalvorsen>, credit them in "
                                         "the advisory"),
        ("rosa", "2026-12-04T09:00:00Z", f"PyPI token for CI rotated, new one is {token}"),
        ("rosa", "2026-12-05T12:00:00Z", "<!channel> please review <#C0REL|release> #1432 "
                                         "before the freeze on Friday"))
    yanked, who, embargo, pypi, freeze = asked_after(
        lurker, tmp_path, rows, "2026-12-07T09:00:00Z",
        "why was 3.2.0 yanked?", "who reported the CVE?", "when does the CVE embargo end?",
        "what's the PyPI token?", "when is the freeze?")
    assert "@here v3.2.0 breaks pandas 1.x users" in yanked, yanked
    assert who.startswith("the reporter is @mhalvorsen"), who
    assert embargo.startswith("15 December 2026:"), embargo
    assert token not in pypi and "REDACTED" in pypi, pypi
    assert freeze.startswith("11 December 2026: @channel please review #release #1432"), freeze
    dump = lurker("export", "--out", str(tmp_path / "all.jsonl"))
    assert dump.returncode == 0
    exported = (tmp_path / "all.jsonl").read_text()
    assert "<!" not in exported and "<@" not in exported and "<#" not in exported, exported
    assert "the release notes (https://github.com/acme/widget" in exported
    assert token[:40] not in exported


def test_a_newsroom_a_clinic_and_an_agency_from_the_shell(lurker, tmp_path):
    """7 Dec (thirty-second session), through `lurker`: "when does the housing series run?"
    quoted its message with no day (the memory was replaced whole by a move of the drafts);
    "is tess in on Tuesday?" was declined ("I'm off next Mon-Wed" was no date); "can we use
    anesthesia machine 2?" led with its failed leak test, not the fix; "who owns the brand
    guidelines?" was answered "Latest: … kickoff pushed to Thu 12/10" (a shared "12")."""
    rows = chat(
        ("ed", "2026-12-01T09:00:00Z", "the housing series runs Sunday the 13th, drafts due to "
                                       "me by EOD Wednesday"),
        ("ed", "2026-12-03T17:00:00Z", "drafts due moved to tmrw noon, photo desk is behind"),
        ("tess", "2026-11-30T08:10:00Z", "anesthesia machine 2 failed its leak test, don't use "
                                         "it till the service guy comes"),
        ("tess", "2026-12-01T16:00:00Z", "service guy fixed machine 2, passed the leak test, "
                                         "good to go"),
        ("tess", "2026-12-04T18:00:00Z", "I'm off next Mon-Wed, Jo is covering the front desk"),
        ("mo", "2026-12-01T10:00:00Z", ":tada: Contoso signed the SOW! kickoff is Wed 12/9 at "
                                       "2pm PT"),
        ("ana", "2026-12-01T11:00:00Z", "I'll own the brand guidelines, first draft by 12/18"),
        ("mo", "2026-12-03T15:00:00Z", "*update*: kickoff pushed to Thu 12/10 same time, their "
                                       "CMO is travelling"))
    series, tess, machine, owner, kickoff = asked_after(
        lurker, tmp_path, rows, "2026-12-07T09:00:00Z",
        "when does the housing series run?", "is tess in on Tuesday?",
        "can we use anesthesia machine 2?", "who owns the brand guidelines?",
        "when is the Contoso kickoff?")
    assert series.startswith("13 December 2026:") and "housing series runs" in series, series
    assert tess.startswith("tess is off next Mon-Wed [2026-12-07 to 2026-12-09]"), tess
    assert machine.startswith("Latest: service guy fixed machine 2"), machine
    assert owner.startswith("ana will own the brand guidelines") and "kickoff" not in owner, \
        owner
    assert kickoff.startswith("10 December 2026: update: kickoff pushed"), kickoff


def test_an_on_call_rota_a_pta_and_a_sales_team_from_the_shell(lurker, tmp_path):
    """7 Dec (thirty-third session), through `lurker`: "the wifi password in the office is now
    correct-horse-battery-staple" and "otp backup codes …" were stored and quoted back; "who
    drives on Thursdays?" was declined; "when did the checkout incident recover?" gave the
    postmortem's day; "who is on call next week?" led with the postmortem moved; Initech's
    "sign by Dec 20" (said 2 Dec) was last year's Dec 20."""
    codes = "k3m9-q2x7-p4t1 8h2n-w5r3-z9c6"
    rows = chat(
        ("jo", "2026-12-01T10:40:00Z", "the wifi password in the office is now "
                                       "correct-horse-battery-staple"),
        ("jo", "2026-12-01T10:45:00Z", f"otp backup codes {codes}"),
        ("dan", "2026-12-01T03:12:00Z", "paged: checkout p99 at 4s, rolled back deploy 8812, "
                                        "recovered 03:40"),
        ("priya", "2026-12-01T10:00:00Z", "postmortem for the checkout incident is Thursday 2pm"),
        ("priya", "2026-11-30T09:00:00Z", "on-call this week is Dan, next week me, then Kofi"),
        ("kofi", "2026-12-02T12:00:00Z", "I'll swap with Priya, I take next week and she takes "
                                         "the week after"),
        ("kofi", "2026-12-04T09:30:00Z", "postmortem pushed to Monday, Dan is out Thursday"),
        ("amy", "2026-12-02T07:30:00Z", "I can drive Mondays and Wednesdays, Luis has Tuesdays, "
                                        "still need Thursday"),
        ("amy", "2026-12-04T08:00:00Z", "Priya said she'll take Thursdays for carpool"),
        ("jess", "2026-12-02T16:00:00Z", "legal approved a 12% discount for Initech if they "
                                         "sign by Dec 20"))
    wifi, backup, recovered, rota, thursdays, discount = asked_after(
        lurker, tmp_path, rows, "2026-12-07T09:00:00Z",
        "what's the office wifi password?", "what are the otp backup codes?",
        "when did the checkout incident recover?", "who is on call next week?",
        "who drives on Thursdays?", "when does Initech need to sign by?")
    assert "correct-horse" not in wifi and "REDACTED" in wifi, wifi
    assert "k3m9" not in backup and "8h2n" not in backup, backup
    assert recovered.startswith("1 December 2026") and "recovered 03:40" in recovered, recovered
    assert "Latest: kofi will swap with Priya" in rota and "postmortem" not in rota, rota
    assert "Priya said she'll take Thursdays for carpool" in thursdays, thursdays
    assert discount.startswith("20 December 2026:"), discount
    dump = lurker("export", "--out", str(tmp_path / "all.jsonl"))
    assert dump.returncode == 0
    exported = (tmp_path / "all.jsonl").read_text()
    assert "correct-horse" not in exported and "k3m9" not in exported, exported


def test_a_building_site_a_shop_and_a_release_from_the_shell(lurker, tmp_path):
    """8 Dec (thirty-fourth session), through `lurker`: "guest wifi is ChezMarco2026" was
    stored and quoted back; "when does the electrician start?" gave framing's day; "when is the
    holiday returns window?" said "Back on …"; "when is 3.2.0 coming out?" gave RC1's Thursday
    and missed the slip to Dec 14; "TODO: renew the SSL cert" stayed open after "SSL cert
    renewed"."""
    rows = chat(
        ("marco", "2026-12-01T10:00:00Z", "guest wifi is ChezMarco2026"),
        ("ken", "2026-11-27T10:00:00Z", "electrician (Voltz) starts rough-in the Monday after "
                                        "framing"),
        ("ana", "2026-11-30T09:00:00Z", "framing starts Dec 3"),
        ("nina", "2026-12-02T15:00:00Z", "the holiday returns window is extended to Jan 31"),
        ("lena", "2026-11-30T09:00:00Z", "3.2.0 release is planned for Dec 10, RC1 goes out "
                                         "Thursday"),
        ("lena", "2026-12-05T11:00:00Z", "we're slipping 3.2.0 to Dec 14 so the CVE fix lands "
                                         "with it"),
        ("rae", "2026-12-01T09:00:00Z", "TODO: renew the SSL cert for api.acme.io before Dec 20"),
        ("rae", "2026-12-03T16:00:00Z", "SSL cert renewed, good until Dec 2027"))
    wifi, electrician, window, release, tasks = asked_after(
        lurker, tmp_path, rows, "2026-12-07T12:00:00Z",
        "what's the guest wifi?", "when does the electrician start?",
        "when is the holiday returns window?", "when is 3.2.0 coming out?",
        "what tasks are still open?")
    assert "ChezMarco2026" not in wifi and "REDACTED" in wifi, wifi
    assert electrician.startswith("No date was given; it was said on 27 November 2026"), \
        electrician
    assert window.startswith("31 January 2027: the holiday returns window"), window
    assert release.startswith("Latest: we're slipping 3.2.0 to Dec 14"), release
    assert "3 December" not in release, release
    assert tasks.startswith("Nothing is still open"), tasks
    dump = lurker("export", "--out", str(tmp_path / "all.jsonl"))
    assert dump.returncode == 0
    assert "ChezMarco2026" not in (tmp_path / "all.jsonl").read_text()
