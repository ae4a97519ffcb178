"""Fusion replayed on captured channel hits: `lurker eval locomo|beam --capture FILE` writes every
question's hits per retrieval channel before fusion (JSON lines); this module fuses them again
with other weights or rank constants and scores the rankings with the eval's own credit rules
(memory.eval.metrics), in seconds instead of a whole eval run. Only fusion changes: what each
channel found stays as captured, so a setting that changes what a store searches (an asker, a
channel's depth) needs a new capture.

    python -m memory.eval.replay FILE [--weight CHANNEL=W ...] [--rank-k CHANNEL=K ...] [--rrf-k K]

prints recall at a budget of turns for the defaults and for the variant, overall, per category
and per question type.
"""
from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from statistics import mean
from typing import IO

from ..fusion import CHANNEL_RRF_K, DEFAULT_WEIGHTS, RRF_K, fuse
from ..models import Memory, Message, Passage
from ..stores.base import CHANNELS, Hit
from .metrics import CATEGORY_NAMES, covered_recall, shown, turn_budget

_KINDS = {"memory": Memory, "passage": Passage, "message": Message}


def _kind(record) -> str | None:
    if record is None:
        return None
    return ("passage" if isinstance(record, Passage) else
            "memory" if isinstance(record, Memory) else "message")


class Capture:
    """Writes the captured hits of one eval run (see the module)."""

    def __init__(self, out: IO[str]):
        self.out = out

    @classmethod
    @contextmanager
    def to(cls, path: Path | None) -> Iterator[Capture | None]:
        if path is None:
            yield None
            return
        with open(path, "w", encoding="utf-8") as out:
            yield cls(out)

    def _write(self, row: dict) -> None:
        self.out.write(json.dumps(row, ensure_ascii=False) + "\n")

    def conversation(self, ing) -> None:
        self._write({"conversation": ing.conversation.sample_id,
                     "dia_ids_by_message": ing.dia_ids_by_message, "texts": ing.texts})

    def question(self, q, hits: dict[str, list[Hit]]) -> None:
        self._write({
            "question": q.question, "category": q.category, "type": q.qtype,
            "evidence": q.evidence,
            "hits": {channel: [{"id": h.id, "score": h.score, "kind": _kind(h.record),
                                "record": None if h.record is None
                                else h.record.model_dump(mode="json")} for h in found]
                     for channel, found in hits.items()}})


def load(path: Path) -> list[dict]:
    """The captured questions, each with its conversation's dia ids and texts and its hits as
    Hit objects again."""
    questions, conversation = [], None
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            row = json.loads(line)
            if "conversation" in row and "question" not in row:
                conversation = row
                continue
            if conversation is None:
                raise ValueError(f"{path}: a question before its conversation")
            row["hits"] = {channel: [Hit(h["id"], h["score"], None if h["kind"] is None
                                         else _KINDS[h["kind"]].model_validate(h["record"]))
                                     for h in found] for channel, found in row["hits"].items()}
            row["by_message"], row["texts"] = (conversation["dia_ids_by_message"],
                                               conversation["texts"])
            questions.append(row)
    return questions


def score(questions: list[dict], weights: dict[str, float], channel_k: dict[str, int],
          rrf_k: int, turns: tuple[int, ...]) -> dict[str, dict[str, float]]:
    """T@t for every budget: overall, per LoCoMo category and per question type."""
    values: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for q in questions:
        if not q["evidence"]:
            continue
        fused = fuse(q["hits"], weights, rrf_k, channel_k)
        carried = [shown(f.record, q["by_message"], q["texts"]).carried for f in fused]
        for t in turns:
            v = covered_recall(q["evidence"], turn_budget(carried, t))
            groups = ["overall", CATEGORY_NAMES.get(q["category"], str(q["category"]))]
            groups += [q["type"]] if q.get("type") else []
            for group in groups:
                values[f"T@{t}"][group].append(v)
    return {budget: {group: mean(vs) for group, vs in by.items()} for budget, by in values.items()}


def channel_arg(option: str, cast, least: float):
    """An argparse type for CHANNEL=VALUE: a known channel, a value of at least `least` (a
    misspelt channel would otherwise change nothing, silently)."""
    def parse(text: str) -> tuple[str, float | int]:
        channel, _, raw = text.partition("=")
        try:
            value = cast(raw)
        except ValueError:
            value = None
        if channel not in CHANNELS or value is None or value < least:
            raise argparse.ArgumentTypeError(
                f"{option} wants CHANNEL=VALUE with a channel of {', '.join(CHANNELS)} and a "
                f"value of at least {least}, not {text!r}")
        return channel, value
    return parse


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m memory.eval.replay", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("capture", type=Path, help="a file written by lurker eval ... --capture")
    p.add_argument("--weight", action="append", default=[],
                   type=channel_arg("--weight", float, 0), metavar="CHANNEL=W")
    p.add_argument("--rank-k", action="append", default=[], type=channel_arg("--rank-k", int, 1),
                   metavar="CHANNEL=K", help="a channel's own rank constant")
    p.add_argument("--rrf-k", type=int, default=RRF_K, help="the rank constant of the others")
    p.add_argument("--turns", default="5,10,20")
    args = p.parse_args(argv)
    turns = tuple(int(t) for t in args.turns.split(","))
    questions = load(args.capture)
    base = score(questions, DEFAULT_WEIGHTS, CHANNEL_RRF_K, RRF_K, turns)
    variant = score(questions, {**DEFAULT_WEIGHTS, **dict(args.weight)},
                    {**CHANNEL_RRF_K, **dict(args.rank_k)}, args.rrf_k, turns)
    middle = f"T@{turns[len(turns) // 2]}"
    print(f"{len([q for q in questions if q['evidence']])} questions with evidence; "
          f"defaults -> variant")
    for budget in base:
        print(f"{budget:6s} {base[budget]['overall']:.3f} -> {variant[budget]['overall']:.3f}")
    print(f"at {middle}:")
    for group in sorted(g for g in base[middle] if g != "overall"):
        print(f"  {group:28s} {base[middle][group]:.3f} -> {variant[middle][group]:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
