"""Deterministic date handling: a model never does date math.

At ingest, relative phrases ("yesterday", "3 weeks ago") are resolved against the message's own
timestamp and written into the text as " [label]". At recall, relative phrases and date arithmetic
in the question are computed here and handed to the answer as ComputedDate facts.

Conventions (dates are calendar dates in the anchor's own timezone; weeks run Monday to Sunday):
- today, tonight, this morning/afternoon/evening: the anchor's date. yesterday and last night: the
  day before; the day before yesterday: two days before; tomorrow, the day after tomorrow likewise.
- last <weekday> (also "this past <weekday>"): the most recent such weekday strictly before the
  anchor's date (1-7 days back). next <weekday>: the first one strictly after it (1-7 days ahead).
  this <weekday>: that weekday in the anchor's Monday-Sunday week (past or future).
- on <weekday>: the most recent such weekday on or before the anchor's date, unless its sentence has
  a future marker (will, 'll, won't, going to, gonna, plan, next, shall), then the first one after.
- last/this/next week, month, year: the whole calendar period before / containing / after the
  anchor's. last/this/next weekend: Saturday-Sunday of the previous / current / next week.
- N days ago, in N days, N days from now: that day. N weeks ...: the day 7N days away, known to week
  precision (granularity "week", start == end). N months / N years ...: that calendar month / year.
  Month arithmetic clamps the day: 31 March minus 1 month is 28 (or 29) February.
- N is digits or one..twelve; "a"/"an" is 1, "a couple (of)" is 2, "a few" is 3.
- Absolute dates: ISO 2023-05-08, 8 May 2023, 8 May, 2023, 8th of May 2023, May 8, 2023, May 8th
  2023, and 05/08/2023 (US month/day/year). A year is always required.
"""
from __future__ import annotations

import calendar
import math
import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone
from typing import Callable, Literal

from .models import ComputedDate

Granularity = Literal["day", "week", "month", "year"]

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
MONTH_NAMES = ("January", "February", "March", "April", "May", "June", "July", "August",
               "September", "October", "November", "December")
_NUMBER_WORDS = {w: i for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve".split())}


@dataclass(frozen=True)
class ResolvedDate:
    phrase: str  # as written in the text (without a trailing possessive 's)
    start: date
    end: date
    granularity: Granularity

    @property
    def label(self) -> str:
        if self.granularity == "week":
            return f"week of {monday_of(self.start).isoformat()}"
        if self.granularity == "month":
            return f"{MONTH_NAMES[self.start.month - 1]} {self.start.year}"
        if self.granularity == "year":
            return str(self.start.year)
        if self.start == self.end:
            return self.start.isoformat()
        if self.start.weekday() == 5 and self.end == self.start + timedelta(days=1):
            return f"weekend of {self.start.isoformat()}"
        return f"{self.start.isoformat()} to {self.end.isoformat()}"


# --- calendar helpers ----------------------------------------------------------------------------
def monday_of(d: date) -> date:
    return d - timedelta(days=d.weekday())


def add_months(d: date, months: int) -> date:
    """Calendar month arithmetic, clamping the day to the target month's length."""
    years, month_index = divmod(d.month - 1 + months, 12)
    year, month = d.year + years, month_index + 1
    return date(year, month, min(d.day, calendar.monthrange(year, month)[1]))


def _month_span(d: date) -> tuple[date, date]:
    return d.replace(day=1), d.replace(day=calendar.monthrange(d.year, d.month)[1])


def _plural(n: int, unit: str) -> str:
    return f"{n} {unit}" if n == 1 else f"{n} {unit}s"


def format_human(d: date) -> str:
    """7 May 2023 (no zero padding, English month names whatever the locale)."""
    return f"{d.day} {MONTH_NAMES[d.month - 1]} {d.year}"


def days_between(a: date, b: date) -> int:
    """Absolute number of days between two dates."""
    return abs((_as_date(b) - _as_date(a)).days)


def _as_date(value: date) -> date:
    return value.date() if isinstance(value, datetime) else value


# --- relative phrases: one table of patterns -----------------------------------------------------
# A resolver gets the match, the anchor's date and whether the sentence speaks of the future, and
# returns (start, end, granularity, detail); detail says how it was computed.
Resolution = tuple[date, date, Granularity, str]
Resolver = Callable[[re.Match, date, bool], Resolution]

_WEEKDAY = r"(?P<wd>monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
_NUM = (r"(?P<n>\d{1,3}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|an?|"
        r"(?:a\s+)?couple(?:\s+of)?|(?:a\s+)?few)")
_UNIT = r"(?P<unit>day|week|month|year)s?"
_NOT_THE = r"(?<!the\s)"  # "the last week of June" is not relative to the anchor
_WHICH = {"last": -1, "this past": -1, "this": 0, "next": 1}
_FUTURE = re.compile(r"\b(?:will|won['’]t|shall|going\s+to|gonna|plan|plans|planning|next)\b|"
                     r"\w['’]ll\b", re.IGNORECASE)


def _which(m: re.Match) -> int:
    return _WHICH[" ".join(m["which"].lower().split())]


def _shift(days: int) -> Resolver:
    def resolve(m: re.Match, d: date, future: bool) -> Resolution:
        x = d + timedelta(days=days)
        how = (f"same day as {d}" if days == 0 else
               f"{_plural(abs(days), 'day')} {'before' if days < 0 else 'after'} {d}")
        return x, x, "day", how
    return resolve


def _relative_weekday(m: re.Match, d: date, future: bool) -> Resolution:
    target, which, name = WEEKDAYS.index(m["wd"].lower()), _which(m), m["wd"].capitalize()
    if which < 0:  # strictly before the anchor's date
        x = d - timedelta(days=(d.weekday() - target - 1) % 7 + 1)
        return x, x, "day", f"the most recent {name} before {d}"
    if which > 0:  # strictly after the anchor's date
        x = d + timedelta(days=(target - d.weekday() - 1) % 7 + 1)
        return x, x, "day", f"the first {name} after {d}"
    x = monday_of(d) + timedelta(days=target)
    return x, x, "day", f"the {name} of the week of {monday_of(d)}"


def _on_weekday(m: re.Match, d: date, future: bool) -> Resolution:
    target, name = WEEKDAYS.index(m["wd"].lower()), m["wd"].capitalize()
    if future:
        x = d + timedelta(days=(target - d.weekday() - 1) % 7 + 1)
        return x, x, "day", f"the first {name} after {d} (future tense)"
    x = d - timedelta(days=(d.weekday() - target) % 7)
    return x, x, "day", f"the most recent {name} on or before {d}"


def _weekend(m: re.Match, d: date, future: bool) -> Resolution:
    saturday = monday_of(d) + timedelta(days=5 + 7 * _which(m))
    sunday = saturday + timedelta(days=1)
    return saturday, sunday, "day", f"{saturday} to {sunday}"


def _calendar_period(m: re.Match, d: date, future: bool) -> Resolution:
    unit, which = m["unit"].lower(), _which(m)
    if unit == "week":
        start = monday_of(d) + timedelta(days=7 * which)
        end = start + timedelta(days=6)
    elif unit == "month":
        start, end = _month_span(add_months(d.replace(day=1), which))
    else:
        start, end = date(d.year + which, 1, 1), date(d.year + which, 12, 31)
    return start, end, unit, f"{start} to {end}"


def _number(text: str) -> int:
    text = text.lower()
    if text.isdigit():
        return int(text)
    if "couple" in text:
        return 2
    if "few" in text:
        return 3
    return 1 if text in ("a", "an") else _NUMBER_WORDS[text]


def _offset(sign: int) -> Resolver:
    def resolve(m: re.Match, d: date, future: bool) -> Resolution:
        n, unit = _number(m["n"]), m["unit"].lower()
        how = f"{_plural(n, unit)} {'before' if sign < 0 else 'after'} {d}"
        if unit == "day":
            x = d + timedelta(days=sign * n)
            return x, x, "day", how
        if unit == "week":
            x = d + timedelta(days=sign * 7 * n)
            return x, x, "week", how
        x = add_months(d, sign * n * (1 if unit == "month" else 12))
        if unit == "month":
            return *_month_span(x), "month", f"{how} ({x})"
        return date(x.year, 1, 1), date(x.year, 12, 31), "year", f"{how} ({x})"
    return resolve


_RULES: list[tuple[str, Resolver]] = [
    (r"the\s+day\s+before\s+yesterday", _shift(-2)),
    (r"the\s+day\s+after\s+tomorrow", _shift(2)),
    (rf"yesterday|{_NOT_THE}last\s+night", _shift(-1)),
    (r"tomorrow", _shift(1)),
    (r"today|tonight|this\s+(?:morning|afternoon|evening)", _shift(0)),
    (rf"{_NOT_THE}(?P<which>last|this\s+past|this|next)\s+{_WEEKDAY}", _relative_weekday),
    (rf"on\s+{_WEEKDAY}", _on_weekday),
    (rf"{_NOT_THE}(?P<which>last|this\s+past|this|next)\s+weekend", _weekend),
    (rf"{_NOT_THE}(?P<which>last|this|next)\s+(?P<unit>week|month|year)", _calendar_period),
    (rf"{_NUM}\s+{_UNIT}\s+ago", _offset(-1)),
    (rf"in\s+{_NUM}\s+{_UNIT}", _offset(1)),
    (rf"{_NUM}\s+{_UNIT}\s+from\s+(?:now|today)", _offset(1)),
]
# Whole words only, an optional possessive ("yesterday's") kept outside the phrase, and no match
# glued to a domain or identifier ("monday.com", "today-ish").
_PATTERNS = [(re.compile(rf"(?<![\w-])(?P<phrase>{body})(?:['’]s)?(?![\w-]|\.\w)", re.IGNORECASE),
              resolve) for body, resolve in _RULES]
_BRACKETED = re.compile(r"\[[^\[\]]*\]")
_LABEL_AFTER = re.compile(
    r"\s*\[(?:(?:week of |weekend of )?\d{4}-\d{2}-\d{2}|[A-Z][a-z]+ \d{4}|\d{4})\]")
_SENTENCE = re.compile(r"[^.!?\n]+")


def _is_future(text: str, pos: int) -> bool:
    sentence = next((s[0] for s in _SENTENCE.finditer(text) if s.start() <= pos < s.end()), "")
    return bool(_FUTURE.search(sentence))


def _non_overlapping(found: list[tuple[re.Match, Resolver | None]]
                     ) -> list[tuple[re.Match, Resolver | None]]:
    """Earliest first, the longest of those starting together, skipping overlaps."""
    chosen: list[tuple[re.Match, Resolver | None]] = []
    for m, payload in sorted(found, key=lambda f: (f[0].start(), -f[0].end())):
        if not chosen or m.start() >= chosen[-1][0].end():
            chosen.append((m, payload))
    return chosen


def _resolve_all(text: str, today: date) -> list[tuple[re.Match, ResolvedDate, str]]:
    """Every relative phrase outside [brackets], in order, with its resolution and detail."""
    brackets = [b.span() for b in _BRACKETED.finditer(text)]
    found = [(m, resolve) for pattern, resolve in _PATTERNS for m in pattern.finditer(text)
             if not any(s < m.end() and m.start() < e for s, e in brackets)]
    out = []
    for m, resolve in _non_overlapping(found):
        try:
            start, end, granularity, detail = resolve(m, today, _is_future(text, m.start()))
        except (ValueError, OverflowError):  # beyond the calendar's range: leave it alone
            continue
        out.append((m, ResolvedDate(m["phrase"], start, end, granularity), detail))
    return out


def _anchor_date(anchor: datetime | date) -> date:
    return anchor.date() if isinstance(anchor, datetime) else anchor


def annotate_relative_dates(text: str, anchor: datetime) -> tuple[str, list[ResolvedDate]]:
    """"I went there yesterday" @ 2023-05-08 -> "I went there yesterday [2023-05-07]". Phrases that
    already carry a label are left alone and not reported, so annotating twice changes nothing."""
    parts: list[str] = []
    resolved: list[ResolvedDate] = []
    pos = 0
    for m, rd, _ in _resolve_all(text, _anchor_date(anchor)):
        if _LABEL_AFTER.match(text, m.end()):
            continue
        parts += [text[pos:m.end()], f" [{rd.label}]"]
        pos = m.end()
        resolved.append(rd)
    return "".join(parts) + text[pos:], resolved


# --- absolute dates ------------------------------------------------------------------------------
_MONTH = (r"(?P<mon>jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
          r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b\.?")
_DAY = r"(?P<day>\d{1,2})(?:st|nd|rd|th)?\b"
_YEAR = r"(?P<year>\d{4})(?!\d)"
_DATE_PATTERNS = [re.compile(p, re.IGNORECASE) for p in (
    r"(?<!\d)(?P<year>\d{4})-(?P<month>\d{2})-(?P<day>\d{2})(?!\d)",  # ISO
    rf"(?<![\w-]){_DAY}\s+(?:of\s+)?{_MONTH},?\s+{_YEAR}",  # 8 May 2023, 8th of May, 2023
    rf"(?<![\w-]){_MONTH}\s+{_DAY},?\s+{_YEAR}",  # May 8, 2023, May 8th 2023
    r"(?<![\d/])(?P<month>\d{1,2})/(?P<day>\d{1,2})/(?P<year>\d{4})(?![\d/])",  # US 05/08/2023
)]


def _date_of(m: re.Match) -> date:
    groups = m.groupdict()
    month = (int(groups["month"]) if groups.get("month") else
             [n[:3].lower() for n in MONTH_NAMES].index(groups["mon"][:3].lower()) + 1)
    return date(int(groups["year"]), month, int(groups["day"]))


def parse_date_text(text: str) -> list[tuple[str, date]]:
    """Absolute dates written in the text, as (matched phrase, date) in order of appearance.
    Impossible dates (31 February) are skipped."""
    found = _non_overlapping([(m, None) for p in _DATE_PATTERNS for m in p.finditer(text)])
    out = []
    for m, _ in found:
        try:
            out.append((m.group(0), _date_of(m)))
        except ValueError:
            continue
    return out


# --- timestamps ----------------------------------------------------------------------------------
_EPOCH = re.compile(r"[+-]?\d+(?:\.\d+)?")
_SESSION_TIME = re.compile(r"(?P<h>\d{1,2}):(?P<m>\d{2})\s*(?P<ampm>am|pm)\s+on\s+(?P<date>.+)",
                           re.IGNORECASE)


def parse_timestamp(value) -> datetime:
    """An aware UTC datetime from a datetime (naive is taken as UTC), a date (midnight UTC), epoch
    seconds (number or string, Slack's "1715172960.000200" included), ISO 8601 (Z, offset or none)
    or a LoCoMo session time ("1:56 pm on 8 May, 2023"). ValueError otherwise."""
    if isinstance(value, datetime):
        return (value.replace(tzinfo=timezone.utc) if value.tzinfo is None
                else value.astimezone(timezone.utc))
    if isinstance(value, date):
        return datetime(value.year, value.month, value.day, tzinfo=timezone.utc)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return _from_epoch(value, value)
    if not isinstance(value, str):
        raise ValueError(f"unsupported timestamp type {type(value).__name__}: use an ISO 8601 "
                         "string, epoch seconds or a datetime")
    text = value.strip()
    if _EPOCH.fullmatch(text):
        return _from_epoch(float(text), value)
    try:
        return parse_timestamp(datetime.fromisoformat(text))
    except ValueError:
        pass
    session = _SESSION_TIME.fullmatch(text)
    day = _whole_date(session["date"] if session else text)
    if day is not None:
        hour, minute = (0, 0)
        if session:
            hour, minute = int(session["h"]), int(session["m"])
            if not (1 <= hour <= 12 and minute < 60):
                raise ValueError(f"invalid time of day in timestamp {value!r}")
            hour = hour % 12 + (12 if session["ampm"].lower() == "pm" else 0)
        return datetime(day.year, day.month, day.day, hour, minute, tzinfo=timezone.utc)
    raise ValueError(f"unrecognised timestamp {value!r}: use ISO 8601 (2023-05-08T13:56:00Z), "
                     "epoch seconds, or a session time like '1:56 pm on 8 May, 2023'")


def _from_epoch(seconds: float, original) -> datetime:
    try:
        if not math.isfinite(seconds):
            raise ValueError
        return datetime.fromtimestamp(seconds, tz=timezone.utc)
    except (ValueError, OverflowError, OSError):
        raise ValueError(f"epoch timestamp out of range: {original!r}") from None


def _whole_date(text: str) -> date | None:
    """The date if the text is exactly one absolute date (a leading "the"/"on" allowed)."""
    text = re.sub(r"^(?:the|on)\s+", "", text.strip().rstrip(".,;:!?").strip(), flags=re.I)
    found = parse_date_text(text)
    return found[0][1] if len(found) == 1 and found[0][0] == text else None


# --- recall questions ----------------------------------------------------------------------------
_UNITS = ("days", "weeks", "months", "years")
_HOW = r"how\s+many\s+(?P<unit>days?|weeks?|months?|years?)|how\s+long"
_TAIL = r"\s*(?:[?!;]|\.(?:\s|$)|$)"  # a comma is not an end: "May 8, 2023"
_BETWEEN = re.compile(rf"(?P<how>{_HOW})\b.*?\bbetween\s+(?P<a>.+?)\s+and\s+(?P<b>.+?){_TAIL}",
                      re.IGNORECASE)
_FROM_TO = re.compile(rf"(?P<how>{_HOW})\b.*?\bfrom\s+(?P<a>.+?)\s+(?:to|until|till)\s+"
                      rf"(?P<b>.+?){_TAIL}", re.IGNORECASE)
_SINCE = re.compile(rf"(?P<how>{_HOW})\b.*?\b(?:until|till|since|ago\s+(?:was|were|is|did))\s+"
                    rf"(?P<a>.+?){_TAIL}", re.IGNORECASE)


def _unit_of(m: re.Match) -> str:
    return (m["unit"].lower().rstrip("s") + "s") if m["unit"] else "days"  # "how long": days


def _phrase_date(phrase: str, today: date) -> date | None:
    """A phrase that names one day: an absolute date, "now"/"today", or a day-precise relative
    phrase such as "yesterday" or "last Tuesday"."""
    bare = phrase.strip().rstrip(".,;:!?").strip()
    if bare.lower() == "now":
        return today
    whole = _whole_date(bare)
    if whole is not None:
        return whole
    found = _resolve_all(bare, today)
    if len(found) == 1 and found[0][0].group(0) == bare and found[0][1].granularity == "day":
        rd = found[0][1]
        return rd.start if rd.start == rd.end else None
    return None


def _span_match(question: str) -> re.Match | None:
    """"how many days|weeks|... / how long ... between A and B", "how many <unit> ... from A to B"
    ("how long ... from A to B" is left out: "how long is the drive from Oslo to Bergen")."""
    m = _BETWEEN.search(question)
    if m is None:
        m = _FROM_TO.search(question)
        if m is not None and not m["unit"]:
            return None
    return m


def between_phrases(question: str) -> tuple[str, str] | None:
    """The two event phrases of a duration question whose ends are not dates ("how many days
    between the launch and the retro?" -> ("the launch", "the retro")), for the caller to date from
    memory and pass to duration_between_events. None when it is not such a question, or when
    either end is a date (those are computed by compute_for_question)."""
    m = _span_match(question)
    if m is None:
        return None
    a, b = (m[g].strip().rstrip(".,;:!?").strip() for g in ("a", "b"))
    anywhere = date(2000, 1, 1)  # whether a phrase is a date does not depend on the day
    if not a or not b or _phrase_date(a, anywhere) or _phrase_date(b, anywhere):
        return None
    return a, b


def _normal_unit(unit: str) -> str:
    unit = unit.lower().strip()
    unit = unit if unit.endswith("s") else unit + "s"
    if unit not in _UNITS:
        raise ValueError(f"unknown duration unit {unit!r}: use one of {', '.join(_UNITS)}")
    return unit


def describe_duration(days: int, unit: str) -> str:
    """12 days; 3 weeks (21 days); 3 weeks and 2 days (23 days); months and years from a day count
    are approximate ("about 4.1 months (125 days)"): durations between two known dates use calendar
    months instead (see duration_between_events)."""
    unit, days = _normal_unit(unit), abs(days)
    if unit == "days" or days == 0:
        return _plural(days, "day")
    if unit == "weeks":
        weeks, rest = divmod(days, 7)
        if weeks == 0:
            return f"{_plural(days, 'day')} (less than a week)"
        parts = [_plural(weeks, "week")] + ([_plural(rest, "day")] if rest else [])
        return f"{' and '.join(parts)} ({_plural(days, 'day')})"
    amount = days / (30.436875 if unit == "months" else 365.2425)
    return f"about {round(amount, 1):g} {unit} ({_plural(days, 'day')})"


def _describe_span(a: date, b: date, unit: str) -> str:
    """Days and weeks by count; months and years as calendar units plus leftover days."""
    unit = _normal_unit(unit)
    lo, hi = sorted((_as_date(a), _as_date(b)))
    days = (hi - lo).days
    if unit in ("days", "weeks") or days == 0:
        return describe_duration(days, unit)
    months = (hi.year - lo.year) * 12 + hi.month - lo.month
    if add_months(lo, months) > hi:
        months -= 1
    rest = (hi - add_months(lo, months)).days
    years, months = divmod(months, 12) if unit == "years" else (0, months)
    parts = ([_plural(years, "year")] if years else []) + (
        [_plural(months, "month")] if months else []) + ([_plural(rest, "day")] if rest else [])
    if not years and not months:
        parts = [f"0 {unit}", _plural(rest, "day")]
    text = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    return f"{text} ({_plural(days, 'day')})"


def duration_between_events(label_a: str, date_a: date, label_b: str, date_b: date,
                            unit: str) -> ComputedDate:
    """The duration between two events dated by the caller (e.g. from memory)."""
    date_a, date_b = _as_date(date_a), _as_date(date_b)
    return ComputedDate(expression=f"between {label_a} and {label_b}",
                        value=_describe_span(date_a, date_b, unit),
                        detail=f"{label_a} on {date_a.isoformat()}, "
                               f"{label_b} on {date_b.isoformat()}")


def _span_fact(m: re.Match, question: str, a: date, b: date, today: date) -> ComputedDate:
    lo, hi = sorted((a, b))
    mark = {today: " (today)"}
    last = "b" if "b" in m.re.groupindex else "a"
    return ComputedDate(expression=question[m.start("how"):m.end(last)].strip(),
                        value=_describe_span(lo, hi, _unit_of(m)),
                        detail=f"from {lo.isoformat()}{mark.get(lo, '')} to "
                               f"{hi.isoformat()}{mark.get(hi, '')}")


def _duration_facts(question: str, today: date) -> list[ComputedDate]:
    m = _span_match(question)
    if m is not None:
        a, b = _phrase_date(m["a"], today), _phrase_date(m["b"], today)
        return [_span_fact(m, question, a, b, today)] if a and b else []
    m = _SINCE.search(question)
    if m is not None:
        a = _phrase_date(m["a"], today)
        return [_span_fact(m, question, a, today, today)] if a else []
    return []


def compute_for_question(question: str, now: datetime) -> list[ComputedDate]:
    """Date facts for the answer, all computed here: each relative phrase resolved against `now`
    (value: the ISO day for a single day, else the label, e.g. "October 2026"), then the duration a
    "how many days between/from/until/since ..." question asks for when its ends are dates.
    Questions without either ("when did we ship?") give nothing."""
    today = _anchor_date(now)
    facts = [ComputedDate(expression=rd.phrase,
                          value=rd.start.isoformat() if rd.start == rd.end else rd.label,
                          detail=detail)
             for _, rd, detail in _resolve_all(question, today)]
    return facts + _duration_facts(question, today)
