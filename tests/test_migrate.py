"""`lurker migrate` against the real Elasticsearch: reindex behind the alias while reads and writes
go on, with the store's own code on both sides of the swap."""
from __future__ import annotations

import itertools
import json
import threading
import time
import uuid
from datetime import datetime, timedelta, timezone

import numpy as np
import pytest

import memory.stores.elasticsearch as es_module
from memory.embeddings import Embedder
from memory.errors import EmbeddingMismatch, StoreUnavailable
from memory.ids import memory_id, message_id
from memory.models import Memory, Message
from memory.stores.base import CH_MEMORY_TEXT, CH_VECTOR, EmbeddingSpec, SearchRequest
from memory.stores.elasticsearch import ElasticsearchStore, SchemaOutdated
from memory.stores.elasticsearch import migrate_indices as migrate
from memory.stores.elasticsearch import plan_migration as plan
from memory.surfaces.cli import main

T0 = datetime(2025, 3, 1, 9, 0, tzinfo=timezone.utc)
OLD_SPEC = EmbeddingSpec("old-test-model", 8)


class HashEmbedder(Embedder):
    """A deterministic stand-in model of another name and dimension (the new model in a model
    change); the migration must call it for exactly the embeddable memories."""

    def __init__(self, name: str = "new-test-model", dim: int = 24):
        self.name, self.dim, self.calls = name, dim, []

    def embed(self, texts: list[str]) -> np.ndarray:
        self.calls += texts
        out = np.zeros((len(texts), self.dim), np.float32)
        for row, text in enumerate(texts):
            rng = np.random.default_rng(abs(hash(text)) % 2**32)
            out[row] = rng.standard_normal(self.dim)
        return out / np.linalg.norm(out, axis=1, keepdims=True)


def make_store(es_server, prefix: str) -> ElasticsearchStore:
    return ElasticsearchStore(es_server.url, user=es_server.user, password=es_server.password,
                              index_prefix=prefix)


def msg(content: str, seq: int) -> Message:
    return Message(id=message_id("s1", "user", content), session_id="s1", role="user",
                   author="ana", content=content, ts=T0 + timedelta(minutes=seq), seq=seq)


def mem(content: str, minutes: int, type_: str = "fact", status: str = "active") -> Memory:
    return Memory(id=memory_id(type_, content, []), type=type_, content=content,
                  questions=[f"what about {content.split()[1]}?"],
                  created_at=T0 + timedelta(minutes=minutes), status=status)


@pytest.fixture
def prefix(es_server):
    name = f"lurker-migtest-{uuid.uuid4().hex[:8]}"
    yield name
    cleanup = make_store(es_server, name)
    client = cleanup.client.options(ignore_status=404)
    client.indices.delete(index=f"{name}-*", expand_wildcards="all")
    client.indices.delete_index_template(name=f"{name}-*")
    cleanup.close()


def seed(store: ElasticsearchStore, profile: str, n: int = 30) -> list[Memory]:
    """n messages and n memories (a task and a forgotten one among them, which get no vector)."""
    store.insert_messages(profile, [msg(f"message number {i} about deploys", i) for i in range(n)])
    memories = [mem(f"memory {i} says the deploy window is {i} minutes", i) for i in range(n - 2)]
    memories += [mem("ticket 7 must be closed by Friday", n, type_="task"),
                 mem("the old proxy is retired", n + 1, status="forgotten")]
    store.upsert_memories(profile, memories)
    rng = np.random.default_rng(1)
    vectors = rng.standard_normal((n, OLD_SPEC.dim)).astype(np.float32)
    store.set_vectors(profile, {m.id: v for m, v in zip(memories, vectors) if m.embeddable})
    return memories


def test_model_change_reindexes_behind_the_alias_while_reads_and_writes_go_on(es_server, prefix):
    old = make_store(es_server, prefix)
    old.open(OLD_SPEC)
    profile = "slack:T1:C1"
    memories = seed(old, profile)
    old_memories_index = old.live_index(old.memories_alias)
    old_messages_index = old.live_index(old.messages_alias)

    new_model = HashEmbedder()
    with pytest.raises(EmbeddingMismatch, match="lurker migrate"):
        make_store(es_server, prefix).open(new_model.spec)

    seen_phases: list[tuple[str, str]] = []
    expected_active = {m.id for m in memories if m.status == "active"}
    late = mem("memory late says the freeze starts Monday", 100)

    def during(alias: str, phase: str) -> None:
        seen_phases.append((alias, phase))
        # Reads through the alias (by a pod still on the old release) work at every phase.
        assert {m.id for m in old.list_memories(profile)} == expected_active, phase
        hits = old.search(profile, SearchRequest("deploy window", k=5,
                                                 channels=(CH_MEMORY_TEXT,)))[CH_MEMORY_TEXT]
        assert hits, phase
        if alias != old.memories_alias:
            return
        if phase == "copied":  # written after the copy: the catch-up must carry these over
            old.upsert_memories(profile, [late])
            old.upsert_memories(profile, [memories[0].model_copy(update={
                "status": "forgotten", "forgotten_reason": "wrong", "forgotten_at": T0})])
            old.delete_vectors(profile, [memories[0].id])
            expected_active.symmetric_difference_update({late.id, memories[0].id})
        if phase == "write-blocked":  # writers are told to retry, nothing is half-written
            with pytest.raises(StoreUnavailable, match="write-blocked"):
                old.upsert_memories(profile, [mem("memory blocked is refused", 101)])

    steps = migrate(make_store(es_server, prefix), new_model, on_phase=during)

    by_alias = {s.alias: s for s in steps}
    memories_step = by_alias[old.memories_alias]
    assert memories_step.action == "reindex" and memories_step.new_embedding
    assert memories_step.new_index == f"{old.memories_alias}-v2"
    assert memories_step.documents == len(memories) + 1
    messages_step = by_alias[old.messages_alias]  # passage vectors: re-embedded too
    assert messages_step.action == "reindex" and messages_step.new_embedding
    # conversation documents hold no vectors: a model change leaves them where they are
    assert by_alias[old.sessions_alias].action == "update"
    assert [p for a, p in seen_phases if a == old.memories_alias] == [
        "copied", "caught-up", "write-blocked", "swapped"]

    # The alias points at the new generation, the old one is gone, the template follows.
    client = old.client
    assert list(client.indices.get_alias(name=old.memories_alias).body) == [
        f"{old.memories_alias}-v2"]
    assert not client.indices.exists(index=old_memories_index)
    assert not client.indices.exists(index=old_messages_index)
    template = client.indices.get_index_template(name=old.memories_alias)["index_templates"][0]
    assert template["index_template"]["index_patterns"] == [f"{old.memories_alias}-v2"]

    # The new release opens it and reads everything, vectors from the new model included.
    new = make_store(es_server, prefix)
    new.open(new_model.spec)
    assert new.memories_index == f"{old.memories_alias}-v2"
    active = {m.id for m in new.list_memories(profile)}
    assert late.id in active and memories[0].id not in active
    assert len(list(new.iter_messages(profile))) == 30
    # every message's passages were embedded by the new model (also those stored without)
    assert new.passage_vector_ids(profile) == {m.id for m in new.iter_messages(profile)}
    embeddable = {m.id for m in new.list_memories(profile, include_inactive=True) if m.embeddable}
    assert new.vector_ids(profile) == embeddable
    assert len(embeddable) == len(memories) - 3 + 1  # minus task, forgotten, forgotten later
    query = new_model.embed([f"what about {late.content.split()[1]}?\n{late.content}"])[0]
    hits = new.search(profile, SearchRequest("freeze", query_vector=query, k=3,
                                             channels=(CH_VECTOR,)))[CH_VECTOR]
    assert hits[0].id == late.id and hits[0].score == pytest.approx(1.0, abs=1e-4)
    # Writes after the swap land in the new index.
    after = mem("memory after says rollbacks need two approvals", 200)
    new.upsert_memories(profile, [after])
    assert new.get_memories(profile, [after.id]) == [after]

    # Idempotent: a second run changes nothing and embeds nothing.
    calls = len(new_model.calls)
    again = migrate(make_store(es_server, prefix), new_model)
    assert [s.action for s in again] == ["update", "update", "update"]
    assert len(new_model.calls) == calls
    assert list(client.indices.get_alias(name=old.memories_alias).body) == [
        f"{old.memories_alias}-v2"]
    old.close()
    new.close()


def test_schema_version_bump_copies_vectors_and_a_failed_run_leaves_the_old_index_live(
        es_server, prefix, monkeypatch):
    store = make_store(es_server, prefix)
    store.open(OLD_SPEC)
    profile = "team-backend"
    memories = seed(store, profile, n=12)
    before = {m.id: m for m in store.list_memories(profile, include_inactive=True)}
    vectors_before = store.vector_ids(profile)

    monkeypatch.setattr(es_module, "SCHEMA_VERSION", 2)
    with pytest.raises(SchemaOutdated, match="lurker migrate"):
        make_store(es_server, prefix).open(OLD_SPEC)
    # the conversation documents (session_text) move with the schema too
    assert [s.action for s in plan(store, OLD_SPEC)] == ["reindex", "reindex", "reindex"]

    # A run that dies after blocking writes: the old index stays live and writable.
    def crash(alias: str, phase: str) -> None:
        if phase == "write-blocked":
            raise RuntimeError("killed")

    with pytest.raises(RuntimeError):
        migrate(make_store(es_server, prefix), HashEmbedder(OLD_SPEC.name, OLD_SPEC.dim),
                on_phase=crash)
    assert store.live_index(store.messages_alias).endswith("-v1")
    assert not store.client.indices.exists(index=f"{store.messages_alias}-v2")
    store.insert_messages(profile, [msg("written after the failed run", 99)])

    # Meanwhile a writer keeps inserting messages (retrying while writes are blocked, as the
    # workers do) and a reader keeps listing: nothing acknowledged may be lost, no read fails.
    written, read_errors, stop = [], [], threading.Event()

    def writer() -> None:
        for i in itertools.count(1000):
            if stop.is_set():
                return
            message = msg(f"concurrent message {i}", i)
            while not stop.is_set():
                try:
                    store.insert_messages(profile, [message])
                    written.append(message.id)
                    break
                except StoreUnavailable:
                    time.sleep(0.02)

    def reader() -> None:
        while not stop.is_set():
            try:
                assert len(store.list_memories(profile, include_inactive=True)) == len(before)
            except Exception as exc:  # noqa: BLE001 - reported below
                read_errors.append(repr(exc))

    threads = [threading.Thread(target=writer), threading.Thread(target=reader)]
    for thread in threads:
        thread.start()
    model = HashEmbedder(OLD_SPEC.name, OLD_SPEC.dim)
    try:
        steps = migrate(make_store(es_server, prefix), model)
        time.sleep(0.3)  # a few writes after the swap too
    finally:
        stop.set()
        for thread in threads:
            thread.join()
    assert read_errors == []
    assert len(written) > 5
    assert [(s.action, s.new_embedding) for s in steps] == [("reindex", False)] * 3
    assert model.calls == []  # same model: vectors are copied, not recomputed
    migrated = make_store(es_server, prefix)
    migrated.open(OLD_SPEC)
    assert migrated.messages_index.endswith("-v2") and migrated.memories_index.endswith("-v2")
    mapping = migrated.client.indices.get_mapping(index=migrated.memories_alias).body
    assert mapping[migrated.memories_index]["mappings"]["_meta"]["schema_version"] == 2
    assert {m.id: m for m in migrated.list_memories(profile, include_inactive=True)} == before
    assert migrated.vector_ids(profile) == vectors_before
    stored = {m.id for m in migrated.iter_messages(profile)}
    assert set(written) <= stored and len(stored) == 13 + len(written)
    assert len(memories) == 12
    store.close()
    migrated.close()


def test_cli_migrate_creates_then_reports_up_to_date(es_server, prefix, monkeypatch, capsys):
    monkeypatch.setenv("LURKER_STORE", es_server.url)
    monkeypatch.setenv("LURKER_ES_USER", es_server.user)
    monkeypatch.setenv("LURKER_ES_PASSWORD", es_server.password)
    monkeypatch.setenv("LURKER_ES_INDEX_PREFIX", prefix)
    assert main(["migrate", "--dry-run", "--json"]) == 0
    dry = json.loads(capsys.readouterr().out)
    assert dry["dry_run"] and [s["action"] for s in dry["steps"]] == ["create"] * 3
    assert main(["migrate"]) == 0
    assert "create" in capsys.readouterr().out
    assert main(["migrate", "--json"]) == 0
    done = json.loads(capsys.readouterr().out)
    assert [s["action"] for s in done["steps"]] == ["update"] * 3
    assert [s["new_index"] for s in done["steps"]] == [f"{prefix}-messages-v1",
                                                       f"{prefix}-memories-v1",
                                                       f"{prefix}-sessions-v1"]


def test_cli_migrate_reports_an_unreachable_store(monkeypatch, capsys):
    monkeypatch.setenv("LURKER_STORE", "http://127.0.0.1:9")
    assert main(["migrate"]) == 2
    assert "unreachable" in capsys.readouterr().err


def test_cli_migrate_on_the_embedded_store_creates_its_schema(tmp_path, capsys):
    path = tmp_path / "lurker.sqlite3"
    assert main(["--store", f"sqlite:///{path}", "migrate"]) == 0
    assert "nothing to migrate" in capsys.readouterr().out and path.exists()


def test_an_upgrade_gets_conversation_documents_for_the_messages_stored_before(es_server, prefix):
    """A deployment from before session_text has no sessions index: the pre-upgrade `lurker
    migrate` creates it and writes every session's document from the stored messages (without
    suppressed ones), so old conversations lift their records too."""
    from memory.stores.base import CH_SESSION_TEXT

    store = make_store(es_server, prefix)
    store.open(OLD_SPEC)
    other = Message(id=message_id("s2", "user", "canary looked fine"), session_id="s2",
                    role="user", author="bo", content="canary looked fine", ts=T0, seq=0)
    secret = msg("the canary token is hunter2", 2)
    store.insert_messages("team", [msg("the canary deploy failed", 0), msg("rollback done", 1),
                                   secret])
    store.insert_messages("ops", [other])
    store.suppress_messages("team", [secret.id])
    client = store.client
    client.indices.delete(index=f"{store.sessions_alias}-v1")  # as before session_text
    client.indices.delete_index_template(name=store.sessions_alias)

    def sessions(profile: str, text: str) -> list[str]:
        found = migrated.search(profile, SearchRequest(text=text, channels=(CH_SESSION_TEXT,)))
        return [h.id for h in found[CH_SESSION_TEXT]]

    steps = migrate(make_store(es_server, prefix), HashEmbedder(OLD_SPEC.name, OLD_SPEC.dim))
    by_alias = {s.alias: s for s in steps}
    assert (by_alias[store.sessions_alias].action, by_alias[store.sessions_alias].documents) == (
        "create", 2)
    migrated = make_store(es_server, prefix)
    migrated.open(OLD_SPEC)
    assert sessions("team", "canary rollback") == ["s1"]
    assert sessions("ops", "canary") == ["s2"]
    assert sessions("team", "hunter2") == []  # suppressed before the upgrade: left out
    # appends go on from there, without repeating what the backfill wrote
    before = migrated.search("team", SearchRequest(text="rollback", channels=(CH_SESSION_TEXT,)))
    migrated.insert_messages("team", [msg("rollback done", 1), msg("postmortem friday", 3)])
    assert sessions("team", "postmortem") == ["s1"]
    after = migrated.search("team", SearchRequest(text="rollback", channels=(CH_SESSION_TEXT,)))
    assert after[CH_SESSION_TEXT][0].score <= before[CH_SESSION_TEXT][0].score  # longer doc
    again = migrate(make_store(es_server, prefix), HashEmbedder(OLD_SPEC.name, OLD_SPEC.dim))
    assert [s.action for s in again] == ["update"] * 3
    store.close()
    migrated.close()
