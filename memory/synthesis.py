"""The answer interface: recall's retrieved context in, a short answer out.

`OfflineAnswerer` (extractive, the default) lives in memory.offline_answerer; `AnthropicAnswerer` in
memory.llm.answerer. Both also write the hypothetical answer used by the HyDE retrieval channel.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from datetime import datetime

from .models import ComputedDate, Memory, Message

# Said when retrieval found nothing relevant: never guess.
NO_ANSWER = "I don't have anything about that in memory."


class Answerer(ABC):
    name: str = "answerer"
    #: Whether `hypothesize` writes a real answer-shaped sentence (a model) or only reshapes the
    #: question; in the latter case the HyDE channel repeats the query vector and recall skips it.
    writes_hypotheses: bool = True

    @abstractmethod
    def answer(
        self,
        question: str,
        now: datetime,
        memories: list[Memory],
        messages: list[Message],
        computed: list[ComputedDate],
        previous: dict[str, Memory] | None = None,
        speakers: Callable[[Memory], set[str]] | None = None,
        asker: str | None = None,
        addressee: str | None = None,
    ) -> str:
        """A short answer grounded only in the given memories/messages and computed dates, or
        NO_ANSWER when they do not cover the question. `previous` holds, by id, the versions
        that memories in `memories` replaced (their `supersedes`), so the answer can say what
        changed; `speakers(memory)` names who said the message a memory was drawn from (looked
        up in the store on first use); `asker`: who asks, as their messages' author ("I" in the
        question is them); `addressee`: who the question is put to ("you")."""

    @abstractmethod
    def hypothesize(self, question: str) -> str:
        """A plausible answer-shaped sentence for the question (HyDE); it is only embedded."""
