"""Throughput of the numpy MiniLM runtime.

    python bench/embeddings.py [--sentences 512] [--batches 32,64] [--repeats 3]

Prints the model load time (tokenizer + safetensors + weight layout), single-query latency (what a
recall pays), and sentences/s for N synthetic chat messages of mixed length at each batch size
(best of --repeats runs, so a noisy neighbour does not decide the figure).
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from memory.embeddings import MiniLMEmbedder  # noqa: E402

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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sentences", type=int, default=512)
    ap.add_argument("--batches", default="32,64")
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()

    texts = messages(args.sentences)
    emb = MiniLMEmbedder()
    t0 = time.perf_counter()
    emb._load()
    print(f"model load: {time.perf_counter() - t0:.2f} s")
    tokens = [len(e.ids) for e in emb._tok.encode_batch(texts)]
    print(f"{len(texts)} messages, tokens/message mean {statistics.mean(tokens):.1f}, "
          f"max {max(tokens)}")

    emb.embed(texts[:8])  # warm-up: first BLAS calls set up threads
    lat = []
    for t in texts[:50]:
        t0 = time.perf_counter()
        emb.embed([t])
        lat.append(time.perf_counter() - t0)
    print(f"single query: p50 {1000 * statistics.median(lat):.1f} ms")

    for bs in (int(b) for b in args.batches.split(",")):
        emb.batch_size = bs
        best = min(_timed(emb, texts) for _ in range(args.repeats))
        print(f"batch {bs:>3}: {len(texts) / best:7.1f} sentences/s "
              f"({best:.2f} s for {len(texts)})")


def _timed(emb: MiniLMEmbedder, texts: list[str]) -> float:
    t0 = time.perf_counter()
    emb.embed(texts)
    return time.perf_counter() - t0


if __name__ == "__main__":
    main()
