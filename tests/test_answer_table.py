"""bench/answer_table.py: the before/after answer table rescored from --out records."""
from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import answer_table  # noqa: E402

from memory.synthesis import NO_ANSWER  # noqa: E402

RECORDS = [
    {"category": 4, "gold": "Paris", "answer": "She moved to Paris."},
    {"category": 4, "gold": "a dog", "answer": NO_ANSWER},
    {"category": 1, "gold": "hiking, painting", "answer": "painting"},
    {"category": 5, "gold": None, "answer": NO_ANSWER},
    {"category": 5, "gold": None, "answer": "On Monday."},
]


def test_row_rescores_answers_and_declines():
    row = answer_table.answer_row(RECORDS)
    assert row["n_answerable"] == 3 and row["n_adversarial"] == 2
    assert row["adversarial_declined"] == 0.5
    assert abs(row["false_declined"] - 1 / 3) < 1e-9
    assert row["f1"][1] == 0.5  # one of two comma-separated gold parts
    assert row["f1"][3] is None  # no open-domain question
    assert 0 < row["f1"][4] < 1


def test_markdown_table(tmp_path, capsys):
    files = []
    for name in ("old", "new"):
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps({"records": RECORDS}))
        files.append(str(path))
    assert answer_table.main(files) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 4 and lines[2].startswith("| before |")
    assert lines[3].startswith("| after |") and lines[3].endswith("| 3 / 2 |")
