"""Weighted reciprocal-rank fusion of the retrieval channels.

score(doc) = sum over channels c that returned doc of  weight[c] / (K + rank_c(doc))

(the asker channels decay faster down their ranking: CHANNEL_RRF_K).

Raw messages and passages of them are one record per message: a message's passage hits and its
whole-message hit add up, and the entry shows the passage (the part that matched, what the answerer
reads) rather than the whole message.

Six rules on top of plain RRF, each measured on LoCoMo or BEAM (README: Evaluation):
- Evidence channels weigh the same (BM25 over memories, BM25 over raw messages, the query vector):
  each is the best one on some questions, and RRF's strength is agreement between them.
- The asker's own words weigh most: for a question in the first person whose asker is known,
  BM25 and kNN over the messages they wrote (memory.stores.base: the asker channels). Other
  people's and bots' long messages otherwise fill the other channels' first hits.
- The exact topic-key channel corroborates, it does not nominate: the question's candidate keys are
  every short span of it, so a key alone ("adoption") says little; a memory that a content channel
  also found and whose key the question names is the strongest match there is, and weighs most.
- One piece of evidence is one result: a raw message that a retrieved memory was drawn from is
  folded into that memory (their scores add up), instead of taking a second place in the ranking
  with the same turn. The asker's own messages fold only into a memory drawn from that message
  alone that carries what it says (memory.text.carries): a reply's memory cites the question it
  answers, and the asker's question is what they said ("I never met Bryan, can you ...?"); it
  keeps its place, and a memory drawn from several messages gains nothing from it (the asker
  channels' weight is for what the asker said, and such a memory is another reading of it).
- The first results each bring new evidence: a memory drawn from the same messages as one ranked
  above it (another sentence of one message) moves after those that bring new sources, keeping
  its order there.
- The conversation a record comes from corroborates it: session_text ranks whole sessions by BM25
  over all they said (several messages together cover a question's words that no one message
  does); a record of one of the best SESSION_PRIOR_DEPTH sessions gains weight / (K + the
  session's rank). Like the topic channel it nominates nothing.
Ties go to the newer record."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from .models import Memory, Message, Passage
from .stores.base import (ASKER_CHANNELS, CH_ASKER_TEXT, CH_ASKER_VECTOR, CH_DATE, CH_HYDE,
                          CH_INSTRUCTION, CH_MEMORY_TEXT, CH_MESSAGE_TEXT, CH_PASSAGE_TEXT,
                          CH_PASSAGE_VECTOR, CH_SESSION_TEXT, CH_TOPIC, CH_VECTOR, Hit)
from .text import carries

RRF_K = 60
DEFAULT_WEIGHTS: dict[str, float] = {
    CH_TOPIC: 2.0,
    CH_MEMORY_TEXT: 1.0,
    CH_VECTOR: 1.0,
    CH_HYDE: 0.7,  # a model's hypothetical answer; the offline template is the question itself
    CH_MESSAGE_TEXT: 1.0,
    CH_PASSAGE_TEXT: 1.0,
    CH_PASSAGE_VECTOR: 1.0,
    CH_SESSION_TEXT: 1.0,
    # The asker's own words: together about as much as all the other channels (BEAM dev, where
    # the user asks what they said, T@10 by `lurker eval beam`: 0.568 / 0.583 / 0.594 / 0.595 at
    # 2 / 3 / 4 / 6 each). They run only for a first-person question whose asker is known.
    CH_ASKER_TEXT: 4.0,
    CH_ASKER_VECTOR: 4.0,
    # Standing rules in force (memory.standing), at most three, each near the question: BEAM dev
    # T@10 0.594 -> 0.618 / 0.623 / 0.615 / 0.611 at 3 / 4 / 5 / 8 (instruction-following
    # questions 0.475 -> 0.738 at 4); LoCoMo dev unchanged (its chats hold almost no rules).
    CH_INSTRUCTION: 4.0,
    # The messages said within the span of time a question names (memory.time_scope).
    CH_DATE: 1.0,
}
# Only the best sessions lift their records: deeper in the ranking are most of a small profile's
# sessions, and a lift for all of them says nothing (LoCoMo dev T@10 by `lurker eval locomo`,
# SQLite: top 3 / 5 / 7 / 10 sessions 0.787 / 0.788 / 0.784 / 0.775, none 0.761).
SESSION_PRIOR_DEPTH = 5
# The asker channels' hits count less fast down their ranking than the others' (a channel's first
# hit is still worth weight / (RRF_K + 1)): at weight 4 and the usual constant their 20th hit
# (4 / 80) outweighed any other channel's first (1 / 61), so all twenty of the asker's messages
# came before the best of everything else. BEAM dev T@5 by `lurker eval beam` (SQLite):
# 0.460 -> 0.49-0.50 at 15 / 20 / 30, T@10 and T@20 within a question; LoCoMo has no asker.
CHANNEL_RRF_K: dict[str, int] = {CH_ASKER_TEXT: 20, CH_ASKER_VECTOR: 20}
# Channels whose hits only count for a record some other channel returned too.
CORROBORATING = frozenset({CH_TOPIC})


@dataclass
class Fused:
    record: Memory | Message
    score: float = 0.0
    channels: list[str] = field(default_factory=list)

    @property
    def key(self) -> tuple[str, str]:
        return record_key(self.record)

    @property
    def timestamp(self) -> datetime:
        r = self.record
        return r.ts if isinstance(r, Message) else r.said_at


def record_key(record: Memory | Message) -> tuple[str, str]:
    """A message and its passages are one record."""
    return ("Memory" if isinstance(record, Memory) else "Message", record.id)


def fuse(results: dict[str, list[Hit]], weights: dict[str, float] | None = None,
         k: int = RRF_K, channel_k: dict[str, int] | None = None) -> list[Fused]:
    weights = DEFAULT_WEIGHTS if weights is None else weights
    channel_k = CHANNEL_RRF_K if channel_k is None else channel_k
    active = {c: hits for c, hits in results.items() if weights.get(c, 0.0) > 0}
    sessions = active.pop(CH_SESSION_TEXT, [])
    # A corroborating channel asked for alone (an ablation) still ranks on its own.
    nominating = {c for c in active if c not in CORROBORATING} or set(active)
    nominated = {record_key(h.record) for c in nominating for h in active[c]}
    merged: dict[tuple[str, str], Fused] = {}
    for channel, hits in active.items():
        own_k = channel_k.get(channel, k)
        weight = weights[channel] * (own_k + 1) / (k + 1)  # the first hit weighs as at k
        for rank, hit in enumerate(hits, start=1):
            entry = Fused(hit.record)
            if entry.key not in nominated:
                continue
            entry = merged.setdefault(entry.key, entry)
            if isinstance(hit.record, Passage) and not isinstance(entry.record, Passage):
                entry.record = hit.record  # the part of a long message that matched
            entry.score += weight / (own_k + rank)
            entry.channels.append(channel)
    entries = _fold_sources(list(merged.values()))
    if sessions:
        _lift_by_session(entries, sessions, weights[CH_SESSION_TEXT], k)
    return _spread_sources(_rank(entries))


def _fold_sources(entries: list[Fused]) -> list[Fused]:
    """Fold each raw message into the best-scored memory citing it. The asker's own message (one
    the asker channels found) folds only into a memory drawn from it alone that carries its
    content; a memory that cites it beside other messages (a reply's memory citing the question
    it answers, the asker's answer citing the question put to them) neither hides it nor gains
    its score. Folded, what the asker said would be hidden behind a memory that does not say it,
    or says it with another message's turn (what it shows is tested: the passage that matched,
    for a long message); lifted by it, such a memory ranked with the asker's weight ahead of the
    asker's other messages. BEAM dev T@10 by `lurker eval beam` (LoCoMo has no asker): 0.626 ->
    0.648 for a memory that does not carry the message, 0.660 for every memory of several
    messages (Elasticsearch 0.616 -> 0.639 -> 0.655)."""
    best_citing: dict[str, Fused] = {}
    for entry in sorted(entries, key=lambda f: f.score, reverse=True):
        if isinstance(entry.record, Memory):
            for source in entry.record.source_message_ids:
                best_citing.setdefault(source, entry)
    kept = []
    for entry in entries:
        citing = best_citing.get(entry.record.id) if isinstance(entry.record, Message) else None
        if citing is None:
            kept.append(entry)
            continue
        if ASKER_CHANNELS.isdisjoint(entry.channels) \
                or (set(citing.record.source_message_ids) == {entry.record.id}
                    and carries(citing.record.content, entry.record.content)):
            citing.score += entry.score
            citing.channels += [c for c in entry.channels if c not in citing.channels]
        else:
            kept.append(entry)
    return kept


def _lift_by_session(entries: list[Fused], sessions: list[Hit], weight: float, k: int) -> None:
    """Add weight / (k + rank) of its session to each record of the best sessions (after the
    fold, so a memory and the message folded into it are lifted once)."""
    lift = {hit.id: weight / (k + rank)
            for rank, hit in enumerate(sessions[:SESSION_PRIOR_DEPTH], start=1)}
    for entry in entries:
        gain = lift.get(entry.record.session_id or "")
        if gain:
            entry.score += gain
            entry.channels.append(CH_SESSION_TEXT)


def _spread_sources(ranked: list[Fused]) -> list[Fused]:
    """Records whose evidence (source messages; a message's own id) is new, in rank order, then
    the rest in rank order. A memory with no sources (remembered directly) is its own evidence."""
    seen: set[tuple[str, ...]] = set()
    first, repeats = [], []
    for entry in ranked:
        record = entry.record
        evidence = tuple(sorted(record.source_message_ids)) \
            if isinstance(record, Memory) and record.source_message_ids else (record.id,)
        (repeats if evidence in seen else first).append(entry)
        seen.add(evidence)
    return first + repeats


def _rank(entries: list[Fused]) -> list[Fused]:
    return sorted(entries, key=lambda f: (f.score, f.timestamp), reverse=True)
