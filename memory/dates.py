"""Deterministic date handling: a model never does date math.

At ingest, every date expression in a message is resolved against the message's own timestamp (in
the timezone it was written in) and the tense around it, and written into the text as " [label]";
a memory keeps the dates it is about as event dates (models.EventDate), apart from when it was said.
At recall, memory.date_questions computes what a question asks (durations, offsets, order) from
those event dates.

Conventions (dates are calendar dates in the anchor's own timezone; weeks run Monday to Sunday):
- today, tonight, overnight, this morning/afternoon/evening, EOD: the anchor's date. yesterday
  and last night: the day before; the day before yesterday: two days before; tomorrow, the day
  after tomorrow likewise.
- last <weekday> (also "this past <weekday>"): the most recent such weekday strictly before the
  anchor's date (1-7 days back). next <weekday> (also "this coming <weekday>"): the first one
  strictly after it. this <weekday>: that weekday in the anchor's Monday-Sunday week. <weekday>
  last/this/next week: that weekday in that week.
- A bare weekday ("Friday", "on Friday", "by Friday") follows the tense of its clause: past tense
  (was, did, went, -ed verbs, ...) means the most recent such weekday on or before the anchor's date;
  explicit future (will, 'll, going to, gonna, shall, let's, plan, scheduled, due, happens, ...)
  means the first one strictly after it; neither (a header such as "Tuesday update:") means the next
  one on or after it. A deadline (by/until/till/due/before <weekday>) is future unless the clause is
  in the past tense.
- last/this/next week, month, quarter, year: the whole calendar period before / containing / after
  the anchor's. last/this/next weekend: Saturday-Sunday of the previous / current / next week;
  "(over) the weekend": the current one on a Saturday or Sunday, else the previous one in the past
  tense and the coming one otherwise.
- end of the day/week/month/quarter/year (EOD, EOW, EOM, EOQ, EOY), of next/last month etc., of a
  named month: its last day, the working week ending on Friday. start/beginning of a period: its
  first day. early/mid/late <month>: days 1-10 / 11-20 / 21 to the end.
- N days ago (or back), in N days, N days from now: that day. N weeks ...: the day 7N days away,
  known to week precision (granularity "week", start == end). N months / N years ...: that calendar
  month / year. Month arithmetic clamps the day: 31 March minus 1 month is 28 (or 29) February.
- N is digits or one..twelve; "a"/"an" is 1, "a couple (of)" is 2, "a few" is 3.
- Absolute dates: ISO 2023-05-08 and 2023/05/08, 8 May 2023, 8th of May 2023, May 8, 2023, numeric
  day/month/year when unambiguous (05/30/2023 is US, 30/05/2023 European, 05/08/2023 is left alone),
  and 30.05.2023 (dotted: day first). Without a year ("June 3", "3rd of June", "on 3/14", "the
  22nd", "in June", "Q3") the year (or month) is chosen by tense: the most recent one on or before
  the anchor in the past tense, the next one on or after it in the future tense, else the closest.
  A month alone or a year alone needs a preposition ("in June", "since 2021"); a numeric date
  without a year needs one too ("on 3/14", "by 14/3"), so "2/5 tests" is not a date.
- A weekday with its date ("Tue 17 Nov", "Tuesday the 17th", "Friday 20/11") is one date: the
  one within half a year of the anchor on that weekday, which also orders 20/11 and 11/20;
  with none, the date as it would be read alone ("Friday 3/4", ambiguous: the weekday).
- Ranges: "from A to B", "between A and B", "A-B", "June 3-7", "3-7 June": one range of days; an end
  without a month takes the start's ("from June 3 to the 7th").
"""
from __future__ import annotations

import bisect
import calendar
import functools
import math
import re
from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta, timezone
from typing import Callable, Literal

Granularity = Literal["day", "week", "month", "quarter", "year"]
Tense = Literal["past", "future", "neutral"]

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
        if self.granularity == "quarter":
            return f"Q{(self.start.month - 1) // 3 + 1} {self.start.year}"
        if self.granularity == "year":
            return str(self.start.year)
        if self.start == self.end:
            return self.start.isoformat()
        if self.start.weekday() == 5 and self.end == self.start + timedelta(days=1):
            return f"weekend of {self.start.isoformat()}"
        return f"{self.start.isoformat()} to {self.end.isoformat()}"

    @property
    def words(self) -> str:
        """The date as a person reads it: "5 May 2026", "the week of 4 May 2026", "June 2026"."""
        if self.granularity == "week":
            return f"the week of {format_human(monday_of(self.start))}"
        if self.granularity != "day":
            return self.label
        if self.start == self.end:
            return format_human(self.start)
        if self.start.weekday() == 5 and self.end == self.start + timedelta(days=1):
            return f"the weekend of {format_human(self.start)}"
        return f"{format_human(self.start)} to {format_human(self.end)}"


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


def _quarter_span(year: int, quarter: int) -> tuple[date, date]:
    start = date(year, 3 * quarter - 2, 1)
    return start, _month_span(date(year, 3 * quarter, 1))[1]


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


def _month_number(name: str) -> int:
    return [n[:3].lower() for n in MONTH_NAMES].index(name[:3].lower()) + 1


# --- tense ---------------------------------------------------------------------------------------
_FUTURE = re.compile(
    r"\b(?:will|won['’]?t|shall|going\s+to|gonna|let['’]?s|scheduled|"
    # (not a plan measured against: "were we over plan in November?" (asked 5 Dec) was asked of
    # next November)
    r"(?<!\bover\s)(?<!\bunder\s)(?<!\bvs\s)(?<!\bvs\.\s)(?<!\bto\s)(?<!\bof\s)"
    r"(?<!\bbehind\s)(?<!\babove\s)(?<!\bbelow\s)(?<!\bagainst\s)(?<!\bhit\s)(?<!\bbeat\s)"
    r"(?<!\bmissed\s)(?<!\bversus\s)(?:plan|plans)\b|"
    # (nouns of a day, not plans: "we agreed in Monday's planning to cut scope", "the deadline
    # was Friday", "the invoice was due Nov 30" are past)
    r"(?<!['’]s\s)(?<!\bthe\s)(?<!\bour\s)(?:planning|deadline|target)|"
    r"schedule|(?<!\bwas\s)(?<!\bwere\s)due|upcoming|coming|next|tomorrow|tmrw|need\s+to|"
    r"needs\s+to|have\s+to|has\s+to|"
    # (a need by a day is a deadline to come: "Umbrella DPA needs signature by Dec 12, … we need
    # SCCs attached", said 2 Dec, was last year's, "attached" read as a deed)
    r"(?:need|needs|requires)(?=\s+(?:[\w'’-]+\s+){0,3}?by\b)|"
    r"must|should|hope\s+to|expect|expected|eta|happens|happening|starts|begins|"
    # (weather to come: "Rain forecast Thursday, pour moved to Monday Dec 7", said on a
    # Wednesday, was the Thursday gone)
    r"forecasts?|forecasted|"
    # (a plan kept: "we agreed …, launch stays on the 15th"; what a day holds, said in the
    # present after what was done: "3.8.4 released with the CVE fix, advisory goes public Dec
    # 9", "rc1 tagged, final planned for Jan 6" were last year's)
    r"stays|remains|goes\s+(?:public|out)|"
    r"(?<!\bwe\s)(?<!\bi\s)(?<!\bthey\s)(?<!\bwas\s)(?<!\bwere\s)(?<!\bhad\s)planned\s+for|"
    r"kicks\s+off|lands|ships|launches|goes\s+live|booked|slated|supposed|tentatively|"
    # (a plan's -ing: "finance approved the GPU nodes, arriving week of Dec 14" was last year's)
    r"arriving|arrives|landing|launching|shipping\s+(?:on|in|by|the)|"
    r"can\s+we|could\s+we|shall\s+we|would|until|till|is\s+on|are\s+on|is\s+set\s+for)\b"
    r"|\w['’]ll\b", re.IGNORECASE)
_PAST = re.compile(
    r"\b(?:was|were|did|didn['’]t|wasn['’]t|weren['’]t|had|hadn['’]t|went|came|got|said|told|"
    r"met|saw|ran|took|made|left|broke|fell|won|lost|gave|began|found|thought|bought|sold|sent|"
    r"wrote|spent|paid|held|kept|heard|felt|built|brought|caught|taught|ate|drove|flew|forgot|"
    r"grew|froze|"
    # (a hyphenated adjective is no verb: "usage-based billing", "AI-powered search")
    r"ago|yesterday|already|earlier|(?<!-)\w{3,}ed)\b", re.IGNORECASE)
# -ed words that do not make a clause past: passives and adjectives after a form of "be" ("is
# scheduled", "we're booked", asked "is the office closed …?"), and words of planning.
_NOT_PAST = re.compile(
    r"(?:\b(?:is|are|am|be|been|being|get|gets|getting|['’]s|['’]re|['’]m)\s+\w+ed\b)|"
    # the same asked: "is the office closed on Jan 1?", "are the docs updated?"
    r"(?:^\W*(?:is|are|am|will\s+\w+\s+be)\s+(?:\w+\s+){1,3}?\w+ed\b)|"
    r"\b(?:scheduled|planned|expected|supposed|booked|slated|needed|required|intended|hoped|aimed|"
    r"targeted|pencill?ed|speed|indeed|embed|exceed|proceed|succeed|breed)\b|"
    # these "un-" participles are states, not deeds ("unblocked", "unpublished" are done): "…,
    # untagged resources get a weekly report" (said 4 Dec of "tags by Dec 15": last year's)
    r"\bun(?:tagged|assigned|resolved|paid|used|label?led|answered|reviewed|tested|merged|"
    r"claimed|supported|planned|scheduled|expected|finished|addressed|released|signed|verified|"
    r"approved|triaged|owned|staffed|funded|documented|related|attended)\b|"
    # what a release is to take out, named by its number: "3.9 dropped in 6.0 (March), 5.x keeps
    # it" (said 3 Dec) is next March
    r"\b(?:dropped|removed|deprecated|deleted)\s+in\s+v?\d+(?:\.\d+)+\b|"
    # "paid" of a channel or a plan, no deed: "budget for Q1 paid social is $45k" (said 24 Nov)
    # was last Q1
    r"\bpaid\s+(?:social|search|ads?|media|marketing|acquisition|channels?|plans?|tiers?|users?|"
    r"customers?|accounts?|keys?|seats?|versions?|features?|subscriptions?|leave|time\s+off)\b|"
    # a passive after "get" or "be" whose verb is irregular: "submit invoices before Dec 15 to
    # get paid this year" (said 2 Dec) was last year's ("has been sent on Monday" is done, and
    # "got paid" keeps its "got")
    r"\b(?:get|gets|getting|got|be)\s+(?:paid|sent|done|made|built|sold|told|given|"
    r"taken|seen|shown|chosen|written|brought|caught|bought|found|kept|held|hit|cut|set|put)\b|"
    # what a notice offers meanwhile: "office closed Dec 25 and Jan 1, otherwise open with
    # reduced hours" (said 1 Dec) was last Christmas
    # ("we reduced hours on Monday" stays done)
    r"\b(?:with|on|at|under|during)\s+(?:reduced|extended|limited|shortened|adjusted|discounted)"
    r"\s+(?:opening\s+)?(?:hours|"
    r"capacity|staff(?:ing)?|rates?|prices?|service|schedule|menu)\b|"
    # a day held for what is to come: "gig at The Lantern confirmed for Dec 12, load-in 6pm"
    # (said 10 Nov) was last year's
    r"\b(?:confirmed|reconfirmed|accepted|approved|locked\s+in|reserved)\s+for\b|"
    # a kind of rollout is no deed: "4.12 approved! releasing to 10% phased rollout Monday"
    # (said on a Friday) was the Monday gone
    r"\b(?:phased|staged|staggered|gated|tiered|dedicated)\s+(?:roll-?outs?|releases?|launch|"
    r"deploy\w*|migration|cutover|approach)\b|"
    # where a thing is kept: "Initech NDA expires Dec 31, renewal draft in the shared drive" (said
    # 3 Dec) was last year's ("shared" read as a deed)
    r"\b(?:shared|dedicated|pinned|linked|protected|encrypted|hosted|managed)\s+(?:drive|"
    r"folder|docs?|document|calendar|inbox|channel|mailbox|account|repo|space|sheet|"
    r"spreadsheet|workspace|vault)s?\b",
    re.IGNORECASE)
# A headline's bare participle says how a thing will be, not what happened: "Reminder: office
# closed Friday", "heads up: standup cancelled on Thursday" (said on the Monday before). Someone
# or a determiner before it ("we closed", "the office closed"), or an object after it ("Jun
# cancelled standup on Thursday"), keeps it past.
_HEADLINE_STATE = re.compile(
    r"^\W*(?:(?!(?:i|we|you|they|he|she|it|someone|somebody|everyone|the|a|an|this|that|our|"
    r"my|your|their|his|her)\b)[a-z][\w-]*\s+){1,3}"
    r"(?:closed|cancell?ed|postponed|suspended|paused|reserved|confirmed|rescheduled|delayed)"
    r"(?=\s+(?:on|for|this|next|from|until|till|through|today|tomorrow|tonight|mon|tue|wed|thu|"
    r"fri|sat|sun)|\s*[,.!;:)]|\s*$)", re.IGNORECASE)
# A place's closure is a notice of days to come, whatever follows: "Office closed Dec 24 - Jan 2.",
# "Support closed the Friday before Christmas" (said in November, each was last year's; "Ticket
# closed Nov 3" stays past)
_CLOSURE_NOTICE = re.compile(
    r"(?i)^\W*(?:(?:reminder|heads[- ]up|fyi|note|notice|psa)\W+)?"  # ("the office closed": past)
    # (its days first: "Dec 24-26 office closed, also Jan 1" was last year's, said in November)
    r"(?:(?:[\w.\u2013-]*\d[\w.\u2013-]*|"
    r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?)[,:]?\s+){0,3}"
    r"(?:office|offices|hq|support|store|shop|school|warehouse|building|campus|site|lab|cafe|"
    r"cafeteria|canteen|kitchen|gym|bank|banks|markets?|factory|plant|clinic|help\s*desk)"
    r"\s+(?:is\s+|are\s+|will\s+be\s+)?(?:closed|shut)\b"
    # (or no place said, the notice itself: "closed Dec 24th to Jan 2nd, enjoy the break")
    r"|^\W*(?:(?:reminder|heads[- ]up|fyi|note|notice|psa)\W+)?(?:closed|shut)\s+(?:from\s+|"
    r"on\s+|between\s+)?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|mon|tue|wed|thu|fri|"
    r"sat|sun)")
_SENTENCE = re.compile(r"[^.!?\n]+(?:[.!?](?=\w)[^.!?\n]*)*?(?=[.!?](?:\s|$)|\n|$)")
_SEGMENT = re.compile(r"[^:;]+")  # a header ("Tuesday update: ...") has a tense of its own
_CLAUSE = re.compile(r"(?:[^,]|,(?=\d))+?(?=,\s|\s(?:and|but|so|because|then|while|whereas|"
                     r"although|though|that)\s|$)", re.IGNORECASE)
# A date something was moved to, or a change starts from, is one to come, whatever the tense: "the
# retro got moved to Friday", "we decided to raise the limit, starting Monday" (said on a Tuesday).
# their stems (memory.moves); a deadline "extended to Dec 11" moved too
MOVE_VERBS = r"(?:mov|push|postpon|reschedul|delay|shift|bump|slipp?|extend)"
# (in Spanish, Portuguese, French, German, Italian: "se mueve", "pospuesta", "aplazado",
# "verschoben", "verlegt", "déplacé", "adiado", "spostato", "rinviato")
FOREIGN_MOVE_VERBS = r"(?:mov|muev|pospo|aplaz|verschob|verleg|d[ée]plac|adiad|spostat|rinvi)"
# "slips to Dec 15", "moved", "pushed"
# more time given: "publisher gave us until Dec 9 for milestone 3" (after "… due Friday Dec 4")
GIVEN_UNTIL = (r"\b(?:gave|give[ns]?|granted|grants?)\s+(?:us|them|you|me|him|her|the\s+team)\s+"
               r"(?:an?\s+extension\s+|(?:a\s+few\s+|\w+\s+)?more\s+days?\s+)?(?:until|till|"
               r"through|to)\s+")
SAYS_MOVED = re.compile(rf"(?i)\b(?:{MOVE_VERBS}|{FOREIGN_MOVE_VERBS})\w*|{GIVEN_UNTIL}")
_MOVED_TO = re.compile(rf"\b{MOVE_VERBS}\w*\s+"
                       # (its particle: "Board meeting moved up to Dec 14 from Dec 17", said 3
                       # Dec, was last year's Dec 17)
                       r"(?:(?:up|back|out|forward|ahead)\s+)?"
                       # (a ticket's or a version's name between: "Apple delayed PO-7712
                       # shipment to Jan 6", said 4 Dec, was last January's)
                       # (or the day it had: "we moved the Dec 12 party to Dec 13")
                       r"(?:[\w#.-]+\s+){0,5}?(?:to|until|till|from)\s+(?:the\s+)?$"
                       # the day said again beside it: "pilot kickoff moved to the Tuesday
                       # after, Dec 8" (said 20 Nov 2026, "Dec 8" was read as December 2025)
                       rf"|\b{MOVE_VERBS}\w*\s+(?:[\w#.-]+\s+){{0,3}}?(?:to|until|till)\s+"
                       r"[^.;!?\n,]{1,30},\s+$"
                       rf"|\b{MOVE_VERBS}\w*\s+(?:[\w'’]+\s+){{0,4}}?from\s+[^.;!?\n]{{1,40}}?\s+"
                       r"(?:to|until|till)\s+$"
                       r"|\b(?:starting|beginning|effective|commencing)\s+(?:on\s+|from\s+)?$",
                       re.IGNORECASE)
# "moved from Thursday to next Tuesday" is two days, the old and the new, not a range between them
# (the vendor call was answered "26 November", the day it no longer is on); the old is a day that
# was to come as well ("pushed the launch from Dec 3 to Dec 10" said in November: this Dec 3)
# the day a moved thing had, said after its new one: "Health inspection moved to Dec 10, was Dec
# 8" (said 3 Dec) was last year's Dec 8, its "was" read as the past; it is the nearest such day
_WAS_BEFORE_MOVE = re.compile(rf"(?i)\b{MOVE_VERBS}\w*\s+[^.;!?\n]{{1,60}}?(?:,\s*\(?|\s*\()"
                              r"(?:it\s+|that\s+)?(?:was|were|previously|originally|formerly|"
                              r"instead\s+of|not)\s+(?:(?:on|for|set\s+for)\s+)?(?:the\s+)?$")
_MOVED_FROM = re.compile(rf"\b(?:{MOVE_VERBS}|chang|switch)\w*\s+(?:[\w'’]+\s+){{0,4}}?from\s+$",
                         re.IGNORECASE)
# Chat markup (Slack's *bold* _italic_ ~strike~, Markdown's `code`) read as spaces, which keeps
# every position: "moved to *December 10th*" was read without its "moved to" (December 2025),
# and "_Thursday_" was no date at all (an underscore is part of a word).
MARKUP = "*_~`"
_MARKUP_AS_SPACE = str.maketrans(MARKUP, " " * len(MARKUP))


# The present progressive of a plan says what is to come: "we're deprecating the v1 API on Jan
# 15" (said in November, then "customers were emailed today") was read as last January. Only
# verbs of plans and moves: "we're seeing errors", "it's amazing" say nothing of the future,
# and "since" ties a date to the past ("we're having issues since Nov 3").
_PLAN_VERBS = (r"(?:deprecat|sunsett|retir|remov|dropp|shipp|releas|launch|roll|migrat|"
               r"switch|mov|leav|fly|travell?|head|visit|host|hold|throw|do|meet|start|kick|end|"
               r"clos|open|turn|shutt|cutt|freez|upgrad|kill|disabl|enabl|deploy|publish|"
               r"present|return|tak|celebrat|attend|runn|pick|fli|chang|rais|lower|bump|flipp|"
               r"sign|hir|onboard|offboard|interview|add|"
               # a change to come: "rent is going up to $2,400 starting January, landlord
               # emailed" (said in November) was last January
               r"go|increas|decreas|ris)ing\b")
_PLANNED_PROGRESSIVE = re.compile(
    r"(?:\b(?:am|is|are)|['’](?:m|re|s))\s+(?:(?:also|now|just|finally|officially|probably|"
    rf"definitely)\s+)?{_PLAN_VERBS}", re.IGNORECASE)
# A clause that starts with such a verb, its "we're" left out, as a note after what was done:
# "ordered the 16 GB instances, switching over Monday" (said on a Wednesday: the next Monday).
# Past words in the clause keep it past ("switching over on Monday went fine").
_BARE_PLANNED = re.compile(rf"^\W*(?:(?:and|then|now|so)\s+)?(?:{_PLAN_VERBS}"
                           # or a note of what to do again later: "Node 22 upgrade blocked on
                           # sharp, revisit in January" (said in December) was last January
                           r"|(?:revisit|re-?evaluate|reassess|retry|re-?try|re-?check|"
                           r"check\s+back|circle\s+back|follow\s+up|try\s+again|pick\s+(?:it|"
                           r"this|that)\s+(?:back\s+)?up)\b"
                           # or the state a change left: "my flight changed, now out Dec 22 -
                           # Jan 2" (said 3 December) was last year's
                           r"|now\b"
                           # or what is needed, its subject left out: "CPU peaked at 88% during
                           # the Black Friday rush, need a bigger box before Christmas" (said 4
                           # December) was last Christmas
                           r"|(?:need|needs)\s+(?:a|an|to|more|the|some|another)\b"
                           r"|(?:must|should|gotta|have\s+to|has\s+to)\s+\w"
                           # or a go given: "rc2 QA passed, go for Monday" (said on a Friday)
                           r"|(?:go|good\s+to\s+go)\s+for\b)", re.IGNORECASE)
_SINCE = re.compile(r"\bsince\b", re.IGNORECASE)


@functools.lru_cache(maxsize=256)  # (a clause's tense, read once for all the dates in it)
def _tense_of(text: str) -> Tense:
    if _FUTURE.search(text) or (_PLANNED_PROGRESSIVE.search(text) and not _SINCE.search(text)):
        return "future"
    past = (len(_PAST.findall(text)) - len(_NOT_PAST.findall(text))
            - (1 if _HEADLINE_STATE.search(text) or _CLOSURE_NOTICE.search(text) else 0))
    if past > 0 or _THANKS_FOR.search(text):
        return "past"
    return "future" if _BARE_PLANNED.match(text) and not _SINCE.search(text) else "neutral"


# what thanks are for was done: "shoutout to @maya for fixing the billing export over the
# weekend" (said Tuesday) is the weekend just gone, not the one to come
_THANKS_FOR = re.compile(r"(?i)\b(?:thanks?|thank\s+you|ty|kudos|shout-?out|props|hats\s+off|"
                         r"grateful|appreciate\w*)\b[^.!?]{0,40}?\bfor\s+\w+ing\b")


def _span_around(pattern: re.Pattern, text: str, pos: int, offset: int = 0) -> tuple[int, int]:
    spans = _spans(pattern, text)
    i = bisect.bisect_right(spans, (pos, math.inf)) - 1  # the last match starting at or before
    if i >= 0 and pos < max(spans[i][1], spans[i][0] + 1):
        return offset + spans[i][0], offset + spans[i][1]
    return offset, offset + len(text)


# A text's sentences (segments, clauses), found once for all the dates in it: found again for
# each date, 1,000 dates in one 10 KB message took 15 s of a worker's CPU. The cache is
# functools' (safe to share between threads) and holds the few texts being read.
@functools.lru_cache(maxsize=64)
def _spans(pattern: re.Pattern, text: str) -> tuple[tuple[int, int], ...]:
    return tuple(m.span() for m in pattern.finditer(text))


def tense_at(text: str, pos: int) -> Tense:
    """The tense of the clause around `pos`; a clause with neither marker takes its segment's (the
    sentence up to a colon or semicolon): "On Friday, we shipped" is past, "Tuesday update: the
    sync happens on Friday" has a tenseless header."""
    s0, s1 = _span_around(_SENTENCE, text, pos)
    g0, g1 = _span_around(_SEGMENT, text[s0:s1], pos - s0, s0)
    c0, c1 = _span_around(_CLAUSE, text[g0:g1], pos - g0, g0)
    if _INTENDED_TO.search(text[c0:pos]):
        return "future"
    if _THE_DAYS_THING_MOVED.match(text, pos) and text[max(0, pos - 4):pos].lower() == "the " \
            or _MOVED_THE.search(text, max(0, pos - 40), pos):
        # the day a thing had, named by it, moved since: "the Dec 12 party moved to Dec 13",
        # "we moved the Dec 12 party to …" (said 2 Dec) were last year's Dec 12, "moved"
        # lending its past
        return "neutral"
    if _DAYS_THING_DONE.match(text, pos) or _record_from(text, pos):
        # (a record of a day is of a day gone: "need the council minutes from Nov 18" (said 1
        # Dec) was next November's, "need" looking ahead; not "photos from Dec 20 to Dec 24")
        return "past"
    clause = _tense_of(text[c0:c1])
    if clause == "past" and c0 > g0 and _BARE_PARTICIPLE.match(text[c0:pos]) \
            and _SAID_AS_PRESENT.search(text[g0:c0]):
        # a participle with no subject of its own, after a clause in the present, is that
        # clause's: "Q4 bonus accrual is $312k, finalized after comp committee on Dec 15" (said
        # 4 Dec) was last year's Dec 15, "finalized" lending its past
        return "neutral"
    if clause == "past" and _IS_THE_DAY.search(text[c0:pos]) \
            and not _PAST_AUXILIARY.search(text[c0:pos]):
        # a day that something is, whatever participle names it: "Coordinated disclosure date
        # for the CVE is Dec 9" (said 2 Dec) was last year's
        return "neutral"
    if clause == "neutral" and (_ASKED_TO.match(text[c0:c1])
                                or _IS_NOW.search(text[c0:c1])):
        # (its own past stays: "please note we closed on Monday"); and what a thing is now
        # said after what was done: "done, webinar is now Dec 10 at 2pm ET, updated the
        # invite" (said 5 Dec) was last year's
        return "future"
    if clause == "neutral" and _SCHEDULED.match(text[c0:pos]):
        # a meeting named and its day, no verb: a schedule, whatever was done before it: "Priya
        # passed the phone screen, onsite Thursday 2pm, panel is omar, li and me" (said on a
        # Wednesday) was the Thursday gone
        return "neutral"
    if clause == "neutral" and _EVENT_BEFORE.match(text[c0:pos]) and _AT_A_CLOCK.match(text, pos):
        # an event named, its day and its hour: "playtest Saturday at 2pm, 12 testers
        # confirmed" (said on a Wednesday) was the Saturday gone; without an hour, what was
        # done may be the event's ("yoga class Saturday, loved it")
        return "neutral"
    if clause == "neutral" and _PRESENT_CLAUSE.search(text[c0:c1]):
        # a clause with its own subject and present verb keeps no other clause's past: "Hooli
        # call went well, they want a pilot in Q1" (said 1 Dec) is the Q1 to come
        return "neutral"
    if _MONTH_ALONE_AT.match(text, pos) and _ACCOUNTS_FOR.search(text[c0:pos]):
        # a month's accounts are of a month that has begun, whatever the tense, written after
        # them too: "Expense reports for November are due Dec 5" (said 2 Dec) was next
        # November's (as "November expenses due by Dec 7" was)
        return "past"
    if clause != "neutral":
        return clause
    if _THE_MONTH_OF.match(text, pos) and _THE_BEFORE.search(text[c0:pos]):
        # a month naming a thing of it is the nearest such month, not a tense elsewhere in its
        # sentence: "$1,200 credit for the November outage, applied to their next invoice"
        # (said 2 Dec) was next November's
        return "neutral"
    if (c0 > g0 or c1 < g1) and (_DAY_VERB_BEFORE.search(text, c0, pos)
                                  or _IS_THE_DAY.search(text[c0:pos])):
        # a clause of its own that says its day with a verb in the present keeps no other
        # clause's past: "unit 3B lease ends Jan 31, tenant gave notice" (said 30 Nov) was last
        # January's
        return "neutral"
    segment = _segment_tense(text[g0:g1])
    if segment == "past" and c0 > g0 and _DAY_OF_MONTH_AT.match(text, pos):
        # a day of a month set off by itself after what was done is the nearest such day, not
        # the past one the done lends: "We got a 10x10 booth at DevWorld, Feb 17-19 in Austin"
        # (said 24 Nov) was last February's; "Deployed to prod, Dec 1" (said 4 Dec) stays past
        return "neutral"
    return segment


_THE_DAYS_THING_MOVED = re.compile(
    rf"(?i)[a-z]{{3,9}}\.?\s+\d{{1,2}}(?:st|nd|rd|th)?\s+[a-z][\w-]*(?:\s+[a-z][\w-]*)?\s+"
    rf"(?:was\s+|has\s+been\s+|got\s+|is\s+(?:being\s+)?)?{MOVE_VERBS}\w*")
_MOVED_THE = re.compile(rf"(?i)\b{MOVE_VERBS}\w*\s+(?:the|our|their|my|your)\s+$")
_IS_THE_DAY = re.compile(r"(?i)\b(?:is|are)\s+(?:(?:on|now|still|set\s+for)\s+)?(?:the\s+)?$")
_PAST_AUXILIARY = re.compile(r"(?i)\b(?:was|were|did|had|has|have|been)\b")


_PRESENT_CLAUSE = re.compile(r"(?i)\b(?:i|we|you|they|he|she)\s+(?:want|need|plan|expect|hope|"
                             r"intend|would\s+like|are|am|can|should|must)\b|"
                             # "Auditor moved fieldwork to Jan 19, their team is short-staffed in
                             # January" (said 4 Dec: the January gone)
                             r"\b(?:their|our|the|his|her|its)\s+(?:[\w-]+\s+)?\w+\s+(?:is|are)\s+"
                             r"(?!\w+ed\b)|"
                             r"\b(?:he|she|it)\s+(?:wants|needs|plans|expects|hopes|intends|is|"
                             r"can|should|must)\b|"
                             # "Mia's laptop didn't arrive, IT says Wednesday" (said Monday)
                             r"\b(?:says|expects|estimates|promises|thinks)\b|"
                             # a schedule's verb: "clinic closes at 3pm on Dec 24, closed Dec 25"
                             # (said 3 Dec) was last Christmas Eve, "closed" lending its past
                             r"\b(?:closes|opens|reopens|starts|ends|begins|finishes|shuts|"
                             r"kicks\s+off|wraps\s+up)\s+(?:at|on|early|late|from|until|till|"
                             r"through|by)\b")


_BARE_PARTICIPLE = re.compile(r"(?i)^[\s,]*(?:and\s+)?\w+ed\s+(?:after|once|when|at|by|before|"
                              r"following|pending|at\s+the)\b")
_SAID_AS_PRESENT = re.compile(r"(?i)\b(?:is|are)\s+(?!\w+ed\b)(?![^,]*\b(?:was|were)\b)")


# (what comes before the date in its clause: a meeting or a plan's day named, "onsite Thursday
# 2pm", "kickoff the week of Dec 14")
_SCHEDULED = re.compile(
    r"(?i)^\W*(?:(?:and|then|so|next|plus)\s+)?(?:(?:the|our|her|his|their|my|your|a)\s+)?"
    # (two words before it: "EXP-214 restarted, new end date Dec 18", said 4 Dec, was last year's)
    r"(?:[\w'’-]+\s+){0,2}?(?:onsite|on-site|interview|call|meeting|sync|demo|retro|standup|"
    r"stand-up|kickoff|kick-off|lunch|dinner|offsite|workshop|training|presentation|"
    r"follow-?up|check-?in|1:1|debrief|walkthrough|panel|screen|review|launch|release|"
    r"cutover|go-live|party|flight|"
    # (a thing ordered, and its day: "Ordered 2TB volumes for db-3, delivery Thursday", said on
    # a Monday, was the Thursday gone)
    r"delivery|arrival|pickup|install|installation|shipment|handoff|date|deadline|eta)s?\s+"
    r"(?:is\s+)?(?:now\s+)?"
    r"(?:on\s+|at\s+|in\s+)?"
    r"(?:the\s+week\s+of\s+)?$")
_EVENT_BEFORE = re.compile(r"(?i)^\W*(?:(?:the|our|a)\s+)?(?:[\w'’-]+\s+)?(?:playtest|rehearsal|"
                           r"recital|concert|match|game|tournament|practice|drill|tour|visit|"
                           r"hackathon|potluck|appointment|clinic|class|session|event|"
                           r"meetup|ceremony)s?\s+(?:is\s+)?(?:on\s+)?$")
_AT_A_CLOCK = re.compile(r"(?i)[\w ,.-]{2,25}?\s+(?:at\s+|@\s*)?\d{1,2}(?::\d{2})?\s*(?:am|pm)\b")
# (and "I'm now out Dec 21-24 instead", after "my trip moved", said 2 Dec: last year's)
_IS_NOW = re.compile(r"(?i)\b(?:is|are|am|['’]s|['’]re|['’]m)\s+now\b")
# what someone is asked to do is to be done: "14 open issues labeled needs-repro, please take a
# look before Monday" (said on a Friday) was the Monday gone, "labeled" making the sentence past
_ASKED_TO = re.compile(r"(?i)^\W*(?:(?:and|so|then|but)\s+)?(?:please|pls|plz|kindly|"
                       r"make\s+sure|remember\s+to|don['’]?t\s+forget)\b")


# a date after what was agreed or decided to do is when it is to be done: "we agreed to move
# billing to the new ledger in Q1" (said in December) is next Q1, not the one the agreeing past
_INTENDED_TO = re.compile(r"(?i)\b(?:agreed|decided|promised|committed|intend|intends|intended|"
                          r"aim|aims|aimed|plan|plans|planned)\s+to\s+(?!be\b|have\b)[a-z]+|"
                          # "SSO committed for Q2" (said 4 Dec: it was the Q2 gone)
                          # (and "Budget approved for Q1", said 30 Nov: the Q1 to come)
                          # (the day right after it: "Refund approved for Globex: $1,200 credit
                          # for the November outage", said 2 Dec, is the November gone)
                          r"\b(?:committed|promised|earmarked|slated|approved|budgeted|"
                          r"allocated|funded)\s+for\s+(?:\w+\s+)?$|"
                          # what is on again, or still, is on for a day to come: "Microsoft
                          # approved the Teams app 🎉 email back on for Tuesday" (said on a
                          # Friday) was the Tuesday gone
                          r"\b(?:back|still)\s+on\s+for\s+(?:the\s+)?$|"
                          # what a notice or an invite is for is to come, whenever it was sent:
                          # "sent the downtime notice to analytics for Dec 8" (said 2 Dec) was
                          # last year's, "sent the invite for Friday" the Friday gone
                          r"\b(?:notice|invite|invitation|reminder|reservation|rsvp|"
                          r"calendar\s+hold)s?\b[^.;!?]{0,30}?\bfor\s+(?:the\s+)?$|"
                          # a condition set for a day is to be met: "legal approved a 12%
                          # discount for Initech if they sign by Dec 20" (said 2 Dec) was last
                          # year's, "approved" lending its past
                          r"\b(?:if|unless|once|provided|as\s+long\s+as)\s+(?:they|we|you|he|"
                          r"she|it|i)\s+(?!(?:was|were|had|did)\b)(?![a-z]+ed\b)[a-z]+\b"
                          r"[^.;!?,]{0,30}?$")


# a day's thing said done is that day gone: "Thursday's deploy is out." (said on a Friday) was
# the Thursday to come; not "Raj is out Friday", who is away then
_DAYS_THING_DONE = re.compile(r"(?i)(?:mon|tues|wednes|thurs|fri|satur|sun)day['’]s\s+"
                              r"(?:[\w-]+\s+){1,3}?(?:is|are|was|were|went)\s+(?:now\s+)?"
                              r"(?:out|done|live|finished|over|complete|completed|shipped|"
                              r"deployed|merged|released)\b")


@functools.lru_cache(maxsize=256)
def _segment_tense(segment: str) -> Tense:
    return _tense_of(_BARE_STATUS.sub("", segment))


# A status said in one word is a state, no past event lending its tense to the segment:
# "ADR-020: … Status: proposed, vote on Friday" (said on a Saturday) is the Friday to come.
_RECORD_FROM = re.compile(r"(?i)\b(?:minutes|notes|recordings?|transcripts?|slides|photos|pictures|"
                          r"footage|logs|backups?|snapshots?|screenshots?|videos?|recap|"
                          r"write-?ups?)\s+(?P<from>from\s+(?:the\s+)?)?$")
def _record_from(text: str, pos: int) -> bool:
    """Whether the date at `pos` is what a record is from ("the minutes from Nov 18", "the logs
    from Monday", the preposition inside the date's phrase or not), no range."""
    found = _RECORD_FROM.search(text, max(0, pos - 40), pos)
    return found is not None and (bool(found["from"]) or text[pos:pos + 5].lower() == "from ") \
        and not _RANGE_ON.match(text, pos)


_DAY_VERB_BEFORE = re.compile(r"(?i)\b(?:ends|expires|starts|begins|renews|closes|opens|lapses|"
                              r"launches|goes\s+(?:up|live|out))\s+(?:on\s+|in\s+)?(?:the\s+)?$")
_RANGE_ON = re.compile(r"[^,.;!?\n]{0,15}?(?:\s*[-–]\s*|\s+(?:to|through|thru|until|till)\s+)\w")
_BARE_STATUS = re.compile(r"(?i)(?:^|(?<=,))\s*(?:proposed|approved|accepted|rejected|declined|"
                          r"confirmed|drafted|pending)\s*(?=,|$)")


# --- choosing among candidate dates by tense ---------------------------------------------------
def _by_tense(candidates: list[tuple[date, date]], anchor: date, tense: Tense,
              future_strict: bool = False) -> tuple[date, date]:
    """Past: the latest starting on or before the anchor. Future: the earliest ending on or after
    it (starting strictly after it if `future_strict`). Neutral: the one holding the anchor, else
    the closest."""
    candidates = sorted(candidates)
    if not candidates:  # "June 31": no such day in any year tried
        raise ValueError("no such day")
    if tense == "past":
        before = [c for c in candidates if c[0] <= anchor]
        return before[-1] if before else candidates[0]
    if tense == "future":
        after = [c for c in candidates if (c[0] > anchor if future_strict else c[1] >= anchor)]
        return after[0] if after else candidates[-1]
    holding = [c for c in candidates if c[0] <= anchor <= c[1]]
    if holding:
        return holding[0]
    return min(candidates, key=lambda c: (min(abs((c[0] - anchor).days),
                                              abs((c[1] - anchor).days)), c[0] < anchor))


def _valid_days(year_months: list[tuple[int, int]], day: int) -> list[tuple[date, date]]:
    out = []
    for y, m in year_months:
        try:
            d = date(y, m, day)
        except ValueError:
            continue
        out.append((d, d))
    return out


# --- the rules -----------------------------------------------------------------------------------
# A resolver gets the match, the anchor's date and the tense at the match, and returns
# (start, end, granularity, detail); detail says how it was computed.
Resolution = tuple[date, date, Granularity, str]
AS_WRITTEN = "as written"  # the detail of a date written with its year
Resolver = Callable[[re.Match, date, Tense], Resolution]

_WD_NAMES = (r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|(?-i:Mon|Tues?|Weds?|"
             r"Thu(?:rs?)?|Fri|"
             # (as typed: "globex wants a proposal by next fri" was no date; "mon", "wed",
             # "sat" and "sun" are words too, read only after next, this or last)
             # (not before a date of digits that falls on another day: "fri 3/4")
             r"(?:tues|thurs?|fri)(?!\.?\s+\d{1,2}/\d))\.?")
# Days of a week to come joined by a hyphen, read as a range ("I'm off next Mon-Wed" was no
# date: no date is glued to a hyphen, "today-ish"); a hyphen between days without "next", "this"
# or "last" is left, most often hours ("open Mon-Fri 9-5").
_NEXT_DAYS_HYPHENED = re.compile(
    rf"(?i)(?<![\w-])(?P<days>(?:next|this|last|coming)\s+(?:{_WD_NAMES}|(?-i:mon|tue|wed|thu|"
    rf"sat|sun)\.?))-(?=(?:{_WD_NAMES})(?![\w-]))")
_WD_AFTER_WHICH = rf"(?P<wd>{_WD_NAMES}|(?-i:mon|tue|wed|thu|sat|sun)\.?)"
_WEEKDAY = rf"(?P<wd>{_WD_NAMES})"
_NUM = (r"(?P<n>\d{1,3}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|an?|"
        r"(?:a\s+)?couple(?:\s+of)?|(?:a\s+)?few)")
_UNIT = r"(?P<unit>day|week|wk|month|year|yr)s?"
_NOT_THE = r"(?<!the\s)"  # "the last week of June" is not relative to the anchor
_WHICH = {"last": -1, "this past": -1, "past": -1, "this": 0, "next": 1, "this coming": 1,
          "coming": 1, "previous": -1, "following": 1}
_MONTH_NAME = (r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|(?-i:May|may(?=\s+\d))|"
               r"june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|"
               r"dec(?:ember)?)\.?")
MONTH_WORD = _MONTH_NAME  # (a month's name or its short form, as the rules read it)
_STARTS_FROM = re.compile(r"(?i)\b(?:starting|beginning|effective|commencing)\b")
# a month naming a thing of it, at a date found: "the November outage"
_THE_MONTH_OF = re.compile(rf"(?i){_MONTH_NAME}\s+(?!of\b|and\b|or\b|to\b|through\b|thru\b|"
                           r"until\b|till\b)[a-z]{3,}")
# a day of a month at a date found: "Feb 17", "17th of Feb"
_THE_BEFORE = re.compile(r"(?i)\bthe\s+$")
_ACCOUNTS_FOR = re.compile(r"(?i)\b(?:expenses?|expense\s+reports?|bills?|invoices?|numbers|"
                           r"close|payroll|timesheets?|reports?|statements?|metrics|revenue|"
                           r"spend|actuals|sales|usage|stats|"
                           # ("Payroll accrual for November booked: $612k", said 4 Dec, was next
                           # November's: "booked" is a plan's word)
                           r"accruals?|deferrals?|commissions?|bonus(?:es)?)\s+for\s+$")
# a month with no day after it: "November", not "Nov 20"
_MONTH_ALONE_AT = re.compile(rf"(?i){_MONTH_NAME}(?!\s*\d)")
_DAY_OF_MONTH_AT = re.compile(rf"(?i)(?:\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?)?{_MONTH_NAME}\s+"
                              rf"\d{{1,2}}\b|\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH_NAME}")
# (or an ordinal alone: "moved to the 10th, was the 8th")
_A_DAY_OF_MONTH_AT = re.compile(r"(?i)(?:the\s+)?\d{1,2}(?:st|nd|rd|th)\b|"
                                + _DAY_OF_MONTH_AT.pattern[4:])
_FULL_MONTH = (r"(?:january|february|march|april|(?-i:May)|june|july|august|september|october|"
               r"november|december)")
_SHORT_MONTH = r"(?:jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec)\.?"
_ORD = r"(?:st|nd|rd|th)"
# Words after "the 3rd" that make it an ordinal of something else ("the 3rd floor").
_ORDINAL_NOUNS = (r"(?:floor|time|times|place|option|version|attempt|try|grade|row|column|item|step|"
                  r"line|one|ones|person|people|level|round|game|quarter|half|century|edition|"
                  r"generation|gen|team|slot|iteration|pass|point|page|chapter|paragraph|bullet|"
                  r"commit|call|week|day|month|year|sprint|run|test|case|choice|party|draft|"
                  r"review|name|query|result|comment|reply|message|email|thing|part|stage|phase|"
                  r"tier|rank|position|seat|dose|shot|wave|batch|pr|ticket|issue|largest|biggest|"
                  r"most|best|worst|highest|lowest|last|and\s+(?:\d+)?(?:st|nd|rd|th)\s+\w+|"
                  # a system's counted things: "the 8th retry waits 256 s" was 8 December
                  r"retry|retries|request|percentile|element|entry|record|field|char|character|"
                  r"byte|bit|index|node|worker|replica|shard|partition|layer|instance|server|"
                  r"host|pod|job|task|build|deploy|release|migration|backup|sample|epoch|frame|"
                  r"arg|argument|param|parameter|digit|letter|word|sentence|match|hit|loop|cycle|"
                  r"hour|minute|second|user|customer|candidate|interview|meeting|lap|inning|set|"
                  r"hole|bar|verse|track|episode|season|volume|book|grader|percent|decile|"
                  r"quartile|failure|error|crash|restart|lookup|connection|packet)s?")


def _which(m: re.Match) -> int:
    return _WHICH[" ".join(m["which"].lower().split())]


def _weekday_index(text: str) -> int:
    return [w[:3] for w in WEEKDAYS].index(text.lower()[:3])


def _shift(days: int) -> Resolver:
    def resolve(m: re.Match, d: date, tense: Tense) -> Resolution:
        x = d + timedelta(days=days)
        # its weekday said: "can I deploy today at 4pm?" under "never deploy on Fridays"
        how = (f"a {x:%A}" if days == 0 else
               f"a {x:%A}, {_plural(abs(days), 'day')} {'before' if days < 0 else 'after'} {d}")
        return x, x, "day", how
    return resolve


def _relative_weekday(m: re.Match, d: date, tense: Tense) -> Resolution:
    target, which = _weekday_index(m["wd"]), _which(m)
    name = WEEKDAYS[target].capitalize()
    if which < 0:  # strictly before the anchor's date
        x = d - timedelta(days=(d.weekday() - target - 1) % 7 + 1)
        return x, x, "day", f"the most recent {name} before {d}"
    if which > 0:  # strictly after the anchor's date
        x = d + timedelta(days=(target - d.weekday() - 1) % 7 + 1)
        return x, x, "day", f"the first {name} after {d}"
    x = monday_of(d) + timedelta(days=target)
    return x, x, "day", f"the {name} of the week of {monday_of(d)}"


def _weekdays_ago(m: re.Match, d: date, tense: Tense) -> Resolution:
    target = _weekday_index(m["wd"])
    back = _number(m.groupdict().get("n") or "two")
    last = d - timedelta(days=(d.weekday() - target - 1) % 7 + 1)  # strictly before the anchor
    x = last - timedelta(days=7 * (back - 1))
    return x, x, "day", f"{back} {WEEKDAYS[target].capitalize()}s back from {d}"


def _weekend_before_last(m: re.Match, d: date, tense: Tense) -> Resolution:
    saturday = d - timedelta(days=(d.weekday() - 5) % 7 or 7) - timedelta(days=7)
    return saturday, saturday + timedelta(days=1), "day", f"the weekend before the last one before {d}"


_NTH = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4,
        "last": -1}


def _nth_weekday(m: re.Match, d: date, tense: Tense) -> Resolution:
    target, nth = _weekday_index(m["wd"]), _NTH[m["nth"].lower()]
    month, year = _month_number(m["mon"]), _year_of(m)
    spans = [_month_span(date(y, month, 1)) for y in ((year,) if year else
                                                      (d.year - 1, d.year, d.year + 1))]
    start, end = _by_tense(spans, d, tense)
    days = [start + timedelta(days=k) for k in range((end - start).days + 1)
            if (start + timedelta(days=k)).weekday() == target]
    x = days[nth - 1] if nth > 0 else days[-1]
    return x, x, "day", f"the {m['nth'].lower()} {WEEKDAYS[target].capitalize()} of {start:%B %Y}"


def _weekday_of_week(m: re.Match, d: date, tense: Tense) -> Resolution:
    target, which = _weekday_index(m["wd"]), _which(m)
    x = monday_of(d) + timedelta(days=7 * which + target)
    return x, x, "day", f"the {WEEKDAYS[target].capitalize()} of the week of {monday_of(x)}"


_DEADLINE = re.compile(r"^(?:by|until|till|due|before)\b", re.IGNORECASE)


# "Monday's gateway incident": something that went wrong is past, whatever the clause's tense
# ("the RCA for Monday's incident is in the wiki", said on Wednesday, was the Monday to come)
_INCIDENT_AFTER = re.compile(r"(?:['’]s)?\s+(?!planned\b|scheduled\b)(?:[\w-]+\s+){0,2}?(?:incident|"
                             r"outage|downtime|breach|crash|failure|sev[ -]?\d|page|pages)\b",
                             re.IGNORECASE)
_RECURRING_BEFORE = re.compile(r"\b(?:every|each|most|some|all)\s+(?:other\s+|second\s+|third\s+|"
                               r"2nd\s+|3rd\s+)?$", re.IGNORECASE)
_RECURRING_AFTER = re.compile(r"\s+(?:mornings|afternoons|evenings|nights)\b", re.IGNORECASE)
# The patterns read before a date ("moved … from", "every", "starts on") are shorter than this:
# searched in the whole text before each date, a message of 1,000 dates took 15 s to read.
_LOOK_BACK = 300


def _back(text: str, end: int) -> int:
    """Where the look before `end` starts: _LOOK_BACK characters back, at a word's start."""
    start = max(0, end - _LOOK_BACK)
    if start:
        space = text.find(" ", start, end)
        start = space + 1 if space >= 0 else end
    return start


_FROM_NEXT_WEEK = re.compile(r"(?i)[^.,;!?\n]{0,30}?\b(?:starting|from|beginning|as of|effective)\s+"
                             r"(?:from\s+)?next\s+week\b")


# the week a weekday is of, said after it in its clause ("… to Friday 17:00 UTC this week only")
_THIS_WEEK_AFTER = re.compile(r"(?i)[^.,;!?\n]{0,40}?\bthis\s+week\b")
_THIS_WEEK_BEFORE = re.compile(r"(?i)\bthis\s+week\b(?:\s*\[[^\]]*\])?[^.,;!?\n]{0,40}$")


_DAY_OF_EVENT = re.compile(r"\s+of\s+(?:the\s+|our\s+)?(?!(?:next|this|last|the|that|every|each|"
                           r"week|month|year|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|"
                           r"dec)[a-z]*)\b|[\w-]+\s+week\b)"
                           r"(?:[A-Z][\w-]*|(?:offsite|conference|summit|trip|retreat|event|"
                           r"launch\s+week|hackathon|onsite|workshop|festival|tour)\b)")


# weekdays written with a slash between them are days of a week's schedule: "fish deliveries
# Tue/Fri", "office days are Tue/Thu" (each was the next such day)
_WD_ABBR = r"(?:mon|tue|tues|wed|weds|thu|thur|thurs|fri|sat|sun)(?:day|nesday|rsday|urday)?s?\.?"
_SLASH_WEEKDAY_AFTER = re.compile(rf"(?i)\s*/\s*{_WD_ABBR}\b")
_SLASH_WEEKDAY_BEFORE = re.compile(rf"(?i)(?<![\w/])(?:(this|next|last|coming)\s+)?"
                                   rf"(?:{_WD_ABBR}\s*/\s*)+$")


def _slash_weekday(m: re.Match) -> bool:
    """Whether the weekday is one of a slashed list with no week named before it."""
    before = _SLASH_WEEKDAY_BEFORE.search(m.string, _back(m.string, m.start("wd")),
                                          m.start("wd"))
    if before is not None:
        return not before[1]
    if not _SLASH_WEEKDAY_AFTER.match(m.string, m.end("wd")):
        return False
    return not re.search(r"(?i)\b(?:this|next|last|coming)\s+$",
                         m.string[_back(m.string, m.start("wd")):m.start("wd")])


_INTO_NEXT_DAY = re.compile(r"(?i)\s+(?:night\s+)?into\s+(?:early\s+)?"
                            r"(?P<wd>(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*)\b")
# "the Monday after framing", "the Friday before launch": a day of an event's week, not of a
# time of day ("the Friday before 5pm", "the Monday after lunch")
_COUNTED_FROM_EVENT = re.compile(r"(?i)\s+(?:after|before)\s+(?!\d|noon\b|midnight\b|lunch\b|"
                                 r"breakfast\b|dinner\b|work\b|school\b|class\b|standup\b|"
                                 r"close\b|eod\b|cob\b)\w")
_BEFORE_THAT = re.compile(r"(?i)\s+(?:before|after|prior\s+to)\s+(?:that|then|this|it)\b")


def _bare_weekday(m: re.Match, d: date, tense: Tense) -> Resolution:
    if _RECURRING_BEFORE.search(m.string, _back(m.string, m.start()), m.start()) \
            or _RECURRING_AFTER.match(m.string, m.end()) or _slash_weekday(m):
        raise ValueError("a recurring day, not a date")  # "every Friday", "Thursday mornings"
    if _BEFORE_THAT.match(m.string, m.end()):
        # a day of another day said before it: "the Friday before that we lost Hooli" (after
        # "last Tuesday we signed Initech") was the Friday of the week it was said in
        raise ValueError("a day counted from another, unnamed here")
    if _COUNTED_FROM_EVENT.match(m.string, m.end()) and re.search(
            r"(?i)\bthe\s+$", m.string[_back(m.string, m.start("wd")):m.start("wd")]):
        # "electrician starts rough-in the Monday after framing" (said on a Friday, framing
        # the week after) is no Monday of the week it was said in: its day is framing's
        raise ValueError("a day counted from an event with no date here")
    if _DAY_OF_EVENT.match(m.string, m.end()):
        # a day of something that has days of its own: "my talk is the Wednesday of KubeCon"
        # (said on a Tuesday in December, of a conference in March) was the next day
        raise ValueError("a day of an event, not of the week said in")
    target = _weekday_index(m["wd"])
    name = WEEKDAYS[target].capitalize()
    holiday = _FOR_HOLIDAY.match(m.string, m.end())
    if holiday and not _RECURRING_BEFORE.search(m.string, _back(m.string, m.start()), m.start()):
        # "the office is closed Thursday and Friday for Thanksgiving" (said on Monday 16 Nov):
        # the days of that week, not this one's
        days = [(x, x) for x in (_holiday_in(holiday["hol"], d.year + k) for k in (-1, 0, 1))]
        day, _ = _by_tense(days, d, tense)
        x = monday_of(day) + timedelta(days=target)
        return x, x, "day", f"the {name} of the week of {holiday['hol']} {day}"
    if _FROM_NEXT_WEEK.match(m.string, m.end()):
        # "retro moves to Thursday 15:00 starting next week" (said on a Tuesday): next week's
        # Thursday, not this one
        x = monday_of(d) + timedelta(days=7 + target)
        return x, x, "day", f"the {name} of the week after {d}"
    if _THIS_WEEK_AFTER.match(m.string, m.end()) \
            or _THIS_WEEK_BEFORE.search(m.string, _back(m.string, m.start()), m.start()):
        # "community call moved from Thursday to Friday 17:00 UTC this week only" (said on a
        # Friday): this week's Thursday and Friday, not next week's
        x = monday_of(d) + timedelta(days=target)
        return x, x, "day", f"the {name} of the week of {monday_of(d)} (this week)"
    possessive = re.search(r"['’]s$", m.group(0)) or re.match(r"['’]s\b", m.string[m.end():])
    if possessive and _INCIDENT_AFTER.match(m.string, m.end()):
        tense = "past"  # "the RCA for Monday's gateway incident is in the wiki"
    if tense != "past" and _DEADLINE.match(m["phrase"]):
        tense = "future"
    before = m.string[_back(m.string, m.start()):m.start()]
    if tense == "future" and (_MOVED_FROM.search(before + m.group(0)[:5])
                              or _INSTEAD_OF.search(before)):
        # the day a plan leaves may be today: "2.15 ships Monday instead of Thursday", "moved
        # from Thursday to Monday" (said on a Thursday) left that day, not next week's
        tense = "neutral"
    if tense == "future" and target == d.weekday() \
            and (into := _INTO_NEXT_DAY.match(m.string, m.end())) is not None \
            and _weekday_index(into["wd"]) == (target + 1) % 7:
        # a night into the next day starts today: "the server migration happens overnight
        # Saturday into Sunday" (said on a Saturday morning) had next week's Saturday and
        # tomorrow's Sunday
        tense = "neutral"
    if tense == "past":
        x = d - timedelta(days=(d.weekday() - target) % 7)
        return x, x, "day", f"the most recent {name} on or before {d} (past tense)"
    if tense == "future":
        x = d + timedelta(days=(target - d.weekday() - 1) % 7 + 1)
        return x, x, "day", f"the first {name} after {d} (future tense)"
    x = d + timedelta(days=(target - d.weekday()) % 7)
    return x, x, "day", f"the first {name} on or after {d}"


def _weekend(m: re.Match, d: date, tense: Tense) -> Resolution:
    saturday = monday_of(d) + timedelta(days=5 + 7 * _which(m))
    sunday = saturday + timedelta(days=1)
    return saturday, sunday, "day", f"{saturday} to {sunday}"


def _the_weekend(m: re.Match, d: date, tense: Tense) -> Resolution:
    if d.weekday() >= 5:
        saturday = monday_of(d) + timedelta(days=5)
    else:
        saturday = monday_of(d) + timedelta(days=5 - (7 if tense == "past" else 0))
    sunday = saturday + timedelta(days=1)
    return saturday, sunday, "day", f"{saturday} to {sunday} ({tense} tense)"


def _period(unit: str, d: date, which: int) -> tuple[date, date]:
    if unit == "week":
        start = monday_of(d) + timedelta(days=7 * which)
        return start, start + timedelta(days=6)
    if unit == "month":
        return _month_span(add_months(d.replace(day=1), which))
    if unit == "quarter":
        q = (d.month - 1) // 3 + which
        years, q = divmod(q, 4)
        return _quarter_span(d.year + years, q + 1)
    return date(d.year + which, 1, 1), date(d.year + which, 12, 31)


def _calendar_period(m: re.Match, d: date, tense: Tense) -> Resolution:
    unit = m["unit"].lower()
    start, end = _period(unit, d, _which(m))
    return start, end, unit, f"{start} to {end}"


def _period_part(m: re.Match, d: date, tense: Tense) -> Resolution:
    """Part of a week or month: "early next month" its first ten days, "late next week" Thursday
    to Sunday, "earlier this week" its days before today, "later this month" its days after."""
    unit, part = m["unit"].lower(), m["part"].lower()
    start, end = _period(unit, d, _which(m))
    how = f"part of {start} to {end}"
    if part in ("earlier", "later") and start <= d <= end:
        if part == "earlier":
            return start, max(start, d - timedelta(days=1)), "day", how
        return min(end, d + timedelta(days=1)), end, "day", how
    early = part in ("early", "earlier")
    if unit == "week":
        return (start, start + timedelta(days=2), "day", how) if early else \
            (start + timedelta(days=1), start + timedelta(days=3), "day", how) if part == "mid" \
            else (start + timedelta(days=3), end, "day", how)
    if early:
        return start, start.replace(day=10), "day", how
    if part == "mid":
        return start.replace(day=11), start.replace(day=20), "day", how
    return start.replace(day=21), end, "day", how


def _end_of(m: re.Match, d: date, tense: Tense) -> Resolution:
    unit = (m["unit"] or "").lower()
    unit = {"d": "day", "w": "week", "m": "month", "q": "quarter", "y": "year"}.get(unit, unit)
    which = _which(m) if m["which"] else 0
    edge = m["edge"].lower()
    if unit == "day":
        return d, d, "day", f"same day as {d}"
    start, end = _period(unit, d, which)
    if unit == "week":
        end = start + timedelta(days=4)  # the working week ends on Friday
    x = start if edge in ("start", "beginning") else end
    return x, x, "day", f"the {'first' if x == start else 'last'} day of {start} to {end}"


def _eo(m: re.Match, d: date, tense: Tense) -> Resolution:
    unit = {"D": "day", "W": "week", "M": "month", "Q": "quarter", "Y": "year"}[m["u"].upper()]
    start, end = _period(unit, d, 0) if unit != "day" else (d, d)
    if unit == "week":
        end = start + timedelta(days=4)
    return end, end, "day", f"end of the {unit} of {d}"


def _number(text: str) -> int:
    text = text.lower()
    if text.isdigit():
        return int(text)
    if "couple" in text:
        return 2
    if "few" in text:
        return 3
    return 1 if text in ("a", "an") else _NUMBER_WORDS[text]


_FROM_NOW = re.compile(r"(?i)\bfrom\s+(?:now|today)\b")


def _offset(sign: int) -> Resolver:
    def resolve(m: re.Match, d: date, tense: Tense) -> Resolution:
        n, unit = _number(m["n"]), m["unit"].lower()
        unit = {"wk": "week", "yr": "year"}.get(unit, unit)  # "in 2 wks"
        how = f"{_plural(n, unit)} {'before' if sign < 0 else 'after'} {d}"
        if unit == "day":
            x = d + timedelta(days=sign * n)
            return x, x, "day", how
        if unit == "week":
            # ("2 weeks from today" is that day; "in 2 weeks" about then, its week)
            x = d + timedelta(days=sign * 7 * n)
            return x, x, "day" if _FROM_NOW.search(m.group(0)) else "week", how
        x = add_months(d, sign * n * (1 if unit == "month" else 12))
        if unit == "month":
            return *_month_span(x), "month", f"{how} ({x})"
        return date(x.year, 1, 1), date(x.year, 12, 31), "year", f"{how} ({x})"
    return resolve


def _runs_out(m: re.Match, d: date, tense: Tense) -> Resolution:
    """"good for 90 days", "valid for 3 months": the day it runs out, that long after (a day, not
    the week or month "in 3 months" is about)."""
    n, unit = _number(m["n"]), {"wk": "week", "yr": "year"}.get(m["unit"].lower(),
                                                                  m["unit"].lower())
    x = add_months(d, 12 * n) if unit == "year" else shifted(d, n, unit)
    return x, x, "day", f"{_plural(n, unit)} after {d}, when it runs out"


# "no reply in 3 weeks", "first outage in 2 years", "haven't shipped in a month": a stretch of
# time gone by, no day to come ("Umbrella went dark, no reply in 3 weeks" was dated the week of
# 21 December)
_FOR_A_STRETCH = re.compile(r"(?i)\b(?:no|never|nothing|none|nobody|\w+n['’]t|first|longest|best|"
                            r"worst|highest|lowest|biggest|quietest|busiest)\b[^,.;:!?\n]*$")


# a count of things in a stretch is a rate: "anyone with 1+ session in 28 days" (a definition of
# an active user was dated four weeks on), "3 deploys in 2 days", "twice in a week"
_COUNTED_IN = re.compile(r"(?i)(?:\b\d+\+?|\b(?:once|twice|thrice|one|two|three|a\s+few|several|"
                         r"many))\s+(?:[a-z]+\s+){0,2}?$|\b(?:per|within|every|each)\s+$")


def _in_time(m: re.Match, d: date, tense: Tense) -> Resolution:
    """"in 2 weeks": that far on, but not after words of a stretch gone by, nor a count's
    stretch ("1+ session in 28 days")."""
    if _FOR_A_STRETCH.search(m.string, max(0, m.start() - 60), m.start()) \
            or _COUNTED_IN.search(m.string, max(0, m.start() - 40), m.start()):
        raise ValueError("a stretch of time, not a day")
    return _offset(1)(m, d, tense)


def _after_weekday(m: re.Match, d: date, tense: Tense) -> Resolution:
    """"two weeks from Monday", "3 days after Friday": that many days or weeks after the first
    such weekday to come (it was read as "from Monday" alone, two weeks early)."""
    target, n = _weekday_index(m["wd"]), _number(m["n"])
    unit = {"wk": "week"}.get(m["unit"].lower(), m["unit"].lower())
    if unit not in ("day", "week"):
        raise ValueError("months from a weekday")
    first = d + timedelta(days=(target - d.weekday() - 1) % 7 + 1)
    x = first + timedelta(days=n * (7 if unit == "week" else 1))
    return x, x, "day", f"{_plural(n, unit)} after the first {WEEKDAYS[target].capitalize()} " \
                        f"after {d}"


_HOLIDAYS = (r"christmas\s+eve|christmas(?:\s+day)?|xmas(?:\s+eve)?|new\s+year['’]?s\s+eve|"
             r"new\s+year['’]?s(?:\s+day)?|thanksgiving(?:\s+day)?|boxing\s+day|halloween|"
             r"valentine['’]?s(?:\s+day)?|black\s+friday|cyber\s+monday")
_HOLIDAY_NAME = re.compile(_HOLIDAYS, re.IGNORECASE)
# a weekday before "for Thanksgiving" is of the holiday's week (read by _bare_weekday)
_FOR_HOLIDAY = re.compile(rf"(?i)[^.,;!?\n]{{0,30}}?\b(?:for|over)\s+(?:the\s+)?(?P<hol>{_HOLIDAYS})")


def _holiday_in(name: str, year: int) -> date:
    name = re.sub(r"['’]s?|\s+day$", "", name.lower()).replace("xmas", "christmas")
    name = re.sub(r"\s+", " ", name).strip()
    if name in ("thanksgiving", "black friday", "cyber monday"):
        # the fourth Thursday of November (the US one), and the Friday and Monday after it
        # ("the Black Friday recap deploy" was the next Friday's)
        first = date(year, 11, 1)
        thursday = first + timedelta(days=(3 - first.weekday()) % 7 + 21)
        return thursday + timedelta(days={"thanksgiving": 0, "black friday": 1,
                                          "cyber monday": 4}[name])
    month, day = {"christmas eve": (12, 24), "christmas": (12, 25), "boxing": (12, 26),
                  "new year eve": (12, 31), "new year": (1, 1), "halloween": (10, 31),
                  "valentine": (2, 14)}[name]
    return date(year, month, day)


# A holiday said of every year names none of them (LoCoMo dev: "During Thanksgiving, we usually
# watch a few movies" was labelled 23 Nov 2023, and "what tradition does Tim love during
# Halloween?" computed a day).
_HABITUAL = re.compile(r"(?i)\b(?:usually|always|every|each|often|tradition\w*|typically|"
                       r"normally|(?:love|loves|enjoy|enjoys)\s+(?:to|\w+ing)|favou?rite|annual|"
                       r"yearly)\b")


@functools.lru_cache(maxsize=64)  # (read once for all the holidays of one sentence)
def _habitual(sentence: str) -> bool:
    return bool(_HABITUAL.search(sentence))


def _holiday(m: re.Match, d: date, tense: Tense) -> Resolution:
    """"before Christmas", "the office is closed for Thanksgiving", "New Year's Eve": the day,
    in the year chosen by tense (Thanksgiving is the US one)."""
    sentence = _span_around(_SENTENCE, m.string, m.start())
    if _habitual(m.string[sentence[0]:sentence[1]]):
        raise ValueError("every year's")  # "During Thanksgiving, we usually watch a few movies"
    days = [(x, x) for x in (_holiday_in(m["hol"], d.year + k) for k in (-1, 0, 1))]
    x, _ = _by_tense(days, d, tense)
    return x, x, "day", f"{m['hol']} ({tense} tense)"


_SEASON_GIVEN = re.compile(rf"(?i)\s*(?::|=|\(|(?:is|runs|will\s+be|lasts)(?:\s+from)?|from)\s*"
                           rf"(?:{_MONTH_NAME}\b|\d{{4}}-)")


def _holiday_season(m: re.Match, d: date, tense: Tense) -> Resolution:
    """"over the holidays", "the winter break": 24 December to 1 January, of the season said in
    (from July on, the one to come; in the first half of January, the one just past; else by
    tense). "I'll be offline over the holidays" had no date."""
    sentence = _span_around(_SENTENCE, m.string, m.start())
    if _habitual(m.string[sentence[0]:sentence[1]]):
        raise ValueError("every year's")  # "we usually travel over the holidays"
    if _SEASON_GIVEN.match(m.string, m.end()):
        # its days said: "winter break is Dec 21 - Jan 4" (labelled 24 December to 1 January
        # beside the days the school gave)
        raise ValueError("the season's own days are said")
    if d.month >= 7:
        year = d.year
    elif d.month == 1 and d.day <= 15 or tense == "past":
        year = d.year - 1
    else:
        year = d.year
    return date(year, 12, 24), date(year + 1, 1, 1), "day", \
        f"the holiday season, 24 December {year} to 1 January {year + 1}"


def _before_last(m: re.Match, d: date, tense: Tense) -> Resolution:
    unit = m["unit"].lower()
    start, end = _period(unit, d, -2)
    return start, end, unit, f"{start} to {end}, the {unit} before last"


def _week_after_next(m: re.Match, d: date, tense: Tense) -> Resolution:
    start = monday_of(d) + timedelta(days=14)
    return start, start + timedelta(days=6), "week", f"two weeks after the week of {monday_of(d)}"


def _fortnights(m: re.Match, d: date, tense: Tense) -> Resolution:
    n = _number(m["n"]) if m["n"] else 1
    x = d + timedelta(days=14 * n)
    return x, x, "day", f"{14 * n} days after {d}"


def _business_days(m: re.Match, d: date, tense: Tense) -> Resolution:
    """"in 3 business days", "next working day": weekdays only, counted from the day after."""
    n, x = (_number(m["n"]) if m["n"] else 1), d
    for _ in range(n):
        x += timedelta(days=1)
        while x.weekday() >= 5:
            x += timedelta(days=1)
    return x, x, "day", f"{_plural(n, 'business day')} after {d}"


def _weekday_week(m: re.Match, d: date, tense: Tense) -> Resolution:
    """"Monday week", "a week on Monday" (British): the Monday after next Monday."""
    target = _weekday_index(m["wd"] or m["wd2"])
    x = d + timedelta(days=(target - d.weekday() - 1) % 7 + 1 + 7)
    return x, x, "day", f"a week after the first {WEEKDAYS[target].capitalize()} after {d}"


_NTH_WEEK = {"first": 0, "second": 1, "third": 2, "fourth": 3}


def _week_of_month(m: re.Match, d: date, tense: Tense) -> Resolution:
    """"the first week of January", "the last week of December": its first or last seven days."""
    month, year = _month_number(m["mon"]), _year_of(m)
    spans = [_month_span(date(y, month, 1)) for y in ((year,) if year else
                                                      (d.year - 1, d.year, d.year + 1))]
    start, end = _by_tense(spans, d, _upcoming(tense))
    nth = m["nth"].lower()
    if nth == "last":
        return end - timedelta(days=6), end, "day", f"the last seven days of {start:%B %Y}"
    first = start + timedelta(days=7 * _NTH_WEEK[nth])
    return first, first + timedelta(days=6), "day", f"days {first.day}-{first.day + 6} of " \
        f"{start:%B %Y}"


def _half_year(m: re.Match, d: date, tense: Tense) -> Resolution:
    """H1 / H2, with its year or the one the tense points to."""
    h = int(m["h"] or m["h2"])
    year = _year_of(m) or (int(m["year2"]) if m["year2"] else None)
    spans = [(date(y, 1, 1), date(y, 6, 30)) if h == 1 else (date(y, 7, 1), date(y, 12, 31))
             for y in ((year,) if year else (d.year - 1, d.year, d.year + 1))]
    start, end = _by_tense(spans, d, _upcoming(tense))
    return start, end, "day", AS_WRITTEN if year else f"the H{h} nearest {d} ({tense} tense)"


def _year_of(m: re.Match) -> int | None:
    y = m.groupdict().get("year")
    if not y:
        return None
    y = y.lstrip("'’")
    return int(y) if len(y) == 4 else 2000 + int(y)


def _upcoming(tense: Tense) -> Tense:
    """A day said without tense is one to come: "I'm out the 3rd", "the 22nd works"."""
    return "past" if tense == "past" else "future"


def _year_detail(d: date, tense: Tense) -> str:
    return (f"the most recent on or before {d} (past tense)" if tense == "past"
            else f"the first on or after {d}")


def _day_month(m: re.Match, d: date, tense: Tense) -> Resolution:
    """A day of a named month, with or without its year."""
    return _month_day(_month_number(m["mon"]), int(m["day"]), _year_of(m), d, tense)


def _month_day(month: int, day: int, year: int | None, d: date, tense: Tense) -> Resolution:
    """A day of a month: in its year if written, else the nearest one the tense points to (a
    day of the last few weeks said with no tense is that one: "Nov 30 – Dec 2 offsite recap",
    said on 3 December, was read as next year's)."""
    if year is not None:
        x = date(year, month, day)
        return x, x, "day", AS_WRITTEN
    days = _valid_days([(d.year + k, month) for k in (-1, 0, 1)], day)
    if tense == "neutral":
        past = _by_tense(days, d, "past")[0]
        if timedelta(0) < d - past <= _RECENT_PAST:
            return past, past, "day", f"the most recent before {d} (within {_RECENT_PAST.days} days)"
    x = _by_tense(days, d, _upcoming(tense))[0]
    return x, x, "day", _year_detail(d, tense)


_RECENT_PAST = timedelta(days=31)  # a month-day without tense this recent is not next year's


def _numeric(m: re.Match, d: date, tense: Tense) -> Resolution:
    """a/b[/year]: month first when the second number is over 12 (US), day first when the first
    is (European); both 12 or under is ambiguous and left alone (ValueError)."""
    a, b, year = int(m["a"]), int(m["b"]), _year_of(m)
    if m["sep"] == ".":
        day, month = a, b
    elif a > 12 >= b:
        day, month = a, b
    elif b > 12 >= a:
        day, month = b, a
    else:
        raise ValueError("ambiguous numeric date")
    return _month_day(month, day, year, d, tense)


def _numeric_moved_to(m: re.Match, d: date, tense: Tense) -> Resolution:
    """a/b after a move's "to" ("slip to 12/22", "pushed back to 1/14"); after another "to",
    none ("up to 3/4 of the budget")."""
    if not _MOVED_TO_BEFORE.search(m.string, max(0, m.start() - 40), m.start()):
        raise ValueError("no move before it")
    return _numeric(m, d, tense)


_MOVED_TO_BEFORE = re.compile(rf"(?i)\b{MOVE_VERBS}\w*\s+(?:back\s+|out\s+)?to\s+$")


def _weekday_date(m: re.Match, d: date, tense: Tense) -> Resolution:
    """"Tuesday 17 November", "Tue, Nov 17th", "Friday 20/11", "Tuesday the 17th": the date
    within half a year of the anchor that falls on the weekday written (said on 26 Nov 2026,
    "Tue 17 Nov" is 17 Nov 2026, not the coming Tuesday and 17 Nov 2027); the weekday also
    orders 20/11 and 11/20. A date on no such weekday is read without its weekday, and an
    ambiguous 3/4 as the weekday alone."""
    groups = m.groupdict()
    target, year, day = _weekday_index(m["wd"]), _year_of(m), int(groups.get("day") or 0)
    years = [year] if year is not None else [d.year - 1, d.year, d.year + 1]
    if groups.get("mon"):
        days = [(y, _month_number(m["mon"]), day) for y in years]
    elif groups.get("a"):
        a, b = int(m["a"]), int(m["b"])
        days = [(y, month, n) for y in years for n, month in dict.fromkeys([(a, b), (b, a)])]
    else:  # "the 17th": of the months around the anchor
        days = [(x.year, x.month, day) for k in (-1, 0, 1)
                if (x := add_months(d.replace(day=1), k))]
    matching = [c for y, month, n in days for c in _valid_days([(y, month)], n)
                if c[0].weekday() == target and abs((c[0] - d).days) <= _WEEKDAY_DATE_REACH]
    if matching:
        x = _by_tense(matching, d, "neutral")[0]
        return x, x, "day", (AS_WRITTEN if year is not None else
                             f"the {WEEKDAYS[target].capitalize()} {x} nearest {d}")
    try:
        if groups.get("mon"):
            return _day_month(m, d, tense)
        if groups.get("a"):
            return _numeric(m, d, tense)
        return _ordinal_day(m, d, tense)
    except ValueError:  # "Friday 3/4", neither order a Friday near: the Friday
        return _bare_weekday(m, d, tense)


_WEEKDAY_DATE_REACH = 183  # days from the anchor a weekday's date is looked for


def _typed_weekday_date(m: re.Match, d: date, tense: Tense) -> Resolution:
    """"wed 12/9", typed in lower case: that date only where it falls on the weekday ("mon 2/5
    tests" is no date)."""
    found = _weekday_date(m, d, tense)
    a, b = int(m["a"]), int(m["b"])
    if found[0].weekday() != _weekday_index(m["wd"]) or \
            (found[0].day, found[0].month) not in {(a, b), (b, a)}:
        raise ValueError("a lower-case weekday beside a date of another day")
    return found


def _iso(m: re.Match, d: date, tense: Tense) -> Resolution:
    x = date(int(m["year"]), int(m["month"]), int(m["day"]))
    return x, x, "day", AS_WRITTEN


def _ordinal_day(m: re.Match, d: date, tense: Tense) -> Resolution:
    day = int(m["day"])
    months = [(add_months(d.replace(day=1), k).year, add_months(d.replace(day=1), k).month)
              for k in (-1, 0, 1)]
    x = _by_tense(_valid_days(months, day), d, _upcoming(tense))[0]
    return x, x, "day", (f"the most recent on or before {d} (past tense)" if tense == "past"
                         else f"the first on or after {d}")


def _that_day(m: re.Match, d: date, tense: Tense) -> Resolution:
    """A placeholder: "that day" is the day the text named before it (find_dates reads it), or
    none."""
    return d, d, "day", "the day named before it"


def _month_part(m: re.Match, d: date, tense: Tense) -> Resolution:
    """A whole named month, or its early/mid/late part, or its start/end day."""
    month, year = _month_number(m["mon"] or m.groupdict().get("mon2")), _year_of(m)
    spans = [_month_span(date(y, month, 1)) for y in ((year,) if year else
                                                      (d.year - 1, d.year, d.year + 1))]
    start, end = _by_tense(spans, d, tense)
    part = (m.groupdict().get("part") or "").lower().replace("-", "").strip()
    how = AS_WRITTEN if year else f"the year nearest {d} ({tense} tense)"
    if part == "early":
        return start, start.replace(day=10), "day", how
    if part == "mid":
        return start.replace(day=11), start.replace(day=20), "day", how
    if part == "late":
        return start.replace(day=21), end, "day", how
    if part in ("end of", "the end of"):
        return end, end, "day", how
    if part in ("start of", "beginning of", "the start of", "the beginning of"):
        return start, start, "day", how
    return start, end, "month", how


# what a month's accounts are called: they are of a month once it has begun, whatever the tense
_OF_ACCOUNTS = re.compile(r"(?i)(?:['’]s)?\s+(?:[A-Z]{2,}\s+)?(?:expenses?|expense\s+reports?|"
                          r"bills?|invoices?|numbers|close|payroll|timesheets?|reports?|"
                          r"statements?|metrics|revenue|spend|actuals|sales|usage|stats)\b")


def _month_before(m: re.Match, d: date, tense: Tense) -> Resolution:
    """A month named before what it is of ("the December newsletter"), read by the tense; of
    its accounts ("November expenses due by Dec 7", said on 3 Dec, were November 2027's: the
    sentence looks ahead), the month that has begun."""
    if _OF_ACCOUNTS.match(m.string, m.end()):
        return _month_part(m, d, "past")
    return _month_part(m, d, tense)


def _release_month(m: re.Match, d: date, tense: Tense) -> Resolution:
    """A release's month, written after it, as any month is read by the sentence's tense."""
    return _month_part(m, d, tense)


_IN_BRACKETS_MONTH = re.compile(rf"(?i)\((?:{_FULL_MONTH}|{_SHORT_MONTH})\)")


def _listed_month(m: re.Match, d: date, tense: Tense) -> Resolution:
    """A month in brackets after an item, when its text lists two or more so ("(March)" alone
    may be anything)."""
    if len(_IN_BRACKETS_MONTH.findall(m.string)) < 2:
        raise ValueError("a month in brackets alone")
    return _month_part(m, d, tense)


def _named_month(m: re.Match, d: date, tense: Tense) -> Resolution:
    """last/this/next March."""
    month, which = _month_number(m["mon"]), _which(m)
    if which == 0:
        start, end = _month_span(date(d.year, month, 1))
    else:
        spans = [_month_span(date(d.year + k, month, 1)) for k in (-1, 0, 1)]
        start, end = _by_tense(spans, d, "past" if which < 0 else "future", future_strict=True)
        if which < 0 and start.month == d.month and start.year == d.year:
            start, end = _month_span(date(d.year - 1, month, 1))
    return start, end, "month", f"{start} to {end}"


_PLANNED_FOR = re.compile(r"(?i)['’]?s?\s+(?:product\s+|eng\s+|engineering\s+|team\s+)?"
                         # (not goals or targets: "we hit our Q3 goals" is of the Q3 gone)
                         r"(?:roadmap|plans?|planning|hiring\s+plan)\b")


def _quarter(m: re.Match, d: date, tense: Tense) -> Resolution:
    q, year = int(m["q"]), _year_of(m)
    if year is not None:
        start, end = _quarter_span(year, q)
        how = AS_WRITTEN
    else:
        if tense == "past" and _PLANNED_FOR.match(m.string, m.end()):
            # a quarter's plan is made before it, whatever was done with it: "told them it's on
            # the Q1 roadmap" (said in December) was last Q1; the nearest quarter ("the Q3 plan
            # worked out", said in December, is this year's)
            tense = "neutral"
        start, end = _by_tense([_quarter_span(d.year + k, q) for k in (-1, 0, 1)], d, tense)
        how = f"the year nearest {d} ({tense} tense)"
    if m.groupdict().get("edge"):
        x = end if m["edge"].lower() == "end" else start
        return x, x, "day", how
    if m.groupdict().get("part"):  # "mid-Q1": its middle month, "early Q2" its first
        first = add_months(start, {"early": 0, "mid": 1, "late": 2}[m["part"].lower()])
        return first, _month_span(first)[1], "month", how
    return start, end, "quarter", how


def _half_month(m: re.Match, d: date, tense: Tense) -> Resolution:
    start, end, _, how = _month_part(m, d, tense)
    if m["half"].lower() in ("first", "1st"):
        return start, start.replace(day=15), "day", how
    return start.replace(day=16), end, "day", how


def _period_end(m: re.Match, d: date, tense: Tense) -> Resolution:
    start, end = _period(m["unit"].lower(), d, 0)
    return end, end, "day", f"the last day of {start} to {end}"


def _new_year(m: re.Match, d: date, tense: Tense) -> Resolution:
    """"in the new year", said in the last quarter: the January after (said in January or
    later, the year has begun and it names no month)."""
    if d.month < 10:
        raise ValueError("the new year is not near")
    start, end = _month_span(date(d.year + 1, 1, 1))
    return start, end, "month", f"the January after {d}"


def _year(m: re.Match, d: date, tense: Tense) -> Resolution:
    y = int(m["year"])
    return date(y, 1, 1), date(y, 12, 31), "year", AS_WRITTEN


def _compact_range(m: re.Match, d: date, tense: Tense) -> Resolution:
    """June 3-7, 3-7 June (one month, with or without the year)."""
    month, year = _month_number(m["mon"]), _year_of(m)
    first, last = int(m["d1"]), int(m["d2"])
    if last <= first:
        raise ValueError("not a range")
    how = AS_WRITTEN
    if year is None:  # the year of its first day (as _month_day reads one)
        start, _, _, how = _month_day(month, first, None, d, tense)
        year = start.year
    return date(year, month, first), date(year, month, last), "day", how


def _two_days_running(m: re.Match, d: date, tense: Tense) -> Resolution:
    """Dec 10 and 11: the two days as one span (_scan keeps only days that follow each other:
    "Dec 10 and 17" is two days apart, and its first is read alone)."""
    return _compact_range(m, d, tense)


def _cross_month_range(m: re.Match, d: date, tense: Tense) -> Resolution:
    """Dec 24-Jan 2: the first day as a month-day is read, the last the first such day after it
    (a year written is the last day's); "Dec 3-Dec 5" too."""
    month, first, last_month, last = (_month_number(m["mon"]), int(m["d1"]),
                                      _month_number(m["mon2"]), int(m["d2"]))
    if month == last_month and last <= first:
        raise ValueError("not a range")
    year = _year_of(m)
    if year is not None:
        end = date(year, last_month, last)
        start = date(year - (month > last_month), month, first)
        return start, end, "day", AS_WRITTEN
    start, _, _, how = _month_day(month, first, None, d, tense)
    end = date(start.year + (last_month < month), last_month, last)
    return start, end, "day", how


# Months in the languages teams also chat in (Spanish, Portuguese, French, German, Italian): "el
# jueves 10 de diciembre", "am Montag, 14. Dezember", "le 10 décembre", "10 de dezembro"; written
# after their day only (the months English shares, "mars", "mai", are no date alone)
_FOREIGN_MONTHS = {
    1: "enero janeiro janvier januar jänner gennaio", 2: "febrero fevereiro février fevrier "
    "februar febbraio", 3: "marzo março mars märz maerz", 4: "abril avril aprile",
    5: "mayo maio mai maggio", 6: "junio junho juin juni giugno", 7: "julio julho juillet juli "
    "luglio", 8: "agosto août aout", 9: "septiembre setiembre setembro septembre settembre",
    10: "octubre outubro octobre oktober ottobre", 11: "noviembre novembro novembre",
    12: "diciembre dezembro décembre decembre dezember dicembre"}
_FOREIGN_MONTH_NUMBER = {name: n for n, names in _FOREIGN_MONTHS.items()
                         for name in names.split()}
# ("3 Mars bars left": the French month is written in lower case)
_FOREIGN_MONTH = "|".join("(?-i:mars)" if name == "mars" else name
                          for name in sorted(_FOREIGN_MONTH_NUMBER, key=len, reverse=True))
_FOREIGN_DAY_MONTH = (rf"(?P<day>[0-3]?\d)(?:\.|º|er|°)?\s+(?:de\s+)?(?P<fmon>{_FOREIGN_MONTH})"
                      r"(?:,?\s+(?:de\s+)?(?P<year>\d{4})(?!\d|:\d))?")


def _foreign_day_month(m: re.Match, d: date, tense: Tense) -> Resolution:
    """A day of a month named in Spanish, Portuguese, French, German or Italian."""
    return _month_day(_FOREIGN_MONTH_NUMBER[m["fmon"].lower()], int(m["day"]), _year_of(m), d,
                      tense)


_DAY = rf"(?P<day>[0-3]?\d){_ORD}?"
_YEAR_OPT = r"(?:,?\s+(?P<year>\d{4}|['’]\d{2})(?!\d|:\d))?"
_RANGE_DASH = r"\s*(?:-|–|—|to|through|thru|till|until)\s*"
_DAY_MONTH = rf"{_DAY}\s+(?:of\s+)?(?P<mon>{_MONTH_NAME}){_YEAR_OPT}"  # 17 Nov, 3rd of June 2024
_MONTH_DAY = rf"(?P<mon>{_MONTH_NAME})\s+(?:the\s+)?{_DAY}(?![\d:.,]\d){_YEAR_OPT}"  # Nov 17th
# "on Tuesday, " before its date ("by Friday, Dec 4": one day, not this Friday and Dec 4)
# (before a date, "Sat" and "Sun" are days too: "Sat 12/5 is the cutover" was no date at all;
# alone they stay words, "sat on it", "Sun Microsystems")
_WEEKDAY_BEFORE = (r"(?:(?:on|by|before|until|till|due|from|this|next)\s+)?"
                   rf"(?P<wd>{_WD_NAMES}|(?-i:Sat|Sun)\.?),?\s+")
_NOT_AN_ORDINAL_DATE = rf"(?!\s+(?:of\s+{_MONTH_NAME}|{_ORDINAL_NOUNS})\b)"  # the 3rd floor
# (pattern, resolver, the families of words a text it matches holds: see _families)
_RULES: list[tuple[str, Resolver, str]] = [
    # absolute days
    (r"(?P<year>\d{4})[-/](?P<month>[01]?\d)[-/](?P<day>[0-3]?\d)"
     r"(?:T\d{2}(?::\d{2}){0,2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?)?(?![\w/-])", _iso,
     "digit-sep-digit"),
    (rf"(?P<mon>{_MONTH_NAME})\s+(?P<d1>[0-3]?\d){_ORD}?{_RANGE_DASH}(?P<d2>[0-3]?\d){_ORD}?"
     rf"(?:,?\s+(?P<year>\d{{4}}))?", _compact_range, "month digit"),
    (rf"(?P<d1>[0-3]?\d){_ORD}?{_RANGE_DASH}(?P<d2>[0-3]?\d){_ORD}?\s+(?:of\s+)?"
     rf"(?P<mon>{_MONTH_NAME})(?:,?\s+(?P<year>\d{{4}}))?", _compact_range, "month digit"),
    # two days running ("Parent-teacher conferences are Dec 10 and 11, 3-7pm" was the 10th
    # alone); not a count after it ("Dec 10 and 11 guests")
    (rf"(?P<mon>{_MONTH_NAME})\s+(?P<d1>[0-3]?\d){_ORD}?\s+(?:and|&)\s+(?P<d2>[0-3]?\d){_ORD}?"
     rf"(?![\d:.,]\d|\s*(?:%|[a-z]+s\b(?<!\bis)|of\b))(?:,?\s+(?P<year>\d{{4}}))?",
     _two_days_running, "month digit"),
    # across two months with a bare dash ("Dec 24-Jan 2", "Dec 24th–Jan 2nd": each day alone was
    # no date, a hyphen against it)
    (rf"(?P<mon>{_MONTH_NAME})\s+(?P<d1>[0-3]?\d){_ORD}?\s*[-–—]\s*(?P<mon2>{_MONTH_NAME})\s+"
     rf"(?P<d2>[0-3]?\d){_ORD}?(?![\d:])(?:,?\s+(?P<year>\d{{4}}))?", _cross_month_range,
     "month digit"),
    # a weekday with its date: one date (the weekday picks its year, or the order of 20/11)
    (rf"{_WEEKDAY_BEFORE}(?:the\s+)?{_DAY_MONTH}", _weekday_date, "weekday month digit"),
    (rf"{_WEEKDAY_BEFORE}{_MONTH_DAY}", _weekday_date, "weekday month digit"),
    (rf"{_WEEKDAY_BEFORE}(?P<a>[0-3]?\d)(?P<sep>[/.])(?P<b>[0-3]?\d)"
     rf"(?:(?P=sep)(?P<year>\d{{4}}))?(?![\d/.]\d)", _weekday_date, "weekday digit-sep-digit"),
    # chat types "wed 12/9" in lower case: a short weekday is one before a date of digits ("mon"
    # alone is no Monday, "wed 12/9" is)
    (r"(?:(?:on|by|before|until|till|due|from|this|next)\s+)?"
     r"(?P<wd>mon|tues?|weds?|thu(?:rs?)?|fri|sat|sun)\.?,?\s+(?P<a>[0-3]?\d)(?P<sep>/)"
     r"(?P<b>[0-3]?\d)(?![\d/.]\d)", _typed_weekday_date, "weekday digit-sep-digit"),
    # ("Thu 10th" too: it was the Thursday of the week said in)
    (rf"{_WEEKDAY_BEFORE}(?:the\s+)?(?P<day>[0-3]?\d){_ORD}{_NOT_AN_ORDINAL_DATE}", _weekday_date,
     "weekday ordinal"),
    (_DAY_MONTH, _day_month, "month digit"),
    (_MONTH_DAY, _day_month, "month digit"),
    (_FOREIGN_DAY_MONTH, _foreign_day_month, "foreign_month digit"),
    (r"(?<![\d.])(?P<a>[0-3]?\d)(?P<sep>[/.])(?P<b>[0-3]?\d)(?P=sep)(?P<year>\d{4})(?![\d.])",
     _numeric, "digit-sep-digit"),
    (r"(?:on|by|until|till|due|from|before|after|since|thru|through)\s+"
     r"(?P<a>[0-3]?\d)(?P<sep>/)(?P<b>[0-3]?\d)(?![\d/])(?!\s*of\b)", _numeric,
     "digit-sep-digit"),
    # a day a thing moves to: "the brand guidelines draft will slip to 12/22" (no date: "to"
    # alone is no date's word, "up to 3/4 of the budget")
    # (the phrase is the day alone, so that the move before it is read as one)
    (r"(?<=\bto\s)(?P<a>[0-3]?\d)(?P<sep>/)(?P<b>[0-3]?\d)(?![\d/])(?!\s*of\b)",
     _numeric_moved_to, "digit-sep-digit"),
    # the day of a thing that has one: "Acme renewal is 12/31" (not "the ratio is 16/9")
    (r"\b(?:renewal|deadline|date|launch|release|go-live|cutoff|cut-off|expiry|expiration|"
     r"kickoff|kick-off)\s+(?:date\s+)?(?:is|was|['’]s)\s+(?P<a>[0-3]?\d)(?P<sep>/)"
     r"(?P<b>[0-3]?\d)(?![\d/])(?!\s*of\b)", _numeric, "digit-sep-digit"),
    # ("in the 4th" is a quarter or an inning: "we were down 10 in the 4th")
    (rf"(?:(?:on|by|until|till|from|before|after|since|due)\s+)?(?<!\bin\s)the\s+"
     rf"(?P<day>[0-3]?\d){_ORD}"
     rf"{_NOT_AN_ORDINAL_DATE}", _ordinal_day, "ordinal"),
    # the day named before it: "Launch date for Lurker 2.0 is Jan 14. Press embargo lifts at 9am
    # ET that day." (no date: "the embargo?" was answered "No date was given")
    (r"(?:on\s+)?(?:that(?:\s+same)?|the\s+same|the\s+very\s+same)\s+day\b", _that_day,
     "calendar"),
    # months, quarters, years
    (rf"(?:(?P<part>early|mid|late|(?:the\s+)?(?:end|start|beginning)\s+of)[\s-]+)"
     rf"(?P<mon>{_MONTH_NAME})(?:\s+(?P<year>\d{{4}}))?", _month_part, "month"),
    (rf"(?:in|by|until|till|since|from|during|before|after|through|thru)\s+"
     rf"(?P<mon>{_FULL_MONTH})(?!\s+\d{{1,2}}(?!\d))(?:,?\s+(?P<year>\d{{4}}))?", _month_part,
     "month"),
    (rf"(?P<mon>{_FULL_MONTH})\s+(?P<year>\d{{4}})", _month_part, "month digit"),
    # (and shortened, or after a verb of starting or ending: "Migration starts Jan.", "back in
    # Feb", "starts January" were no dates; "in Jan's team" is a person's)
    (rf"(?:(?:in|by|until|till|since|from|during|before|after|through|thru)\s+"
     rf"(?P<mon>{_SHORT_MONTH})|(?:starts?|starting|begins?|beginning|kicks?\s+off|ends?|"
     rf"ending|wraps?\s+up|ships?|launch(?:es)?|lands?|resumes?|due)\s+"
     rf"(?P<mon2>{_FULL_MONTH}|{_SHORT_MONTH}))(?!\s+\d{{1,2}}(?!\d))(?!['’]s)(?![\w-])"
     rf"(?:,?\s+(?P<year>\d{{4}}))?", _month_part, "month"),
    # a month in brackets after a release: "3.9 dropped in 6.0 (March), 5.x keeps it" (no date:
    # "when are we dropping Python 3.9?" was answered "No date was given"; not "(March)" alone)
    (rf"(?<=\d\s)\((?P<mon>{_FULL_MONTH}|{_SHORT_MONTH})\)", _release_month, "month digit"),
    # and after each item of a list of them: "roadmap: SSO (Jan), audit logs (Feb), mobile
    # offline mode (Mar)" (no date: "when is SSO shipping?" was the Q1 the list was for)
    (rf"\((?P<mon>{_FULL_MONTH}|{_SHORT_MONTH})\)", _listed_month, "month"),
    # (and shortened: "valid until Dec 2027" was no date)
    (rf"(?P<mon>{_MONTH_NAME})\s+(?P<year>(?:19|20)\d\d)(?!\d)", _month_part, "month digit"),
    # moved or pushed "to January", the numbers "for October", a figure compared "on October"
    # ("AWS bill for November: $48.2k, up 12% on October ($43.0k)" was no October's bill): a
    # month no one is named ("talk to May", "waiting for June" are people)
    (r"(?:(?<=\bto\s)|(?<=\bfor\s)|(?<=%\son\s)|(?<=\bvs\s)|(?<=\bvs\.\s)|(?<=\bthan\s))"
     # (or shortened: "we're aiming for Feb"; not "Jan", a name: "waiting for Jan to reply")
     r"(?-i:(?P<mon>January|February|September|October|November|December|"
     r"(?:Feb|Sept?|Oct|Nov|Dec)(?![\w'’-])\.?))"
     r"(?!\s+\d{1,2}(?!\d))(?:,?\s+(?P<year>\d{4}))?", _month_part, "month"),
    # a month a plan is for, the months that are words or names too: "SSO is planned for
    # March", "slated for May" (no date: "for March" alone may be a person's)
    (rf"(?:planned|scheduled|slated|targeted|committed|earmarked|booked|pencil+ed\s+in)\s+for\s+"
     rf"(?P<mon>{_FULL_MONTH})(?!\s+\d{{1,2}}(?!\d))(?!['’]s)(?![\w-])"
     rf"(?:,?\s+(?P<year>\d{{4}}))?", _month_part, "month"),
    # a month named before what it is of: "October AWS bill: $48,210", "the December
    # newsletter", "September's numbers" (capitalised; not May, March, April, June, July, August,
    # which are words or names too)
    (r"(?-i:(?P<mon>January|February|September|October|November|December))"
     r"(?=(?:['’]s)?\s+(?!(?:is|was|are|were|has|had|have|will|would|can|could|and|or|but|to|"
     r"in|on|at|for|of|by|from|with|the|a|an|it|we|i|you|they|he|she|comes|came|starts|ends|"
     r"begins|feels|seems|always|never|too|again|then|already)\b)(?:[a-z]|[A-Z]{2,}\b))",
     _month_before, "month"),
    # and the months that are names too, before an acronym or a word of accounts: "August AWS
    # bill: $41,200" (said on 3 Sep, "what was the AWS bill in August?" read it as September's)
    (r"(?-i:(?P<mon>March|April|May|June|July|August)(?=(?:['’]s)?\s+(?:[A-Z]{2,}\b|"
     r"(?:bill|bills|invoice|invoices|numbers|revenue|spend|budget|payroll|close|report|"
     r"metrics|newsletter|release|sprint|retro|offsite|cohort)\b)))", _month_before, "month"),
    (rf"{_NOT_THE}(?P<which>last|this|next)\s+(?P<mon>{_FULL_MONTH})", _named_month, "month"),
    (r"(?:(?P<edge>end|start|beginning)\s+of\s+|(?P<part>early|mid|late)[\s-]+)?(?-i:Q)"
     r"(?P<q>[1-4])(?:\s*(?P<year>\d{4}|['’]\d{2}))?", _quarter, "quarter"),
    # "the second half of December": the 16th to its end
    (rf"(?:the\s+)?(?P<half>first|1st|second|2nd|last)\s+half\s+of\s+(?P<mon>{_FULL_MONTH})"
     rf"(?:,?\s+(?P<year>\d{{4}}))?", _half_month, "month"),
    # "by year end", "at month-end": the period's last day
    (r"(?:by|at|before|until|till|after|for|around)\s+(?:the\s+)?(?P<unit>year|month|quarter)"
     r"[\s-]end\b", _period_end, "calendar"),
    # "kick off the mobile rewrite in the new year" (said in November): January
    (r"(?:(?:early\s+)?in|into|after|for)\s+the\s+new\s+year\b(?!['’]s)", _new_year,
     "calendar"),
    (r"(?:in|since|during|before|after|until|till|by|of)\s+(?P<year>(?:19|20)\d{2})"
     r"(?![\d/.-]\d)", _year, "century"),
    # relative days
    (r"(?:the\s+)?day\s+before\s+yesterday", _shift(-2), "calendar"),
    (r"(?:the\s+)?day\s+after\s+tomorrow", _shift(2), "calendar"),
    (rf"yesterday|yday|{_NOT_THE}last\s+(?:night|nite)", _shift(-1), "calendar"),
    (r"tomorrow|tmrw|tmr|tmw|2morrow", _shift(1), "calendar"),
    # (not "EOD Friday", "end of day tomorrow": the day named after it is the date; nor "Dec 9
    # EOD", "Friday EOD", "tomorrow EOD": the day named before it is, where it was the message's)
    # ("backfill finished overnight", said in the morning: the night just ended, the day said;
    # "overnight shipping" is no day)
    (r"today|tdy|tonight|tonite|2nite|this\s+(?:morning|afternoon|evening)|"
     r"(?<![\w-])overnight(?![\w-]|\s+(?:shipping|delivery|deliveries|bag|stays?|oats|train|"
     r"flights?|express|success|sensation|parking|guests?|trip|camp|hike|shift))|"
     r"(?<!\d\s)(?<!\d,\s)(?<!\d(?:st|nd|rd|th)\s)(?<!day\s)(?<!row\s)(?<!tmrw\s)"
     r"(?<!(?:mon|tue|wed|thu|fri|sat|sun)\s)(?<!(?:tues|weds|thur)\s)(?<!thurs\s)"
     rf"(?:(?-i:EOD)|end\s+of\s+(?:the\s+)?day)(?![\s,]+(?:on\s+)?(?:{_WD_NAMES}|tomorrow|"
     r"tmrw|tmr|today|the\s+\d|\d))",
     _shift(0), "calendar"),
    # (and "of": "Wednesday of next week", said on a Tuesday, was the next day)
    (rf"(?:on\s+)?{_WEEKDAY}\s+(?:of\s+)?(?P<which>last|this|next)\s+week", _weekday_of_week,
     "weekday calendar"),
    (rf"(?P<which>last|this|next)\s+week(?:['’]s)?\s+{_WEEKDAY}", _weekday_of_week,
     "weekday calendar"),
    # "two Fridays ago", "the Friday before last", "the weekend before last": counted back from
    # the most recent one (the second was the coming Friday, the others no date); "the first
    # Monday of December" (it was the coming Monday)
    (rf"(?P<n>two|three|four|[234])\s+{_WEEKDAY}s\s+ago", _weekdays_ago, "weekday"),
    (rf"the\s+{_WEEKDAY}\s+before\s+last", _weekdays_ago, "weekday"),
    (r"the\s+weekend\s+before\s+last", _weekend_before_last, "calendar"),
    # (and without "the": "kickoff is first Monday of January" was the coming Monday)
    (rf"(?:the\s+)?(?P<nth>first|second|third|fourth|last|1st|2nd|3rd|4th)\s+{_WEEKDAY}"
     rf"\s+(?:of|in)\s+(?P<mon>{_MONTH_NAME})(?:,?\s+(?P<year>\d{{4}}))?", _nth_weekday, "weekday month"),
    (rf"{_NOT_THE}(?P<which>last|this\s+past|this\s+coming|this|next|coming)\s+"
     rf"{_WD_AFTER_WHICH}", _relative_weekday, "weekday"),
    (rf"(?:(?:on|by|until|till|before|after|due|from|since)\s+)?{_WEEKDAY}", _bare_weekday,
     "weekday"),
    (rf"{_NOT_THE}(?P<which>last|this\s+past|this|next)\s+weekend", _weekend, "calendar"),
    (r"(?:over|on|at|during)\s+the\s+weekend", _the_weekend, "calendar"),
    (r"(?P<edge>end|start|beginning)\s+of\s+(?:the\s+)?(?:(?P<which>last|this|next)\s+)?"
     r"(?P<unit>week|month|quarter|year)", _end_of, "calendar"),
    (r"(?-i:EO(?P<u>[WMQY]))", _eo, "eo"),
    # "early next month", "late next week", "earlier this week" (were the whole week or month)
    (r"(?P<part>earlier|later|early|mid|late)[\s-]+(?:in\s+)?(?P<which>last|this|next)\s+"
     r"(?P<unit>week|month)", _period_part, "calendar"),
    (rf"{_NOT_THE}(?P<which>last|this|next)\s+(?P<unit>week|month|quarter|year)",
     _calendar_period, "calendar"),
    (r"(?:the\s+)?week\s+after\s+next", _week_after_next, "calendar"),
    # "what did we ship the week before last?" (no date: last week's releases answered it)
    (r"the\s+(?P<unit>week|month|year)\s+before\s+last", _before_last, "calendar"),
    (rf"in\s+(?:a\s+fortnight|{_NUM}\s+fortnights?)|a\s+fortnight\s+from\s+(?:now|today)",
     _fortnights, "calendar"),
    (rf"in\s+{_NUM}\s+(?:business|working)\s+days?|next\s+(?:business|working)\s+day",
     _business_days, "calendar"),
    # "Monday after next" is "Monday week" ("Monday" alone was next Monday)
    (rf"(?:on\s+)?{_WEEKDAY}\s+(?:week(?!\s*\d)|after\s+next)|"
     rf"a\s+week\s+(?:on|from)\s+(?P<wd2>{_WD_NAMES})",
     _weekday_week,
     "weekday calendar"),
    (rf"(?:the\s+)?(?P<nth>first|second|third|fourth|last)\s+week\s+of\s+"
     rf"(?P<mon>{_MONTH_NAME})(?:\s+(?P<year>\d{{4}}))?", _week_of_month, "month calendar"),
    (r"(?:(?:in|for|by|during|until|till|through|before|after)\s+)(?-i:H)(?P<h>[12])"
     r"(?:\s+(?P<year>\d{4}))?|(?-i:H)(?P<h2>[12])\s+(?P<year2>\d{4})", _half_year, "digit"),
    (rf"{_NUM}\s+{_UNIT}\s+(?:ago|back)", _offset(-1), "calendar"),
    # (about then: "Full in about 3 weeks at this rate", "in roughly two weeks")
    (rf"in\s+(?:(?:about|around|roughly|approximately|approx\.?)\s+)?{_NUM}\s+{_UNIT}",
     _in_time, "calendar"),
    # an ETA given as a wait: "the compressor needs replacing, ETA 2 weeks" ("when will the
    # freezer be fixed?" was answered with the day the alarm went off)
    (rf"eta(?:\s*:|\s+(?:is|of))?\s*(?:(?:about|around|roughly|approx\.?)\s+|~\s*)?{_NUM}\s+"
     rf"{_UNIT}(?!\s+(?:ago|back|after|from|before|late|behind))", _offset(1), "calendar"),
    (rf"{_NUM}\s+{_UNIT}\s+from\s+(?:now|today)", _offset(1), "calendar"),
    # the day a thing good for a time runs out: "renewed the SSL cert, it's good for 90 days"
    # ("when does the SSL cert expire?" was "No date was given")
    (rf"(?:good|valid)\s+for\s+(?:another\s+)?{_NUM}\s+{_UNIT}", _runs_out, "calendar"),
    (rf"{_NUM}\s+{_UNIT}\s+(?:from|after)\s+(?:next\s+)?{_WEEKDAY}", _after_weekday,
     "weekday calendar"),
    (rf"(?P<hol>{_HOLIDAYS})", _holiday, "holiday"),
    (r"(?:over|during|for|through|thru|across)\s+the\s+(?:winter\s+|christmas\s+|xmas\s+)?"
     r"holidays|(?:the\s+)?(?:holiday|winter|christmas|xmas|end[- ]of[- ]year)\s+break",
     _holiday_season, "holiday"),
]
# Whole words only, an optional possessive ("yesterday's") kept outside the phrase, and no match
# glued to a domain or identifier ("monday.com", "today-ish", "v2023-05-08").
_PATTERNS = tuple(
    (re.compile(rf"(?<![\w-])(?P<phrase>{body})(?:['’]s)?(?![\w-]|\.\w)", re.IGNORECASE), resolve,
     needs) for body, resolve, needs in _RULES)
# Written out in full: these need no label to be read the same anywhere.
_EXPLICIT = {_iso, _year}
_BRACKETED = re.compile(r"\[[^\[\]]*\]")
_ISO_RE = r"\d{4}-\d{2}-\d{2}"
LABEL = (rf"(?:(?:week of |weekend of ){_ISO_RE}|{_ISO_RE}(?: to {_ISO_RE})?|"
         r"(?:January|February|March|April|May|June|July|August|September|October|November|"
         r"December) \d{4}|Q[1-4] \d{4}|\d{4})")
_LABEL_AFTER = re.compile(rf"\s*\[(?P<label>{LABEL})\]")
# a label written after a date phrase at ingest, with the space before it ("this week ?" was
# left where a label was taken out of "this week [week of 2026-11-09]?")
# any day, for asking only where a text's date phrases are (not what they resolve to)
ANY_DAY = date(2000, 1, 3)
ANNOTATED = re.compile(rf" ?\[({LABEL})\]")
# a time of day may come between ("from Friday 18:00 UTC until Monday")
_RANGE_JOIN = re.compile(r"(?:\s*\d{1,2}(?::\d{2})?\s*(?:[ap]\.?m\.?)?(?:\s*[a-z]{3,4})?)?"
                         r"\s*(?:-|–|—|to|through|thru|till|until|and)\s*$", re.IGNORECASE)
_RANGE_OPEN = re.compile(r"(?:from|between)\s+$", re.IGNORECASE)
_HELD_FROM = re.compile(r"from\s+", re.IGNORECASE)
# "the freeze starts this Friday at noon and ends Monday morning": a range said by its ends
_RANGE_STARTS = re.compile(r"\b(?:starts?|starting|begins?|beginning)\s+(?:on\s+)?$",
                           re.IGNORECASE)
_RANGE_ENDS = re.compile(r"(?:\s+(?:at\s+)?(?:noon|midnight|(?:in\s+the\s+)?"
                         r"(?:morning|afternoon|evening|night)|\d{1,2}(?::\d{2})?\s*"
                         r"(?:[ap]\.?m\.?)?(?:\s*[a-z]{3,4})?))?"
                         r"\s*,?\s*(?:and\s+)?(?:ends?|ending|finishes|"
                         # "the deploy freeze starts Dec 18 and runs through Jan 4"
                         r"(?:runs?|running|goes|going|lasts?|lasting)\s+"
                         r"(?:through|thru|until|till|til|to))\s+(?:on\s+)?$",
                         re.IGNORECASE)
# a weekday's or a day's phrase holds its preposition ("from Friday", "until Monday")
_RANGE_WORD_IN = re.compile(r"(?:from|until|till|through|thru|to)\s+", re.IGNORECASE)


@dataclass(frozen=True)
class Found:
    """A date expression in a text: where it is, what it means, how that was worked out."""
    start: int
    end: int
    date: ResolvedDate
    detail: str
    labelled: bool = False  # already followed by a " [label]" (the label's dates are used)
    explicit: bool = False  # written in full, with its year: needs no label
    label_at: int = -1  # where a label goes: after a possessive ("Yesterday's [..]")


def moved_away_from(text: str, found: Found) -> bool:
    """Whether `found` is the day something moved away from ("moved from Thursday [..] to next
    Tuesday"): no longer its day."""
    phrase = text[found.start:found.end]
    held = _HELD_FROM.match(phrase)
    before = text[_back(text, found.start):found.start]
    return bool(_MOVED_FROM.search(before + (held.group(0) if held else ""))
                or _INSTEAD_OF.search(before) or _RULED_OUT.match(text, found.end))


# "2.15 ships Monday instead of Thursday": the day it no longer is
_INSTEAD_OF = re.compile(r"(?i)\b(?:instead\s+of|rather\s+than|not)\s+(?:on\s+)?$")


# "SSO by Dec 15 is tight, realistic is Jan 10": a day said not to hold is no longer the day
# ("when can we ship SSO?" was answered 15 December)
_RULED_OUT = re.compile(r"(?i)\s*(?:\[[^\[\]]*\]\s*)?,?\s*(?:(?:is|looks|seems|feels|sounds)\s+"
                        r"(?:way\s+|too\s+|very\s+|pretty\s+|really\s+)?(?:tight|unrealistic|"
                        r"aggressive|optimistic|a\s+stretch|off\s+the\s+table|not\s+(?:happening|"
                        r"realistic|doable|possible|going\s+to\s+happen))|won['’]t\s+happen|"
                        r"(?:is\s+)?not\s+happening|is\s+out)\b")


def parse_label(label: str) -> ResolvedDate | None:
    """The dates a label written by annotate_dates stands for."""
    label = label.strip()
    try:
        if m := re.fullmatch(rf"({_ISO_RE})(?: to ({_ISO_RE}))?", label):
            a = date.fromisoformat(m[1])
            return ResolvedDate(label, a, date.fromisoformat(m[2]) if m[2] else a, "day")
        if m := re.fullmatch(rf"(week|weekend) of ({_ISO_RE})", label):
            a = date.fromisoformat(m[2])
            if m[1] == "weekend":
                return ResolvedDate(label, a, a + timedelta(days=1), "day")
            return ResolvedDate(label, a, a + timedelta(days=6), "week")
        if m := re.fullmatch(r"([A-Z][a-z]+) (\d{4})", label):
            start, end = _month_span(date(int(m[2]), MONTH_NAMES.index(m[1]) + 1, 1))
            return ResolvedDate(label, start, end, "month")
        if m := re.fullmatch(r"Q([1-4]) (\d{4})", label):
            return ResolvedDate(label, *_quarter_span(int(m[2]), int(m[1])), "quarter")
        if re.fullmatch(r"\d{4}", label):
            return ResolvedDate(label, date(int(label), 1, 1), date(int(label), 12, 31), "year")
    except ValueError:
        return None
    return None


def _non_overlapping(found: list[tuple[re.Match, Resolver]]) -> list[tuple[re.Match, Resolver]]:
    """Earliest first, the longest of those starting together, skipping overlaps."""
    chosen: list[tuple[re.Match, Resolver]] = []
    for m, payload in sorted(found, key=lambda f: (f[0].start(), -f[0].end())):
        if not chosen or m.start() >= chosen[-1][0].end():
            chosen.append((m, payload))
    return chosen


def _anchor_date(anchor: datetime | date) -> date:
    return anchor.date() if isinstance(anchor, datetime) else anchor


_DAY_ONLY = re.compile(r"(?:(?:on|by|until|till|from|before|after|since|due)\s+)?the\s+\d{1,2}"
                       r"(?:st|nd|rd|th)", re.IGNORECASE)


_WEEKDAY_ONLY = re.compile(rf"(?:{_WD_NAMES})$", re.IGNORECASE)


def _same_month_or_next(a: date, day: int) -> date | None:
    """The day `day` of a's month, or of the next month when that is not after a."""
    for k in (0, 1):
        first = add_months(a.replace(day=1), k)
        try:
            b = first.replace(day=day)
        except ValueError:
            continue
        if b > a:
            return b
    return None


def _range_word_end(text: str, f: Found) -> int:
    """Where a day's phrase starts past its preposition ("through Jan 4": at "Jan")."""
    held = _RANGE_WORD_IN.match(text, f.start, f.end)
    return held.end() if held else f.start


def _join_ranges(text: str, found: list[Found]) -> list[Found]:
    """"from the 3rd to the 7th", "between June 3 and June 7", "Mon-Wed": one range of days."""
    out: list[Found] = []
    for f in found:
        prev = out[-1] if out else None
        if (prev is not None and f.labelled and not prev.labelled
                and prev.date.start == prev.date.end == f.date.start < f.date.end
                and (_RANGE_JOIN.fullmatch(text[prev.end:f.start])
                     # (or a start and the day it runs through: "… starts Dec 18 and runs
                     # through Jan 4 [2026-12-18 to 2027-01-04]")
                     or _RANGE_ENDS.fullmatch(text[prev.end:_range_word_end(text, f)])
                     and _RANGE_STARTS.search(text[_back(text, prev.start):prev.start]))):
            # a range read again, labelled once after its end ("The code freeze is Dec 18 to
            # Jan 4 [2026-12-18 to 2027-01-04]"): one range, not Dec 18 and then the range
            # ("when does the code freeze end?" was answered 18 December)
            out[-1] = replace(f, start=prev.start, date=replace(
                f.date, phrase=text[prev.start:f.end]))
            continue
        if (prev is not None and prev.date.granularity == "day" == f.date.granularity
                and prev.date.start == prev.date.end and f.date.start == f.date.end
                and not prev.labelled and not f.labelled):
            held = _RANGE_WORD_IN.match(text, f.start, f.end)
            gap = text[prev.end:held.end() if held else f.start]
            joined = _RANGE_JOIN.fullmatch(gap)
            before = text[_back(text, prev.start):prev.start]
            opened = _RANGE_OPEN.search(before)
            held_from = _HELD_FROM.match(text, prev.start, prev.end)  # "from Thursday"
            if (opened or held_from) and _MOVED_FROM.search(
                    before + (held_from.group(0) if held_from else "")):
                out.append(f)
                continue
            ends = _RANGE_ENDS.fullmatch(gap) and _RANGE_STARTS.search(before)
            if (joined and (opened or "and" not in gap.lower())) or ends:
                a, b = prev.date.start, f.date.start
                if _DAY_ONLY.fullmatch(text[f.start:f.end]):  # "June 3 to the 7th": June 7
                    b = _same_month_or_next(a, b.day)
                elif b < a < b + timedelta(days=7) and _WEEKDAY_ONLY.search(
                        text[f.start:f.end]):  # "from Monday to Wednesday": the one after
                    b += timedelta(days=7)
                if b is not None and a < b <= a + timedelta(days=366):
                    start = opened.start() if opened else prev.start
                    out[-1] = Found(start, f.end, ResolvedDate(
                        text[start:f.end], a, b, "day"), f"{a} to {b}",
                        explicit=prev.explicit and f.explicit, label_at=f.label_at)
                    continue
        out.append(f)
    return out


# What a text holds, to skip the rules that cannot match it: each rule names the families it
# needs, and every match of the rule holds a word or mark of each (a month stem, a weekday stem, a
# calendar word, a digit, ...). Most chat holds few or none (of 5,000 Ubuntu IRC lines, 85 % had no
# digit), and a look costs a fraction of a rule's scan; tests/test_dates.py checks that the looks
# never hide a date.
_WORDS = {"month": "jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec",
          "weekday": "mon|tue|wed|thu|fri|sat|sun",
          "calendar": "day|week|month|quarter|year|night|morning|afternoon|evening|tomorrow|tmr|"
                      "2morrow|eod|fortnight|wk|yr|tdy|nite|tmw",
          "holiday": "christmas|xmas|year|thanksgiving|boxing|halloween|valentine|holiday|"
                     "winter|black|cyber",
          "foreign_month": _FOREIGN_MONTH}
# An ASCII text is looked at lower-cased (a case-sensitive search is several times faster); any
# other one as the rules read it, with Unicode case folding, which str.lower() does not share
# ("ſunday" is a Sunday to the rules).
_WORDS_IN_LOWER = tuple((name, re.compile(words)) for name, words in _WORDS.items())
_WORDS_ANY_CASE = tuple((name, re.compile(words, re.IGNORECASE)) for name, words in _WORDS.items())
_DIGIT = re.compile(r"\d")
_DIGIT_MARKS = (("digit-sep-digit", re.compile(r"\d[-/.]\d")),  # 2023-05-08, 3/14, 30.05.2023
                ("ordinal", re.compile(r"\d(?:st|nd|rd|th)", re.IGNORECASE)),
                ("century", re.compile(r"(?:19|20)\d\d")), ("quarter", re.compile(r"Q[1-4]")))
_EO = re.compile(r"EO[WMQY]")
_FAMILIES = ("digit", *_WORDS, *(name for name, _ in _DIGIT_MARKS), "eo")


def _bits(names) -> int:
    return sum(1 << _FAMILIES.index(name) for name in names)


# The rules a text holding each set of families (a bit each) can match, worked out once (each
# rule's families as bits first: read for every set, they took 60 ms of every process's start)
_NEEDS = tuple((pattern, resolve, _bits(needs.split())) for pattern, resolve, needs in _PATTERNS)
_RULES_FOR = tuple(tuple((pattern, resolve) for pattern, resolve, needs in _NEEDS
                         if needs & ~held == 0)
                   for held in range(1 << len(_FAMILIES)))


def _families(text: str) -> int:
    if text.isascii():
        low = text.lower()
        held = [name for name, pattern in _WORDS_IN_LOWER if pattern.search(low)]
    else:
        held = [name for name, pattern in _WORDS_ANY_CASE if pattern.search(text)]
    if _DIGIT.search(text):
        held += ["digit", *(name for name, pattern in _DIGIT_MARKS if pattern.search(text))]
    if _EO.search(text):
        held.append("eo")
    return _bits(held)


def find_dates(text: str, anchor: datetime | date, named: ResolvedDate | None = None
               ) -> list[Found]:
    """Every date expression outside [brackets], in order. An expression already followed by a
    label ("yesterday [2023-05-07]") takes the label's dates, so a text annotated once reads the
    same against any anchor. `named`: a day named with its month before the text (in the
    thread it replies to), for a bare "the 4th" in it."""
    rules = _RULES_FOR[_families(text)]
    return _scan(text, anchor, rules, named) if rules else []


def scan_dates(text: str, anchor: datetime | date) -> list[Found]:
    """find_dates without the cheap looks: every rule, always."""
    return _scan(text, anchor, _RULES_FOR[-1])


def _scan(text: str, anchor: datetime | date,
          patterns: tuple[tuple[re.Pattern, Resolver], ...],
          named: ResolvedDate | None = None) -> list[Found]:
    today = _anchor_date(anchor)
    text = text.translate(_MARKUP_AS_SPACE)
    if "-" in text:
        text = _NEXT_DAYS_HYPHENED.sub("\\g<days>–", text)  # (same length: positions stand)
    brackets = [b.span() for b in _BRACKETED.finditer(text)]
    matches = [(m, resolve) for pattern, resolve in patterns for m in pattern.finditer(text)
               if not any(s < m.end() and m.start() < e for s, e in brackets)
               # (two days apart are not one span: "Dec 10 and 17" leaves its first day to the
               # rules of one day)
               and not (resolve is _two_days_running and int(m["d2"]) != int(m["d1"]) + 1)]
    out: list[Found] = []
    named_day = named  # the last day written with its month ("March 5"), for "the 4th" after it
    for m, resolve in _non_overlapping(matches):
        if out and out[-1].date.granularity == "day" and _NAMES_MONTH.search(out[-1].date.phrase):
            named_day = out[-1].date
        phrase = m["phrase"]
        label = _LABEL_AFTER.match(text, m.end())
        if label and (rd := parse_label(label["label"])) is not None:
            out.append(Found(m.start(), m.start() + len(phrase), replace(rd, phrase=phrase),
                             "resolved earlier", labelled=True))
            continue
        try:
            held = _HELD_FROM.match(phrase)  # "from Friday" after "the release slipped"
            back = _back(text, m.start())
            moved = _MOVED_TO.search(text, back, m.start()) or held and _MOVED_FROM.search(
                text[back:m.start()] + held.group(0))
            tense = "future" if moved else "neutral" \
                if _WAS_BEFORE_MOVE.search(text, back, m.start()) \
                and _A_DAY_OF_MONTH_AT.match(text, m.start()) else tense_at(text, m.start())
            if moved and _STARTS_FROM.search(moved.group(0)) \
                    and _DAY_OF_MONTH_AT.match(text, m.start()):
                # a day of a month a thing starts from is the nearest: "MSA signed by both
                # sides! Effective Dec 1." (said 3 Dec) was next year's
                tense = "neutral"
            if _since_date(text, m, phrase):
                tense = "past"
            start, end, granularity, detail = resolve(m, today, tense)
        # ambiguous, impossible, or beyond the calendar; KeyError: a letter case-insensitive
        # matching equates with ASCII ("laſt week", Kelvin sign K) that no word table holds
        except (ValueError, OverflowError, KeyError):
            continue
        if resolve is _ordinal_day:
            start, end, detail = _ordinal_after(int(m["day"]), named_day, start, detail)
        if resolve is _that_day:
            # (any day said before it in the text, else one named before the text)
            day_before = out[-1].date if out and out[-1].date.granularity == "day" else named_day
            if day_before is None:  # ("I'll never forget that day": no day to be)
                continue
            start, end, detail = day_before.start, day_before.end, \
                f"{day_before.phrase}, named before it"
        out.append(Found(m.start(), m.start() + len(phrase),
                         ResolvedDate(phrase, start, end, granularity), detail,
                         explicit=resolve in _EXPLICIT or detail == AS_WRITTEN,
                         label_at=m.end()))
    out = _weekday_of_the_stretch(text, _ends_after_start(text, _offset_from(
        text, _counted_from(text, _today_after(text, _one_day_twice(text, out), today)))))
    try:
        return _join_ranges(text, out)
    except OverflowError:  # a range reaching past year 9999: the dates as found, unjoined
        return out


# "flying out Sunday, hotel is the Venetian, back Friday night" (said on a Thursday): the day a
# trip or a stretch ends is not before the day it starts in the same sentence (Friday was read as
# the next day, two days before the Sunday)
_ENDS_BEFORE = re.compile(r"(?i)(?:\b(?:back|return(?:ing|s)?|home|until|till|til|through|thru|"
                          r"to)\s+(?:on\s+)?|[-–]\s*)$")


def _ends_after_start(text: str, found: list[Found]) -> list[Found]:
    out, started = list(found), None
    for n, f in enumerate(found):
        bare = f.detail.startswith("the first ") and f.date.granularity == "day" \
            and f.date.start == f.date.end
        if bare and started is not None and f.date.start < started.date.start \
                and not moved_away_from(text, started) \
                and _ENDS_BEFORE.search(text, max(0, f.start - 12), f.start) \
                and not re.search(r"[.!?\n]", text[started.end:f.start]):
            if _WEEKDAY_ONLY.search(f.date.phrase):
                x = f.date.start + timedelta(
                    days=7 * -(-(started.date.start - f.date.start).days // 7))
            else:  # a day of a month: that day a year on ("promo starts Dec 1 and goes to Dec
                # 24", said on 4 Dec, was 2 December 2027, weeks added to 24 December 2026)
                try:
                    x = f.date.start.replace(year=f.date.start.year + 1)
                except ValueError:  # (29 February)
                    continue
                if x < started.date.start:
                    continue
            out[n] = replace(f, date=replace(f.date, start=x, end=x),
                             detail=f"{f.detail}, the end after the start {started.date.start}")
        if out[n].date.granularity == "day":
            started = out[n]
    return out


def _weekday_of_the_stretch(text: str, found: list[Found]) -> list[Found]:
    """"tournament is the weekend of Dec 12-13, bus leaves at 6am Saturday" (said on Monday 23
    Nov): a bare weekday after a stretch of days named in its sentence is that stretch's (it was
    the coming Saturday, 28 Nov)."""
    out = list(found)
    for n, f in enumerate(found):
        if not (_BARE_WEEKDAY.fullmatch(f.date.phrase) and f.date.start == f.date.end
                and f.detail.startswith(("the first ", "the most recent "))):
            continue
        stretch = next((a for a in reversed(out[:n])
                        if 1 <= (a.date.end - a.date.start).days <= 6
                        and _NAMES_MONTH.search(a.date.phrase)  # (not "next week": its own)
                        and not re.search(r"[.!?\n]", text[a.end:f.start])), None)
        if stretch is None or stretch.date.start <= f.date.start <= stretch.date.end:
            continue
        day = next((stretch.date.start + timedelta(days=k)
                    for k in range((stretch.date.end - stretch.date.start).days + 1)
                    if (stretch.date.start + timedelta(days=k)).weekday()
                    == f.date.start.weekday()), None)
        if day is not None:
            out[n] = replace(f, date=replace(f.date, start=day, end=day),
                             detail=f"the {WEEKDAYS[day.weekday()].capitalize()} of "
                                    f"{stretch.date.phrase} [{stretch.date.start}]")
    return out


# "since" before a date looks back from when it was said: "No pages since Tuesday" (said on a
# Friday) is the Tuesday before, not the one after; "errors since Nov 3" is this Nov 3, not next
# year's. A "since" of reason is followed by its clause's verb ("since Friday is a holiday, we
# ship Thursday") and keeps the tense the clause gives.
_SINCE_BEFORE = re.compile(r"(?i)\bsince\s+(?:the\s+|last\s+|this\s+)?$")
# ("Friday's a holiday" is a reason; "since Friday's release" the release's day, which is past)
_REASON_AFTER = re.compile(r"(?i)(?:['’]s\s+(?:a|an|the|not|no|when|our|my|your|their|also|"
                           r"already|going|off|out)\b|"
                           r"\s+(?:is|isn['’]t|are|aren['’]t|was|were|will|won['’]t|"
                           r"falls?|fell|has|had|means)\b)")


def _since_date(text: str, m: re.Match, phrase: str) -> bool:
    if not (re.match(r"(?i)since\b", phrase)
            or _SINCE_BEFORE.search(text, max(0, m.start() - 12), m.start())):
        return False
    return not _REASON_AFTER.match(text, m.start() + len(phrase))


# "the day after Thanksgiving", "the week before Christmas", "the Monday after Thanksgiving", "the
# week of Jan 11": a day or week counted from the day written after it (each was that day itself,
# and "the Friday before Christmas", said in November, the Friday just past)
_COUNTED_FROM = re.compile(r"(?i)(?<!\ba\s)(?<!\bone\s)\b(?:the\s+)?(?P<what>day|week|weekend|(?:mon|tues|wednes|thurs|"
                           r"fri|satur|sun)day)\s+(?P<rel>before|after|of)\s+(?:the\s+)?$")


# "90 days after Dec 1", "two weeks before the 15th", "3 months from Jan 1": a day counted from
# another ("The AWS savings plan expires 90 days after Dec 1" was dated 1 December)
_OFFSET_FROM = re.compile(r"(?i)\b(?P<n>\d{1,3}|a|an|one|two|three|four|five|six|seven|eight|nine|"
                          r"ten|eleven|twelve)[ \t-]*(?P<unit>days?|weeks?|months?)\s+"
                          r"(?P<rel>after|before|from|prior\s+to|past)\s+(?:the\s+)?$")


def shifted(day: date, n: int, unit: str) -> date:
    """`day` moved by `n` (negative: back) days, weeks or months ("day", "week", "month")."""
    return add_months(day, n) if unit == "month" \
        else day + timedelta(days=n * (7 if unit == "week" else 1))


def _offset_from(text: str, found: list[Found]) -> list[Found]:
    out: list[Found] = []
    for f in found:
        m = _OFFSET_FROM.search(text, max(0, f.start - 40), f.start)
        if m is None or f.labelled or f.date.granularity != "day":
            out.append(f)
            continue
        n, unit = _number(m["n"]), m["unit"].lower().rstrip("s")
        sign = -1 if m["rel"].lower() in ("before", "prior to") \
            or m["rel"].lower().startswith("prior") else 1
        day = f.date.start
        moved = shifted(day, sign * n, unit)
        out = [o for o in out if o.end <= m.start()]
        out.append(Found(m.start(), f.end, ResolvedDate(text[m.start():f.end], moved, moved, "day"),
                         f"{n} {unit}s {m['rel'].lower()} {day}", explicit=f.explicit,
                         label_at=f.label_at))
    return out


def _counted_from(text: str, found: list[Found]) -> list[Found]:
    out: list[Found] = []
    for f in found:
        m = _COUNTED_FROM.search(text, max(0, f.start - 40), f.start)
        if m is None or f.labelled or f.date.start != f.date.end \
                or (m["what"].lower() == "day" and m["rel"].lower() == "of"):
            out.append(f)
            continue
        what, rel, day = m["what"].lower(), m["rel"].lower(), f.date.start
        sign = -1 if rel == "before" else 1
        if what == "day":
            a = b = day + timedelta(days=sign)
        elif what == "week":
            monday = day - timedelta(days=day.weekday()) + timedelta(weeks=0 if rel == "of" else sign)
            a, b = monday, monday + timedelta(days=6)
        elif what == "weekend":
            if rel == "after":
                a = day + timedelta(days=(5 - day.weekday()) % 7 or 7)
            else:
                a = day - timedelta(days=(day.weekday() - 6) % 7 or 7) - timedelta(days=1)
            b = a + timedelta(days=1)
        else:  # a weekday: the nearest such day before or after the day, never the day itself
            wd = WEEKDAYS.index(what)
            a = b = day + timedelta(days=sign * ((sign * (wd - day.weekday())) % 7 or 7)) \
                if rel != "of" else None
            if a is None:
                out.append(f)
                continue
        # the weekday, "day" or "week" before it is this date's part, not a date of its own
        out = [o for o in out if o.end <= m.start()]
        # (a week is a week: "week of Nov 23 — dana" in a rota is about no one day of it, and
        # "who's on call today?" is answered by the day's own word, "raj is on call until Sunday")
        out.append(Found(m.start(), f.end, ResolvedDate(text[m.start():f.end], a, b,
                                                        "week" if what == "week" else "day"),
                         f"{what} {rel} {day}", explicit=f.explicit, label_at=f.label_at))
    return out


def _today_after(text: str, found: list[Found], today: date) -> list[Found]:
    """"I'm off Monday, back Wednesday", said on a Wednesday: a bare weekday that is today's,
    after a later day in the same sentence, is the next one, not today (it was 25 November, and
    "when is raj back?" was answered with the day he wrote it)."""
    out = list(found)
    for i in range(1, len(out)):
        a, b = out[i - 1], out[i]
        if b.labelled or b.explicit or b.date.granularity != "day" or b.date.start != today \
                or not _BARE_WEEKDAY.fullmatch(b.date.phrase) or a.date.start <= today \
                or re.search(r"[.!?\n]", text[a.end:b.start]) \
                or moved_away_from(text, b):  # ("ships Monday instead of Thursday": today)
            continue
        x = today + timedelta(days=7)
        out[i] = replace(b, date=replace(b.date, start=x, end=x),
                         detail=f"the first {b.date.phrase.strip().capitalize()} after "
                                f"{a.date.phrase} [{a.date.start}]")
    return out


_BARE_WEEKDAY = re.compile(rf"(?i)(?:on\s+)?{_WEEKDAY}")  # (not _WEEKDAY_ONLY, which is a search)


def _one_day_twice(text: str, found: list[Found]) -> list[Found]:
    """"Thanksgiving, Nov 26": a holiday and the date beside it are one day, said by the date
    (labelled twice, "Thanksgiving [2026-11-26], Nov 26 [2026-11-26]")."""
    if len(found) < 2:
        return found
    drop = {i for i, (a, b) in enumerate(zip(found, found[1:]))
            if _HOLIDAY_NAME.fullmatch(a.date.phrase)
            and re.fullmatch(r"[\s,(]*", text[a.end:b.start])
            and (a.date.start, a.date.end) == (b.date.start, b.date.end)
            # "the Tuesday after, Dec 8": a weekday, then the date it is (the weekday alone
            # was the Tuesday after it was said)
            or _WEEKDAY_ONLY.match(a.date.phrase) and b.date.granularity == "day"
            and _WEEKDAY_TO_DATE.fullmatch(text[a.end:b.start])
            and _NAMES_MONTH.search(b.date.phrase)
            and WEEKDAYS[b.date.start.weekday()] == a.date.phrase.lower()}
    return [f for i, f in enumerate(found) if i not in drop]


_NAMES_MONTH = re.compile(rf"(?i)\b{_MONTH_NAME}|\d/\d|\d{{4}}-\d\d-\d\d")
# what may come between a weekday and the date it is: "the Tuesday after, Dec 8", "my Saturday
# night shift (Dec 5)" (said on Saturday 28 Nov, the weekday alone was that day)
_WEEKDAY_TO_DATE = re.compile(r"(?i)(?:\s+(?:night|morning|afternoon|evening|overnight|day|late|"
                              r"early|shift|slot|class|service|game|match))*"
                              r"[\s,(]*(?:after|before|following|then|on)?[\s,(]*")


def _ordinal_after(day: int, named: ResolvedDate | None, guess: date, detail: str
                   ) -> tuple[date, date, str]:
    """"the 4th" after a day the text named with its month ("I can't make March 5, leaving
    after lunch on the 4th", said in November) is that month's (or the next or last one's,
    whichever is nearest: "March 30, back on the 2nd" is 2 April), not November's or
    December's: the nearest month to when it was said resolved it to 4 December."""
    if named is None:
        return guess, guess, detail
    months = [add_months(named.start.replace(day=1), k) for k in (-1, 0, 1)]
    days = [x for x, _ in _valid_days([(m.year, m.month) for m in months], day)]
    if not days:
        return guess, guess, detail
    x = min(days, key=lambda d: abs((d - named.start).days))
    return x, x, f"the nearest to {named.phrase} named before it"


def day_named_with_month(text: str, anchor: datetime | date) -> ResolvedDate | None:
    """The first day `text` writes with its month ("March 3-5": 3 March), the day a reply's bare
    "the 4th" is read against ("partners welcome for the dinner on the 4th?" under "the offsite,
    March 3-5" is 4 March, not the 4th of the month it was said in)."""
    if not _NAMES_MONTH.search(text):
        return None
    return next((replace(f.date, end=f.date.start) for f in find_dates(text, anchor)
                 if f.date.granularity == "day" and _NAMES_MONTH.search(f.date.phrase)), None)


def day_in_span_named(text: str, earlier: list[tuple[str, datetime | date]]
                      ) -> ResolvedDate | None:
    """The day of a span said before (with its month: "offsite is confirmed: Lisbon, March 9-12")
    that a bare ordinal of `text` falls in ("partners welcome for the dinner on the 11th", said
    a week later in the channel, no reply to it, is 11 March, not 11 December). `earlier`: the
    texts said before it, nearest first, with when each was said."""
    days = {int(d[:-2]) for d in _BARE_ORDINAL.findall(text)}
    # (a journey to it or from it is a day either side: "I'm flying in on the 8th from Berlin"
    # after "offsite is in Lisbon, March 9-12" was 8 December)
    side = 1 if _TRAVEL.search(text) else 0
    for said, anchor in earlier:
        if not _NAMES_MONTH.search(said):
            continue
        for f in find_dates(said, anchor):
            span = f.date
            if span.granularity == "day" and span.end > span.start \
                    and (span.end - span.start).days < 31 and _NAMES_MONTH.search(span.phrase):
                hit = next((span.start + timedelta(days=k)
                            for k in range(-side, (span.end - span.start).days + 1 + side)
                            if (span.start + timedelta(days=k)).day in days), None)
                if hit is not None:
                    return replace(span, start=hit, end=hit)
    return None


_TRAVEL = re.compile(r"(?i)\b(?:fl(?:y|ying|ies|ew|ight)|arriv\w*|land(?:s|ing)?|leav(?:e|es|ing)|"
                     r"depart\w*|head(?:s|ing)?\s+(?:home|back|out)|get(?:ting)?\s+in|drive|"
                     r"driving|train|check(?:ing)?[\s-]+(?:in|out))\b")


def has_bare_ordinal(text: str) -> bool:
    """Whether `text` holds a day of the month with no month ("on the 4th")."""
    return bool(_BARE_ORDINAL.search(text))


_BARE_ORDINAL = re.compile(r"(?i)\b[0-3]?\d(?:st|nd|rd|th)\b")


def annotate_dates(text: str, anchor: datetime, named: ResolvedDate | None = None
                   ) -> tuple[str, list[ResolvedDate]]:
    """"I went there yesterday" @ 2023-05-08 -> "I went there yesterday [2023-05-07]": every
    expression whose meaning depends on when it was said gets its label (ISO dates and years alone
    need none). Labelled phrases are left alone and not reported, so annotating twice changes
    nothing. `named`: as find_dates'."""
    parts: list[str] = []
    resolved: list[ResolvedDate] = []
    pos = 0
    for f in find_dates(text, anchor, named):
        if f.labelled or f.explicit:
            continue
        at = max(f.end, f.label_at)
        parts += [text[pos:at], f" [{f.date.label}]"]
        pos = at
        resolved.append(f.date)
    return "".join(parts) + text[pos:], resolved


def event_dates_in(text: str, anchor: datetime | date) -> list[ResolvedDate]:
    """Every date the text is about, labels included ("... [2026-06-03]" alone counts too),
    without repeats, in order."""
    phrases = find_dates(text, anchor)
    found = [f.date for f in phrases]
    covered = [(f.start, f.end) for f in phrases]
    for m in re.finditer(rf"\[(?P<label>{LABEL})\]", text):
        if any(s <= m.start() <= e + 1 for s, e in covered):
            continue
        rd = parse_label(m["label"])
        if rd is not None:
            found.append(rd)
    seen, out = set(), []
    for rd in found:
        if (rd.start, rd.end, rd.granularity) not in seen:
            seen.add((rd.start, rd.end, rd.granularity))
            out.append(rd)
    return out


# --- absolute dates (explicit, with their year) ------------------------------------------------
def parse_date_text(text: str) -> list[tuple[str, date]]:
    """Absolute single days written with their year, as (matched phrase, date) in order of
    appearance. Impossible and ambiguous dates (31 February, 05/08/2023) are skipped."""
    out = []
    for f in find_dates(text, date(2000, 1, 1)):
        rd = f.date
        if rd.granularity == "day" and rd.start == rd.end and re.search(
                r"\d{4}", text[f.start:f.end]) and not f.labelled:
            out.append((text[f.start:f.end], rd.start))
    return out


# --- timestamps ----------------------------------------------------------------------------------
_EPOCH = re.compile(r"[+-]?\d+(?:\.\d+)?")
_SESSION_TIME = re.compile(r"(?P<h>\d{1,2}):(?P<m>\d{2})\s*(?P<ampm>am|pm)\s+on\s+(?P<date>.+)",
                           re.IGNORECASE)


def parse_timestamp(value) -> datetime:
    """An aware UTC datetime from a datetime (naive is taken as UTC), a date (midnight UTC), epoch
    seconds (number or string, Slack's "1715172960.000200" included), ISO 8601 (Z, offset or none)
    or a LoCoMo session time ("1:56 pm on 8 May, 2023"). ValueError otherwise."""
    return parse_local_timestamp(value).astimezone(timezone.utc)


def parse_local_timestamp(value) -> datetime:
    """parse_timestamp, keeping the UTC offset the time was written with (an ISO string with an
    offset, an aware datetime); anything else is UTC. The offset is what dates said in the
    message are resolved in: 23:30 on 10 March in California is already 11 March in UTC."""
    if isinstance(value, datetime):
        return value.replace(tzinfo=timezone.utc) if value.tzinfo is None else value
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
        return parse_local_timestamp(datetime.fromisoformat(text))
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


def utc_offset_minutes(ts: datetime) -> int:
    offset = ts.utcoffset()
    return int(offset.total_seconds() // 60) if offset is not None else 0


def local_time(ts: datetime, offset_minutes: int | None) -> datetime:
    """`ts` in the timezone it was written in (a fixed UTC offset), UTC when unknown."""
    if not offset_minutes:
        return ts.astimezone(timezone.utc)
    return ts.astimezone(timezone(timedelta(minutes=offset_minutes)))


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


# --- durations ------------------------------------------------------------------------------------
_UNITS = ("days", "weeks", "months", "years")


def normal_unit(unit: str) -> str:
    unit = unit.lower().strip()
    unit = unit if unit.endswith("s") else unit + "s"
    if unit not in _UNITS:
        raise ValueError(f"unknown duration unit {unit!r}: use one of {', '.join(_UNITS)}")
    return unit


def describe_duration(days: int, unit: str) -> str:
    """12 days; 3 weeks (21 days); 3 weeks and 2 days (23 days); months and years from a day count
    are approximate ("about 4.1 months (125 days)"): durations between two known dates use calendar
    months instead (see describe_span)."""
    unit, days = normal_unit(unit), abs(days)
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


def describe_span(a: date, b: date, unit: str) -> str:
    """Days and weeks by count; months and years as calendar units plus leftover days."""
    unit = normal_unit(unit)
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
