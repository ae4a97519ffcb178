"""A note's headed lists as one statement each, for the offline extractor.

Team notes come as headings and bullets: "Retro notes (sprint 47):", "Didn't go well:", "- flaky
e2e tests blocked 3 deploys", "Action items:", "- @lena: add disk alerts for staging DB". Read
line by line, each bullet was a memory without its heading ("- on-call was quiet" says nothing of
the retro), and the per-message bound on memories dropped the rest: two of five action items and
everything that did not go well were never stored. Here a heading and its bullets become one line,
"Retro notes (sprint 47), Action items: @tomas: …; @lena: …", so a list is kept whole and says what
it is, whatever the bound."""
from __future__ import annotations

import re

# "- item", "* item", "• item", "1. item", "2) item"
_BULLET = re.compile(r"^[ \t]*(?:[-*•·‣◦–]|\d{1,2}[.)])[ \t]+(?P<item>\S.*?)[ \t]*$")
# "Action items:", "**Went well:**", "## Didn't go well:" — a short line that ends with a colon
_HEADING = re.compile(r"^[ \t]*(?:#{1,6}[ \t]*)?[*_]{0,2}(?P<head>[^\n:*_][^\n]{0,79}?)[ \t]*:"
                      r"[*_]{0,2}[ \t]*$")
ITEMS_PER_LINE = 8  # a long list is several statements, so no memory grows without bound


# a Markdown heading: "## Decision" (an ADR's sections were read as the end of the sentence
# before them: "ADR-001: Use Postgres for the event store ## Context")
_MARKDOWN_HEADING = re.compile(r"^[ \t]*#{1,6}[ \t]+(?P<head>[^\n#:]{1,80}?)[ \t]*#*[ \t]*$")
# (or a line in bold alone, as review bots and Slack write them: "**Issues**" over a review's
# numbered points was glued to the sentence before it, "… capped at 60s. **Issues**")
# (not a sentence in bold, "**Do not deploy on Fridays.**", which is read as it is)
_BOLD_HEADING = re.compile(r"^[ \t]*(?P<mark>\*\*|__|\*)(?P<head>[A-Za-z][^\n*_:]{0,59}?)"
                           r"(?<![.!?])(?P=mark)[ \t]*$")


# the sections of a decision record or an RFC, each a field of the note
_NOTE_SECTIONS = frozenset({"context", "decision", "consequences", "status", "problem",
                            "solution", "options", "alternatives", "motivation", "goals",
                            "non-goals", "risks", "background", "proposal", "owner", "timeline",
                            "rationale", "impact", "root cause", "mitigation", "action items",
                            "next steps", "open questions", "decision drivers", "summary",
                            "verdict", "findings", "issues", "concerns", "blockers"})


# a label in bold before its value, "**Verdict**: request changes." or "*Verdict:* …": the label
# as a note's field, "Verdict: request changes." (in bold it was no field, and too short alone it
# was glued to the review's last point)
_BOLD_LABEL = re.compile(r"^(?P<indent>[ \t]*)(?P<mark>\*\*|__|\*)(?P<label>[A-Za-z][^\n*_:]{0,39}?)"
                         r"(?::(?P=mark)|(?P=mark):)(?=[ \t]*\S)")


def _markdown_sections(lines: list[str]) -> list[str]:
    """Each Markdown heading of a note's section as a label: with the one line of prose under
    it, "Decision: We will use NATS JetStream."; over bullets, "Decision:" (a heading _HEADING
    reads); any other heading ends the sentence before it, and is read no further."""
    out: list[str] = []
    lines = [_BOLD_LABEL.sub(r"\g<indent>\g<label>:", line) for line in lines]
    i = 0
    while i < len(lines):
        head = _MARKDOWN_HEADING.match(lines[i]) or _BOLD_HEADING.match(lines[i])
        if head is None:
            out.append(lines[i])
            i += 1
            continue
        j = i + 1
        while j < len(lines) and not lines[j].strip():
            j += 1
        nxt = lines[j] if j < len(lines) else ""
        if head["head"].strip().lower() in _NOTE_SECTIONS and nxt.strip() \
                and not _BULLET.match(nxt) and not _MARKDOWN_HEADING.match(nxt) \
                and not _BOLD_HEADING.match(nxt) and not _HEADING.match(nxt):
            out.append(f"{head['head']}: {nxt.strip()}")
            i = j + 1
        elif j < len(lines) and _BULLET.match(nxt):
            out.append(f"{head['head']}:")
            i += 1
        elif not _MARKDOWN_HEADING.match(lines[i]):  # a line in bold over prose: as it is
            out.append(lines[i])
            i += 1
        else:  # a section of a write-up ("### Conclusion"): where a sentence ends, no more
            out.append("")
            i += 1
    return out


_NAMES_RELEASE = re.compile(r"(?<![\w.])v?\d+\.\d+(?:\.\d+)*(?![\w.])|(?<![\w&])#\d+\b|"
                            r"\b[A-Z][A-Z0-9]+-\d+\b")
_TITLE_WORDS = 10


# a list item that is more than one sentence ("… double-charges on retry. Store it first")
_SENTENCES_IN_ITEM = re.compile(r"[.!?]\s+[A-Z`]")
_WHOLE_ITEM_CHARS = 200
_NUMBERED = re.compile(r"^[ \t]*\d{1,2}[.)][ \t]")
_SENTENCE_BREAK = re.compile(r"[.!?]\s+(?=[A-Z`])")


def grouped_lists(text: str) -> tuple[str, list[str]]:
    """The text with each heading and the bullets right under it on one line, and those lines.
    A heading with no bullets of its own, followed by another heading, titles the lists after it
    ("Retro notes (sprint 47):" then "Went well:"). Bullets under no heading stay as they are."""
    lines = _markdown_sections(text.split("\n"))
    out: list[str] = []
    grouped: list[str] = []
    # a short first line that names a release or a ticket titles the lists after it: "Release
    # v2.3.0 published by ana" over "## What's Changed" (the list named no version, so "what
    # changed in v2.3.0?" found the changelog link)
    first = next((line.strip() for line in lines if line.strip()), "")
    title = first.rstrip(".:") if first and _NAMES_RELEASE.search(first) \
        and len(first.split()) <= _TITLE_WORDS and not _BULLET.match(first) \
        and not _HEADING.match(first) else None
    i = 0
    while i < len(lines):
        head = _HEADING.match(lines[i]) if not _BULLET.match(lines[i]) else None
        if head is None:
            out.append(lines[i])
            i += 1
            continue
        items = []
        j = i + 1
        numbered = set()  # which items are numbered points ("1. …"), not dashes
        while j < len(lines) and (bullet := _BULLET.match(lines[j])):
            if _NUMBERED.match(lines[j]):
                numbered.add(len(items))
            items.append(bullet.group("item").rstrip(".;,"))
            j += 1
        label = head.group("head").strip()
        if not items:
            nxt = next((line for line in lines[j:] if line.strip()), "")
            if _HEADING.match(nxt) and not _BULLET.match(nxt):
                title = label  # a title for the headed lists that follow
            else:
                out.append(lines[i])
            i = j
            continue
        named = f"{title}, {label}" if title else label
        run: list[str] = []
        for n, item in enumerate(items):
            # (a numbered point only, short, with no bold label: BEAM's long answers' bullets as
            # one sentence each moved 8 of its answers, none for the better; "**May 30:**
            # Discussion. Allocate 4 hours." is a heading over its own sentences)
            whole = n in numbered and len(item) <= _WHOLE_ITEM_CHARS and "**" not in item \
                and _SENTENCES_IN_ITEM.search(item)
            if not whole:
                run.append(item)
            if run and (len(run) == ITEMS_PER_LINE or n == len(items) - 1 or whole):
                line = f"{named}: {'; '.join(run)}."
                out.append(line)
                grouped.append(line)
                run = []
            if whole:
                # a point of its own sentences, on its own line and as one: "1. The key is
                # stored after the charge call, so … on retry. Store it first." joined to the
                # next point ran "Store it first; Keys never expire; …" together, and "2. …
                # Add a TTL (24h is what Stripe uses)." lost the point it was of
                line = f"{named}: {_SENTENCE_BREAK.sub('; ', item)}."
                out.append(line)
                grouped.append(line)
        i = j
    return "\n".join(out), grouped
