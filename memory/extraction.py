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


class TranscriptLine(BaseModel):
    index: int  # line index in the conversation: provenance
    message_id: str
    role: str
    author: str | None = None
    ts: datetime
    content: str  # with relative dates annotated

    @property
    def speaker(self) -> str:
        return self.author or self.role

    def render(self) -> str:
        return f"[{self.index}] {self.ts:%Y-%m-%d %H:%M} {self.speaker}: {self.content}"


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
