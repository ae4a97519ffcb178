"""The offline answerer: extractive, no model. It answers with the best-matching memories (and a raw
message when no memory fits), their dates, and the dates computed in code; when nothing retrieved
shares a content word with the question it says so instead of guessing.

Two rules keep it from answering the wrong question:
- A question that names someone or something ("What did Priya decide...", "...the Grafana move")
  is only answered from records that name them too: another person's memory on the same subject is
  not an answer, and saying so beats quoting it.
- A "when" question leads with the date resolved at ingest ("yesterday" in a message of 8 May is
  7 May), never a date worked out here from the wording."""
from __future__ import annotations

import re
from datetime import datetime

from .dates import MONTH_NAMES, WEEKDAYS, format_human
from .models import ComputedDate, Memory, Message
from .synthesis import NO_ANSWER, Answerer
from .text import stem_words

_QUESTION_WORDS = {"what", "when", "where", "who", "whom", "whose", "which", "why", "how", "did",
                   "does", "do", "is", "are", "was", "were", "has", "have", "had", "can", "could",
                   "should", "would", "will", "we", "i", "you", "the", "a", "an", "of", "to", "in",
                   "on", "at", "for", "about", "and", "or", "our", "my", "your", "it", "that",
                   "this", "with", "from", "by", "as", "be", "been", "decide", "decided", "say",
                   "said", "tell", "me", "us", "know", "any", "there", "ago", "last", "many", "much",
                   "long", "days", "weeks", "months", "years", "day", "week", "month", "year"}
_LEADING = re.compile(r"^(what|when|where|who|which|why|how)( \w+)?\s+(is|are|was|were|did|do|does|"
                      r"has|have|had|will|would|can|could|should)?\s*", re.IGNORECASE)


_NAME = re.compile(r"\b[A-Z][a-z]+(?:[A-Z][a-z]+)*\b")
_NOT_NAMES = {*_QUESTION_WORDS, *WEEKDAYS, *(m.lower() for m in MONTH_NAMES), "lurker", "ok"}
_WHEN = re.compile(r"^\s*(when\b|(what|which) (date|day|year|month|week)\b)", re.IGNORECASE)
_ISO_DAY = re.compile(r"^(?P<prefix>(?:week|weekend) of )?(?P<day>\d{4}-\d{2}-\d{2})$")


def named(question: str) -> set[str]:
    """Capitalised words after the first ("When did Priya move the Grafana boards?" -> Priya,
    Grafana), without question words, weekdays and months: who or what the question is about."""
    rest = question.strip().split(None, 1)[1:]
    words = _NAME.findall(rest[0]) if rest else []
    return {w.lower() for w in words if w.lower() not in _NOT_NAMES}


def _names_all(names: set[str], text: str) -> bool:
    low = set(re.findall(r"[a-z0-9]+", text.lower()))
    return names <= low


def resolved_date(memory: Memory) -> str | None:
    """The first date resolved in the memory at ingest, in words ("7 May 2023", "the week of ...")."""
    if not memory.dates:
        return None
    m = _ISO_DAY.match(memory.dates[0])
    if not m:
        return memory.dates[0]  # "June 2023", "2022": already words
    day = format_human(datetime.fromisoformat(m["day"]).date())
    return f"the {m['prefix']}{day}" if m["prefix"] else day


def content_stems(text: str) -> set[str]:
    words = [w for w in re.findall(r"[a-z0-9]+", text.lower()) if w not in _QUESTION_WORDS]
    return set(stem_words(words))


def _memory_stems(memory: Memory) -> set[str]:
    """What a memory is about: its content, topic key and the questions it answers."""
    return content_stems(" ".join([memory.content, memory.topic_key or "", *memory.questions]))


def _dated(memory: Memory) -> str:
    when = memory.event_time or memory.created_at
    return f"{memory.content} ({format_human(when.date())})"


class OfflineAnswerer(Answerer):
    name = "offline-extractive-v1"
    writes_hypotheses = False  # its hypothesis is the question minus its question word
    max_memories = 2

    def hypothesize(self, question: str) -> str:
        # "When did we ship the API?" -> "we ship the API": the statement an answer would contain.
        statement = _LEADING.sub("", question.strip()).rstrip("?").strip()
        return statement or question

    def answer(self, question: str, now: datetime, memories: list[Memory],
               messages: list[Message], computed: list[ComputedDate]) -> str:
        names = named(question)
        # Sharing only the person's name is not being about the question: "What did Gina lose?"
        # is not answered by "Gina opened a store".
        wanted = (content_stems(question) - content_stems(" ".join(names))) \
            or content_stems(question)
        relevant = [m for m in memories if wanted & _memory_stems(m)
                    and _names_all(names, f"{m.content} {m.topic_key or ''}")]
        parts: list[str] = []
        if relevant:
            shown = relevant[: self.max_memories]
            dated = next((m for m in shown if resolved_date(m)), None) \
                if _WHEN.match(question) else None
            if dated is not None:  # the date, then the one memory it comes from
                parts += [f"{resolved_date(dated)}:", _dated(dated)]
            else:
                parts += [_dated(m) for m in shown]
        else:
            hit = next((m for m in messages if wanted & content_stems(m.content)
                        and _names_all(names, f"{m.author or ''} {m.content}")), None)
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
        return " ".join(p if p.endswith((".", "!", ")", ":")) else p + "." for p in parts)
