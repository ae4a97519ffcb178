"""The date corpus: chat messages with the dates they mean, and questions with the value they ask.

`tests/data/date_corpus.jsonl`, one case a line, written from real chat phrasing:
- {"kind": "resolve", "ts", "text", "expect": ["2026-05-05", "2026-06-03..2026-06-07"], "tags"}:
  every date the message means, resolved against its timestamp (in the offset it was written with)
  and its tense; a span is "start..end", both days included. Non-dates ("version 3.14") expect [].
- {"kind": "question", "messages": [{"ts", "author", "content"}], "now", "question", "expect"}:
  the messages are ingested, the question recalled as of `now`, and the value computed in code
  (memory.date_questions) must read `expect` ("29 days", "19 May 2026", "not computed").

A resolve case is right when the dates found are exactly the expected ones (as a multiset of
(start, end) days; granularity aside). Used by tests/test_date_corpus.py and bench/dates.py, which
also runs the same cases through other date libraries.
"""
from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path

from ..dates import find_dates, parse_local_timestamp

CORPUS = Path(__file__).resolve().parents[2] / "tests" / "data" / "date_corpus.jsonl"

Span = tuple[date, date]


@dataclass(frozen=True)
class ResolveCase:
    ts: str
    text: str
    expect: tuple[Span, ...]
    tags: tuple[str, ...] = ()

    @property
    def anchor(self) -> datetime:
        """The message's time in the offset it was written with."""
        return parse_local_timestamp(self.ts)


@dataclass(frozen=True)
class QuestionCase:
    messages: tuple[dict, ...]
    now: str
    question: str
    expect: str


def parse_span(text: str) -> Span:
    start, _, end = text.partition("..")
    return date.fromisoformat(start), date.fromisoformat(end or start)


def load(path: str | Path = CORPUS) -> tuple[list[ResolveCase], list[QuestionCase]]:
    resolve, questions = [], []
    for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        case = json.loads(line)
        if case["kind"] == "resolve":
            resolve.append(ResolveCase(case["ts"], case["text"],
                                       tuple(parse_span(e) for e in case["expect"]),
                                       tuple(case.get("tags", ()))))
        elif case["kind"] == "question":
            questions.append(QuestionCase(tuple(case["messages"]), case["now"], case["question"],
                                          case["expect"]))
        else:
            raise ValueError(f"{path}:{number}: unknown kind {case['kind']!r}")
    return resolve, questions


def lurker_spans(text: str, anchor: datetime) -> list[Span]:
    """Lurker's resolution (memory.dates), as (start, end) days."""
    return [(f.date.start, f.date.end) for f in find_dates(text, anchor)]


@dataclass
class Score:
    cases: int = 0
    right: int = 0
    found: int = 0  # expressions resolved
    expected: int = 0
    matched: int = 0  # resolved to an expected (start, end)
    wrong: list[tuple[ResolveCase, list[Span]]] = field(default_factory=list)

    @property
    def accuracy(self) -> float:
        return self.right / self.cases if self.cases else 0.0

    @property
    def precision(self) -> float:
        return self.matched / self.found if self.found else 1.0

    @property
    def recall(self) -> float:
        return self.matched / self.expected if self.expected else 1.0


def score(cases: Iterable[ResolveCase], system: Callable[[str, datetime], list[Span]]) -> Score:
    """How many cases `system` resolves exactly, and its expression precision and recall."""
    s = Score()
    for case in cases:
        got = list(system(case.text, case.anchor))
        matched = sum((Counter(got) & Counter(case.expect)).values())
        s.cases += 1
        s.found += len(got)
        s.expected += len(case.expect)
        s.matched += matched
        if sorted(got) == sorted(case.expect):
            s.right += 1
        else:
            s.wrong.append((case, got))
    return s


def describe(case: ResolveCase, got: list[Span]) -> str:
    def show(spans: Iterable[Span]) -> str:
        return ", ".join(a.isoformat() if a == b else f"{a}..{b}" for a, b in spans) or "-"
    return f"{case.ts} {case.text!r}: expected {show(case.expect)}, got {show(got)}"
