"""A question asked inside a thread, about the thread: "@lurker when is it?" under "Postgres 16
upgrade: we need a maintenance window".

The mention's own words name nothing ("it"), so recall had nothing to search by and answered
that it knew nothing, while the thread's opening said what "it" is. The thread's subject (its
first sentence up to a colon or a dash, else its first words) takes the pronoun's place, so the
question reads as the asker meant it: "when is Postgres 16 upgrade?". Nothing changes for a
question that names its subject already, or for one asked outside a thread.
"""
from __future__ import annotations

import re

from .dates import ANNOTATED

# the pronoun that stands for the thread's subject: "when is it?", "who owns this?", "is that
# done?", "what did we decide about them?"
_REFERS = re.compile(r"(?i)\b(?P<word>it|this|that|they|them|its|their)\b(?!['’]s\b)")
# "it's", "that's": the pronoun with its verb ("when's it due" keeps working through _REFERS)
_REFERS_IS = re.compile(r"(?i)\b(?P<word>it|that)['’]s\b")
_SUBJECT_WORDS = 8  # a thread's opening without a colon: its first words name it
_ASKED_WORDS = 14  # one that asks is its subject whole
_SUBJECT_END = re.compile(r"\s*(?::|\s[-\u2013\u2014]\s|[.!?](?:\s|$)|\n)")
_MENTION = re.compile(r"<[@#!][^>]*>|@[\w.-]+")
# a thread's opening with no subject to lend ("hey all", "quick question", "thoughts?")
_NO_SUBJECT = re.compile(r"(?i)^\W*(?:hey|hi|hello|heads up|quick question|question|fyi|psa|"
                         r"update|thoughts|so|ok|okay)\W*$")


# a question that asks of nothing named, as people ask in a thread: "what did we decide?",
# "what's the status?", "any updates?", "eta?"
_BARE = re.compile(r"(?i)^\W*(?:so|ok|okay|and)?[\s,]*(?:what(?:['’]s|\s+is|\s+was|\s+were)?\s+"
                   r"(?:did\s+we\s+|have\s+we\s+|we\s+)?(?:decide|decided|agree|agreed|settle|"
                   r"settled|conclude|concluded|the\s+(?:decision|status|latest|plan|outcome|eta|"
                   r"conclusion|verdict|next\s+step|owner))|what\s+was\s+(?:decided|agreed)|"
                   r"who\s+(?:owns|is\s+on|is\s+handling|decided)|when\s+(?:is|was)\s+the\s+"
                   r"(?:deadline|date|eta)|any\s+(?:updates?|news|decision|progress)|status|"
                   r"eta|tl;?dr|summary)[\s?!.]*$")


def thread_subject(opening: str) -> str | None:
    """What a thread's opening message is about: "Postgres 16 upgrade" of "Postgres 16 upgrade:
    we need a maintenance window.", or its first words; None when it says nothing."""
    text = ANNOTATED.sub("", _MENTION.sub("", opening)).strip(" \t\n*_~`>")
    if not text:
        return None
    head = _SUBJECT_END.split(text, maxsplit=1)[0].strip(" *_~`")
    if _NO_SUBJECT.match(head) and len(_SUBJECT_END.split(text, maxsplit=1)) > 1:
        rest = text[len(head):].lstrip(" :-\u2013\u2014.!?\n")
        head = _SUBJECT_END.split(rest, maxsplit=1)[0].strip(" *_~`")
    words = head.split()
    if not words or _NO_SUBJECT.match(head):
        return None
    if _ASKING.match(head):
        return " ".join(words[:_ASKED_WORDS]).rstrip(",;?")
    verb = _VERB.search(head)  # "The billing export is broken …": what comes before its verb
    if verb is not None and verb.start() > 0:
        words = head[:verb.start()].split()
    return " ".join(words[:_SUBJECT_WORDS]).rstrip(",;")


# an opening that asks ("Should we use Kafka or SQS for the event bus?") is its subject whole
_ASKING = re.compile(r"(?i)^\W*(?:should|shall|can|could|do|does|did|are|is|was|were|will|would|"
                     r"what|which|who|when|where|why|how|any)\b")
_VERB = re.compile(r"(?i)\s(?:is|are|was|were|has|have|had|will|would|should|can|could|must|"
                   r"needs?|starts?|started|begins?|ends?|goes|went|moved|moves|moving|broke|"
                   r"failed|fails|keeps|kept|got|gets|looks|seems|landed|lands|shipped|ships|"
                   r"slipped|slips|won't|isn't|aren't|wasn't|didn't|doesn't)\b")


def in_thread(question: str, opening: str | None) -> str:
    """`question` with its first pronoun for the thread replaced by the thread's subject
    (`opening`: the thread's first message), or unchanged."""
    subject = thread_subject(opening) if opening else None
    if subject is None:
        return question
    if subject.lower() in question.lower():
        return question  # it names the subject already
    if _BARE.match(question):  # "what did we decide?": of the thread
        return f"{question.rstrip(' ?!.')} about {subject}?"
    m = _REFERS_IS.search(question)
    if m is not None:
        return f"{question[:m.start()]}{subject} is{question[m.end():]}"
    m = _REFERS.search(question)
    if m is None:
        return question
    owner = m["word"].lower() in ("its", "their")
    return f"{question[:m.start()]}{subject}{'’s' if owner else ''}{question[m.end():]}"
