"""The memory engine: a service holding one store, and profiles addressed by name.

    service = MemoryService.from_settings()
    profile = service.profile("slack:T01:C42")
    profile.ingest(messages, session_id="2024-05-08")
    profile.recall("what did we decide about the rate limit last Tuesday?")
"""
from __future__ import annotations

import json
import re
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from collections.abc import Callable, Iterable, Iterator
from datetime import datetime, timedelta, timezone
from typing import TypeVar

import numpy as np
from pydantic import ValidationError

from . import date_questions, dates
from .alerts import alert_span, says_back
from .config import Settings
from .embeddings import Embedder, default_embedder
from .errors import InputFormatError, InvalidMessage, UnknownMemory
from .extraction import Candidate, Extractor, TranscriptLine
from .fusion import DEFAULT_WEIGHTS, Fused, fuse
from .ids import check_profile_name, memory_id, message_id
from .offline_answerer import (CAUSE_FOLLOWS_WITHIN, LEADS_FOLLOWED, asked_names,
                               asks_at_work, asks_cause, asks_cost, asks_how_it_stands,
                               asks_how_long, asks_identifier, asks_open, asks_owed, asks_owner,
                               asks_progress, asks_remedy, asks_replacement, asks_trend,
                               asks_what_fixed,
                               asks_when, asks_what_if, asks_why, at_work, cause_said_after,
                               says_bare_verdict, says_cause, says_condition, says_eta,
                               says_reason, says_replacement, says_sum, text_stems,
                               changed_since, computed_as_meant,
                               carries_identifier, checklist_items, content_stems, event_date,
                               finds_in_incident, fixed_in, identifiers, is_ticket,
                               names_nothing, plain_names, says_item,
                               week_before_said, whose_words_asked, with_siblings)
from . import open_tasks
from .ingest_batch import (IngestItem, Speculated, Written, ingest_many, speculate_many,
                           write_memories_many)
from .ingest_input import clean_text, to_messages
from .offline_extractor import keywords
from .said_before import SAID_BEFORE, SAID_EARLIER, said_before
from .standup_forms import labelled_standup
from .people import (asks_about_self, asks_what_you_said, display_name, name_letters,
                     platform_id, same_person, without_platform_ids)
from .moves import after_change
from .models import (DeleteResult, EditResult, EventDate, IngestResult, Memory,
                     MemoryType, Message, PurgeResult, RecallResult, ScoredMemory, ScoredMessage,
                     ScrubResult,
                     embedding_text, parents_elsewhere)
from .redaction import redact
from .passages import passage_embedding_text, split_passages
from .stores.base import (ASKER_CHANNELS, CH_ASKER_VECTOR, CH_DATE, CH_INSTRUCTION,
                          CH_MEMORY_TEXT, CH_PASSAGE_VECTOR, CH_VECTOR, CHANNELS, Hit,
                          SearchRequest, Store)
from .synthesis import Answerer
from .text import (REST_AS_BEFORE, carries, english_word, expand_query, quotes, spelled_out,
                   stem_tokens, sums_named)
from .updates import VERSIONED, says_update, update_of
from .time_scope import about_the_span_first, asked_span, fused_record, in_span_first
from .verification import verify
from .topics import TOOL_CATEGORIES, normalize_topic_key, tool_category

# An id as answers and lists show it (its first 12 characters) or longer, typed back to forget.
_SHOWN_ID = re.compile(r"[0-9a-fA-F]{8,31}")
_PREFIX_READ = 50  # memories read for a shortened id (forgotten ones share it too, rarely)
PENDING_PASSAGES = "passages:"  # a pending_vector_ids entry naming a message whose passages wait
EXPORT_FORMAT = "lurker-profile-export"
EXPORT_VERSION = 1
EMBEDDING_THREADS = 4  # questions embedded at once while a store searches (embedding_pool)
# what was said later of a ticket or PR the lead memories name (Profile._said_later_of)
FOLLOWED_SCAN, FOLLOWED_KEPT = 20, 5
_INCIDENT_READ = 40  # the messages before an alert's resolution read for what was found
_CAUSE_READ = 30  # the messages up to CAUSE_FOLLOWS_WITHIN after a lead read for its cause
_LEAD_WORDS = 6  # a lead's first content words, what changed it since is searched by


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


def query_topic_keys(query: str) -> list[str]:
    """Candidate topic keys in a question: every normalised 1-4 word span, plus a tool category."""
    words = [w for w in query.lower().replace("?", " ").split() if w]
    keys = {normalize_topic_key(" ".join(words[i:j]))
            for i in range(len(words)) for j in range(i + 1, min(i + 5, len(words) + 1))}
    category = tool_category(query)
    if category:
        keys.add(category)
    for phrase in ("package manager", "database", "language", "framework", "linter", "formatter"):
        if phrase in query.lower():
            keys |= {k for k in TOOL_CATEGORIES if phrase in k}
    return sorted(k for k in keys if k)


def _local(message: Message) -> datetime:
    """The message's time in the timezone it was written in."""
    return dates.local_time(message.ts, message.utc_offset_minutes)


def _label(event: EventDate) -> str:
    return dates.ResolvedDate(event.phrase, event.start, event.end, event.granularity).label


def _event_dates(candidate: Candidate, anchor: datetime) -> list[EventDate]:
    """What a memory is about in time: the dates of its content (resolved at ingest, so they
    carry labels), then any the extractor listed (ISO dates or labels) that its content does not
    show."""
    found = dates.event_dates_in(candidate.content, anchor)
    for extra in candidate.dates:
        rd = dates.parse_label(extra)
        if rd is not None and all((rd.start, rd.end) != (f.start, f.end) for f in found):
            found.append(rd)
    return [EventDate(phrase=rd.phrase, start=rd.start, end=rd.end, granularity=rd.granularity)
            for rd in found]


def _memory_text(memory: Memory) -> str:
    return " ".join([memory.content, memory.topic_key or "", *memory.questions])


FORGOTTEN = "[forgotten]"


def name_words(author: str) -> set[str]:
    """The lower-case words of a stored author's display name ("Zoë Park (U7)": zoe, park)."""
    return set(name_letters(display_name(author) or "").lower().split())


def open_work_result(query: str, now: datetime, work: list[open_tasks.OpenWork],
                     speakers: Callable[[Memory], set[str]],
                     authors: Iterable[str] = ()) -> RecallResult:
    """The answer to an open-work or blocked question (memory.open_tasks), citing what it lists.
    A mention's markup is said as the name (`authors` name the ids): "<@U024BE7LH> can you own
    the Q1 roadmap doc?" was listed as stored, markup and all."""
    text = (open_tasks.blocked_answer(work, speakers, open_tasks.blocked_whom(query))
            if open_tasks.asks_blocked(query)
            else open_tasks.answer(work, now, speakers))
    text = without_platform_ids(text, authors)
    still, done = open_tasks.shown(work)
    cited = [m for w in still for m in [w.commitment, *w.latest[-1:]]] + \
            [m for w in done for m in (w.commitment, w.closed_by)]
    return RecallResult(answer=text, memories=[
        ScoredMemory(memory=m, score=1.0, channels=["open_work"]) for m in cited])


def speakers_of(memories: list[Memory],
                profile_of: Callable[[Memory], Profile]) -> Callable[[Memory], set[str]]:
    """Who said the message each memory was drawn from (its first source), looked up with one
    store call per profile on first use: the offline answerer asks only when a question names
    someone the memory itself does not. Made per recall, so no thread shares it."""
    said: dict[str, set[str]] | None = None

    def speakers(memory: Memory) -> set[str]:
        nonlocal said
        if said is None:
            said = {}
            # a message gives several memories ("Yesterday: …", "Today: …", "Blockers: …"): each
            # is its speaker's (only the last of them was)
            firsts: dict[str, tuple[Profile, dict[str, list[str]]]] = {}
            for m in memories:
                if m.source_message_ids:
                    profile = profile_of(m)
                    firsts.setdefault(profile.name, (profile, {}))[1].setdefault(
                        m.source_message_ids[0], []).append(m.id)
            for profile, first in firsts.values():
                for message in profile.messages(first):
                    name = display_name(message.author)
                    if name:
                        said.update((memory_id_, {name}) for memory_id_ in first[message.id])
        return said.get(memory.id, set())
    return speakers


T = TypeVar("T")


# the words of asking who or what is blocked, which name nobody and nothing
_BLOCKED_ASKED = re.compile(r"(?i)\b(?:who|what|which|is|are|any|anyone|still|blocked|blocking|"
                            r"blocks|blockers?|waiting|on|for|the|right|now|currently)\b|['’]s\b")


def points_together(entries: list[T], memory_of: Callable[[T], Memory]) -> list[T]:
    """The ranked memories an answer reads, with the points of the first one right after it:
    the memories of the same message that lean on it (their search questions hold its words,
    memory.offline_extractor: "(1) …", "Owner: tomas."). Fusion moves them after new evidence
    (a retrieval budget is best spent on other turns), but an answer reads "PR #482 review: 2
    blocking issues." with its points, which came ninth and tenth."""
    if not entries:
        return entries
    first = memory_of(entries[0])
    points = [e for e in entries[1:] if first.content in memory_of(e).questions
              and memory_of(e).source_message_ids[:1] == first.source_message_ids[:1]]
    moved = {id(e) for e in points}
    return [entries[0], *points, *(e for e in entries[1:] if id(e) not in moved)]


def answer_window(ranked: list[Fused], n: int, wanted: set[str],
                  named: Iterable[str] = ()) -> list[Fused]:
    """The first `n` memories an answer reads, and after them (at most DEFERRED_READ) those
    fusion moved below the window for sharing a message with one above, yet scored above the
    window's lowest: "Embargo on the security advisory is Dec 10." came tenth, after eight
    memories sharing no word with "when is the embargo?", behind its own message's "If the
    patch slips, the embargo moves with it." (answered "No date was given")."""
    window = ranked[:n]
    if not window:
        return window
    floor = sorted((f.score for f in window), reverse=True)[len(window) // 2]
    # (and only one that says as many of the question's words as the first: more read, more
    # LoCoMo adversarial questions were answered, 0.717 → 0.705 declined)
    said = len(wanted & text_stems(_memory_text(window[0].record)))
    deferred = [f for f in ranked[n:] if f.score > floor and said
                and len(wanted & text_stems(_memory_text(f.record))) >= said]
    # One that says every word asked where none in the window does, whatever its score: "raj will
    # be hiring manager" shares its message with the panel ranked first, and ten memories of a
    # small channel, each one a vector's near miss, brought new sources before it.
    # (in its own words: the panel's questions, drawn from the whole message, say them too)
    # (or, naming the ticket or PR the question names, more of them than any in the window:
    # "PR #2201 review: `retry()` swallows CancelledError; please re-raise." for "what did the
    # review of PR 2201 ask for?"; any three words, not named, answered LoCoMo's adversarial
    # questions, declines 0.717 -> 0.705)
    named = list(named)
    most = max((len(wanted & text_stems(f.record.content)) for f in window), default=0)
    if len(wanted) > 1 and most < len(wanted):
        deferred += [f for f in ranked[n:] if f not in deferred
                     and (says := len(wanted & text_stems(f.record.content))) > most
                     and (says == len(wanted) or named and says >= 3 and all(
                         carries_identifier(i, f.record.content) for i in named))]
    # (and one of the first's own message that says a word asked the first does not: "Going
    # with Intercom." beside "Migration starts in January.", ranked first for "when does the
    # Intercom migration start?", which was declined: the choice came below the window)
    lead = window[0].record
    lacking = wanted - text_stems(_memory_text(lead))
    # (a lead saying half the words asked, or more: a sibling of one saying fewer answered
    # LoCoMo's adversarial "… to visit art galleries?" with the military memorials' reason)
    if lacking and lead.source_message_ids and 2 * len(lacking) <= len(wanted):
        deferred[:0] = [f for f in ranked[n:] if f not in deferred
                        and f.record.source_message_ids[:1] == lead.source_message_ids[:1]
                        and lacking & text_stems(f.record.content)][:1]
    return window + deferred[:DEFERRED_READ]


DEFERRED_READ = 2
HOLDING_SCAN = 50  # memories a forget or a delete reads for its text among their questions
_MOVES = re.compile(rf"(?i)\b{dates.MOVE_VERBS}\w*\b")
_VERSION_STEMS = frozenset(content_stems("version versions release"))
# what a move keeps of what it moved: "moved to Dec 9, same hours", "same time and place"
# (or all the rest: "update: field trip moved to Friday …, everything else the same" for "how
# much is the field trip?" was answered with the move alone)
_SAME_AS_BEFORE = re.compile(r"(?i)\bsame\s+(?:time|times|hours?|place|room|venue|location|"
                             r"slot|link|zoom|channel|agenda)\b|" + REST_AS_BEFORE.pattern[4:])


def forgotten_tombstone(memory: Memory) -> Memory:
    """What is shown of a forgotten memory outside an admin's audit: that it was, and why it
    went, not what it said (content, questions, dates, topic key, sources)."""
    if memory.status != "forgotten" or memory.content in (FORGOTTEN, Profile.PURGED,
                                                          Profile.DELETED):
        return memory
    return memory.model_copy(update={"content": FORGOTTEN, "questions": [], "dates": [],
                                     "event_dates": [], "topic_key": None,
                                     "source_message_ids": []})


class MemoryService:
    def __init__(self, store: Store, embedder: Embedder, extractor: Extractor, answerer: Answerer,
                 settings: Settings | None = None):
        self.settings = settings or Settings()
        self.store = store
        self.embedder = embedder
        self.extractor = extractor
        self.answerer = answerer
        self._pool: ThreadPoolExecutor | None = None
        self._pool_lock = threading.Lock()
        store.open(embedder.spec)

    @classmethod
    def from_settings(cls, settings: Settings | None = None, store: Store | None = None,
                      embedder: Embedder | None = None) -> MemoryService:
        """Wire the configured store and, when ANTHROPIC_API_KEY is set, the Anthropic extractor
        and answerer; otherwise the offline ones."""
        settings = settings or Settings()
        if store is None:
            from .stores.factory import store_from_settings

            store = store_from_settings(settings)
        if settings.anthropic_api_key:
            from .llm.answerer import AnthropicAnswerer
            from .llm.client import LLMClient
            from .llm.extractor import AnthropicExtractor

            client = LLMClient(api_key=settings.anthropic_api_key,
                               base_url=settings.anthropic_base_url,
                               max_retries=settings.llm_max_retries)
            extractor: Extractor = AnthropicExtractor(client, settings.extract_model)
            answerer: Answerer = AnthropicAnswerer(client, settings.answer_model,
                                                  hyde_model=settings.extract_model)
        else:
            from .offline_answerer import OfflineAnswerer
            from .offline_extractor import OfflineExtractor

            extractor, answerer = OfflineExtractor(), OfflineAnswerer()
        return cls(store, embedder or default_embedder(), extractor, answerer, settings)

    def profile(self, name: str) -> Profile:
        return Profile(self, check_profile_name(name))

    def ingest_many(self, items: list[IngestItem], now: datetime | None = None,
                    vectorize: bool = True, speculated: Speculated | None = None
                    ) -> list[IngestResult | Exception]:
        """Several conversations, of one or many profiles, as if each went to Profile.ingest in
        turn, with the store's round trips shared (memory/ingest_batch.py). An item's result is
        its IngestResult, or the exception its input or extraction raised (nothing of it
        written); a store error raises. `speculated`: what speculate_many(items, now) extracted
        ahead, used where it still holds."""
        return ingest_many(self, items, now or utcnow(), vectorize, speculated)

    def speculate_many(self, items: list[IngestItem], now: datetime) -> Speculated:
        """The extraction ingest_many(items, now) would do, done now and written nowhere, for a
        caller that then takes write locks (memory/ingest_batch.py speculate_many)."""
        return speculate_many(self, items, now)

    def index_vectors(self, pending: dict[str, Iterable[str]]) -> int:
        """Profile.index_vectors for several profiles at once: one model call for all their
        memories and message passages (the encoder is far faster on one batch of 200 than on 50
        of 4) and their writes made searchable by one refresh. `pending` holds memory ids and
        `passages:<message id>` entries (IngestResult.pending_vector_ids). Returns how many
        memories got a vector."""
        memory_ids: dict[str, list[str]] = {}
        message_ids: dict[str, list[str]] = {}
        for name, ids in pending.items():
            name = self.profile(name).name
            for i in ids:
                if i.startswith(PENDING_PASSAGES):
                    message_ids.setdefault(name, []).append(i[len(PENDING_PASSAGES):])
                else:
                    memory_ids.setdefault(name, []).append(i)
        found = [(name, m) for name, ms in self.store.get_memories_many(memory_ids).items()
                 for m in ms if m.embeddable]
        messages = [(name, m) for name, ms in self.store.get_messages_many(message_ids).items()
                    for m in ms]
        if not found and not messages:
            return 0
        memory_vectors, passage_vectors = self._embed(
            [embedding_text(m) for _, m in found], [m for _, m in messages])
        by_profile: dict[str, dict[str, np.ndarray]] = {}
        for (name, memory), vector in zip(found, memory_vectors):
            by_profile.setdefault(name, {})[memory.id] = vector
        passages_of: dict[str, dict[str, np.ndarray]] = {}
        for (name, message), matrix in zip(messages, passage_vectors):
            passages_of.setdefault(name, {})[message.id] = matrix
        with self.store.deferred_refresh():
            self.store.set_vectors_many(by_profile)
            self.store.set_passage_vectors_many(passages_of)
        return len(found)

    def deferred_refresh(self):
        """A block of writes made searchable together when it ends (one refresh on
        Elasticsearch); reads inside it still see its own writes."""
        return self.store.deferred_refresh()

    def _embed(self, texts: list[str], messages: list[Message]
               ) -> tuple[np.ndarray, list[np.ndarray]]:
        """One model call for memory texts and the passages of messages: (memory vectors, one
        (passages, dim) matrix per message)."""
        spans = [split_passages(m.content) for m in messages]
        passages = [passage_embedding_text(m.author or m.role, m.content[a:b])
                    for m, cuts in zip(messages, spans) for a, b in cuts]
        vectors = self.embedder.embed([*texts, *passages])
        out, at = [], len(texts)
        for cuts in spans:
            out.append(vectors[at:at + len(cuts)])
            at += len(cuts)
        return vectors[:len(texts)], out

    def embedding_pool(self) -> ThreadPoolExecutor:
        """Threads that embed questions while the store runs its text channels (made on first
        use; the encoder is thread-safe and releases the GIL)."""
        with self._pool_lock:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(EMBEDDING_THREADS,
                                                thread_name_prefix="lurker-embed")
            return self._pool

    def recall_across(self, names: Iterable[str], query: str, now: datetime | None = None,
                      channels: Iterable[str] = CHANNELS, k: int | None = None,
                      asker: str | None = None) -> RecallAcross:
        """One answer from several profiles (a DM asked of every channel the asker can read):
        each profile is searched on its own (isolation holds: nothing crosses between them but
        this answer), the rankings are fused by reciprocal rank, and the answer is written once
        from the best of them. `profile_of` names the profile of every record used."""
        names = list(dict.fromkeys(names))
        if not isinstance(query, str) or not query.strip():
            raise InvalidMessage("recall needs a non-empty question")
        settings = self.settings
        now = now or utcnow()
        query = clean_text(query.strip())
        channels, k = tuple(channels), k or settings.recall_k
        if open_tasks.asks_open_work(query) or open_tasks.asks_blocked(query):
            return self._open_work_across(names, query, now)
        scored: dict[tuple[str, str, str], tuple[float, Fused]] = {}
        for name in names:
            ranking = self.profile(name)._retrieve(query, channels, k, None, asker=asker,
                                                   now=now)
            for rank, found in enumerate(ranking):
                key = (name, *found.key)
                score = 1.0 / (RRF_K + rank + 1)
                scored[key] = (scored.get(key, (0.0, found))[0] + score, found)
        ranked = sorted(scored.items(), key=lambda item: -item[1][0])
        # ("last Tuesday" of the Tuesday a week before, read of every memory found, as a
        # profile's recall reads it: its records first, and the date facts say that day)
        span = asked_span(query, now)
        meant = week_before_said(query, span, [f.record for _, (_, f) in ranked
                                               if isinstance(f.record, Memory)])
        if meant is not None:
            ranked = in_span_first(ranked, meant, lambda item: fused_record(item[1][1]))
        profile_of = {found.record.id: key[0] for key, (_, found) in ranked}
        memories = points_together([(s, f) for _, (s, f) in ranked
                                    if isinstance(f.record, Memory)],
                                   lambda entry: entry[1].record)[: settings.answer_memories]
        messages = [(s, f) for _, (s, f) in ranked
                    if isinstance(f.record, Message)][: settings.answer_messages]
        computed = date_questions.compute_for_question(query, now)
        if meant is not None:
            computed = computed_as_meant(computed, span, meant)
        shown = [f.record for _, f in memories]
        previous: dict[str, Memory] = {}
        for memory in shown:
            if memory.supersedes:
                previous.update(self.profile(profile_of[memory.id])._previous_versions([memory]))
        answer = self.answerer.answer(query, now, shown, [f.record for _, f in messages],
                                      computed, previous=previous,
                                      speakers=speakers_of(
                                          shown, lambda m: self.profile(profile_of[m.id])),
                                      asker=asker)
        result = RecallResult(
            answer=answer,
            memories=[ScoredMemory(memory=f.record, score=s, channels=f.channels)
                      for s, f in memories],
            messages=[ScoredMessage(message=f.record, score=s, channels=f.channels)
                      for s, f in messages],
            computed=computed)
        return RecallAcross(result=result, profile_of=profile_of)

    def _open_work_across(self, names: list[str], query: str, now: datetime) -> RecallAcross:
        """"What's still open?" in a DM: every profile's open work, each on its own (no work
        crosses profiles), listed together, newest first."""
        work: list[open_tasks.OpenWork] = []
        said_by: dict[str, Callable[[Memory], set[str]]] = {}
        profile_of: dict[str, str] = {}
        authors: set[str] = set()
        for name in names:
            theirs, speakers = self.profile(name)._asked_work(query, now)
            authors.update(self.store.authors(name))
            for w in theirs:
                for m in (w.commitment, *w.latest, *([w.closed_by] if w.closed_by else [])):
                    said_by[m.id], profile_of[m.id] = speakers, name
            work += theirs
        work.sort(key=lambda w: (w.commitment.said_at, w.commitment.id))
        result = open_work_result(query, now, work,
                                  lambda m: said_by[m.id](m) if m.id in said_by else set(),
                                  authors)
        return RecallAcross(result=result, profile_of=profile_of)

    def close(self) -> None:
        with self._pool_lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True)
        self.store.close()

    def __enter__(self) -> MemoryService:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _author(author: str | None) -> str | None:
    return author.strip() if isinstance(author, str) and author.strip() else None


RRF_K = 60  # recall_across: reciprocal rank fusion's usual constant


@dataclass
class RecallAcross:
    result: RecallResult
    profile_of: dict[str, str]  # memory / message id -> the profile it was found in


# how far back a version chain is followed for a question about a past span
_VERSIONS_WALKED = 8
# how far back the channel's flow is read for a span a bare "the 11th" falls in
_SPAN_LOOKBACK = 20
_SPAN_NAMED_WITHIN = timedelta(days=14)


class Profile:
    """One isolated memory store within the service, addressed by name."""

    def __init__(self, service: MemoryService, name: str):
        self.service = service
        self.name = name

    @property
    def _store(self) -> Store:
        return self.service.store

    # --- ingest ---------------------------------------------------------------------------
    def ingest(self, messages: list, session_id: str, now: datetime | None = None,
               vectorize: bool = True) -> IngestResult:
        """Store a conversation and the memories drawn from it. A message whose id, or whose
        platform `external_id`, is already stored is skipped (so a redelivered create after an edit
        does not bring the old text back). With vectorize=False the memories are stored and their
        ids returned in `pending_vector_ids` for a later index_vectors call."""
        result = self.service.ingest_many([IngestItem(self.name, messages, session_id)], now,
                                          vectorize)[0]
        if isinstance(result, Exception):
            raise result
        return result

    def _index_passages(self, messages: list[Message], vectorize: bool) -> list[str]:
        """Embed the passages of stored messages now, or return them as pending entries."""
        if not vectorize:
            return [PENDING_PASSAGES + m.id for m in messages]
        if messages:
            _, matrices = self.service._embed([], messages)
            self._store.set_passage_vectors(self.name, {
                m.id: matrix for m, matrix in zip(messages, matrices)})
        return []

    def _ingest_memories(self, messages: list[Message], session_id: str | None, now: datetime,
                         vectorize: bool) -> Written:
        return self._write_memories(self._memories_of(messages, session_id, now), vectorize)

    def _memories_of(self, messages: list[Message], session_id: str | None, now: datetime,
                     known: dict[str, Message] | None = None) -> list[Memory]:
        """The memories drawn from new messages (not stored yet): extraction, then records."""
        candidates, lines = self._extract(messages, known)
        return [self._memory_from(c, lines, session_id, now) for c in candidates]

    def _extract(self, messages: list[Message], known: dict[str, Message] | None = None
                 ) -> tuple[list[Candidate], dict[int, Message]]:
        """Transcript with its dates resolved in code (in each message's own local time), then the
        configured extractor. A reply is read with the message it answers (`reply_to`): in the
        batch, its line is marked; stored earlier (a thread's parent in another session, say), it
        joins the transcript as a context line, which may be cited but gives no memory of its own.
        A suppressed message (a memory drawn from it was forgotten) is never brought back.
        `known`: {external id: stored message} looked up beforehand, replies' parents among them."""
        ordered = sorted(messages, key=lambda m: (m.ts, m.seq))
        wanted = parents_elsewhere(ordered)
        if known is not None:  # looked up already (ingest_many)
            found = {k: known[k] for k in wanted if k in known}
            looked = {k: known[k] for k in (SAID_BEFORE, SAID_EARLIER) if k in known}
        else:
            found = self._store.find_messages_by_external_id(self.name, wanted) if wanted else {}
            looked = said_before(self._store, self.name, ordered)
        ids = {m.id for m in ordered}
        context = [m for m in found.values() if not m.suppressed and m.id not in ids]
        before = [m for m in looked.values() if m.id not in ids]  # (the channel's flow before)
        context += [m for m in before if m.id not in {c.id for c in context}]
        before_ids = {m.id for m in before}
        context_ids = {m.id for m in context}
        everything = sorted([*context, *ordered], key=lambda m: (m.ts, m.seq))
        position = {m.external_id: i for i, m in enumerate(everything) if m.external_id}
        order_of = {m.id: i for i, m in enumerate(everything)}

        def named_in_thread(m: Message) -> dates.ResolvedDate | None:
            # a reply's bare "the 4th" is of the month its thread names ("the offsite, March
            # 3-5"), not of the month it was said in
            if not dates.has_bare_ordinal(m.content):
                return None
            if m.reply_to in position:
                parent = everything[position[m.reply_to]]
                return dates.day_named_with_month(parent.content, _local(parent))
            # (said in the channel: the day of a span named before it that the ordinal falls
            # in, "offsite is confirmed: Lisbon, March 9-12", a week before "partners welcome
            # for the dinner on the 11th")
            at = order_of[m.id]
            earlier = [(e.content, _local(e))
                       for e in reversed(everything[max(0, at - _SPAN_LOOKBACK):at])
                       if m.ts - e.ts <= _SPAN_NAMED_WITHIN]
            return dates.day_in_span_named(m.content, earlier)

        lines = [TranscriptLine(index=i, message_id=m.id, role=m.role, author=m.author, ts=m.ts,
                                # (a one-line standup's labels spelled out first, so its
                                # "T:" is dated as "Today" is: memory.standup_forms)
                                content=dates.annotate_dates(
                                    labelled_standup(m.content) or m.content, _local(m),
                                    named_in_thread(m))[0],
                                reply_to=position.get(m.reply_to) if m.reply_to else None,
                                context=m.id in context_ids,
                                before=m.id in before_ids)
                 for i, m in enumerate(everything)]
        by_index = dict(enumerate(everything))
        candidates = verify(self.service.extractor.extract(lines), lines)
        # a memory comes from what this batch said; a context line only backs it up
        return [c for c in candidates if any(not lines[i].context for i in c.source_lines)], \
            by_index

    def _memory_from(self, c: Candidate, lines: dict[int, Message], session_id: str | None,
                     now: datetime) -> Memory:
        sources = [lines[i] for i in c.source_lines if i in lines]
        source_ids = list(dict.fromkeys(m.id for m in sources))
        topic = normalize_topic_key(c.topic_key) if c.type in ("fact", "instruction") else None
        # said when the message whose words it carries was, not the question a reply cites as
        # context ("ok decision: paid keys get 500/min", the 17th's reply to the 16th's "maybe
        # 500 for paid?", is the 17th's: dated the 16th, "what did we decide on Tuesday the
        # 17th?" missed it)
        # (a reply of no content word, "on it" under "can someone review #901?", is its own:
        # nothing of it can be carried, and it was dated when the request was)
        carried = [m for m in sources if carries(c.content, m.content)
                   or not stem_tokens(m.content)] if len(sources) > 1 else sources
        # (a reply that carries what it corrects, "Correction: actually it's 50 MB (to priya's
        # "… is 25 MB.")", is the reply's: its own message is its first source)
        first = sources[0] if sources and sources[0] in carried and len(carried) > 1 \
            else min(carried or sources, key=lambda m: m.ts, default=None)
        event_dates = _event_dates(c, _local(first) if first else now)
        return Memory(
            id=memory_id(c.type, c.content, source_ids), type=c.type, content=c.content,
            topic_key=topic, questions=c.questions[:5], source_message_ids=source_ids,
            # said when that message was, in its own timezone: "tonight" at 23:30
            # in Seattle is Thursday's, to its event dates and to "what happened on Thursday?"
            session_id=session_id, created_at=now, event_time=_local(first) if first else None,
            event_dates=event_dates, dates=[_label(e) for e in event_dates])

    def _write_memories(self, memories: list[Memory], vectorize: bool = True) -> Written:
        """Store new memories with topic-key supersession (memory/ingest_batch.py)."""
        return write_memories_many(self.service, {self.name: memories}, vectorize)[self.name]

    def index_vectors(self, memory_ids: Iterable[str]) -> int:
        """Embed the given memories that are still active and embeddable (idempotent): the
        background half of ingest(..., vectorize=False)."""
        return self.service.index_vectors({self.name: list(memory_ids)})

    def _index_vectors(self, memories: list[Memory]) -> None:
        if not memories:
            return
        vectors = self.service.embedder.embed([embedding_text(m) for m in memories])
        self._store.set_vectors(self.name, {m.id: v for m, v in zip(memories, vectors)})

    # --- chat edits and deletes -----------------------------------------------------------
    def edit_message(self, external_id: str, content: str, ts=None, vectorize: bool = True,
                     now: datetime | None = None, session_id: str | None = None,
                     role: str = "user", author: str | None = None) -> EditResult:
        """The platform message `external_id` now says `content`: the raw message is replaced,
        memories drawn from the old text are superseded by those drawn from the new one.
        Re-delivering the same edit changes nothing. Events may arrive out of order: an edit
        whose message is not stored yet is stored as that message when `session_id` is given
        (the late create is then skipped by its external id), else reported as not found."""
        now = now or utcnow()
        old = self._store.find_messages_by_external_id(self.name, [external_id]).get(external_id)
        if old is None:
            if session_id is None:
                return EditResult(found=False)
            raw = {"role": role, "author": author, "content": content, "ts": ts,
                   "external_id": external_id}
            ingested = self.ingest([raw], session_id, now, vectorize)
            return EditResult(found=False, new_message_id=ingested.message_ids[0],
                              memories_created=ingested.memories_created,
                              memories_superseded=ingested.memories_superseded,
                              pending_vector_ids=ingested.pending_vector_ids)
        raw = {"role": old.role, "author": old.author, "content": content,
               "ts": ts if ts is not None else old.ts, "external_id": external_id,
               "reply_to": old.reply_to}
        new = to_messages([raw], old.session_id, now, self.service.settings.max_message_bytes)[0]
        new.seq = old.seq
        # A forgotten message stays forgotten when its author edits it (a typo fix would bring
        # the forgotten text back): the new version is suppressed too and yields no memories.
        new.suppressed, new.replaces = old.suppressed, [*old.replaces, old.id]
        result = EditResult(found=True, old_message_id=old.id, new_message_id=new.id)
        if new.id == old.id:
            return result
        self._store.insert_messages(self.name, [new])
        self._store.delete_messages(self.name, [old.id])
        written = (Written([], 0, []) if new.suppressed
                   else self._ingest_memories([new], old.session_id, now, vectorize))
        result.memories_created = len(written.created)
        result.pending_vector_ids = written.pending + self._index_passages([new], vectorize)
        replacement = {m.topic_key: m for m in written.created}
        changed = []
        for memory in self._store.memories_by_source(self.name, [old.id]):
            if memory.status != "active":
                continue
            sources = [i for i in memory.source_message_ids if i != old.id]
            # (a reply's memory cites the question it answers after its own message: editing the
            # reply changes what it says, not where else it was said; sam's "on it" edited to
            # "actually can't today" kept "sam is on it")
            if sources and memory.source_message_ids[0] != old.id:
                # still said elsewhere: only this source changed
                memory.source_message_ids = [*sources, new.id]
            elif any(alert_span([memory, m]) for m in written.created):
                # a pager's card updated in place (Triggered → Resolved by `chat.update`): it
                # did fire then, and the two are what "how long did it last?" reads
                memory.source_message_ids = [new.id]
            else:
                successor = replacement.get(memory.topic_key) or next(iter(written.created), None)
                memory.status = "superseded"
                memory.superseded_by = successor.id if successor else None
            changed.append(memory)
        self._store.upsert_memories(self.name, changed)
        self._store.delete_vectors(self.name, [m.id for m in changed if m.status != "active"])
        result.memories_superseded = written.superseded + sum(
            m.status == "superseded" for m in changed)
        return result

    def delete_message(self, external_id: str, now: datetime | None = None) -> DeleteResult:
        """The platform message was deleted: drop the raw message and leave no text of it behind.
        A memory drawn only from it (or from its earlier versions, before edits) is erased as
        purge_author erases one: forgotten, its content, questions, dates, topic key and sources
        blanked, its id and version links kept as a tombstone. A memory also drawn from other
        messages keeps those sources only, unless it carries a sentence of this one (then it is
        erased too). Idempotent."""
        message = self._store.find_messages_by_external_id(self.name, [external_id]).get(
            external_id)
        if message is None:
            return DeleteResult(found=False)
        result = DeleteResult(found=True, message_id=message.id)
        gone = {message.id, *message.replaces}
        self._store.delete_messages(self.name, [message.id])
        changed, erased = self._erase_drawn_from(gone, self.DELETED, "source message deleted",
                                                 now or utcnow(), said=[message.content])
        result.memories_forgotten = len(erased)
        result.memories_updated = len(changed) - len(erased)
        return result

    def scrub(self, now: datetime | None = None) -> ScrubResult:
        """Apply today's redaction rules (memory/redaction.py) to what older rules let through:
        a redaction release learns shapes (a Stripe webhook secret, 26 Nov) that profiles stored
        before it still hold. A message whose text changes is replaced as a deleted message is
        (the memories drawn only from it erased, its vectors and passages gone) and ingested
        again as its redacted text, so its id and memories are drawn from that text, never from
        the secret; a forgotten (suppressed) message is kept redacted and suppressed, with no
        memories. A memory whose own text holds a secret (one remembered directly) is rewritten
        under the id of its redacted text and embedded again. The memories drawn from a scrubbed
        message are removed, not kept as tombstones, and version links to a removed or renamed
        memory follow it: no id computed from a secret is left. Idempotent: a second run
        changes nothing."""
        return self._scrub(self._store.iter_messages(self.name), None, now or utcnow())

    def _scrub(self, messages: Iterable[Message], memory_ids: list[str] | None,
               now: datetime) -> ScrubResult:
        """Scrub the given messages and memories (None: every memory of the profile)."""
        store, result = self._store, ScrubResult()
        # A record's id is a hash of its text: ids computed from a secret go, with the records,
        # and the version links that named them follow (None: removed, else the new id).
        renamed: dict[str, str | None] = {}
        for message in [m for m in messages if redact(m.content)[0] != m.content]:
            clean = redact(message.content)[0]
            store.delete_messages(self.name, [message.id])
            _, erased = self._erase_drawn_from({message.id, *message.replaces}, self.DELETED,
                                               "redacted again", now, said=[message.content])
            store.delete_memories(self.name, erased)  # not kept as tombstones: see above
            renamed.update(dict.fromkeys(erased))
            result.messages_redacted += 1
            result.memories_erased += len(erased)
            if message.suppressed:
                store.insert_messages(self.name, [message.model_copy(update={
                    "id": message_id(message.session_id, message.role, clean), "content": clean,
                    "replaces": []})])
                continue
            offset = timezone(timedelta(minutes=message.utc_offset_minutes or 0))
            self.ingest([{"role": message.role, "author": message.author, "content": clean,
                          "ts": message.ts.astimezone(offset).isoformat(),
                          "external_id": message.external_id, "reply_to": message.reply_to}],
                        session_id=message.session_id, now=now)
        rewritten = []
        # read after the messages' step: a memory drawn from a scrubbed message is gone now
        for memory in (store.list_memories(self.name, include_inactive=True) if memory_ids is None
                       else store.get_memories(self.name, memory_ids)):
            content = redact(memory.content)[0]
            questions = [redact(q)[0] for q in memory.questions]
            if content != memory.content or questions != memory.questions:
                new_id = memory_id(memory.type, content, memory.source_message_ids)
                rewritten.append(memory.model_copy(update={"id": new_id, "content": content,
                                                           "questions": questions}))
                renamed[memory.id] = new_id
        if rewritten:
            store.upsert_memories(self.name, rewritten)
            store.delete_memories(self.name, [i for i, new in renamed.items() if new])
            self._index_vectors([m for m in rewritten if m.embeddable])
            result.memories_redacted = len(rewritten)
        if renamed:
            linked = [m for m in store.list_memories(self.name, include_inactive=True)
                      if m.supersedes in renamed or m.superseded_by in renamed]
            for m in linked:
                if m.supersedes in renamed:
                    m.supersedes = renamed[m.supersedes]
                if m.superseded_by in renamed:
                    m.superseded_by = renamed[m.superseded_by]
            store.upsert_memories(self.name, linked)
        if result.messages_redacted or result.memories_redacted:
            store.expunge(self.name)
        return result

    def _erase_drawn_from(self, gone: set[str], placeholder: str, reason: str, now: datetime,
                          legacy_versions: bool = False, said: Iterable[str] = ()
                          ) -> tuple[dict[str, Memory], set[str]]:
        """Erase the memories (any status) drawn only from the messages `gone`, and drop those
        messages from the sources of the memories also drawn from others, unless such a memory
        carries a sentence of what they `said` (a correction quotes what it corrects, a short
        answer its question): that one is erased too, no text of theirs left behind. With
        `legacy_versions`, also walk the whole profile for older versions of erased memories
        whose messages were edited before messages recorded `replaces` (a purge does; a delete,
        which is frequent, does not). Returns (every memory changed, the ids erased)."""
        store = self._store
        changed: dict[str, Memory] = {}
        erased: set[str] = set()
        current: set[str] = set()  # erased while they were the current version

        def erase(memory: Memory) -> None:
            if memory.status == "active":
                current.add(memory.id)
            memory.status, memory.forgotten_reason = "forgotten", reason
            memory.forgotten_at = now
            memory.content, memory.questions, memory.dates = placeholder, [], []
            memory.event_dates = []
            memory.topic_key, memory.source_message_ids = None, []
            changed[memory.id] = memory
            erased.add(memory.id)

        said = [text for text in said if text]
        requestioned: dict[str, Memory] = {}  # kept, with fewer questions: embedded again
        for memory in store.memories_by_source(self.name, gone, include_inactive=True):
            remaining = [i for i in memory.source_message_ids if i not in gone]
            # (a memory whose own message (its first source) is gone is drawn from it, whatever
            # else it cites: "sam is on it" cites the request it answers, and carries no word of
            # "on it", so it stood after sam deleted his reply)
            own = memory.source_message_ids[:1] and memory.source_message_ids[0] in gone
            if remaining and not own and not any(carries(memory.content, text) for text in said):
                memory.source_message_ids = remaining
                changed[memory.id] = memory
            elif memory.content not in (self.PURGED, self.DELETED):
                erase(memory)
        # Older versions of messages edited before edits kept their history (`replaces`): their
        # source message is gone (replaced by the edit), their successor is erased now.
        while legacy_versions and erased:
            older = [m for m in store.list_memories(self.name, include_inactive=True)
                     if m.id not in erased and m.status == "superseded"
                     and m.superseded_by in erased and m.source_message_ids
                     and not store.get_messages(self.name, m.source_message_ids)]
            if not older:
                break
            for memory in older:
                erase(memory)
        # No sentence of theirs stays among the questions a kept memory answers: a reply keeps
        # the question it answered (drawn from it too), a thread's reply its thread's subject
        # (found by its words), and both went on being searched and exported after a delete
        for text in said:
            for memory in self._holding(text, [changed[i] for i in changed if i not in erased]):
                memory = changed.get(memory.id, memory)
                kept = [q for q in memory.questions if not carries(q, text)]
                if kept != memory.questions and memory.id not in erased:
                    memory.questions = kept
                    changed[memory.id] = memory
                    requestioned[memory.id] = memory
        restored = self._restore_predecessors(changed, current, erased)
        store.upsert_memories(self.name, list(changed.values()))
        store.delete_vectors(self.name, list(erased))
        self._index_vectors([m for m in [*restored, *requestioned.values()]
                             if m.embeddable and m.id not in erased])
        return changed, erased

    def _restore_predecessors(self, changed: dict[str, Memory], current: set[str],
                              erased: set[str]) -> list[Memory]:
        """The versions that erased current memories had superseded stand again (added to
        `changed`): a deleted correction must not take the fact it corrected with it. The chain
        is walked past versions whose messages were deleted before; not restored: one whose
        messages are gone, or one whose topic has another current version."""
        store = self._store
        restored = []
        for memory in [changed[i] for i in current]:
            link, seen = memory.supersedes, {memory.id}
            while link and link not in seen:
                seen.add(link)
                old = changed.get(link) or next(iter(store.get_memories(self.name, [link])), None)
                if old is None or old.id in erased or (old.status == "forgotten" and old.content
                                                       in (self.PURGED, self.DELETED)):
                    link = old.supersedes if old is not None else None
                    continue  # erased now or before: its own predecessor is the one to restore
                if old.status == "superseded" and self._may_stand_again(old, erased):
                    old.status, old.superseded_by = "active", None
                    changed[old.id] = old
                    restored.append(old)
                break
        return restored

    def _may_stand_again(self, old: Memory, erased: set[str]) -> bool:
        store = self._store
        if old.source_message_ids and not store.get_messages(self.name, old.source_message_ids):
            return False
        if old.topic_key:
            now_current = store.active_by_topic(self.name, [old.topic_key]).get(old.topic_key)
            return now_current is None or now_current.id in erased
        return True

    # --- remember -------------------------------------------------------------------------
    def remember(self, content: str, session_id: str | None = None,
                 memory_type: MemoryType | None = None, now: datetime | None = None) -> Memory:
        """Store one memory now (an agent's own tool). Classified by the extractor unless typed."""
        if not isinstance(content, str) or not content.strip():
            raise InvalidMessage("remember needs non-empty content")
        now = now or utcnow()
        content = redact(clean_text(content.strip()))[0]
        annotated = dates.annotate_dates(content, now)[0]
        line = TranscriptLine(index=0, message_id="", role="user", author=None, ts=now,
                              content=annotated)
        proposals = self.service.extractor.extract([line])
        guess = proposals[0] if proposals else None
        kind = memory_type or (guess.type if guess else "fact")
        candidate = Candidate(type=kind, content=annotated,
                              topic_key=guess.topic_key if guess else None,
                              questions=guess.questions if guess else [],
                              dates=guess.dates if guess else [])
        memory = self._memory_from(candidate, {}, session_id, now)
        memory.event_time = now
        self._write_memories([memory])
        return self._store.get_memories(self.name, [memory.id])[0]

    # --- recall ---------------------------------------------------------------------------
    def recall(self, query: str, now: datetime | None = None,
               channels: Iterable[str] = CHANNELS, k: int | None = None,
               weights: dict[str, float] | None = None, asker: str | None = None,
               addressee: str | None = None) -> RecallResult:
        """The answer to `query` and what it was drawn from. `asker`: the stored author
        (`name (id)`) of the person asking; a question in the first person then also searches
        their own messages (the asker channels). `addressee`: the stored author of the one the
        question is put to (an agent that writes into this profile); a question asking what
        "you" said searches the addressee's messages instead."""
        if not isinstance(query, str) or not query.strip():
            raise InvalidMessage("recall needs a non-empty question")
        settings = self.service.settings
        now = now or utcnow()
        query = spelled_out(clean_text(query.strip()))
        channels = tuple(channels)
        if open_tasks.asks_open_work(query) or open_tasks.asks_blocked(query) \
                and not self._blocked_thing(query):
            return self._open_work(query, now)
        timings: dict[str, float] = {}
        fused = self._retrieve(query, channels, k or settings.recall_k, weights, timings, asker,
                               addressee, now)
        span = read = asked_span(query, now)
        # ("last Tuesday" of the Tuesday a week before, when only that one says what is asked:
        # read here, of every memory found, so the model is told and shown the day meant)
        meant = week_before_said(query, span, [f.record for f in fused
                                               if isinstance(f.record, Memory)])
        if meant is not None:
            span, fused = meant, in_span_first(fused, meant, fused_record)
        memories = self._details_replaced(content_stems(query), about_the_span_first(
            self._as_they_stood(answer_window(
                points_together([f for f in fused if isinstance(f.record, Memory)],
                                lambda f: f.record), settings.answer_memories,
                content_stems(query), identifiers(query)), span),
            span, fused_record))
        messages = [f for f in fused if isinstance(f.record, Message)][: settings.answer_messages]
        computed = date_questions.compute_for_question(
            query, now, dater=lambda phrase: self._event_date(phrase, channels, k or
                                                              settings.recall_k, weights, now))
        if meant is not None:
            computed = computed_as_meant(computed, read, meant)
        shown = [f.record for f in memories]
        # what was said later of a ticket or PR the lead memories name ("#812 merged and
        # deployed" for "is the Safari bug fixed?", after "Fix is in PR #812")
        # (the channel each was read by: a ticket named later, or a sentence of a lead's message)
        followed = [(m, "incident") for m in self._said_in_incident(query, shown)] \
            or [(m, "identifier") for m in self._said_later_of(query, shown)] \
            or [(m, "same_message") for m in self._said_beside(query, shown)] \
            or [(m, "changed_since") for m in self._changed_later(query, shown)] \
            or [(m, "cause_after") for m in self._cause_said_after(query, shown)]
        if followed:
            memories = memories + [Fused(record=m, score=0.0, channels=[how])
                                   for m, how in followed]
            shown = shown + [m for m, _ in followed]
        answer, working = None, self._working(query, now)
        if working is not None:
            answer, cited = working
            memories = [Fused(record=m, score=1.0, channels=["open_work"]) for m in cited] + \
                [f for f in memories if f.record.id not in {m.id for m in cited}]
        if answer is None:
            answer = self.service.answerer.answer(
                query, now, shown, [f.record for f in messages]
                + self._leads_messages(query, shown, [f.record for f in messages]), computed,
                previous=self._previous_versions(
                    shown, _VERSIONS_WALKED if asks_trend(query) else 1),
                speakers=speakers_of(shown, lambda memory: self), asker=asker,
                addressee=addressee)
        return RecallResult(
            answer=answer,
            memories=[ScoredMemory(memory=f.record, score=f.score, channels=f.channels)
                      for f in memories],
            messages=[ScoredMessage(message=f.record, score=f.score, channels=f.channels)
                      for f in messages],
            computed=computed, channel_seconds=timings)

    def _said_of_items(self, shown: list[Memory], items: list[str]) -> list[Memory]:
        """For "what's left for the launch?" led by a checklist: the memories said after it that
        the extractor found by one of its items (a thread's "docs done" under "- [ ] docs
        updated"), which share no word with the question. One more search, only then."""
        lead = shown[0]
        found = self._store.search(self.name, SearchRequest(
            text=" ".join(items), k=FOLLOWED_SCAN, channels=(CH_MEMORY_TEXT,)))
        seen = {m.id for m in shown}
        out = [hit.record for hit in found.get(CH_MEMORY_TEXT, [])
               if isinstance(hit.record, Memory) and hit.record.id not in seen
               and hit.record.said_at > lead.said_at
               and (any(item in q for q in hit.record.questions for item in items)
                    or any(says_item(item, hit.record) for item in items))]
        return out[:FOLLOWED_KEPT]

    def _said_later_of(self, query: str, shown: list[Memory]) -> list[Memory]:
        """The memories said after the first three shown that name a ticket or PR one of those
        names ("ZD-9921", "#812"), when the question names none itself: a bug asked of in words
        is later spoken of by its number ("Customer confirmed ZD-9921 is fixed, closing."), which
        shares no word with the question, so no channel found it; so is its workaround ("ESC-521
        workaround: use Chrome …" for "what's the workaround for the Safari SSO loop?"), and
        who took it on ("raj can you own GAME-881? yep on it" for "who is fixing the level 3
        crash?"). One more search, only then."""
        if identifiers(query) or not (asks_how_it_stands(query) or asks_open(query)
                                      or asks_cause(query) or asks_why(query)
                                      or asks_remedy(query) or asks_owner(query)):
            return []
        if asks_open(query) and (items := checklist_items(shown[0].content if shown else "")):
            return self._said_of_items(shown, items)
        lead = with_siblings(shown[:LEADS_FOLLOWED], shown)
        tickets = list(dict.fromkeys(t for m in lead for t in fixed_in(m.content)))
        if asks_why(query):  # (and what a sum it names was: "The $412 was a duplicate ACH fee")
            tickets += [s for m in lead for s in sums_named(m.content) if s not in tickets]
        if not tickets:
            return []
        found = self._store.search(self.name, SearchRequest(
            text=" ".join(tickets), k=FOLLOWED_SCAN, channels=(CH_MEMORY_TEXT,)))
        seen = {m.id for m in shown}
        out = []
        for hit in found.get(CH_MEMORY_TEXT, []):
            m = hit.record
            if isinstance(m, Memory) and m.id not in seen and any(
                    carries_identifier(t, m.content) and m.said_at > first.said_at
                    for first in lead for t in tickets
                    if carries_identifier(t, first.content)):
                out.append(m)
                seen.add(m.id)
        out = out[:FOLLOWED_KEPT]
        if out and asks_cause(query) and not any(says_cause(m) for m in out):
            # (and the cause its message states beside it: "Postmortem for PD-4410 Friday 3pm.
            # Root cause: a vacuum on the replica blocked replication." names the page's ticket
            # in its first sentence only, and "what caused the orders-api latency?" gave the
            # alert's TRIGGERED / RESOLVED pair)
            out += self._beside_in_messages(out, seen, says_cause)[:1]
        return out

    def _said_in_incident(self, query: str, shown: list[Memory]) -> list[Memory]:
        """For why an alert fired or what fixed it, when the shown memories hold it firing and
        resolved: what was said in its conversation between the two ("ES cluster ran out of
        disk on data-3, cleared old indices" for "why did search go down?", no word of the
        question). One more read of the conversation's messages, only then."""
        if not (asks_cause(query) or asks_why(query) or asks_what_fixed(query)):
            return []
        span = alert_span(shown)
        if span is None or span[0].session_id is None:
            return []
        fired, ended = span
        return self._memories_said_between(
            [(fired.session_id, fired.said_at, ended.said_at)], _INCIDENT_READ, shown,
            lambda m: finds_in_incident(query, m), from_start=True)

    def _cause_said_after(self, query: str, shown: list[Memory]) -> list[Memory]:
        """For why something happened or what caused it, when no lead says: a cause said soon
        after a lead in its conversation ("Known issue with GlobalProtect 6.2.1, rolling back
        to 6.1.4 tonight." 45 minutes after "VPN keeps dropping every 10 min since the update",
        no word of "why was the VPN dropping?"). One read a lead's conversation, only then."""
        leads = [m for m in shown[:LEADS_FOLLOWED] if m.session_id is not None]
        if not leads or not (asks_why(query) or asks_cause(query)) \
                or any(says_cause(m) or says_reason(m) for m in leads):
            return []
        spans: list[tuple[str, datetime, datetime]] = []
        for session in dict.fromkeys(m.session_id for m in leads):
            of = [m.said_at for m in leads if m.session_id == session]
            spans.append((session, min(of), max(of) + CAUSE_FOLLOWS_WITHIN))
        return self._memories_said_between(
            spans, _CAUSE_READ, shown,
            lambda m: any(cause_said_after(lead, m) for lead in leads))

    def _memories_said_between(self, spans: list[tuple[str, datetime, datetime]], read: int,
                               shown: list[Memory], wanted: Callable[[Memory], bool], *,
                               from_start: bool = False) -> list[Memory]:
        """The memories, not shown, that `wanted` accepts, drawn from the messages of each
        (conversation, start, end) span: said after its start (or from it) up to its end, the
        last `read` of each. What was said while an incident lasted, or soon after a lead."""
        said = [m.id for session, start, end in spans
                for m in self._store.messages_before(self.name, session, end, read)
                if m.ts > start or (from_start and m.ts == start)]
        if not said:
            return []
        seen = {m.id for m in shown}
        return [m for m in self._store.memories_by_source(self.name, said)
                if m.id not in seen and wanted(m)][:FOLLOWED_KEPT]

    def _changed_later(self, query: str, shown: list[Memory]) -> list[Memory]:
        """For "what's the status of the iOS release?", what changed the state of a lead since:
        "Pausing the phased rollout." after "Releasing to 10% phased rollout." shares no word
        of the question, so no channel found it, and the release was said to be going on. For
        "how long was the walk-in down?", what said it back ("Cooler is back up, holding 36F.",
        no walk-in). Found by the leads' words. One more search, only then."""
        leads = shown[:LEADS_FOLLOWED]
        lasted = asks_how_long(query)
        # (a question naming its ticket found what was said of it by its number)
        if not leads or identifiers(query) or not (lasted or asks_progress(query)):
            return []
        # (by each lead's first content words, not its whole text: a long message's every word
        # in one search is what this bounds; on the bench's short memories both timed the same)
        words = dict.fromkeys(w for m in leads
                              for w in keywords(dates.ANNOTATED.sub("", m.content), _LEAD_WORDS))
        found = self._store.search(self.name, SearchRequest(
            text=" ".join(words), k=FOLLOWED_SCAN, channels=(CH_MEMORY_TEXT,)))
        seen = {m.id for m in shown}
        hits = [hit.record for hit in found.get(CH_MEMORY_TEXT, [])
                if isinstance(hit.record, Memory) and hit.record.id not in seen]
        if lasted:
            return [m for m in hits if says_back(m.content)
                    and any(m.said_at > lead.said_at for lead in leads)][:FOLLOWED_KEPT]
        return changed_since(leads, hits, content_stems(query))[:FOLLOWED_KEPT]

    def _leads_messages(self, query: str, shown: list[Memory], messages: list[Message]
                        ) -> list[Message]:
        """For a question of a cause or how a thing stands, the messages the leads were drawn
        from that name a ticket the leads do not, after the recalled messages: "Looks like the
        export worker OOMs …" is of ESC-311 by its message's "Looking at ESC-311." (the
        answerer reads what a memory leans on there), and nothing else says so."""
        if not (asks_cause(query) or asks_how_it_stands(query)):
            return []
        have = {m.id for m in messages}
        bare = [m.source_message_ids[0] for m in shown[:LEADS_FOLLOWED] if m.source_message_ids
                and m.source_message_ids[0] not in have
                and not any(is_ticket(t) for t in identifiers(m.content))]
        return [m for m in self._store.get_messages(self.name, list(dict.fromkeys(bare)))
                if any(is_ticket(t) for t in identifiers(m.content))] if bare else []

    def _said_beside(self, query: str, shown: list[Memory]) -> list[Memory]:
        """For a when-question whose leads give no day, an ETA said in a lead's own message
        ("ESC-312 is Safari's ITP blocking our third-party cookie. Moving the auth callback to
        our own domain; ETA next Wednesday."): the message's text found the lead, and the ETA's
        memory shares no word of "when will the Safari SSO fix land?". For a question of a
        cause none of the leads states, the cause said in a lead's message ("DB CPU at 95%, a
        runaway analytics query from the reporting job. Killed it, latency recovering." for
        "what caused the checkout latency incident?"). For a why-question led by a bare verdict,
        what its message says beside it; led by no cause or reason, the cause or reason its
        message states; for "what happens if …?", a case it states; for a sum asked that no
        lead names, the sum its message says ("Compressor relay was bad, $420." beside "Cooler
        is back up", for "how much did the cooler repair cost?"). One more read, only then."""
        leads = shown[:LEADS_FOLLOWED]
        if not leads:
            return []
        if asks_when(query) and not any(m.event_dates for m in leads):
            wanted = says_eta
        elif asks_cause(query) and not any(says_cause(m) for m in leads):
            wanted = says_cause
        elif asks_why(query) and says_bare_verdict(leads[0]):
            # a verdict said alone: its reason is what its message says beside it ("Go/no-go:
            # NO-GO. QA-772 lets two 50% coupons stack to 100%."), no word of "why was it a
            # no-go?"
            leads, wanted = leads[:1], (lambda m: not says_bare_verdict(m))
        elif asks_why(query) and not any(says_cause(m) or says_reason(m) for m in leads):
            # "why did the AWS bill go up?": "Biggest jump is NAT gateway data transfer."; "why
            # did we lose Umbrella?": "Price was the main reason."
            wanted = lambda m: says_cause(m) or says_reason(m)
        elif asks_what_if(query) and not any(says_condition(m) for m in leads):
            # "what happens if I don't enroll?": "If you do nothing you keep your current
            # plan.", said after the enrollment's dates
            wanted = says_condition
        elif asks_replacement(query) and not says_replacement(leads[0]):
            # "what's replacing the halibut?": "Swapping in black cod." after "We're 86ing the
            # halibut on the new menu, price went up to $34/lb." in its message (the lead's
            # alone: "Hobart tech replaced the pump seal", below it, shares "replace" only)
            leads, wanted = leads[:1], says_replacement
        elif asks_cost(query) and not any(says_sum(m) for m in leads):
            # "how much did the cooler repair cost?": "Compressor relay was bad, $420." after
            # "Cooler is back up, holding 36F." in its message, which found the lead
            wanted = says_sum
        elif asks_identifier(query) and any(names_nothing(m) for m in leads):
            # a lead naming nothing is of what its message names beside it: "Ships with
            # Thursday's release." led "which PR fixed the export?", and "Fix for ZD-4410 in PR
            # #3301, paginates the PDF render.", its message's first sentence, ranked after
            # every other message's memories (one piece of evidence is one result)
            # (one naming a ticket, a PR or a version: LoCoMo's "It's important for our
            # community." brought "Can John tell Tim what spices John used in the soup?" to
            # an adversarial question, declines 0.722 -> 0.717)
            # (only for a question a ticket, PR or version answers: asked of all, it was one
            # more read a recall, and in the engine and shell tests it added only memories no
            # answer used: a crash rate to "when do admins need yubikeys?")
            leads, wanted = [m for m in leads if names_nothing(m)], \
                (lambda m: bool(identifiers(m.content)))
        else:
            return []
        return self._beside_in_messages(leads, {m.id for m in shown}, wanted)[:FOLLOWED_KEPT]

    def _beside_in_messages(self, leads: list[Memory], seen: set[str],
                            wanted: Callable[[Memory], bool]) -> list[Memory]:
        """The memories drawn first from the messages `leads` were first drawn from, not in
        `seen`, that `wanted` accepts: what a message says beside the sentence that was found
        (one read of the store)."""
        sources = list(dict.fromkeys(m.source_message_ids[0] for m in leads
                                     if m.source_message_ids))
        return [m for m in self._store.memories_by_source(self.name, sources)
                if m.id not in seen and m.source_message_ids[:1]
                and m.source_message_ids[0] in sources and wanted(m)]

    def _work(self, now: datetime
              ) -> tuple[list[open_tasks.OpenWork], Callable[[Memory], set[str]]]:
        """The commitments among the profile's newest memories, each with what followed it
        (memory.open_tasks), and who said each memory."""
        newest = [m for m in self._store.list_memories(self.name, limit=open_tasks.RECENT,
                                                        newest_first=True)
                  if now - open_tasks.WINDOW <= m.said_at <= now]
        speakers = speakers_of(newest, lambda memory: self)
        stems: dict[str, set[str]] = {}

        def own_names(memory: Memory) -> set[str]:
            # the speaker's own name is no work in common ("lena fixed the cache warmup" is not
            # lena's flaky test); someone else's is ("pairing with priya on the SSO bug")
            who = " ".join(sorted(speakers(memory)))
            if who not in stems:
                stems[who] = content_stems(name_letters(who).lower()) if who else set()
            return stems[who]

        return open_tasks.open_work(newest, now, own_names), speakers

    def _blocked_thing(self, query: str) -> bool:
        """Whether "what's blocking …?" names a thing, not a person: "what's blocking #530?"
        and "what is blocking the migration?" are answered from what was said of it ("#530 on
        hold until the platform team moves the base image"), not from the standups' blockers
        ("Nobody has said they are blocked" was the answer)."""
        if identifiers(query):
            return True
        if open_tasks.blocked_whom(plain_names(query)):  # "is tom blocked?" asks of tom
            return False
        # a word of work, not a name: "migration" (a standup bot's posts name people who write
        # nothing here: "Blockers (tom's Daily Standup)")
        rest = {w for w in re.findall(r"[a-z]+", _BLOCKED_ASKED.sub(" ", query).lower())
                if len(w) > 2 and english_word(w)}
        return bool(rest - self._people())

    def _people(self) -> set[str]:
        """The lower-case name words of the profile's authors."""
        return {w for author in self._store.authors(self.name) for w in name_words(author)}

    def _working(self, query: str, now: datetime) -> tuple[str | None, list[Memory]] | None:
        """"what is omar working on?": the work still open that is theirs, when any is."""
        if not asks_at_work(query):  # "what did zoe say?" reads the authors once, not twice
            return None
        whose = whose_words_asked(query, self._people)
        person = at_work(plain_names(query), whose) if whose else set()
        work, speakers = self._work(now)
        if not person:
            # or someone work was put to ("@maya to write the caching RFC" in bob's notes:
            # "maya", an English word too, was no name of an author)
            whose = whose_words_asked(query, lambda: open_tasks.assignees(work))
            person = at_work(plain_names(query), whose) if whose else set()
        if not person:
            return None
        mine = open_tasks.work_of(work, person, speakers)
        answer = open_tasks.person_answer(sorted(person)[0], mine, speakers,
                                          owed=asks_owed(query))
        if answer is None:
            return None
        answer = without_platform_ids(answer, self._store.authors(self.name))
        still, done = open_tasks.shown(mine)
        return answer, [m for w in still for m in [w.commitment, *w.latest[-1:]]] + \
            [m for w in done[:1] for m in (w.commitment, w.closed_by)]

    def _asked_work(self, query: str, now: datetime
                    ) -> tuple[list[open_tasks.OpenWork], Callable[[Memory], set[str]]]:
        """The work "what tasks are still open?" is about, or for "who is blocked?" the blocked
        work (of whom the question names, if anyone), and who said each memory of it."""
        work, speakers = self._work(now)
        if open_tasks.asks_blocked(query):
            work = open_tasks.blocked_work(work)
            named = asked_names(plain_names(query), self._people)  # "what is blocking priya?"
            whom = open_tasks.blocked_whom(plain_names(query))  # "is tom blocked?"
            named = named or ({whom} if whom else set())
            if named:
                work = open_tasks.work_of(work, named, speakers)
        return work, speakers

    def _open_work(self, query: str, now: datetime) -> RecallResult:
        """"What tasks are still open?": the commitments no later memory says are done, each
        cited with what followed it; "who is blocked?": those that are blockers."""
        return open_work_result(query, now, *self._asked_work(query, now),
                                self._store.authors(self.name))

    def search(self, query: str, channels: Iterable[str] = CHANNELS, k: int | None = None,
               weights: dict[str, float] | None = None, asker: str | None = None,
               addressee: str | None = None) -> list[Fused]:
        """The fused ranking of memories and raw messages, best first, without an answer."""
        return fuse(self.channel_hits(query, channels, k, asker=asker, addressee=addressee),
                    weights or DEFAULT_WEIGHTS)

    def channel_hits(self, query: str, channels: Iterable[str] = CHANNELS, k: int | None = None,
                     asker: str | None = None, addressee: str | None = None,
                     now: datetime | None = None) -> dict[str, list[Hit]]:
        """Each retrieval channel's hits before fusion (what `search` fuses; the eval keeps them
        to replay the fusion with other settings, memory/eval/replay.py). `now`: the time a
        question's "last Friday" is counted from (the date channel)."""
        if not isinstance(query, str) or not query.strip():
            raise InvalidMessage("search needs a non-empty query")
        query = clean_text(query.strip())
        return self._channel_hits(query, tuple(channels), k or self.service.settings.recall_k,
                                  asker=asker, addressee=addressee,
                                  span=asked_span(query, now or utcnow()), now=now or utcnow())

    def _retrieve(self, query: str, channels: tuple[str, ...], k: int,
                  weights: dict[str, float] | None,
                  timings: dict[str, float] | None = None,
                  asker: str | None = None, addressee: str | None = None,
                  now: datetime | None = None) -> list[Fused]:
        """The fused ranking; given `now`, a question that names a span of time ("what happened
        last Friday?") also searches the messages said then, and the records of the span come
        first (memory.time_scope)."""
        span = asked_span(query, now) if now is not None else None
        fused = fuse(self._channel_hits(query, channels, k, timings, asker, addressee, span,
                                        now),
                     weights or DEFAULT_WEIGHTS)
        return in_span_first(fused, span, fused_record)

    def _channel_hits(self, query: str, channels: tuple[str, ...], k: int,
                      timings: dict[str, float] | None = None, asker: str | None = None,
                      addressee: str | None = None, span: dates.ResolvedDate | None = None,
                      now: datetime | None = None) -> dict[str, list[Hit]]:
        embedder = self.service.embedder
        askers = self._whose_words(query, asker, addressee)
        if not askers:
            channels = tuple(c for c in channels if c not in ASKER_CHANNELS)
        if "hyde" in channels and len(channels) > 1 \
                and not self.service.answerer.writes_hypotheses:
            channels = tuple(c for c in channels if c != "hyde")
        wants_query_vec = any(c in channels for c in (CH_VECTOR, CH_PASSAGE_VECTOR,
                                                      CH_ASKER_VECTOR, CH_INSTRUCTION))
        wants_hyde = "hyde" in channels
        texts = ([query] if wants_query_vec else []) + (
            [self.service.answerer.hypothesize(query)] if wants_hyde else [])
        if len(texts) == 2 and texts[0] == texts[1]:
            texts = texts[:1]  # the hypothesis is the question: one embedding serves both

        def pick(vectors: np.ndarray) -> tuple[np.ndarray | None, np.ndarray | None]:
            return (vectors[0] if wants_query_vec else None,
                    vectors[-1] if wants_hyde else None)

        if span is None:
            channels = tuple(c for c in channels if c != CH_DATE)
        request = SearchRequest(
            text=expand_query(query),  # "prod" finds "production" too (memory.text)
            topic_keys=query_topic_keys(query) if "topic" in channels else [],
            k=k, channels=channels, askers=askers,
            span=(span.start, span.end) if span is not None else None,
            dated=span is not None and now is not None and span.end >= now.date())
        if texts and self._store.text_while_embedding:
            # The store runs its text channels while another thread embeds the question.
            embedding = self.service.embedding_pool().submit(embedder.embed, texts)
            request.vectors_pending = lambda: pick(embedding.result())
        elif texts:
            request.query_vector, request.hyde_vector = pick(embedder.embed(texts))
        found = self._store.search(self.name, request)
        if timings is not None:
            timings.update(request.timings)
        return found

    def _whose_words(self, query: str, asker: str | None, addressee: str | None
                     ) -> tuple[str, ...]:
        """The authors whose own messages the asker channels search: the addressee's for a
        question asking what "you" said (BEAM dev: "How did you recommend …?" finds the
        recommendation, not the asker's own questions about it), else the asker's for a question
        in the first person; none otherwise."""
        asker, addressee = _author(asker), _author(addressee)
        if addressee and asks_what_you_said(query):
            return self._askers(addressee)
        if asker and asks_about_self(query):
            return self._askers(asker)
        return self._named_authors(query)

    def _named_authors(self, query: str) -> tuple[str, ...]:
        """For "what did zoe say?" or "what is kofi working on?" (a person's words or work and
        nothing else), every stored author of that name: their messages hold no word of the
        question, so only the asker channels over them find what they said. A question with a
        subject ("what did zoe say about the rate limit?") runs none (LoCoMo dev: those channels
        for "What did Melanie …?" cost adversarial declines, README: Evaluation)."""
        fetched: list[set[str]] = []  # the profile's authors, read once and only if needed

        def authors() -> set[str]:
            if not fetched:
                fetched.append(self._store.authors(self.name))
            return fetched[0]

        whose = whose_words_asked(query, lambda: {w for a in authors() for w in name_words(a)})
        return tuple(sorted(a for a in authors() if name_words(a) & whose)) if whose else ()

    def _askers(self, asker: str) -> tuple[str, ...]:
        """Every author the asker has written under here: their stored `name (id)`, and the
        older names of the same platform id (a renamed user's earlier messages are theirs too)."""
        ident = platform_id(asker)
        renamed = self._store.authors_with_platform_id(self.name, ident) if ident else set()
        return tuple(sorted({asker} | {a for a in renamed if same_person(a, asker)}))

    def _details_replaced(self, wanted: set[str], memories: list[Fused]) -> list[Fused]:
        """Beside the first memories, the version each replaced when it says words of the
        question the new one does not: "webinar moved to Dec 17, same time" replaced "Webinar on
        Dec 10 at 11am ET, 340 signups so far, budget $5k" (a move supersedes what it moves), and
        "how many signups for the webinar?" found the move alone. The answer reads the old one as
        what the change replaced (memory.updates)."""
        # (a move only: what a switch replaced no longer holds, "Use pnpm for the dashboard
        # repo" after "Switch to yarn …"; what a move moved still holds but for its date)
        leads = [f for f in memories[:LEADS_FOLLOWED] if f.record.supersedes
                 and _MOVES.search(f.record.content)]
        if not leads or not wanted:
            return memories
        old = {m.id: m for m in self._store.get_memories(
            self.name, [f.record.supersedes for f in leads]) if m.status == "superseded"}
        shown = {f.record.id for f in memories}
        out = list(memories)
        for f in leads:
            before = old.get(f.record.supersedes)
            # (or it says the rest stands as before: "maintenance moved to Dec 9, same hours"
            # for "what time does maintenance start?")
            # (or a version the question asks and only the old one names: "k8s upgrade to 1.31
            # on staging went fine, prod planned for Dec 9", moved by "prod k8s upgrade pushed
            # to Dec 16", for "what version are we upgrading k8s to?")
            if before is None or before.id in shown or not (
                    wanted & content_stems(_memory_text(before))
                    - content_stems(_memory_text(f.record))
                    or _SAME_AS_BEFORE.search(f.record.content)
                    or wanted & _VERSION_STEMS and VERSIONED.search(before.content)
                    and not VERSIONED.search(f.record.content)):
                continue
            out.insert(out.index(f) + 1, Fused(record=before, score=f.score,
                                               channels=["replaced"]))
        return out

    def _as_they_stood(self, memories: list[Fused], span: dates.ResolvedDate | None
                       ) -> list[Fused]:
        """For a question about a past span, beside each memory said after it that replaced an
        older version, the version that stood then: "how many signups did we get last week?"
        after this week's "Weekly numbers: … signups 1,020" replaced last week's "… signups
        910" (a topic key's new value supersedes the old, which leaves the memory channels) was
        declined; "what was DAU two weeks ago?" too. A forgotten version is never shown; the
        walk goes past it to the one before."""
        if span is None:
            return memories
        after = [f for f in memories if f.record.supersedes
                 and f.record.said_at.date() > span.end]
        stood: dict[str, Memory] = {}  # the shown memory's id -> the version that stood then
        looking = {f.record.supersedes: f.record.id for f in after}
        for _ in range(_VERSIONS_WALKED):
            if not looking:
                break
            found = {m.id: m for m in self._store.get_memories(self.name, list(looking))}
            nxt = {}
            for old_id, shown in looking.items():
                old = found.get(old_id)
                if old is None:
                    continue
                if old.said_at.date() > span.end or old.status == "forgotten":
                    if old.supersedes:
                        nxt[old.supersedes] = shown
                elif old.status == "superseded":
                    stood[shown] = old
            looking = nxt
        if not stood:
            return memories
        present = {f.record.id for f in memories}
        out: list[Fused] = []
        for f in memories:
            old = stood.get(f.record.id)
            if old is not None and old.id not in present:
                out.append(Fused(record=old, score=f.score, channels=[*f.channels, "as_it_stood"]))
                present.add(old.id)
            out.append(f)
        return out

    def _previous_versions(self, memories: list[Memory], depth: int = 1) -> dict[str, Memory]:
        """The versions the given memories replaced, by id: an answer says what changed (and,
        `depth` levels back, how a value went: "how has DAU trended?"). A forgotten version is
        none ("where is the offsite?" quoted a forgotten "Offsite is confirmed: Lisbon" as what
        stood before the move)."""
        found: dict[str, Memory] = {}
        ids = [m.supersedes for m in memories if m.supersedes]
        for _ in range(depth):
            if not ids:
                break
            level = [m for m in self._store.get_memories(self.name, ids)
                     if m.status == "superseded" and m.id not in found]
            found.update((m.id, m) for m in level)
            ids = [m.supersedes for m in level if m.supersedes and m.supersedes not in found]
        return found

    def _event_date(self, phrase: str, channels, k: int, weights, now: datetime
                    ) -> date_questions.Dated:
        """The event date of what `phrase` names ("the launch review"): the best-ranked memory
        that is about it (shares most of its words) and has an event date; the date it was said is
        never used as the event's. Undated when only undated memories are about it."""
        wanted = content_stems(phrase)
        about = [f.record for f in self._retrieve(phrase, channels, k, weights)
                 if isinstance(f.record, Memory) and wanted
                 and len(wanted & content_stems(_memory_text(f.record))) * 2 >= len(wanted)]
        ranged = None  # "lands mid-December": a span of days, when no memory gives one day
        for memory in about:
            best = event_date(memory, phrase)
            if best is not None and best.granularity != "day" and ranged is None:
                ranged = best
            if best is not None and best.granularity == "day":
                # "how many days until the code freeze?" after "the code freeze is pushed a
                # week": from the date it moved to (memory.moves), not the one first said
                change = update_of(memory, about, phrase, wanted, content_stems)
                moved = after_change(change.content, change.said_at, best,
                                     says_update(change.content)) if change is not None else None
                if moved is not None:  # a day, or a span ("pushed the renewal to January")
                    said = dates.format_human(change.said_at.date())
                    return date_questions.Dated(f"{phrase}, moved on {said}", moved)
                return date_questions.Dated(phrase, best)
        if ranged is not None:
            return date_questions.Dated(phrase, ranged)
        mentioned = about[0].event_time.date() if about and about[0].event_time else None
        return date_questions.Dated(phrase, None, mentioned)

    # --- forget / list --------------------------------------------------------------------
    def forget(self, memory_id: str, reason: str, now: datetime | None = None) -> Memory:
        """Forget a memory: it leaves recall and the vector index, keeps its reason in the audit
        history, and the messages it was drawn from are suppressed (see Store.suppress_messages):
        neither the memory nor its source text can reach an answer again. Other memories drawn
        from the same messages stay (they are separate statements; forget them by name), but
        those that quote it (memory.text.quotes) are forgotten with it."""
        if not isinstance(reason, str) or not reason.strip():
            raise InvalidMessage("forget needs a reason (it is kept in the audit history)")
        found = self._store.get_memories(self.name, [memory_id])
        if not found and _SHOWN_ID.fullmatch(memory_id):  # the id as answers show it
            ids = self._store.memory_ids_by_prefix(self.name, memory_id.lower())
            if len(ids) > 1:
                raise InvalidMessage(f"more than one memory's id starts with {memory_id!r}: "
                                     f"give more of it")
            found = self._store.get_memories(self.name, ids)
        if not found:
            raise UnknownMemory(self.name, memory_id)
        memory = found[0]
        # A memory of the same messages that quotes it repeats it: "Correction: actually it's 50
        # MB … (to priya's "FYI the max upload size on the API is 25 MB.")" went on saying the
        # forgotten 25 MB. It goes too, for the same reason; other statements of those messages
        # stay.
        sharing = [m for m in self._store.memories_by_source(self.name, memory.source_message_ids)
                   if m.id != memory.id]
        quoting = [m for m in sharing if quotes(m.content, memory.content)]
        # One that holds it among the questions it answers (a thread's reply its thread's
        # subject, a decision the discussion it closed: memory.offline_extractor, found by its
        # words) keeps the statement and loses those words, which are searched and embedded
        # with it ("Bob is leaving in January, keep it quiet" forgotten, the reply under it
        # went on exporting it)
        scrubbed = [m.model_copy(update={"questions": kept})
                    for m in self._holding(memory.content, sharing)
                    if m.id != memory.id and m not in quoting
                    and (kept := [q for q in m.questions if not (
                        quotes(q, memory.content) or quotes(memory.content, q))]) != m.questions]
        at = now or utcnow()
        for gone in [memory, *quoting]:
            gone.status, gone.forgotten_reason = "forgotten", reason.strip()
            gone.forgotten_at = at
        self._store.upsert_memories(self.name, [memory, *quoting, *scrubbed])
        self._store.delete_vectors(self.name, [memory.id, *(m.id for m in quoting)])
        self._index_vectors(scrubbed)
        # The text it was drawn from goes too: the raw messages stay for audit, suppressed, out
        # of the message_text channel, the answerer's context, answer sources and the export.
        self._store.suppress_messages(self.name, memory.source_message_ids)
        return memory

    def _holding(self, text: str, also: Iterable[Memory] = ()) -> list[Memory]:
        """The active memories `also` and those a full-text search finds by `text`'s words (its
        questions are searched with a memory): where its sentences may be among the questions
        a memory answers."""
        found = self._store.search(self.name, SearchRequest(
            text=text, k=HOLDING_SCAN, channels=(CH_MEMORY_TEXT,))).get(CH_MEMORY_TEXT, [])
        memories = {m.id: m for m in also if m.status == "active"}
        for hit in found:
            if isinstance(hit.record, Memory) and hit.record.status == "active":
                memories.setdefault(hit.record.id, hit.record)
        return list(memories.values())

    def list(self, types: Iterable[str] | None = None, include_inactive: bool = False,
             limit: int | None = None, offset: int = 0) -> list[Memory]:
        return self._store.list_memories(self.name, types, include_inactive, limit, offset)

    # --- export / import ------------------------------------------------------------------
    def export(self, audit: bool = False) -> Iterator[str]:
        """The profile as JSONL: a header, then messages, then memories (all statuses, so version
        chains and the forget history survive). What was forgotten is not in it: suppressed
        messages are left out, and a forgotten memory is a tombstone (id, type, status, reason,
        dates of the record, version links; content `[forgotten]`, no questions, dates, topic or
        sources). The audit export (`audit=True`, for admins) holds everything, suppressed
        messages flagged as such, so importing it restores the suppression. Vectors are derived
        and rebuilt on import."""
        yield json.dumps({"kind": "header", "format": EXPORT_FORMAT, "version": EXPORT_VERSION,
                          "profile": self.name, "audit": audit})
        for message in self._store.iter_messages(self.name):
            if audit or not message.suppressed:
                yield json.dumps({"kind": "message", **message.model_dump(mode="json")})
        for memory in self._store.list_memories(self.name, include_inactive=True):
            if not audit:
                memory = forgotten_tombstone(memory)
            yield json.dumps({"kind": "memory", **memory.model_dump(mode="json")})

    def import_lines(self, lines: Iterable[str], source: str = "<input>",
                     replace: bool = False) -> dict[str, int]:
        """Validate every line first; on any problem raise InputFormatError and write nothing."""
        messages: list[Message] = []
        memories: list[Memory] = []
        problems: list[tuple[int, str]] = []
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
                kind = record.pop("kind", None) if isinstance(record, dict) else None
                if kind == "message":
                    messages.append(Message.model_validate(record))
                elif kind == "memory":
                    memories.append(Memory.model_validate(record))
                elif kind == "header":
                    if record.get("format") != EXPORT_FORMAT:
                        problems.append((number, f"not a {EXPORT_FORMAT} header"))
                else:
                    problems.append((number, "expected an object with kind header/message/memory"))
            except json.JSONDecodeError as exc:
                problems.append((number, f"invalid JSON ({exc.msg})"))
            except ValidationError as exc:
                first = exc.errors()[0]
                problems.append((number, f"{'.'.join(map(str, first['loc']))}: {first['msg']}"))
        if problems:
            raise InputFormatError(source, problems)
        if replace:
            self._store.delete_profile(self.name)
        created = self._store.insert_messages(self.name, messages)
        self._store.upsert_memories(self.name, memories)
        self._index_vectors([m for m in memories if m.embeddable])
        self._index_passages([m for m in messages if m.id in created], vectorize=True)
        # an export written under older redaction rules brings what they let through: today's
        # rules apply to it as they do to what is ingested
        scrubbed = self._scrub([m for m in messages if m.id in created], [m.id for m in memories],
                               utcnow())
        return {"messages": len(created), "memories": len(memories),
                "redacted": scrubbed.messages_redacted + scrubbed.memories_redacted}

    # --- data deletion --------------------------------------------------------------------
    PURGED = "[purged]"
    DELETED = "[deleted]"

    @staticmethod
    def author_matches(stored: str | None, author: str) -> bool:
        """`author` names the stored author exactly, or is the platform id of the `name (id)` form
        chat adapters store (`U01` matches `maya (U01)`), so every name the user had is caught."""
        return bool(stored) and (stored == author or stored.endswith(f" ({author})"))

    def purge_author(self, author: str, now: datetime | None = None) -> PurgeResult:
        """A data deletion request: remove every raw message written by `author` (see
        author_matches) and erase the memories drawn only from them, in any status, including the
        older versions left by edits of those messages. An erased memory keeps its id and version
        links as a tombstone (status forgotten, reason "purged"); its content, questions, dates,
        topic key and sources are blanked and its vector removed. A memory also drawn from other
        people's messages keeps those sources only, unless it carries a sentence of theirs (then
        it is erased too). Idempotent."""
        if not isinstance(author, str) or not author.strip():
            raise InvalidMessage("purge needs the author's name or platform user id")
        author = author.strip()
        store = self._store
        mine = [m for m in store.iter_messages(self.name) if self.author_matches(m.author, author)]
        ids = [m.id for m in mine]
        result = PurgeResult(author=author, messages_deleted=0, message_ids=ids)
        changed, erased = self._erase_drawn_from(
            {i for m in mine for i in (m.id, *m.replaces)}, self.PURGED,
            "purged (data deletion request)", now or utcnow(), legacy_versions=True,
            said=[m.content for m in mine])
        result.memories_updated = len(changed) - len(erased)
        result.memories_erased = len(erased)
        result.messages_deleted = len(store.delete_messages(self.name, ids))
        return result

    # --- lookups for chat adapters and workers --------------------------------------------
    def messages(self, ids: Iterable[str]) -> list[Message]:
        """The stored messages among `ids` (unknown ones are left out), in no particular order."""
        return self._store.get_messages(self.name, ids)

    def messages_by_external_id(self, external_ids: Iterable[str]) -> dict[str, Message]:
        """{platform id: the stored message carrying it (the newest if several)}; platform ids
        not stored are left out."""
        return self._store.find_messages_by_external_id(self.name, external_ids)

    def known_external_ids(self, external_ids: Iterable[str]) -> set[str]:
        """The platform ids among these that are stored already (what a backfill skips)."""
        ids = list(dict.fromkeys(external_ids))
        found: set[str] = set()
        for start in range(0, len(ids), 1000):
            found |= set(self._store.find_messages_by_external_id(self.name,
                                                                  ids[start:start + 1000]))
        return found

    def memories_by_id_prefix(self, prefix: str) -> list[Memory]:
        """The active memories whose id starts with `prefix` (a whole id is looked up at once;
        of a shorter one, at most two are read: enough to say it is ambiguous)."""
        if len(prefix) == 32:
            ids = [prefix]
        else:
            ids = self._store.memory_ids_by_prefix(self.name, prefix, limit=_PREFIX_READ)
        return [m for m in self._store.get_memories(self.name, ids) if m.status == "active"]

    def unindexed_memories(self, message_ids: Iterable[str]) -> list[str]:
        """The pending_vector_ids an interrupted earlier delivery of these messages may have left
        unembedded: the ids of the active, embeddable memories drawn from them, then a
        `passages:<message id>` entry for each stored message (embedding either again is
        harmless: index_vectors is idempotent)."""
        message_ids = list(dict.fromkeys(message_ids))
        memories = [m.id for m in self._store.memories_by_source(self.name, message_ids)
                    if m.embeddable]
        stored = [m.id for m in self._store.get_messages(self.name, message_ids)
                  if not m.suppressed]
        return memories + [PENDING_PASSAGES + i for i in stored]
