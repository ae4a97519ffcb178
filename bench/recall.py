"""Recall latency over 10k memories on each store.

    python bench/recall.py [--memories 10000] [--queries 200] [--stores sqlite,elasticsearch]
                           [--keep DIR [--resume]]

Builds a profile of N synthetic team-chat memories through the real ingest path (offline extractor,
real embeddings) on each store, then times `recall()` for a set of questions: full fused recall (five
channels + answer) against a baseline measured in the same run on the same data — a plain BM25 search
over memories alone. Prints p50/p95 in milliseconds and the ratio to the baseline. Elasticsearch is
the one the test harness starts (or LURKER_TEST_ES_URL / _USER / _PASSWORD for a running one).
`--keep DIR` keeps the SQLite file there and reuses a profile already built in it (and in a
running Elasticsearch) instead of building it again; `--resume` goes on building one an earlier
run left unfinished. Text is ingested first and vectors computed every 5,000 messages in one call,
as a worker's follow-up task does. Prints the load average and the command.
"""
from __future__ import annotations

import argparse
import os
import random
import re
import shlex
import statistics
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from memory.config import Settings  # noqa: E402
from memory.embeddings import default_embedder  # noqa: E402
from memory.service import MemoryService  # noqa: E402
from memory.stores.base import CH_MEMORY_TEXT  # noqa: E402

PEOPLE = ["maya", "tomas", "priya", "li", "sam", "noor", "jonas", "ada", "kofi", "rin"]
SERVICES = ["billing", "search", "auth", "checkout", "gateway", "ledger", "notifier", "ingest",
            "reports", "profile", "inventory", "pricing", "shipping", "analytics", "export"]
THINGS = ["rate limit", "timeout", "retry budget", "cache ttl", "batch size", "pool size",
          "replica count", "error budget", "alert threshold", "log retention"]
TEMPLATES = [
    "The {thing} for {service} v{n} is {v} in region {r}.",
    "We shipped {service} v{n} to region {r} yesterday after the load test.",
    "I will migrate the {service} v{n} dashboards to region {r} by Friday.",
    "Always page the {service} on-call before touching {thing} in region {r}.",
    "Ticket {service}-{n} says {thing} spikes in region {r} after deploys.",
]
QUESTIONS = [
    "what is the {thing} for {service} v{n}?",
    "when did we ship {service} v{n}?",
    "who is migrating the {service} dashboards?",
    "what do we know about {thing} in region {r}?",
]


def synth(i: int, rng: random.Random) -> dict:
    fields = dict(thing=rng.choice(THINGS), service=rng.choice(SERVICES), n=i,
                  v=rng.randint(1, 5000), r=f"{rng.choice('abcdefgh')}{rng.randint(1, 9)}")
    return {"role": "user", "author": rng.choice(PEOPLE), "content":
            rng.choice(TEMPLATES).format(**fields),
            "ts": 1_760_000_000 + i * 60}


_IRC = re.compile(r"^\[(\d\d):(\d\d)\] <([^>]+)> (.+)$")


def chat_messages(folder: Path, n: int) -> list[dict]:
    """The first n chat lines of the Ubuntu IRC logs (`[HH:MM] <nick> text` in *.raw.txt, files
    in date order; joins/parts skipped) as messages."""
    out: list[dict] = []
    for path in sorted(folder.rglob("*.raw.txt")):
        day = datetime.strptime(path.name[:10], "%Y-%m-%d").replace(tzinfo=timezone.utc)
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
            m = _IRC.match(line)
            if m and m[4].strip():  # a line of spaces is no message (ingest refuses it)
                ts = day + timedelta(hours=int(m[1]), minutes=int(m[2]))
                out.append({"role": "user", "author": m[3], "content": m[4],
                            "ts": ts.isoformat()})
                if len(out) == n:
                    return out
    return out


def chat_questions(messages: list[dict], count: int, rng: random.Random) -> list[str]:
    """Questions about what was said: "what do we know about <4-5 words of a random line>?"."""
    out = []
    while len(out) < count:
        words = re.findall(r"[A-Za-z][A-Za-z0-9'-]{3,}", rng.choice(messages)["content"])
        if len(words) >= 4:
            out.append(f"what do we know about {' '.join(words[:5])}?")
    return out


def build(profile, n: int, batch: int = 500, messages: list[dict] | None = None,
          embed_every: int = 5000) -> float:
    """Ingest in chunks of `batch` messages (one session each), text first and vectors every
    `embed_every` messages in one model call, as a worker's follow-up task does. Messages stored
    by an earlier, interrupted build are skipped (content-addressed ids), so it resumes."""
    rng = random.Random(7)
    start = time.perf_counter()
    created = new = 0
    pending: list[str] = []
    for offset in range(0, n, batch):
        msgs = (messages[offset:offset + batch] if messages is not None else
                [synth(i, rng) for i in range(offset, min(n, offset + batch))])
        result = profile.ingest(msgs, session_id=f"bench-{offset}", vectorize=False)
        created += result.memories_created
        new += result.messages_new
        pending += result.pending_vector_ids
        if len(pending) >= embed_every or offset + batch >= n:
            profile.index_vectors(pending)
            pending = []
        if offset and offset % 20_000 == 0:
            print(f"  {offset} messages in {time.perf_counter() - start:.0f} s", flush=True)
    elapsed = time.perf_counter() - start
    print(f"  built {created} memories from {new} new messages ({n - new} stored before) in "
          f"{elapsed:.1f} s ({max(new, 1) / elapsed:.0f} new messages/s incl. embedding)")
    return elapsed


def percentiles(samples: list[float]) -> tuple[float, float]:
    qs = statistics.quantiles(samples, n=100, method="inclusive")
    return qs[49] * 1000, qs[94] * 1000


def time_queries(profile, questions: list[str], **kwargs) -> list[float]:
    out = []
    for q in questions:
        t = time.perf_counter()
        profile.recall(q, **kwargs)
        out.append(time.perf_counter() - t)
    return out


def bench_store(kind: str, store, n: int, questions: list[str], embedder,
                reuse: bool = False, messages: list[dict] | None = None,
                resume: bool = False) -> dict:
    settings = Settings(anthropic_api_key=None)
    service = MemoryService.from_settings(settings, store=store, embedder=embedder)
    profile = service.profile(f"bench-{kind}-{'chat-' if messages is not None else ''}{n}")
    print(f"[{kind}]")
    counts = store.count(profile.name)
    if resume or not (reuse and counts["memories"]):
        if not resume:
            store.delete_profile(profile.name)
        build(profile, n, messages=messages)
        counts = store.count(profile.name)
    print(f"  store holds {counts}")
    time_queries(profile, questions[:10])  # warm caches, JIT, connections
    load = os.getloadavg()
    fused = time_queries(profile, questions)
    baseline = []
    for q in questions:  # the baseline: one BM25 search over memories, nothing else
        t = time.perf_counter()
        store.search(profile.name, _bm25_request(q))
        baseline.append(time.perf_counter() - t)
    f50, f95 = percentiles(fused)
    b50, b95 = percentiles(baseline)
    service.close()
    return {"store": kind, "memories": counts["memories"], "fused_p50": f50, "fused_p95": f95,
            "bm25_p50": b50, "bm25_p95": b95, "load": (load, os.getloadavg())}


def _bm25_request(q: str):
    from memory.stores.base import SearchRequest

    return SearchRequest(text=q, k=20, channels=(CH_MEMORY_TEXT,))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--memories", type=int, default=10_000)
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--stores", default="sqlite,elasticsearch")
    ap.add_argument("--keep", help="keep (and reuse) the SQLite file in this directory")
    ap.add_argument("--resume", action="store_true", help="with --keep: go on building a "
                    "profile an earlier run left unfinished (its stored messages are skipped)")
    ap.add_argument("--chat", type=Path, help="build from real chat instead: the first "
                    "--memories lines of this Ubuntu IRC logs folder (../shared/benchdata/"
                    "ubuntu-irc), questions made of words of random lines")
    args = ap.parse_args()
    command = "python " + " ".join(shlex.quote(a) for a in sys.argv)
    rng = random.Random(11)
    messages = None
    if args.chat:
        messages = chat_messages(args.chat, args.memories)
        if len(messages) < args.memories:
            raise SystemExit(f"{args.chat} holds only {len(messages)} chat lines")
        questions = chat_questions(messages, args.queries, rng)
    else:
        questions = [rng.choice(QUESTIONS).format(
            thing=rng.choice(THINGS), service=rng.choice(SERVICES),
            n=rng.randrange(args.memories), r=f"{rng.choice('abcdefgh')}{rng.randint(1, 9)}")
            for _ in range(args.queries)]
    embedder = default_embedder()
    embedder.embed(["warm up"])
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        where = Path(args.keep) if args.keep else Path(tmp)
        where.mkdir(parents=True, exist_ok=True)
        reuse = bool(args.keep)
        for kind in args.stores.split(","):
            if kind == "sqlite":
                from memory.stores.sqlite import SQLiteStore

                rows.append(bench_store(kind, SQLiteStore(where / "bench.sqlite3"),
                                        args.memories, questions, embedder, reuse, messages,
                                        args.resume))
            elif kind == "elasticsearch":
                rows.append(_with_es(lambda store: bench_store(
                    kind, store, args.memories, questions, embedder, reuse, messages,
                    args.resume)))
    print(f"\nrecall latency, {args.queries} questions (ms), "
          f"{'chat lines of ' + str(args.chat) if args.chat else 'synthetic team chat'}")
    print(f"{'store':<14}{'memories':>9}{'fused p50':>11}{'fused p95':>11}"
          f"{'bm25 p50':>10}{'bm25 p95':>10}{'p50 ratio':>11}")
    for r in rows:
        print(f"{r['store']:<14}{r['memories']:>9}{r['fused_p50']:>11.1f}{r['fused_p95']:>11.1f}"
              f"{r['bm25_p50']:>10.1f}{r['bm25_p95']:>10.1f}"
              f"{r['fused_p50'] / r['bm25_p50']:>10.1f}x")
    print("baseline: bm25 = one BM25 search over the memories alone, same data, same run")
    for r in rows:
        (b1, b5, b15), (a1, a5, a15) = r["load"]
        print(f"load average during {r['store']}: before {b1:.2f} {b5:.2f} {b15:.2f}, "
              f"after {a1:.2f} {a5:.2f} {a15:.2f} ({os.cpu_count()} cores)")
    print(f"command: {command}")


def _with_es(fn):
    import os

    from memory.stores.elasticsearch import ElasticsearchStore

    url = os.environ.get("LURKER_TEST_ES_URL")
    if url:
        return fn(ElasticsearchStore(url, user=os.environ.get("LURKER_TEST_ES_USER"),
                                     password=os.environ.get("LURKER_TEST_ES_PASSWORD"),
                                     index_prefix="lurker-bench"))
    from tests.harness.elasticsearch import ElasticsearchServer

    with ElasticsearchServer() as es:
        return fn(ElasticsearchStore(es.url, user=es.user, password=es.password,
                                     index_prefix="lurker-bench"))


if __name__ == "__main__":
    main()
