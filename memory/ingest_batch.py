"""Ingest of many conversations at once, with the store's round trips shared between them.

`Profile.ingest` is this with one conversation. A worker's batch holds a few messages for each of
dozens of channel profiles; ingesting them one conversation at a time cost ~4 store round trips
each (on Elasticsearch ~30 ms for 4 messages: a bulk request fsyncs its translog, a search
refreshes). Here every conversation of a round is looked up, written and superseded together:
~6 round trips for the round, whatever the number of profiles in it.

Semantics are those of calling `Profile.ingest` for each item in order: profiles never see each
other's data, so their conversations share a round; a profile's second conversation waits for the
next round, so it sees the first one's messages and memories (external ids, topic supersession).
An item whose messages are invalid or whose extraction fails gets that exception as its result and
writes nothing; the others go on. A store error fails the whole call (it is transient, or the
caller retries item by item).
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from .ids import another_message, repeated_message_id
from .ingest_input import to_messages
from .models import IngestResult, Memory, Message, parents_elsewhere
from .revisions import link_revisions
from .said_before import SAID_BEFORE, SAID_EARLIER, said_before_many

MemoryService = Any  # memory.service.MemoryService (which imports this module)


@dataclass
class IngestItem:
    """One conversation (or part of one) for one profile."""

    profile: str
    messages: list
    session_id: str


@dataclass
class Written:
    created: list[Memory]
    superseded: int
    pending: list[str]  # ids to embed later (vectorize=False)


@dataclass
class _Work:
    index: int
    profile: str  # checked name
    session_id: str
    parsed: list[Message]
    new: list[Message] = field(default_factory=list)
    memories: list[Memory] = field(default_factory=list)


# Extraction results computed ahead (speculate_many), by what extraction reads; see _extract_key.
Speculated = dict[tuple, list[Memory]]


def _extract_key(profile: str, session_id: str, now: datetime, new: list[Message],
                 known: dict[str, Message]) -> tuple:
    """Everything Profile._memories_of (memory/service.py) reads: the new messages, the stored
    messages that replies among them answer and the one said before them (its _extract's
    context), the session and the time."""
    wanted = [*sorted(parents_elsewhere(new)), SAID_BEFORE, SAID_EARLIER]
    return (profile, session_id, now.isoformat(), tuple(m.model_dump_json() for m in new),
            tuple(known[k].model_dump_json() for k in wanted if k in known))


def speculate_many(service: MemoryService, items: Sequence[IngestItem], now: datetime
                   ) -> Speculated:
    """Extraction of each item's new messages as ingest_many(now=now) would do it, with nothing
    written: a worker runs this before it takes its profiles' write locks, so the slow part of a
    batch (extraction: dates, classification, or a model call) does not hold them. ingest_many
    uses a result only where what extraction read is still the same under the lock (the key);
    anything else, or anything that failed here, is extracted there as before."""
    firsts: dict[str, tuple[IngestItem, list[Message]]] = {}
    for item in items:  # a profile's later conversations depend on its first one's writes
        try:
            name = service.profile(item.profile).name
            if name not in firsts:
                firsts[name] = (item, to_messages(item.messages, item.session_id, now,
                                                  service.settings.max_message_bytes))
        except Exception:  # noqa: BLE001 - ingest_many reports it
            continue
    if not firsts:
        return {}
    known, new_of = _look_up(service.store, {p: parsed for p, (_, parsed) in firsts.items()})
    out: Speculated = {}
    for p, (item, _) in firsts.items():
        new = new_of[p]
        if not new:
            continue
        try:
            out[_extract_key(p, item.session_id, now, new, known[p])] = \
                service.profile(p)._memories_of(new, item.session_id, now, known[p])
        except Exception:  # noqa: BLE001 - extracted again (and reported) under the lock
            continue
    return out


def ingest_many(service: MemoryService, items: Sequence[IngestItem], now: datetime,
                vectorize: bool = True, speculated: Speculated | None = None
                ) -> list[IngestResult | Exception]:
    results: list[IngestResult | Exception | None] = [None] * len(items)
    rounds: list[list[_Work]] = []
    seen: dict[str, int] = defaultdict(int)
    for i, item in enumerate(items):
        try:
            name = service.profile(item.profile).name
            parsed = to_messages(item.messages, item.session_id, now,
                                 service.settings.max_message_bytes)
        except Exception as exc:  # noqa: BLE001 - this item's input; the others go on
            results[i] = exc
            continue
        turn = seen[name]
        seen[name] += 1
        if turn == len(rounds):
            rounds.append([])
        rounds[turn].append(_Work(i, name, item.session_id, parsed))
    for work in rounds:
        _round(service, work, now, vectorize, results, speculated or {})
    return results  # type: ignore[return-value]


def _another(message: Message, first: Message | None) -> Message:
    if first is None or not another_message(first.author, first.external_id, message.author,
                                            message.external_id):
        return message
    return message.model_copy(update={"id": repeated_message_id(
        message.session_id, message.role, message.content, message.author, message.external_id)})


def _look_up(store, parsed: dict[str, list[Message]]
             ) -> tuple[dict[str, dict[str, Message]], dict[str, list[Message]]]:
    """For each profile's conversation: the stored messages it names by platform id (its own
    known ones, and those its replies answer), in one lookup; and its messages not stored yet,
    each id once (a redelivered create after an edit is skipped by its platform id)."""
    unique = {p: list({m.id: m for m in ms}.values()) for p, ms in parsed.items()}
    known = store.find_messages_by_external_id_many({p: [
        *(m.external_id for m in ms if m.external_id),
        *(m.reply_to for m in ms if m.reply_to)] for p, ms in unique.items()})
    unique = {p: [m for m in ms if not (m.external_id and m.external_id in known[p])]
              for p, ms in unique.items()}
    stored = store.stored_message_ids_many({p: [m.id for m in ms] for p, ms in unique.items()})
    # a message saying what a stored one said, by someone else or under another platform id, is
    # another message (memory.ids.repeated_message_id: over Slack each "+1" is its own batch)
    clashes = {p: [m.id for m in ms if m.id in stored[p]] for p, ms in unique.items()}
    if any(clashes.values()):
        firsts = {p: {m.id: m for m in found}
                  for p, found in store.get_messages_many(clashes).items()}
        unique = {p: [_another(m, firsts.get(p, {}).get(m.id)) for m in ms]
                  for p, ms in unique.items()}
        stored = store.stored_message_ids_many({p: [m.id for m in ms]
                                                for p, ms in unique.items()})
    new = {p: [m for m in ms if m.id not in stored[p]] for p, ms in unique.items()}
    # what a batch's short first message may answer (memory.said_before)
    for p, looked in said_before_many(store, new).items():
        known[p].update(looked)
    return known, new


def _round(service: MemoryService, work: list[_Work], now: datetime, vectorize: bool,
           results: list, speculated: Speculated) -> None:
    """One conversation per profile: lookups, extraction, then the writes, each shared."""
    store = service.store
    looked_up, new_of = _look_up(store, {w.profile: w.parsed for w in work})
    for w in work:
        w.new = new_of[w.profile]
    extracting = [w for w in work if w.new]
    for w in extracting:
        ahead = speculated.pop(_extract_key(w.profile, w.session_id, now, w.new,
                                            looked_up[w.profile]), None)
        if ahead is not None:
            w.memories = ahead
            continue
        try:
            w.memories = service.profile(w.profile)._memories_of(w.new, w.session_id, now,
                                                                 looked_up[w.profile])
        except Exception as exc:  # noqa: BLE001 - this conversation's; nothing of it written
            results[w.index] = exc
    writing = [w for w in extracting if results[w.index] is None]
    created = store.insert_messages_many({w.profile: w.new for w in writing})
    for w in writing:
        if len(created[w.profile]) != len(w.new):  # another writer stored some meanwhile
            w.new = [m for m in w.new if m.id in created[w.profile]]
            w.memories = service.profile(w.profile)._memories_of(w.new, w.session_id, now,
                                                                 looked_up[w.profile])
    written = write_memories_many(service, {w.profile: w.memories for w in writing}, vectorize)
    for w in work:
        if results[w.index] is not None:
            continue
        result = IngestResult(messages_new=len(w.new), messages_skipped=len(w.parsed) - len(w.new),
                              message_ids=[m.id for m in w.parsed])
        if w.new:
            done = written[w.profile]
            result.memories_created, result.memories_superseded = len(done.created), \
                done.superseded
            result.pending_vector_ids = done.pending + service.profile(w.profile)._index_passages(
                w.new, vectorize)
        results[w.index] = result


def write_memories_many(service: MemoryService, memories: dict[str, list[Memory]],
                        vectorize: bool = True) -> dict[str, Written]:
    """Store new memories of each profile, applying topic-key supersession (in conversation
    order, so the later statement wins) and then corrections' (memory.revisions), then index
    vectors (or return them as pending)."""
    store = service.store
    existing = store.get_memories_many({p: [m.id for m in ms] for p, ms in memories.items()})
    fresh: dict[str, list[Memory]] = {}
    for p, ms in memories.items():
        have = {m.id for m in existing[p]}
        fresh[p] = [m for m in dict((m.id, m) for m in ms).values() if m.id not in have]
        fresh[p].sort(key=lambda m: m.said_at)
    current = store.active_by_topic_many(
        {p: {m.topic_key for m in ms if m.topic_key} for p, ms in fresh.items()})
    changed: dict[str, dict[str, Memory]] = {p: {} for p in fresh}
    for p, ms in fresh.items():
        for memory in ms:
            old = current[p].get(memory.topic_key) if memory.topic_key else None
            if old is not None:
                old.status, old.superseded_by = "superseded", memory.id
                memory.supersedes = old.id
                changed[p][old.id] = old
            if memory.topic_key:
                current[p][memory.topic_key] = memory
        link_revisions(store, p, ms, changed[p])
    store.upsert_memories_many({p: [*changed[p].values(), *ms] for p, ms in fresh.items()
                                if ms or changed[p]})
    store.delete_vectors_many({p: list(old) for p, old in changed.items() if old})
    out: dict[str, Written] = {}
    for p, ms in fresh.items():
        to_embed = [m for m in ms if m.embeddable]
        if vectorize:
            service.profile(p)._index_vectors(to_embed)
        out[p] = Written(ms, len(changed[p]), [] if vectorize else [m.id for m in to_embed])
    return out

