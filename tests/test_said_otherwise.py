"""The answerer's table of words a memory may say otherwise (`_SAID_OTHERWISE`) is one dict built
from many `dict.fromkeys(content_stems("…"), pattern)` entries: a word given twice silently keeps
the later pattern only. 6 Dec (twenty-sixth session): a new "against" entry (a match's side)
overwrote the objection's, and "does bob still object?" lost bob's later +1 over Discord."""
from __future__ import annotations

import ast
from pathlib import Path

import memory.offline_answerer as answerer


def _entries() -> list[tuple[int, set[str]]]:
    tree = ast.parse(Path(answerer.__file__).read_text())
    table = next(node.value for node in ast.walk(tree) if isinstance(node, ast.Assign)
                 and any(isinstance(t, ast.Name) and t.id == "_SAID_OTHERWISE"
                         for t in node.targets))
    out = []
    for key, value in zip(table.keys, table.values):
        if key is None and isinstance(value, ast.Call) and value.args \
                and isinstance(words := value.args[0], ast.Call) \
                and getattr(words.func, "id", "") == "content_stems" \
                and isinstance(words.args[0], ast.Constant):
            out.append((value.lineno, answerer.content_stems(words.args[0].value)))
        elif isinstance(key, ast.Constant):  # ("block": a word written as its stem)
            out.append((key.lineno, {key.value}))
    return out


def test_no_word_is_given_two_patterns():
    entries = _entries()
    assert len(entries) > 20  # (the table is read, not an empty parse)
    seen: dict[str, int] = {}
    twice = []
    for line, stems in entries:
        for stem in stems:
            if stem in seen:
                twice.append((stem, seen[stem], line))
            seen[stem] = line
    assert not twice, f"words given two patterns (word, first line, second line): {twice}"
