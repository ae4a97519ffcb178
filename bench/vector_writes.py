"""What attaching vectors costs Elasticsearch and the client: packed (base64 float32) against
float arrays, through the store's own write path, alternated on one cluster.

    python bench/vector_writes.py [--vectors 17500] [--rounds 2]

Each round writes N memories (text only, as the worker's first pass does), then attaches a
384-dimension vector to each with `ElasticsearchStore.set_vectors_many` in batches of 500 (the
worker's follow-up task), once with `packed_vectors` on and once off, in a fresh index prefix
each time. Prints wall time, the client's CPU and the cluster's (`_nodes/stats`, process CPU),
and the ratio packed / arrays. Needs a cluster of 9.3 or newer (the harness starts 9.5.3; or
LURKER_TEST_ES_URL/_USER/_PASSWORD for a running one). Prints the load average and the command.
"""
from __future__ import annotations

import argparse
import contextlib
import os
import shlex
import sys
import time
import uuid
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from memory.models import Memory  # noqa: E402
from memory.stores.base import EmbeddingSpec  # noqa: E402
from memory.stores.elasticsearch import ElasticsearchStore  # noqa: E402

SPEC = EmbeddingSpec("bench-vector-writes", 384)
BATCH = 500
PROFILES = 50


def cluster_cpu_s(store: ElasticsearchStore) -> float:
    stats = store.client.nodes.stats(metric="process", filter_path="nodes.*.process.cpu")
    return sum(n["process"]["cpu"]["total_in_millis"] for n in stats["nodes"].values()) / 1000


def one_pass(connect, n: int, packed: bool) -> tuple[float, float, float]:
    store = connect(f"lurker-vecbench-{uuid.uuid4().hex[:8]}")
    store.open(SPEC)
    if packed and not store.packed_vectors:
        raise SystemExit("this cluster does not read packed vectors (9.3 or newer needed)")
    store.packed_vectors = packed
    now = datetime(2026, 11, 2, tzinfo=timezone.utc)
    memories: dict[str, list[Memory]] = {}
    for i in range(n):
        m = Memory(id=f"m{i}", type="fact", content=f"the rate limit for service {i} is {i % 977}",
                   created_at=now, source_message_ids=[f"s{i}"])
        memories.setdefault(f"p{i % PROFILES}", []).append(m)
    for profile, ms in memories.items():
        store.upsert_memories(profile, ms)
    rng = np.random.default_rng(1)
    vectors = rng.standard_normal((n, SPEC.dim)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    flat = [(p, m.id) for p, ms in memories.items() for m in ms]
    cpu0, es0, t0 = os.times(), cluster_cpu_s(store), time.perf_counter()
    for start in range(0, n, BATCH):
        batch: dict[str, dict[str, np.ndarray]] = {}
        for k in range(start, min(n, start + BATCH)):
            profile, memory_id = flat[k]
            batch.setdefault(profile, {})[memory_id] = vectors[k]
        store.set_vectors_many(batch)
    wall, cpu1, es1 = time.perf_counter() - t0, os.times(), cluster_cpu_s(store)
    if sum(store.count(p)["vectors"] for p in memories) != n:
        raise SystemExit("not every vector was attached")
    client = store.client.options(ignore_status=404)
    client.indices.delete(index=f"{store.prefix}-*")
    for alias in store.aliases:
        client.indices.delete_index_template(name=alias)
    store.close()
    return wall, cpu1.user + cpu1.system - cpu0.user - cpu0.system, es1 - es0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--vectors", type=int, default=17_500)
    ap.add_argument("--rounds", type=int, default=2)
    args = ap.parse_args()
    print("command: python bench/vector_writes.py " + shlex.join(sys.argv[1:]))
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    with contextlib.ExitStack() as stack:
        url = os.environ.get("LURKER_TEST_ES_URL")
        user, password = os.environ.get("LURKER_TEST_ES_USER"), os.environ.get(
            "LURKER_TEST_ES_PASSWORD")
        if not url:
            from tests.harness.elasticsearch import ElasticsearchServer
            es = stack.enter_context(ElasticsearchServer())
            url, user, password = es.url, es.user, es.password

        def connect(prefix: str) -> ElasticsearchStore:
            return ElasticsearchStore(url, user=user, password=password, index_prefix=prefix,
                                      refresh="true")
        one_pass(connect, 1000, True)  # warm up the cluster's code paths
        results: dict[bool, list[tuple[float, float, float]]] = {True: [], False: []}
        for _ in range(args.rounds):
            for packed in (False, True):
                results[packed].append(one_pass(connect, args.vectors, packed))
    print(f"{args.vectors} memory vectors ({SPEC.dim} dims) attached in batches of {BATCH}, "
          f"{args.rounds} alternations on one cluster")
    for packed in (False, True):
        rows = results[packed]
        print(f"  {'packed (base64)' if packed else 'float arrays':16} wall "
              + ", ".join(f"{w:.1f}" for w, _, _ in rows) + " s; client CPU "
              + ", ".join(f"{c:.1f}" for _, c, _ in rows) + " s; Elasticsearch CPU "
              + ", ".join(f"{e:.1f}" for _, _, e in rows) + " s")
    mean = {p: np.mean(results[p], axis=0) for p in results}
    print("  ratio packed / arrays: wall {:.2f}, client CPU {:.2f}, Elasticsearch CPU {:.2f}"
          .format(*(mean[True] / mean[False])))
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
