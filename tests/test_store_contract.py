"""The storage contract (memory/stores/base.py), run unchanged against SQLite and Elasticsearch."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import numpy as np
import pytest

from memory.errors import EmbeddingMismatch
from memory.ids import memory_id, message_id
from memory.models import Memory, Message, Passage
from memory.passages import split_passages
from memory.stores.base import (CH_ASKER_TEXT, CH_ASKER_VECTOR, CH_DATE, CH_HYDE,
                                CH_INSTRUCTION, CH_MEMORY_TEXT, CH_MESSAGE_TEXT, CH_PASSAGE_TEXT,
                                CH_PASSAGE_VECTOR, CH_SESSION_TEXT, CH_TOPIC, CH_VECTOR,
                                INSTRUCTION_K, INSTRUCTION_MIN_SIMILARITY, EmbeddingSpec,
                                SearchRequest)

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
    assert all(not h for ch, h in hits.items() if ch not in (CH_MESSAGE_TEXT, CH_SESSION_TEXT))
    assert [h.id for h in hits[CH_MESSAGE_TEXT]] == [shared.id]
    assert [h.id for h in hits[CH_SESSION_TEXT]] == [shared.session_id]  # its own copy's
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
    c = mem("third fact here", minutes=2)
    store.upsert_memories(profile_name, [c])
    # newest first, one page: what "what tasks are still open?" reads (memory/open_tasks.py)
    assert [m.id for m in store.list_memories(profile_name, limit=2, newest_first=True)] == [
        c.id, b.id]
    assert [m.id for m in store.list_memories(profile_name, include_inactive=True,
                                              newest_first=True)] == [c.id, b.id, a.id]


def test_delete_memories_leaves_no_record_text_or_vector(store, profile_name):
    keep, gone = mem("the cache is redis"), mem("the webhook secret is in vault")
    store.upsert_memories(profile_name, [keep, gone])
    store.set_vectors(profile_name, dict(zip((keep.id, gone.id), unit_vectors(2))))
    store.delete_memories(profile_name, [gone.id, "no-such-id"])
    store.delete_memories(profile_name, [gone.id])  # idempotent
    assert [m.id for m in store.list_memories(profile_name, include_inactive=True)] == [keep.id]
    assert store.get_memories(profile_name, [gone.id]) == []
    assert store.vector_ids(profile_name) == {keep.id}
    hits = store.search(profile_name, SearchRequest(text="webhook secret vault",
                                                    channels=(CH_MEMORY_TEXT,)))
    assert [h.id for h in hits[CH_MEMORY_TEXT]] == []


def test_memory_ids_by_prefix_finds_an_id_as_answers_show_it(store, profile_name):
    """Answers show an id's first 12 characters; that is what a person types back to forget."""
    twins = [mem("the cache is redis").model_copy(update={"id": "abcdef12" + tail})
             for tail in ("0" * 24, "f" * 24)]
    twins[1] = twins[1].model_copy(update={"status": "forgotten"})
    other = mem("the queue is kafka")
    store.upsert_memories(profile_name, [*twins, other])
    store.upsert_memories(profile_name + "-other", [mem("the cdn is fastly").model_copy(
        update={"id": "abcdef12" + "1" * 24})])
    assert store.memory_ids_by_prefix(profile_name, other.id[:12]) == [other.id]
    assert store.memory_ids_by_prefix(profile_name, "abcdef12") == [t.id for t in twins]
    assert store.memory_ids_by_prefix(profile_name, "abcdef12", limit=1) == [twins[0].id]
    assert store.memory_ids_by_prefix(profile_name, "abcdef120") == [twins[0].id]
    assert store.memory_ids_by_prefix(profile_name, "0123456789ab") == []


def test_profiles_lists_every_profile_holding_a_message_or_a_memory(store, profile_name):
    """What `lurker scrub --all` walks: a profile with messages only, one with memories only."""
    other = profile_name + "-memories-only"
    store.insert_messages(profile_name, [msg("hello there")])
    store.upsert_memories(other, [mem("db is postgres")])
    try:
        listed = store.profiles()
        assert {profile_name, other} <= set(listed) and listed == sorted(listed)
    finally:
        store.delete_profile(other)
    assert other not in store.profiles()


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


def long_text(needle: str, paragraphs: int = 8) -> str:
    """A review-bot sized message: filler paragraphs with `needle` deep inside."""
    filler = ("The pipeline ran every stage of the build and reported the usual warnings about "
              "deprecated options, which nobody has had the time to clean up this quarter. ")
    parts = [f"Section {i}. " + filler * 3 for i in range(paragraphs)]
    parts.insert(paragraphs - 2, needle)
    return "\n\n".join(parts)


def test_long_messages_are_searched_passage_by_passage(store, profile_name):
    needle = "The flaky test lives in payments/refund_spec.rb and fails on leap days."
    long = msg(long_text(needle), 0)
    short = msg("refund spec is fine on my machine", 1)
    store.insert_messages(profile_name, [long, short])
    spans = split_passages(long.content)
    assert len(spans) > 3
    hits = store.search(profile_name, SearchRequest(text="flaky refund spec leap days", k=5,
                                                    channels=(CH_PASSAGE_TEXT,)))
    (hit,) = hits[CH_PASSAGE_TEXT]  # one hit per message; short messages are not in it
    assert isinstance(hit.record, Passage) and hit.id == long.id == hit.record.id
    assert needle in hit.record.content and len(hit.record.content) < len(long.content)
    assert long.content[hit.record.start:hit.record.end] == hit.record.content
    assert (hit.record.start, hit.record.end) == spans[hit.record.passage]
    assert hit.record.author == long.author and hit.record.ts == long.ts
    # a whole-message BM25 hit is still the message itself
    assert {h.id for h in store.search(profile_name, SearchRequest(
        text="refund spec", channels=(CH_MESSAGE_TEXT,)))[CH_MESSAGE_TEXT]} == {long.id, short.id}


def test_passage_vectors_rank_messages_by_their_best_passage(store, profile_name):
    long, short = msg(long_text("Needle paragraph about the leap day bug."), 0), msg("short one", 1)
    other = msg("a message never embedded", 2)
    store.insert_messages(profile_name, [long, short, other])
    n = len(split_passages(long.content))
    vectors = unit_vectors(n + 1, seed=7)
    with pytest.raises(ValueError):
        store.set_passage_vectors(profile_name, {long.id: vectors[:n - 1]})
    store.set_passage_vectors(profile_name, {long.id: vectors[:n], short.id: vectors[n:],
                                             "not-stored": vectors[:1]})
    assert store.passage_vector_ids(profile_name) == {long.id, short.id}
    for target in (2, n - 1):
        hits = store.search(profile_name, SearchRequest(
            text="", query_vector=vectors[target], k=5, channels=(CH_PASSAGE_VECTOR,)))
        ranked = hits[CH_PASSAGE_VECTOR]
        assert [h.id for h in ranked] == [long.id, short.id]  # one hit per message
        assert ranked[0].record.passage == target and ranked[0].score == pytest.approx(1.0, 1e-4)
        a, b = split_passages(long.content)[target]
        assert ranked[0].record.content == long.content[a:b]
    assert store.search(profile_name + "-x", SearchRequest(
        text="", query_vector=vectors[2], channels=(CH_PASSAGE_VECTOR,)))[CH_PASSAGE_VECTOR] == []
    assert store.delete_messages(profile_name, [long.id]) == {long.id}
    assert store.passage_vector_ids(profile_name) == {short.id}
    hits = store.search(profile_name, SearchRequest(text="needle leap day bug",
                                                    query_vector=vectors[2], k=5,
                                                    channels=(CH_PASSAGE_VECTOR, CH_PASSAGE_TEXT)))
    assert [h.id for h in hits[CH_PASSAGE_VECTOR]] == [short.id]
    assert hits[CH_PASSAGE_TEXT] == []


def test_reopen_with_other_embedding_is_refused(store):
    with pytest.raises(EmbeddingMismatch):
        store.open(EmbeddingSpec("some-other-model", 384))


# --- chat edits and deletes: external ids, message deletion, memories by source ------------------
def ext(content: str, external_id: str | None, seq: int = 0, session: str = "s1") -> Message:
    return msg(content, seq, session).model_copy(update={"external_id": external_id})


def sourced(content: str, sources: list[str], minutes: int = 0, status: str = "active") -> Memory:
    return mem(content, minutes=minutes, status=status).model_copy(
        update={"source_message_ids": sources})


def test_external_id_round_trips(store, profile_name):
    tagged, plain = ext("tagged message", "slack:C1:100.1", 0), ext("plain message", None, 1)
    store.insert_messages(profile_name, [tagged, plain])
    stored = {m.id: m for m in store.get_messages(profile_name, [tagged.id, plain.id])}
    assert stored == {tagged.id: tagged, plain.id: plain}
    assert stored[tagged.id].external_id == "slack:C1:100.1"
    assert stored[plain.id].external_id is None
    assert [(m.id, m.external_id) for m in store.iter_messages(profile_name)] == [
        (tagged.id, "slack:C1:100.1"), (plain.id, None)]


def test_messages_before_are_the_sessions_latest_before_a_time_newest_first(store,
                                                                              profile_name):
    """What a batch's short first message may answer (memory.said_before): the session's own
    messages said before it, newest first; never another session's or profile's."""
    said = [msg(f"message number {n}", seq=n) for n in range(8)]
    store.insert_messages(profile_name, said)
    store.insert_messages(profile_name, [msg("another channel", seq=5, session="s2")])
    store.insert_messages(profile_name + "-other", [msg("another profile", seq=5)])
    got = store.messages_before(profile_name, "s1", said[6].ts, 3)
    assert [m.content for m in got] == ["message number 5", "message number 4",
                                        "message number 3"]
    assert store.messages_before(profile_name, "s1", said[0].ts) == []
    assert [m.content for m in store.messages_before(profile_name, "s2", said[7].ts)] == \
        ["another channel"]
    assert store.messages_before(profile_name, "nowhere", said[7].ts) == []
    many = store.messages_before_many({profile_name: ("s1", said[3].ts),
                                       profile_name + "-other": ("s1", said[7].ts)}, 2)
    assert many == {profile_name: store.messages_before(profile_name, "s1", said[3].ts, 2),
                    profile_name + "-other": store.messages_before(profile_name + "-other", "s1",
                                                                   said[7].ts, 2)}
    assert [m.content for m in many[profile_name]] == ["message number 2", "message number 1"]
    assert store.messages_before_many({}) == {}


def test_find_messages_by_external_id(store, profile_name):
    other = profile_name + "-other"
    original = ext("the deploy is on friday", "slack:C1:1", seq=0)
    edited = ext("the deploy is on monday", "slack:C1:1", seq=5)  # same platform id, newer
    second = ext("who has the keys?", "slack:C1:2", seq=1)
    untagged = ext("no platform id here", None, seq=2)
    store.insert_messages(profile_name, [edited, original, second, untagged])
    found = store.find_messages_by_external_id(
        profile_name, ["slack:C1:1", "slack:C1:2", "slack:C1:unknown", "slack:C1:2"])
    assert set(found) == {"slack:C1:1", "slack:C1:2"}
    assert found["slack:C1:1"] == edited  # the newest by ts wins
    assert found["slack:C1:2"] == second
    assert store.find_messages_by_external_id(profile_name, []) == {}
    assert store.find_messages_by_external_id(profile_name, ["slack:C1:unknown"]) == {}

    # another profile holding the same platform id (even on a newer message) is not seen
    theirs = ext("their own copy", "slack:C1:1", seq=9)
    store.insert_messages(other, [theirs])
    assert store.find_messages_by_external_id(profile_name, ["slack:C1:1"]) == {
        "slack:C1:1": edited}
    assert store.find_messages_by_external_id(other, ["slack:C1:1", "slack:C1:2"]) == {
        "slack:C1:1": theirs}
    store.delete_profile(other)


def test_delete_messages(store, profile_name):
    other = profile_name + "-other"
    keep = ext("lunch order arrives at noon", "slack:C1:10", 0)
    gone = ext("the staging password rotates weekly", "slack:C1:11", 1)
    also_gone = ext("staging cluster is flaky again", None, 2)
    store.insert_messages(profile_name, [keep, gone, also_gone])
    store.insert_messages(other, [gone])
    staging = SearchRequest(text="staging", k=5, channels=(CH_MESSAGE_TEXT,))
    assert {h.id for h in store.search(profile_name, staging)[CH_MESSAGE_TEXT]} == {
        gone.id, also_gone.id}

    removed = store.delete_messages(profile_name, [gone.id, also_gone.id, "never-stored", gone.id])
    assert removed == {gone.id, also_gone.id}
    assert store.get_messages(profile_name, [keep.id, gone.id, also_gone.id]) == [keep]
    assert [m.id for m in store.iter_messages(profile_name)] == [keep.id]
    assert store.count(profile_name)["messages"] == 1
    assert store.search(profile_name, staging)[CH_MESSAGE_TEXT] == []
    lunch = store.search(profile_name, SearchRequest(text="lunch staging", k=5,
                                                     channels=(CH_MESSAGE_TEXT,)))
    assert [h.id for h in lunch[CH_MESSAGE_TEXT]] == [keep.id]
    assert store.find_messages_by_external_id(profile_name, ["slack:C1:10", "slack:C1:11"]) == {
        "slack:C1:10": keep}

    # idempotent: nothing left to remove
    assert store.delete_messages(profile_name, [gone.id, also_gone.id]) == set()
    assert store.delete_messages(profile_name, []) == set()
    assert store.count(profile_name)["messages"] == 1

    # the other profile's copy of the same id is untouched
    assert store.get_messages(other, [gone.id]) == [gone]
    assert [h.id for h in store.search(other, staging)[CH_MESSAGE_TEXT]] == [gone.id]
    assert store.count(other)["messages"] == 1
    store.delete_profile(other)


def sessions_for(store, profile: str, text: str) -> list[tuple[str, float]]:
    found = store.search(profile, SearchRequest(text=text, k=10, channels=(CH_SESSION_TEXT,)))
    assert all(h.record is None for h in found[CH_SESSION_TEXT])
    return [(h.id, h.score) for h in found[CH_SESSION_TEXT]]


def test_session_text_ranks_whole_conversations(store, profile_name):
    """A session whose messages together carry the question's words outranks sessions where one
    message carries one of them; the documents grow with each insert, never twice the same."""
    store.insert_messages(profile_name, [msg("the deploy broke checkout", 0, "incident"),
                                         msg("lunch at noon?", 1, "incident")])
    store.insert_messages(profile_name, [msg("we rolled back the release", 2, "incident")])
    store.insert_messages(profile_name, [msg("deploy went fine today", 0, "calm"),
                                         msg("nothing rolled back", 1, "other")])
    ranked = sessions_for(store, profile_name, "deploy rolled back checkout")
    assert [s for s, _ in ranked][:1] == ["incident"]
    assert {s for s, _ in ranked} == {"incident", "calm", "other"}

    # a retried batch (the same messages again, with a new one) adds only the new one
    before = dict(sessions_for(store, profile_name, "checkout"))
    store.insert_messages(profile_name, [msg("the deploy broke checkout", 0, "incident"),
                                         msg("lunch at noon?", 1, "incident")])
    assert dict(sessions_for(store, profile_name, "checkout")) == before

    # another profile's sessions are its own
    assert sessions_for(store, profile_name + "-other", "deploy") == []


def test_a_session_document_holds_its_first_messages_only(store, profile_name, monkeypatch):
    """One session written forever (an API client's) must not make each write rewrite an ever
    larger document: past SESSION_DOC_MESSAGES its messages are stored and searchable, but the
    session's document stops growing, also when it is rebuilt."""
    import memory.stores.elasticsearch as es_store
    import memory.stores.sqlite as sqlite_store

    for module in (es_store, sqlite_store):
        monkeypatch.setattr(module, "SESSION_DOC_MESSAGES", 3)
    store.insert_messages(profile_name, [msg("alpha kickoff", 0, "long"), msg("beta", 1, "long")])
    store.insert_messages(profile_name, [msg("gamma", 2, "long"), msg("zebra crossing", 3, "long")])
    store.insert_messages(profile_name, [msg("zebra again", 4, "long")])
    assert [s for s, _ in sessions_for(store, profile_name, "gamma kickoff")] == ["long"]
    assert sessions_for(store, profile_name, "zebra") == []
    found = store.search(profile_name, SearchRequest(text="zebra", k=5, channels=(CH_MESSAGE_TEXT,)))
    assert len(found[CH_MESSAGE_TEXT]) == 2  # the messages themselves are all there
    beta = msg("beta", 1, "long")
    store.delete_messages(profile_name, [beta.id])  # rebuilt: the next message moves up
    assert [s for s, _ in sessions_for(store, profile_name, "zebra crossing")] == ["long"]
    assert [s for s, _ in sessions_for(store, profile_name, "beta")] == []


def test_session_documents_written_by_many_threads_match_one_writer(store, profile_name):
    """Eight writers appending to one session at once (each insert reads the document and
    writes it only if unchanged; a loser rebuilds it from the messages), plus a delete racing
    them, end with the document one writer alone makes."""
    import threading

    together, alone = profile_name, profile_name + "-alone"
    batches = [[msg(f"writer{w} note{i} topic{w * 5 + i}", w * 5 + i, "busy") for i in range(5)]
               for w in range(8)]
    doomed = msg("doomed zeppelin line", 99, "busy")
    store.insert_messages(together, [doomed])
    start = threading.Barrier(9)
    errors: list[BaseException] = []

    def run(work) -> None:
        try:
            start.wait()
            work()
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    def write(batch: list[Message]) -> None:
        for m in batch:  # one insert a message: as many read-then-write rounds as possible
            store.insert_messages(together, [m])

    threads = [threading.Thread(target=run, args=(lambda b=b: write(b),)) for b in batches]
    threads.append(threading.Thread(target=run, args=(
        lambda: store.delete_messages(together, [doomed.id]),)))
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors, errors
    for batch in batches:
        store.insert_messages(alone, batch)
    for query in ("writer3 note1", "topic7 topic39", "note4", "writer0 writer7 note2"):
        assert sessions_for(store, together, query) == sessions_for(store, alone, query), query
    assert sessions_for(store, together, "zeppelin") == []
    store.delete_profile(alone)


def test_asker_channels_search_only_the_askers_own_messages(store, profile_name):
    """asker_text and asker_vector are message_text and passage_vector over the messages whose
    stored author is one of the askers, exactly; suppressed ones and other profiles are never
    found, and without askers the channels do not run. authors_with_platform_id finds a renamed
    user's names, authors every author."""
    mine = msg("I deployed the refund service on Friday", 0, author="maya (U1)")
    mine_long = msg(long_text("I rolled the refund service back after the alarms."), 1,
                    author="maya (U1)")
    hidden = msg("I pasted the refund service password here", 2, author="maya (U1)")
    theirs = msg("the refund service deploy is done, refund refund", 3, author="bob (U2)")
    namesake = msg("refund service notes", 4, author="maya")  # another person, same name
    renamed = msg("refund service runbook, my old notes", 5, author="maya_old (U1)")
    lookalike = msg("refund service too", 6, author="ann (xU1)")
    store.insert_messages(profile_name, [mine, mine_long, hidden, theirs, namesake, renamed,
                                         lookalike])
    store.insert_messages(profile_name + "-x", [mine])
    n = len(split_passages(mine_long.content))
    vectors = unit_vectors(n + 4, seed=11)
    store.set_passage_vectors(profile_name, {
        mine.id: vectors[:1], mine_long.id: vectors[1:n + 1], hidden.id: vectors[n + 1:n + 2],
        theirs.id: vectors[n + 2:n + 3], namesake.id: vectors[n + 3:n + 4]})
    assert store.suppress_messages(profile_name, [hidden.id]) == {hidden.id}
    assert store.authors_with_platform_id(profile_name, "U1") == {"maya (U1)", "maya_old (U1)"}
    assert store.authors_with_platform_id(profile_name, "U9") == set()
    for pattern in ("%", "_1", "U_", "*", "?1", "U\\1", "U1) OR (1"):  # never a wildcard
        assert store.authors_with_platform_id(profile_name, pattern) == set(), pattern
    assert store.authors_with_platform_id(profile_name + "-x", "U1") == {"maya (U1)"}
    # every author, for "what did maya say?" (a suppressed message's author too: it was said)
    assert store.authors(profile_name) == {"maya (U1)", "bob (U2)", "maya", "maya_old (U1)",
                                           "ann (xU1)"}
    assert store.authors(profile_name + "-x") == {"maya (U1)"}
    assert store.authors(profile_name + "-none") == set()

    def ask(askers, vector, channels=(CH_ASKER_TEXT, CH_ASKER_VECTOR), profile=profile_name):
        return store.search(profile, SearchRequest(text="refund service", query_vector=vector,
                                                   k=10, channels=channels, askers=askers))

    for target, expected in ((n + 2, mine.id), (0, mine.id), (3, mine_long.id)):
        hits = ask(("maya (U1)",), vectors[target])
        assert {h.id for h in hits[CH_ASKER_TEXT]} == {mine.id, mine_long.id}
        assert all(isinstance(h.record, Message) for h in hits[CH_ASKER_TEXT])
        ranked = hits[CH_ASKER_VECTOR]
        assert {h.id for h in ranked} == {mine.id, mine_long.id}  # never bob's, never hidden
        if target != n + 2:  # bob's own vector: nearest of maya's is whichever, not bob's
            assert ranked[0].id == expected and ranked[0].score == pytest.approx(1.0, 1e-4)
        assert all(isinstance(h.record, Passage) for h in ranked)
        if expected == mine_long.id:
            assert ranked[0].record.passage == target - 1
    # several names of one person
    assert {h.id for h in ask(("maya (U1)", "maya_old (U1)"), vectors[0])[CH_ASKER_TEXT]} == {
        mine.id, mine_long.id, renamed.id}
    # the author must match exactly: "maya" is someone else
    assert [h.id for h in ask(("maya",), vectors[0])[CH_ASKER_TEXT]] == [namesake.id]
    assert ask(("nobody (U9)",), vectors[0]) == {CH_ASKER_TEXT: [], CH_ASKER_VECTOR: []}
    # no askers: the channels are not run; another profile holds only its own
    assert ask((), vectors[0]) == {}
    assert {h.id for h in ask(("maya (U1)",), vectors[0],
                              profile=profile_name + "-x")[CH_ASKER_VECTOR]} == set()
    assert [h.id for h in ask(("maya (U1)",), vectors[0], profile=profile_name + "-x")[
        CH_ASKER_TEXT]] == [mine.id]


def test_session_text_forgets_deleted_and_suppressed_messages(store, profile_name):
    secret = msg("the vault token is hunter2", 1, "ops")
    store.insert_messages(profile_name, [msg("rotate the vault soon", 0, "ops"), secret,
                                         msg("hunter2 lives only here", 0, "solo")])
    assert [s for s, _ in sessions_for(store, profile_name, "hunter2")] in (
        ["ops", "solo"], ["solo", "ops"])
    assert store.suppress_messages(profile_name, [secret.id]) == {secret.id}
    assert [s for s, _ in sessions_for(store, profile_name, "hunter2")] == ["solo"]
    assert [s for s, _ in sessions_for(store, profile_name, "vault")] == ["ops"]

    # the same message stored again (a redelivered create) does not bring its text back
    store.insert_messages(profile_name, [secret.model_copy(update={"suppressed": False})])
    assert [s for s, _ in sessions_for(store, profile_name, "hunter2")] == ["solo"]

    solo = msg("hunter2 lives only here", 0, "solo")
    assert store.delete_messages(profile_name, [solo.id]) == {solo.id}
    assert sessions_for(store, profile_name, "hunter2") == []  # no document left for it
    store.delete_profile(profile_name)
    assert sessions_for(store, profile_name, "vault") == []


def test_memories_by_source(store, profile_name):
    other = profile_name + "-other"
    a = sourced("alpha ships on friday", ["m1"], minutes=0)
    b = sourced("beta runs on postgres", ["m2", "m3"], minutes=1)
    c = sourced("gamma was on mysql", ["m3"], minutes=2, status="superseded")
    d = sourced("delta is unrelated", ["m4"], minutes=3)
    store.upsert_memories(profile_name, [d, c, b, a])

    assert store.memories_by_source(profile_name, ["m3", "m1"]) == [a, b]  # any of, in order
    assert [m.id for m in store.memories_by_source(profile_name, ["m1", "m3"],
                                                   include_inactive=True)] == [a.id, b.id, c.id]
    assert [m.id for m in store.memories_by_source(profile_name, ["m2"])] == [b.id]
    assert store.memories_by_source(profile_name, ["unknown"]) == []
    assert store.memories_by_source(profile_name, []) == []

    # profile isolation
    e = sourced("epsilon belongs elsewhere", ["m1"], minutes=4)
    store.upsert_memories(other, [e])
    assert [m.id for m in store.memories_by_source(profile_name, ["m1"])] == [a.id]
    assert [m.id for m in store.memories_by_source(other, ["m1", "m2", "m3"],
                                                   include_inactive=True)] == [e.id]

    # an upsert that drops a source (and one that changes the status) is reflected
    store.upsert_memories(profile_name, [b.model_copy(update={"source_message_ids": ["m2"]})])
    assert store.memories_by_source(profile_name, ["m3"]) == []
    assert [m.id for m in store.memories_by_source(profile_name, ["m3"],
                                                   include_inactive=True)] == [c.id]
    found = store.memories_by_source(profile_name, ["m2"])
    assert [(m.id, m.source_message_ids) for m in found] == [(b.id, ["m2"])]
    store.upsert_memories(profile_name, [a.model_copy(update={"status": "forgotten",
                                                              "source_message_ids": []})])
    assert store.memories_by_source(profile_name, ["m1"]) == []
    assert store.memories_by_source(profile_name, ["m1"], include_inactive=True) == []
    store.upsert_memories(profile_name, [a.model_copy(update={"status": "forgotten"})])
    assert [(m.id, m.status) for m in store.memories_by_source(
        profile_name, ["m1"], include_inactive=True)] == [(a.id, "forgotten")]
    assert store.memories_by_source(profile_name, ["m1"]) == []

    store.delete_profile(other)
    assert store.memories_by_source(other, ["m1"], include_inactive=True) == []
    assert [m.id for m in store.memories_by_source(profile_name, ["m4"])] == [d.id]


def test_sqlite_file_without_external_ids_is_upgraded_on_open(tmp_path):
    """A file made before chat edits/deletes (no messages.external_id, no memory_sources) gets
    both on open, filled from the stored documents."""
    import sqlite3

    from memory.stores.sqlite import SQLiteStore

    from .store_fixtures import TEST_SPEC

    path = tmp_path / "old.sqlite3"
    store = SQLiteStore(path)
    store.open(TEST_SPEC)
    tagged = ext("an old tagged message", "slack:C9:1")
    memory = sourced("an old memory", [tagged.id])
    store.insert_messages("p", [tagged])
    store.upsert_memories("p", [memory])
    store.close()
    db = sqlite3.connect(path)
    db.executescript("DROP INDEX messages_external; ALTER TABLE messages DROP COLUMN external_id;"
                     "DROP TABLE memory_sources;")
    db.close()

    store = SQLiteStore(path)
    store.open(TEST_SPEC)
    assert store.find_messages_by_external_id("p", ["slack:C9:1"]) == {"slack:C9:1": tagged}
    assert store.memories_by_source("p", [tagged.id]) == [memory]
    store.open(TEST_SPEC)  # and again: nothing left to upgrade
    assert store.memories_by_source("p", [tagged.id]) == [memory]
    store.close()


def test_sqlite_file_without_memory_dates_is_upgraded_on_open(tmp_path):
    """A file made before the date channel read memories has no memory_dates table: it is made
    and filled from the active memories' documents on open, once."""
    import sqlite3
    from datetime import date

    from memory.models import EventDate
    from memory.stores.sqlite import SQLiteStore

    from .store_fixtures import TEST_SPEC

    path = tmp_path / "old.sqlite3"
    store = SQLiteStore(path)
    store.open(TEST_SPEC)
    freeze, old = mem("code freeze Dec 14 to Dec 18", "event"), mem("freeze Dec 10", "event",
                                                                     status="forgotten")
    for m, day in ((freeze, date(2026, 12, 14)), (old, date(2026, 12, 10))):
        m.event_dates = [EventDate(phrase="then", start=day, end=day)]
    store.upsert_memories("p", [freeze, old])
    store.close()
    db = sqlite3.connect(path)
    db.executescript("DROP TABLE memory_dates;")
    db.close()

    def december() -> list[str]:
        return [h.id for h in store.search("p", SearchRequest(
            text="anything?", k=20, channels=(CH_DATE,), dated=True,
            span=(date(2026, 12, 1), date(2026, 12, 31))))[CH_DATE]]

    store = SQLiteStore(path)
    store.open(TEST_SPEC)
    assert december() == [freeze.id]
    store.close()
    store = SQLiteStore(path)
    store.open(TEST_SPEC)  # and again: filled once, not twice
    assert store.db.execute("SELECT count(*) FROM memory_dates").fetchone()[0] == 1
    store.close()


def test_sqlite_delete_messages_leaves_no_full_text_rows(tmp_path):
    """Search joins full-text rows to messages, so a leftover row would be invisible: check the
    full-text table itself."""
    from memory.stores.sqlite import SQLiteStore

    from .store_fixtures import TEST_SPEC

    store = SQLiteStore(tmp_path / "fts.sqlite3")
    store.open(TEST_SPEC)
    keep, gone = msg("kept words"), msg("deleted words", 1)
    store.insert_messages("p", [keep, gone])
    store.insert_messages("q", [gone])
    assert store.delete_messages("p", [gone.id]) == {gone.id}
    rows = store.db.execute("SELECT profile, id FROM messages_fts ORDER BY profile").fetchall()
    assert rows == [("p", keep.id), ("q", gone.id)]
    store.close()


def test_sqlite_file_without_session_documents_gets_them_on_open(tmp_path):
    from memory.stores.sqlite import SQLiteStore

    from .store_fixtures import TEST_SPEC

    path = tmp_path / "old.sqlite3"
    store = SQLiteStore(path)
    store.open(TEST_SPEC)
    store.insert_messages("p", [msg("the canary deploy", 0, "s1"), msg("canary rollback", 1, "s1"),
                                msg("hidden canary", 2, "s2", )])
    store.suppress_messages("p", [msg("hidden canary", 2, "s2").id])
    # as a file written before session_text existed: no documents, no mark
    store.db.execute("DELETE FROM sessions_fts")
    store.db.execute("DELETE FROM sessions")
    store.db.execute("DELETE FROM meta WHERE key = 'sessions_fts'")
    assert sessions_for(store, "p", "canary") == []
    store.close()
    store = SQLiteStore(path)
    store.open(TEST_SPEC)
    assert [s for s, _ in sessions_for(store, "p", "canary")] == ["s1"]  # s2's text suppressed
    store.close()


def test_sqlite_file_without_passages_gets_them_on_open(tmp_path):
    """Long messages stored before passages existed are searchable passage by passage after
    open; their passage vectors come with a re-import."""
    import sqlite3

    from memory.stores.sqlite import SQLiteStore

    from .store_fixtures import TEST_SPEC

    path = tmp_path / "old-passages.sqlite3"
    store = SQLiteStore(path)
    store.open(TEST_SPEC)
    long = msg(long_text("Old needle: the cron job runs at 04:15 UTC."))
    store.insert_messages("p", [long])
    store.close()
    db = sqlite3.connect(path)
    db.executescript("DROP TABLE passages_fts; DROP TABLE passage_vectors;")
    db.close()
    store = SQLiteStore(path)
    store.open(TEST_SPEC)
    (hit,) = store.search("p", SearchRequest(text="old needle cron", channels=(CH_PASSAGE_TEXT,))
                          )[CH_PASSAGE_TEXT]
    assert "04:15" in hit.record.content
    store.close()


def test_sqlite_best_rows_is_the_head_of_a_stable_descending_sort():
    """The SQLite store's kNN reads only the best rows (not a sort of every vector): the same
    rows, in the same order, ties in row order, as the head of a full stable sort."""
    import numpy as np

    from memory.stores.sqlite import best_rows

    rng = np.random.default_rng(1)
    for _ in range(200):
        n = int(rng.integers(1, 300))
        scores = rng.integers(0, 20, n).astype(np.float32)  # many ties
        full = np.argsort(-scores, kind="stable")
        for k in (0, 1, 5, 20, n, n + 3):
            got = best_rows(scores, k)
            assert list(got[:k]) == list(full[:k])
            assert list(got) == list(full[:len(got)])


def test_sqlite_memory_full_text_rows_follow_their_memories_by_rowid(tmp_path):
    """FTS5 cannot index `profile`/`id`: a memory's full-text row is found by the memory's rowid
    (deleting by profile and id scanned the whole index for every memory written). A file whose
    rows were numbered otherwise is renumbered once on open, and rewriting a memory then leaves
    exactly one row for it, with the new text."""
    import sqlite3

    from memory.stores.sqlite import SQLiteStore

    from .store_fixtures import TEST_SPEC

    path = tmp_path / "rows.sqlite3"
    store = SQLiteStore(path)
    store.open(TEST_SPEC)
    a, b = mem("the cache ttl is 300 seconds"), mem("backups run nightly in Frankfurt", minutes=1)
    store.upsert_memories("p", [a, b])
    store.upsert_memories("p", [a.model_copy(update={"content": "the cache ttl is 600 seconds"})])

    def rows(db) -> dict:
        return {i: (r, body) for r, i, body in db.execute(
            "SELECT rowid, id, body FROM memories_fts WHERE profile = 'p'")}
    def rowids(db) -> dict:
        return dict(db.execute("SELECT id, rowid FROM memories WHERE profile = 'p'").fetchall())
    got, want = rows(store.db), rowids(store.db)
    assert {i: r for i, (r, _) in got.items()} == want and "600" in got[a.id][1]
    store.close()
    # a file made before: its full-text rows have rowids of their own
    db = sqlite3.connect(path)
    db.executescript("DELETE FROM memories_fts;"
                     "INSERT INTO memories_fts (rowid, profile, id, body) SELECT rowid + 1000, "
                     "profile, id, 'old ' || id FROM memories;"
                     "DELETE FROM meta WHERE key = 'memories_fts_rowids';")
    db.close()
    store = SQLiteStore(path)
    store.open(TEST_SPEC)
    assert {i: r for i, (r, _) in rows(store.db).items()} == rowids(store.db)
    store.upsert_memories("p", [a.model_copy(update={"content": "the cache ttl is 900 seconds"})])
    got = rows(store.db)
    assert len(got) == 2 and "900" in got[a.id][1]
    assert store.db.execute("SELECT count(*) FROM memories_fts").fetchone() == (2,)
    store.close()


def test_sqlite_message_full_text_rows_follow_their_messages_by_rowid(tmp_path):
    """The same for messages (an edit or delete of one message scanned the whole index: 765 ms
    on a 190k-message profile): rows carry the message's rowid, an old file is renumbered on
    open, deletes and suppressions remove exactly their rows."""
    import sqlite3

    from memory.stores.sqlite import SQLiteStore

    from .store_fixtures import TEST_SPEC

    path = tmp_path / "mrows.sqlite3"
    store = SQLiteStore(path)
    store.open(TEST_SPEC)
    a, b, c = msg("alpha words"), msg("bravo words", 1), msg("charlie words", 2)
    store.insert_messages("p", [a, b, c])

    def check(db, expected: set) -> None:
        rows = dict(db.execute("SELECT id, rowid FROM messages_fts WHERE profile = 'p'"))
        own = dict(db.execute("SELECT id, rowid FROM messages WHERE profile = 'p'"))
        assert set(rows) == expected and all(rows[i] == own[i] for i in rows)
    check(store.db, {a.id, b.id, c.id})
    store.close()
    db = sqlite3.connect(path)
    db.executescript("DELETE FROM messages_fts;"
                     "INSERT INTO messages_fts (rowid, profile, id, content) SELECT rowid + 1000, "
                     "profile, id, 'old' FROM messages;"
                     "DELETE FROM meta WHERE key = 'messages_fts_rowids';")
    db.close()
    store = SQLiteStore(path)
    store.open(TEST_SPEC)
    check(store.db, {a.id, b.id, c.id})
    assert store.delete_messages("p", [a.id]) == {a.id}
    assert store.suppress_messages("p", [b.id]) == {b.id}
    check(store.db, {c.id})
    assert store.db.execute("SELECT count(*) FROM messages_fts").fetchone() == (1,)
    store.close()


def test_instruction_channel_finds_the_standing_rules_nearest_the_question(store, profile_name):
    """CH_INSTRUCTION: the standing rules (memory.standing) among the active instruction
    memories, nearest the question first, at most INSTRUCTION_K; one-off advice phrased as an
    instruction, facts, superseded rules, rules not yet embedded and other profiles are never
    found."""
    rules = [mem("Always include version numbers when I ask about dependencies.", "instruction"),
             mem("From now on we squash-merge every pull request.", "instruction"),
             mem("Never deploy on Fridays.", "instruction"),
             mem("Whenever someone asks about the API, link the OpenAPI spec.", "instruction")]
    advice = mem("Ensure the SQLite file exists before you start.", "instruction")
    fact = mem("Always-on logging is enabled for the gateway.", "fact")
    old = mem("Always deploy from the release branch.", "instruction", status="superseded")
    unembedded = mem("Always tag the on-call engineer in incident threads.", "instruction")
    memories = [*rules, advice, fact, old]
    vectors = unit_vectors(len(memories) + 1, seed=11)
    store.upsert_memories(profile_name, [*memories, unembedded])
    store.set_vectors(profile_name, {m.id: v for m, v in zip(memories, vectors)})
    store.upsert_memories(f"{profile_name}-other", [rules[0]])
    store.set_vectors(f"{profile_name}-other", {rules[0].id: vectors[0]})

    def nearest(*weights) -> list[str]:
        query = sum(w * vectors[i] for i, w in weights)
        query = query / np.linalg.norm(query)
        hits = store.search(profile_name, SearchRequest(text="", query_vector=query, k=20,
                                                        channels=(CH_INSTRUCTION,)))
        return [h.id for h in hits[CH_INSTRUCTION]]

    # nearest the question first, at most INSTRUCTION_K; the advice, the fact and the superseded
    # rule lie nearer still
    assert INSTRUCTION_K == 3
    assert nearest((4, 1.0), (5, 0.9), (6, 0.8), (2, 0.6), (0, 0.5), (1, 0.4), (3, 0.1)) == [
        rules[2].id, rules[0].id, rules[1].id]
    assert nearest((3, 1.0))[0] == rules[3].id
    # a rule far from the question (cosine ~0.1, below INSTRUCTION_MIN_SIMILARITY) does not come
    assert INSTRUCTION_MIN_SIMILARITY == 0.15
    assert nearest((4, 1.0), (3, 0.1)) == []
    assert not {advice.id, fact.id, old.id, unembedded.id} & set(nearest((4, 1.0), (5, 1.0)))
    # no question vector: the channel does not run
    hits = store.search(profile_name, SearchRequest(text="deploy", channels=(CH_INSTRUCTION,)))
    assert CH_INSTRUCTION not in hits
    empty = store.search(f"{profile_name}-none", SearchRequest(
        text="", query_vector=vectors[0], channels=(CH_INSTRUCTION,)))
    assert empty.get(CH_INSTRUCTION, []) == []


def test_date_channel_finds_the_messages_said_on_the_spans_local_days(store, profile_name):
    friday, thursday = datetime(2026, 11, 20, tzinfo=timezone.utc), datetime(2026, 11, 19,
                                                                             tzinfo=timezone.utc)

    def said(content: str, ts: datetime, offset: int | None = None) -> Message:
        return Message(id=message_id("s", "user", content), session_id="s", role="user",
                       author="ana", content=content, ts=ts, utc_offset_minutes=offset)

    rollback = said("we rolled back the search service", friday + timedelta(hours=16))
    standup = said("standup notes: nothing new", friday + timedelta(hours=9))
    # 23:30 on Thursday in Seattle is Friday 07:30 UTC: a Thursday message
    late = said("migrated the auth db tonight", friday + timedelta(hours=7, minutes=30), -480)
    # 08:30 on Saturday in Tokyo is Friday 23:30 UTC: a Saturday message
    early = said("saturday brunch rollback jokes", friday + timedelta(hours=23, minutes=30), 540)
    other = said("the billing rollback went fine", thursday + timedelta(hours=10))
    secret = said("friday rollback creds are hunter2", friday + timedelta(hours=12))
    store.insert_messages(profile_name, [rollback, standup, late, early, other, secret])
    store.suppress_messages(profile_name, [secret.id])

    def date_hits(text: str, first, last=None, k: int = 20) -> list[str]:
        found = store.search(profile_name, SearchRequest(
            text=text, k=k, channels=(CH_DATE,), span=(first, last or first)))
        return [h.id for h in found[CH_DATE]]

    day = friday.date()
    # the question's words first, then the rest of the day; never another day, never suppressed
    assert date_hits("what did we roll back?", day) == [rollback.id, standup.id]
    assert date_hits("what happened?", day) == [rollback.id, standup.id]  # newest first
    assert set(date_hits("rollback", thursday.date())) == {other.id, late.id}
    assert date_hits("brunch", day + timedelta(days=1)) == [early.id]
    assert set(date_hits("anything", thursday.date(), day)) == {rollback.id, standup.id,
                                                                late.id, other.id}
    assert len(date_hits("anything", thursday.date(), day, k=2)) == 2
    # no span, no channel
    found = store.search(profile_name, SearchRequest(text="rollback", k=20, channels=(CH_DATE,)))
    assert found.get(CH_DATE, []) == []


def test_date_channel_finds_the_memories_dated_in_the_span(store, profile_name):
    """"anything planned for December?" (said in November): what is dated then was said
    before it, so only the memories' event dates find it (the channel read messages alone)."""
    from datetime import date

    from memory.models import EventDate

    def dated(content: str, *days: tuple[date, date], status: str = "active",
              minutes: int = 0) -> Memory:
        m = mem(content, "event", minutes=minutes, status=status)
        m.event_dates = [EventDate(phrase="then", start=a, end=b) for a, b in days]
        return m

    dec, jan = (date(2026, 12, 1), date(2026, 12, 31)), (date(2027, 1, 1), date(2027, 1, 31))
    freeze = dated("code freeze Dec 14 to Dec 18", (date(2026, 12, 14), date(2026, 12, 18)))
    renewal = dated("the analytics contract renews on the 3rd", (date(2026, 12, 3),) * 2)
    offsite = dated("offsite the week of Jan 11", (date(2027, 1, 11), date(2027, 1, 17)))
    # a start of one date and the end of another do not pair into a December date
    apart = dated("kickoff Nov 2, review Jan 4", (date(2026, 11, 2),) * 2, (date(2027, 1, 4),) * 2)
    closed = dated("closed Dec 25 and Jan 1", (date(2026, 12, 25),) * 2, (date(2027, 1, 1),) * 2)
    gone = dated("old freeze Dec 10", (date(2026, 12, 10),) * 2, status="forgotten")
    undated = mem("the freeze is in December")
    store.upsert_memories(profile_name, [freeze, renewal, offsite, apart, closed, gone, undated])
    said = Message(id=message_id("s", "user", "december plans"), session_id="s", role="user",
                   author="ana", content="december plans", ts=datetime(2026, 12, 2, 9,
                                                                      tzinfo=timezone.utc))
    store.insert_messages(profile_name, [said])

    def date_hits(span, text: str = "anything planned?", k: int = 20, dated: bool = True
                  ) -> list[str]:
        found = store.search(profile_name, SearchRequest(text=text, k=k, channels=(CH_DATE,),
                                                         span=span, dated=dated))
        return [h.id for h in found[CH_DATE]]

    # dated memories, earliest first, taken in turn with the messages said then
    assert date_hits(dec) == [renewal.id, said.id, freeze.id, closed.id]
    assert date_hits(jan) == [closed.id, apart.id, offsite.id]
    assert date_hits((date(2026, 11, 1), date(2026, 11, 30))) == [apart.id]
    assert len(date_hits(dec, k=1)) == 2  # one of each
    assert date_hits(dec, dated=False) == [said.id]  # a span past: what was said then
    # forgetting one takes it out of the span (its status is no longer active)
    renewal.status = "forgotten"
    store.upsert_memories(profile_name, [renewal])
    assert date_hits(dec) == [freeze.id, said.id, closed.id]
    store.delete_memories(profile_name, [freeze.id])
    assert date_hits(dec) == [closed.id, said.id]


def test_sqlite_readers_follow_what_another_connection_wrote(tmp_path):
    """The embedded store keeps a profile's vector matrices, and the rows of its instructions,
    between searches; the worker's processes write into the same file through connections of
    their own. A reader's next search sees their writes: a rule added there is found, one
    superseded there is gone, a vector deleted there is no longer searched."""
    from memory.stores.sqlite import SQLiteStore

    from .store_fixtures import TEST_SPEC

    reader, writer = SQLiteStore(tmp_path / "s.sqlite3"), SQLiteStore(tmp_path / "s.sqlite3")
    reader.open(TEST_SPEC)
    writer.open(TEST_SPEC)
    first = mem("Never deploy on Fridays.", "instruction")
    second = mem("Always tag the on-call engineer in incident threads.", "instruction")
    fact = mem("The staging database is Postgres 16.")
    vectors = unit_vectors(3, seed=5)
    writer.upsert_memories("p", [first, fact])
    writer.set_vectors("p", {first.id: vectors[0], fact.id: vectors[2]})

    def found(channel: str, vector) -> list[str]:
        hits = reader.search("p", SearchRequest(text="", query_vector=vector, k=5,
                                                channels=(channel,)))
        return [h.id for h in hits.get(channel, [])]

    assert found(CH_INSTRUCTION, vectors[0] + vectors[1]) == [first.id]  # read, and kept
    writer.upsert_memories("p", [second])
    writer.set_vectors("p", {second.id: vectors[1]})
    assert found(CH_INSTRUCTION, vectors[0] + vectors[1]) == [first.id, second.id] or \
        found(CH_INSTRUCTION, vectors[0] + vectors[1]) == [second.id, first.id]
    writer.upsert_memories("p", [first.model_copy(update={"status": "superseded"})])
    assert found(CH_INSTRUCTION, vectors[0] + vectors[1]) == [second.id]
    assert found(CH_VECTOR, vectors[2])[0] == fact.id
    writer.delete_vectors("p", [fact.id])
    assert fact.id not in found(CH_VECTOR, vectors[2])
    reader.close()
    writer.close()


def test_sqlite_reads_memories_by_source_through_the_sources_index(tmp_path):
    """6 Dec (twenty-first session): left to itself, SQLite's planner read memories by their
    source messages by walking every memory of the profile, then each one's sources (12 ms a
    read at 10k memories; fused recall went from 11 to 19 ms p50 once a read beside the lead
    used it for most questions). The query asks the sources' message index first."""
    from memory.stores.sqlite import SQLiteStore

    from .store_fixtures import TEST_SPEC
    store = SQLiteStore(tmp_path / "plan.sqlite3")
    store.open(TEST_SPEC)
    store.upsert_memories("p", [sourced(f"memory {i} of the profile", [f"m{i}"], minutes=i)
                                for i in range(300)])
    said: list[str] = []
    store.db.set_trace_callback(said.append)
    try:
        found = store.memories_by_source("p", ["m7", "m9"])
    finally:
        store.db.set_trace_callback(None)
    assert [m.content for m in found] == ["memory 7 of the profile", "memory 9 of the profile"]
    [query] = [s for s in said if "memory_sources" in s]
    plan = " ".join(str(row[-1]) for row in store.db.execute(f"EXPLAIN QUERY PLAN {query}"))
    assert "memory_sources_message" in plan and "SCAN" not in plan, plan
    store.close()
