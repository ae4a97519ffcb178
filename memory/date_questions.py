"""Date arithmetic that questions ask for, computed in code from event dates.

"How many days between the Postgres migration and the launch review?", "how long after A was B",
"how long ago was A", "how many days until A", "what date is two weeks after A", "which came first,
A or B": each end is either a date written in the question ("1 May 2023", "yesterday", "now") or an
event, which the caller dates from memory (a `Dater`: memory.service finds the event by recall and
takes its *event* date, never the date it was mentioned). The answer shows the dates it used; when an
end has no date, the fact says so instead of guessing.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Callable, Literal

from .dates import (ResolvedDate, add_months, describe_span, find_dates, format_human,
                    normal_unit)
from .models import ComputedDate

Kind = Literal["between", "after", "ago", "until", "offset", "order"]


@dataclass(frozen=True)
class DateQuestion:
    kind: Kind
    expression: str  # the words of the question that ask it
    a: str  # the first end (for "ago"/"until": the only one)
    b: str | None = None
    unit: str = "days"
    offset_days: int = 0  # "offset": signed, in days (months below)
    offset_months: int = 0


@dataclass(frozen=True)
class Dated:
    """What the caller knows of an event: its date (None: undated), and when it was mentioned.
    `written`: the end is a date written in the question itself, not an event."""
    phrase: str
    date: ResolvedDate | None
    mentioned: date | None = None
    written: bool = False


Dater = Callable[[str], Dated]

_UNIT = r"(?P<unit>days?|weeks?|months?|years?)"
_HOW = rf"how\s+(?:many|much)\s+(?:\w+\s+)?{_UNIT}|how\s+long|how\s+much\s+time"
_VERB = (r"(?:is|was|were|are|did|does|do|will|would|has|had|have|happen(?:ed|s)?|came|come|"
         r"took\s+place|take\s+place)")
# Trailing words that belong to the question, not the event ("did B happen?").
_EVENT_TAIL = re.compile(r"\s+(?:happen(?:ed|s)?|take\s+place|took\s+place|occur(?:red|s)?|"
                         r"come|came|start(?:ed)?|begin|began|be|get\s+done|go\s+live)$",
                         re.IGNORECASE)
_NUMBER = {w: i for i, w in enumerate("zero one two three four five six seven eight nine ten "
                                      "eleven twelve".split())}
_PATTERNS: list[tuple[Kind, re.Pattern]] = [(kind, re.compile(p, re.IGNORECASE)) for kind, p in [
    ("offset", rf"(?:what|which)\s+(?:date|day)(?:\s+(?:is|was|will\s+be|would\s+be|falls?))?\s+"
               rf"(?P<n>\d+|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
               rf"\s+{_UNIT}\s+(?P<dir>after|before|from)\s+(?P<a>.+)"),
    ("order", r"^\s*(?:which|what)\s+(?:came|happened|comes|happens|was|is|were)\s+(?:first|earlier|"
              r"sooner)[,:]?\s+(?P<a>.+?),?\s+or\s+(?P<b>.+)"),
    ("order", r"^\s*(?:did|does|will|was|is)\s+(?P<a>.+?)\s+(?:happen\s+|come\s+|take\s+place\s+)?"
              r"(?P<dir>before|after|earlier\s+than|later\s+than)\s+(?P<b>.+)"),
    ("between", rf"(?P<how>{_HOW})\b.*?\bbetween\s+(?P<a>.+?)\s+and\s+(?P<b>.+)"),
    ("between", r"how\s+far\s+apart\s+(?:are|were|is|was)\s+(?P<a>.+?)\s+and\s+(?P<b>.+)"),
    ("between", rf"(?P<how>how\s+(?:many|much)\s+(?:\w+\s+)?{_UNIT})\b.*?\bfrom\s+(?P<a>.+?)\s+"
                rf"(?:to|until|till)\s+(?P<b>.+)"),
    ("after", rf"(?P<how>{_HOW})\s+after\s+(?P<a>.+?)\s+{_VERB}\s+(?P<b>.+)"),
    ("before", rf"(?P<how>{_HOW})\s+before\s+(?P<b>.+?)\s+{_VERB}\s+(?P<a>.+)"),
    ("ago", rf"(?P<how>{_HOW})\s+ago\s+(?:{_VERB}\s+)?(?P<a>.+)"),
    ("ago", rf"(?P<how>{_HOW})\s+(?:has\s+it\s+been\s+|is\s+it\s+|was\s+it\s+)?since\s+(?P<a>.+)"),
    ("until", rf"(?P<how>{_HOW})\s+(?:\w+\s+){{0,3}}?(?:until|till|before|to\s+go\s+(?:until|"
              rf"before)|left\s+(?:until|before))\s+(?P<a>.+)"),
    ("until", r"how\s+(?:far\s+away|soon)\s+is\s+(?P<a>.+)"),
]]


def _clean(phrase: str) -> str:
    phrase = phrase.strip().rstrip("?.!,;: ").strip()
    return _EVENT_TAIL.sub("", phrase).strip()


def _unit(m: re.Match) -> str:
    unit = m.groupdict().get("unit")
    return normal_unit(unit) if unit else "days"


# a state, not an event: "the office open", "the mailroom closed", "raj out", "the API down"
_STATE_ASKED = re.compile(r"(?i)\s(?:open|closed|available|free|busy|out|off|back|away|around|"
                          r"online|offline|down|up|live|ready|on\s+call|in\s+(?:the\s+)?office)$")


def parse_date_question(question: str) -> DateQuestion | None:
    """What date arithmetic the question asks for, and its ends as written; None if it asks none."""
    text = " ".join(question.split())
    for kind, pattern in _PATTERNS:
        m = pattern.search(text)
        if m is None:
            continue
        a = _clean(m["a"])
        b = _clean(m["b"]) if "b" in m.groupdict() and m["b"] else None
        if not a or (b is not None and not b):
            continue
        expression = text[m.start():m.end()].rstrip("?.! ")
        if kind == "offset":
            n = m["n"].lower()
            n = int(n) if n.isdigit() else _NUMBER.get(n, 1)
            sign = -1 if m["dir"].lower() == "before" else 1
            unit = _unit(m)
            days = {"days": n, "weeks": 7 * n}.get(unit, 0) * sign
            months = {"months": n, "years": 12 * n}.get(unit, 0) * sign
            return DateQuestion("offset", expression, a, unit=unit, offset_days=days,
                                offset_months=months)
        if kind == "order" and _STATE_ASKED.search(a):
            continue  # "is the office open after Christmas?" asks a state, not an order
        if kind == "before":  # "how long before B was A": A, then B
            return DateQuestion("after", expression, a, b, _unit(m))
        if kind in ("ago", "until") and " and " in a:
            continue  # "how long until A and B": not one date
        return DateQuestion(kind, expression, a, b, _unit(m) if kind != "order" else "days")
    return None


def date_in_phrase(phrase: str, today: date) -> ResolvedDate | None:
    """A phrase that is itself a date ("now", "1 May 2023", "yesterday", "next Friday")."""
    bare = phrase.strip()
    if bare.lower() in ("now", "today", "right now"):
        return ResolvedDate(bare, today, today, "day")
    found = find_dates(bare, today)
    if len(found) == 1 and found[0].start <= 4 and found[0].end >= len(bare) - 1:
        return found[0].date
    return None


def _describe(d: Dated) -> str:
    """"3 June 2026 (the launch review)", "21 November 2026 (yesterday)", "1 May 2023"."""
    if d.date is None:
        return d.phrase
    if d.written and re.search(r"\d", d.phrase):
        return d.date.words
    return f"{d.date.words} ({d.phrase})"


def _missing(q: DateQuestion, ends: list[Dated]) -> ComputedDate | None:
    """Say which end has no date (or only a month, a quarter...) instead of guessing."""
    problems = []
    for d in ends:
        if d.date is None:
            seen = f", only that it was mentioned on {format_human(d.mentioned)}" \
                if d.mentioned else ""
            problems.append(f"no date for {d.phrase} in memory{seen}")
        elif d.date.granularity != "day" or d.date.start != d.date.end and q.kind != "order":
            problems.append(f"{d.phrase} is dated only to {d.date.words}")
    if not problems:
        return None
    return ComputedDate(expression=q.expression, value="not computed",
                        detail="; ".join(problems))


def compute(q: DateQuestion, today: date, dater: Dater) -> ComputedDate:
    """The fact a DateQuestion asks for: each end dated (a date in the question, else the
    dater's event date), then computed here."""
    def end(phrase: str) -> Dated:
        written = date_in_phrase(phrase, today)
        return Dated(phrase, written, written=True) if written else dater(phrase)

    if q.kind in ("ago", "until"):
        ends = [end(q.a), Dated("today", ResolvedDate("today", today, today, "day"),
                                written=True)]
        ranged = _ranged(q, ends[0], today)
        if ranged is not None:
            return ranged
    elif q.kind == "offset":
        ends = [end(q.a)]
    else:
        ends = [end(q.a), end(q.b or "")]
    missing = _missing(q, ends)
    if missing is not None:
        return missing
    a = ends[0].date.start
    if q.kind == "offset":
        x = add_months(a, q.offset_months) + timedelta(days=q.offset_days)
        return ComputedDate(expression=q.expression, value=format_human(x),
                            detail=f"{_describe(ends[0])} "
                                   f"{'+' if (q.offset_days or q.offset_months) > 0 else '-'} "
                                   f"{_offset_words(q)}")
    b = ends[1].date.start
    if q.kind == "order":
        first, second = sorted(ends, key=lambda d: d.date.start)
        if first.date.start == second.date.start:
            value = f"same day: {first.phrase} and {second.phrase} on {first.date.words}"
        else:
            value = f"{first.phrase} came first"
        return ComputedDate(expression=q.expression, value=value,
                            detail=f"{_describe(first)} before {_describe(second)}")
    span = describe_span(a, b, q.unit)
    if q.kind == "ago":
        value = span if a <= today else f"not yet: {span} from now"
        return ComputedDate(expression=q.expression, value=value,
                            detail=f"from {_describe(ends[0])} to {format_human(today)} (today)")
    if q.kind == "until":
        value = span if a >= today else f"already past: {span} ago"
        return ComputedDate(expression=q.expression, value=value,
                            detail=f"from {format_human(today)} (today) to {_describe(ends[0])}")
    if q.kind == "after" and b < a:
        return ComputedDate(expression=q.expression, value=f"{span} before, not after",
                            detail=f"{_describe(ends[1])} came before {_describe(ends[0])}")
    lo, hi = sorted(ends, key=lambda d: d.date.start)
    return ComputedDate(expression=q.expression, value=span,
                        detail=f"from {_describe(lo)} to {_describe(hi)}")


RANGE_DAYS = 31  # a week, "mid-December", "early January": counted to its first and last day


def _ranged(q: DateQuestion, d: Dated, today: date) -> ComputedDate | None:
    """"how many days until the pricing refresh?" after "lands mid-December": from today to the
    range's first and last day ("23 days to 32 days"), where it had been no answer. Longer
    ranges (a month, a quarter) stay "dated only to"."""
    rd = d.date
    if rd is None or rd.start == rd.end or (rd.end - rd.start).days > RANGE_DAYS:
        return None
    near, far = (rd.start, rd.end) if q.kind == "until" else (rd.end, rd.start)
    if rd.start <= today <= rd.end:
        return ComputedDate(expression=q.expression, value="0 days: today is within it",
                            detail=f"{format_human(today)} (today) is in {_describe(d)}")
    if (q.kind == "until") != (rd.start > today):
        return None  # asked until a range already past, or how long ago of one to come
    lo, hi = (describe_span(today, x, q.unit) for x in (near, far))
    value = f"{lo} to {hi}"
    detail = (f"from {format_human(today)} (today) to {_describe(d)}" if q.kind == "until"
              else f"from {_describe(d)} to {format_human(today)} (today)")
    return ComputedDate(expression=q.expression, value=value, detail=detail)


def _offset_words(q: DateQuestion) -> str:
    if q.offset_months:
        n = abs(q.offset_months)
        return f"{n // 12} years" if q.unit == "years" else f"{n} months"
    n = abs(q.offset_days)
    return f"{n // 7} weeks" if q.unit == "weeks" else f"{n} days"


def relative_facts(question: str, now: datetime | date) -> list[ComputedDate]:
    """Each date expression in the question resolved against `now` (value: the ISO day for a
    single day, else the label, e.g. "October 2026")."""
    today = now.date() if isinstance(now, datetime) else now
    return [ComputedDate(expression=f.date.phrase,
                         value=(f.date.start.isoformat() if f.date.start == f.date.end
                                else f.date.label),
                         detail=f.detail)
            for f in find_dates(question, today) if not f.explicit]


def compute_for_question(question: str, now: datetime | date,
                         dater: Dater | None = None) -> list[ComputedDate]:
    """Date facts for the answer, all computed here: the question's own date expressions, then the
    arithmetic it asks for. Without a dater, an end that is an event is reported as undated."""
    today = now.date() if isinstance(now, datetime) else now
    facts = relative_facts(question, today)
    q = parse_date_question(question)
    if q is not None:
        facts.append(compute(q, today, dater or (lambda phrase: Dated(phrase, None))))
    return facts
