"""The Profile operations chat adapters and workers use instead of reaching into the store, on both
stores: platform ids already stored, messages by id, memories by id prefix, and the memories a
redelivery may have left without a vector."""
from __future__ import annotations

CHAT = [{"role": "user", "author": "maya", "external_id": "slack:T1:C1:1", "ts": "2026-11-16T09:00Z",
         "content": "We decided to cap the API rate limit at 500 requests per minute."},
        {"role": "user", "author": "sam", "external_id": "slack:T1:C1:2", "ts": "2026-11-16T09:01Z",
         "content": "The staging database moves to Postgres 16 next week."},
        {"role": "user", "author": "li", "ts": "2026-11-16T09:02Z",
         "content": "Always run the linter before pushing to main."}]


def test_known_platform_ids_and_messages_stay_in_their_profile(service, profile_name):
    profile = service.profile(profile_name)
    result = profile.ingest(CHAT, "s1")
    assert profile.known_external_ids(["slack:T1:C1:1", "slack:T1:C1:9"]) == {"slack:T1:C1:1"}
    many = [f"slack:T1:C1:x{i}" for i in range(2500)] + ["slack:T1:C1:2"]  # several lookups
    assert profile.known_external_ids(iter(many)) == {"slack:T1:C1:2"}
    stored = profile.messages_by_external_id(["slack:T1:C1:2", "slack:T1:C1:9"])
    assert list(stored) == ["slack:T1:C1:2"] and stored["slack:T1:C1:2"].author == "sam"
    assert {m.id for m in profile.messages([*result.message_ids, "0" * 32])} == set(
        result.message_ids)
    other = service.profile(profile_name + "-other")
    assert other.messages(result.message_ids) == [] and not other.known_external_ids(many)


def test_memories_by_id_prefix_are_the_active_ones(service, profile_name):
    profile = service.profile(profile_name)
    profile.ingest(CHAT, "s1")
    memory = profile.list()[0]
    assert profile.memories_by_id_prefix(memory.id[:10]) == [memory]
    assert profile.memories_by_id_prefix(memory.id) == [memory]
    assert service.profile(profile_name + "-other").memories_by_id_prefix(memory.id) == []
    profile.forget(memory.id, "no longer true")
    assert profile.memories_by_id_prefix(memory.id) == []
    assert profile.memories_by_id_prefix(memory.id[:10]) == []


def test_forget_takes_an_id_as_answers_show_it_and_refuses_an_ambiguous_one(service,
                                                                           profile_name):
    import pytest

    from memory.errors import InvalidMessage, UnknownMemory
    profile = service.profile(profile_name)
    profile.ingest(CHAT, "s1")
    memory = next(m for m in profile.list() if "linter" in m.content)
    assert profile.forget(memory.id[:12], "we stopped linting").id == memory.id
    assert profile.memories_by_id_prefix(memory.id[:12]) == []
    # two memories whose ids share a prefix (written straight to the store: content hashes
    # that collide in 8 characters are rare in a test-sized profile)
    twins = [m.model_copy(update={"id": "abcdef12" + tail}) for m, tail in
             zip(profile.list()[:2], ("0" * 24, "f" * 24))]
    service.store.upsert_memories(profile_name, twins)
    with pytest.raises(InvalidMessage, match="more than one memory's id starts with 'abcdef12'"):
        profile.forget("abcdef12", "x")
    assert profile.forget("abcdef12f", "x").id == twins[1].id
    with pytest.raises(UnknownMemory):
        profile.forget("abcdef", "x")  # shorter than any id shown: not a prefix
    with pytest.raises(UnknownMemory):
        service.profile(profile_name + "-other").forget(twins[0].id[:12], "x")


def test_unindexed_memories_are_the_active_embeddable_ones_of_those_messages(service,
                                                                             profile_name):
    profile = service.profile(profile_name)
    result = profile.ingest(CHAT, "s1", vectorize=False)
    assert result.pending_vector_ids
    assert set(profile.unindexed_memories(result.message_ids)) == set(result.pending_vector_ids)
    first = profile.unindexed_memories(result.message_ids[:1])
    assert first and set(first) < set(result.pending_vector_ids)
    profile.forget(first[0], "wrong")
    assert first[0] not in profile.unindexed_memories(result.message_ids)
