"""Forget means the bot stops saying it (issue 12), in the engine and both stores: after a forget
neither the memory nor the raw text it came from reaches an answer, a retrieval channel or the
ordinary export (the raw message stays, suppressed, for the audit export); a deleted platform
message leaves no text behind in memories or exports."""
from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone


from memory.ids import message_id
from memory.models import Memory, Message
from memory.passages import split_passages
from memory.stores.base import (CH_MESSAGE_TEXT, CH_PASSAGE_TEXT, CH_PASSAGE_VECTOR,
                                CH_SESSION_TEXT, SearchRequest)
from tests.store_fixtures import chat_event as event
from tests.store_fixtures import unit_vectors

SECRET_HOST = "db-stage-7.internal"
STATEMENT = f"The staging database host is {SECRET_HOST} since the migration."
QUESTION = "what is the staging database host?"
T0 = datetime(2026, 11, 16, 9, tzinfo=timezone.utc)


def said(result) -> str:
    """Everything a recall hands back: the answer, the memories and the raw messages."""
    return result.model_dump_json()


def conversations_matching(service, profile, text: str) -> list[str]:
    """The sessions whose conversation document (session_text) matches `text`."""
    found = service.store.search(profile.name, SearchRequest(text=text,
                                                             channels=(CH_SESSION_TEXT,)))
    return [h.id for h in found[CH_SESSION_TEXT]]


def drawn_from_statement(profile) -> Memory:
    return next(m for m in profile.list() if SECRET_HOST in m.content)


# --- the store contract ---------------------------------------------------------------------------
def msg(content: str, seq: int = 0, **kw) -> Message:
    return Message(id=message_id("s1", "user", content), session_id="s1", role="user",
                   author="ana", content=content, ts=T0 + timedelta(minutes=seq), seq=seq, **kw)


def message_hits(store, profile_name, text) -> list[str]:
    hits = store.search(profile_name, SearchRequest(text=text, channels=(CH_MESSAGE_TEXT,), k=5))
    return [h.id for h in hits[CH_MESSAGE_TEXT]]


def test_suppressed_messages_stay_readable_and_leave_the_message_channel(store, profile_name):
    kept, hidden = msg("the freeze starts friday", 0), msg("the vault unseal phrase is orange", 1)
    store.insert_messages(profile_name, [kept, hidden])
    assert message_hits(store, profile_name, "vault unseal phrase") == [hidden.id]
    assert store.suppress_messages(profile_name, [hidden.id, "unknown"]) == {hidden.id}
    assert store.suppress_messages(profile_name, [hidden.id]) == set()  # idempotent
    assert message_hits(store, profile_name, "vault unseal phrase") == []
    assert message_hits(store, profile_name, "freeze friday") == [kept.id]
    (read,) = store.get_messages(profile_name, [hidden.id])
    assert read.suppressed and read.content == hidden.content  # kept for audit
    assert [m.suppressed for m in store.iter_messages(profile_name)] == [False, True]
    other = profile_name + "-other"  # another profile holding the same message is untouched
    store.insert_messages(other, [hidden])
    assert message_hits(store, other, "vault unseal phrase") == [hidden.id]
    store.delete_profile(other)


def test_a_message_stored_suppressed_is_never_searchable(store, profile_name):
    imported = msg("the backup passphrase hint is lighthouse", 0, suppressed=True,
                   replaces=["a" * 32])
    assert store.insert_messages(profile_name, [imported]) == {imported.id}
    assert message_hits(store, profile_name, "backup passphrase lighthouse") == []
    (read,) = store.get_messages(profile_name, [imported.id])
    assert read.suppressed and read.replaces == ["a" * 32]


def test_a_suppressed_long_message_leaves_the_passage_channels(store, profile_name):
    filler = " ".join(f"Paragraph {i} of the incident write-up covers the timeline." for i in
                      range(40))
    long = msg(f"{filler}\n\nThe vault unseal phrase is orange and blue.\n\n{filler}", 0)
    store.insert_messages(profile_name, [long])
    cuts = split_passages(long.content)
    vectors = unit_vectors(len(cuts), seed=3)
    store.set_passage_vectors(profile_name, {long.id: vectors})

    def found() -> dict[str, list[str]]:
        hits = store.search(profile_name, SearchRequest(
            text="vault unseal phrase", query_vector=vectors[len(cuts) // 2],
            channels=(CH_PASSAGE_TEXT, CH_PASSAGE_VECTOR), k=5))
        return {c: [h.id for h in hits.get(c, [])] for c in (CH_PASSAGE_TEXT, CH_PASSAGE_VECTOR)}

    assert found() == {CH_PASSAGE_TEXT: [long.id], CH_PASSAGE_VECTOR: [long.id]}
    assert store.suppress_messages(profile_name, [long.id]) == {long.id}
    assert found() == {CH_PASSAGE_TEXT: [], CH_PASSAGE_VECTOR: []}
    store.set_passage_vectors(profile_name, {long.id: vectors})  # a late vector task
    assert found() == {CH_PASSAGE_TEXT: [], CH_PASSAGE_VECTOR: []}


# --- forget ---------------------------------------------------------------------------------------
def test_forget_takes_the_memory_and_its_source_text_out_of_every_answer(profile, service):
    profile.ingest([event("Morning all, quick infra sync.", "c:1"),
                    event(STATEMENT, "c:2", 1),
                    event("The rate limit is 100 requests per minute.", "c:3", 2)], "s1")
    assert SECRET_HOST in profile.recall(QUESTION).answer
    assert conversations_matching(service, profile, SECRET_HOST) == ["s1"]
    memory = drawn_from_statement(profile)
    profile.forget(memory.id, reason="moved to vault")
    assert conversations_matching(service, profile, SECRET_HOST) == []  # its text left them too
    assert conversations_matching(service, profile, "rate limit") == ["s1"]
    for question in (QUESTION, SECRET_HOST, "db-stage-7", "staging database migration"):
        assert SECRET_HOST not in said(profile.recall(question)), question
        assert all(SECRET_HOST not in str(f.record) for f in profile.search(question))
    assert "100 requests" in profile.recall("what is the rate limit?").answer  # the rest stays
    (source,) = service.store.get_messages(profile.name, memory.source_message_ids)
    assert source.suppressed and source.content == STATEMENT  # kept for audit
    assert memory.id not in service.store.vector_ids(profile.name)


def test_a_correction_that_quotes_a_forgotten_memory_is_forgotten_with_it(profile, service):
    """A reply that corrects its parent quotes it ("Correction: actually it's db-stage-9 … (to
    maya's "The staging database host is db-stage-7.internal …")"): forgetting the parent's
    memory left the correction saying the forgotten host. It goes with it, by the same forget;
    another statement of the parent's message stays."""
    profile.ingest([event(f"{STATEMENT} The rate limit is 100 requests per minute.", "c:1"),
                    {**event("actually it's db-stage-9.internal now, moved it on Friday", "c:2",
                             1, author="omar"), "reply_to": "c:1"}], "s1")
    correction = next(m for m in profile.list() if m.content.startswith("Correction:"))
    assert SECRET_HOST in correction.content  # it quotes what it corrects
    profile.forget(drawn_from_statement(profile).id, reason="moved to vault")
    assert SECRET_HOST not in " ".join(m.content for m in profile.list())
    (gone,) = service.store.get_memories(profile.name, [correction.id])
    assert gone.status == "forgotten" and gone.forgotten_reason == "moved to vault"
    assert correction.id not in service.store.vector_ids(profile.name)
    for question in (QUESTION, SECRET_HOST, "staging database host"):
        assert SECRET_HOST not in said(profile.recall(question)), question
    assert "100 requests" in profile.recall("what is the rate limit?").answer  # the rest stays
    assert "db-stage-9" in said(profile.recall("db-stage-9"))  # the reply's own words stay


def test_the_ordinary_export_holds_nothing_forgotten_the_audit_export_everything(profile,
                                                                                service):
    profile.ingest([event(STATEMENT, "c:2"), event("Deploys are on Tuesdays.", "c:3", 1)], "s1")
    memory = drawn_from_statement(profile)
    profile.forget(memory.id, reason="moved to vault")
    ordinary = list(profile.export())
    assert SECRET_HOST not in "\n".join(ordinary)
    tombstone = next(json.loads(line) for line in ordinary if memory.id in line)
    assert (tombstone["status"], tombstone["content"], tombstone["forgotten_reason"]) == (
        "forgotten", "[forgotten]", "moved to vault")
    assert "Deploys are on Tuesdays." in "\n".join(ordinary)
    audit = list(profile.export(audit=True))
    assert json.loads(audit[0])["audit"] is True
    records = [json.loads(line) for line in audit[1:]]
    assert any(r["kind"] == "message" and r["suppressed"] and r["content"] == STATEMENT
               for r in records)
    copy = service.profile(profile.name + "-copy")  # an audit export keeps the suppression
    copy.import_lines(audit)
    assert SECRET_HOST not in said(copy.recall(QUESTION))
    assert SECRET_HOST not in "\n".join(copy.export())


def test_an_edit_of_a_forgotten_message_stays_forgotten(profile, service):
    profile.ingest([event(STATEMENT, "c:2")], "s1")
    profile.forget(drawn_from_statement(profile).id, reason="moved to vault")
    fixed = STATEMENT.replace("migration", "migration last week")
    result = profile.edit_message("c:2", fixed)
    assert result.found and result.memories_created == 0
    (stored,) = service.store.iter_messages(profile.name)
    assert stored.suppressed and stored.content == fixed
    assert SECRET_HOST not in said(profile.recall(QUESTION))


# --- deleted platform messages --------------------------------------------------------------------
def test_a_deleted_message_leaves_no_text_in_memories_or_exports(profile, service):
    profile.ingest([event(STATEMENT, "c:2"), event("Deploys are on Tuesdays.", "c:3", 1)], "s1")
    assert conversations_matching(service, profile, SECRET_HOST) == ["s1"]
    result = profile.delete_message("c:2")
    assert conversations_matching(service, profile, SECRET_HOST) == []
    assert result.found and result.memories_forgotten >= 1
    everything = "\n".join([*profile.export(audit=True),
                            *(m.model_dump_json() for m in profile.list(include_inactive=True))])
    assert SECRET_HOST not in everything and "staging database" not in everything
    erased = [m for m in profile.list(include_inactive=True) if m.status == "forgotten"]
    assert erased and all(m.content == "[deleted]" and not m.source_message_ids
                          and m.forgotten_reason == "source message deleted" for m in erased)
    assert SECRET_HOST not in said(profile.recall(QUESTION))
    assert "Tuesdays" in profile.recall("when are deploys?").answer
    assert profile.delete_message("c:2").found is False  # idempotent


def test_a_deleted_or_purged_message_leaves_no_text_in_a_reply_that_quotes_it(profile, service):
    """A correction in a thread quotes its parent, and a reply's memory also cites the message it
    corrects: deleting the parent (or purging its author) kept the correction, with the parent's
    words in it, as "also drawn from other messages". It is erased too; the replier's own raw
    message stays."""
    reply = {**event("actually it's db-stage-9.internal now, moved it on Friday", "c:3", 1,
                     author="omar"), "reply_to": "c:2"}
    for gone in ("delete", "purge"):
        name = f"{profile.name}-{gone}"
        other = service.profile(name)
        other.ingest([event(STATEMENT, "c:2"), reply], "s1")
        assert any(m.content.startswith("Correction:") and SECRET_HOST in m.content
                   for m in other.list())
        if gone == "delete":
            other.delete_message("c:2")
        else:
            other.purge_author("maya")
        everything = "\n".join([*other.export(audit=True),
                                *(m.model_dump_json() for m in other.list(include_inactive=True))])
        assert SECRET_HOST not in everything, gone
        assert "db-stage-9" in said(other.recall("db-stage-9")), gone


def test_deleting_an_edited_message_erases_what_every_version_said(profile):
    profile.ingest([event(STATEMENT, "c:2")], "s1")
    profile.edit_message("c:2", "ok")  # the new text yields no memory: no successor to follow
    older = [m for m in profile.list(include_inactive=True) if SECRET_HOST in m.content]
    assert older and older[0].status == "superseded"
    profile.delete_message("c:2")
    everything = "\n".join([*profile.export(audit=True),
                            *(m.model_dump_json() for m in profile.list(include_inactive=True))])
    assert SECRET_HOST not in everything


def test_purge_erases_what_earlier_versions_of_the_authors_messages_said(profile):
    profile.ingest([event(STATEMENT, "c:2", author="lee (U7)")], "s1")
    profile.edit_message("c:2", "ok")
    profile.purge_author("U7")
    assert SECRET_HOST not in "\n".join(profile.export(audit=True))
