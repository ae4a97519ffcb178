"""A standup bot's post, read as the person's standup.

Geekbot, Standuply and Slack workflows post a form's questions and one person's answers:

    *maya* posted an update for *Daily Standup*
    *What did you do yesterday?*
    Fixed the flaky checkout test
    *What will you do today?*
    Work on the billing export
    *Anything blocking your progress?*
    Waiting on legal for the DPA

Read line by line, each question became a memory of its own, each answer lost whose it was ("Work
on the billing export"), and "who is blocked?" found nothing. A form's post is rewritten for the
extractor as the standup people write by hand, each answer with whose it is:
"Today (maya's Daily Standup): Work on the billing export." — so memory.open_tasks reads its plan
and blockers as it reads a standup typed in the channel. The message itself is stored as posted.
"""
from __future__ import annotations

import re

_MARKUP = re.compile(r"[*_~`]")
# "*maya* posted an update for *Daily Standup*", "@tom submitted a report in Weekly check-in"
_HEADER = re.compile(r"(?i)^\W*@?(?P<who>[\w][\w .'-]{0,40}?)\W*\s+(?:posted|submitted|shared)\s+"
                     r"(?:an?\s+|the\s+|their\s+)?(?:update|report|check-?in|standup|answers?)"
                     r"(?:\s+(?:for|in|to)\s+\W*(?P<form>[^\n]+?)\W*)?\s*$")
# what a question asks, as a standup written by hand labels it
_LABELS = (("Yesterday", re.compile(r"(?i)\byesterday\b|\b(?:did|done|accomplish|finish|"
                                    r"complete)\w*\b|\blast (?:day|time|week)\b")),
           ("Blockers", re.compile(r"(?i)\bblock|\bimped|\bstuck\b|\bobstacle|\bin your way\b|"
                                   r"\bslow(?:ing)? you\b")),
           ("Today", re.compile(r"(?i)\btoday\b|\bwill you\b|\bplan|\bworking on\b|\bnext\b|"
                                r"\bgoing to\b")))
MIN_ANSWERS = 2  # a form: at least two questions answered


def standup_text(text: str) -> str | None:
    """The form's answers as a hand-written standup, one line each with whose they are, or None
    when `text` is no form's post."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    header = _HEADER.match(_MARKUP.sub("", lines[0])) if lines else None
    body = lines[1:] if header else lines
    pairs: list[tuple[str, list[str]]] = []
    marked = True  # every question set in bold, as a form posts them
    for line in body:
        plain = _MARKUP.sub("", line).strip()
        if plain.endswith("?"):
            pairs.append((plain, []))
            marked = marked and line.startswith("*") and line.endswith("*")
        elif pairs:
            pairs[-1][1].append(plain)
        else:
            return None  # prose before any question: no form
    answered = [(q, " ".join(a)) for q, a in pairs if a]
    if len(answered) < MIN_ANSWERS or not (header or marked):
        return None  # a person's own questions and answers are theirs to say
    whose = ""
    if header:
        form = (header["form"] or "standup").strip()
        whose = f" ({header['who'].strip()}'s {form})"
    # "Today (maya's Daily Standup): …": whose, before the colon, so one person's "Today" is no
    # topic another's replaces
    return "\n".join(f"{_label(q)}{whose}: {_sentence(a)}." for q, a in answered)


def _label(question: str) -> str:
    return next((label for label, asks in _LABELS if asks.search(question)),
                question.rstrip("?").strip())


def _sentence(answer: str) -> str:
    return answer.rstrip(" .")
