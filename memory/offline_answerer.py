"""The offline answerer: extractive, no model. It answers with the best-matching memories (and a raw
message when no memory fits), their dates, and the dates computed in code; when nothing retrieved
shares a content word with the question it says so instead of guessing."""
from __future__ import annotations

import re
from datetime import datetime

import snowballstemmer

from .dates import format_human
from .models import ComputedDate, Memory, Message
from .synthesis import NO_ANSWER, Answerer

_STEMMER = snowballstemmer.stemmer("english")
_QUESTION_WORDS = {"what", "when", "where", "who", "whom", "whose", "which", "why", "how", "did",
                   "does", "do", "is", "are", "was", "were", "has", "have", "had", "can", "could",
                   "should", "would", "will", "we", "i", "you", "the", "a", "an", "of", "to", "in",
                   "on", "at", "for", "about", "and", "or", "our", "my", "your", "it", "that",
                   "this", "with", "from", "by", "as", "be", "been", "decide", "decided", "say",
                   "said", "tell", "me", "us", "know", "any", "there", "ago", "last", "many", "much",
                   "long", "days", "weeks", "months", "years", "day", "week", "month", "year"}
_LEADING = re.compile(r"^(what|when|where|who|which|why|how)( \w+)?\s+(is|are|was|were|did|do|does|"
                      r"has|have|had|will|would|can|could|should)?\s*", re.IGNORECASE)


def content_stems(text: str) -> set[str]:
    words = [w for w in re.findall(r"[a-z0-9]+", text.lower()) if w not in _QUESTION_WORDS]
    return set(_STEMMER.stemWords(words))


def _memory_stems(memory: Memory) -> set[str]:
    """What a memory is about: its content, topic key and the questions it answers."""
    return content_stems(" ".join([memory.content, memory.topic_key or "", *memory.questions]))


def _dated(memory: Memory) -> str:
    when = memory.event_time or memory.created_at
    return f"{memory.content} ({format_human(when.date())})"


class OfflineAnswerer(Answerer):
    name = "offline-extractive-v1"
    max_memories = 2

    def hypothesize(self, question: str) -> str:
        # "When did we ship the API?" -> "we ship the API": the statement an answer would contain.
        statement = _LEADING.sub("", question.strip()).rstrip("?").strip()
        return statement or question

    def answer(self, question: str, now: datetime, memories: list[Memory],
               messages: list[Message], computed: list[ComputedDate]) -> str:
        wanted = content_stems(question)
        relevant = [m for m in memories if wanted & _memory_stems(m)]
        parts: list[str] = []
        if relevant:
            parts += [_dated(m) for m in relevant[: self.max_memories]]
        else:
            hit = next((m for m in messages if wanted & content_stems(m.content)), None)
            if hit is not None:
                parts.append(f"{hit.author or hit.role} said: \"{hit.content}\" "
                             f"({format_human(hit.ts.date())})")
        if computed:
            parts += [f"{c.expression} = {c.value}" + (f" ({c.detail})" if c.detail else "")
                      for c in computed]
        if not relevant and not parts:
            return NO_ANSWER
        if not relevant and computed and len(parts) == len(computed):
            # Date facts alone answer "what is the date 3 weeks ago" but not "what did we do then".
            return "Computed: " + "; ".join(parts) + ". " + NO_ANSWER
        return " ".join(p if p.endswith((".", "!", ")")) else p + "." for p in parts)
