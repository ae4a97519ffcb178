"""Passages: a message's raw text cut into pieces the encoder reads whole, so a long message (a pasted
log, a review bot's report, an assistant's 5,000-character answer) is searchable by what any part
of it says, and every message, short or long, is searchable by meaning and not only through the
memories drawn from it.

A passage is at most PASSAGE_CHARS characters (~200 word pieces: all-MiniLM-L6-v2 reads 256), cut
at paragraph, then sentence, then word boundaries. A message of one passage is short: its passage
is the whole text. Both stores call `split_passages`, so their offsets agree.
"""
from __future__ import annotations

import re

PASSAGE_CHARS = 800
_PARAGRAPH = re.compile(r"\n\s*\n")
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n")


def _pieces(text: str, start: int, end: int, pattern: re.Pattern) -> list[tuple[int, int]]:
    """Spans of text[start:end] between matches of `pattern` (separators left out)."""
    spans, at = [], start
    for m in pattern.finditer(text, start, end):
        if m.start() > at:
            spans.append((at, m.start()))
        at = m.end()
    if at < end:
        spans.append((at, end))
    return spans


def _words(text: str, start: int, end: int, limit: int) -> list[tuple[int, int]]:
    """A span longer than `limit` cut at the last whitespace before each limit (hard cut if none)."""
    spans = []
    while end - start > limit:
        cut = text.rfind(" ", start + 1, start + limit + 1)
        cut = cut if cut > start else start + limit
        spans.append((start, cut))
        start = cut
        while start < end and text[start].isspace():
            start += 1
    if start < end:
        spans.append((start, end))
    return spans


def split_passages(text: str, limit: int = PASSAGE_CHARS) -> list[tuple[int, int]]:
    """(start, end) character spans of the passages of `text`, in order, none longer than `limit`;
    consecutive paragraphs and sentences are packed together while they fit. Whitespace-only text
    has no passage."""
    units: list[tuple[int, int]] = []
    for p_start, p_end in _pieces(text, 0, len(text), _PARAGRAPH):
        if p_end - p_start <= limit:
            units.append((p_start, p_end))
            continue
        for s_start, s_end in _pieces(text, p_start, p_end, _SENTENCE):
            units += _words(text, s_start, s_end, limit)
    passages: list[tuple[int, int]] = []
    for u_start, u_end in units:
        if not text[u_start:u_end].strip():
            continue
        if passages and u_end - passages[-1][0] <= limit:
            passages[-1] = (passages[-1][0], u_end)
        else:
            passages.append((u_start, u_end))
    return passages


def is_long(text: str) -> bool:
    """More than one passage: searched by BM25 passage by passage too (a whole long message's BM25
    score is diluted by its length)."""
    return len(text) > PASSAGE_CHARS and len(split_passages(text)) > 1


def passage_embedding_text(speaker: str | None, passage: str) -> str:
    """What gets embedded for a passage: "speaker: text", as the raw-turn baselines index turns."""
    return f"{speaker}: {passage}" if speaker else passage
