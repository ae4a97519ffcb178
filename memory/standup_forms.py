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


# A standup typed on one line: "Y: reviewed #1204, T: start on the webhook retries, B: waiting on
# staging creds from ops". Read as one sentence, its blocker was no standup's ("what is leo
# blocked on?" was answered "leo has not said they are blocked"): each label is put on its own
# line, spelled out as memory.open_tasks reads a standup.
_SHORT_LABELS = {"y": "Yesterday", "t": "Today", "b": "Blockers", "yesterday": "Yesterday",
                 "today": "Today", "blockers": "Blockers", "blocker": "Blockers"}
_INLINE_LABEL = re.compile(r"(?:^|[,;.]?\s+)\b(Y|T|B|[Yy]esterday|[Tt]oday|[Bb]lockers?)\s*:\s*")


def labelled_standup(text: str) -> str | None:
    """A one-line standup's parts on lines of their own, each label spelled out, or None when
    `text` does not open with a label and hold two of them."""
    if "\n" in text.strip():
        return None
    found = list(_INLINE_LABEL.finditer(text))
    if not found or found[0].start() != 0 or len({_SHORT_LABELS[m[1].lower()] for m in found}) < 2:
        return None
    if not any(len(m[1]) == 1 for m in found) and all(
            text[m.start():m.start() + 1] in ". " for m in found[1:]):
        return None  # "Yesterday: …. Today: …": sentences already
    return _INLINE_LABEL.sub(lambda m: ("\n" if m.start() else "")
                             + f"{_SHORT_LABELS[m[1].lower()]}: ", text)

