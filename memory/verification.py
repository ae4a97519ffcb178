"""Verification of extracted candidates against the transcript, in code, for every extractor.

Each candidate is kept, corrected or dropped:
- it must cite lines that exist in the transcript;
- concrete values it states (numbers, versions, amounts, dates) must appear in its source lines or
  their resolved-date annotations: an extractor may not invent them;
- memory poisoning: a message that tries to instruct the memory itself ("remember that…",
  "ignore previous instructions", "from now on you must…") does not become an instruction on its own
  say-so. Injection attempts are dropped; "remember that X" is kept as what the speaker said (a fact
  without a topic key, so it cannot supersede a decision the team actually made).
"""
from __future__ import annotations

import re

from .extraction import Candidate, TranscriptLine

_INJECTION = re.compile(
    r"(?i)\b(ignore|disregard|forget|override)\b[^.!?\n]{0,40}\b(previous|prior|above|earlier|all|"
    r"your|system)\b[^.!?\n]{0,20}\b(instructions?|prompts?|rules?|messages?|guidelines)\b|"
    r"\byou are now\b|\bnew (system )?instructions?:|\bsystem prompt\b|\bjailbreak\b|"
    r"\bact as (an? )?(admin|root|system)\b")
_SELF_DIRECTED = re.compile(
    r"(?i)^\W*(@?lurker\W+)?(please\s+)?(remember|note|memorize|store|save)\s+(that|this|:)|"
    r"\bfrom now on,? (you|lurker)\b|\b(lurker|bot),? (always|never|must|should)\b")
_DIGITS = re.compile(r"\d+")


def _values(text: str) -> set[int]:
    """Digit runs as numbers: "7 May 2023" and "2023-05-07" state the same values."""
    return {int(d) for d in _DIGITS.findall(text)}


def verify(candidates: list[Candidate], lines: list[TranscriptLine]) -> list[Candidate]:
    by_index = {line.index: line for line in lines}
    kept: list[Candidate] = []
    for candidate in candidates:
        sources = [by_index[i] for i in candidate.source_lines if i in by_index]
        if not sources:
            continue  # cites nothing that was said
        said = " ".join(line.content for line in sources)
        if _INJECTION.search(said) or _INJECTION.search(candidate.content):
            continue
        # (who said it is said too: "Fix confirmed by dev1: …" names its source's author, and
        # a name's digits are no invented value; the rules above read the words alone)
        if _values(candidate.content) - _values(said) - _values(
                " ".join(line.speaker for line in sources)):
            continue  # states a value no source line contains
        if candidate.type == "instruction" and _SELF_DIRECTED.search(said):
            candidate = candidate.model_copy(update={"type": "fact", "topic_key": None})
        kept.append(candidate.model_copy(update={"source_lines": [s.index for s in sources]}))
    return kept
