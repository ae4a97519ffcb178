"""The extraction interface: a transcript in, classified memory candidates out.

Two implementations: `memory.offline_extractor.OfflineExtractor` (deterministic rules, the default)
and `memory.llm.extractor.AnthropicExtractor` (when ANTHROPIC_API_KEY is set). Relative dates are
already resolved in code before either sees the transcript (see `memory.dates`): the transcript text
carries annotations like "yesterday [2023-05-07]", so no model does date math.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from datetime import datetime

from pydantic import BaseModel, Field

from .models import MemoryType
from .people import display_name


class TranscriptLine(BaseModel):
    index: int  # line index in the conversation: provenance
    message_id: str
    role: str
    author: str | None = None
    ts: datetime
    content: str  # with relative dates annotated
    # The index of the line this one answers (its thread parent / the message it replies to),
    # when that message is known; it may be far above, or a `context` line.
    reply_to: int | None = None
    # Said earlier, outside this conversation batch (a reply's parent): read for context only,
    # never a memory of its own (it gave its memories when it was ingested).
    context: bool = False
    # A context line that is the channel's message just before this batch (stored earlier): what
    # a short reply at the batch's start answers ("on it" under "can someone review #901?")
    before: bool = False

    @property
    def speaker(self) -> str:
        """The author's name without a platform id ("maya (U01)" -> "maya"): memories and
        answers name people, never ids."""
        return display_name(self.author) or self.role

    def render(self) -> str:
        note = " (earlier, for context)" if self.context else \
            (f" (in reply to [{self.reply_to}])" if self.reply_to is not None else "")
        return f"[{self.index}] {self.ts:%Y-%m-%d %H:%M} {self.speaker}{note}: {self.content}"


class Candidate(BaseModel):
    """One memory an extractor proposes."""

    type: MemoryType
    content: str  # self-contained: names instead of pronouns, absolute dates
    topic_key: str | None = None  # for facts and instructions; normalised by memory.topics
    questions: list[str] = Field(default_factory=list)  # 3-5 search questions it answers
    source_lines: list[int] = Field(default_factory=list)  # TranscriptLine.index values
    dates: list[str] = Field(default_factory=list)  # ISO dates the memory is about


class Extractor(ABC):
    name: str = "extractor"

    @abstractmethod
    def extract(self, lines: list[TranscriptLine]) -> list[Candidate]:
        """Candidates drawn from the transcript; each cites the lines it came from."""


# --- shared by extractors that read the transcript in pieces ---------------------------------
CHUNK_CHARS = 10_000  # ~2.5K tokens of transcript per extraction call
CHUNK_OVERLAP = 2  # messages repeated at the start of the next chunk, so a reply keeps its context
DETAIL_PASS_MIN_MESSAGES = 9  # conversations this long also get the concrete-values pass


def chunk_transcript(lines: list[TranscriptLine], max_chars: int = CHUNK_CHARS,
                     overlap: int = CHUNK_OVERLAP) -> list[list[TranscriptLine]]:
    """Consecutive chunks of at most `max_chars` rendered characters (a single longer line is a
    chunk of its own), each starting with the last `overlap` lines of the previous one."""
    chunks: list[list[TranscriptLine]] = []
    current: list[TranscriptLine] = []
    size = 0
    fresh = 0  # lines in `current` not carried over from the previous chunk
    for line in lines:
        length = len(line.render()) + 1
        if fresh and size + length > max_chars:
            chunks.append(current)
            current = current[-overlap:] if overlap else []
            size = sum(len(c.render()) + 1 for c in current)
            fresh = 0
        current.append(line)
        size += length
        fresh += 1
    if fresh:
        chunks.append(current)
    return chunks


def _candidate_key(c: Candidate) -> tuple[str, str]:
    return c.type, " ".join(c.content.lower().split()).rstrip(".")


def merge_candidates(batches: list[list[Candidate]]) -> list[Candidate]:
    """One list from several passes/chunks: the same memory proposed twice (same type and text,
    e.g. from an overlap) is kept once, with the union of its source lines, questions and dates."""
    merged: dict[tuple[str, str], Candidate] = {}
    for batch in batches:
        for c in batch:
            key = _candidate_key(c)
            seen = merged.get(key)
            if seen is None:
                merged[key] = c.model_copy(deep=True)
                continue
            seen.source_lines = sorted(set(seen.source_lines) | set(c.source_lines))
            seen.questions = list(dict.fromkeys([*seen.questions, *c.questions]))[:5]
            seen.dates = list(dict.fromkeys([*seen.dates, *c.dates]))
            seen.topic_key = seen.topic_key or c.topic_key
    return list(merged.values())
