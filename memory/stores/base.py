"""The storage contract. Both stores (embedded SQLite, Elasticsearch) implement it and pass the same
contract suite (tests/test_store_contract.py).

Rules every implementation keeps:
- Every read and write is scoped to one profile; profiles never see each other's data, even when
  two profiles hold a record with the same id (ids are content-addressed, so that happens).
- `insert_messages` is create-if-absent: an id already stored in that profile is skipped, never
  overwritten, and is not in the returned set.
- Only active memories that are not tasks have vectors. `delete_vectors` removes them from the vector
  index; the memory record itself stays (audit history).
- Search channels return at most `k` hits each, best first. Memory channels only return active memories;
  message_text, passage_text and passage_vector never return a suppressed message
  (Message.suppressed: a memory drawn from it was forgotten), whether it was suppressed by
  `suppress_messages` or stored suppressed (an import).
- Every stored message is cut into passages (memory.passages.split_passages, the same offsets in
  every store). Passages of long messages are searched by BM25 (passage_text); the passages of
  every message that has passage vectors are searched by kNN (passage_vector). Both return one
  hit per message, its best passage, as a `Passage` record. Deleting a message deletes its
  passages and their vectors.
"""
from __future__ import annotations

import contextlib
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta, timezone

import numpy as np

from ..dates import local_time
from ..models import Memory, Message, Passage

# Retrieval channel names, shared by stores, fusion and the eval harness.
CH_MEMORY_TEXT = "memory_text"  # BM25 with stemming over memory content + its questions
CH_TOPIC = "topic"  # exact topic-key lookup
CH_MESSAGE_TEXT = "message_text"  # BM25 over raw messages (the safety net)
CH_VECTOR = "vector"  # kNN on the query embedding
CH_HYDE = "hyde"  # kNN on the embedding of a hypothetical answer
CH_PASSAGE_TEXT = "passage_text"  # BM25 over the passages of long raw messages
CH_PASSAGE_VECTOR = "passage_vector"  # kNN on the query embedding over raw-message passages
# BM25 over whole conversations (a session's searchable messages as one document): it ranks
# sessions, not records; fusion lifts the records of the best sessions (memory.fusion).
CH_SESSION_TEXT = "session_text"
# A session's document holds its first messages only: the lift says what a conversation is about,
# and an unbounded one (an API client writing every message to one session) would make each
# write rewrite an ever larger document. A chat session (a channel's day, a thread) rarely has
# more.
SESSION_DOC_MESSAGES = 500
# The asker's own words: BM25 and kNN over the passages of the raw messages the person asking
# wrote. They run only for a question in the first person ("what did I decide about ...") whose
# asker is known (SearchRequest.askers); in a busy channel, other people's and bots' long messages
# would otherwise crowd the asker's short ones out of the other channels' first hits.
CH_ASKER_TEXT = "asker_text"
CH_ASKER_VECTOR = "asker_vector"
ASKER_CHANNELS = frozenset({CH_ASKER_TEXT, CH_ASKER_VECTOR})
# Standing instructions in force (memory.standing): kNN over the profile's active instruction
# memories whose text is a standing rule, the INSTRUCTION_K nearest the question. The rule a
# request falls under seldom shares its words, and one-off advice phrased as an instruction
# outnumbers the rules in the other channels.
CH_INSTRUCTION = "instruction"
INSTRUCTION_K = 3
# A rule this far from the question (cosine) is not one it falls under. Without a floor, a
# profile's lone rule came with every question (LoCoMo dev T@10 0.788 -> 0.784); at 0.15 LoCoMo
# is unchanged and BEAM keeps its gain (0.623; 0.618 at 0.2).
INSTRUCTION_MIN_SIMILARITY = 0.15
# Instruction memories a store reads, nearest first, while it looks for the standing ones (on
# Elasticsearch each is a document in the msearch reply).
INSTRUCTION_SCAN = 50
# The raw messages said within the span of time the question names ("what happened last
# Friday?", memory.time_scope; SearchRequest.span), BM25 over the question first, then the rest
# of the span's messages, newest first. It runs only for such a question: what it asks for shares
# no word with the question.
CH_DATE = "date"
CHANNELS = (CH_TOPIC, CH_MEMORY_TEXT, CH_VECTOR, CH_HYDE, CH_MESSAGE_TEXT, CH_PASSAGE_TEXT,
            CH_PASSAGE_VECTOR, CH_SESSION_TEXT, CH_ASKER_TEXT, CH_ASKER_VECTOR, CH_INSTRUCTION,
            CH_DATE)


# UTC offsets reach -12 h and +14 h: a local day's messages lie within these UTC bounds.
_EARLIEST_OFFSET, _LATEST_OFFSET = timedelta(hours=14), timedelta(hours=12)


def span_utc_bounds(span: tuple[date, date]) -> tuple[datetime, datetime]:
    """UTC instants that hold every message said on the span's local days, wherever it was said
    (a store reads between them, then keeps those whose local day is in the span)."""
    first, last = span
    return (datetime.combine(first, time(), timezone.utc) - _EARLIEST_OFFSET,
            datetime.combine(last + timedelta(days=1), time(), timezone.utc) + _LATEST_OFFSET)


def said_within(message: Message, span: tuple[date, date]) -> bool:
    """Whether the message was said on one of the span's days, in its own local time."""
    return span[0] <= local_time(message.ts, message.utc_offset_minutes).date() <= span[1]


@dataclass(frozen=True)
class EmbeddingSpec:
    """Recorded in the store's schema so a model change forces a reindex, not silent garbage."""

    name: str
    dim: int


@dataclass
class SearchRequest:
    text: str  # the query as typed; stores stem it their own way
    topic_keys: list[str] = field(default_factory=list)
    query_vector: np.ndarray | None = None  # float32, L2-normalised
    hyde_vector: np.ndarray | None = None
    k: int = 20
    channels: tuple[str, ...] = CHANNELS  # which channels to run (ablations run one)
    # The stored authors (`name (id)`) whose own words the question asks about, for the asker
    # channels: the person asking's (a renamed user has several), or, for "what did you say?",
    # the addressee's (Profile._whose_words); empty: they do not run.
    askers: tuple[str, ...] = ()
    # The local days (first, last) the question names (memory.time_scope.asked_span); None: the
    # date channel does not run.
    span: tuple[date, date] | None = None
    # The date channel also finds the memories dated in the span (said before it: "anything
    # planned for December?"); the engine asks it for a span not yet over. A past span's own
    # records are what was said then (its ranking was tuned on them: "what did kim do on
    # Tuesday?" is Wednesday's "yesterday: disk cleanup runbook done", found by other channels).
    dated: bool = False
    # Filled by the store: seconds each channel took (Elasticsearch's own `took` per search of
    # the msearch; measured around each query on SQLite), for the per-channel latency metric.
    timings: dict[str, float] = field(default_factory=dict)
    # Set while the query's vectors are still being computed (the engine embeds the question
    # while a store that says `text_while_embedding` runs its text channels): a store calls
    # `wait_vectors()` before it reads query_vector / hyde_vector.
    vectors_pending: Callable[[], tuple[np.ndarray | None, np.ndarray | None]] | None = None

    def wait_vectors(self) -> None:
        """Fill query_vector and hyde_vector if they are still being computed (raises what the
        embedding raised)."""
        if self.vectors_pending is not None:
            pending, self.vectors_pending = self.vectors_pending, None
            self.query_vector, self.hyde_vector = pending()


# Migration step actions, and the hook called after each phase of a reindex with (alias, phase):
# "copied", "caught-up", "write-blocked", "swapped" (tests read and write mid-migration with it).
CREATE, UPDATE, REINDEX = "create", "update", "reindex"
PhaseHook = Callable[[str, str], None]


@dataclass
class MigrationStep:
    """What `lurker migrate` does (or did) to one index of a store."""

    alias: str
    action: str  # create | update | reindex
    reason: str
    old_index: str | None
    new_index: str
    new_embedding: bool = False  # memories get vectors from the new model (not copied)
    documents: int = 0  # documents in the new index after a reindex
    reembedded: int = 0  # memory vectors computed with the new model


@dataclass
class Hit:
    id: str
    score: float
    record: Memory | Message | Passage | None  # None on session_text, where `id` is a session id


def dated_in(memory: Memory, span: tuple[date, date]) -> date | None:
    """The first day of the earliest of the memory's event dates that overlaps the span (days,
    both ends in), or None."""
    return min((e.start for e in memory.event_dates if e.start <= span[1] and e.end >= span[0]),
               default=None)


def dated_then_said(dated: list[Hit], said: list[Hit]) -> list[Hit]:
    """The date channel's ranking: the memories dated in the span and the messages said in it,
    taken in turn, so neither kind crowds the other out ("anything planned for December?" is
    answered by what is dated then, "what happened last Friday?" mostly by what was said)."""
    out: list[Hit] = []
    for i in range(max(len(dated), len(said))):
        out += dated[i:i + 1] + said[i:i + 1]
    return out


class Store(ABC):
    """A profile-partitioned store of messages, memories and memory vectors."""

    #: human-readable location (path or URL), used in errors
    location: str

    @abstractmethod
    def open(self, embedding: EmbeddingSpec) -> None:
        """Create schema/indices if absent (idempotent). Raise EmbeddingMismatch if the store holds
        vectors from another embedding name or dimension; StoreUnavailable if unreachable."""

    @abstractmethod
    def close(self) -> None: ...

    # --- messages -------------------------------------------------------------------------
    @abstractmethod
    def insert_messages(self, profile: str, messages: list[Message]) -> set[str]:
        """Store messages that are not there yet; return the ids that were newly created."""

    @abstractmethod
    def get_messages(self, profile: str, ids: Iterable[str]) -> list[Message]:
        """The stored messages among `ids` (unknown ids are left out), in no particular order."""

    @abstractmethod
    def iter_messages(self, profile: str) -> Iterator[Message]:
        """All messages of the profile, ordered by (ts, session_id, seq)."""

    @abstractmethod
    def find_messages_by_external_id(self, profile: str,
                                     external_ids: Iterable[str]) -> dict[str, Message]:
        """{external id: the stored message carrying it} for the given chat-platform ids; unknown
        ids are left out. If several messages carry one id (an edit stored beside the original),
        the newest wins: the last in (ts, session_id, seq, id) order."""

    @abstractmethod
    def messages_before(self, profile: str, session_id: str, before: datetime,
                        limit: int = 5) -> list[Message]:
        """The session's latest `limit` messages said before `before`, newest first (ordered by
        (ts, seq, id) descending); suppressed ones included."""

    @abstractmethod
    def delete_messages(self, profile: str, ids: Iterable[str]) -> set[str]:
        """Remove raw messages (records and the message_text channel); return the ids that were
        stored and are now removed. Unknown ids are ignored, so a repeated call returns set().
        Memories citing the messages are left alone (see memories_by_source)."""

    @abstractmethod
    def suppress_messages(self, profile: str, ids: Iterable[str]) -> set[str]:
        """Mark stored messages suppressed: they stay readable (get_messages, iter_messages,
        find_messages_by_external_id, with `suppressed` true) for audit, and leave the
        message_text channel. Returns the ids newly suppressed; unknown or already suppressed ids
        are ignored, so a repeated call returns set()."""

    # --- memories -------------------------------------------------------------------------
    @abstractmethod
    def upsert_memories(self, profile: str, memories: list[Memory]) -> None:
        """Insert or replace memories by id (status changes, version-chain pointers)."""

    @abstractmethod
    def get_memories(self, profile: str, ids: Iterable[str]) -> list[Memory]: ...

    @abstractmethod
    @abstractmethod
    def memory_ids_by_prefix(self, profile: str, prefix: str, limit: int = 2) -> list[str]:
        """Up to `limit` ids of the profile's memories (any status) that start with `prefix`,
        sorted: answers and lists show an id's first 12 characters, and that is what a person
        types back to forget one."""

    def active_by_topic(self, profile: str, topic_keys: Iterable[str]) -> dict[str, Memory]:
        """For each key, the active memory holding it (the newest if several)."""

    @abstractmethod
    def list_memories(
        self,
        profile: str,
        types: Iterable[str] | None = None,
        include_inactive: bool = False,
        limit: int | None = None,
        offset: int = 0,
        newest_first: bool = False,
    ) -> list[Memory]:
        """Memories ordered by created_at then id (newest_first: the reverse); active only unless
        include_inactive."""

    @abstractmethod
    def memories_by_source(self, profile: str, message_ids: Iterable[str],
                           include_inactive: bool = False) -> list[Memory]:
        """Memories whose `source_message_ids` holds any of `message_ids` (each memory once),
        ordered by created_at then id; active only unless include_inactive. Reflects the sources
        as of the last upsert_memories of each memory."""

    @abstractmethod
    def authors_with_platform_id(self, profile: str, platform_id: str) -> set[str]:
        """The stored authors `name (platform_id)` of the profile's messages, whatever the name
        (a user renamed since writes under a new one)."""

    @abstractmethod
    def authors(self, profile: str) -> set[str]:
        """Every stored author of the profile's messages (`name` or `name (platform_id)`)."""

    @abstractmethod
    def count(self, profile: str) -> dict[str, int]:
        """{'messages': n, 'memories': n (all statuses), 'vectors': n}."""

    # --- vectors --------------------------------------------------------------------------
    @abstractmethod
    def set_vectors(self, profile: str, vectors: dict[str, np.ndarray]) -> None:
        """Attach vectors to existing memories (by id)."""

    @abstractmethod
    def delete_vectors(self, profile: str, ids: Iterable[str]) -> None: ...

    @abstractmethod
    def vector_ids(self, profile: str) -> set[str]:
        """Ids of memories currently in the vector index (for tests and audits)."""

    @abstractmethod
    def set_passage_vectors(self, profile: str, vectors: dict[str, np.ndarray]) -> None:
        """Attach passage vectors to stored messages: {message id: (passages, dim) matrix}, one
        row per passage of split_passages(message.content), in order. Unknown ids are ignored;
        a matrix of the wrong height raises ValueError."""

    @abstractmethod
    def passage_vector_ids(self, profile: str) -> set[str]:
        """Ids of messages whose passages are in the vector index (for tests and audits)."""

    # --- retrieval ------------------------------------------------------------------------
    # True when search() runs its text channels before it needs the query's vectors (then the
    # engine embeds the question meanwhile, on another thread, and the two overlap).
    text_while_embedding = False

    @abstractmethod
    def search(self, profile: str, request: SearchRequest) -> dict[str, list[Hit]]:
        """Run the requested channels (in one round trip where the backend allows) and return
        {channel: hits best first}. Memory channels hit Memory records, message_text hits Message,
        the passage channels hit Passage (one per message), session_text hits sessions (`id` the
        session id, no record). asker_text (Message) and asker_vector (Passage) are message_text
        and passage_vector over the messages whose author is exactly one of request.askers;
        without askers they are not run. Call request.wait_vectors() before reading the request's
        vectors.

        A store keeps one session_text document per (profile, session id): the text of the
        session's searchable messages (not suppressed, not deleted), kept up to date by every
        method that stores, deletes or suppresses messages."""

    # --- batching -------------------------------------------------------------------------
    def deferred_refresh(self) -> contextlib.AbstractContextManager[None]:
        """A block of writes made searchable together when it ends (reads inside still see the
        block's own writes). Stores whose writes are searchable at once need nothing."""
        return contextlib.nullcontext()

    # --- many profiles in one call (a worker's batch) --------------------------------------
    # Each takes and returns {profile: ...} and means the single-profile method called once per
    # profile. The defaults loop; a networked store overrides them to make one round trip.
    def find_messages_by_external_id_many(self, wanted: dict[str, Iterable[str]]
                                          ) -> dict[str, dict[str, Message]]:
        return {p: self.find_messages_by_external_id(p, ids) for p, ids in wanted.items()}

    def messages_before_many(self, wanted: dict[str, tuple[str, datetime]], limit: int = 5
                             ) -> dict[str, list[Message]]:
        """{profile: messages_before(profile, session id, time, limit)} for {profile: (session
        id, time)}."""
        return {p: self.messages_before(p, session_id, before, limit)
                for p, (session_id, before) in wanted.items()}

    def stored_message_ids_many(self, wanted: dict[str, Iterable[str]]) -> dict[str, set[str]]:
        """{profile: the ids among `wanted[profile]` that are stored}."""
        return {p: {m.id for m in self.get_messages(p, ids)} for p, ids in wanted.items()}

    def insert_messages_many(self, messages: dict[str, list[Message]]) -> dict[str, set[str]]:
        return {p: self.insert_messages(p, ms) for p, ms in messages.items()}

    def get_memories_many(self, wanted: dict[str, Iterable[str]]) -> dict[str, list[Memory]]:
        return {p: self.get_memories(p, ids) for p, ids in wanted.items()}

    def active_by_topic_many(self, wanted: dict[str, Iterable[str]]
                             ) -> dict[str, dict[str, Memory]]:
        return {p: self.active_by_topic(p, keys) for p, keys in wanted.items()}

    def upsert_memories_many(self, memories: dict[str, list[Memory]]) -> None:
        for p, ms in memories.items():
            self.upsert_memories(p, ms)

    def delete_vectors_many(self, wanted: dict[str, Iterable[str]]) -> None:
        for p, ids in wanted.items():
            self.delete_vectors(p, ids)

    def get_messages_many(self, wanted: dict[str, Iterable[str]]) -> dict[str, list[Message]]:
        return {p: self.get_messages(p, ids) for p, ids in wanted.items()}

    def set_vectors_many(self, vectors: dict[str, dict[str, np.ndarray]]) -> None:
        for p, of in vectors.items():
            self.set_vectors(p, of)

    def set_passage_vectors_many(self, vectors: dict[str, dict[str, np.ndarray]]) -> None:
        for p, of in vectors.items():
            self.set_passage_vectors(p, of)

    # --- schema lifecycle -----------------------------------------------------------------
    def migrate(self, embedder, *, dry_run: bool = False,
                on_phase: PhaseHook | None = None) -> list[MigrationStep]:
        """Bring the store's schema to this release for `embedder` (`lurker migrate`) and return
        the steps; with dry_run, only say what would be done. A store that creates its schema on
        open has nothing to move: it opens (unless dry_run) and returns no steps."""
        if not dry_run:
            self.open(embedder.spec)
        return []

    # --- whole profile --------------------------------------------------------------------
    @abstractmethod
    def delete_memories(self, profile: str, ids: Iterable[str]) -> None:
        """Remove memories entirely (record, full text, sources, vector): a scrub replaces a
        memory whose content-addressed id was computed from a secret with one computed from its
        redacted text. Everything else keeps a forgotten memory as a tombstone. Idempotent."""

    @abstractmethod
    def profiles(self) -> list[str]:
        """Every profile that holds a message or a memory, sorted (what an operator's
        `lurker scrub --all` walks)."""

    @abstractmethod
    def expunge(self, profile: str) -> None:
        """Drop what deleted and rewritten records of the profile leave in the store's files:
        a full-text index keeps a deleted document's terms, and Lucene its whole source, until
        their segments are merged (a scrub of secrets calls this; deletes leave it to the
        engine's own merging)."""

    @abstractmethod
    def delete_profile(self, profile: str) -> None:
        """Remove everything the profile holds (used by import --replace and tests)."""
