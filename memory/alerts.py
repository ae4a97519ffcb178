"""How long an alert lasted: a pager bot's "TRIGGERED: checkout-api error rate > 5% (SEV2)" and,
later, "RESOLVED: checkout-api error rate > 5% (SEV2)".

Asked "how long did the checkout outage last?", Lurker listed both messages by their day and
left the subtraction to the reader. Alerting tools (PagerDuty, Opsgenie, Alertmanager's
"[FIRING:1] …" / "[RESOLVED] …", Grafana's "[Alerting]" / "[OK]") post the same text with a
status in front: the pair with the same text is the alert's start and end, and the time between
them is computed here from when each was said, never by a model.

People declare an incident too ("Declaring SEV2: checkout is returning 502s") and resolve it in
its thread ("Resolved. Error rate back to baseline."): the extractor keeps such a reply as one
memory citing the declaration (memory.offline_extractor), and that pair is a span as well.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from datetime import datetime, timedelta

from .dates import ANNOTATED
from .models import Memory
from .text import stem_tokens

_FIRING = re.compile(r"(?i)^\W*(?:triggered|firing(?::\d+)?|alerting|alert|alarm|critical|"
                     r"problem|down)\W*[\]:)-]\s*(?P<what>\S.*)$")
_ENDED = re.compile(r"(?i)^\W*(?:resolved|recovered|cleared|ok|up)(?::\d+)?\W*[\]:)-]\s*"
                    r"(?P<what>\S.*)$")

# "Declaring SEV2: …", "SEV1 declared", "we have a major incident", "declaring an incident"
DECLARED = re.compile(r"(?i)\b(?:declar\w*\s+(?:an?\s+|a\s+new\s+)?(?:sev|p)\s?-?[0-4]\b|"
                      r"(?:sev|p)\s?-?[0-4]\s+(?:is\s+)?declared\b|"
                      r"declar\w*\s+(?:an?\s+)?(?:major\s+|new\s+)?incident\b|"
                      r"incident\s+(?:is\s+)?declared\b|"
                      r"we\s+(?:have|got)\s+an?\s+(?:major\s+|sev\s?[0-4]\s+)?incident\b|"
                      # "🚨 payments-api error rate at 12% since 14:02 UTC, paging oncall"
                      r"pag(?:ing|ed)\s+(?:the\s+)?(?:[\w-]+\s+)?on[- ]?call\b|"
                      # "SEV2: payments API 5xx at 12%, paging payments on-call"
                      r"^\W*(?:sev|p)\s?-?[0-4]\s*:)")
# a thread reply that ends it: "Resolved.", "Mitigated, monitoring", "All clear", "We're back"
RESOLVES = re.compile(r"(?i)^\W*(?:@\S+\s+)?(?:resolved|mitigated|all[ -]clear|recovered|"
                      r"fixed|we(?:'re|’re| are) back|"
                      # "✅ SEV2 resolved. duration 68 min", an incident bot's
                      r"(?:sev|p)\s?-?[0-4]\s+(?:is\s+)?(?:resolved|mitigated|closed|over)|"
                      r"(?:the\s+)?incident\s+(?:is\s+)?"
                      r"(?:resolved|closed|over|mitigated)|closing\s+(?:this|the incident))\b")


# a message that ends with its resolution: "Cert renewed, error rate back to 0.1%. Resolved."
_ENDS_RESOLVED = re.compile(r"(?i)(?:^|[.!?;]\s+)(?P<said>(?:resolved|mitigated|all[ -]clear|"
                            r"closing\s+(?:this|the\s+incident)|(?:the\s+)?incident\s+(?:is\s+)?"
                            r"(?:resolved|closed|over|mitigated))\W*)$")


def says_resolved(text: str) -> bool:
    """Whether `text` opens with a resolution ("Resolved. Error rate back to baseline.") or
    ends with one ("Cert renewed, error rate back to 0.1%. Resolved.")."""
    return bool(RESOLVES.match(text) or _ENDS_RESOLVED.search(text))


def resolution_said(text: str) -> str:
    """The resolution itself: a closing sentence ("Resolved."), else the whole text (which the
    resolution opens)."""
    found = _ENDS_RESOLVED.search(text) if not RESOLVES.match(text) else None
    return found["said"] if found else text


# what is done about an incident: "reverted the config", "rolled back to 7.3.1", "failed over"
MITIGATION = (r"revert(?:ed|ing)?|roll(?:ed|ing)?\s+back|restart(?:ed|ing)?|hotfix(?:ed)?|"
              r"fail(?:ed|ing)?\s+over|scaled(?:\s+(?:up|out))?|mitigat(?:ed|ing)|"
              r"back\s+to\s+normal")


# a cause stated: "Root cause looks like the new pool limit", "caused by the cert expiry"
CAUSE_WORDS = (r"\b(?:root[- ]caused?|caused by|because of|due to|(?:the )?culprit|turned out|"
               r"turns out|"
               r"traced (?:it )?(?:back )?to)\b")
# a cause guessed at, opening a reply in a problem's thread: "looks like the new connection pool
# size (20 → 5) from this morning's deploy", "I think it's the cert", "probably the DNS change";
# or a sentence after an ack: "ack, looking. looks like the new WAF rule from yesterday is …"
GUESSED_CAUSE = (r"(?:^|(?<=[.!?])\s)\W*(?:(?:it\s+)?(?:looks|seems)\s+(?:like|to\s+be)|"
                 r"(?:i|we)\s+(?:think|suspect|bet)\s+(?:it'?s|it\s+is|it\s+was)|"
                 r"my\s+(?:guess|bet)\s+is|suspect(?:ed)?:?|probably|likely)\s+"
                 r"(?:the|a|an|our|this|that)\b")


# an app's card as bot/app_content.py reads it: "#4312: High error rate on checkout-api (Status
# Triggered; Service checkout-api; Assigned to @maya)." — the status a field, the title the alert
_CARD = re.compile(r"(?is)^\W*(?P<what>[^()]+?)\s*\((?:[^()]*;\s*)?status\s+(?P<status>\w+)\b"
                   r"[^()]*\)\W*$")
_CARD_FIRING = {"triggered", "firing", "alerting", "open", "critical", "down"}
_CARD_ENDED = {"resolved", "recovered", "cleared", "ok", "closed", "up"}


# the status after the title, in brackets: "🔥 [SEV2] checkout-api p99 latency > 2s (triggered).
# Assigned: @kenji", then "✅ [SEV2] checkout-api p99 latency > 2s (resolved). Duration 26m"
_STATUS_AFTER = re.compile(r"(?i)^[^\w\[]*(?P<what>[^()]+?)\s*\((?P<status>\w+)\)")


def _what(pattern: re.Pattern, memory: Memory) -> str | None:
    m = pattern.match(memory.content)
    if m is None:
        statuses = _CARD_FIRING if pattern is _FIRING else _CARD_ENDED
        card = _CARD.match(memory.content) or _STATUS_AFTER.match(memory.content)
        m = card if card and card["status"].lower() in statuses else None
    return " ".join(m["what"].lower().split()) if m else None


# PagerDuty resolves with less than it fired with: "TRIGGERED: High error rate on payments-api
# (5xx > 5%) #PD-8812", then "RESOLVED: High error rate on payments-api #PD-8812" (the pair was
# no span, and "how long did the payments outage last?" listed both)
_ASIDE = re.compile(r"\s*\([^()]*\)")
_ALERT_ID = re.compile(r"#[a-z]*-?\d+\b")


def _same_alert(ended: str | None, fired: str) -> bool:
    if ended is None:
        return False
    if ended == fired or _ASIDE.sub("", ended) == _ASIDE.sub("", fired):
        return True
    # (Alertmanager's "[RESOLVED] HighErrorRate checkout-api" after "[FIRING] HighErrorRate
    # checkout-api 5xx > 5% for 5m": its name, without the condition it fired on)
    if len(ended.split()) >= 2 and fired.startswith(f"{ended} "):
        return True
    ids = set(_ALERT_ID.findall(ended))
    if ids:
        return ids == set(_ALERT_ID.findall(fired))
    # (a metric's value is in both, what it fired on and what it ended on: "[FIRING] api-gateway
    # 5xx rate 12% (threshold 2%) region=eu-west-1", then "[RESOLVED] api-gateway 5xx rate 0.3%
    # region=eu-west-1")
    return _VALUE.sub("#", _ASIDE.sub("", ended)) == _VALUE.sub("#", _ASIDE.sub("", fired))


_VALUE = re.compile(r"(?<![\w-])\d+(?:[.,]\d+)?\s*(?:%|ms|s|m|k|x)?(?![\w-])")


def _resolves(declared: Memory, memory: Memory) -> bool:
    """Whether `memory` is a reply resolving the incident `declared` opened: it opens with a
    resolution's words and cites the declaring message (its thread's parent)."""
    return says_resolved(without_thread(memory)) and bool(
        set(declared.source_message_ids[:1]) & set(memory.source_message_ids[1:]))


def states_alert(text: str) -> bool:
    """Whether `text` is an alerting tool's post that an alert fired or ended ("[RESOLVED]
    HighErrorRate checkout-api": kept however short, it is half of a span)."""
    return bool(_FIRING.match(text) or _ENDED.match(text))


def alert_span(memories: Iterable[Memory]) -> tuple[Memory, Memory] | None:
    """The first of `memories` that says an alert fired (or an incident was declared) and the
    first resolution after it of the same alert (the same text after its status; a reply in
    the declaration's thread), or None."""
    memories = list(memories)
    for firing in memories:
        what = _what(_FIRING, firing)
        if what is not None:
            ended = [m for m in memories
                     if m.said_at > firing.said_at and _same_alert(_what(_ENDED, m), what)]
        elif DECLARED.search(firing.content) and not RESOLVES.match(firing.content):
            ended = [m for m in memories if m.said_at > firing.said_at and _resolves(firing, m)]
        else:
            continue
        if ended:
            return firing, min(ended, key=lambda m: m.said_at)
    return None


# People say it as well as tools: "Walk-in cooler is down, temp at 48F." and, hours later,
# "Cooler is back up, holding 36F." ("how long was the walk-in down?" listed both); "dbt run
# failing since 6am on stg_payments" and "dbt fixed, added the new currency column". Not a measure
# that fell ("Revenue is down 5%", "down to 240ms").
_SAID_DOWN = re.compile(r"(?i)^\W*(?P<what>[a-z][\w.'’ -]{0,40}?)\s+(?:is\s+|are\s+|went\s+|"
                        r"(?:has|have)\s+gone\s+|(?:is|are|['’]s|['’]re)\s+(?:still\s+)?)?"
                        r"(?:down|offline|failing|broken)\b(?!\s*(?:to|by|\d))")
_SAID_BACK = re.compile(r"(?i)^\W*(?P<what>[a-z][\w.'’ -]{0,40}?)\s+(?:is\s+|are\s+|['’]s\s+|"
                        r"['’]re\s+)?(?:(?:back\s+(?:up|online|to\s+normal)|(?:up|online|working|"
                        r"passing|green)\s+again|restored|fixed)\b|(?:"
                        # (or "back" alone, ending its clause: "Build server back, disk was
                        # full."; not "raj back Monday")
                        r"back(?=\s*(?:[,.;!]|$))))")


def says_back(text: str) -> bool:
    """Whether `text` says a thing that was down is back ("Cooler is back up", "RESOLVED: …")."""
    return bool(_SAID_BACK.match(text) or _ENDED.match(text) or RESOLVES.match(text))


def said_down_span(memories: Iterable[Memory], about: Callable[[Memory], bool]
                   ) -> tuple[Memory, Memory] | None:
    """The first of `memories` that `about` accepts and that says a thing is down, and the first
    after it that says a thing of the same name is back, or None. The time between is when
    each was said: it was down before someone said so."""
    memories = list(memories)
    for down in memories:
        said = _SAID_DOWN.match(down.content)
        if said is None or not about(down):
            continue
        what = set(stem_tokens(said["what"]))
        back = [m for m in memories if m.said_at > down.said_at
                and (up := _SAID_BACK.match(m.content)) and what & set(stem_tokens(up["what"]))]
        if back:
            return down, min(back, key=lambda m: m.said_at)
    return None


def without_thread(memory: Memory) -> str:
    """A thread reply's memory without the thread it cites ("Resolved. … (on maya's "…")")."""
    return _ON_THREAD.sub("", memory.content)


_ON_THREAD = re.compile(r"\s*\(on [^()]*?['’]s \".*\"\)\s*$", re.S)


def duration_words(delta: timedelta) -> str:
    """"47 minutes", "2 hours 5 minutes", "3 days 4 hours"."""
    minutes = round(delta.total_seconds() / 60)
    days, rest = divmod(minutes, 24 * 60)
    hours, minutes = divmod(rest, 60)
    parts = [(days, "day"), (hours, "hour"), (minutes, "minute")]
    said = [f"{n} {unit}{'s' if n != 1 else ''}" for n, unit in parts if n][:2]
    return " ".join(said) or "under a minute"


def clock(at: datetime) -> str:
    """"14:05 UTC", "15:05 UTC+01:00": the time as it was said, with its offset."""
    offset = at.utcoffset()
    if not offset:
        return f"{at:%H:%M} UTC"
    sign = "+" if offset >= timedelta(0) else "-"
    hours, minutes = divmod(abs(int(offset.total_seconds())) // 60, 60)
    return f"{at:%H:%M} UTC{sign}{hours:02d}:{minutes:02d}"


INCIDENT_WINDOW = timedelta(hours=12)  # a top-level "Resolved." ends a declaration this recent


def declares_incident(text: str) -> bool:
    """Whether a message declares an incident ("declaring SEV2", "we have a major incident")."""
    said = ANNOTATED.sub("", text)
    return bool(DECLARED.search(said)) and not RESOLVES.match(said)


# what a resolution says of any incident: no subject of its own
_RESOLVED_WORDS = frozenset(stem_tokens(
    "resolved mitigated all clear recovered fixed back up healthy fine green normal again "
    "since monitoring closing incident closed over we're we are everything utc postmortem "
    "rca follow up tomorrow today thanks everyone error errors rate dropping dropped latency "
    "baseline traffic customers users monday tuesday wednesday thursday friday saturday sunday"))


def ends_declared(said: str, declared: str) -> bool:
    """Whether a top-level resolution is of the incident declared above it: it names nothing
    ("Resolved.", "All clear, monitoring") or something the declaration names ("Resolved.
    Checkout healthy since 14:38 UTC." after "checkout is returning 502s"); "Resolved, search is
    back" in the same channel ends nothing of checkout's."""
    own = {s for s in stem_tokens(ANNOTATED.sub("", said)) if not s.isdigit()} - _RESOLVED_WORDS
    return not own or bool(own & set(stem_tokens(ANNOTATED.sub("", declared))))
