"""The REST API against the real app (in-process ASGI) on both real stores: the operations, key
scoping and scopes, request limits and error bodies, probes, metrics and logs."""
from __future__ import annotations

import base64
import io
import json
import logging
import re

import pytest
from fastapi.testclient import TestClient

from memory.config import Settings
from memory.surfaces.api.app import create_app
from memory.surfaces.api.keys import KeyFile, add_key
from memory.surfaces.api.obs import JsonFormatter
from tests.forget_support import HOST, QUESTION, STATEMENT

CONVERSATION = [
    {"author": "maya", "content": "We decided to use pnpm for the dashboard",
     "ts": "2026-11-16T09:00:00Z", "external_id": "slack:C1:1"},
    {"author": "li", "content": "The rate limit for the public API is 100 requests per minute",
     "ts": "2026-11-16T09:01:00Z"},
]


def api_settings(tmp_path, **overrides) -> Settings:
    return Settings(store=f"sqlite:///{tmp_path / 'unused.sqlite3'}", broker_url="memory://",
                    anthropic_api_key=None, **overrides)


class Api:
    """A TestClient on the app plus keys: `writer` (read, write) and `reader` for the profile,
    `admin` for every profile."""

    def __init__(self, service, tmp_path, profile: str, **settings):
        self.keys_path = tmp_path / "keys.json"
        self.writer = add_key(self.keys_path, "writer", [profile], ["read", "write"])
        self.reader = add_key(self.keys_path, "reader", [profile], ["read"])
        self.admin = add_key(self.keys_path, "ops", ["*"], ["admin"])
        self.settings = api_settings(tmp_path, **settings)
        self.app = create_app(service, KeyFile(self.keys_path), self.settings)
        self.client = TestClient(self.app, raise_server_exceptions=True)
        self.profile = profile

    def call(self, method: str, path: str, key: str | None = "writer", **kwargs):
        headers = kwargs.pop("headers", {})
        if key:
            headers["Authorization"] = f"Bearer {getattr(self, key, key)}"
        return self.client.request(method, path.replace("{p}", self.profile), headers=headers,
                                   **kwargs)


def assert_error(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    error = response.json()["error"]
    assert error["code"] == code and error["message"], error
    return error


@pytest.fixture
def api(service, tmp_path, profile_name):
    return Api(service, tmp_path, profile_name)


def test_operations_round_trip(api, service, profile_name):
    accepted = api.call("POST", "/v1/profiles/{p}/ingest",
                        json={"session_id": "2026-11-16", "messages": CONVERSATION})
    assert accepted.status_code == 202, accepted.text
    body = accepted.json()
    assert body["mode"] == "applied" and body["queued"] == 2 and len(body["batch_id"]) == 32
    stored = {m.id: m for m in service.store.iter_messages(profile_name)}
    assert body["message_ids"] and set(body["message_ids"]) == set(stored)
    assert stored[body["message_ids"][0]].external_id == "slack:C1:1"
    assert stored[body["message_ids"][1]].external_id == f"api:{body['message_ids'][1]}"

    recalled = api.call("POST", "/v1/profiles/{p}/recall", key="reader",
                        json={"query": "what is the rate limit of the public API?",
                              "now": "2026-11-18T09:00:00"})
    assert recalled.status_code == 200, recalled.text
    answer = recalled.json()
    assert "100 requests per minute" in answer["answer"]
    cited = [m for m in answer["memories"] if "rate limit" in m["content"]]
    assert cited and cited[0]["source_message_ids"] == [body["message_ids"][1]]
    assert cited[0]["channels"]

    remembered = api.call("POST", "/v1/profiles/{p}/remember",
                          json={"content": "The staging database is Postgres 16",
                                "type": "fact"})
    assert remembered.status_code == 201, remembered.text
    assert remembered.json()["type"] == "fact"

    page = api.call("GET", "/v1/profiles/{p}/memories", params={"limit": 1}).json()
    assert len(page["memories"]) == 1 and page["next_offset"] == 1
    everything, offset = [], 0
    while offset is not None:
        page = api.call("GET", "/v1/profiles/{p}/memories",
                        params={"limit": 2, "offset": offset}).json()
        everything += page["memories"]
        offset = page["next_offset"]
    assert [m["id"] for m in everything] == [m.id for m in service.profile(profile_name).list()]
    facts = api.call("GET", "/v1/profiles/{p}/memories", params={"type": "fact"}).json()
    assert facts["memories"] and {m["type"] for m in facts["memories"]} == {"fact"}

    # forget needs an admin key; the reason and the key's name stay in the history
    target = cited[0]["id"]
    assert_error(api.call("DELETE", f"/v1/profiles/{{p}}/memories/{target}"), 403, "forbidden")
    forgotten = api.call("DELETE", f"/v1/profiles/{{p}}/memories/{target}", key="admin",
                         params={"reason": "limit raised"})
    assert forgotten.status_code == 200 and forgotten.json()["status"] == "forgotten"
    assert forgotten.json()["forgotten_reason"] == "limit raised (API key ops)"
    assert target not in [m["id"] for m in api.call(
        "GET", "/v1/profiles/{p}/memories").json()["memories"]]
    history = api.call("GET", "/v1/profiles/{p}/memories", params={"status": "all"}).json()
    assert target in [m["id"] for m in history["memories"]]
    assert_error(api.call("DELETE", "/v1/profiles/{p}/memories/" + "0" * 32, key="admin"),
                 404, "not_found")

    # export streams JSONL (the ordinary one leaves out the message the forgotten memory came
    # from; an admin's audit export holds it); import into another profile reproduces it
    ordinary = api.call("GET", "/v1/profiles/{p}/export", key="reader")
    assert ordinary.status_code == 200 and len(ordinary.text.splitlines()) == 1 + 1 + len(
        service.profile(profile_name).list(include_inactive=True))
    exported = api.call("GET", "/v1/profiles/{p}/export", key="admin", params={"audit": "true"})
    assert exported.status_code == 200
    assert exported.headers["content-type"].startswith("application/x-ndjson")
    lines = exported.text.splitlines()
    assert json.loads(lines[0])["kind"] == "header" and len(lines) == 1 + 2 + len(
        service.profile(profile_name).list(include_inactive=True))
    copy = f"{profile_name}-copy"
    assert_error(api.call("POST", f"/v1/profiles/{copy}/import", content=exported.content),
                 403, "forbidden")
    imported = api.call("POST", f"/v1/profiles/{copy}/import", key="admin",
                        content=exported.content,
                        headers={"Content-Type": "application/x-ndjson"})
    assert imported.status_code == 200, imported.text
    assert imported.json() == {"messages": 2, "memories": len(lines) - 3, "redacted": 0}
    assert service.profile(copy).export().__next__() != lines[0]  # header names the new profile
    assert list(service.profile(copy).export(audit=True))[1:] == lines[1:]
    broken = api.call("POST", f"/v1/profiles/{copy}/import", key="admin",
                      content=lines[1].encode() + b"\n{not json\n")
    error = assert_error(broken, 422, "invalid_request")
    assert error["details"] == [{"line": 2, "problem": error["details"][0]["problem"]}]

    # purge (admin) empties the profile
    assert_error(api.call("DELETE", f"/v1/profiles/{copy}"), 403, "forbidden")
    assert api.call("DELETE", f"/v1/profiles/{copy}", key="admin").json() == {
        "profile": copy, "purged": True}
    assert service.store.count(copy)["messages"] == 0


def test_keys_and_scopes(api, profile_name):
    assert_error(api.call("GET", "/v1/profiles/{p}/memories", key=None), 401, "unauthorized")
    assert_error(api.call("GET", "/v1/profiles/{p}/memories", key="lk_not-a-key"), 401,
                 "unauthorized")
    ok = api.call("GET", "/v1/profiles/{p}/memories", key=None,
                  headers={"X-API-Key": api.reader})
    assert ok.status_code == 200
    for path in ("/v1/profiles/slack:T1:C9/memories", f"/v1/profiles/{profile_name}x/memories"):
        assert_error(api.call("GET", path), 403, "forbidden")
    assert_error(api.call("POST", "/v1/profiles/slack:T1:C9/recall", json={"query": "x"}), 403,
                 "forbidden")
    # a read-only key cannot write; a writer cannot replace a profile on import
    assert_error(api.call("POST", "/v1/profiles/{p}/remember", key="reader",
                          json={"content": "x"}), 403, "forbidden")
    assert_error(api.call("POST", "/v1/profiles/{p}/import", params={"replace": "true"},
                          content=b""), 403, "forbidden")
    # a key revoked in the file stops working without a restart
    from memory.surfaces.api.keys import remove_key

    remove_key(api.keys_path, "reader")
    assert_error(api.call("GET", "/v1/profiles/{p}/memories", key=api.reader), 401,
                 "unauthorized")


@pytest.mark.parametrize("service", ["sqlite"], indirect=True)
def test_limits_and_bad_input(service, tmp_path, profile_name):
    api = Api(service, tmp_path, profile_name, api_max_body_bytes=4000, api_max_query_chars=50,
              api_max_page_size=20, api_max_ingest_messages=3, api_max_import_bytes=8000)
    one = {"content": "hello"}
    assert_error(api.call("POST", "/v1/profiles/{p}/remember",
                          json={"content": "x" * 5000}), 413, "too_large")

    def chunks():  # no Content-Length: the limit is counted while reading
        for _ in range(10):
            yield b" " * 1000

    assert_error(api.call("POST", "/v1/profiles/{p}/remember", content=chunks(),
                          headers={"Content-Type": "application/json"}), 413, "too_large")
    assert_error(api.call("POST", "/v1/profiles/{p}/import", key="admin",
                          content=b"\n" * 9000), 413, "too_large")
    assert api.call("POST", "/v1/profiles/{p}/import", key="admin",
                    content=b"\n" * 5000).status_code == 200  # import's own, larger limit
    assert_error(api.call("POST", "/v1/profiles/{p}/recall", json={"query": "q" * 51}), 422,
                 "invalid_request")
    assert_error(api.call("GET", "/v1/profiles/{p}/memories", params={"limit": 21}), 422,
                 "invalid_request")
    assert_error(api.call("POST", "/v1/profiles/{p}/ingest",
                          json={"session_id": "s", "messages": [one] * 4}), 422,
                 "invalid_request")
    assert_error(api.call("POST", "/v1/profiles/{p}/ingest", content=b"{nope",
                          headers={"Content-Type": "application/json"}), 400, "invalid_json")
    error = assert_error(api.call("POST", "/v1/profiles/{p}/ingest", json={
        "session_id": "s", "messages": [one, {"content": "  "}, {"content": "x", "ts": "soon"}]}),
        422, "invalid_request")
    assert "message 1" in error["message"] and "message 2" in error["message"]
    assert_error(api.call("POST", "/v1/profiles/{p}/ingest", json={
        "session_id": "s", "messages": [{"content": "x", "ts": "9999-12-31T00:00:00Z"}]}),
        422, "invalid_request")
    assert_error(api.call("POST", "/v1/profiles/{p}/recall",
                          json={"query": "what happened tomorrow?", "now": "9999-12-31T00:00"}),
                 422, "invalid_request")
    assert_error(api.call("GET", "/v1/profiles/bad name!/memories"), 422, "invalid_request")
    assert_error(api.call("GET", "/v1/nothing"), 404, "not_found")
    assert service.store.count(profile_name)["messages"] == 0  # nothing half-written


@pytest.mark.parametrize("service", ["sqlite"], indirect=True)
def test_probes_metrics_and_logs(service, tmp_path, profile_name):
    api = Api(service, tmp_path, profile_name)
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    logger = logging.getLogger("lurker.api")
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    try:
        assert api.client.get("/healthz").json() == {"status": "ok"}
        ready = api.client.get("/readyz")
        assert ready.status_code == 200 and ready.json()["status"] == "ready"
        api.call("POST", "/v1/profiles/{p}/ingest", headers={"X-Request-ID": "req-42"},
                 json={"session_id": "s1", "messages": CONVERSATION})
        recalled = api.call("POST", "/v1/profiles/{p}/recall", json={"query": "rate limit?"})
        assert len(recalled.headers["x-request-id"]) == 32
    finally:
        logger.removeHandler(handler)
    records = [json.loads(line) for line in stream.getvalue().splitlines()]
    access = [r for r in records if r.get("request_id") == "req-42" and "status" in r]
    assert access and access[0]["profile"] == profile_name and access[0]["status"] == 202
    assert access[0]["key"] == "writer" and access[0]["duration_ms"] >= 0

    text = api.client.get("/metrics").text

    def value(name: str, labels: str = "") -> float:
        match = re.search(rf"^{re.escape(name)}{re.escape(labels)} (\S+)$", text, re.M)
        assert match, f"{name}{labels} not in /metrics"
        return float(match.group(1))

    assert value("lurker_ingest_messages_total", '{mode="applied"}') == 2
    assert value("lurker_ingest_batch_size_count") == 1
    assert value("lurker_ingest_batch_size_sum") == 2
    assert value("lurker_recall_seconds_count", '{surface="api"}') == 1
    assert sum(float(v) for v in re.findall(
        r'^lurker_recall_channel_hits_total\{channel="\w+"\} (\S+)$', text, re.M)) >= 1
    # every channel the offline engine runs is timed once per recall (HyDE is not run offline)
    for channel in ("topic", "memory_text", "vector", "message_text"):
        assert value("lurker_recall_channel_seconds_count", f'{{channel="{channel}"}}') == 1
    assert 'lurker_recall_channel_seconds_count{channel="hyde"}' not in text
    assert value("lurker_http_requests_total",
                 '{method="POST",route="/v1/profiles/{name}/ingest",status="202"}') == 1
    assert value("lurker_llm_errors_total") == 0  # offline engine: no model calls


@pytest.mark.parametrize("service", ["sqlite"], indirect=True)
def test_queued_ingest_and_readiness_with_a_real_broker(service, tmp_path, profile_name,
                                                        redis_server):
    from workers.app import configure
    from workers.broker import EVENTS_QUEUE
    from workers.events import parse_event

    broker = re.sub(r"/\d+$", "", redis_server.url) + "/15"
    import redis

    client = redis.Redis.from_url(broker)
    client.flushdb()
    keys = tmp_path / "keys.json"
    key = add_key(keys, "bot", [profile_name], ["write"])
    settings = Settings(store=f"sqlite:///{tmp_path / 'unused.sqlite3'}", broker_url=broker,
                        anthropic_api_key=None)
    try:
        app = create_app(service, KeyFile(keys), settings)
        http = TestClient(app)
        secret = "ghp_" + "A1b2" * 9
        leaky = [*CONVERSATION[:1], {**CONVERSATION[1], "content": f"{CONVERSATION[1]['content']}"
                                                               f", token {secret}"}]
        accepted = http.post(f"/v1/profiles/{profile_name}/ingest",
                             headers={"Authorization": f"Bearer {key}"},
                             json={"session_id": "s1", "messages": leaky})
        assert accepted.status_code == 202 and accepted.json()["mode"] == "queued"
        assert service.store.count(profile_name)["messages"] == 0  # a worker stores them later
        assert client.llen(EVENTS_QUEUE) == 2
        raw = client.lrange(EVENTS_QUEUE, 0, -1)
        payloads = [json.loads(m) for m in raw]
        assert not [m for m in raw if secret.encode() in base64.b64decode(json.loads(m)["body"])]
        # the task headers (Flower, `celery inspect`, worker logs) name the event, not its text
        assert not [m for m in raw if secret.encode() in m or b"token" in m]
        assert all(profile_name in p["headers"]["argsrepr"] for p in payloads)
        calls = [tuple(json.loads(base64.b64decode(p["body"]))[:2]) for p in payloads]
        assert {parse_event(args[0]).profile for args, _ in calls} == {profile_name}
        assert re.search(r'^lurker_queue_length\{queue="lurker.events"\} 2\.0$',
                         http.get("/metrics").text, re.M)
        assert http.get("/readyz").json()["checks"]["queue"]["ok"] is True

        # what a worker does with them: the stored messages have the ids the API returned
        from workers.processing import process_events
        from workers.runtime import runtime

        runtime.reset(Settings(broker_url="memory://", store=settings.store), service=service)
        assert process_events(calls).outcomes == ["done", "done"]
        assert {m.id for m in service.store.iter_messages(profile_name)} == set(
            accepted.json()["message_ids"])

        dead = Settings(store=settings.store, broker_url="redis://127.0.0.1:1/0",
                        anthropic_api_key=None)
        down = TestClient(create_app(service, KeyFile(keys), dead))
        ready = down.get("/readyz")
        assert ready.status_code == 503 and ready.json()["checks"]["queue"]["ok"] is False
        assert ready.json()["checks"]["store"]["ok"] is True
    finally:
        client.flushdb()
        configure(Settings(broker_url="memory://"))


@pytest.mark.redis
@pytest.mark.parametrize("service", ["sqlite"], indirect=True)
def test_ingest_while_the_broker_is_away_is_spooled_then_handed_on(service, tmp_path,
                                                                    profile_name):
    """The API's sink is the bots' queue sink: with Redis down, ingest still answers 202 (the
    events wait in the spool file, readiness says the queue is away); when a redis-server comes
    up on that port, the events are handed on in order and the spool is gone."""
    from tests.harness import free_port
    from tests.workers_support import redis_on
    from workers.app import configure
    from workers.broker import EVENTS_QUEUE

    port = free_port()
    spool = tmp_path / "api-spool.jsonl"
    keys = tmp_path / "keys.json"
    key = add_key(keys, "bot", [profile_name], ["write"])
    settings = Settings(store=f"sqlite:///{tmp_path / 'unused.sqlite3'}",
                        broker_url=f"redis://127.0.0.1:{port}/0", event_spool=str(spool),
                        anthropic_api_key=None)
    app = create_app(service, KeyFile(keys), settings)
    try:
        http = TestClient(app)
        accepted = http.post(f"/v1/profiles/{profile_name}/ingest",
                             headers={"Authorization": f"Bearer {key}"},
                             json={"session_id": "s1", "messages": CONVERSATION})
        assert accepted.status_code == 202 and accepted.json()["mode"] == "queued"
        spooled = [json.loads(line) for line in spool.read_text().splitlines()]
        assert [e["content"] for e in spooled] == [m["content"] for m in CONVERSATION]
        assert http.get("/readyz").status_code == 503
        with redis_on(port, tmp_path) as client:
            assert app.state.sink.wait_drained(60)
            assert client.llen(EVENTS_QUEUE) == 2 and not spool.exists()
            assert http.get("/readyz").status_code == 200
        assert service.store.count(profile_name)["messages"] == 0  # a worker stores them
    finally:
        app.state.sink.close()
        configure(Settings(broker_url="memory://"))


@pytest.mark.parametrize("service", ["sqlite"], indirect=True)
def test_llm_tokens_and_errors_in_metrics(service, tmp_path, profile_name):
    """With an Anthropic key (a local Messages API server here), /metrics counts the tokens of
    every model call and the calls that failed; the API still answers through the fallbacks."""
    from memory.service import MemoryService
    from tests.fake_anthropic import Fail, FakeAnthropic

    failing = []
    with FakeAnthropic(lambda body: Fail(400, "bad request") if failing else
                       "We use 100 requests per minute.") as fake:
        config = api_settings(tmp_path, llm_max_retries=0).model_copy(update={
            "anthropic_api_key": "sk-test", "anthropic_base_url": fake.url})
        with MemoryService.from_settings(config, store=service.store,
                                         embedder=service.embedder) as llm_service:
            keys = tmp_path / "llm-keys.json"
            key = add_key(keys, "bot", [profile_name], ["read", "write"])
            http = TestClient(create_app(llm_service, KeyFile(keys), config))
            headers = {"Authorization": f"Bearer {key}"}
            assert http.post(f"/v1/profiles/{profile_name}/remember", headers=headers,
                             json={"content": "The rate limit is 100 per minute"}
                             ).status_code == 201
            calls = len(fake.requests)
            assert calls >= 1
            failing.append(True)
            recalled = http.post(f"/v1/profiles/{profile_name}/recall", headers=headers,
                                 json={"query": "what is the rate limit?"})
            assert recalled.status_code == 200, recalled.text
            text = http.get("/metrics").text
    tokens = float(re.search(r'^lurker_llm_tokens_total\{kind="input"\} (\S+)$', text,
                             re.M).group(1))
    errors = float(re.search(r"^lurker_llm_errors_total (\S+)$", text, re.M).group(1))
    assert tokens == 100 * calls  # the fake bills 100 input tokens a call
    # failed HTTP calls, plus replies that stayed invalid JSON after the repair round
    assert errors >= len(fake.requests) - calls >= 2


# Forget means the bot stops saying it (issue 12): ask, forget, ask again.
# --- REST API -------------------------------------------------------------------------------------
def test_api_forget_then_recall_export_and_listing(service, tmp_path, profile_name):
    rest = Api(service, tmp_path, profile_name)
    ingested = rest.call("POST", "/v1/profiles/{p}/ingest", json={
        "session_id": "2026-11-16",
        "messages": [{"author": "li", "content": STATEMENT, "ts": "2026-11-16T09:00:00Z"},
                     {"author": "maya", "content": "Deploys are on Tuesdays after standup.",
                      "ts": "2026-11-16T09:01:00Z"}]})
    assert ingested.status_code == 202, ingested.text

    def recall(query):
        response = rest.call("POST", "/v1/profiles/{p}/recall", key="reader",
                            json={"query": query})
        assert response.status_code == 200, response.text
        return response.text

    assert HOST in recall(QUESTION)
    listed = rest.call("GET", "/v1/profiles/{p}/memories", key="reader").json()["memories"]
    memory_id = next(m["id"] for m in listed if HOST in m["content"])
    gone = rest.call("DELETE", f"/v1/profiles/{{p}}/memories/{memory_id}", key="admin",
                    params={"reason": "moved to vault"})
    assert gone.status_code == 200 and gone.json()["status"] == "forgotten"
    for query in (QUESTION, "db-stage-7", "staging database migration"):
        assert HOST not in recall(query), query
    exported = rest.call("GET", "/v1/profiles/{p}/export", key="reader")
    assert exported.status_code == 200 and HOST not in exported.text
    assert "Tuesdays" in exported.text
    refused = rest.call("GET", "/v1/profiles/{p}/export", key="reader", params={"audit": "true"})
    assert refused.status_code == 403
    audit = rest.call("GET", "/v1/profiles/{p}/export", key="admin", params={"audit": "true"})
    assert audit.status_code == 200 and HOST in audit.text
    history = rest.call("GET", "/v1/profiles/{p}/memories", key="reader",
                       params={"status": "all"}).json()["memories"]
    forgotten = next(m for m in history if m["id"] == memory_id)
    assert forgotten["content"] == "[forgotten]" and HOST not in json.dumps(history)
    as_admin = rest.call("GET", "/v1/profiles/{p}/memories", key="admin",
                        params={"status": "all"}).json()["memories"]
    assert any(HOST in m["content"] for m in as_admin if m["id"] == memory_id)


def test_ingest_takes_reply_to_and_reads_a_reply_with_the_message_it_answers(api, service,
                                                                           profile_name):
    """Issue 12: a thread reply sent later, through the API, is read with its parent."""
    ingest = "/v1/profiles/{p}/ingest"
    first = api.call("POST", ingest, json={"session_id": "C1:2026-11-16", "messages": [
        {"content": "Who takes the December on-call?", "author": "maya",
         "ts": "2026-11-16T09:00:00Z", "external_id": "slack:T1:C1:100.1"},
        {"content": "Who reviews the billing webhooks PR?", "author": "li",
         "ts": "2026-11-16T09:05:00Z"}]})
    assert first.status_code == 202, first.text
    reply = api.call("POST", ingest, json={"session_id": "C1:thread:100.1", "messages": [
        {"content": "I'll take it for the first two weeks", "author": "bob",
         "ts": "2026-11-16T09:30:00Z", "reply_to": "slack:T1:C1:100.1"}]})
    assert reply.status_code == 202, reply.text
    (memory,) = [m for m in service.profile(profile_name).list() if "first two weeks" in m.content]
    assert first.json()["message_ids"][0] in memory.source_message_ids
    assert "Who takes the December on-call?" in memory.questions
    bad = api.call("POST", ingest, json={"session_id": "s", "messages": [
        {"content": "x y z", "reply_to": ""}]})
    assert bad.status_code == 422


def test_recall_put_to_an_agent_answers_what_did_you_recommend_from_its_words(api):
    """An agent writes into the profile through the API as `review-bot`; maya asks "what did
    you recommend …?" with `addressee`: the answer is the agent's recommendation, not her own
    questions about it (which answer it without an addressee). A blank addressee is a 422."""
    messages = [{"role": "user", "author": "maya (U1)", "ts": f"2026-11-16T08:{i:02d}:00Z",
                 "content": f"My rate limiter keeps failing when the retries burst ({what}), how "
                            f"should I handle the flow of requests in my app?"}
                for i, what in enumerate(("429s on login", "the export job", "the nightly sync",
                                          "the webhooks", "the search box", "mobile clients"))]
    messages += [{"role": "assistant", "author": "review-bot",
                  "ts": f"2026-11-16T09:{i:02d}:00Z",
                  "content": f"Review {i}: the {part} handler reads the request body twice; move "
                             f"the parsing into one helper."}
                 for i, part in enumerate(("login", "export"))]
    messages.append({"role": "assistant", "author": "review-bot", "ts": "2026-11-16T09:30:00Z",
                     "content": "I recommend a token bucket in front of the client: refill 10 "
                                "tokens a second, allow a burst of 20, back off with jitter."})
    accepted = api.call("POST", "/v1/profiles/{p}/ingest",
                        json={"session_id": "reviews", "messages": messages})
    assert accepted.status_code == 202, accepted.text
    question = {"query": "How did you recommend handling the flow of requests when my retries "
                         "burst?", "now": "2026-11-18T09:00:00", "asker": "maya (U1)"}
    put = api.call("POST", "/v1/profiles/{p}/recall", key="reader",
                   json={**question, "addressee": "review-bot"})
    assert put.status_code == 200, put.text
    assert put.json()["answer"].startswith("review-bot said: ") \
        and "token bucket" in put.json()["answer"]
    mine = api.call("POST", "/v1/profiles/{p}/recall", key="reader", json=question).json()
    assert "token bucket" not in mine["answer"].split(". ")[0]
    assert_error(api.call("POST", "/v1/profiles/{p}/recall", key="reader",
                          json={**question, "addressee": " " * 0}), 422, "invalid_request")


def test_recall_with_an_asker_answers_a_first_person_question_from_their_own_words(api):
    """`asker` in the body is who asks, as their messages' author: "have I ...?" is answered
    with what they said, among a colleague's long posts on the same thing; a blank asker is a
    clear 422, and without one the question is answered as before."""
    runbook = "The refund service deploy builds the image, then the canary, then promotes it. "
    messages = [{"author": "ravi", "content": f"Deploy report {i}: " + runbook * 8,
                 "ts": f"2026-11-16T08:{i:02d}:00Z"} for i in range(10)]
    messages.append({"author": "maya (U1)", "ts": "2026-11-16T09:00:00Z",
                     "content": "I've never deployed the refund service on my own, can you "
                                "walk me through it?"})
    accepted = api.call("POST", "/v1/profiles/{p}/ingest",
                        json={"session_id": "deploys", "messages": messages})
    assert accepted.status_code == 202, accepted.text
    hers = accepted.json()["message_ids"][-1]
    question = {"query": "have I ever deployed the refund service myself?",
                "now": "2026-11-18T09:00:00"}
    asked = api.call("POST", "/v1/profiles/{p}/recall", key="reader",
                     json={**question, "asker": "maya (U1)"})
    assert asked.status_code == 200, asked.text
    body = asked.json()
    assert body["answer"].startswith("You said: \"I've never deployed the refund service")
    assert body["messages"][0]["id"] == hers
    assert {"asker_text", "asker_vector"} <= set(body["messages"][0]["channels"])
    plain = api.call("POST", "/v1/profiles/{p}/recall", key="reader", json=question).json()
    assert not plain["answer"].startswith("You said")
    assert_error(api.call("POST", "/v1/profiles/{p}/recall", key="reader",
                          json={**question, "asker": ""}), 422, "invalid_request")
