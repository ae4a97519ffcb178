"""Elasticsearch-specific behaviour of memory.stores.elasticsearch, against the real cluster that
the harness starts (the store contract itself is tests/test_store_contract.py)."""
from __future__ import annotations

import contextlib
import socket
import time
import uuid
from datetime import date, datetime, timedelta, timezone

import numpy as np
import pytest

import memory.stores.elasticsearch as es_module
from memory.errors import EmbeddingMismatch, LurkerError, StoreUnavailable
from memory.ids import memory_id, message_id
from memory.models import Memory, Message
from memory.stores.base import (
    CH_HYDE,
    CH_MEMORY_TEXT,
    CH_MESSAGE_TEXT,
    CH_PASSAGE_TEXT,
    CH_SESSION_TEXT,
    CH_TOPIC,
    CH_VECTOR,
    CHANNELS,
    EmbeddingSpec,
    SearchRequest,
)
from memory.stores.elasticsearch import ElasticsearchStore

pytestmark = pytest.mark.elasticsearch

SPEC = EmbeddingSpec("es-test-vectors", 16)
T0 = datetime(2024, 5, 1, 12, 0, tzinfo=timezone.utc)


def unit(n: int, seed: int = 0, dim: int = SPEC.dim) -> np.ndarray:
    v = np.random.default_rng(seed).standard_normal((n, dim)).astype(np.float32)
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def msg(content: str, seq: int = 0, session: str = "s1", ts: datetime | None = None) -> Message:
    return Message(id=message_id(session, "user", content), session_id=session, role="user",
                   author="ana", content=content, ts=ts or T0 + timedelta(minutes=seq), seq=seq)


def mem(content: str, type_: str = "fact", topic: str | None = None, minutes: int = 0,
        status: str = "active") -> Memory:
    return Memory(id=memory_id(type_, content, []), type=type_, content=content, topic_key=topic,
                  questions=[], created_at=T0 + timedelta(minutes=minutes), status=status)


def make_store(es_server, prefix: str, **kwargs) -> ElasticsearchStore:
    return ElasticsearchStore(es_server.url, user=es_server.user, password=es_server.password,
                              index_prefix=prefix, **kwargs)


def drop(store: ElasticsearchStore) -> None:
    """Remove what a store created (its two indices and templates)."""
    client = store.client.options(ignore_status=404)
    client.indices.delete(index=f"{store.messages_index},{store.memories_index}")
    for name in (store.messages_alias, store.memories_alias):
        client.indices.delete_index_template(name=name)


@pytest.fixture(scope="module")
def prefix() -> str:
    return f"lurker-estest-{uuid.uuid4().hex[:8]}"


@pytest.fixture(scope="module")
def store(es_server, prefix):
    s = make_store(es_server, prefix)
    s.open(SPEC)
    yield s
    drop(s)
    s.close()


@pytest.fixture
def profile() -> str:
    return f"p:{uuid.uuid4().hex[:10]}"


@contextlib.contextmanager
def http_requests(store: ElasticsearchStore):
    """Record every HTTP request the store's client sends (at the connection level, so retries and
    helper-made requests count too); responses are the real cluster's."""
    calls: list[tuple[str, str]] = []
    nodes = store.client.transport.node_pool.all()
    for node in nodes:
        original = node.perform_request

        def recording(method, target, *args, _original=original, **kwargs):
            calls.append((method, target))
            return _original(method, target, *args, **kwargs)

        node.perform_request = recording
    try:
        yield calls
    finally:
        for node in nodes:
            del node.perform_request


# --- schema -------------------------------------------------------------------------------------
def test_templates_aliases_and_meta(store, prefix):
    client = store.client
    for kind in ("messages", "memories"):
        alias, index = f"{prefix}-{kind}", f"{prefix}-{kind}-v1"
        template = client.indices.get_index_template(name=alias)["index_templates"][0]
        assert template["index_template"]["index_patterns"] == [index]
        assert alias in template["index_template"]["template"]["aliases"]
        assert list(client.indices.get_alias(name=alias)) == [index]
        mapping = client.indices.get_mapping(index=alias)[index]["mappings"]
        assert mapping["_meta"] == {"schema_version": 1, "embedding_model": SPEC.name,
                                    "embedding_dims": SPEC.dim}
        assert mapping["properties"]["profile"]["type"] == "keyword"
        assert mapping["properties"]["stems"]["type"] == "text"
        settings = client.indices.get_settings(index=index)[index]["settings"]["index"]
        assert (settings["number_of_shards"], settings["number_of_replicas"]) == ("1", "0")
    vector = client.indices.get_mapping(index=f"{prefix}-memories")[f"{prefix}-memories-v1"][
        "mappings"]["properties"]["embedding"]
    assert (vector["type"], vector["dims"], vector["similarity"]) == ("dense_vector", 16, "cosine")


def test_open_is_idempotent_and_mismatch_names_both(es_server, store, prefix):
    again = make_store(es_server, prefix)
    again.open(SPEC)  # same spec: fine, nothing recreated
    for other in (EmbeddingSpec("another-model", SPEC.dim), EmbeddingSpec(SPEC.name, 32)):
        with pytest.raises(EmbeddingMismatch) as info:
            again.open(other)
        text = str(info.value)
        assert SPEC.name in text and other.name in text and "reindex" in text
        assert f"({other.dim} dims)" in text and f"({SPEC.dim} dims)" in text
    # the refused open changed nothing
    mapping = store.client.indices.get_mapping(index=f"{prefix}-memories")
    assert mapping[f"{prefix}-memories-v1"]["mappings"]["_meta"]["embedding_model"] == SPEC.name
    again.close()


def test_invalid_settings_are_refused(es_server):
    with pytest.raises(LurkerError, match="index prefix"):
        make_store(es_server, "Has Upper/Slash")
    with pytest.raises(LurkerError, match="refresh"):
        make_store(es_server, "lurker-x", refresh="sometimes")


# --- errors -------------------------------------------------------------------------------------
def test_unreachable_url_is_store_unavailable_naming_the_url():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # nothing listens once the socket is closed
    url = f"http://127.0.0.1:{port}"
    store = ElasticsearchStore(url, user="elastic", password="x")
    started = time.monotonic()
    with pytest.raises(StoreUnavailable) as info:
        store.open(SPEC)
    assert time.monotonic() - started < 10
    message = str(info.value)
    assert url in message and "unreachable" in message and "\n" not in message
    assert len(message) < 200
    with pytest.raises(StoreUnavailable):  # every call, not just open
        store.count("p")


def test_wrong_password_says_credentials_were_rejected(es_server, prefix):
    store = ElasticsearchStore(es_server.url, user=es_server.user, password="wrong-password",
                               index_prefix=prefix)
    with pytest.raises(StoreUnavailable) as info:
        store.open(SPEC)
    assert "rejected the credentials" in str(info.value) and es_server.url in str(info.value)
    assert "wrong-password" not in str(info.value)


def test_password_in_url_is_not_repeated_in_errors():
    store = ElasticsearchStore("http://elastic:s3cret@127.0.0.1:1")
    assert store.location == "http://elastic:***@127.0.0.1:1"
    with pytest.raises(StoreUnavailable) as info:
        store.count("p")
    assert "s3cret" not in str(info.value)


# --- one round trip -----------------------------------------------------------------------------
def test_full_search_is_one_msearch_request(store, profile):
    memories = [mem("the deploy runs nightly", topic="deploy schedule"), mem("lunch at noon")]
    store.upsert_memories(profile, memories)
    store.set_vectors(profile, dict(zip([m.id for m in memories], unit(2))))
    store.insert_messages(profile, [msg("who runs the deploy?")])
    request = SearchRequest(text="when does the deploy run", topic_keys=["deploy schedule"],
                            query_vector=unit(1, seed=1)[0], hyde_vector=unit(1, seed=2)[0], k=5,
                            askers=("ana",), span=(date(2024, 5, 1), date(2024, 5, 1)))
    with http_requests(store) as calls:
        hits = store.search(profile, request)
    assert len(calls) == 1 and calls[0][0] == "POST" and calls[0][1].startswith("/_msearch")
    assert set(hits) == set(CHANNELS)  # the asker's channels and the date channel too
    assert [h.id for h in hits[CH_TOPIC]] == [memories[0].id]
    assert hits[CH_MEMORY_TEXT][0].id == memories[0].id
    assert [h.record.content for h in hits[CH_MESSAGE_TEXT]] == ["who runs the deploy?"]
    assert {h.id for h in hits[CH_VECTOR]} == {h.id for h in hits[CH_HYDE]} == {
        m.id for m in memories}
    for channel in (CH_VECTOR, CH_HYDE):  # scores are cosines, like the SQLite store's
        vector = request.query_vector if channel == CH_VECTOR else request.hyde_vector
        expected = {m.id: float(v @ vector) for m, v in zip(memories, unit(2))}
        for hit in hits[channel]:
            assert hit.score == pytest.approx(expected[hit.id], abs=1e-4)

    # channels without input send nothing, and nothing at all when no channel has input
    with http_requests(store) as calls:
        hits = store.search(profile, SearchRequest(text="the of and", k=5))
    assert calls == [] and set(hits) == {CH_TOPIC, CH_MEMORY_TEXT, CH_MESSAGE_TEXT,
                                         CH_PASSAGE_TEXT, CH_SESSION_TEXT}
    assert all(h == [] for h in hits.values())


def test_a_session_document_names_only_messages_already_stored(store, profile):
    """New messages and their session's document are two bulk requests, the messages first. In one
    request the two indices are written in parallel, so the document could name a message not yet
    stored, and a rebuild racing it (another writer's, a delete's) dropped that message for good:
    8 writers on one session lost a message's words about 1 run in 40."""
    import json

    bulks: list[list[str]] = []
    nodes = store.client.transport.node_pool.all()
    for node in nodes:
        original = node.perform_request

        def recording(method, target, *args, _original=original, **kwargs):
            if target.split("?")[0].endswith("/_bulk"):
                lines = [json.loads(x) for x in bytes(kwargs.get("body") or b"").splitlines() if x]
                bulks.append(sorted({next(iter(x.values()))["_index"] for x in lines
                                     if len(x) == 1 and next(iter(x)) in ("create", "index",
                                                                          "update", "delete")}))
            return _original(method, target, *args, **kwargs)

        node.perform_request = recording
    try:
        store.insert_messages(profile, [msg("the deploy broke checkout", 0, "incident"),
                                        msg("we rolled back", 1, "incident")])
    finally:
        for node in nodes:
            del node.perform_request
    assert bulks == [[store.messages_alias], [store.sessions_alias]], bulks


def test_records_carry_no_internal_fields(store, profile):
    m = mem("records are plain models")
    store.upsert_memories(profile, [m])
    store.set_vectors(profile, {m.id: unit(1)[0]})
    hit = store.search(profile, SearchRequest(text="records", query_vector=unit(1)[0],
                                              channels=(CH_MEMORY_TEXT, CH_VECTOR)))
    assert hit[CH_MEMORY_TEXT][0].record == m == hit[CH_VECTOR][0].record
    assert store.get_memories(profile, [m.id]) == [m]


# --- profiles, stemming, vectors -----------------------------------------------------------------
def test_two_profiles_with_the_same_message_id_stay_separate(store, profile):
    other = profile + "-b"
    shared = msg("the launch is on june 3")
    assert store.insert_messages(profile, [shared]) == {shared.id}
    assert store.insert_messages(other, [shared.model_copy(update={"author": "bo"})]) == {shared.id}
    raw = store.client.get(index=store.messages_alias, id=f"{other}/{shared.id}", routing=other)
    assert raw["_source"]["profile"] == other and raw["_source"]["author"] == "bo"
    assert store.get_messages(profile, [shared.id])[0].author == "ana"
    assert store.get_messages(other, [shared.id])[0].author == "bo"
    store.delete_profile(other)
    assert store.get_messages(other, [shared.id]) == []
    assert store.get_messages(profile, [shared.id]) == [shared]
    assert store.count(profile)["messages"] == 1


def test_stemming_is_done_client_side(store, profile):
    runs = msg("Maya runs the deploy scripts")
    store.insert_messages(profile, [runs, msg("nothing to see here", 1)])
    store.upsert_memories(profile, [mem("the cron job runs hourly"), mem("coffee is free")])
    hits = store.search(profile, SearchRequest(text="running", channels=(CH_MEMORY_TEXT,
                                                                         CH_MESSAGE_TEXT)))
    assert [h.record.content for h in hits[CH_MESSAGE_TEXT]] == [runs.content]
    assert [h.record.content for h in hits[CH_MEMORY_TEXT]] == ["the cron job runs hourly"]
    raw = store.client.get(index=store.messages_alias, id=f"{profile}/{runs.id}", routing=profile)
    assert raw["_source"]["stems"] == "maya run deploy script"


def test_upsert_keeps_the_vector_of_an_active_memory_and_drops_it_otherwise(store, profile):
    m = mem("vectors survive updates")
    store.upsert_memories(profile, [m])
    store.set_vectors(profile, {m.id: unit(1)[0], "no-such-memory": unit(1)[0]})
    assert store.vector_ids(profile) == {m.id}  # unknown ids attach nothing
    store.upsert_memories(profile, [m.model_copy(update={"questions": ["what survives?"]})])
    assert store.vector_ids(profile) == {m.id}
    store.upsert_memories(profile, [m.model_copy(update={"status": "superseded"})])
    assert store.vector_ids(profile) == set()
    assert store.count(profile) == {"messages": 0, "memories": 1, "vectors": 0}


def test_delete_vectors_removes_the_field(store, profile):
    m = mem("soon without a vector")
    store.upsert_memories(profile, [m])
    store.set_vectors(profile, {m.id: unit(1)[0]})
    store.delete_vectors(profile, [m.id, "unknown-id"])
    raw = store.client.get(index=store.memories_alias, id=f"{profile}/{m.id}", routing=profile)
    assert raw["_source"].get("embedding") is None
    hits = store.search(profile, SearchRequest(text="", query_vector=unit(1)[0],
                                               channels=(CH_VECTOR,)))
    assert hits[CH_VECTOR] == [] and store.vector_ids(profile) == set()
    assert store.get_memories(profile, [m.id]) == [m]  # the record itself stays


def test_wrong_vector_dimension_is_a_clear_error(store, profile):
    m = mem("sixteen dimensions only")
    store.upsert_memories(profile, [m])
    with pytest.raises(ValueError, match="8 dimensions"):
        store.set_vectors(profile, {m.id: unit(1, dim=8)[0]})


# --- ordering and paging -------------------------------------------------------------------------
def test_iter_messages_pages_in_order_to_the_microsecond(store, profile, monkeypatch):
    monkeypatch.setattr(es_module, "PAGE", 7)  # many pages with few documents
    base = T0 + timedelta(milliseconds=5)
    messages = [msg(f"same instant {i}", seq=i, session=f"s{i % 3}", ts=base) for i in range(20)]
    messages += [msg("a microsecond later", ts=base + timedelta(microseconds=1)),
                 msg("a microsecond earlier", ts=base - timedelta(microseconds=1))]
    assert len(store.insert_messages(profile, messages)) == 22
    expected = sorted(messages, key=lambda m: (m.ts, m.session_id, m.seq))
    assert [m.id for m in store.iter_messages(profile)] == [m.id for m in expected]


def test_list_memories_limit_offset_beyond_one_page(store, profile, monkeypatch):
    monkeypatch.setattr(es_module, "PAGE", 4)
    monkeypatch.setattr(es_module, "MAX_WINDOW", 6)  # force the search_after path
    memories = [mem(f"memory {i:02d}", minutes=i // 2) for i in range(15)]
    store.upsert_memories(profile, list(reversed(memories)))
    ordered = [m.id for m in sorted(memories, key=lambda m: (m.created_at, m.id))]
    assert [m.id for m in store.list_memories(profile)] == ordered
    assert [m.id for m in store.list_memories(profile, limit=5, offset=3)] == ordered[3:8]
    assert [m.id for m in store.list_memories(profile, limit=2, offset=1)] == ordered[1:3]
    assert [m.id for m in store.list_memories(profile, offset=13)] == ordered[13:]
    assert store.list_memories(profile, limit=0) == []


def test_delete_profile_removes_everything(store, profile, monkeypatch):
    monkeypatch.setattr(es_module, "PAGE", 5)
    store.insert_messages(profile, [msg(f"message {i}", seq=i) for i in range(12)])
    store.upsert_memories(profile, [mem(f"memory {i}") for i in range(8)])
    store.delete_profile(profile)
    assert store.count(profile) == {"messages": 0, "memories": 0, "vectors": 0}


def test_refresh_false_is_accepted(es_server, store, prefix, profile):
    lazy = make_store(es_server, prefix, refresh="false")
    lazy.open(SPEC)
    m = msg("eventually visible")
    assert lazy.insert_messages(profile, [m]) == {m.id}
    assert lazy.get_messages(profile, [m.id]) == [m]  # realtime get needs no refresh
    lazy.close()


def test_a_pasted_page_as_query_is_capped(store, profile):
    store.upsert_memories(profile, [mem("word1234 appears here")])
    text = " ".join(f"word{i}" for i in range(5000)) + " word1234"
    hits = store.search(profile, SearchRequest(text=text, channels=(CH_MEMORY_TEXT,
                                                                    CH_MESSAGE_TEXT)))
    assert hits[CH_MESSAGE_TEXT] == []  # no error; only the first terms are searched


def test_open_adds_new_fields_to_an_existing_index(es_server, monkeypatch):
    """An index made before messages had `external_id` gets the field on the next open (the
    schema version stays 1); fields already mapped are left alone."""
    old = make_store(es_server, f"lurker-estest-{uuid.uuid4().hex[:8]}")
    original = ElasticsearchStore._messages_mapping

    def without_external_id(self, spec):
        mapping = original(self, spec)
        del mapping["properties"]["external_id"]
        return mapping

    monkeypatch.setattr(ElasticsearchStore, "_messages_mapping", without_external_id)
    try:
        old.open(SPEC)
        properties = old.client.indices.get_mapping(index=old.messages_alias)[
            old.messages_index]["mappings"]["properties"]
        assert "external_id" not in properties
        monkeypatch.undo()
        new = make_store(es_server, old.prefix)
        new.open(SPEC)
        mappings = new.client.indices.get_mapping(index=new.messages_alias)[
            new.messages_index]["mappings"]
        assert mappings["properties"]["external_id"] == {"type": "keyword", "ignore_above": 8191}
        assert mappings["_meta"]["schema_version"] == 1
        tagged = msg("tagged after the upgrade").model_copy(update={"external_id": "slack:C1:7"})
        new.insert_messages("p", [tagged])
        assert new.find_messages_by_external_id("p", ["slack:C1:7"]) == {"slack:C1:7": tagged}
        new.close()
    finally:
        drop(old)
        old.close()


def test_deferred_refresh_refreshes_once_and_keeps_read_your_writes(store, monkeypatch):
    """The workers' batch mode: writes skip the refresh, a read of a profile written since the
    last refresh refreshes first, and leaving the block refreshes what is left, once."""
    refreshes, bulk_refresh = [], []
    real_refresh = store.client.indices.refresh
    monkeypatch.setattr(store.client.indices, "refresh",
                        lambda **kw: refreshes.append(kw) or real_refresh(**kw))
    real_bulk = es_module.helpers.streaming_bulk

    def spy_bulk(client, actions, **kw):
        bulk_refresh.append(kw.get("refresh"))
        return real_bulk(client, actions, **kw)
    monkeypatch.setattr(es_module.helpers, "streaming_bulk", spy_bulk)
    a, b = f"defer-a-{uuid.uuid4().hex[:6]}", f"defer-b-{uuid.uuid4().hex[:6]}"
    with store.deferred_refresh():
        store.insert_messages(a, [msg("alpha one")])
        store.insert_messages(b, [msg("beta one")])
        store.upsert_memories(b, [mem("beta fact", topic="beta key")])
        assert refreshes == [] and set(bulk_refresh) == {"false"}
        assert set(store.active_by_topic(b, ["beta key"])) == {"beta key"}  # its own writes
        assert len(refreshes) == 1
        store.insert_messages(a, [msg("alpha two", seq=1)])
        assert [m.content for m in store.iter_messages(b)] == ["beta one"]  # b clean: no refresh
        assert len(refreshes) == 1
    assert len(refreshes) == 2  # leaving: once, for what a wrote since
    assert [m.content for m in store.iter_messages(a)] == ["alpha one", "alpha two"]
    store.insert_messages(a, [msg("alpha three", seq=2)])
    assert bulk_refresh[-1] == "true"  # outside the block, as configured

    with pytest.raises(RuntimeError), store.deferred_refresh():
        store.insert_messages(a, [msg("alpha four", seq=3)])
        raise RuntimeError("the batch failed")
    assert len(refreshes) == 3  # what was written is still made searchable
    assert len(list(store.iter_messages(a))) == 4


def test_event_dates_reach_an_index_made_before_them(es_server, monkeypatch):
    """Memories gained event dates (what they are about, apart from when they were said) as a
    compatible mapping change: an index made without the field gets it on the next open (the
    schema version stays 1), new memories are searchable by event date, and a memory written by
    the older release (labels in `dates` only) reads back with its event dates."""
    from datetime import date

    from memory.models import EventDate

    old = make_store(es_server, f"lurker-estest-{uuid.uuid4().hex[:8]}")
    original = ElasticsearchStore._memories_mapping

    def without_event_dates(self, spec):
        mapping = original(self, spec)
        del mapping["properties"]["event_dates"]
        return mapping

    monkeypatch.setattr(ElasticsearchStore, "_memories_mapping", without_event_dates)
    try:
        old.open(SPEC)
        legacy = mem("We shipped it yesterday [2024-04-30]", type_="event")
        source = {**legacy.model_dump(mode="json", exclude={"event_dates"}),
                  "dates": ["2024-04-30"], "profile": "p", "stems": "ship yesterday",
                  "created_key": "k"}
        source.pop("event_dates", None)
        old.client.index(index=old.memories_alias, id=old._doc_id("p", legacy.id),
                         routing="p", document=source, refresh=True)
        monkeypatch.undo()
        new = make_store(es_server, old.prefix)
        new.open(SPEC)
        mappings = new.client.indices.get_mapping(index=new.memories_alias)[
            new.memories_index]["mappings"]
        assert mappings["properties"]["event_dates"]["properties"]["start"] == {
            "type": "date", "format": "strict_date"}
        assert mappings["_meta"]["schema_version"] == 1
        read = new.get_memories("p", [legacy.id])[0]
        assert [(e.start, e.end) for e in read.event_dates] == [(date(2024, 4, 30),) * 2]
        review = mem("The launch review is on June 3 [2024-06-03]", type_="event").model_copy(
            update={"event_dates": [EventDate(phrase="June 3", start=date(2024, 6, 3),
                                              end=date(2024, 6, 3))], "dates": ["2024-06-03"]})
        new.upsert_memories("p", [review])
        assert new.get_memories("p", [review.id])[0] == review
        hits = new.client.search(index=new.memories_alias, routing="p", query={
            "range": {"event_dates.start": {"gte": "2024-06-01", "lte": "2024-06-30"}}})
        assert [h["_source"]["id"] for h in hits["hits"]["hits"]] == [review.id]
        message = msg("in California").model_copy(update={"utc_offset_minutes": -480})
        new.insert_messages("p", [message])
        assert new.get_messages("p", [message.id]) == [message]
        new.close()
    finally:
        drop(old)
        old.close()


def test_vectors_travel_packed_where_every_node_reads_them(es_server, store, profile,
                                                          monkeypatch):
    """Since 9.3 a document's vector may be base64 of big-endian float32, since 9.4 a kNN query's
    too: JSON arrays of floats cost the client and the cluster several times the CPU (README,
    "Benchmarks"). Packed and unpacked vectors find the same memories with the same cosines, and
    a cluster with one older node, or one that will not say its nodes' versions, gets arrays."""
    import base64
    import json

    assert store.packed_vectors and store.packed_query_vectors  # the harness runs 9.5.3
    memories = [mem(f"packed vector {i}") for i in range(3)]
    store.upsert_memories(profile, memories)
    vectors = unit(3, seed=7)
    bodies: list[bytes] = []
    nodes = store.client.transport.node_pool.all()
    for node in nodes:
        def recording(method, target, *args, _original=node.perform_request, **kwargs):
            bodies.append(kwargs.get("body") or b"")
            return _original(method, target, *args, **kwargs)
        monkeypatch.setattr(node, "perform_request", recording)
    store.set_vectors(profile, {m.id: v for m, v in zip(memories, vectors)})
    query = SearchRequest(text="packed", query_vector=unit(1, seed=8)[0], k=3)
    packed_hits = store.search(profile, query)[CH_VECTOR]
    sent = b"".join(bodies).decode()
    docs = [json.loads(line)["doc"]["embedding"] for line in sent.splitlines()
            if '"doc"' in line]
    assert len(docs) == 3 and all(isinstance(d, str) for d in docs)
    assert np.allclose(np.frombuffer(base64.b64decode(docs[0]), dtype=">f4"), vectors[0])
    assert '"query_vector":"' in sent.replace(" ", "")

    expected = {m.id: float(v @ query.query_vector) for m, v in zip(memories, vectors)}
    assert {h.id: round(h.score, 4) for h in packed_hits} == {
        i: round(s, 4) for i, s in expected.items()}
    store.packed_vectors = store.packed_query_vectors = False  # as to a 9.2 cluster
    try:
        store.set_vectors(profile, {m.id: v for m, v in zip(memories, vectors)})
        unpacked_hits = store.search(profile, query)[CH_VECTOR]
    finally:
        store.packed_vectors = store.packed_query_vectors = True
    assert [(h.id, round(h.score, 4)) for h in unpacked_hits] == [
        (h.id, round(h.score, 4)) for h in packed_hits]

    mixed = make_store(es_server, store.prefix)
    monkeypatch.setattr(mixed.client.nodes, "info", lambda **kw: type("R", (), {"body": {
        "nodes": {"a": {"version": "9.5.3"}, "b": {"version": "9.2.0"}}}})())
    mixed.open(SPEC)
    assert not mixed.packed_vectors and not mixed.packed_query_vectors

    def refuse(**kw):
        from elastic_transport import ApiResponseMeta, HttpHeaders, NodeConfig

        meta = ApiResponseMeta(403, "1.1", HttpHeaders(), 0.0, NodeConfig("http", "localhost", 9200))
        raise es_module.AuthorizationException(
            "action [cluster:monitor/nodes/info] is unauthorized", meta, {})
    monkeypatch.setattr(mixed.client.nodes, "info", refuse)
    mixed.open(SPEC)
    assert not mixed.packed_vectors
    mixed.close()
