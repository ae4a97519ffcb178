"""A reply is read with the message it answers (issue 12): "Who takes the December on-call?", then,
in its thread, "I'll take it for the first two weeks" must give a memory that answers the question,
however many messages came between and whichever session (batch) each was stored in. On both
stores, with the offline extractor and answerer."""
from __future__ import annotations

from datetime import datetime, timezone

import pytest

from memory.errors import InvalidMessage

NOW = datetime(2026, 12, 1, 9, 0, tzinfo=timezone.utc)
QUESTION = "Who takes the December on-call?"
REPLY = "I'll take it for the first two weeks"
PARENT_ID = "slack:T1:C1:1700000000.000100"
REPLY_ID = "slack:T1:C1:1700000900.000200"


def said(content: str, author: str, minute: int, external_id: str | None = None,
         reply_to: str | None = None) -> dict:
    out = {"role": "user", "author": author, "content": content,
           "ts": f"2026-11-16T09:{minute:02d}:00Z"}
    if external_id:
        out["external_id"] = external_id
    if reply_to:
        out["reply_to"] = reply_to
    return out


def the_reply_memory(profile):
    (memory,) = [m for m in profile.list() if "first two weeks" in m.content]
    return memory


def test_a_thread_reply_stored_later_is_read_with_its_parent(profile):
    profile.ingest([said(QUESTION, "maya (U1)", 0, PARENT_ID),
                    said("The build cache moved to S3 last week.", "li (U3)", 5),
                    said("Can someone restart the staging runner?", "li (U3)", 6)],
                   session_id="C1:2026-11-16")
    before = {m.id for m in profile.list()}
    result = profile.ingest([said(REPLY, "bob (U2)", 30, REPLY_ID, reply_to=PARENT_ID)],
                            session_id="C1:thread:1700000000.000100")
    parent = profile.messages_by_external_id([PARENT_ID])[PARENT_ID]
    reply = profile.messages_by_external_id([REPLY_ID])[REPLY_ID]
    assert reply.reply_to == PARENT_ID
    memory = the_reply_memory(profile)
    assert memory.source_message_ids == [reply.id, parent.id], "cites the question it answers"
    assert QUESTION in memory.questions
    new = [m for m in profile.list() if m.id not in before]
    assert [m.id for m in new] == [memory.id] and result.memories_created == 1, \
        "the parent gives no memory a second time"
    answer = profile.recall(QUESTION, now=NOW)
    assert "first two weeks" in answer.answer
    assert parent.id in {i for s in answer.memories for i in s.memory.source_message_ids}


def test_a_reply_in_the_same_batch_pairs_with_its_parent_not_the_message_before(profile):
    profile.ingest([said(QUESTION, "maya (U1)", 0, PARENT_ID),
                    said("Can someone restart the staging runner?", "li (U3)", 5),
                    said("The build cache moved to S3 last week.", "li (U3)", 6),
                    said("Who reviews the billing webhooks PR?", "li (U3)", 7),
                    said(REPLY, "bob (U2)", 30, REPLY_ID, reply_to=PARENT_ID)],
                   session_id="C1:2026-11-16")
    memory = the_reply_memory(profile)
    parent = profile.messages_by_external_id([PARENT_ID])[PARENT_ID]
    assert parent.id in memory.source_message_ids
    assert QUESTION in memory.questions
    assert not any("billing" in q for q in memory.questions), "not the message just before"


def test_a_parent_that_was_forgotten_is_not_brought_back(profile):
    profile.ingest([said("Who takes the December on-call? The pager code is 4471.", "maya (U1)", 0,
                         PARENT_ID)], session_id="C1:2026-11-16")
    for m in profile.list():
        profile.forget(m.id, "test")
    profile.ingest([said(REPLY, "bob (U2)", 30, REPLY_ID, reply_to=PARENT_ID)],
                   session_id="C1:thread:1700000000.000100")
    parent = profile.messages_by_external_id([PARENT_ID])[PARENT_ID]
    assert parent.suppressed
    assert parent.id not in the_reply_memory(profile).source_message_ids


def test_a_reply_to_an_unknown_message_is_ingested_alone_and_a_bad_reply_to_refused(profile):
    profile.ingest([said(REPLY, "bob (U2)", 30, REPLY_ID, reply_to="slack:T1:C1:1.0")],
                   session_id="C1:thread:1.0")
    assert len(the_reply_memory(profile).source_message_ids) == 1
    with pytest.raises(InvalidMessage, match="reply_to"):
        profile.ingest([{**said("Deploys are on Tuesdays.", "li", 40), "reply_to": 7}],
                       session_id="C1:2026-11-16")
