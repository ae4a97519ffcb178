"""Chat edits and deletes, deferred vectorising, and out-of-order delivery, on both stores."""
from __future__ import annotations

from tests.store_fixtures import chat_event as event


def active(profile):
    return {m.content for m in profile.list()}


def test_edit_supersedes_memories_from_the_old_text(profile):
    profile.ingest([event("The rate limit is 100 requests per minute.", "slack:C1:1")], "s1")
    old = profile.list()[0]
    r = profile.edit_message("slack:C1:1", "The rate limit is 250 requests per minute.")
    assert r.found and r.old_message_id != r.new_message_id and r.memories_created == 1
    assert active(profile) == {"The rate limit is 250 requests per minute."}
    history = {m.id: m for m in profile.list(include_inactive=True)}
    assert history[old.id].status == "superseded"
    assert history[history[old.id].superseded_by].content.endswith("250 requests per minute.")
    assert old.id not in profile.service.store.vector_ids(profile.name)
    msgs = list(profile.service.store.iter_messages(profile.name))
    assert [(m.content, m.external_id) for m in msgs] == [
        ("The rate limit is 250 requests per minute.", "slack:C1:1")]
    assert "250" in profile.recall("what is the rate limit?").answer
    again = profile.edit_message("slack:C1:1", "The rate limit is 250 requests per minute.")
    assert again.found and again.memories_created == 0
    assert len(profile.list(include_inactive=True)) == 2


def test_edit_without_topic_key_still_retires_old_memory(profile):
    profile.ingest([event("We shipped the billing webhooks on Monday.", "d:1")], "s1")
    profile.edit_message("d:1", "We shipped the billing webhooks and the audit log on Monday.")
    assert active(profile) == {"We shipped the billing webhooks and the audit log on Monday "
                               "[2026-11-16]."}


def test_delete_forgets_memories_whose_only_source_it_was(profile):
    profile.ingest([event("The staging URL is https://staging.example.dev today.", "e:1"),
                    event("Always run the linter before pushing to main.", "e:2", 1)], "s1")
    r = profile.delete_message("e:1")
    assert r.found and r.memories_forgotten == 1
    assert active(profile) == {"Always run the linter before pushing to main."}
    forgotten = [m for m in profile.list(include_inactive=True) if m.status == "forgotten"]
    assert forgotten[0].forgotten_reason == "source message deleted"
    assert profile.service.store.count(profile.name)["messages"] == 1
    assert profile.delete_message("e:1").found is False  # idempotent
    assert profile.delete_message("never-seen").found is False


def test_redelivered_create_after_edit_does_not_restore_old_text(profile):
    profile.ingest([event("The deploy window is Tuesday mornings.", "x:1")], "s1")
    profile.edit_message("x:1", "The deploy window is Thursday mornings.")
    again = profile.ingest([event("The deploy window is Tuesday mornings.", "x:1")], "s1")
    assert again.messages_new == 0 and again.memories_created == 0
    assert active(profile) == {"The deploy window is Thursday mornings."}


def test_edit_arriving_before_its_create(profile):
    r = profile.edit_message("y:1", "The deploy window is Friday afternoons.", session_id="s1",
                             ts="2026-11-16T10:00:00Z")
    assert not r.found and r.memories_created == 1
    profile.ingest([event("The deploy window is Monday mornings.", "y:1")], "s1")
    assert active(profile) == {"The deploy window is Friday afternoons."}
    assert profile.edit_message("z:9", "no such message").found is False


def test_deferred_vectors(profile):
    r = profile.ingest([event("The rate limit is 100 requests per minute.", "v:1"),
                        event("I will write the migration guide by Friday.", "v:2", 1)], "s1",
                       vectorize=False)
    store = profile.service.store
    memories = [i for i in r.pending_vector_ids if not i.startswith("passages:")]
    assert r.memories_created == 2 and len(memories) == 1  # the task is never embedded
    assert sorted(i for i in r.pending_vector_ids if i.startswith("passages:")) == sorted(
        f"passages:{i}" for i in r.message_ids)  # both messages' raw text, by meaning too
    assert store.vector_ids(profile.name) == set()
    assert store.passage_vector_ids(profile.name) == set()
    assert profile.index_vectors(r.pending_vector_ids) == 1
    assert store.vector_ids(profile.name) == set(memories)
    assert store.passage_vector_ids(profile.name) == set(r.message_ids)
    assert profile.index_vectors(r.pending_vector_ids) == 1  # idempotent
    assert store.count(profile.name)["vectors"] == 1
