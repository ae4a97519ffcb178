"""Recall through the REST API with concurrent clients.

    python bench/api_recall.py [--messages 5000] [--clients 8] [--requests 400] [--store sqlite]

Builds a profile of N synthetic team-chat messages (bench/recall.py's generator, the real ingest
path with the offline extractor and real embeddings) in a fresh SQLite file (or `--store URL` for a
running Elasticsearch), starts `lurker api` on it as a subprocess (a read-only key made with
`lurker api key create`), then sends recalls over HTTP: first one client alone (the baseline, same
run), then `--clients` clients at once. Prints recalls/s, p50/p95 latency, the load average and
the command. The clients run on the same machine as the server (they share its cores).
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import shlex
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import recall as recall_bench  # noqa: E402  (bench/recall.py: the generator and questions)

PROFILE = "bench-api"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def build(store_url: str, n: int) -> None:
    from memory.config import Settings
    from memory.service import MemoryService

    settings = Settings(store=store_url, anthropic_api_key=None)
    with MemoryService.from_settings(settings) as service:
        profile = service.profile(PROFILE)
        service.store.delete_profile(PROFILE)
        recall_bench.build(profile, n)
        print(f"  store holds {service.store.count(PROFILE)}")


def lurker(*args: str, env: dict) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "memory.surfaces.cli", *args], env=env,
                          check=True, capture_output=True, text=True)


def post(conn: http.client.HTTPConnection, key: str, query: str) -> float:
    body = json.dumps({"query": query})
    start = time.perf_counter()
    conn.request("POST", f"/v1/profiles/{PROFILE}/recall", body=body,
                 headers={"Authorization": f"Bearer {key}", "Content-Type": "application/json"})
    response = conn.getresponse()
    data = response.read()
    elapsed = time.perf_counter() - start
    if response.status != 200:
        raise RuntimeError(f"recall answered HTTP {response.status}: {data[:300]!r}")
    return elapsed


def run_clients(port: int, key: str, questions: list[str], clients: int) -> tuple[float, list]:
    """Every client sends its share of the questions back to back on one keep-alive connection;
    returns (wall seconds, latencies)."""
    latencies: list[float] = []
    errors: list[BaseException] = []
    lock = threading.Lock()
    barrier = threading.Barrier(clients + 1)

    def client(part: list[str]) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        try:
            barrier.wait()
            mine = [post(conn, key, q) for q in part]
            with lock:
                latencies.extend(mine)
        except BaseException as exc:  # reported after the run
            errors.append(exc)
        finally:
            conn.close()

    threads = [threading.Thread(target=client, args=(questions[i::clients],))
               for i in range(clients)]
    for t in threads:
        t.start()
    barrier.wait()
    start = time.perf_counter()
    for t in threads:
        t.join()
    wall = time.perf_counter() - start
    if errors:
        raise errors[0]
    return wall, latencies


def pct(samples: list[float]) -> tuple[float, float]:
    qs = statistics.quantiles(samples, n=100, method="inclusive")
    return qs[49] * 1000, qs[94] * 1000


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--messages", type=int, default=5000)
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--requests", type=int, default=400, help="recalls in the concurrent run")
    ap.add_argument("--store", default="sqlite",
                    help="sqlite (a fresh file) or an Elasticsearch URL (LURKER_ES_* for auth)")
    ap.add_argument("--reuse", help="an existing store URL already holding the bench profile")
    args = ap.parse_args()
    from memory.stores.elasticsearch import redact_url  # a store URL's password stays unprinted

    command = "python " + " ".join(shlex.quote(redact_url(a)) for a in sys.argv)
    rng = random.Random(5)
    questions = [rng.choice(recall_bench.QUESTIONS).format(
        thing=rng.choice(recall_bench.THINGS), service=rng.choice(recall_bench.SERVICES),
        n=rng.randrange(args.messages), r=f"{rng.choice('abcdefgh')}{rng.randint(1, 9)}")
        for _ in range(args.requests)]
    with tempfile.TemporaryDirectory() as tmp:
        store_url = args.reuse or (f"sqlite:///{tmp}/api.sqlite3" if args.store == "sqlite"
                                   else args.store)
        if not args.reuse:
            print(f"[build] {args.messages} messages into {redact_url(store_url)}")
            build(store_url, args.messages)
        env = {**os.environ, "PYTHONPATH": str(ROOT), "LURKER_STORE": store_url,
               "LURKER_API_KEYS_FILE": f"{tmp}/keys.json", "LURKER_BROKER_URL": "memory://",
               "LURKER_LOG_FORMAT": "text"}
        key = json.loads(lurker("api", "key", "create", "--profile", PROFILE, "--read-only",
                                "--json", env=env).stdout)["key"]
        port = free_port()
        server = subprocess.Popen([sys.executable, "-m", "memory.surfaces.cli", "api",
                                   "--port", str(port)], env=env, stdout=subprocess.DEVNULL,
                                  stderr=open(f"{tmp}/api.log", "w"))
        try:
            deadline = time.monotonic() + 120
            while True:
                try:
                    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                    conn.request("GET", "/healthz")
                    if conn.getresponse().status == 200:
                        break
                except OSError:
                    pass
                if server.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit(f"lurker api did not start: {Path(tmp, 'api.log').read_text()}")
                time.sleep(0.2)
            run_clients(port, key, questions[:20], 1)  # warm up: model, caches, connections
            load_before = os.getloadavg()
            solo_wall, solo = run_clients(port, key, questions[:100], 1)
            wall, lat = run_clients(port, key, questions, args.clients)
            load_after = os.getloadavg()
        finally:
            server.terminate()
            server.wait(30)
    s50, s95 = pct(solo)
    c50, c95 = pct(lat)
    print(f"\nrecall through `lurker api`, {args.messages}-message profile, store "
          f"{'sqlite' if store_url.startswith('sqlite') else 'elasticsearch'}")
    print(f"{'clients':<10}{'recalls':>8}{'recalls/s':>11}{'p50 ms':>9}{'p95 ms':>9}")
    print(f"{1:<10}{len(solo):>8}{len(solo) / solo_wall:>11.1f}{s50:>9.1f}{s95:>9.1f}"
          "   (baseline: one client, same server, same run)")
    print(f"{args.clients:<10}{len(lat):>8}{len(lat) / wall:>11.1f}{c50:>9.1f}{c95:>9.1f}")
    print(f"cores: {os.cpu_count()}; load average before {load_before[0]:.2f} {load_before[1]:.2f} "
          f"{load_before[2]:.2f}, after {load_after[0]:.2f} {load_after[1]:.2f} "
          f"{load_after[2]:.2f}")
    print(f"command: {command}")


if __name__ == "__main__":
    main()
