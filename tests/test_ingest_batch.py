"""MemoryService.ingest_many: many conversations in one engine call mean exactly what the same
conversations ingested one call each mean (on both stores), and on Elasticsearch the batch and its
follow-up embedding cost a handful of requests, not a few per conversation."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from memory.errors import InvalidMessage
from memory.ingest_batch import IngestItem

T0 = datetime(2026, 11, 2, 9, 0, tzinfo=timezone.utc)


def msg(ext: str, text: str, minutes: int, author: str = "maya", reply_to: str | None = None):
    return {"role": "user", "author": author, "content": text, "external_id": ext,
            "ts": (T0 + timedelta(minutes=minutes)).isoformat(), "reply_to": reply_to}


def conversations(a: str, b: str, c: str) -> list[IngestItem]:
    """Profile a twice in one session and once in another (its second conversation supersedes a
    fact of the first and replies to it), b twice with the same messages, c with nothing to say (an
    invalid message)."""
    return [
        IngestItem(a, [msg("a1", "The rate limit for the billing API is 100 requests per minute.",
                           0),
                       msg("a2", "Thanks, noted for the billing runbook.", 1, "tomas")], "d1"),
        IngestItem(b, [msg("b1", "We deploy the search service every Thursday at noon.", 0),
                       msg("b2", "I will migrate the search dashboards by Friday.", 2, "li")],
                   "d1"),
        IngestItem(c, [msg("c1", "   ", 0)], "d1"),
        IngestItem(a, [msg("a3", "The rate limit for the billing API is 500 requests per minute "
                                 "now.", 60 * 24),
                       msg("a4", "Agreed, 500 is what we load tested.", 60 * 24 + 1, "tomas",
                           reply_to="a1"),
                       # a platform id stored already: skipped, whatever the text says now
                       msg("a2", "Thanks, noted for the billing runbook!!", 60 * 24 + 2,
                           "tomas")], "d2"),
        IngestItem(b, [msg("b1", "We deploy the search service every Thursday at noon.", 0),
                       msg("b2", "I will migrate the search dashboards by Friday.", 2, "li")],
                   "d1"),
        IngestItem(a, [msg("a5", "Always page the billing on-call before changing the rate "
                                 "limit.", 60 * 24 + 5)], "d2"),
    ]


def state(service, name: str) -> tuple[list, list]:
    messages = sorted((m.id, m.external_id, m.content, m.session_id)
                      for m in service.store.iter_messages(name))
    memories = sorted((m.id, m.type, m.content, m.topic_key, m.status, m.supersedes,
                       m.superseded_by, tuple(m.source_message_ids))
                      for m in service.store.list_memories(name, include_inactive=True))
    return messages, memories


def outcome(result) -> tuple:
    if isinstance(result, Exception):
        return (type(result).__name__,)
    return (result.messages_new, result.messages_skipped, result.memories_created,
            result.memories_superseded, tuple(result.message_ids),
            tuple(sorted(result.pending_vector_ids)))


@pytest.mark.parametrize("vectorize", [False, True])
def test_one_call_means_what_one_call_per_conversation_means(service, profile_name, vectorize):
    together = [f"{profile_name}-{x}" for x in "abc"]
    apart = [f"{profile_name}-{x}2" for x in "abc"]
    with service.store.deferred_refresh():
        batch = service.ingest_many(conversations(*together), vectorize=vectorize)
    one_by_one = [service.ingest_many([item], vectorize=vectorize)[0]
                  for item in conversations(*apart)]
    assert [outcome(r) for r in batch] == [outcome(r) for r in one_by_one]
    assert isinstance(batch[2], InvalidMessage)  # c's message: refused, nothing of it stored
    for x, y in zip(together, apart):
        assert state(service, x) == state(service, y)
    messages, memories = state(service, together[0])
    assert {m[1] for m in messages} == {"a1", "a2", "a3", "a4", "a5"}
    assert "Thanks, noted for the billing runbook." in {m[2] for m in messages}
    superseded = [m for m in memories if m[4] == "superseded"]
    assert superseded and all("100 requests" in m[2] for m in superseded)
    assert any("500 requests" in m[2] and m[4] == "active" for m in memories)
    assert state(service, together[2]) == ([], [])
    assert batch[4].messages_new == 0 and batch[4].messages_skipped == 2  # b again: nothing new


@pytest.mark.parametrize("service", ["elasticsearch"], indirect=True)
def test_a_batch_of_many_profiles_costs_a_few_elasticsearch_requests(service, profile_name,
                                                                     monkeypatch):
    transport = service.store.client.transport
    real = transport.perform_request
    requests: list[str] = []

    def counting(method, target, *args, **kwargs):
        requests.append(f"{method} {target.split('?')[0]}")
        return real(method, target, *args, **kwargs)
    monkeypatch.setattr(transport, "perform_request", counting)
    items = [IngestItem(f"{profile_name}-{i}",
                        [msg(f"m{i}-{k}", f"The cache TTL for service {i} is {k + 5} minutes.", k)
                         for k in range(4)], "d1") for i in range(20)]
    with service.store.deferred_refresh():
        results = service.ingest_many(items, vectorize=False)
    assert all(r.messages_new == 4 for r in results)
    # lookups by platform id and by id, the conversations' documents (session_text) get, the
    # messages' bulk, then their documents' bulk (a document names only stored messages), the
    # memories' get, topic lookup, two bulks, one refresh: 10; one conversation at a time it was
    # 4 or more per conversation
    assert len(requests) <= 10, "\n".join(requests)
    # the follow-up embedding of the whole batch: a read of its memories and messages, one
    # write of each kind of vector, a refresh (it was four requests or more per profile)
    requests.clear()
    pending = {item.profile: result.pending_vector_ids for item, result in zip(items, results)}
    assert service.index_vectors(pending) == sum(
        not i.startswith("passages:") for ids in pending.values() for i in ids)
    assert len(requests) <= 6, "\n".join(requests)
    for item in items:
        assert len(service.store.passage_vector_ids(item.profile)) == 4


@pytest.mark.parametrize("service", ["elasticsearch"], indirect=True)
def test_a_search_of_a_recovering_cluster_is_an_outage_not_a_refusal(service, profile_name,
                                                                     monkeypatch):
    """A node back from a crash answers an msearch item with 503 "all shards failed" until its
    shards recover: that is the store being unavailable (the worker waits it out), not a refusal
    of the events (which would set them aside). Seen in test_workers_real's crash test."""
    from memory.errors import StoreUnavailable

    def recovering(**_):
        return {"responses": [{"status": 503, "error": {
            "type": "search_phase_execution_exception", "reason": "all shards failed"}}]}
    monkeypatch.setattr(service.store.client, "msearch", recovering)
    with pytest.raises(StoreUnavailable, match="HTTP 503"):
        service.ingest_many([IngestItem(profile_name, [msg("r1", "The VPN moved to Oslo.", 0)],
                                        "d1")])


def _counting_extractor(service, monkeypatch) -> list:
    """Counts the extractor's calls (the real one still runs)."""
    calls: list = []
    real = service.extractor.extract

    def extract(lines):
        calls.append([line.content for line in lines])
        return real(lines)

    monkeypatch.setattr(service.extractor, "extract", extract)
    return calls


def test_extraction_done_ahead_of_the_locks_means_the_same_and_is_not_done_twice(
        service, profile_name, monkeypatch):
    """A worker extracts a batch before taking its profiles' locks (speculate_many), then ingests
    under them: the result is what ingesting alone gives, and a conversation whose inputs did not
    change is not extracted again (profile a's second conversation depends on its first one's
    writes, so it and the third are extracted under the locks, as before)."""
    now = T0 + timedelta(days=3)
    ahead = [f"{profile_name}-{x}" for x in "abc"]
    plain = [f"{profile_name}-{x}2" for x in "abc"]
    calls = _counting_extractor(service, monkeypatch)
    speculated = service.speculate_many(conversations(*ahead), now)
    assert len(speculated) == 2 and len(calls) == 2  # a's and b's first conversations
    assert state(service, ahead[0]) == ([], [])  # nothing written
    calls.clear()
    with service.store.deferred_refresh():
        batch = service.ingest_many(conversations(*ahead), now=now, speculated=speculated)
    # a's second and third conversations only: a's first and b's were taken from ahead
    assert len(calls) == 2 and any("500 requests per minute now" in c for c in calls[0])
    assert not any("search service" in line for c in calls for line in c)
    assert not speculated  # each result used once
    with service.store.deferred_refresh():
        alone = service.ingest_many(conversations(*plain), now=now)
    assert [outcome(r) for r in batch] == [outcome(r) for r in alone]
    for x, y in zip(ahead, plain):
        assert state(service, x) == state(service, y)


@pytest.mark.parametrize("meanwhile", ["the parent", "the parent and a message"])
def test_what_changed_between_extraction_and_the_locks_is_extracted_again(
        service, profile_name, monkeypatch, meanwhile):
    """Another writer got there first: it stored the message a reply answers (and one of the
    batch's messages). Extraction done before that is not used: the batch is extracted again
    with what is stored now, and means what it would have meant without the head start."""
    now = T0 + timedelta(days=3)
    name, other = f"{profile_name}-x", f"{profile_name}-y"

    def batch(profile: str) -> list[IngestItem]:
        return [IngestItem(profile, [
            msg("x2", "Agreed, 500 is what we load tested.", 61, "tomas", reply_to="x1"),
            msg("x3", "The search timeout is 30 seconds.", 62)], "d1")]

    calls = _counting_extractor(service, monkeypatch)
    speculated = service.speculate_many(batch(name), now)
    assert len(speculated) == 1
    first = [msg("x1", "Can we raise the billing rate limit to 500 requests per minute?", 60)]
    if meanwhile != "the parent":
        first.append(msg("x3", "The search timeout is 30 seconds.", 62))
    for profile in (name, other):  # meanwhile, under the lock of another worker
        service.ingest_many([IngestItem(profile, first, "d1")], now=now)
    calls.clear()
    got = service.ingest_many(batch(name), now=now, speculated=speculated)
    assert len(calls) == 1 and any("rate limit" in line for line in calls[0])  # parent read
    want = service.ingest_many(batch(other), now=now)
    assert outcome(got[0]) == outcome(want[0])
    assert got[0].messages_new == (2 if meanwhile == "the parent" else 1)
    assert state(service, name)[1] == state(service, other)[1]


def test_a_short_first_message_is_read_with_the_one_before_it_in_a_batch_of_many(service,
                                                                                 profile_name):
    """memory.said_before in a worker's batch: each profile's short first message is read with
    its session's message before it, looked up for every profile at once."""
    names = [f"{profile_name}-{x}" for x in "ab"]
    service.ingest_many([IngestItem(n, [msg("r1", "can someone rotate the staging keys today?",
                                            0, "tomas")], "d1") for n in names])
    results = service.ingest_many([IngestItem(names[0], [msg("r2", "on it", 20, "li")], "d1"),
                                   IngestItem(names[1], [msg("r2", "on it", 20, "li")], "d2")])
    assert all(r.messages_new == 1 for r in results)
    claims = {n: [m.content for m in service.store.list_memories(n) if "on it" in m.content]
              for n in names}
    # (the second profile's reply is in another session: it answers nothing)
    assert claims == {names[0]: ["can someone rotate the staging keys today? li is on it."],
                      names[1]: []}


def test_a_decision_first_in_its_batch_is_read_with_the_discussion_in_a_batch_of_many(
        service, profile_name):
    """memory.said_before in a worker's batch: "agreed, …" opening a profile's batch is read with
    the proposal before it and the discussion before that, looked up for every profile at once;
    a proposal over half an hour before is no discussion of it."""
    names = [f"{profile_name}-{x}" for x in "ab"]
    for n, gap in zip(names, (20, 45)):
        service.ingest_many([IngestItem(n, [
            msg("d1", "rate limit discussion: free tier 60/min is too low", 0, "ana"),
            msg("d2", "proposal: free 120/min, pro 600/min", 10, "ben")], "d1")])
    service.ingest_many([IngestItem(n, [msg("d3", "agreed, free goes to 120/min from Monday",
                                            10 + gap, "ana")], "d1")
                         for n, gap in zip(names, (20, 45))])
    decided = {n: [(m.content, m.questions) for m in service.store.list_memories(n)
                   if m.content.startswith("Decision:")] for n in names}
    assert decided == {names[0]: [("Decision: agreed, free goes to 120/min from Monday "
                                   "[2026-11-02] (on ben's \"proposal: free 120/min, pro "
                                   "600/min\")",
                                   ["rate limit discussion: free tier 60/min is too low"])],
                       names[1]: []}, decided
