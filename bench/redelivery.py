"""A worker's events against the broker's visibility timeout, on the queued path (issue 14 item 3).

    python bench/redelivery.py live [--events 6000] [--visibility-timeout rule]
    python bench/redelivery.py dead [--events 3000] [--visibility-timeout default]

Real Redis (the harness's), real `lurker worker` processes (concurrency 2, batch 200), the embedded
store and the offline extractor.

- live: one worker drains a backlog of N events published before it starts, with a short retry
  window (3 s), a 10 s lock wait and the visibility timeout at the shortest the delivery rule accepts for
  them (`--visibility-timeout rule`, or a number). Prints the longest any message sat
  unacknowledged in the broker (sampled every 0.1 s from Redis's `unacked_index`), the events the
  worker settled against those published (work done twice), and the time to drain.
- dead: a worker is SIGKILLed while it holds events; a second one starts at once. Prints how many
  events the dead one held, how long until every event is stored, and the work done twice. With
  the defaults the held events come back one visibility timeout (600 s) after their delivery.

Run against an older checkout (`--root`) to compare: it must accept the same settings.
"""
from __future__ import annotations

import argparse
import contextlib
import re
import sys
import tempfile
import threading
import time
import urllib.request
import uuid
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(HERE))

from tests.workers_support import (WorkerProcess, broker_idle, created,  # noqa: E402
                                   worker_env)

# a short wait for store errors (no outage here) and a lock wait as long as a batch at the least
# rate (the rule's floor), so the rule allows a short visibility timeout
SHORT = dict(retry_window_s=3, worker_lock_timeout_s=10, worker_lock_lease_s=2,
             retry_backoff_max_s=1)


def events_for(n: int, run: str) -> list[dict]:
    return [created(f"bench-redelivery:{run}:c{i % 20}", f"e{i}",
                    f"Deploy {i} of the ledger service moved the retry budget to {i % 9} s; "
                    f"Maya checks build {i} on Friday.", session=f"s{i % 7}", at=i)
            for i in range(n)]


def settled_events(port: int) -> float:
    """lurker_worker_events_total summed over outcomes, from the worker's /metrics."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as reply:
        text = reply.read().decode()
    return sum(float(v) for v in re.findall(r'^lurker_worker_events_total\{[^}]*\} (\S+)$', text,
                                            re.MULTILINE))


class HeldWatch:
    """Samples the oldest unacknowledged delivery in the broker every 0.1 s."""

    def __init__(self, client) -> None:
        self.client, self.longest, self.running = client, 0.0, True
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while self.running:
            with contextlib.suppress(Exception):
                oldest = self.client.zrange("unacked_index", 0, 0, withscores=True)
                if oldest:
                    self.longest = max(self.longest, time.time() - oldest[0][1])
            time.sleep(0.1)

    def __enter__(self) -> HeldWatch:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.running = False
        self.thread.join(5)


def stored(reader, profiles: set[str]) -> int:
    return sum(1 for p in profiles for _ in reader.store.iter_messages(p))


def wait_for(predicate, timeout: float, what: str, workers) -> float:
    start = time.monotonic()
    while not predicate():
        if time.monotonic() - start > timeout:
            raise SystemExit(f"timed out waiting for {what}\n" +
                             "\n".join(w.tail(30) for w in workers))
        time.sleep(0.25)
    return time.monotonic() - start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("mode", choices=["live", "dead"])
    ap.add_argument("--events", type=int, default=None)
    ap.add_argument("--visibility-timeout", default=None,
                    help="seconds; 'rule' (live's default) or 'default' (dead's)")
    ap.add_argument("--root", default=str(HERE), help="the checkout whose `lurker worker` runs")
    ap.add_argument("--timeout", type=float, default=1800)
    args = ap.parse_args()

    from memory.config import Settings
    from memory.service import MemoryService
    from tests.harness import free_port
    from tests.harness.redis import RedisServer
    from workers import app as app_module
    from workers.broker import HOLD_MARGIN, longest_hold_s
    from workers.enqueue import EventPublisher

    n = args.events or (6000 if args.mode == "live" else 3000)
    vt_arg = args.visibility_timeout or ("rule" if args.mode == "live" else "default")
    options = dict(worker_concurrency=2, batch_size=200, batch_interval_s=1.0,
                   **(SHORT if args.mode == "live" else {}))
    if vt_arg == "rule":
        options["broker_visibility_timeout_s"] = int(
            HOLD_MARGIN * longest_hold_s(Settings(**options))) + 1
    elif vt_arg != "default":
        options["broker_visibility_timeout_s"] = float(vt_arg)
    vt = Settings(**options).broker_visibility_timeout_s
    run = uuid.uuid4().hex[:8]
    events = events_for(n, run)
    profiles = {e["profile"] for e in events}
    with RedisServer() as redis_server, tempfile.TemporaryDirectory() as tmp:
        client = redis_server.client()
        store = f"sqlite:///{tmp}/lurker.db"
        app_module.configure(Settings(broker_url=redis_server.url, store=store,
                                      anthropic_api_key=None))
        reader = MemoryService.from_settings(Settings(store=store, anthropic_api_key=None))
        print(f"{args.mode}: {n} events over {len(profiles)} profiles; worker concurrency 2, "
              f"batch 200, visibility timeout {vt:g} s ({vt_arg}); checkout {args.root}")
        EventPublisher().publish_many(events)

        def worker(name: str) -> WorkerProcess:
            port = free_port()
            env = worker_env(store, redis_server.url, worker_metrics_port=port, **options)
            env["PYTHONPATH"] = args.root
            proc = WorkerProcess(env, Path(tmp) / f"{name}.log", name=name)
            proc.metrics_port = port
            return proc

        def all_done() -> bool:
            return stored(reader, profiles) == n and broker_idle(client)

        workers = [worker("first")]
        with HeldWatch(client) as watch:
            workers[0].start()
            try:
                if args.mode == "dead":
                    wait_for(lambda: stored(reader, profiles) > 0 and client.hlen("unacked") > 50,
                             args.timeout, "a worker holding events", workers)
                    held = client.hlen("unacked")
                    workers[0].kill()
                    before = stored(reader, profiles)
                    workers.append(worker("second").start())
                    back = wait_for(all_done, args.timeout, "every event stored", workers)
                    settled = settled_events(workers[1].metrics_port) + before
                    print(f"  killed holding {held} messages with {before} of {n} events stored;"
                          f" every event stored {back:.0f} s after the kill")
                else:
                    drained = wait_for(all_done, args.timeout, "every event stored", workers)
                    settled = settled_events(workers[0].metrics_port)
                    print(f"  drained in {drained:.0f} s ({n / drained:.0f} events/s)")
            finally:
                for w in workers:
                    w.stop()
        twice = max(0.0, settled - n)
        print(f"  longest a message sat unacknowledged: {watch.longest:.1f} s "
              f"(visibility timeout {vt:g} s)")
        print(f"  events settled {settled:.0f} for {n} published: {twice:.0f} done twice "
              f"({twice / n:.1%} wasted)")
        print(f"  stored messages: {stored(reader, profiles)} (each once: ids are "
              f"content-addressed)")
        reader.close()


if __name__ == "__main__":
    main()
