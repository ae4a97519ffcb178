"""A real busy channel through the queued path, and recall as its profile grows.

    python bench/chat_scale.py --chat ../shared/benchdata/ubuntu-irc [--stages 10000,50000,200000]
                               [--queries 200] [--concurrency 2]

Publishes the Ubuntu IRC channel's lines, in order, as one Slack-like channel's message events
(one profile; a conversation per channel and UTC day, as the adapters make them) to a real Redis;
real `lurker worker` processes ingest them into a real Elasticsearch with the offline extractor.
At each stage (10k, 50k, all lines by default) it waits until every message so far is searchable
and every embedding task is done, then times `recall()` on that profile for questions made of
words of random lines so far (fused: every channel, the offline answer) beside the baseline of the
same run: one BM25 search over the profile's memories. It prints, per stage, the ingest rates of
that stage, the recall p50/p95 and their ratio to the baseline and to the first stage, the machine's
load and the command. Growth is sub-linear when the p50 grows by less than the messages do.
Redis and Elasticsearch are the ones the test harness starts (or LURKER_TEST_ES_URL / _USER /
_PASSWORD and LURKER_TEST_REDIS_URL for running ones).
"""
from __future__ import annotations

import argparse
import contextlib
import os
import random
import shlex
import sys
import tempfile
import time
import uuid
from datetime import datetime
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path[:0] = [str(BENCH.parent), str(BENCH)]

from ingest import cpu_between, cpu_snapshot, running_servers
from recall import _bm25_request, chat_messages, chat_questions, percentiles

from tests.workers_support import WorkerProcess, broker_backlog, worker_env

PREFIX = "lurker-bench-chat"


def channel_events(messages: list[dict], profile: str) -> list[dict]:
    """The lines as the chat adapters would queue them: one channel, a conversation a UTC day."""
    return [{"type": "message.created", "profile": profile,
             "session_id": f"ubuntu:{datetime.fromisoformat(m['ts']).date().isoformat()}",
             "external_id": f"ubuntu:{i}", "role": m["role"], "author": m["author"],
             "content": m["content"], "ts": m["ts"]} for i, m in enumerate(messages)]


def distinct_messages(events: list[dict]) -> int:
    """Messages the store will hold: the same words twice in one conversation are one message
    (content-addressed ids)."""
    from memory.ids import message_id

    return len({message_id(e["session_id"], e["role"], e["content"]) for e in events})


def wait_for(predicate, timeout: float, what: str, workers: list, progress=None) -> float:
    """Polls until `predicate()`; on timeout, stops with what was awaited and the workers' logs."""
    start = last = time.perf_counter()
    while not predicate():
        now = time.perf_counter()
        if now - start > timeout:
            tails = "\n".join(w.tail(30) for w in workers)
            raise SystemExit(f"bench: timed out after {timeout:.0f}s waiting for {what}"
                             f"{' (' + progress() + ')' if progress else ''}\n{tails}")
        if progress and now - last > 60:
            print(f"    ... {progress()} after {now - start:.0f} s", flush=True)
            last = now
        time.sleep(0.5)
    return time.perf_counter()


def time_recalls(profile, store, questions: list[str]) -> tuple[list[float], list[float]]:
    """(fused recall seconds, BM25 baseline seconds) for each question, interleaved per question
    so that both see the same load."""
    for q in questions[:10]:  # warm connections and caches
        profile.recall(q)
    fused, bm25 = [], []
    for q in questions:
        t = time.perf_counter()
        profile.recall(q)
        fused.append(time.perf_counter() - t)
        t = time.perf_counter()
        store.search(profile.name, _bm25_request(q))
        bm25.append(time.perf_counter() - t)
    return fused, bm25


def run(es_url: str, es_user: str | None, es_password: str | None, redis_url: str,
        args: argparse.Namespace, command: str) -> list[dict]:
    import redis
    from elasticsearch import Elasticsearch

    from memory.config import Settings
    from memory.service import MemoryService
    from workers import app as app_module
    from workers.enqueue import EventPublisher

    messages = chat_messages(args.chat, args.stages[-1])
    stages = [s for s in args.stages if s < len(messages)] + [len(messages)]
    if len(messages) < args.stages[-1]:
        print(f"{args.chat} holds {len(messages)} chat lines: the last stage is all of them")
    run_id = uuid.uuid4().hex[:8]
    profile_name = f"bench-chat:{run_id}:ubuntu"
    events = channel_events(messages, profile_name)
    print(f"{command}\nload average {' '.join(f'{x:.2f}' for x in os.getloadavg())} at start, "
          f"{os.cpu_count()} cores; {args.workers} worker x concurrency {args.concurrency}, "
          f"batch {args.batch_size}; stages {stages}", flush=True)

    settings = Settings(store=es_url, es_user=es_user, es_password=es_password,
                        es_index_prefix=PREFIX, broker_url=redis_url, anthropic_api_key=None)
    service = MemoryService.from_settings(settings)  # creates the indices before the clock
    profile, store = service.profile(profile_name), service.store
    app_module.configure(settings)
    es = Elasticsearch(es_url, basic_auth=(es_user, es_password) if es_user else None,
                       request_timeout=120)
    broker = redis.Redis.from_url(redis_url)
    broker.flushdb()
    rng = random.Random(11)
    rows: list[dict] = []
    with tempfile.TemporaryDirectory() as tmp:
        env = worker_env(es_url, redis_url, es=type("ES", (), {"user": es_user or "",
                                                               "password": es_password or ""}),
                         es_index_prefix=PREFIX, worker_concurrency=args.concurrency,
                         batch_size=args.batch_size)
        if not es_user:
            env.pop("LURKER_ES_USER", None)
            env.pop("LURKER_ES_PASSWORD", None)
        workers = [WorkerProcess(env, Path(tmp) / f"worker{i}.log", name=f"chat{i}").start()
                   for i in range(args.workers)]
        groups = {w.proc.pid for w in workers}
        publisher = EventPublisher()
        try:
            def stored() -> int:
                return store.count(profile_name)["messages"]

            done = 0
            for stage in stages:
                expected = distinct_messages(events[:stage])
                start, cpu0 = time.perf_counter(), cpu_snapshot(groups)
                for offset in range(done, stage, 1000):
                    publisher.publish_many(events[offset:min(offset + 1000, stage)])
                searchable = wait_for(lambda n=expected: stored() >= n, args.timeout,
                                      f"{expected} messages to be stored", workers,
                                      lambda n=expected: f"{stored()} of {n} stored")
                embedded = wait_for(lambda: not any(broker_backlog(broker).values()),
                                    args.timeout, "the embedding tasks", workers,
                                    lambda: f"backlog {broker_backlog(broker)}")
                cpu1 = cpu_snapshot(groups)
                new = stage - done
                counts = store.count(profile_name)
                print(f"[{stage} lines] {new} new events: searchable after "
                      f"{searchable - start:.1f} s ({new / (searchable - start):,.0f}/s), "
                      f"embedded after {embedded - start:.1f} s "
                      f"({new / (embedded - start):,.0f}/s); store holds {counts}\n"
                      f"  CPU for the stage: {cpu_between(cpu0, cpu1)}", flush=True)
                questions = chat_questions(messages[:stage], args.queries, rng)
                load = os.getloadavg()
                fused, bm25 = time_recalls(profile, store, questions)
                f50, f95 = percentiles(fused)
                b50, b95 = percentiles(bm25)
                rows.append({"lines": stage, "messages": counts["messages"],
                             "memories": counts["memories"], "fused": (f50, f95),
                             "bm25": (b50, b95), "load": (load[0], os.getloadavg()[0])})
                print(f"  recall over {counts['messages']} messages: fused p50 {f50:.1f} / "
                      f"p95 {f95:.1f} ms, BM25 {b50:.1f} / {b95:.1f} ms", flush=True)
                done = stage
        finally:
            for worker in workers:
                worker.stop()
            service.close()
            if not args.keep:  # leave nothing behind on a shared cluster
                with contextlib.suppress(Exception):
                    es.delete_by_query(index=f"{PREFIX}-*",
                                       query={"term": {"profile": profile_name}})
    return rows


def report(rows: list[dict], queries: int, command: str) -> None:
    first = rows[0]
    print(f"\nrecall latency in one profile of the real channel, {queries} questions a stage "
          f"(ms); baseline: one BM25 search over the memories, same profile, same run")
    print(f"{'lines':>8}{'messages':>10}{'memories':>10}{'fused p50':>11}{'fused p95':>11}"
          f"{'bm25 p50':>10}{'bm25 p95':>10}{'ratio':>7}{'messages x':>12}{'p50 x':>7}"
          f"{'load':>11}")
    for r in rows:
        (f50, f95), (b50, b95) = r["fused"], r["bm25"]
        print(f"{r['lines']:>8}{r['messages']:>10}{r['memories']:>10}{f50:>11.1f}{f95:>11.1f}"
              f"{b50:>10.1f}{b95:>10.1f}{f50 / b50:>6.1f}x"
              f"{r['messages'] / first['messages']:>11.1f}x"
              f"{f50 / first['fused'][0]:>6.1f}x{r['load'][0]:>6.2f}-{r['load'][1]:.2f}")
    print(f"({os.cpu_count()} cores; load = 1-minute load average before and after the stage's "
          f"recalls)\ncommand: {command}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--chat", type=Path, required=True,
                    help="the Ubuntu IRC logs folder (../shared/benchdata/ubuntu-irc)")
    ap.add_argument("--stages", default="10000,50000,200000",
                    help="cumulative chat lines at which to time recall (the last stage is "
                         "every line there is, if fewer)")
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--workers", type=int, default=1, help="worker processes (lurker worker)")
    ap.add_argument("--concurrency", type=int, default=2, help="pool processes per worker")
    ap.add_argument("--batch-size", type=int, default=None,
                    help="events a batch (default: LURKER_BATCH_SIZE's default)")
    ap.add_argument("--timeout", type=float, default=7200, help="seconds a stage may take")
    ap.add_argument("--keep", action="store_true", help="leave the profile in Elasticsearch")
    args = ap.parse_args()
    args.stages = sorted(int(s) for s in args.stages.split(","))
    if args.batch_size is None:
        from memory.config import Settings

        args.batch_size = Settings().batch_size
    command = "python " + " ".join(shlex.quote(a) for a in sys.argv)
    with contextlib.ExitStack() as stack:
        es_url, user, password, redis_url = running_servers(stack)
        rows = run(es_url, user, password, redis_url, args, command)
    report(rows, args.queries, command)


if __name__ == "__main__":
    main()
