"""The rules for applying chat events to the engine, written once: the in-process sink
(workers/sinks.py) and the worker's batches (workers/processing.py) both call `apply_events`.

Per profile, for the events of one call:
1. creates: one ingest per conversation, conversations in the order they started, messages in
   timestamp order (arrival order for equal timestamps); the same create twice is stored once.
   The conversations of every profile of the call go to the engine together
   (MemoryService.ingest_many: its store round trips are shared, not paid per conversation);
2. edits: the newest edit of each message wins; an edit older than the stored text is stale and
   skipped; an edit that overtook its create is stored as the message when it names its
   conversation (else it is counted as not found);
3. deletes: a tombstone first, so a create or edit redelivered later does not bring the message
   back, then the message goes with the memories drawn only from it.
A create or edit of a message deleted in the same call, or earlier (a tombstone), is ignored.

Each profile is written under its write lock (taken in name order, so two writers never wait on
each other in a circle) and held until the call's writes are made searchable by one refresh.
An engine call that fails for another reason than a transient store error is retried event by
event, so one event the engine refuses does not sink the others; it is recorded in
`Collected.failed`. Transient errors are raised: the caller decides whether to wait them out.
"""
from __future__ import annotations

import dataclasses
import logging
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from memory.ingest_batch import IngestItem
from memory.service import utcnow

from .coordination import Coordination
from .events import ChatEvent, MessageCreated, MessageDeleted, MessageEdited
from .retry import is_transient

log = logging.getLogger("lurker.workers")

_NO_TIME = datetime.min.replace(tzinfo=timezone.utc)  # an edit that does not say when it was made


@dataclass
class Applied:
    """What applying a call's events did (counted afresh by each attempt)."""

    messages_new: int = 0
    messages_skipped: int = 0  # already stored (by id or platform id)
    edits: int = 0
    edits_stale: int = 0  # older than the stored text
    edits_not_found: int = 0  # no such message, and no conversation to store it in
    deletes: int = 0
    ignored_deleted: int = 0  # creates and edits of deleted messages

    @property
    def stale(self) -> int:
        """Events that changed nothing because something later won."""
        return self.edits_stale + self.ignored_deleted

    def reset_counts(self) -> None:
        for counter in dataclasses.fields(Applied):
            setattr(self, counter.name, 0)


@dataclass
class Collected:
    """What applying leaves for the caller, kept across its retries: the memories to embed
    ({profile: memory ids}, in order) and the events the engine refused (index -> reason)."""

    pending: dict[str, dict[str, None]] = field(default_factory=lambda: defaultdict(dict))
    failed: dict[int, str] = field(default_factory=dict)


def apply_events(service, events: Sequence[tuple[int, ChatEvent]], coordination: Coordination,
                 report: Applied, collected: Collected, *, vectorize: bool = True,
                 redelivered: Sequence[bool] = (), lock_timeout: float | None = None) -> None:
    """Apply (index, event) pairs (see the module docstring). With vectorize=False the memories
    to embed are left in `collected.pending` instead of embedded now; `redelivered[index]` marks
    an event the broker delivered before (its vectors may not have been handed on then)."""
    report.reset_counts()
    by_profile: dict[str, list[tuple[int, ChatEvent]]] = defaultdict(list)
    for i, event in events:
        if i not in collected.failed:
            by_profile[event.profile].append((i, event))
    if not by_profile:
        return
    profiles = [_ProfileEvents(service.profile(name), coordination, report, collected,
                               vectorize, redelivered, by_profile[name])
                for name in sorted(by_profile)]
    now = utcnow()
    # Extraction first, without the locks: every batch of a busy workspace touches the same
    # channel profiles, so while one batch held them for its whole run the other pool processes
    # waited (two pool processes kept ~1.3 of 2 cores busy). What still holds under the locks is
    # used there; the rest is extracted there as before (memory/ingest_batch.py speculate_many).
    try:
        speculated = service.speculate_many(_conversation_items(profiles), now)
    except Exception as exc:  # noqa: BLE001 - the locked pass does (and reports) it all
        log.debug("extraction ahead of the locks failed (%s); extracting under them", exc)
        speculated = {}
    with coordination.lock_many(by_profile, lock_timeout), service.deferred_refresh():
        gone = coordination.tombstoned_many({p.profile.name: p.maybe_gone() for p in profiles})
        for p in profiles:
            p.drop_deleted(gone[p.profile.name])
        _creates_together(service, profiles, vectorize, now, speculated)
        for p in profiles:
            p.edits_and_deletes()


def _conversation_items(profiles: list[_ProfileEvents]) -> list[IngestItem]:
    return [IngestItem(p.profile.name, [e.message() for _, e in part], session_id)
            for p in profiles for session_id, part in p.conversations()]


def _creates_together(service, profiles: list[_ProfileEvents], vectorize: bool, now: datetime,
                      speculated: dict) -> None:
    """Every profile's conversations in one engine call (its store round trips shared); if that
    call fails, or refuses a conversation, conversation by conversation and then event by event,
    so one bad event cannot sink the others."""
    parts = [(p, session_id, part) for p in profiles for session_id, part in p.conversations()]
    if not parts:
        return
    try:
        results: list[Any] = service.ingest_many(_conversation_items(profiles), now=now,
                                                 vectorize=vectorize, speculated=speculated)
    except Exception as exc:
        if is_transient(exc):
            raise
        log.info("a batch's conversations failed together (%s); applying them one by one", exc)
        results = [exc] * len(parts)
    for (p, session_id, part), result in zip(parts, results):
        if isinstance(result, Exception):
            if is_transient(result):
                raise result
            p.isolating(p.ingest_one(session_id), part)
        else:
            p.count(result, part)


class _ProfileEvents:
    """The rules for one profile's events of a call."""

    def __init__(self, profile, coordination: Coordination, report: Applied,
                 collected: Collected, vectorize: bool, redelivered: Sequence[bool],
                 items: list[tuple[int, ChatEvent]]):
        self.profile, self.coordination, self.report = profile, coordination, report
        self.collected, self.vectorize = collected, vectorize
        self.redelivered = redelivered
        self.pending = collected.pending[profile.name]
        self.creates = [(i, e) for i, e in items if isinstance(e, MessageCreated)]
        self.edits = [(i, e) for i, e in items if isinstance(e, MessageEdited)]
        self.deletes = [(i, e) for i, e in items if isinstance(e, MessageDeleted)]
        self.deleted = {e.external_id for _, e in self.deletes}

    def maybe_gone(self) -> set[str]:
        """The platform ids whose tombstones decide whether a create or edit still counts."""
        return {e.external_id for _, e in self.creates + self.edits} - self.deleted

    def drop_deleted(self, tombstoned: set[str]) -> None:
        gone = self.deleted | tombstoned
        self.creates = [(i, e) for i, e in self.creates if self._alive(e, gone)]
        self.edits = [(i, e) for i, e in self.edits if self._alive(e, gone)]

    def edits_and_deletes(self) -> None:
        self._edits(self.edits)
        self._deletes(self.deletes)

    def _alive(self, event: ChatEvent, gone: set[str]) -> bool:
        if event.external_id in gone:
            self.report.ignored_deleted += 1
            return False
        return True

    def _was_redelivered(self, index: int) -> bool:
        return index < len(self.redelivered) and bool(self.redelivered[index])

    def conversations(self) -> list[tuple[str, list[tuple[int, MessageCreated]]]]:
        """The creates as (session id, events): conversations in the order they started,
        messages in timestamp order (arrival order for equal ones), each platform id once."""
        sessions: dict[str, list[tuple[int, MessageCreated]]] = defaultdict(list)
        for i, event in self.creates:
            sessions[event.session_id].append((i, event))
        out = []
        for session_id, group in sorted(sessions.items(),
                                        key=lambda kv: min(e.ts for _, e in kv[1])):
            group.sort(key=lambda ie: ie[1].ts)  # stable: arrival order for equal timestamps
            first: dict[str, tuple[int, MessageCreated]] = {}
            for i, event in group:
                first.setdefault(event.external_id, (i, event))
            out.append((session_id, list(first.values())))
        return out

    def ingest_one(self, session_id: str) -> Callable[[list[tuple[int, MessageCreated]]], None]:
        def ingest(part: list[tuple[int, MessageCreated]]) -> None:
            self.count(self.profile.ingest([e.message() for _, e in part], session_id,
                                           vectorize=self.vectorize), part)
        return ingest

    def count(self, result, part: list[tuple[int, MessageCreated]]) -> None:
        self.report.messages_new += result.messages_new
        self.report.messages_skipped += result.messages_skipped
        self.pending.update(dict.fromkeys(result.pending_vector_ids))
        if result.messages_skipped and not self.vectorize and any(
                self._was_redelivered(i) for i, _ in part):
            # An earlier delivery may have stored these without handing on their vectors.
            self.pending.update(dict.fromkeys(
                self.profile.unindexed_memories(result.message_ids)))

    def _edits(self, edits: list[tuple[int, MessageEdited]]) -> None:
        newest: dict[str, tuple[int, MessageEdited]] = {}
        for i, event in edits:
            seen = newest.get(event.external_id)
            if seen is None or (event.ts or _NO_TIME) >= (seen[1].ts or _NO_TIME):
                newest[event.external_id] = (i, event)
        stored = self.profile.messages_by_external_id(list(newest)) if newest else {}
        for external_id, (i, event) in newest.items():
            old = stored.get(external_id)
            if old is not None and event.ts is not None and event.ts < old.ts:
                self.report.edits_stale += 1
                continue

            def edit(part: list[tuple[int, MessageEdited]]) -> None:
                (_, e), = part
                result = self.profile.edit_message(
                    e.external_id, e.content, ts=e.ts, vectorize=self.vectorize,
                    session_id=e.session_id, role=e.role, author=e.author)
                self.report.edits += 1
                self.report.edits_not_found += not result.found and result.new_message_id is None
                self.pending.update(dict.fromkeys(result.pending_vector_ids))
            self.isolating(edit, [(i, event)])

    def _deletes(self, deletes: list[tuple[int, MessageDeleted]]) -> None:
        last = {e.external_id: (i, e) for i, e in deletes}
        if last:  # the tombstone first, so a concurrent redelivered create is dropped
            self.coordination.bury(self.profile.name, set(last))
        for external_id in sorted(last):

            def delete(part: list[tuple[int, MessageDeleted]]) -> None:
                (_, e), = part
                self.profile.delete_message(e.external_id)
                self.report.deletes += 1
            self.isolating(delete, [last[external_id]])

    def isolating(self, call: Callable[[list], None], part: list[tuple[int, Any]]) -> None:
        """Run one engine call for `part`; if it fails for a reason other than an unavailable
        store, run it event by event so one bad event cannot sink the others."""
        try:
            call(part)
        except Exception as exc:
            if is_transient(exc):
                raise
            if len(part) > 1:
                for item in part:
                    self.isolating(call, [item])
                return
            index = part[0][0]
            self.collected.failed[index] = (f"the engine refused the event: "
                                            f"{type(exc).__name__}: {exc}")
            log.error("event %d refused by the engine", index, exc_info=True)
