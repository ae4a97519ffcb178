"""`lurker chat`, `lurker backfill` and `lurker slack` as a newcomer runs them: real subprocesses on
the embedded store, stdin piped; backfill against the loopback Slack Web API."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.fake_slack_api import TOKEN, FakeSlackAPI


@pytest.fixture
def run(tmp_path):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("SLACK_", "ANTHROPIC_", "LURKER_BOT_"))}
    env.update(LURKER_STORE=f"sqlite:///{tmp_path / 'chat.sqlite3'}", USER="maya")

    def lurker(*args, stdin="", expect=0, **extra):
        proc = subprocess.run([sys.executable, "-m", "memory.cli", *args], input=stdin,
                              env={**env, **extra}, capture_output=True, text=True, timeout=240,
                              cwd=tmp_path)
        assert proc.returncode == expect, proc.stderr
        return proc
    return lurker


def test_chat_lines_are_messages_and_mentions_are_answered(run, tmp_path):
    script = ("The deploy freeze starts on Friday at noon.\n"
              "/as tomas\n"
              "Host omega7 moved to rack 9 in Frankfurt.\n"
              "@lurker where did host omega7 move?\n"
              "@lurker who won the football game?\n"
              "@lurker export\n")
    out = run("chat", "--profile", "team", stdin=script).stdout
    # the "(looking…)" note comes only when a recall takes over a second: not counted
    answers = [line for line in out.splitlines()
               if line.startswith("lurker> ") and line != "lurker> (looking…)"]
    assert "rack 9" in answers[1] and ", tomas: Host omega7 moved to rack 9" in out
    assert answers[2] == "lurker> I don't have anything about that in memory."
    assert "Written to" in answers[3]
    [export] = tmp_path.glob("lurker-team-*.jsonl")
    assert b"deploy freeze" in export.read_bytes()
    # a second session remembers the first (and adds nothing twice)
    again = run("chat", "--profile", "team", stdin="@lurker when does the deploy freeze "
                                                   "start?\n").stdout
    assert "Friday" in again and ", maya: The deploy freeze starts on Friday" in again
    listing = run("list", "--profile", "team").stdout
    assert listing.count("deploy freeze") == 1


def test_chat_lines_are_dated_in_the_terminals_time_zone(run, tmp_path):
    """The person at the terminal is where the machine is: a line is stored with that zone's
    offset, so "tonight" typed at 23:30 in Seattle is that evening's, not the next UTC day's."""
    import json
    from datetime import datetime
    from zoneinfo import ZoneInfo

    run("chat", "--profile", "tz", stdin="We shipped the migration tonight.\n",
        TZ="America/Los_Angeles")
    exported = run("export", "--profile", "tz").stdout.splitlines()
    [message] = [json.loads(line) for line in exported if '"kind": "message"' in line]
    seattle = datetime.now(ZoneInfo("America/Los_Angeles")).utcoffset().total_seconds() // 60
    assert message["utc_offset_minutes"] == seattle


def test_chat_demo_works_without_a_terminal(run):
    proc = run("chat", "--demo", stdin="")
    assert "Loaded the sample team conversation (9 new messages" in proc.stdout
    assert "300 requests per minute" in proc.stdout and "tomas" in proc.stdout
    again = run("chat", "--demo", stdin="@lurker memories\n")
    assert "(0 new messages" in again.stdout and "Memories of demo" in again.stdout


def test_backfill_from_slack_twice_without_duplicates(run, tmp_path):
    api = FakeSlackAPI().start()
    try:
        api.add_user("U1", "maya")
        api.add_history("C1", [
            {"user": "U1", "text": "Host kappa1 moved to rack 2.", "ts": "1794819600.000100"},
            {"user": "U1", "text": "Host kappa2 moved to rack 3.", "ts": "1794819700.000100"},
            {"user": "U1", "text": "Host kappa3 moved to rack 4.", "ts": "1794819800.000100"}])
        env = {"SLACK_BOT_TOKEN": TOKEN, "SLACK_API_URL": api.base_url}
        first = run("backfill", **env)
        assert "slack:T1:C1 -> slack:T1:C1: 3 fetched, 3 new" in first.stderr
        second = run("backfill", "slack", "--channel", "C1", **env)
        assert "3 fetched, 0 new, 3 already stored" in second.stderr
        listing = run("list", "--profile", "slack:T1:C1").stdout
        assert listing.count("kappa") == 3
        recent = run("backfill", "--oldest", "2026-11-16T09:02:00Z", **env)
        assert "1 fetched, 0 new" in recent.stderr
    finally:
        api.stop()


def test_slack_and_backfill_say_what_is_missing(run):
    assert "SLACK_APP_TOKEN is not set" in run("slack", expect=2).stderr
    assert "SLACK_BOT_TOKEN is not set" in run("backfill", expect=2).stderr
    bad = run("chat", "--config", "nope.toml", expect=2).stderr
    assert "cannot read the bot config 'nope.toml'" in bad and "Traceback" not in bad
