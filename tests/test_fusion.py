"""Weighted reciprocal-rank fusion: equal evidence channels, corroborating topic keys, and a raw
message folded into the memory drawn from it."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from memory.fusion import DEFAULT_WEIGHTS, RRF_K, SESSION_PRIOR_DEPTH, fuse
from memory.models import Memory, Message
from memory.stores.base import (CH_ASKER_TEXT, CH_HYDE, CH_MEMORY_TEXT, CH_MESSAGE_TEXT, CH_SESSION_TEXT,
                                CH_TOPIC, CH_VECTOR, Hit)

T0 = datetime(2026, 11, 2, 9, 0, tzinfo=timezone.utc)


def memory(mid: str, sources: list[str] = (), minutes: int = 0, topic: str | None = None,
           context: list[str] = ()) -> Memory:
    """A memory that carries its sources' text (see message()) and cites `context` only."""
    said = " ".join(f"message {s}" for s in sources)
    return Memory(id=mid, type="fact", content=f"memory {mid} {said}".strip(), topic_key=topic,
                  source_message_ids=[*sources, *context],
                  created_at=T0 + timedelta(minutes=minutes))


def message(mid: str, minutes: int = 0) -> Message:
    return Message(id=mid, session_id="s", role="user", content=f"message {mid}",
                   ts=T0 + timedelta(minutes=minutes))


def hits(*records) -> list[Hit]:
    return [Hit(r.id, 1.0, r) for r in records]


def ids(fused) -> list[str]:
    return [f.record.id for f in fused]


def test_scores_are_weighted_reciprocal_ranks():
    a, b = memory("a"), memory("b")
    fused = fuse({CH_MEMORY_TEXT: hits(a, b), CH_VECTOR: hits(b)})
    assert ids(fused) == ["b", "a"]
    assert fused[0].score == pytest.approx(1 / (RRF_K + 2) + 1 / (RRF_K + 1))
    assert fused[0].channels == [CH_MEMORY_TEXT, CH_VECTOR]
    assert fused[1].score == pytest.approx(1 / (RRF_K + 1))


def test_evidence_channels_weigh_the_same():
    """Raw-message BM25 is evidence like the memory channels, not a down-weighted afterthought."""
    assert DEFAULT_WEIGHTS[CH_MESSAGE_TEXT] == DEFAULT_WEIGHTS[CH_MEMORY_TEXT] \
        == DEFAULT_WEIGHTS[CH_VECTOR]
    assert DEFAULT_WEIGHTS[CH_HYDE] < DEFAULT_WEIGHTS[CH_VECTOR] < DEFAULT_WEIGHTS[CH_TOPIC]


def test_a_topic_key_alone_does_not_nominate_a_memory():
    junk, found = memory("junk", topic="adoption"), memory("found")
    fused = fuse({CH_TOPIC: hits(junk), CH_MEMORY_TEXT: hits(found)})
    assert ids(fused) == ["found"]


def test_a_topic_key_corroborating_a_content_hit_lifts_it_to_the_top():
    first, keyed = memory("first"), memory("keyed", topic="rate limit")
    fused = fuse({CH_MEMORY_TEXT: hits(first, memory("x"), keyed), CH_TOPIC: hits(keyed)})
    assert ids(fused)[0] == "keyed" and fused[0].channels == [CH_MEMORY_TEXT, CH_TOPIC]


def test_the_topic_channel_alone_still_ranks_for_ablations():
    keyed = memory("keyed", topic="rate limit")
    assert ids(fuse({CH_TOPIC: hits(keyed)})) == ["keyed"]


def test_a_message_folds_into_the_best_memory_drawn_from_it():
    src, other = message("m1"), message("m2")
    strong, weak = memory("strong", ["m1"]), memory("weak", ["m1"])
    fused = fuse({CH_MEMORY_TEXT: hits(strong, weak), CH_MESSAGE_TEXT: hits(src, other)})
    # m1 is cited by "strong", not listed again; "weak" (same source) comes after new evidence
    assert ids(fused) == ["strong", "m2", "weak"]
    assert fused[0].score == pytest.approx(1 / (RRF_K + 1) * 2)
    assert fused[0].channels == [CH_MEMORY_TEXT, CH_MESSAGE_TEXT]
    # its own evidence lifted the memory above a message that ranked first for BM25
    assert fused[0].score > fused[1].score


def test_the_askers_message_a_memory_cites_as_context_only_keeps_its_place_and_lends_nothing():
    """A reply's memory cites the question it answers; the question is not in it. The asker's
    question ("I never met Bryan, can you ...?") is what they said: folded, it would be hidden.
    Anyone else's message folds as before (LoCoMo's declines measured it)."""
    question = message("q").model_copy(update={"content": "I never met Bryan, can you help?"})
    answer = message("a").model_copy(update={"content": "Here is a statement that clarifies it."})
    reply = memory("reply", context=["q"]).model_copy(update={
        "content": "Here is a statement that clarifies it", "source_message_ids": ["a", "q"]})
    weights = {**DEFAULT_WEIGHTS, CH_ASKER_TEXT: 1.0}
    fused = fuse({CH_MEMORY_TEXT: hits(reply), CH_MESSAGE_TEXT: hits(question, answer),
                  CH_ASKER_TEXT: hits(question)}, weights)
    # the answer the reply's memory carries folds into it; the question stays a result of its
    # own and lends the memory nothing (the memory does not say it), so it comes first
    assert ids(fused) == ["q", "reply"]
    assert fused[0].score == pytest.approx(1 / (RRF_K + 1) * 2)
    assert fused[1].score == pytest.approx(1 / (RRF_K + 1) + 1 / (RRF_K + 2))
    assert fused[0].channels == [CH_MESSAGE_TEXT, CH_ASKER_TEXT]
    assert fused[1].channels == [CH_MEMORY_TEXT, CH_MESSAGE_TEXT]
    # found by the other channels only, the question folds into the reply's memory
    fused = fuse({CH_MEMORY_TEXT: hits(reply), CH_MESSAGE_TEXT: hits(question, answer)}, weights)
    assert ids(fused) == ["reply"]


def test_the_askers_message_folds_only_into_a_memory_drawn_from_it_alone():
    """What the asker said is shown as itself: a memory of that one message that says it stands
    in for it; a memory drawn from it and another message (their answer, read with the question
    it answers) is another reading of the exchange, and gains nothing from the asker's weight."""
    said = message("s").model_copy(update={"content": "I use Flask routes for the budget app."})
    alone = memory("alone").model_copy(update={
        "content": "Jordan uses Flask routes for the budget app.", "source_message_ids": ["s"]})
    exchange = alone.model_copy(update={"id": "exchange", "source_message_ids": ["s", "a"]})
    weights = {**DEFAULT_WEIGHTS, CH_ASKER_TEXT: 4.0}
    for cited_by, expected in ((alone, ["alone"]), (exchange, ["s", "exchange"])):
        fused = fuse({CH_MEMORY_TEXT: hits(cited_by), CH_ASKER_TEXT: hits(said)}, weights)
        assert ids(fused) == expected
    # the exchange's memory keeps its own score; the asker's message comes first with theirs
    assert fused[0].score == pytest.approx(4 / (RRF_K + 1))
    assert fused[1].score == pytest.approx(1 / (RRF_K + 1))
    assert fused[0].channels == [CH_ASKER_TEXT] and fused[1].channels == [CH_MEMORY_TEXT]
    # anyone else's message still folds into a memory of several messages
    fused = fuse({CH_MEMORY_TEXT: hits(exchange), CH_MESSAGE_TEXT: hits(said)}, weights)
    assert ids(fused) == ["exchange"] and fused[0].score == pytest.approx(2 / (RRF_K + 1))


def test_the_askers_messages_decay_down_their_ranking_faster_than_other_channels():
    """The asker's first message still weighs most (weight 4), but their twentieth no longer
    outweighs a record that the other channels rank first with as much weight together (3): at
    the usual constant it did (4 / 80 against 3 / 61), so all twenty of the asker's messages
    came first."""
    theirs = [message(f"m{i}", minutes=i) for i in range(20)]
    best = memory("best")
    fused = fuse({CH_MEMORY_TEXT: hits(best), CH_VECTOR: hits(best), CH_ASKER_TEXT: hits(*theirs)},
                 {CH_MEMORY_TEXT: 1.5, CH_VECTOR: 1.5, CH_ASKER_TEXT: 4.0})
    order = ids(fused)
    assert order[0] == "m0" and fused[0].score == pytest.approx(4 / (RRF_K + 1))
    assert fused[order.index("best")].score == pytest.approx(3 / (RRF_K + 1))
    assert order.index("best") < order.index("m19")
    assert order == sorted(order, key=lambda i: -next(f.score for f in fused if f.record.id == i))


def test_a_message_no_retrieved_memory_cites_stays_a_result():
    lone = message("lone", minutes=5)
    fused = fuse({CH_MEMORY_TEXT: hits(memory("a", ["elsewhere"])), CH_MESSAGE_TEXT: hits(lone)})
    assert sorted(ids(fused)) == ["a", "lone"]


def test_ties_go_to_the_newer_record_and_zero_weights_are_left_out():
    old, new = memory("old", minutes=0), memory("new", minutes=9)
    fused = fuse({CH_MEMORY_TEXT: hits(old), CH_VECTOR: hits(new), CH_HYDE: hits(old)},
                 {CH_MEMORY_TEXT: 1.0, CH_VECTOR: 1.0, CH_HYDE: 0.0})
    assert ids(fused) == ["new", "old"]


def test_records_bringing_new_evidence_come_before_repeats_of_the_same_sources():
    one_a, one_b = memory("one-a", ["m1"]), memory("one-b", ["m1"])
    two, bare = memory("two", ["m2"]), memory("bare")  # remembered directly: no sources
    bare2 = memory("bare2")
    fused = fuse({CH_MEMORY_TEXT: hits(one_a, one_b, bare, bare2, two)})
    assert ids(fused) == ["one-a", "bare", "bare2", "two", "one-b"]
    assert [round(f.score, 6) for f in fused] != sorted(round(f.score, 6) for f in fused)


def test_a_message_and_its_passages_are_one_result_showing_the_passage():
    from memory.models import Passage
    from memory.stores.base import CH_PASSAGE_TEXT, CH_PASSAGE_VECTOR

    long = message("long")
    part = Passage(**long.model_dump(exclude={"content"}), content="the part that matched",
                   passage=3, start=100, end=121)
    other = message("other")
    fused = fuse({CH_MESSAGE_TEXT: hits(long, other), CH_PASSAGE_TEXT: hits(part),
                  CH_PASSAGE_VECTOR: hits(other, part)})
    assert ids(fused) == ["long", "other"]  # one entry per message
    assert isinstance(fused[0].record, Passage) and fused[0].record.content == "the part that matched"
    assert fused[0].channels == [CH_MESSAGE_TEXT, CH_PASSAGE_TEXT, CH_PASSAGE_VECTOR]
    assert fused[0].score == pytest.approx(2 / (RRF_K + 1) + 1 / (RRF_K + 2))
    # and a memory drawn from the message takes it in, as it takes a whole-message hit
    drawn = memory("m", sources=["long"]).model_copy(update={"content": "The part that matched."})
    fused = fuse({CH_MEMORY_TEXT: hits(drawn), CH_PASSAGE_VECTOR: hits(part)})
    assert ids(fused) == ["m"] and CH_PASSAGE_VECTOR in fused[0].channels


def test_the_best_sessions_lift_their_records_once_and_nominate_nothing():
    in_best = memory("m1", sources=["x"]).model_copy(update={"session_id": "best"})
    folded = message("x").model_copy(update={"session_id": "best"})
    elsewhere = memory("m2").model_copy(update={"session_id": "other"})
    unseen = Hit("deep", 9.0, None)
    sessions = [Hit("best", 3.0, None), Hit("unrelated", 2.0, None)]
    # without sessions: m2 leads (two channels); with them, m1 gains 1/(K+1) once (the message
    # folded into it is not lifted a second time) and overtakes it
    plain = fuse({CH_MEMORY_TEXT: hits(elsewhere, in_best), CH_VECTOR: hits(elsewhere),
                  CH_MESSAGE_TEXT: hits(folded)})
    assert ids(plain) == ["m2", "m1"]
    lifted = fuse({CH_MEMORY_TEXT: hits(elsewhere, in_best), CH_VECTOR: hits(elsewhere),
                   CH_MESSAGE_TEXT: hits(folded), CH_SESSION_TEXT: sessions + [unseen]})
    assert ids(lifted) == ["m1", "m2"]
    m1 = lifted[0]
    assert m1.score == pytest.approx(plain[1].score + 1 / (RRF_K + 1))
    assert m1.channels.count(CH_SESSION_TEXT) == 1
    # a session alone finds nothing; sessions deeper than SESSION_PRIOR_DEPTH lift nothing
    assert fuse({CH_SESSION_TEXT: sessions}) == []
    deep = [Hit(f"s{i}", 1.0, None) for i in range(SESSION_PRIOR_DEPTH)] + [Hit("best", 1.0, None)]
    again = fuse({CH_MEMORY_TEXT: hits(in_best), CH_SESSION_TEXT: deep})
    assert again[0].score == pytest.approx(1 / (RRF_K + 1))
    # weight 0 turns it off (`--weight session_text=0` in the eval)
    off = fuse({CH_MEMORY_TEXT: hits(elsewhere, in_best), CH_VECTOR: hits(elsewhere),
                CH_SESSION_TEXT: sessions}, {**DEFAULT_WEIGHTS, CH_SESSION_TEXT: 0.0})
    assert ids(off) == ["m2", "m1"]
