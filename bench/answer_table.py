"""Before/after table of answer quality from `lurker eval locomo --out` files (issue 13).

    python bench/answer_table.py before.json after.json [--labels before,after]

Each file's per-question records are scored again with this checkout's memory.eval.metrics, so
runs of older code (which may not have recorded a false-decline rate) are judged the same way:
answer F1 per answerable category (LoCoMo's token F1; multi-hop split on commas) and overall
(categories 1-4), the share of adversarial questions (category 5) declined, and the share of
answerable ones declined (false declines), with `is_decline` deciding what a decline is.
Prints a markdown table, one row per file.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from memory.eval.metrics import (ADVERSARIAL, CATEGORY_NAMES, answer_score,  # noqa: E402
                                 is_decline, mean)

ANSWERABLE = [c for c in CATEGORY_NAMES if c != ADVERSARIAL]


def answer_row(records: list[dict]) -> dict:
    """F1 by category and overall (1-4), decline rates, question counts."""
    answerable = [r for r in records if r["category"] != ADVERSARIAL]
    adversarial = [r for r in records if r["category"] == ADVERSARIAL]
    scored = [(r["category"], answer_score(r["answer"], r.get("gold"), r["category"]))
              for r in answerable]
    return {
        "f1": {c: mean(f for cat, f in scored if cat == c) for c in ANSWERABLE},
        "f1_overall": mean(f for _, f in scored),
        "adversarial_declined": mean(is_decline(r["answer"]) for r in adversarial),
        "false_declined": mean(is_decline(r["answer"]) for r in answerable),
        "n": len(records), "n_answerable": len(answerable), "n_adversarial": len(adversarial),
    }


def _cell(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def markdown(rows: list[tuple[str, dict]]) -> str:
    head = (["run"] + [f"F1 {CATEGORY_NAMES[c]}" for c in ANSWERABLE] + ["F1 overall (1-4)",
            "adversarial declined (5)", "false declines (1-4)", "n (1-4 / 5)"])
    lines = ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    for label, row in rows:
        cells = ([label] + [_cell(row["f1"][c]) for c in ANSWERABLE]
                 + [_cell(row["f1_overall"]), _cell(row["adversarial_declined"]),
                    _cell(row["false_declined"]),
                    f"{row['n_answerable']} / {row['n_adversarial']}"])
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", help="--out JSON files of `lurker eval locomo`")
    parser.add_argument("--labels", help="comma-separated row labels (default: before,after for "
                        "two files, else the file names)")
    args = parser.parse_args(argv)
    if args.labels:
        labels = args.labels.split(",")
    elif len(args.files) == 2:
        labels = ["before", "after"]
    else:
        labels = [Path(f).stem for f in args.files]
    if len(labels) != len(args.files):
        parser.error("--labels needs one label per file")
    rows = [(label, answer_row(json.loads(Path(f).read_text(encoding="utf-8"))["records"]))
            for label, f in zip(labels, args.files)]
    print(markdown(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
