"""The rules for applying chat events to the engine, written once: the in-process sink
(workers/sinks.py) and the worker's batches (workers/processing.py) both call `apply_events`.

Per profile, for the events of one call:
1. creates: one ingest per conversation, conversations in the order they started, messages in
   timestamp order (arrival order for equal timestamps); the same create twice is stored once;
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

import contextlib
import dataclasses
import logging
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

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
    with contextlib.ExitStack() as held, service.deferred_refresh():
        keepalives: list[Callable[[], None]] = []
        extended = [time.monotonic()]

        def keepalive() -> None:  # every lock with a lease, once a third of it has gone by
            if lock_timeout and time.monotonic() - extended[0] >= lock_timeout / 3:
                for extend in keepalives:
                    extend()
                extended[0] = time.monotonic()
        for name in sorted(by_profile):
            keepalives.append(held.enter_context(coordination.lock(name, lock_timeout)))
            _ProfileEvents(service.profile(name), coordination, report, collected, vectorize,
                           redelivered, keepalive).apply(by_profile[name])


class _ProfileEvents:
    """The rules for one profile's events of a call."""

    def __init__(self, profile, coordination: Coordination, report: Applied,
                 collected: Collected, vectorize: bool, redelivered: Sequence[bool],
                 keepalive: Callable[[], None]):
        self.profile, self.coordination, self.report = profile, coordination, report
        self.collected, self.vectorize, self.keepalive = collected, vectorize, keepalive
        self.redelivered = redelivered
        self.pending = collected.pending[profile.name]

    def apply(self, items: list[tuple[int, ChatEvent]]) -> None:
        creates = [(i, e) for i, e in items if isinstance(e, MessageCreated)]
        edits = [(i, e) for i, e in items if isinstance(e, MessageEdited)]
        deletes = [(i, e) for i, e in items if isinstance(e, MessageDeleted)]
        deleted = {e.external_id for _, e in deletes}
        gone = deleted | self.coordination.tombstoned(
            self.profile.name, {e.external_id for _, e in creates + edits} - deleted)
        self._creates([(i, e) for i, e in creates if self._alive(e, gone)])
        self._edits([(i, e) for i, e in edits if self._alive(e, gone)])
        self._deletes(deletes)

    def _alive(self, event: ChatEvent, gone: set[str]) -> bool:
        if event.external_id in gone:
            self.report.ignored_deleted += 1
            return False
        return True

    def _was_redelivered(self, index: int) -> bool:
        return index < len(self.redelivered) and bool(self.redelivered[index])

    def _creates(self, creates: list[tuple[int, MessageCreated]]) -> None:
        sessions: dict[str, list[tuple[int, MessageCreated]]] = defaultdict(list)
        for i, event in creates:
            sessions[event.session_id].append((i, event))
        for session_id, group in sorted(sessions.items(),
                                        key=lambda kv: min(e.ts for _, e in kv[1])):
            group.sort(key=lambda ie: ie[1].ts)  # stable: arrival order for equal timestamps
            first: dict[str, tuple[int, MessageCreated]] = {}
            for i, event in group:
                first.setdefault(event.external_id, (i, event))

            def ingest(part: list[tuple[int, MessageCreated]], session_id=session_id) -> None:
                result = self.profile.ingest([e.message() for _, e in part], session_id,
                                             vectorize=self.vectorize)
                self.report.messages_new += result.messages_new
                self.report.messages_skipped += result.messages_skipped
                self.pending.update(dict.fromkeys(result.pending_vector_ids))
                if result.messages_skipped and not self.vectorize and any(
                        self._was_redelivered(i) for i, _ in part):
                    # An earlier delivery may have stored these without handing on their vectors.
                    self.pending.update(dict.fromkeys(
                        self.profile.unindexed_memories(result.message_ids)))
            self._isolating(ingest, list(first.values()))
            self.keepalive()

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
            self._isolating(edit, [(i, event)])
            self.keepalive()

    def _deletes(self, deletes: list[tuple[int, MessageDeleted]]) -> None:
        last = {e.external_id: (i, e) for i, e in deletes}
        if last:  # the tombstone first, so a concurrent redelivered create is dropped
            self.coordination.bury(self.profile.name, set(last))
        for external_id in sorted(last):

            def delete(part: list[tuple[int, MessageDeleted]]) -> None:
                (_, e), = part
                self.profile.delete_message(e.external_id)
                self.report.deletes += 1
            self._isolating(delete, [last[external_id]])
        self.keepalive()

    def _isolating(self, call: Callable[[list], None], part: list[tuple[int, Any]]) -> None:
        """Run one engine call for `part`; if it fails for a reason other than an unavailable
        store, run it event by event so one bad event cannot sink the others."""
        try:
            call(part)
        except Exception as exc:
            if is_transient(exc):
                raise
            if len(part) > 1:
                for item in part:
                    self._isolating(call, [item])
                return
            index = part[0][0]
            self.collected.failed[index] = (f"the engine refused the event: "
                                            f"{type(exc).__name__}: {exc}")
            log.error("event %d refused by the engine", index, exc_info=True)
