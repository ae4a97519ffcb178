"""End to end on real services: signed Slack events -> the Slack lurker's QueueSink -> Redis ->
a `lurker worker` subprocess -> Elasticsearch; then a mention -> recall on Elasticsearch -> a reply
in thread with permalinks. Edits and deletes take the same road."""
from __future__ import annotations

import re
import uuid
from datetime import datetime, timezone

import pytest

from bot.config import BotConfig
from bot.core import LurkerBot
from bot.slack_app import SlackLurker
from memory.config import Settings
from memory.service import MemoryService
from tests.fake_slack_api import BOT_USER, TOKEN, FakeSlackAPI
from tests.reply_dropper import ReplyDropper, port_of
from tests.slack_support import DB, RATE, SECRET, event, mention, message, serving, ts
from tests.workers_support import WorkerProcess, broker_idle, wait_until, worker_env
from workers import app as app_module
from workers.enqueue import EventPublisher
from workers.sinks import InProcessSink, QueueSink

pytestmark = [pytest.mark.elasticsearch, pytest.mark.redis]

INDEX_PREFIX = "lurker-slack-e2e"
BROKER_DB = 14  # a Redis database of its own (tests/test_workers_real.py counts up from 1)


def test_events_through_redis_and_a_worker_to_elasticsearch_then_a_cited_answer(
        es_server, redis_server, embedder, tmp_path):
    team = f"T{uuid.uuid4().hex[:8].upper()}"  # fresh profiles in the session-wide indices
    es = {"store": es_server.url, "es_user": es_server.user, "es_password": es_server.password,
          "es_index_prefix": INDEX_PREFIX, "anthropic_api_key": None}
    broker = re.sub(r"/\d+$", "", redis_server.url) + f"/{BROKER_DB}"
    redis = type(redis_server.client()).from_url(broker)
    redis.flushdb()
    app_module.configure(Settings(broker_url=broker, **es))
    api = FakeSlackAPI(team=team).start()
    for user, name in (("U1", "maya"), ("U2", "sam")):
        api.add_user(user, name)
    service = MemoryService.from_settings(Settings(**es), embedder=embedder)
    worker = WorkerProcess(worker_env(es_server.url, broker, es=es_server,
                                      es_index_prefix=INDEX_PREFIX, batch_size=20,
                                      batch_interval_s=0.2),
                           tmp_path / "worker.log")
    try:
        worker.start()
        bot = LurkerBot(service, QueueSink(EventPublisher()),
                        BotConfig(audit_log=tmp_path / "audit.jsonl"),
                        clock=lambda: datetime(2026, 11, 18, 9, tzinfo=timezone.utc))
        assert not bot.sink.synchronous
        lurker = SlackLurker(bot, token=TOKEN, signing_secret=SECRET, base_url=api.base_url)
        profile = f"slack:{team}:CGEN"
        with serving(lurker):
            message(lurker, "CGEN", "U1", RATE, ts(0))
            message(lurker, "CGEN", "U2", DB, ts(1), thread_ts=ts(0))
            message(lurker, "CGEN", "U2", "Host sigma1 moved to rack 12 today.", ts(2))
            event(lurker, {"type": "message", "subtype": "message_deleted",
                           "channel": "CGEN", "ts": ts(9), "deleted_ts": ts(2),
                           "team": team})

            def stored() -> set[str]:
                return {m.external_id for m in service.store.iter_messages(profile)}

            wanted = {f"{profile}:{ts(0)}", f"{profile}:{ts(1)}"}
            wait_until(lambda: stored() == wanted and broker_idle(redis), 90,
                       "the worker to store the messages", interval=0.3,
                       on_timeout=worker.tail)
            mention(lurker, "CGEN", "U2", "what rate limit did we decide?", ts(30))
        [reply] = api.called("chat.postMessage")
        link = f"https://acme.slack.com/archives/CGEN/p{ts(0).replace('.', '')}"
        assert reply["thread_ts"] == ts(30) and "500 requests" in reply["text"]
        assert f"<{link}|2026-11-16, maya>" in reply["text"]
        assert f"<@{BOT_USER}>" not in " ".join(m.content for m in
                                               service.store.iter_messages(profile))
        assert not any("sigma1" in m.content for m in service.profile(profile).list())
    finally:
        worker.stop()
        api.stop()
        service.close()
        redis.close()
        app_module.configure(Settings())


def test_elasticsearch_going_away_under_a_first_person_question(es_server, embedder, tmp_path):
    """maya's "have I …?" is answered from her own words on Elasticsearch. With Elasticsearch gone
    (its connections cut and refused, tests/reply_dropper.py as a plain proxy) the same question
    gets one clear reply in her thread that names no password, and once Elasticsearch is back on
    the same address the bot answers from her words again, without a restart."""
    team = f"T{uuid.uuid4().hex[:8].upper()}"
    es_port = port_of(es_server.url)
    proxy = ReplyDropper(es_port, {})
    es = {"store": f"http://127.0.0.1:{proxy.port}", "es_user": es_server.user,
          "es_password": es_server.password, "es_index_prefix": INDEX_PREFIX,
          "anthropic_api_key": None}
    api = FakeSlackAPI(team=team).start()
    for user, name in (("U1", "maya"), ("U2", "sam"), ("U3", "ravi")):
        api.add_user(user, name)
    service = MemoryService.from_settings(Settings(**es), embedder=embedder)
    question = "have I ever deployed the refund service myself?"
    try:
        bot = LurkerBot(service, InProcessSink(service),
                        BotConfig(audit_log=tmp_path / "audit.jsonl"),
                        clock=lambda: datetime(2026, 11, 18, 9, tzinfo=timezone.utc))
        lurker = SlackLurker(bot, token=TOKEN, signing_secret=SECRET, base_url=api.base_url)
        runbook = ("The refund service deploy runs in three stages: build the image, roll the "
                   "canary to 5 % of traffic, then promote the deploy. ")
        with serving(lurker):
            for i in range(6):
                message(lurker, "CGEN", "U3", f"Deploy report {i}: " + runbook * 5, ts(i))
            message(lurker, "CGEN", "U1", "I've never deployed the refund service on my own, "
                    "can you walk me through it?", ts(20))
            mention(lurker, "CGEN", "U1", question, ts(30))
            proxy.close()  # Elasticsearch goes away
            mention(lurker, "CGEN", "U1", question, ts(31))
            proxy = ReplyDropper(es_port, {}, port=proxy.port)  # and comes back
            mention(lurker, "CGEN", "U1", question, ts(32))
        replies = api.called("chat.postMessage")
        link = f"https://{api.domain}.slack.com/archives/CGEN/p{ts(20).replace('.', '')}"
        assert [r["thread_ts"] for r in replies] == [ts(30), ts(31), ts(32)]
        before, during, after = (r["text"] for r in replies)
        assert link in before and link in after, (before, after)
        assert "unreachable" in during and link not in during, during
        assert es_server.password not in during and "Traceback" not in during
    finally:
        proxy.close()
        service.close()
        api.stop()
