"""Date resolution on the date corpus: Lurker's memory.dates against well-kept libraries.

    pip install '.[bench-dates]'   # dateparser, ctparse, recognizers-text-suite
    python bench/dates.py [--corpus tests/data/date_corpus.jsonl] [--repeat 3]

Each of the corpus's 300 messages (tests/data/date_corpus.jsonl) is resolved against its own
timestamp, in the offset it was written with, by every system; a message is right when the dates
found are exactly the expected ones (multiset of (start, end) days; memory.eval.date_corpus).
Prints accuracy, expression precision and recall, and milliseconds per message (mean over the
corpus, after one warm-up pass, best of --repeat).

The libraries get the glue we would ship with them: the message time as their reference, our tense
reading of the sentence to choose past or future where they take a preference (dateparser's
PREFER_DATES_FROM, Recognizers-Text's past/future alternatives), ranges taken as ranges and day
precision kept. What a library does not resolve (a bare "the 22nd", a quarter) counts as missed.
"""
from __future__ import annotations

import argparse
import sys
import time
from datetime import date, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from memory.dates import tense_at  # noqa: E402
from memory.eval.date_corpus import CORPUS, Span, load, lurker_spans, score  # noqa: E402


def _naive_local(anchor: datetime) -> datetime:
    return anchor.replace(tzinfo=None)


def _tense(text: str, pos: int = 0) -> str:
    return tense_at(text, pos)


def dateparser_system():
    from dateparser.search import search_dates

    def search(text: str, anchor: datetime, prefer: str) -> list[tuple[str, datetime]]:
        return search_dates(text, languages=["en"], settings={
            "RELATIVE_BASE": _naive_local(anchor), "PREFER_DATES_FROM": prefer}) or []

    def resolve(text: str, anchor: datetime) -> list[Span]:
        """Both preferences, then per phrase the one its clause's tense asks for."""
        past, future = search(text, anchor, "past"), search(text, anchor, "future")
        found = []
        for (phrase, when_past), (_, when_future) in zip(past, future):
            when = when_past if _tense(text, max(text.find(phrase), 0)) == "past" else when_future
            found.append((when.date(), when.date()))
        return found
    return resolve


def recognizers_system():
    from recognizers_date_time import recognize_datetime
    from recognizers_text import Culture

    def day(text: str) -> date:
        return date.fromisoformat(text[:10])

    def resolve(text: str, anchor: datetime) -> list[Span]:
        found = []
        for result in recognize_datetime(text, Culture.English, reference=_naive_local(anchor)):
            values = result.resolution.get("values") or []
            if not values:
                continue
            past = _tense(text, result.start) == "past"
            value = values[0] if past or len(values) == 1 else values[-1]
            kind = value.get("type", "")
            try:
                if kind in ("date", "datetime"):
                    d = day(value["value"])
                    found.append((d, d))
                elif kind in ("daterange", "datetimerange") and value.get("start"):
                    start = day(value["start"])
                    end = day(value["end"]) - timedelta(days=1) if value.get("end") else start
                    found.append((start, max(start, end)))
            except (KeyError, ValueError):
                continue
        return found
    return resolve


def ctparse_system():
    import logging

    from ctparse import ctparse
    logging.getLogger("ctparse").setLevel(logging.CRITICAL)  # one line per unparsed message
    from ctparse.types import Interval, Time

    def resolve(text: str, anchor: datetime) -> list[Span]:
        parse = ctparse(text, ts=_naive_local(anchor), timeout=1)
        if parse is None:
            return []
        r = parse.resolution
        try:
            if isinstance(r, Interval) and r.t_from and r.t_to and r.t_from.isDate \
                    and r.t_to.isDate:
                return [(r.t_from.dt.date(), r.t_to.dt.date())]
            if isinstance(r, Time) and r.isDate:
                return [(r.dt.date(), r.dt.date())]
        except (AttributeError, ValueError):
            pass
        return []
    return resolve


SYSTEMS = {
    "lurker (memory.dates)": lambda: lurker_spans,
    "dateparser 1.x search_dates": dateparser_system,
    "Recognizers-Text (Microsoft) date-time": recognizers_system,
    "ctparse": ctparse_system,
}


def timed(system, cases, repeat: int) -> float:
    for case in cases:  # warm-up: models, caches and regex compilation
        system(case.text, case.anchor)
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for case in cases:
            system(case.text, case.anchor)
        best = min(best, time.perf_counter() - start)
    return best * 1000 / len(cases)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--corpus", default=str(CORPUS))
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--show-misses", action="store_true")
    args = p.parse_args(argv)
    cases, _ = load(args.corpus)
    print(f"{len(cases)} messages from {args.corpus}")
    print(f"{'system':<42}{'accuracy':>9}{'precision':>10}{'recall':>8}{'ms/msg':>9}")
    for name, make in SYSTEMS.items():
        try:
            system = make()
        except ImportError as exc:
            print(f"{name:<42}  not installed ({exc.name}): pip install '.[bench-dates]'")
            continue
        result = score(cases, system)
        ms = timed(system, cases, args.repeat)
        print(f"{name:<42}{result.accuracy:>9.3f}{result.precision:>10.3f}{result.recall:>8.3f}"
              f"{ms:>9.2f}")
        if args.show_misses:
            from memory.eval.date_corpus import describe
            for case, got in result.wrong:
                print("   ", describe(case, got))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
