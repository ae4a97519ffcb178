"""End-to-end ingestion through the queue: chat events -> Redis -> `lurker worker` -> Elasticsearch.

    python bench/ingest.py [--messages 20000] [--channels 50] [--concurrency 2] [--batch-size 500]
                           [--prefill] [--searchable-only]

Publishes N synthetic channel messages (spread over C channel profiles, one conversation per channel
and day) to a real Redis, lets real `lurker worker` processes batch-ingest them into a real
Elasticsearch with the offline extractor, and prints:
- messages/s end to end, and the time until every message is searchable (full text);
- the time until the follow-up embedding tasks are done too (memories in the kNN index);
- beside a baseline measured in the same run on the same Elasticsearch: the same messages written
  by one plain `elasticsearch.helpers.bulk` call (no queue, no extraction, no embeddings);
- and beside the encoder alone: the texts the workers embedded, embedded again here in one call.
The ratio says what the queue and the pipeline cost. The machine's load average is printed at the
start and the end (on 2 cores the publisher, the worker and Elasticsearch share them). Redis and Elasticsearch are the ones the test
harness starts (or LURKER_TEST_ES_URL/_USER/_PASSWORD and LURKER_TEST_REDIS_URL for running ones).
"""
from __future__ import annotations

import argparse
import contextlib
import os
import random
import sys
import tempfile
import time
import uuid
from datetime import datetime, timedelta, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.workers_support import WorkerProcess, broker_backlog, worker_env  # noqa: E402

PEOPLE = ["maya", "tomas", "priya", "li", "sam", "noor", "jonas", "ada", "kofi", "rin"]
SERVICES = ["billing", "search", "auth", "checkout", "gateway", "ledger", "notifier", "ingest"]
# Every line carries the message's number in its channel ({n}): a message's id is derived from its
# conversation, role and text, so two identical lines of one channel-day would be stored once.
LINES = [
    "The {thing} for {service} is {v} now, we changed it after incident {n}.",
    "We shipped {service} v{v}.{n} to production this morning.",
    "I will migrate the {service} dashboards by Friday (step {n}).",
    "Always page the {service} on-call before touching the {thing} (runbook {n}).",
    "Ticket {service}-{v}{n} says the {thing} spikes after deploys.",
    "lol yes, {n} of those",
    "Can someone look at the {service} alerts from build {n}?",
    "Thanks, that fixed build {n}!",
]
THINGS = ["rate limit", "timeout", "retry budget", "cache ttl", "batch size", "pool size"]
T0 = datetime(2026, 11, 2, 9, 0, tzinfo=timezone.utc)


def synth_events(n: int, channels: int, run: str) -> list[dict]:
    """n message.created events, round-robin over the channels; 40 messages a channel a day."""
    rng = random.Random(5)
    events = []
    for i in range(n):
        channel, k = i % channels, i // channels
        at = T0 + timedelta(days=k // 40, minutes=15 * (k % 40))
        text = rng.choice(LINES).format(thing=rng.choice(THINGS), service=rng.choice(SERVICES),
                                        v=rng.randint(1, 5000), n=k)
        events.append({"type": "message.created", "profile": f"bench-ingest:{run}:c{channel}",
                       "session_id": f"c{channel}:{at.date()}", "external_id": f"c{channel}:{k}",
                       "role": "user", "author": rng.choice(PEOPLE), "content": text,
                       "ts": at.isoformat()})
    assert len({(e["session_id"], e["content"]) for e in events}) == n, "duplicate messages"
    return events


def baseline_bulk(client, events: list[dict], index: str) -> float:
    """The same messages with one helpers.bulk call (refresh at the end, so all are searchable)."""
    from elasticsearch import helpers

    with contextlib.suppress(Exception):
        client.indices.delete(index=index)
    client.indices.create(index=index, mappings={"properties": {
        "profile": {"type": "keyword"}, "session_id": {"type": "keyword"},
        "author": {"type": "keyword"}, "content": {"type": "text"}, "ts": {"type": "date"}}},
        settings={"number_of_shards": 1, "number_of_replicas": 0})
    client.cluster.health(index=index, wait_for_status="yellow", timeout="30s")
    actions = ({"_index": index, "_id": f"{e['profile']}/{e['external_id']}", "_routing":
                e["profile"], **{k: e[k] for k in ("profile", "session_id", "author", "content",
                                                   "ts")}} for e in events)
    start = time.perf_counter()
    ok, errors = helpers.bulk(client, actions, chunk_size=1000, refresh="true")
    elapsed = time.perf_counter() - start
    assert ok == len(events) and not errors, errors
    client.indices.delete(index=index)
    return elapsed


def encoder_alone(es_url: str, user: str | None, password: str | None, prefix: str, run: str,
                  channels: int) -> tuple[float, int, float]:
    """The baseline for "embedded": the texts the workers embedded (every embeddable memory and
    every message passage of the run, as MemoryService._embed makes them), embedded here by one
    call of the same encoder with the machine to itself. Returns (seconds, texts, CPU seconds)."""
    from memory.embeddings import default_embedder
    from memory.models import embedding_text
    from memory.passages import passage_embedding_text, split_passages
    from memory.stores.elasticsearch import ElasticsearchStore

    store = ElasticsearchStore(es_url, user=user, password=password, index_prefix=prefix)
    texts: list[str] = []
    for c in range(channels):
        profile = f"bench-ingest:{run}:c{c}"
        texts += [embedding_text(m) for m in store.list_memories(profile) if m.embeddable]
        texts += [passage_embedding_text(m.author or m.role, m.content[a:b])
                  for m in store.iter_messages(profile) for a, b in split_passages(m.content)]
    store.close()
    embedder = default_embedder()
    embedder.embed(["warm up"])
    start, cpu = time.perf_counter(), os.times()
    embedder.embed(texts)
    used = os.times()
    return (time.perf_counter() - start, len(texts),
            used.user + used.system - cpu.user - cpu.system)


CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _proc_cpu(pid: str) -> tuple[int, float] | None:
    """(process group, CPU seconds used) of a live process, from /proc (Linux)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return int(fields[2]), (int(fields[11]) + int(fields[12])) / CLOCK_TICKS
    except (OSError, IndexError, ValueError):
        return None


def cpu_snapshot(worker_groups: set[int]) -> dict[str, float]:
    """CPU seconds used so far: the machine's (every core's busy time, /proc/stat), the worker
    process groups', Elasticsearch's (a JVM on this machine). Empty where /proc is absent."""
    snap: dict[str, float] = {}
    try:
        with open("/proc/stat") as f:
            cpu = [int(x) for x in f.readline().split()[1:]]
        snap["machine"] = (sum(cpu) - cpu[3] - cpu[4]) / CLOCK_TICKS  # all but idle and iowait
    except OSError:
        return snap
    snap["workers"] = snap["elasticsearch"] = 0.0
    for pid in filter(str.isdigit, os.listdir("/proc")):
        got = _proc_cpu(pid)
        if got is None:
            continue
        group, seconds = got
        if group in worker_groups:
            snap["workers"] += seconds
        else:
            with contextlib.suppress(OSError), open(f"/proc/{pid}/cmdline", "rb") as f:
                if b"org.elasticsearch" in f.read():
                    snap["elasticsearch"] += seconds
    return snap


def cpu_between(a: dict, b: dict) -> str:
    if not a or not b:
        return "CPU not measured (no /proc)"
    used = {k: b[k] - a[k] for k in a}
    rest = used["machine"] - used["workers"] - used["elasticsearch"]
    return (f"{used['machine']:.0f} CPU-s on the machine: workers {used['workers']:.0f}, "
            f"Elasticsearch {used['elasticsearch']:.0f}, the rest (publisher, Redis, this "
            f"process, other load) {rest:.0f}")


def count_messages(client, alias: str, run: str) -> int:
    body = {"query": {"prefix": {"profile": f"bench-ingest:{run}:"}}}
    return client.count(index=alias, **body)["count"]


def wait(predicate, timeout: float, what: str, workers: list, interval: float = 0.25) -> float:
    start = time.perf_counter()
    while not predicate():
        if time.perf_counter() - start > timeout:
            tails = "\n".join(w.tail(30) for w in workers)
            raise SystemExit(f"bench: timed out after {timeout:.0f}s waiting for {what}\n{tails}")
        time.sleep(interval)
    return time.perf_counter()


def run(es_url: str, es_user: str | None, es_password: str | None, redis_url: str,
        args: argparse.Namespace) -> None:
    import redis
    from elasticsearch import Elasticsearch

    from memory.config import Settings
    from memory.service import MemoryService
    from workers import app as app_module
    from workers.enqueue import EventPublisher

    run_id = uuid.uuid4().hex[:8]
    prefix = "lurker-bench-ingest"
    events = synth_events(args.messages, args.channels, run_id)
    es = Elasticsearch(es_url, basic_auth=(es_user, es_password) if es_user else None,
                       request_timeout=120)
    from memory.ids import message_id

    # the same words twice in one conversation are one message (content-addressed ids)
    distinct = len({(e["profile"], message_id(e["session_id"], e["role"], e["content"]))
                    for e in events})
    print(f"python bench/ingest.py --messages {args.messages} --channels {args.channels}"
          f"{' --prefill' if args.prefill else ''}; load average "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())} at start")
    print(f"{len(events)} events ({distinct} distinct messages) over {args.channels} channels; "
          f"workers: "
          f"{args.workers} x concurrency {args.concurrency}, batch {args.batch_size}")

    base_s = baseline_bulk(es, events, f"{prefix}-baseline-{run_id}")
    print(f"  baseline, one helpers.bulk call: {base_s:.1f} s "
          f"({len(events) / base_s:,.0f} messages/s)")

    settings = Settings(store=es_url, es_user=es_user, es_password=es_password,
                        es_index_prefix=prefix, broker_url=redis_url, anthropic_api_key=None)
    MemoryService.from_settings(settings).close()  # create the indices before the clock starts
    app_module.configure(settings)
    broker = redis.Redis.from_url(redis_url)
    broker.flushdb()
    with tempfile.TemporaryDirectory() as tmp:
        env = worker_env(es_url, redis_url, es=type("ES", (), {"user": es_user or "",
                                                               "password": es_password or ""}),
                         es_index_prefix=prefix, worker_concurrency=args.concurrency,
                         batch_size=args.batch_size, batch_interval_s=args.batch_interval)
        if not es_user:
            env.pop("LURKER_ES_USER", None)
            env.pop("LURKER_ES_PASSWORD", None)
        def start_workers() -> list:
            return [WorkerProcess(env, Path(tmp) / f"worker{i}.log", name=f"bench{i}").start()
                    for i in range(args.workers)]
        workers = [] if args.prefill else start_workers()
        try:
            alias = f"{prefix}-messages"
            groups = {w.proc.pid for w in workers}  # each worker leads its process group
            start, cpu0 = time.perf_counter(), cpu_snapshot(groups)
            publisher = EventPublisher()
            for offset in range(0, len(events), 1000):
                publisher.publish_many(events[offset:offset + 1000])
            published = time.perf_counter()
            if args.prefill:  # a backlog: the clock starts when the ready workers take it
                print(f"  prefilled the queue in {published - start:.1f} s; starting the workers")
                workers = start_workers()
                groups = {w.proc.pid for w in workers}
                start = published = time.perf_counter()
                cpu0 = cpu_snapshot(groups)
            searchable = wait(lambda: count_messages(es, alias, run_id) >= distinct,
                              args.timeout, "every message to be stored", workers)
            cpu1 = cpu_snapshot(groups)
            if args.searchable_only:
                embedded, cpu2 = searchable, cpu1
            else:
                embedded = wait(lambda: not any(broker_backlog(broker).values()), args.timeout,
                                "the embedding tasks", workers)
                cpu2 = cpu_snapshot(groups)
        finally:
            for worker in workers:
                worker.stop()
    if args.searchable_only:
        e2e = searchable - start
        print(f"  queue -> workers -> Elasticsearch: all {count_messages(es, alias, run_id)} "
              f"messages searchable after {e2e:.1f} s ({len(events) / e2e:,.0f} events/s end "
              f"to end)\n  CPU until searchable: {cpu_between(cpu0, cpu1)}\n  load average "
              f"{' '.join(f'{x:.2f}' for x in os.getloadavg())} at the end")
        with contextlib.suppress(Exception):
            es.delete_by_query(index=f"{prefix}-*",
                               query={"prefix": {"profile": f"bench-ingest:{run_id}:"}})
        return
    encoder_s, texts, encoder_cpu = encoder_alone(es_url, es_user, es_password, prefix, run_id, args.channels)
    stored = count_messages(es, alias, run_id)
    memories = es.count(index=f"{prefix}-memories",
                        query={"prefix": {"profile": f"bench-ingest:{run_id}:"}})["count"]
    e2e = searchable - start
    if not args.prefill:
        print(f"  published in {published - start:.1f} s "
              f"({len(events) / (published - start):,.0f} events/s to Redis)")
    print(f"  queue -> workers -> Elasticsearch: all {stored} messages searchable after "
          f"{e2e:.1f} s ({len(events) / e2e:,.0f} events/s end to end), {memories} memories")
    print(f"  embeddings done (kNN index complete) after {embedded - start:.1f} s "
          f"({len(events) / (embedded - start):,.0f} events/s)")
    print(f"  the encoder alone on the same {texts} texts (memories and passages, one call in "
          f"this process): {encoder_s:.1f} s ({len(events) / encoder_s:,.0f} events/s); "
          f"embedded by the queued path at {encoder_s / (embedded - start):.2f}x that")
    # Where the cores went: the queued path does the encoder's work and more on the same cores
    # (Elasticsearch indexing the vectors, the searchable phase first), which bounds its pace.
    print(f"  CPU until searchable: {cpu_between(cpu0, cpu1)}")
    print(f"  CPU from searchable to embedded: {cpu_between(cpu1, cpu2)}")
    print(f"  the encoder alone: {encoder_cpu:.0f} CPU-s in {encoder_s:.1f} s "
          f"({encoder_cpu / encoder_s:.2f} cores busy); the queued run kept "
          f"{(cpu2['machine'] - cpu0['machine']) / (embedded - start):.2f} cores busy"
          if cpu0 else "")
    print(f"\n  ratio: end-to-end searchable time / plain bulk time = {e2e / base_s:.1f}x; "
          f"with embeddings {(embedded - start) / base_s:.1f}x")
    print(f"  load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} at the end")
    with contextlib.suppress(Exception):  # leave nothing behind on a shared cluster
        es.delete_by_query(index=f"{prefix}-*",
                           query={"prefix": {"profile": f"bench-ingest:{run_id}:"}})


def running_servers(stack: contextlib.ExitStack) -> tuple[str, str | None, str | None, str]:
    """(Elasticsearch URL, user, password, Redis URL): the running ones that
    LURKER_TEST_ES_URL / _USER / _PASSWORD and LURKER_TEST_REDIS_URL name, else ones the test
    harness starts here (stopped when `stack` closes)."""
    redis_url = os.environ.get("LURKER_TEST_REDIS_URL")
    if not redis_url:
        from tests.harness.redis import RedisServer

        redis_url = stack.enter_context(RedisServer()).url
    es_url = os.environ.get("LURKER_TEST_ES_URL")
    if es_url:
        return (es_url, os.environ.get("LURKER_TEST_ES_USER"),
                os.environ.get("LURKER_TEST_ES_PASSWORD"), redis_url)
    from tests.harness.elasticsearch import ElasticsearchServer

    es = stack.enter_context(ElasticsearchServer())
    return es.url, es.user, es.password, redis_url


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--messages", type=int, default=20_000)
    ap.add_argument("--channels", type=int, default=50)
    ap.add_argument("--workers", type=int, default=1, help="worker processes (lurker worker)")
    ap.add_argument("--concurrency", type=int, default=2, help="pool processes per worker")
    ap.add_argument("--batch-size", type=int, default=None,
                    help="events a batch (default: LURKER_BATCH_SIZE's default)")
    ap.add_argument("--batch-interval", type=float, default=1.0)
    ap.add_argument("--timeout", type=float, default=3600)
    ap.add_argument("--prefill", action="store_true",
                    help="queue every event first, then start the workers: their drain rate "
                         "alone (a backlog after downtime, a backfill), without the publisher "
                         "sharing the CPU")
    ap.add_argument("--searchable-only", action="store_true",
                    help="stop once every message is searchable: no embedding figures (quick "
                         "comparisons of the ingest path)")
    args = ap.parse_args()
    if args.batch_size is None:
        from memory.config import Settings

        args.batch_size = Settings().batch_size
    with contextlib.ExitStack() as stack:
        es_url, user, password, redis_url = running_servers(stack)
        run(es_url, user, password, redis_url, args)


if __name__ == "__main__":
    main()
