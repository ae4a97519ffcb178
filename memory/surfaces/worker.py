"""`lurker worker`: run a Celery worker that batch-ingests the queued chat events.

    lurker worker --concurrency 2 --batch-size 200 --batch-interval 1.0

Flags override the settings (LURKER_WORKER_CONCURRENCY, LURKER_BATCH_SIZE,
LURKER_BATCH_INTERVAL_S); the broker is LURKER_BROKER_URL and the store LURKER_STORE (or --store).
The worker consumes `lurker.events` (the events) and `lurker.vectors` (the follow-up embedding
tasks). Kept free of Celery imports until it runs, so `lurker --help` stays fast.
"""
from __future__ import annotations

import argparse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--concurrency", "-c", type=int,
                        help="worker processes (default: LURKER_WORKER_CONCURRENCY, 2)")
    parser.add_argument("--batch-size", type=int,
                        help="events per batch (default: LURKER_BATCH_SIZE, 200)")
    parser.add_argument("--batch-interval", type=float,
                        help="seconds to wait for a batch to fill (default: "
                             "LURKER_BATCH_INTERVAL_S, 1.0)")
    parser.add_argument("--broker", help="override LURKER_BROKER_URL")
    parser.add_argument("--queues", "-Q", default=None,
                        help="queues to consume (default: lurker.events,lurker.vectors)")
    parser.add_argument("--pool", choices=("prefork", "solo"), default=None,
                        help="prefork (default) or solo (one process, for debugging)")
    parser.add_argument("--metrics-port", type=int, default=None,
                        help="serve Prometheus metrics on this port (default: "
                             "LURKER_WORKER_METRICS_PORT, off)")
    parser.add_argument("--loglevel", "-l", default="INFO")
    parser.add_argument("--hostname", "-n", default=None, help="node name (default celery@host)")


def worker_settings(args: argparse.Namespace):
    from memory.config import Settings

    overrides = {}
    for flag, name in (("store", "store"), ("broker", "broker_url"),
                       ("concurrency", "worker_concurrency"), ("batch_size", "batch_size"),
                       ("batch_interval", "batch_interval_s"),
                       ("metrics_port", "worker_metrics_port")):
        value = getattr(args, flag, None)
        if value is not None:
            overrides[name] = value
    return Settings(**overrides)


def run_worker(args: argparse.Namespace) -> int:
    from memory.errors import LurkerError

    settings = worker_settings(args)
    if settings.worker_concurrency < 1 or settings.batch_size < 1 or settings.batch_interval_s <= 0:
        raise LurkerError("--concurrency and --batch-size must be at least 1 and "
                          "--batch-interval above 0")
    from workers.app import configure
    from workers.broker import (EVENTS_QUEUE, VECTORS_QUEUE, delivery_rule, is_eager,
                                prefetch_multiplier)

    if is_eager(settings):
        raise LurkerError(f"LURKER_BROKER_URL={settings.broker_url!r} (or LURKER_WORKER_EAGER) "
                          f"ingests in-process when events are published: there is no queue for "
                          f"a worker to consume; set a broker such as redis://127.0.0.1:6379/0")
    broken = delivery_rule(settings)
    if broken:
        raise LurkerError(broken)
    app = configure(settings)
    queues = [q.strip() for q in (args.queues or f"{EVENTS_QUEUE},{VECTORS_QUEUE}").split(",")
              if q.strip()]
    app.conf.worker_prefetch_multiplier = prefetch_multiplier(settings, queues)
    if settings.worker_metrics_port:
        from workers.metrics import serve

        serve(settings.worker_metrics_port)  # in the main process, which settles the batches
    argv = ["worker", f"--loglevel={args.loglevel}",
            f"--concurrency={settings.worker_concurrency}",
            f"--queues={','.join(queues)}",
            "--without-gossip", "--without-mingle"]
    if args.pool:
        argv.append(f"--pool={args.pool}")
    if args.hostname:
        argv.append(f"--hostname={args.hostname}")
    app.worker_main(argv)
    return 0
