"""The Discord lurker end to end on a loopback Discord: the real discord.py client connects to
tests/fake_discord.py's gateway (raw dispatch payloads in) and REST API (what the bot posts is
recorded), and LurkerBot writes to the real engine on SQLite through the in-process sink."""
from __future__ import annotations

import asyncio
import json
import re
from datetime import datetime, timedelta, timezone

import discord
import pytest
from discord.gateway import DiscordWebSocket
from discord.http import Route

from bot.config import BotConfig
from bot.core import LurkerBot
from bot.discord_app import DiscordLurker, intents
from tests import fake_discord as fd
from tests.recorders import RecordingSink
from tests.forget_support import HOST, QUESTION, STATEMENT

GUILD = "700000000000000001"
GENERAL, RANDOM, BACKEND, QUIET = ("700000000000000011", "700000000000000012",
                                   "700000000000000013", "700000000000000014")
THREAD = "700000000000000021"
DM = "700000000000000031"
MODS = "700000000000000041"
OWNER = fd.user("600000000000000001", "owner")
ALICE = fd.user("600000000000000002", "alice")  # has the mods role (Manage Server)
BOB = fd.user("600000000000000003", "bob")  # no special permissions
CARLA = fd.user("600000000000000004", "carla")  # an admin by the bot config only
REVIEW_BOT = fd.user("600000000000000005", "reviewbot", bot=True)  # allow-listed
OTHER_BOT = fd.user("600000000000000006", "otherbot", bot=True)
LURKER = fd.user(fd.BOT_ID, "lurker", bot=True)
MENTION = f"<@{fd.BOT_ID}>"
MANAGE_GUILD, ADMINISTRATOR, BASIC = 1 << 5, 1 << 3, (1 << 10) | (1 << 11) | (1 << 16) | (1 << 6)
DAY = datetime(2026, 11, 16, 9, 0, tzinfo=timezone.utc)
NOW = datetime(2026, 11, 18, 9, 0, tzinfo=timezone.utc)

CONFIG = f"""
admins = ["discord:{CARLA['id']}"]
# Lurker's own id listed by mistake: its answers must still never become knowledge
allowed_bots = ["discord:{REVIEW_BOT['id']}", "discord:{LURKER['id']}"]

[profiles.team-backend]
channels = ["discord:{GUILD}:{BACKEND}", "discord:dm:*"]
"""


def the_guild() -> dict:
    return fd.guild(
        GUILD, "acme", owner_id=OWNER["id"],
        channels=[fd.text_channel(GENERAL, GUILD, "general"),
                  fd.text_channel(RANDOM, GUILD, "random", 1),
                  fd.text_channel(BACKEND, GUILD, "backend", 2),
                  fd.text_channel(QUIET, GUILD, "quiet", 3)],
        threads=[fd.thread_channel(THREAD, GUILD, GENERAL, "launch")],
        roles=[fd.role(GUILD, "@everyone", BASIC), fd.role(MODS, "mods", BASIC | MANAGE_GUILD)])


class Env:
    def __init__(self, loop, fake, client, bot, sink, service, connection):
        self.loop, self.fake, self.client, self.bot = loop, fake, client, bot
        self.sink, self.service, self.connection = sink, service, connection

    def wait_for(self, predicate, what: str):
        """Poll `predicate`; fail at once if the client's connection died (a payload it could
        not parse, say) rather than after the timeout."""
        def check():
            if self.connection.done():
                raise AssertionError(f"the client stopped: {self.connection.exception()!r}")
            return predicate()

        return self.loop.wait_for(check, what=what)

    def send(self, event: str, data: dict) -> dict:
        self.loop.run(self.fake.dispatch(event, data))
        return data

    def post(self, channel: str, author: dict, content: str, **kw) -> dict:
        roles = kw.pop("roles", [])
        kw.setdefault("guild_id", GUILD)
        return self.send("MESSAGE_CREATE", fd.message(
            channel, author, content, author_member=fd.member(roles), **kw))

    def settle(self) -> None:
        self.loop.run(self.client.idle())

    def events_for(self, external_id_part: str) -> list:
        return [e for e in self.sink.events if external_id_part in e.external_id]

    def replies(self, channel: str | None = None) -> list[fd.Request]:
        return self.fake.posts(channel)

    def wait_replies(self, n: int, channel: str | None = None) -> list[fd.Request]:
        self.wait_for(lambda: len(self.replies(channel)) >= n, what=f"{n} replies")
        self.settle()
        return self.replies(channel)

    def messages(self, profile: str) -> list:
        return list(self.service.store.iter_messages(profile))


@pytest.fixture
def env(tmp_path, embedder, monkeypatch):
    from memory.config import Settings
    from memory.service import MemoryService

    loop = fd.LoopThread()
    fake = fd.FakeDiscord([the_guild()])
    fake.users.update({u["id"]: u for u in (OWNER, ALICE, BOB, CARLA)})
    loop.run(fake.start())
    monkeypatch.setattr(Route, "BASE", fake.api_base)
    monkeypatch.setattr(DiscordWebSocket, "DEFAULT_GATEWAY", discord.gateway.yarl.URL(
        fake.gateway_url))
    settings = Settings(store=f"sqlite:///{tmp_path / 'discord.sqlite3'}",
                        anthropic_api_key=None)
    service = MemoryService.from_settings(settings, embedder=embedder)
    config = BotConfig.from_toml(f'audit_log = "{tmp_path / "audit.jsonl"}"\n' + CONFIG)
    sink = RecordingSink(service)
    bot = LurkerBot(service, sink, config, clock=lambda: NOW)

    async def build():
        return DiscordLurker(bot, guild_ready_timeout=0.01)

    client = loop.run(build())

    async def connect():
        started = asyncio.create_task(client.start("test-token"))
        ready = asyncio.create_task(client.wait_until_ready())
        await asyncio.wait([started, ready], return_when=asyncio.FIRST_COMPLETED)
        if started.done():
            ready.cancel()
            started.result()  # raises what went wrong
            raise AssertionError("the client stopped before it was ready")
        return started

    connection = loop.run(connect())
    yield Env(loop, fake, client, bot, sink, service, connection)
    loop.run(client.close())
    loop.run(fake.stop())
    loop.close()
    service.close()


def test_connects_with_the_message_content_intent_and_registers_slash_commands(env):
    assert env.fake.identify["token"] == "test-token"
    wanted = env.fake.identify["intents"]
    assert wanted == intents().value
    assert wanted & (1 << 15), "MESSAGE_CONTENT is requested"
    synced = [r for r in env.fake.requests if r.method == "PUT" and r.path.endswith("/commands")]
    assert len(synced) == 1
    (command,) = synced[0].json
    assert command["name"] == "lurker"
    assert {o["name"] for o in command["options"]} == {"ask", "forget", "memories", "export",
                                                       "purge"}


def test_channel_and_thread_messages_become_events_for_the_channel_profile(env):
    first = env.post(GENERAL, BOB, "The rate limit is 100 requests per minute.", at=DAY)
    in_thread = env.post(THREAD, ALICE, "Launch is on Thursday.", at=DAY + timedelta(minutes=1))
    mapped = env.post(BACKEND, BOB, "Use pnpm for the dashboard.", at=DAY)
    env.wait_for(lambda: len(env.sink.events) == 3, what="three events")
    env.settle()
    by_id = {e.external_id: e for e in env.sink.events}
    general = f"discord:{GUILD}:{GENERAL}"
    created = by_id[f"{general}:{first['id']}"]
    assert (created.type, created.profile, created.content) == (
        "message.created", general, "The rate limit is 100 requests per minute.")
    assert created.author == f"bob ({BOB['id']})" and created.ts == DAY
    assert created.session_id == f"{GENERAL}:2026-11-16"
    threaded = by_id[f"{general}:{THREAD}/{in_thread['id']}"]
    assert threaded.profile == general, "a thread follows its parent channel"
    assert threaded.session_id == f"{GENERAL}:thread:{THREAD}"
    assert by_id[f"discord:{GUILD}:{BACKEND}:{mapped['id']}"].profile == "team-backend"
    stored = {m.external_id: m for m in env.messages(general)}
    assert set(stored) == {created.external_id, threaded.external_id}
    assert [m.content for m in env.messages("team-backend")] == ["Use pnpm for the dashboard."]


def test_own_messages_and_unlisted_bots_are_not_ingested_allow_listed_bots_are(env):
    env.post(GENERAL, LURKER, "Here is what I remember …", at=DAY)
    env.post(GENERAL, OTHER_BOT, "Deploy finished.", at=DAY)
    reviewed = env.post(GENERAL, REVIEW_BOT, "Review: prefer httpx over requests.", at=DAY)
    last = env.post(GENERAL, BOB, "ok", at=DAY)
    env.wait_for(lambda: env.events_for(last["id"]), what="bob's message")
    env.settle()
    assert [e.external_id.rsplit(":", 1)[1] for e in env.sink.events] == [reviewed["id"],
                                                                           last["id"]]
    assert env.replies() == [], "nothing addressed to Lurker, nothing said"


def test_edits_and_deletes_reach_the_stored_message(env):
    general = f"discord:{GUILD}:{GENERAL}"
    original = env.post(GENERAL, BOB, "The rate limit is 100 requests per minute.", at=DAY)
    doomed = env.post(THREAD, BOB, "Typo message", at=DAY + timedelta(minutes=2))
    env.wait_for(lambda: len(env.messages(general)) == 2, what="two stored messages")
    edited_at = DAY + timedelta(minutes=5)
    env.send("MESSAGE_UPDATE", {**original, "content": "The rate limit is 200 requests per minute.",
                                "edited_timestamp": edited_at.isoformat()})
    # a link preview unfurling updates the message without editing it: ignored
    env.send("MESSAGE_UPDATE", {**original, "embeds": [{"type": "link", "url": "https://x.org"}]})
    env.send("MESSAGE_DELETE", {"id": doomed["id"], "channel_id": THREAD, "guild_id": GUILD})
    env.wait_for(lambda: len(env.sink.events) == 4, what="the edit and the delete")
    env.settle()
    edit, delete = env.sink.events[2:]
    assert (edit.type, edit.external_id, edit.ts) == (
        "message.edited", f"{general}:{original['id']}", edited_at)
    assert (delete.type, delete.external_id) == ("message.deleted",
                                                 f"{general}:{THREAD}/{doomed['id']}")
    (left,) = env.messages(general)
    assert left.content == "The rate limit is 200 requests per minute."


def seed(env, channel: str = GENERAL) -> dict:
    """A short discussion; returns the message that states the rate limit."""
    env.post(channel, ALICE, "Morning! Quick sync on the public API before the launch.", at=DAY)
    limit = env.post(channel, BOB, "The rate limit is 100 requests per minute per token for now.",
                     at=DAY + timedelta(minutes=1))
    env.post(channel, ALICE, "Use pnpm for the dashboard repo, the lockfile is already there.",
             at=DAY + timedelta(minutes=3))
    env.wait_for(lambda: len(env.sink.events) >= 3, what="the seed conversation")
    env.settle()
    return limit


def test_a_mention_is_answered_in_reply_with_jump_urls_and_dates(env):
    limit = seed(env)
    question = env.post(GENERAL, BOB, f"{MENTION} what is the rate limit we decided on?",
                        mentions=[LURKER], at=NOW)
    (reply,) = env.wait_replies(1, GENERAL)
    assert str(reply.json["message_reference"]["message_id"]) == question["id"]
    assert reply.json["allowed_mentions"]["parse"] == []
    text = reply.json["content"]
    assert "100 requests per minute" in text
    assert f"https://discord.com/channels/{GUILD}/{GENERAL}/{limit['id']}" in text
    assert "2026-11-16" in text and "bob" in text
    assert not env.events_for(question["id"]), "a question to Lurker is not channel knowledge"


def test_a_discord_timestamp_is_a_date_to_recall(env):
    """`<t:…:D>` (what Discord's date picker writes; each reader sees their own zone) was stored
    as markup: no event date, and "when is the offsite?" had nothing to compute from."""
    env.post(GENERAL, ALICE, "The customer offsite is on <t:1765353600:D> in Denver, kickoff "
             "<t:1765357200:t>.", at=DAY)
    env.wait_for(lambda: len(env.sink.events) >= 1, what="the message")
    env.settle()
    [stored] = [m.content for m in env.messages(f"discord:{GUILD}:{GENERAL}")]
    assert stored == "The customer offsite is on 2025-12-10 in Denver, kickoff 09:00 UTC."
    env.post(GENERAL, BOB, f"{MENTION} when is the customer offsite?", mentions=[LURKER], at=NOW)
    (reply,) = env.wait_replies(1, GENERAL)
    assert reply.json["content"].startswith("10 December 2025"), reply.json["content"]


def test_a_message_is_dated_in_the_teams_time_zone(env):
    """Discord gives no one's time zone: "we shipped the billing migration tonight" at 18:30 on
    Monday in Seattle (02:30 UTC on Tuesday) was a Tuesday shipment, and "what did we ship on
    Monday?" found nothing. The config's time_zone dates it, and the question, in Seattle."""
    # as an operator writes it in the bot config (this test's other keys stay as they are)
    env.bot.config.zone = BotConfig.from_toml('time_zone = "America/Los_Angeles"').zone
    env.post(GENERAL, ALICE, "We shipped the billing migration tonight.",
             at=datetime(2026, 11, 17, 2, 30, tzinfo=timezone.utc))
    env.wait_for(lambda: len(env.sink.events) >= 1, what="the message")
    env.settle()
    [stored] = env.messages(f"discord:{GUILD}:{GENERAL}")
    assert stored.utc_offset_minutes == -480
    env.post(GENERAL, BOB, f"{MENTION} when did we ship the billing migration?",
             mentions=[LURKER], at=NOW)
    (reply,) = env.wait_replies(1, GENERAL)
    assert reply.json["content"].startswith("16 November 2026"), reply.json["content"]
    env.post(GENERAL, BOB, f"{MENTION} what did we ship on Monday?", mentions=[LURKER], at=NOW)
    replies = env.wait_replies(2, GENERAL)
    assert "billing migration" in replies[1].json["content"], replies[1].json["content"]


def test_a_first_person_question_is_answered_from_the_askers_own_words(env):
    """alice asks "have I ...?" about what bob's long write-ups fill the channel with: her own
    message (stored under the author her mention has) is quoted and linked; bob asking the same
    words is not answered with hers."""
    runbook = ("The refund service deploy builds the refund service image, rolls the refund "
               "service canary to 5 % of traffic, then promotes the deploy. ")
    for i in range(10):
        env.post(GENERAL, BOB, f"Deploy report {i}: " + runbook * 6, at=DAY + timedelta(minutes=i))
    hers = env.post(GENERAL, ALICE, "I've never deployed the refund service on my own, can you "
                    "walk me through it?", at=DAY + timedelta(minutes=20))
    env.wait_for(lambda: len(env.sink.events) >= 11, what="the channel's messages")
    env.settle()
    link = f"https://discord.com/channels/{GUILD}/{GENERAL}/{hers['id']}"
    env.post(GENERAL, ALICE, f"{MENTION} have I ever deployed the refund service myself?",
             mentions=[LURKER], at=NOW)
    (reply,) = env.wait_replies(1, GENERAL)
    assert "You said: " in reply.json["content"] and link in reply.json["content"]
    env.post(GENERAL, BOB, f"{MENTION} have I ever deployed the refund service myself?",
             mentions=[LURKER], at=NOW)
    replies = env.wait_replies(2, GENERAL)
    assert link not in replies[1].json["content"]


def test_a_standing_rule_is_cited_for_the_request_it_governs(env):
    """alice sets a rule once; bob's one-off advice about the login service's libraries fills
    the channel; a later question that shares no word with the rule gets a reply that says the
    rule and links alice's message."""
    rule = env.post(GENERAL, ALICE, "Always include version numbers when I ask about software "
                    "dependencies.", at=DAY)
    libs = ("Flask-Login", "bcrypt", "itsdangerous", "WTForms", "Jinja2", "PyJWT", "passlib")
    for i, lib in enumerate(libs):
        env.post(GENERAL, BOB, f"Ensure the login service {lib} library is installed before you "
                 f"run the tests, and use pip to pin the {lib} library in requirements.txt for "
                 f"the login service.", at=DAY + timedelta(minutes=1 + i))
    env.wait_for(lambda: len(env.sink.events) >= 1 + len(libs), what="the channel's messages")
    env.settle()
    env.post(GENERAL, BOB, f"{MENTION} what packages does the login service need?",
             mentions=[LURKER], at=NOW)
    (reply,) = env.wait_replies(1, GENERAL)
    content = reply.json["content"]
    assert "Standing rule: Always include version numbers" in content, content
    assert f"https://discord.com/channels/{GUILD}/{GENERAL}/{rule['id']}" in content, content


def test_a_question_in_a_thread_is_answered_in_the_thread(env):
    limit = env.post(THREAD, BOB, "The rate limit is 100 requests per minute per token.",
                     at=DAY)
    # asked at once, before the message above is known to be stored
    env.post(THREAD, ALICE, f"{MENTION} what is the rate limit?", mentions=[LURKER], at=NOW)
    (reply,) = env.wait_replies(1, THREAD)
    assert f"https://discord.com/channels/{GUILD}/{THREAD}/{limit['id']}" in reply.json["content"]


def test_a_dm_is_answered_from_the_profile_the_config_maps_dms_to(env):
    said = env.post(BACKEND, BOB, "The rate limit is 100 requests per minute per token.", at=DAY)
    env.wait_for(lambda: env.sink.events, what="the backend message")
    env.send("MESSAGE_CREATE", fd.message(DM, ALICE, "what is the rate limit?", at=NOW))
    (reply,) = env.wait_replies(1, DM)
    assert f"https://discord.com/channels/{GUILD}/{BACKEND}/{said['id']}" in reply.json["content"]
    assert len(env.sink.events) == 1, "DMs are never ingested"


def test_nothing_relevant_says_so_without_sources(env):
    seed(env)
    env.post(GENERAL, BOB, f"{MENTION} who won the chess tournament in 1972?", mentions=[LURKER])
    (reply,) = env.wait_replies(1, GENERAL)
    assert "https://discord.com/channels" not in reply.json["content"]
    from memory.synthesis import NO_ANSWER
    assert NO_ANSWER in reply.json["content"]


def test_slow_recall_shows_typing_first(env):
    seed(env)
    env.bot.ack_after = 0.0  # every recall counts as slow
    env.post(GENERAL, BOB, f"{MENTION} what is the rate limit?", mentions=[LURKER])
    env.wait_replies(1, GENERAL)
    paths = [r.path for r in env.fake.requests if r.method == "POST"]
    assert f"/channels/{GENERAL}/typing" in paths
    assert paths.index(f"/channels/{GENERAL}/typing") < paths.index(f"/channels/{GENERAL}/messages")


def general_channel() -> dict:
    return fd.text_channel(GENERAL, GUILD, "general")


def slash(env, invoker: dict, permissions: int, subcommand: str, **options) -> dict:
    kinds = {str: 3, int: 4}
    opts = [{"name": k, "type": kinds[type(v)], "value": v} for k, v in options.items()]
    env.fake.interaction_channel = GENERAL
    return env.send("INTERACTION_CREATE", fd.slash(GUILD, general_channel(), invoker,
                                                   permissions, subcommand, opts))


def followups(env) -> list[fd.Request]:
    return [r for r in env.fake.requests if r.method == "POST" and r.path.startswith("/webhooks/")]


def wait_followups(env, n: int) -> list[fd.Request]:
    env.wait_for(lambda: len(followups(env)) >= n, what=f"{n} follow-ups")
    env.settle()
    return followups(env)


def rate_limit_memory(env):
    (memory,) = [m for m in env.service.profile(f"discord:{GUILD}:{GENERAL}").list()
                 if "rate limit" in m.content]
    return memory


def test_slash_ask_defers_then_follows_up_with_sources(env):
    limit = seed(env)
    interaction = slash(env, BOB, BASIC, "ask", question="what is the rate limit?")
    (answer,) = wait_followups(env, 1)
    (callback,) = [r for r in env.fake.requests if r.path.endswith("/callback")]
    assert callback.path == f"/interactions/{interaction['id']}/{interaction['token']}/callback"
    assert callback.json["type"] == 5, "deferred: Discord shows 'thinking…' meanwhile"
    assert answer.path == f"/webhooks/{fd.APP_ID}/{interaction['token']}"
    assert f"https://discord.com/channels/{GUILD}/{GENERAL}/{limit['id']}" in \
        answer.json["content"]


def test_non_admins_are_refused_and_nothing_changes(env):
    seed(env)
    general = f"discord:{GUILD}:{GENERAL}"
    memory = rate_limit_memory(env)
    before = len(env.messages(general))
    slash(env, BOB, BASIC, "forget", what=memory.id)
    env.post(GENERAL, BOB, f"{MENTION} purge <@{ALICE['id']}>", mentions=[LURKER, ALICE])
    env.post(GENERAL, BOB, f"{MENTION} memories", mentions=[LURKER])
    (refused,) = wait_followups(env, 1)
    replies = env.wait_replies(3)
    assert all("only workspace admins" in r.json["content"] for r in replies)
    assert env.service.store.get_memories(general, [memory.id])[0].status == "active"
    assert len(env.messages(general)) == before
    audit = env.bot.audit.read()
    assert sorted((a["action"], a["outcome"], a["actor"]) for a in audit) == [
        ("forget", "refused", BOB["id"]), ("memories", "refused", BOB["id"]),
        ("purge", "refused", BOB["id"])]


def test_guild_admins_forget_by_id(env):
    seed(env)
    memory = rate_limit_memory(env)
    slash(env, ALICE, BASIC | MANAGE_GUILD, "forget", what=memory.id)
    (reply,) = wait_followups(env, 1)
    assert reply.json["content"].startswith("Forgotten")
    general = f"discord:{GUILD}:{GENERAL}"
    assert env.service.store.get_memories(general, [memory.id])[0].status == "forgotten"
    (entry,) = env.bot.audit.read()
    assert (entry["action"], entry["outcome"], entry["actor"], entry["place"]) == (
        "forget", "done", ALICE["id"], general)


def test_forget_by_text_is_confirmed_by_a_reaction(env):
    seed(env)
    memory = rate_limit_memory(env)
    # alice is an admin through her role's Manage Server permission (computed from the guild)
    env.post(GENERAL, ALICE, f"{MENTION} forget rate limit", mentions=[LURKER], roles=[MODS])
    (question,) = env.wait_replies(1, GENERAL)
    assert memory.id[:12] in question.json["content"]
    asked = env.fake.history[GENERAL][-1]
    env.wait_for(lambda: [r for r in env.fake.requests if "/reactions/" in r.path],
                      what="the choice reactions")
    reacted = [r.path for r in env.fake.requests if "/reactions/" in r.path]
    assert all(f"/messages/{asked['id']}/reactions/" in p for p in reacted)
    # bob (no admin) reacting changes nothing; alice's 1️⃣ forgets it
    for who in (BOB, ALICE):
        env.send("MESSAGE_REACTION_ADD", {
            "user_id": who["id"], "channel_id": GENERAL, "message_id": asked["id"],
            "guild_id": GUILD, "emoji": {"id": None, "name": "1\N{COMBINING ENCLOSING KEYCAP}"},
            "member": fd.member([MODS] if who is ALICE else [], user=who), "type": 0,
            "burst": False})
    replies = env.wait_replies(3, GENERAL)
    assert "only workspace admins" in replies[1].json["content"]
    assert replies[2].json["content"].startswith("Forgotten (1)")
    general = f"discord:{GUILD}:{GENERAL}"
    assert env.service.store.get_memories(general, [memory.id])[0].status == "forgotten"


def test_forget_by_text_is_confirmed_by_a_reply_and_can_be_cancelled(env):
    seed(env)
    memory = rate_limit_memory(env)
    env.post(GENERAL, CARLA, f"{MENTION} forget rate limit", mentions=[LURKER])
    env.wait_replies(1, GENERAL)
    asked = env.fake.history[GENERAL][-1]
    env.post(GENERAL, CARLA, "cancel", reference=asked["id"])
    replies = env.wait_replies(2, GENERAL)
    assert replies[1].json["content"].startswith("Cancelled")
    general = f"discord:{GUILD}:{GENERAL}"
    assert env.service.store.get_memories(general, [memory.id])[0].status == "active"
    assert [a["outcome"] for a in env.bot.audit.read()] == ["cancelled"]
    assert not env.events_for(asked["id"])


def exported_by_dm(env, who: dict) -> dict[str, bytes]:
    """The file the bot sent `who` in a DM (issue 12: an export is never posted in the
    channel)."""
    (dm,) = env.wait_for(lambda: env.fake.dms(who["id"]), what="the export DM")
    env.settle()
    return dm.files


def test_config_admins_list_memories_and_export_a_jsonl_file_by_dm(env):
    seed(env)
    slash(env, CARLA, BASIC, "memories")
    wait_followups(env, 1)
    slash(env, CARLA, BASIC, "export")
    listed, exported = wait_followups(env, 2)
    assert "Memories of discord:" in listed.json["content"]
    assert "rate limit" in listed.json["content"]
    assert not exported.files, "the export is not posted in the channel"
    assert "direct message" in exported.json["content"]
    ((name, data),) = exported_by_dm(env, CARLA).items()
    assert name == f"lurker-discord_{GUILD}_{GENERAL}-2026-11-18.jsonl"
    records = [json.loads(line) for line in data.decode().splitlines()]
    assert len(records) > 3


def test_admins_purge_a_user_picked_in_the_slash_command(env):
    seed(env)
    general = f"discord:{GUILD}:{GENERAL}"
    interaction = fd.slash(GUILD, general_channel(), ALICE, BASIC | ADMINISTRATOR, "purge",
                           [{"name": "user", "type": 6, "value": BOB["id"]}],
                           resolved={"users": {BOB["id"]: BOB}})
    env.fake.interaction_channel = GENERAL
    env.send("INTERACTION_CREATE", interaction)
    (reply,) = wait_followups(env, 1)
    assert reply.json["content"].startswith("Purged")
    assert [m.author for m in env.messages(general)] == [f"alice ({ALICE['id']})"] * 2
    (entry,) = env.bot.audit.read()
    assert (entry["action"], entry["detail"]["user"]) == ("purge", BOB["id"])


def test_the_guild_owner_is_an_admin_by_mention(env):
    seed(env)
    env.post(GENERAL, OWNER, f"{MENTION} memories", mentions=[LURKER])
    (reply,) = env.wait_replies(1, GENERAL)
    assert reply.json["content"].startswith(f"Memories of discord:{GUILD}:{GENERAL}")


def old_history(channel: str, n: int, *, lurker_every: int = 0) -> list[dict]:
    """`n` messages a minute apart from 2026-11-01, every `lurker_every`-th one Lurker's own."""
    start = datetime(2026, 11, 1, 8, 0, tzinfo=timezone.utc)
    out = []
    for i in range(n):
        author = LURKER if lurker_every and i % lurker_every == lurker_every - 1 else \
            (ALICE, BOB)[i % 2]
        out.append(fd.message(channel, author, f"note {i}: build step {i} uses cache key k{i}",
                              guild_id=GUILD, at=start + timedelta(minutes=i)))
    return out


def test_backfill_pages_history_in_order_through_a_rate_limit_and_twice_adds_nothing(env):
    quiet = f"discord:{GUILD}:{QUIET}"
    env.fake.history[QUIET] = old_history(QUIET, 230, lurker_every=10)
    env.fake.rate_limit_next.add(f"/channels/{QUIET}/messages")
    channel = env.client.get_channel(int(QUIET))
    assert env.loop.run(env.client.backfill(channel), timeout=240) == 207
    pages = [r for r in env.fake.requests if r.path == f"/channels/{QUIET}/messages"]
    assert len(pages) >= 4, "three pages of at most 100, one of them asked twice after the 429"
    stored = env.messages(quiet)
    assert len(stored) == 207
    assert [m.content for m in sorted(stored, key=lambda m: m.ts)][:2] == [
        "note 0: build step 0 uses cache key k0", "note 1: build step 1 uses cache key k1"]
    assert all("lurker" not in (m.author or "") for m in stored)
    assert env.loop.run(env.client.backfill(channel), timeout=240) == 207
    assert len(env.messages(quiet)) == 207, "a second run stores no duplicates"


def test_joining_a_guild_and_a_new_channel_backfill_their_history(env):
    other, chan = "710000000000000001", "710000000000000011"
    joined = fd.guild(other, "beta", owner_id=OWNER["id"],
                      channels=[fd.text_channel(chan, other, "general")],
                      roles=[fd.role(other, "@everyone", BASIC)],
                      members=[fd.member(user=LURKER)])
    del joined["unavailable"]  # a join, not a guild coming back after an outage
    env.fake.guilds.append(joined)
    env.fake.history[chan] = [fd.message(chan, BOB, "Deploys freeze on Fridays.",
                                         guild_id=other, at=DAY)]
    env.send("GUILD_CREATE", joined)
    env.wait_for(lambda: env.messages(f"discord:{other}:{chan}"), what="the joined guild's history")
    fresh = "700000000000000015"
    env.fake.history[fresh] = [fd.message(fresh, ALICE, "Standups move to 10:00.", guild_id=GUILD,
                                          at=DAY)]
    env.send("CHANNEL_CREATE", fd.text_channel(fresh, GUILD, "standup", 4))
    env.wait_for(lambda: env.messages(f"discord:{GUILD}:{fresh}"), what="the new channel's history")


def test_lurker_discord_backfill_command(env, tmp_path, monkeypatch, capsys):
    from memory.config import Settings
    from memory.service import MemoryService
    from memory.surfaces.cli import main

    env.fake.history[QUIET] = old_history(QUIET, 120)
    env.fake.history[GENERAL] = old_history(GENERAL, 3)
    store = f"sqlite:///{tmp_path / 'cli.sqlite3'}"
    monkeypatch.setenv("DISCORD_BOT_TOKEN", "test-token")
    monkeypatch.setenv("LURKER_BOT_CONFIG", str(tmp_path / "bot.toml"))
    (tmp_path / "bot.toml").write_text(f'audit_log = "{tmp_path / "audit.jsonl"}"\n' + CONFIG)
    for _ in range(2):
        assert main(["--store", store, "discord", "backfill", "--guild", GUILD]) == 0
    second = capsys.readouterr().err.split("backfilled")[-2]  # the second run's channel reports
    assert f"discord:{GUILD}:{QUIET} -> discord:{GUILD}:{QUIET}: 120 fetched, 0 new, 120 already " \
           f"stored" in second
    with MemoryService.from_settings(Settings(store=store, anthropic_api_key=None)) as service:
        assert len(list(service.store.iter_messages(f"discord:{GUILD}:{QUIET}"))) == 120
        assert len(list(service.store.iter_messages(f"discord:{GUILD}:{GENERAL}"))) == 3


def test_lurker_discord_without_a_token_says_how_to_get_one(monkeypatch, capsys):
    from memory.surfaces.cli import main

    monkeypatch.delenv("DISCORD_BOT_TOKEN", raising=False)
    assert main(["discord"]) == 2
    assert "DISCORD_BOT_TOKEN" in capsys.readouterr().err


# Forget means the bot stops saying it (issue 12): ask, forget, ask again.
# --- Discord --------------------------------------------------------------------------------------
def test_discord_forget_by_reaction_then_the_answer_no_longer_says_it(env):
    env.post(GENERAL, BOB, STATEMENT, at=DAY)
    env.post(GENERAL, ALICE, "Deploys are on Tuesdays after standup.",
             at=DAY + timedelta(minutes=1))
    env.wait_for(lambda: len(env.sink.events) >= 2, what="the statements")
    env.settle()
    env.post(GENERAL, BOB, f"{MENTION} {QUESTION}", mentions=[LURKER])
    (answer,) = env.wait_replies(1, GENERAL)
    assert HOST in answer.json["content"]
    env.post(GENERAL, ALICE, f"{MENTION} forget staging database host", mentions=[LURKER],
             roles=[MODS])
    env.wait_replies(2, GENERAL)
    asked = env.fake.history[GENERAL][-1]
    env.wait_for(lambda: [r for r in env.fake.requests if "/reactions/" in r.path],
                 what="the choice reactions")
    env.send("MESSAGE_REACTION_ADD", {
        "user_id": ALICE["id"], "channel_id": GENERAL, "message_id": asked["id"],
        "guild_id": GUILD, "emoji": {"id": None, "name": "1\N{COMBINING ENCLOSING KEYCAP}"},
        "member": fd.member([MODS], user=ALICE), "type": 0, "burst": False})
    replies = env.wait_replies(3, GENERAL)
    assert replies[2].json["content"].startswith("Forgotten (1)")
    env.post(GENERAL, BOB, f"{MENTION} {QUESTION}", mentions=[LURKER])
    env.post(GENERAL, BOB, f"{MENTION} db-stage-7", mentions=[LURKER])
    replies = env.wait_replies(5, GENERAL)
    assert not any(HOST in r.json["content"] for r in replies[2:])


def test_discord_a_deleted_message_leaves_no_text_in_memories_or_the_export(env):
    doomed = env.post(GENERAL, BOB, STATEMENT, at=DAY)
    env.post(GENERAL, ALICE, "Deploys are on Tuesdays after standup.",
             at=DAY + timedelta(minutes=1))
    env.wait_for(lambda: len(env.sink.events) >= 2, what="the statements")
    env.send("MESSAGE_DELETE", {"id": doomed["id"], "channel_id": GENERAL, "guild_id": GUILD})
    env.wait_for(lambda: len(env.sink.events) >= 3, what="the delete")
    env.settle()
    general = f"discord:{GUILD}:{GENERAL}"
    profile = env.service.profile(general)
    assert not any(HOST in m.model_dump_json() for m in profile.list(include_inactive=True))
    slash(env, CARLA, BASIC, "export")
    wait_followups(env, 1)
    ((_, data),) = exported_by_dm(env, CARLA).items()
    assert HOST.encode() not in data and b"Tuesdays" in data


# Discord export by DM, and a mention-driven export whose DM is refused (issue 12)
def test_an_export_asked_by_mention_goes_to_the_admins_dm_not_the_channel(env):
    seed(env)
    env.post(GENERAL, CARLA, f"{MENTION} export", mentions=[LURKER])
    (note,) = env.wait_replies(1, GENERAL)
    assert "direct message" in note.json["content"]
    assert not note.files, "nothing of the profile is posted in the channel"
    ((name, data),) = exported_by_dm(env, CARLA).items()
    assert name.endswith(".jsonl") and b"rate limit" in data
    dm = env.fake.dms(CARLA["id"])[0]
    assert dm.json["allowed_mentions"]["parse"] == []
    opened = [r for r in env.fake.requests if r.path == "/users/@me/channels"]
    assert [str(r.json["recipient_id"]) for r in opened] == [CARLA["id"]]


def test_an_export_whose_dm_is_refused_is_not_posted_in_the_channel_either(env):
    seed(env)
    env.fake.dm_refused.add(CARLA["id"])
    env.post(GENERAL, CARLA, f"{MENTION} export", mentions=[LURKER])
    env.wait_for(lambda: len(env.replies(GENERAL)) >= 1 and env.fake.dm_channels,
                 what="the refusal note")
    env.settle()
    (note,) = env.replies(GENERAL)
    assert "could not send it to you" in note.json["content"] and not note.files
    dm = env.fake.dm_channels[CARLA["id"]]
    assert [r.path for r in env.fake.requests if r.files] == [f"/channels/{dm}/messages"], \
        "the file was only offered to the (refused) DM"


# Answers cannot ping (issue 12): allowed_mentions none everywhere, and no live mention in the text
ZWSP = "\N{ZERO WIDTH SPACE}"
LIVE_MENTION = re.compile(r"<@[!&]?\d+>|@(everyone|here)\b")


def assert_unpinging(request: fd.Request) -> None:
    mentions = request.json["allowed_mentions"]
    assert mentions["parse"] == [] and not mentions.get("users") and not mentions.get("roles")
    assert not mentions.get("replied_user")
    assert not LIVE_MENTION.search(request.json["content"]), request.json["content"]


def test_the_client_defaults_to_no_mentions(env):
    assert env.client.allowed_mentions.to_dict() == {"parse": []}


def test_a_stored_everyone_and_role_mention_asked_back_pings_no_one(env):
    general = f"discord:{GUILD}:{GENERAL}"
    env.post(GENERAL, BOB, f"@everyone <@&{MODS}> heads up: {STATEMENT}", at=DAY)
    env.wait_for(lambda: env.messages(general), what="the message")
    # a message stored raw (by an older Lurker, or through the API): markup must not go out live
    env.service.profile(general).ingest(
        [{"role": "user", "author": f"bob ({BOB['id']})", "ts": DAY + timedelta(minutes=1),
          "content": f"@here <@&{MODS}> <@{ALICE['id']}> the staging database password rotates "
                     "on Mondays."}], session_id=f"{GENERAL}:2026-11-16")
    env.post(GENERAL, BOB, f"{MENTION} {QUESTION}", mentions=[LURKER])
    env.post(GENERAL, BOB, f"{MENTION} when does the staging database password rotate?",
             mentions=[LURKER])
    replies = env.wait_replies(2, GENERAL)
    assert HOST in replies[0].json["content"] and "Mondays" in replies[1].json["content"]
    for reply in replies:
        assert_unpinging(reply)
    assert "@mods" in replies[0].json["content"], "a role mention reads as the role's name"
    assert f"@{ZWSP}here" in replies[1].json["content"] and "@alice" in replies[1].json["content"]
    slash(env, BOB, BASIC, "ask", question=QUESTION)
    (followup,) = wait_followups(env, 1)
    assert HOST in followup.json["content"]
    assert_unpinging(followup)


# Answers show display names, never raw ids (issue 12)
def test_answers_name_members_by_their_display_names_never_by_id(env):
    general = f"discord:{GUILD}:{GENERAL}"
    env.send("MESSAGE_CREATE", fd.message(
        GENERAL, BOB, f"<@{ALICE['id']}> owns the staging database host {HOST} now.",
        guild_id=GUILD, at=DAY, author_member=fd.member(nick="Robert B."),
        mentions=[{**ALICE, "member": fd.member(nick="Alice L.")}]))
    env.wait_for(lambda: env.messages(general), what="the message")
    (stored,) = env.messages(general)
    assert stored.content.startswith("@Alice L. owns"), "stored as people read it"
    env.post(GENERAL, CARLA, f"{MENTION} who owns the staging database host?", mentions=[LURKER])
    (reply,) = env.wait_replies(1, GENERAL)
    text = reply.json["content"]
    assert "@Alice L." in text and "Robert B." in text
    assert ALICE["id"] not in text and BOB["id"] not in text


# discord.py floor, choice emoji, edits that add a mention (issue 12)
def test_the_declared_discord_py_floor_has_what_the_adapter_uses():
    import tomllib
    from pathlib import Path

    project = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text())
    (spec,) = [d for d in project["project"]["dependencies"] if d.startswith("discord.py")]
    floor = tuple(int(p) for p in re.search(r">=\s*([\d.]+)", spec).group(1).split("."))
    assert floor >= (2, 5), "on_raw_message_edit reads payload.message, added in discord.py 2.5"
    installed = tuple(int(p) for p in discord.__version__.split(".")[:2])
    assert installed >= floor[:2]
    assert "message" in discord.RawMessageUpdateEvent.__slots__


def test_a_keycap_reaction_with_the_variation_selector_confirms_a_forget(env):
    seed(env)
    memory = rate_limit_memory(env)
    env.post(GENERAL, ALICE, f"{MENTION} forget rate limit", mentions=[LURKER], roles=[MODS])
    env.wait_replies(1, GENERAL)
    asked = env.fake.history[GENERAL][-1]
    env.wait_for(lambda: [r for r in env.fake.requests if "/reactions/" in r.path],
                 what="the choice reactions")
    added = [r.path for r in env.fake.requests if "/reactions/" in r.path]
    assert "/1\N{VARIATION SELECTOR-16}\N{COMBINING ENCLOSING KEYCAP}/" in added[0], \
        "the bot adds the keycap as clients send it"
    env.send("MESSAGE_REACTION_ADD", {   # 1️⃣ as a real client sends it: 1 U+FE0F U+20E3
        "user_id": ALICE["id"], "channel_id": GENERAL, "message_id": asked["id"],
        "guild_id": GUILD, "type": 0, "burst": False, "member": fd.member([MODS], user=ALICE),
        "emoji": {"id": None, "name": "1\N{VARIATION SELECTOR-16}\N{COMBINING ENCLOSING KEYCAP}"}})
    replies = env.wait_replies(2, GENERAL)
    assert replies[1].json["content"].startswith("Forgotten (1)")
    general = f"discord:{GUILD}:{GENERAL}"
    assert env.service.store.get_memories(general, [memory.id])[0].status == "forgotten"


def test_an_edit_that_adds_a_mention_is_answered_once(env):
    seed(env)
    asked = env.post(GENERAL, BOB, "what is the rate limit again?", at=NOW)
    env.wait_for(lambda: env.events_for(asked["id"]), what="the plain message")
    assert env.replies(GENERAL) == [], "no mention, no answer"
    edited = {**asked, "content": f"{MENTION} what is the rate limit again?",
              "mentions": [LURKER], "edited_timestamp": (NOW + timedelta(minutes=1)).isoformat()}
    env.send("MESSAGE_UPDATE", edited)
    (reply,) = env.wait_replies(1, GENERAL)
    assert "100 requests per minute" in reply.json["content"]
    assert str(reply.json["message_reference"]["message_id"]) == asked["id"]
    assert_unpinging(reply)
    # fixing a typo in it later, or the gateway sending the update again: not a second answer
    env.send("MESSAGE_UPDATE", {**edited, "content": f"{MENTION} what is the rate limit?",
                                "edited_timestamp": (NOW + timedelta(minutes=2)).isoformat()})
    env.send("MESSAGE_UPDATE", edited)
    last = env.post(GENERAL, BOB, "thanks", at=NOW + timedelta(minutes=3))
    env.wait_for(lambda: env.events_for(last["id"]), what="a later message")
    env.settle()
    assert len(env.replies(GENERAL)) == 1


# A reply is read with the message it answers (issue 12)
ON_CALL = "Who takes the December on-call?"


def test_a_thread_reply_is_read_with_the_message_the_thread_started_from(env):
    general = f"discord:{GUILD}:{GENERAL}"
    # THREAD was started from this message: a thread started from a message has its id
    env.post(GENERAL, ALICE, ON_CALL, at=DAY, message_id=THREAD)
    env.post(GENERAL, CARLA, "Can someone restart the staging runner?",
             at=DAY + timedelta(minutes=2))
    env.post(GENERAL, CARLA, "Who reviews the billing webhooks PR?",
             at=DAY + timedelta(minutes=3))
    env.wait_for(lambda: len(env.messages(general)) == 3, what="the channel messages")
    reply = env.post(THREAD, BOB, "I'll take it for the first two weeks",
                     at=DAY + timedelta(minutes=30))
    env.wait_for(lambda: env.events_for(reply["id"]), what="the thread reply")
    env.settle()
    (event,) = env.events_for(reply["id"])
    assert event.reply_to == f"{general}:{THREAD}"
    stored = env.service.profile(general).messages_by_external_id(
        [f"{general}:{THREAD}", f"{general}:{THREAD}/{reply['id']}"])
    (memory,) = [m for m in env.service.profile(general).list() if "first two weeks" in m.content]
    assert set(memory.source_message_ids) == {m.id for m in stored.values()}
    assert ON_CALL in memory.questions
    env.post(GENERAL, CARLA, f"{MENTION} who takes the December on-call?", mentions=[LURKER])
    (answer,) = env.wait_replies(1, GENERAL)
    assert "first two weeks" in answer.json["content"]


def test_a_discord_reply_is_read_with_the_message_it_points_at(env):
    general = f"discord:{GUILD}:{GENERAL}"
    asked = env.post(GENERAL, ALICE, ON_CALL, at=DAY)
    env.post(GENERAL, CARLA, "Who reviews the billing webhooks PR?", at=DAY + timedelta(minutes=2))
    reply = env.post(GENERAL, BOB, "I'll take it for the first two weeks", reference=asked["id"],
                     at=DAY + timedelta(minutes=3))
    env.wait_for(lambda: env.events_for(reply["id"]), what="the reply")
    env.settle()
    (event,) = env.events_for(reply["id"])
    assert event.reply_to == f"{general}:{asked['id']}"
    (memory,) = [m for m in env.service.profile(general).list() if "first two weeks" in m.content]
    assert ON_CALL in memory.questions and len(memory.source_message_ids) == 2


def test_long_display_names_never_push_a_piece_over_discords_limit(env):
    from bot.contract import Reply
    from bot.discord_app import MAX_CHARS, DiscordConversation

    env.fake.member_nicks[ALICE["id"]] = "A" * 32  # the longest nick Discord allows
    # a Discord-sized answer full of mentions that are 21 characters as markup, 33 as names
    text = "\n".join(f"<@{ALICE['id']}> @everyone said point {i}" for i in range(120))
    channel = env.client.get_channel(int(GENERAL))
    conv = DiscordConversation(env.client, channel)
    env.loop.run(conv._send(Reply(text)))
    posts = env.replies(GENERAL)
    assert len(posts) >= 2 and all(len(p.json["content"]) <= MAX_CHARS for p in posts)
    assert all(ALICE["id"] not in p.json["content"] for p in posts)
    for post in posts:
        assert_unpinging(post)


def test_a_dm_is_answered_only_from_channels_the_member_can_read(env):
    """QUIET becomes private to the mods role: alice (a mod) may read it, bob may not."""
    quiet = {**fd.text_channel(QUIET, GUILD, "quiet", 3), "permission_overwrites": [
        {"id": GUILD, "type": 0, "allow": "0", "deny": str(1 << 10)},
        {"id": MODS, "type": 0, "allow": str(1 << 10), "deny": "0"}]}
    env.send("CHANNEL_UPDATE", quiet)
    env.fake.member_roles[(GUILD, ALICE["id"])] = [MODS]
    env.post(QUIET, ALICE, "The acquisition of Initech closes on 4 December; keep it quiet.",
             at=DAY, roles=[MODS])
    env.post(BACKEND, ALICE, "The rate limit is 100 requests per minute per token.", at=DAY)
    env.wait_for(lambda: len(env.sink.events) == 2, what="both messages")
    bob_dm, alice_dm = "700000000000000032", "700000000000000033"
    env.send("MESSAGE_CREATE", fd.message(bob_dm, BOB, "when does the Initech acquisition "
                                          "close?", at=NOW))
    (secret,) = env.wait_replies(1, bob_dm)
    assert "Initech" not in secret.json["content"] and QUIET not in secret.json["content"]
    env.send("MESSAGE_CREATE", fd.message(bob_dm, BOB, "what is the rate limit?", at=NOW))
    (_, rate) = env.wait_replies(2, bob_dm)
    assert "100 requests" in rate.json["content"]
    env.send("MESSAGE_CREATE", fd.message(alice_dm, ALICE, "when does the Initech acquisition "
                                          "close?", at=NOW))
    (told,) = env.wait_replies(1, alice_dm)
    assert "Initech" in told.json["content"]


def test_a_replayed_mention_is_answered_once(env):
    """A gateway resume may deliver a MESSAGE_CREATE again: one answer (the bot state keeps
    the message ids, also across a restart)."""
    env.post(GENERAL, BOB, "The rate limit is 100 requests per minute per token.", at=DAY)
    asked = env.post(GENERAL, ALICE, f"{MENTION} what is the rate limit?", mentions=[LURKER],
                     at=NOW)
    env.wait_replies(1, GENERAL)
    for _ in range(2):  # the same message, delivered again
        env.post(GENERAL, ALICE, f"{MENTION} what is the rate limit?", mentions=[LURKER],
                 at=NOW, message_id=asked["id"])
    env.post(GENERAL, ALICE, f"{MENTION} and the rate limit again?", mentions=[LURKER], at=NOW)
    env.wait_replies(2, GENERAL)
    env.loop.run(asyncio.sleep(1.5))
    env.settle()
    assert len(env.replies(GENERAL)) == 2


def test_what_a_mentioned_member_said_is_answered_with_their_words(env):
    """"what did <@bob> say?" asks about bob: the question's mention is read as people read it
    (as stored messages are), and bob's words, which share none of the question's, are found by
    his own messages."""
    env.post(GENERAL, BOB, "shipped webhooks v2.3 to prod, p99 budget is 250ms", at=DAY)
    env.post(GENERAL, ALICE, "Proposal: raise the rate limit to 500 per minute",
             at=DAY + timedelta(minutes=5))
    env.wait_for(lambda: len(env.sink.events) >= 2, what="the channel's messages")
    env.settle()
    env.post(GENERAL, CARLA, f"{MENTION} what did <@{BOB['id']}> say?", mentions=[LURKER, BOB],
             at=NOW)
    (reply,) = env.wait_replies(1, GENERAL)
    text = reply.json["content"]
    assert text.startswith("shipped webhooks v2.3 to prod"), text
    assert "rate limit" not in text.split("\n")[0], text


def test_who_is_blocked_over_discord_is_this_channels_standup(env):
    """"@lurker who is blocked?" in #general after a standup there: bob's blocker, not the one
    cleared since nor #random's, each led by who said it, and nobody pinged."""
    env.post(GENERAL, BOB, "Yesterday: finished the invoice renderer. Today: start the Stripe "
             "tax integration. Blockers: need API keys for the Stripe test account", at=DAY)
    env.post(GENERAL, ALICE, "Today: SSO dashboards. Blockers: waiting on Okta admin access "
             "from IT", at=DAY + timedelta(minutes=2))
    env.post(RANDOM, CARLA, "Blockers: the payroll export is waiting on legal",
             at=DAY + timedelta(minutes=3))
    env.post(GENERAL, ALICE, f"Okta admin access finally came through, thanks <@{CARLA['id']}>",
             at=DAY + timedelta(days=1))
    env.wait_for(lambda: len(env.sink.events) >= 4, what="the standup")
    env.settle()
    env.post(GENERAL, CARLA, f"{MENTION} who is blocked?", mentions=[LURKER], at=NOW)
    (reply,) = env.wait_replies(1, GENERAL)
    text = reply.json["content"]
    now_blocked, _, unblocked = text.partition("Unblocked:")
    assert now_blocked.startswith("Blocked now:\n- bob: Blockers: need API keys"), text
    assert "Okta" not in now_blocked and "alice: Blockers: waiting on Okta" in unblocked, text
    assert "payroll" not in text and f"<@{CARLA['id']}>" not in text, text
    assert reply.json.get("allowed_mentions", {}).get("parse") == [], reply.json
    # bob has not posted today: his last standup's own day leads, not a line about Stripe
    # taken for someone else's words (a product named in it was read as another person)
    env.post(GENERAL, CARLA, f"{MENTION} what is bob doing today?", mentions=[LURKER],
             at=NOW + timedelta(minutes=1))
    text = env.wait_replies(2, GENERAL)[-1].json["content"]
    assert text.startswith("Nothing from today yet; the latest: Today [2026-11-16]: start the "
                           "Stripe tax integration"), text


def test_passwords_typed_on_other_keyboards_over_discord_are_never_stored_or_posted(env, tmp_path):
    """27 Nov, from outside, through the real discord.py client: a password typed in fullwidth
    letters (a CJK keyboard's), one split by a zero-width space, and a word split by a soft
    hyphen. Asked for the password, the bot posts none of it and the store's file holds none of
    its bytes; the split word is found by its plain spelling."""
    general = f"discord:{GUILD}:{GENERAL}"
    env.post(GENERAL, BOB, "ＰＡＳＳＷＯＲＤ： Ｔｒ０ｕｂ４ｄｏｒ＆３ for the ｓｔａｇｉｎｇ box", at=DAY)
    env.post(GENERAL, BOB, "prod box password: Sn0w\u200bfall;42 (don't ask)",
             at=DAY + timedelta(minutes=1))
    env.post(GENERAL, BOB, "Re\u200bdis max\u00admemory is 4gb now, bumped from 2gb.",
             at=DAY + timedelta(minutes=2))
    env.wait_for(lambda: len(env.messages(general)) == 3, what="the three messages")
    env.post(GENERAL, BOB, f"{MENTION} what's the staging password?", mentions=[LURKER])
    env.post(GENERAL, BOB, f"{MENTION} what is the redis maxmemory?", mentions=[LURKER])
    replies = env.wait_replies(2, GENERAL)
    said = " ".join(r.json["content"] for r in replies)
    assert "4gb" in replies[1].json["content"], said
    for reply in replies:
        assert_unpinging(reply)
    stored = b"".join(p.read_bytes() for p in tmp_path.glob("discord.sqlite3*"))
    for secret in ("Ｔｒ０ｕｂ４ｄｏｒ", "Tr0ub4dor", "Sn0w\u200bfall", "Sn0wfall"):
        assert secret not in said and secret.encode() not in stored, secret


def test_retro_notes_in_discord_markdown_keep_every_action_item(env):
    """27 Nov, from outside, through the real discord.py client: retro notes in Discord's
    markdown (bold headings, "-" and "•" bullets, a @mention in an item). Asked "what is lena
    supposed to do?" and "what didn't go well?", the bot answers from the note's own lists;
    read line by line, her item and both of what went wrong were dropped by the bound on
    memories per message."""
    general = f"discord:{GUILD}:{GENERAL}"
    env.post(GENERAL, BOB, "**Retro notes (sprint 47):**\n**Went well:**\n- webhooks v2 shipped "
             "on time\n- on-call was quiet\n**Didn't go well:**\n• flaky e2e tests blocked 3 "
             "deploys\n• staging DB ran out of disk twice\n**Action items:**\n- tomas: "
             "quarantine the flaky e2e tests\n- lena: add disk alerts for staging DB\n- maya: "
             "write the runbook for webhook retries\n- raj: upgrade the CI runners to 16 GB",
             at=DAY)
    env.wait_for(lambda: len(env.messages(general)) == 1, what="the retro notes")
    env.post(GENERAL, BOB, f"{MENTION} what is lena supposed to do?", mentions=[LURKER])
    env.post(GENERAL, BOB, f"{MENTION} what didn't go well in the retro?", mentions=[LURKER])
    replies = env.wait_replies(2, GENERAL)
    lena, wrong = (r.json["content"] for r in replies)
    assert "lena: add disk alerts for staging DB" in lena, lena
    assert "flaky e2e tests blocked 3 deploys; staging DB ran out of disk twice" in wrong, wrong
    for reply in replies:
        assert_unpinging(reply)


def test_a_correction_by_reply_and_a_quote_over_discord(env):
    """27 Nov, from outside, through the real discord.py client: "actually it's 50 MB since the
    4.1 release" as a Discord reply to "FYI the max upload size on the API is 25 MB.", and a
    reply that quotes a proposal ("> …") to turn it down. Asked "what is the max upload size?"
    the bot said 25 MB; asked "should we enable new_checkout for everyone?" it answered with the
    quoted proposal as the replier's own."""
    general = f"discord:{GUILD}:{GENERAL}"
    fyi = env.post(GENERAL, ALICE, "FYI the max upload size on the API is 25 MB.", at=DAY)
    env.post(GENERAL, BOB, "actually it's 50 MB since the 4.1 release, I bumped it on Monday",
             reference=fyi["id"], at=DAY + timedelta(minutes=2))
    env.post(GENERAL, CARLA, "> we should enable the new_checkout flag for everyone\nNo, we "
             "agreed to keep new_checkout at 10% until the 500s are understood.",
             at=DAY + timedelta(minutes=3))
    env.wait_for(lambda: len(env.messages(general)) == 3, what="the three messages")
    env.post(GENERAL, BOB, f"{MENTION} what is the max upload size?", mentions=[LURKER])
    env.post(GENERAL, BOB, f"{MENTION} should we enable new_checkout for everyone?",
             mentions=[LURKER])
    replies = env.wait_replies(2, GENERAL)
    size, flag = (r.json["content"].split("\n")[0] for r in replies)
    assert size.startswith("Latest: Correction: actually it's 50 MB since the 4.1 release"), size
    assert flag.startswith("No, we agreed to keep new_checkout at 10%"), flag
    for reply in replies:
        assert_unpinging(reply)


def test_a_bot_s_embeds_and_a_forward_over_discord_are_read_and_answered(env, tmp_path):
    """27 Nov, from outside, through the real discord.py client: an allow-listed CI bot posts
    its deploy as a rich embed with an empty content and edits the embed when the deploy
    succeeds; a member forwards a message from another server (`message_snapshots`); a link's
    preview embed unfurls. Lurker read only `content`: nothing of the deploy was stored, "what
    version of checkout-api is in production?" was declined."""
    general = f"discord:{GUILD}:{GENERAL}"

    def deploy(state: str, version: str, where: str) -> list[dict]:
        return [{"type": "rich", "title": f"Deploy {state}",
                 "description": f"checkout-api to {where}",
                 "fields": [{"name": "Version", "value": version, "inline": True},
                            {"name": "Token", "value": "ghp_Q8bW2rT5yV9nM3kL7pX1cZ4hJ6gF0dS8aE2u",
                             "inline": True}],
                 "footer": {"text": "GitHub Actions"}}]

    running = fd.message(GENERAL, REVIEW_BOT, "", guild_id=GUILD, at=DAY,
                         author_member=fd.member())
    running["embeds"] = deploy("in progress", "v4.2.0", "production")
    env.send("MESSAGE_CREATE", running)
    staging = fd.message(GENERAL, REVIEW_BOT, "", guild_id=GUILD,
                         at=DAY + timedelta(minutes=30), author_member=fd.member())
    staging["embeds"] = deploy("succeeded", "v1.9.3", "staging")
    env.send("MESSAGE_CREATE", staging)
    forward = fd.message(GENERAL, BOB, "", guild_id=GUILD, at=DAY + timedelta(minutes=40),
                         author_member=fd.member())
    forward["message_reference"] = {"type": 1, "message_id": "700000000000000099",
                                    "channel_id": "700000000000000098"}
    forward["message_snapshots"] = [{"message": {
        "type": 0, "content": "The Postgres 16 upgrade is on Dec 5, 02:00 UTC.", "embeds": [],
        "attachments": [], "timestamp": DAY.isoformat(), "edited_timestamp": None, "flags": 0,
        "mentions": [], "mention_roles": []}}]
    env.send("MESSAGE_CREATE", forward)
    link = fd.message(GENERAL, BOB, "docs: https://example.com/cats", guild_id=GUILD,
                      at=DAY + timedelta(minutes=50), author_member=fd.member())
    env.send("MESSAGE_CREATE", link)
    env.wait_for(lambda: len(env.messages(general)) == 4, what="the four messages")
    env.send("MESSAGE_UPDATE", {**link, "embeds": [{
        "type": "link", "url": "https://example.com/cats", "title": "Cats of the internet",
        "description": "Whiskers the cat runs the checkout team."}]})
    env.send("MESSAGE_UPDATE", {**running, "embeds": deploy("succeeded", "v4.2.0", "production"),
                                "edited_timestamp": (DAY + timedelta(minutes=9)).isoformat()})
    env.wait_for(lambda: any(e.type == "message.edited" for e in env.sink.events),
                 what="the bot's edit")
    env.post(GENERAL, BOB, f"{MENTION} what version of checkout-api is in production?",
             mentions=[LURKER])
    env.post(GENERAL, BOB, f"{MENTION} when is the postgres 16 upgrade?", mentions=[LURKER])
    env.post(GENERAL, BOB, f"{MENTION} who runs the checkout team?", mentions=[LURKER])
    replies = env.wait_replies(3, GENERAL)
    said = [r.json["content"].split("\n")[0] for r in replies]
    assert said[0].startswith("Deploy succeeded. checkout-api to production (Version "
                              "v4.2.0)."), said  # the token's field on its own line, redacted
    assert said[1].startswith("5 December 2026: ") and "Forwarded: The Postgres 16" in said[1], \
        said
    assert "Whiskers" not in " ".join(r.json["content"] for r in replies), said
    for reply in replies:
        assert_unpinging(reply)
    stored = b"".join(p.read_bytes() for p in tmp_path.glob("discord.sqlite3*"))
    assert b"ghp_Q8bW2rT5yV9nM3kL7pX1cZ4hJ6gF0dS8aE2u" not in stored and b"Whiskers" not in stored


def test_a_password_behind_a_spoiler_over_discord_is_never_stored_or_posted(env, tmp_path):
    """27 Nov, from outside, through the real discord.py client: Discord users hide a password
    behind a spoiler ("guest wifi: ||BlueSky-2026||", "door code: ||4821||") and say a new one
    after a rotation ("rotated the vpn pw, it's now Zebra-5512!"). All three were stored and
    answered back whole; a spoiler of a plot is kept."""
    general = f"discord:{GUILD}:{GENERAL}"
    env.post(GENERAL, BOB, "guest wifi: ||BlueSky-2026||", at=DAY)
    env.post(GENERAL, BOB, "office door code: ||4821||", at=DAY + timedelta(minutes=1))
    env.post(GENERAL, BOB, "rotated the vpn pw, it's now Zebra-5512!",
             at=DAY + timedelta(minutes=2))
    env.post(GENERAL, BOB, "The finale of Severance season 2 airs on Friday: ||Mark "
             "escapes||", at=DAY + timedelta(minutes=3))
    env.wait_for(lambda: len(env.messages(general)) == 4, what="the four messages")
    env.post(GENERAL, BOB, f"{MENTION} what's the guest wifi?", mentions=[LURKER])
    env.post(GENERAL, BOB, f"{MENTION} what is the office door code?", mentions=[LURKER])
    env.post(GENERAL, BOB, f"{MENTION} what is the vpn pw now?", mentions=[LURKER])
    replies = env.wait_replies(3, GENERAL)
    said = " ".join(r.json["content"] for r in replies)
    for reply in replies:
        assert_unpinging(reply)
    stored = b"".join(p.read_bytes() for p in tmp_path.glob("discord.sqlite3*"))
    for secret in ("BlueSky-2026", "4821", "Zebra-5512"):
        assert secret not in said and secret.encode() not in stored, secret
    assert "[REDACTED:" in said, said
    assert b"Mark escapes" in stored


def test_a_question_replying_to_a_message_is_about_it_over_discord(env):
    """27 Nov, from outside, through the real discord.py client: "@Lurker when is it?" sent as a
    reply to "Postgres 16 upgrade: we need a maintenance window." was answered "I don't have
    anything about that in memory." The message a question replies to says what "it" is; the
    same words not replying to anything still name nothing."""
    general = f"discord:{GUILD}:{GENERAL}"
    opening = env.post(GENERAL, ALICE, "Postgres 16 upgrade: we need a maintenance window.",
                       at=DAY)
    env.post(GENERAL, BOB, "Dec 5, 02:00 UTC works for everyone, I'll book it.",
             reference=opening["id"], at=DAY + timedelta(minutes=2))
    env.wait_for(lambda: len(env.messages(general)) == 2, what="the two messages")
    env.post(GENERAL, CARLA, f"{MENTION} when is it?", mentions=[LURKER],
             reference=opening["id"])
    env.post(GENERAL, CARLA, f"{MENTION} when is it?", mentions=[LURKER])
    replies = env.wait_replies(2, GENERAL)
    # (the two are answered side by side: in either order)
    alone, about = sorted((r.json["content"].split("\n")[0] for r in replies),
                          key=lambda text: text.startswith("5 December"))
    assert about.startswith("5 December 2026: "), about
    assert "02:00 UTC works for everyone" in about, about
    assert alone.startswith("I don't have anything about that in memory."), alone
    for reply in replies:
        assert_unpinging(reply)


def test_a_question_inside_a_thread_is_about_its_starter_over_discord(env):
    """27 Nov, from outside, through the real discord.py client: a thread started from
    "Postgres 16 upgrade: we need a maintenance window." (the starter in the parent channel,
    the thread with its id), the answer said inside it; "@Lurker when is it?" asked inside
    the thread was declined."""
    general = f"discord:{GUILD}:{GENERAL}"
    env.post(GENERAL, ALICE, "Postgres 16 upgrade: we need a maintenance window.", at=DAY,
             message_id=THREAD)
    env.post(THREAD, BOB, "Dec 5, 02:00 UTC works for everyone, I'll book it.",
             at=DAY + timedelta(minutes=2))
    env.wait_for(lambda: len(env.messages(general)) == 2, what="the two messages")
    env.post(THREAD, CARLA, f"{MENTION} when is it?", mentions=[LURKER])
    (reply,) = env.wait_replies(1, THREAD)
    text = reply.json["content"].split("\n")[0]
    assert text.startswith("5 December 2026: "), text
    assert "02:00 UTC works for everyone" in text, text
    assert_unpinging(reply)


def test_a_claim_a_psa_rule_and_whats_coming_up_over_discord(env):
    """27 Nov (ninth session), the newer answers driven through the discord.py client: bob's "on
    it" under alice's "can someone review PR #901 before Friday?" names the reviewer, a rule
    posted as a "PSA:" is said beside a request it governs, and "what's coming up?" lists what is
    dated ahead; another channel's plans stay there, and nobody is pinged."""
    env.post(GENERAL, ALICE, "can someone review PR #901 before Friday?", at=DAY)
    env.post(GENERAL, BOB, "on it", at=DAY + timedelta(minutes=2))
    env.post(GENERAL, ALICE, "PSA: never deploy on Fridays after 3pm", at=DAY + timedelta(minutes=5))
    env.post(GENERAL, ALICE, "Billing page launch is Dec 3. @everyone", at=DAY + timedelta(minutes=6))
    env.post(RANDOM, BOB, "Pizza party is Dec 4.", at=DAY + timedelta(minutes=7))
    env.wait_for(lambda: len(env.sink.events) >= 5, what="the channels' messages")
    env.settle()
    for n, question in enumerate(("who is reviewing #901?", "can I deploy on Friday at 4pm?",
                                  "what's coming up?")):
        env.post(GENERAL, BOB, f"{MENTION} {question}", mentions=[LURKER],
                 at=NOW + timedelta(minutes=n))
        env.wait_replies(n + 1, GENERAL)
    said = [r.json["content"] for r in env.replies(GENERAL)]
    assert "can someone review PR #901 before Friday? bob is on it." in said[0], said[0]
    assert "what stands: PSA: never deploy on Fridays after 3pm" in said[1], said[1]
    assert "Billing page launch is Dec 3" in said[2] and "Pizza" not in said[2], said[2]
    assert all(r.json["allowed_mentions"]["parse"] == [] for r in env.replies(GENERAL))


def test_weekly_metrics_and_a_review_bots_points_over_discord(env):
    """28 Nov (tenth session), driven through the discord.py client, each message its own
    event: weekly metrics that replace each other are told as a trend, and a review's numbered
    points come whole with the later word that says which were fixed; nobody is pinged."""
    for n, (dau, conv) in enumerate((("12.4k", "2.8"), ("13.1k", "2.5"), ("13.9k", "2.1"))):
        env.post(GENERAL, ALICE, f"Weekly metrics: DAU {dau}, conversion {conv}% @here",
                 at=DAY - timedelta(days=14 - 7 * n))
    env.post(GENERAL, BOB, "PR #2211 review: 3 issues found. 1) expired rows are never deleted. "
             "2) missing index on expires_at. 3) data column should be jsonb.", at=DAY)
    env.post(GENERAL, ALICE, "fixed 2 and 3 in PR #2211, 1 will be a follow-up",
             at=DAY + timedelta(hours=1))
    env.wait_for(lambda: len(env.sink.events) >= 5, what="the channel's messages")
    env.settle()
    for n, question in enumerate(("how has DAU trended?", "is the expired rows issue fixed?")):
        env.post(GENERAL, BOB, f"{MENTION} {question}", mentions=[LURKER],
                 at=NOW + timedelta(minutes=n))
        env.wait_replies(n + 1, GENERAL)
    trend, fixed = [r.json["content"] for r in env.replies(GENERAL)]
    assert trend.startswith("Over time:"), trend
    weeks = [trend.index(f"DAU {v}") for v in ("12.4k", "13.1k", "13.9k")]
    assert weeks == sorted(weeks), trend
    assert fixed.startswith("Latest: fixed 2 and 3 in PR #2211, 1 will be a follow-up"), fixed
    assert all(r.json["allowed_mentions"]["parse"] == [] for r in env.replies(GENERAL))


def test_a_review_bots_markdown_review_over_discord(env):
    """4 Dec (eleventh session), through the discord.py client: a review bot posts its review in
    Markdown ("**Issues**" over numbered points, "**Verdict**: request changes."), then an
    agent's load-test note on the PR says "latency went from 180ms to 210ms". "what issues did
    the review find in PR 2290?" led with the load test as the review's latest change, and the
    verdict was glued to the last point; now the issues, whole, and the verdict its own."""
    env.post(GENERAL, BOB, "Review of PR #2290 (retry budget for the webhook sender):\n\n"
             "**Issues**\n1. `RetryBudget.consume()` is not thread-safe.\n2. The backoff cap "
             "default is 600, not 60.\n3. No test covers the budget refill.\n\n**Verdict**: "
             "request changes.", at=DAY)
    env.post(GENERAL, ALICE, "Note for the team: I ran the load test on staging for PR #2290. "
             "p99 webhook latency went from 180ms to 210ms under 2k rps.",
             at=DAY + timedelta(hours=2))
    env.wait_for(lambda: len(env.sink.events) >= 2, what="the channel's messages")
    env.settle()
    for n, question in enumerate(("what issues did the review find in PR 2290?",
                                  "what was the verdict on PR 2290?")):
        env.post(GENERAL, BOB, f"{MENTION} {question}", mentions=[LURKER],
                 at=NOW + timedelta(minutes=n))
        env.wait_replies(n + 1, GENERAL)
    issues, verdict = [r.json["content"] for r in env.replies(GENERAL)]
    assert issues.startswith("Review of PR #2290 (retry budget for the webhook sender), Issues: "
                             "`RetryBudget.consume()` is not thread-safe; The backoff cap default "
                             "is 600, not 60; No test covers the budget refill."), issues
    assert "Latest" not in issues.split("\n")[0], issues
    assert verdict.startswith("Verdict: request changes. (16 November 2026)"), verdict
    assert "Latest" not in verdict.split("\n")[0], verdict


def test_a_decision_agreed_in_the_channel_and_she_signed_over_discord(env):
    """5 Dec (fifteenth session), through the discord.py client, each message its own event:
    bob's "agreed, free goes to 120/min from next Monday" minutes after alice's proposal, itself
    after her "rate limit discussion: …", answers what was decided about the rate limit (the
    opener's "free tier 60/min is too low" did); alice's "she signed!! … Omar will be her
    onboarding buddy", the evening after her "offer going out to Priya today", is Priya's. The
    other channel hears none of it, and nobody is pinged."""
    env.post(GENERAL, ALICE, "rate limit discussion: free tier 60/min is too low, support "
             "tickets doubled @everyone", at=DAY)
    env.post(GENERAL, ALICE, "proposal: free 120/min, pro 600/min, enterprise custom",
             at=DAY + timedelta(minutes=10))
    env.post(GENERAL, BOB, "agreed, free goes to 120/min from next Monday, pro stays 600",
             at=DAY + timedelta(minutes=30))
    env.post(GENERAL, ALICE, "offer going out to Priya today: L5, start date Jan 11",
             at=DAY + timedelta(hours=2))
    env.post(GENERAL, ALICE, "she signed!! 🎉 starting Jan 11, Omar will be her onboarding "
             "buddy", at=DAY + timedelta(hours=12))
    env.wait_for(lambda: len(env.sink.events) >= 5, what="the channel's messages")
    env.settle()
    for n, question in enumerate(("what did we decide about the rate limit on Monday?",
                                  "who's Priya's onboarding buddy?")):
        env.post(GENERAL, BOB, f"{MENTION} {question}", mentions=[LURKER],
                 at=NOW + timedelta(minutes=n))
        env.wait_replies(n + 1, GENERAL)
    env.post(RANDOM, BOB, f"{MENTION} who's Priya's onboarding buddy?", mentions=[LURKER],
             at=NOW + timedelta(minutes=5))
    env.wait_replies(1, RANDOM)
    decided, buddy = [r.json["content"] for r in env.replies(GENERAL)]
    assert decided.startswith("Decision: agreed, free goes to 120/min"), decided
    assert buddy.startswith("Priya signed!!"), buddy
    assert "Omar" not in env.replies(RANDOM)[0].json["content"]
    assert all(r.json["allowed_mentions"]["parse"] == []
               for r in [*env.replies(GENERAL), *env.replies(RANDOM)])


def test_a_hiring_manager_and_an_agency_chosen_over_discord(env):
    """6 Dec (nineteenth session), through the discord.py client, each message its own event:
    "who is the hiring manager?" was answered with the onsite's correction as the panel's
    latest word ("…, since Tomás is out Thursday"), and "which agency did we pick?" with the
    shortlist ("Going with Blue Fin." shares no word with it); why it was picked is the sentence
    before the choice. The other channel hears none of it, and nobody is pinged."""
    env.post(GENERAL, ALICE, "I'll be hiring manager for the backend req. Panel: me, Lena, "
             "Tomás for system design.", at=DAY)
    env.post(GENERAL, ALICE, "Priya's onsite is scheduled for Thursday Nov 19 at 1pm ET. "
             "@everyone", at=DAY + timedelta(minutes=5))
    env.post(GENERAL, BOB, "Agency shortlist: Northwind Creative and Blue Fin. Pitches "
             "tomorrow.", at=DAY + timedelta(minutes=10))
    env.post(GENERAL, ALICE, "Correction: Priya's onsite moved to Wednesday Nov 18, same time, "
             "since Tomás is out Thursday.", at=DAY + timedelta(hours=3))
    env.post(GENERAL, ALICE, "Blue Fin pitch was great, Northwind was late and off-brief. "
             "Going with Blue Fin.", at=DAY + timedelta(days=1))
    env.wait_for(lambda: len(env.sink.events) >= 5, what="the channel's messages")
    env.settle()
    for n, question in enumerate(("who is the hiring manager?", "which agency did we pick?",
                                  "why did we pick Blue Fin?")):
        env.post(GENERAL, BOB, f"{MENTION} {question}", mentions=[LURKER],
                 at=NOW + timedelta(minutes=n))
        env.wait_replies(n + 1, GENERAL)
    env.post(RANDOM, BOB, f"{MENTION} which agency did we pick?", mentions=[LURKER],
             at=NOW + timedelta(minutes=5))
    env.wait_replies(1, RANDOM)
    manager, picked, why = [r.json["content"] for r in env.replies(GENERAL)]
    assert manager.startswith("alice will be hiring manager"), manager
    assert "Correction" not in manager.split("\n")[0], manager
    assert picked.startswith("Going with Blue Fin."), picked
    assert why.startswith("Blue Fin pitch was great"), why
    assert "Blue Fin" not in env.replies(RANDOM)[0].json["content"]
    assert all(r.json["allowed_mentions"]["parse"] == []
               for r in [*env.replies(GENERAL), *env.replies(RANDOM)])


def test_a_move_asked_why_and_a_cve_dated_over_discord(env):
    """6 Dec (twentieth session), through the discord.py client: "why are we moving to Xero's
    bulk endpoint?" was answered with the move alone (its reason is the sentence before it),
    "which versions get the security fix?" was declined (a patch "for the CVE" says no
    "security"), and "Coordinated disclosure date for the CVE is Dec 9" was last year's. The
    other channel hears none of it, and nobody is pinged."""
    env.post(GENERAL, BOB, "Xero rate limit is 60 calls/min per tenant, we're hitting it during "
             "the nightly sync. Moving to their bulk endpoint. @everyone", at=DAY)
    env.post(GENERAL, ALICE, "Patch for the CVE is ready in a private fork, backporting to "
             "3.2.9 and 3.3.5.", at=DAY + timedelta(minutes=5))
    env.post(GENERAL, ALICE, "Coordinated disclosure date for the CVE is Nov 24, 14:00 UTC.",
             at=DAY + timedelta(hours=2))
    env.wait_for(lambda: len(env.sink.events) >= 3, what="the channel's messages")
    env.settle()
    for n, question in enumerate(("why are we moving to Xero's bulk endpoint?",
                                  "which versions get the security fix?",
                                  "when is the CVE disclosed?")):
        env.post(GENERAL, BOB, f"{MENTION} {question}", mentions=[LURKER],
                 at=NOW + timedelta(minutes=n))
        env.wait_replies(n + 1, GENERAL)
    env.post(RANDOM, BOB, f"{MENTION} which versions get the security fix?", mentions=[LURKER],
             at=NOW + timedelta(minutes=5))
    env.wait_replies(1, RANDOM)
    why, versions, disclosed = [r.json["content"] for r in env.replies(GENERAL)]
    assert why.startswith("Xero rate limit is 60 calls/min per tenant"), why
    assert versions.startswith("Patch for the CVE is ready"), versions
    assert disclosed.startswith("24 November 2026: Coordinated disclosure date"), disclosed
    assert "3.2.9" not in env.replies(RANDOM)[0].json["content"]
    assert all(r.json["allowed_mentions"]["parse"] == []
               for r in [*env.replies(GENERAL), *env.replies(RANDOM)])


def test_a_hotfix_a_handoff_and_an_open_incident_over_discord(env):
    """6 Dec (twenty-first session), through the discord.py client, a game's server and its
    on-call: "what's the latest patch?" led with "Patch 1.4 is live!" over the newer "Hotfix
    1.4.1 is out"; "who is on call this week?" and "what incidents are still open?" were
    declined ("Handoff to @bea for this week. Open: INC-1201 …" says neither "call" nor
    "incident"). The other channel hears none of it, and nobody is pinged."""
    env.post(GENERAL, ALICE, "Patch 1.4 is live! Changelog: sniper damage -10%, new map Harbor, "
             "fixed the crash on alt-tab. @everyone", at=DAY)
    env.post(GENERAL, BOB, "Handoff to @bea for this week. Open: INC-1201 (elevated 5xx on "
             "search, mitigated, RCA pending), INC-1204 (cert expiring on api-eu Dec 9).",
             at=DAY + timedelta(minutes=5))
    env.post(GENERAL, ALICE, "Hotfix 1.4.1 is out, fixes the Win11 alt-tab crash.",
             at=DAY + timedelta(days=1))
    env.post(GENERAL, BOB, "INC-1204: renewed the api-eu cert, valid until Mar 2027. Closing.",
             at=DAY + timedelta(days=1, hours=1))
    env.wait_for(lambda: len(env.sink.events) >= 4, what="the channel's messages")
    env.settle()
    for n, question in enumerate(("what's the latest patch?", "who is on call this week?",
                                  "what incidents are still open?")):
        env.post(GENERAL, BOB, f"{MENTION} {question}", mentions=[LURKER],
                 at=NOW + timedelta(minutes=n))
        env.wait_replies(n + 1, GENERAL)
    env.post(RANDOM, BOB, f"{MENTION} what's the latest patch?", mentions=[LURKER],
             at=NOW + timedelta(minutes=5))
    env.wait_replies(1, RANDOM)
    patch, oncall, still = [r.json["content"] for r in env.replies(GENERAL)]
    assert patch.startswith("Hotfix 1.4.1 is out"), patch
    assert oncall.startswith("Handoff to @bea for this week"), oncall
    assert still.startswith("Handoff to @bea for this week. Open: INC-1201") \
        or still.startswith("Open: INC-1201"), still
    assert "Closed since: INC-1204: renewed" in still, still
    assert "1.4.1" not in env.replies(RANDOM)[0].json["content"]
    assert all(r.json["allowed_mentions"]["parse"] == []
               for r in [*env.replies(GENERAL), *env.replies(RANDOM)])


def test_action_items_and_a_call_moved_this_week_over_discord(env):
    """6 Dec (twenty-second session), through the discord.py client: "what's left from the
    outage review?" gave its action items without what was done of them since ("ES heap raised
    to 16g …"); "community call moved from Tuesday to Wednesday 17:00 UTC this week only", said
    on a Wednesday, was next week's Tuesday. The other channel hears none of it, and nobody is
    pinged."""
    env.post(GENERAL, ALICE, "Action items from the outage review: @bob add a circuit breaker, "
             "@alice raise the ES heap to 16g, @carol write the runbook. @everyone", at=DAY)
    env.post(GENERAL, BOB, "ES heap raised to 16g on all search nodes.",
             at=DAY + timedelta(days=1))
    env.post(GENERAL, ALICE, "community call moved from Tuesday to Wednesday 17:00 UTC this week "
             "only", at=NOW - timedelta(hours=1))
    env.wait_for(lambda: len(env.sink.events) >= 3, what="the channel's messages")
    env.settle()
    for n, question in enumerate(("what's left from the outage review?",
                                  "when is the community call this week?")):
        env.post(GENERAL, BOB, f"{MENTION} {question}", mentions=[LURKER],
                 at=NOW + timedelta(minutes=n))
        env.wait_replies(n + 1, GENERAL)
    env.post(RANDOM, BOB, f"{MENTION} what's left from the outage review?", mentions=[LURKER],
             at=NOW + timedelta(minutes=5))
    env.wait_replies(1, RANDOM)
    left, call = [r.json["content"] for r in env.replies(GENERAL)]
    assert left.startswith("Action items from the outage review") \
        and "Since then: ES heap raised to 16g" in left, left
    assert call.startswith("18 November 2026: community call moved from Tuesday [2026-11-17] to "
                           "Wednesday [2026-11-18]"), call
    assert "heap" not in env.replies(RANDOM)[0].json["content"]
    assert all(r.json["allowed_mentions"]["parse"] == []
               for r in [*env.replies(GENERAL), *env.replies(RANDOM)])


def test_an_rfc_objected_to_then_supported_and_staging_broken_over_discord(env):
    """6 Dec (twenty-third session), through the discord.py client: "does bob still object?"
    answered with his -1 alone (his later "With a separate instance I'm +1." names no RFC), and
    "why did bob object?" was declined ("Postgres" in his -1 was read as someone else it was
    about); "what broke staging?" led with "Staging working again …" over what broke it. The
    other channel hears none of it, and nobody is pinged."""
    env.post(GENERAL, ALICE, "RFC-31: move session storage from Redis to Postgres. Owner: alice.",
             at=DAY)
    env.post(GENERAL, BOB, "-1 on RFC-31, Postgres write load goes up ~15% and we're already at "
             "70% CPU. @here", at=DAY + timedelta(hours=2))
    env.post(GENERAL, ALICE, "Updated RFC-31: sessions go to a separate Postgres instance, not the "
             "main one.", at=DAY + timedelta(days=1))
    env.post(GENERAL, BOB, "With a separate instance I'm +1.", at=DAY + timedelta(days=1, hours=3))
    env.post(GENERAL, ALICE, "Staging is broken again, someone pushed a bad migration.",
             at=NOW - timedelta(hours=2))
    env.post(GENERAL, ALICE, "Staging working again after reverting the migration.",
             at=NOW - timedelta(hours=1))
    env.wait_for(lambda: len(env.sink.events) >= 6, what="the channel's messages")
    env.settle()
    for n, question in enumerate(("does bob still object?", "why did bob object?",
                                  "what broke staging?")):
        env.post(GENERAL, CARLA, f"{MENTION} {question}", mentions=[LURKER],
                 at=NOW + timedelta(minutes=n))
        env.wait_replies(n + 1, GENERAL)
    env.post(RANDOM, CARLA, f"{MENTION} does bob still object?", mentions=[LURKER],
             at=NOW + timedelta(minutes=5))
    env.wait_replies(1, RANDOM)
    still, why, broke = [r.json["content"] for r in env.replies(GENERAL)]
    assert still.startswith("Latest: With a separate instance bob is +1."), still
    assert why.startswith("-1 on RFC-31, Postgres write load goes up ~15%"), why
    assert broke.startswith("Staging is broken again, someone pushed a bad migration."), broke
    assert "+1" not in env.replies(RANDOM)[0].json["content"]
    assert all(r.json["allowed_mentions"]["parse"] == []
               for r in [*env.replies(GENERAL), *env.replies(RANDOM)])
