"""The storage contract (memory/stores/base.py), run unchanged against SQLite and Elasticsearch."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import numpy as np
import pytest

from memory.errors import EmbeddingMismatch
from memory.ids import memory_id, message_id
from memory.models import Memory, Message
from memory.stores.base import (CH_HYDE, CH_MEMORY_TEXT, CH_MESSAGE_TEXT, CH_TOPIC, CH_VECTOR,
                                EmbeddingSpec, SearchRequest)

from .store_fixtures import unit_vectors

T0 = datetime(2024, 5, 1, 12, 0, tzinfo=timezone.utc)


def msg(content: str, seq: int = 0, session: str = "s1", author: str = "ana") -> Message:
    return Message(id=message_id(session, "user", content), session_id=session, role="user",
                   author=author, content=content, ts=T0 + timedelta(minutes=seq), seq=seq)


def mem(content: str, type_: str = "fact", topic: str | None = None, minutes: int = 0,
        status: str = "active") -> Memory:
    return Memory(id=memory_id(type_, content, []), type=type_, content=content, topic_key=topic,
                  questions=[f"what about {content.split()[0]}?"],
                  created_at=T0 + timedelta(minutes=minutes), status=status)


def test_insert_messages_is_create_if_absent(store, profile_name):
    first = [msg("the deploy freeze starts friday", 0), msg("ok", 1)]
    assert store.insert_messages(profile_name, first) == {m.id for m in first}
    changed = first[0].model_copy(update={"author": "someone-else"})
    again = store.insert_messages(profile_name, [changed, msg("new one here", 2)])
    assert again == {msg("new one here", 2).id}
    stored = {m.id: m for m in store.get_messages(profile_name, [first[0].id])}
    assert stored[first[0].id].author == "ana"  # never overwritten
    assert store.count(profile_name)["messages"] == 3


def test_iter_messages_in_time_order(store, profile_name):
    messages = [msg(f"message number {i}", seq=i) for i in (3, 1, 2, 0)]
    store.insert_messages(profile_name, messages)
    assert [m.seq for m in store.iter_messages(profile_name)] == [0, 1, 2, 3]


def test_get_unknown_ids_are_left_out(store, profile_name):
    store.insert_messages(profile_name, [msg("present message")])
    assert [m.content for m in store.get_messages(profile_name, [msg("present message").id, "nope"])
            ] == ["present message"]
    assert store.get_memories(profile_name, ["missing"]) == []


def test_profiles_never_see_each_other(store, profile_name):
    other = profile_name + "-other"
    shared = msg("the secret launch date is june 3")  # same content-addressed id in both
    store.insert_messages(profile_name, [shared])
    assert store.insert_messages(other, [shared]) == {shared.id}
    m = mem("alpha project codename is bluebird", topic="codename")
    store.upsert_memories(profile_name, [m])
    store.set_vectors(profile_name, {m.id: unit_vectors(1)[0]})
    request = SearchRequest(text="bluebird codename launch", topic_keys=["codename"],
                            query_vector=unit_vectors(1)[0], hyde_vector=unit_vectors(1)[0], k=5)
    hits = store.search(other, request)
    assert all(not h for ch, h in hits.items() if ch != CH_MESSAGE_TEXT)
    assert [h.id for h in hits[CH_MESSAGE_TEXT]] == [shared.id]
    store.delete_profile(other)
    assert store.count(profile_name)["messages"] == 1 and store.count(other)["messages"] == 0


def test_upsert_replaces_and_lists_in_order(store, profile_name):
    a, b = mem("first fact here", minutes=0), mem("second fact here", minutes=1)
    store.upsert_memories(profile_name, [b, a])
    assert [m.id for m in store.list_memories(profile_name)] == [a.id, b.id]
    store.upsert_memories(profile_name, [a.model_copy(update={"status": "forgotten",
                                                              "forgotten_reason": "wrong"})])
    assert [m.id for m in store.list_memories(profile_name)] == [b.id]
    everything = store.list_memories(profile_name, include_inactive=True)
    assert [(m.id, m.status) for m in everything] == [(a.id, "forgotten"), (b.id, "active")]
    assert everything[0].forgotten_reason == "wrong"
    assert store.list_memories(profile_name, include_inactive=True, limit=1, offset=1)[0].id == b.id


def test_list_filters_by_type(store, profile_name):
    store.upsert_memories(profile_name, [mem("deploy the fix", "task"), mem("db is postgres"),
                                         mem("shipped v2 on monday", "event")])
    assert {m.type for m in store.list_memories(profile_name, types=["task", "event"])} == {
        "task", "event"}


def test_active_by_topic_returns_newest_active(store, profile_name):
    old = mem("use npm", "instruction", "package manager", minutes=0, status="superseded")
    new = mem("use yarn", "instruction", "package manager", minutes=5)
    store.upsert_memories(profile_name, [old, new, mem("rate limit is 10", topic="rate limit")])
    found = store.active_by_topic(profile_name, ["package manager", "unknown"])
    assert list(found) == ["package manager"] and found["package manager"].id == new.id


def test_full_text_channels_stem_and_skip_inactive(store, profile_name):
    running = mem("the team is running nightly migrations")
    gone = mem("nightly migrations are paused", status="superseded")
    store.upsert_memories(profile_name, [running, gone, mem("lunch is at noon")])
    store.insert_messages(profile_name, [msg("who runs the migration scripts?"),
                                         msg("unrelated chatter")])
    hits = store.search(profile_name, SearchRequest(text="run migration", k=5,
                                                    channels=(CH_MEMORY_TEXT, CH_MESSAGE_TEXT)))
    assert [h.id for h in hits[CH_MEMORY_TEXT]] == [running.id]
    assert [h.record.content for h in hits[CH_MESSAGE_TEXT]] == ["who runs the migration scripts?"]
    assert isinstance(hits[CH_MEMORY_TEXT][0].record, Memory)
    assert isinstance(hits[CH_MESSAGE_TEXT][0].record, Message)


def test_memory_text_matches_questions(store, profile_name):
    m = mem("retro notes are in notion")
    m.questions = ["where do retrospective notes live?"]
    store.upsert_memories(profile_name, [m])
    hits = store.search(profile_name, SearchRequest(text="retrospective", channels=(CH_MEMORY_TEXT,)))
    assert [h.id for h in hits[CH_MEMORY_TEXT]] == [m.id]


def test_topic_channel_exact_key(store, profile_name):
    m = mem("rate limit is 300 per minute", topic="rate limit")
    store.upsert_memories(profile_name, [m, mem("rate of hiring is slow", topic="hiring rate")])
    hits = store.search(profile_name, SearchRequest(text="x", topic_keys=["rate limit", "limit"],
                                                    channels=(CH_TOPIC,)))
    assert [h.id for h in hits[CH_TOPIC]] == [m.id]


def test_vector_channels_rank_by_cosine_and_forget_deleted(store, profile_name):
    memories = [mem(f"memory number {i}") for i in range(5)]
    vectors = unit_vectors(5, seed=7)
    store.upsert_memories(profile_name, memories)
    store.set_vectors(profile_name, {m.id: v for m, v in zip(memories, vectors)})
    assert store.vector_ids(profile_name) == {m.id for m in memories}
    query = vectors[3] + 0.5 * vectors[1]
    query /= np.linalg.norm(query)
    req = SearchRequest(text="", query_vector=query, hyde_vector=vectors[1], k=2,
                        channels=(CH_VECTOR, CH_HYDE))
    hits = store.search(profile_name, req)
    assert [h.id for h in hits[CH_VECTOR]] == [memories[3].id, memories[1].id]
    assert hits[CH_HYDE][0].id == memories[1].id
    assert hits[CH_VECTOR][0].score > hits[CH_VECTOR][1].score
    store.delete_vectors(profile_name, [memories[3].id])
    assert memories[3].id not in store.vector_ids(profile_name)
    hits = store.search(profile_name, req)
    assert memories[3].id not in [h.id for h in hits[CH_VECTOR]]
    assert store.count(profile_name) == {"messages": 0, "memories": 5, "vectors": 4}


def test_vector_search_returns_only_active(store, profile_name):
    m = mem("soon superseded")
    store.upsert_memories(profile_name, [m])
    store.set_vectors(profile_name, {m.id: unit_vectors(1)[0]})
    store.upsert_memories(profile_name, [m.model_copy(update={"status": "superseded"})])
    hits = store.search(profile_name, SearchRequest(text="", query_vector=unit_vectors(1)[0],
                                                    channels=(CH_VECTOR,)))
    assert hits[CH_VECTOR] == []


def test_search_runs_only_requested_channels(store, profile_name):
    store.upsert_memories(profile_name, [mem("alpha beta gamma")])
    hits = store.search(profile_name, SearchRequest(text="alpha", channels=(CH_MEMORY_TEXT,)))
    assert set(hits) == {CH_MEMORY_TEXT}


def test_user_text_is_never_query_syntax(store, profile_name):
    store.upsert_memories(profile_name, [mem("quotes \"and\" stars * and (parens) OR NOT")])
    for text in ['"unbalanced', "a* OR (", "NOT AND OR", "{}[]:~^", "ünïcödé 🙂", ""]:
        store.search(profile_name, SearchRequest(text=text, channels=(CH_MEMORY_TEXT,
                                                                      CH_MESSAGE_TEXT)))


def test_reopen_with_other_embedding_is_refused(store):
    with pytest.raises(EmbeddingMismatch):
        store.open(EmbeddingSpec("some-other-model", 384))
