"""Observability for the API and MCP server: Prometheus metrics and structured (JSON) logs.

Metrics live in a registry per app (`Metrics`), served at GET /metrics:

- lurker_http_requests_total{method,route,status}, lurker_http_request_seconds{method,route}
- lurker_ingest_messages_total{mode}       messages accepted by POST .../ingest (queued/applied)
- lurker_ingest_batch_size                 messages per ingest request (histogram)
- lurker_recall_seconds{surface}           whole recall (retrieval + answer), api or mcp
- lurker_recall_channel_hits_total{channel} retrieval channels that contributed a returned memory
- lurker_recall_channel_seconds{channel}   time each retrieval channel took in the store
- lurker_queue_length{queue}               events waiting on the broker (read at scrape time; the
                                           signal for a worker HPA), -1 when it cannot be read
- lurker_llm_tokens_total{kind}            Anthropic tokens (input/output/cache_read/cache_write)
- lurker_llm_errors_total                  failed model calls (after the SDK's retries)

Logs: one JSON object per line with ts, level, logger, message, and the request_id and profile of
the request being served (contextvars), plus any `extra=` fields.
"""
from __future__ import annotations

import contextvars
import json
import logging
import sys
import time
from collections.abc import Callable, Iterator

from prometheus_client import CollectorRegistry, Counter, Histogram
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily

request_id_var: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "lurker_request_id", default=None)
profile_var: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "lurker_profile", default=None)

LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30)
BATCH_BUCKETS = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000)


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        self.requests = Counter("lurker_http_requests", "HTTP requests served",
                                ["method", "route", "status"], registry=r)
        self.request_seconds = Histogram("lurker_http_request_seconds", "HTTP request latency",
                                         ["method", "route"], buckets=LATENCY_BUCKETS, registry=r)
        self.ingest_messages = Counter("lurker_ingest_messages", "Messages accepted for ingest",
                                       ["mode"], registry=r)
        self.ingest_batch = Histogram("lurker_ingest_batch_size", "Messages per ingest request",
                                      buckets=BATCH_BUCKETS, registry=r)
        self.recall_seconds = Histogram("lurker_recall_seconds", "Recall latency (retrieval and "
                                        "answer)", ["surface"], buckets=LATENCY_BUCKETS,
                                        registry=r)
        self.channel_hits = Counter("lurker_recall_channel_hits", "Retrieval channels that "
                                    "contributed a returned memory", ["channel"], registry=r)

        self.channel_seconds = Histogram("lurker_recall_channel_seconds", "Time a retrieval "
                                         "channel took in the store", ["channel"],
                                         buckets=LATENCY_BUCKETS, registry=r)

    def observe_recall(self, surface: str, seconds: float, result) -> None:
        self.recall_seconds.labels(surface).observe(seconds)
        for channel, took in result.channel_seconds.items():
            self.channel_seconds.labels(channel).observe(took)
        for scored in result.memories:
            for channel in scored.channels:
                self.channel_hits.labels(channel).inc()

    def add_collector(self, collector) -> None:
        self.registry.register(collector)


class LLMCollector:
    """Token and error counters of the service's Anthropic client (if it has one)."""

    def __init__(self, service) -> None:
        self.service = service

    def _usage(self):
        for part in (self.service.extractor, self.service.answerer):
            client = getattr(part, "client", None)
            if client is not None and hasattr(client, "usage"):
                return client.usage
        return None

    def describe(self):
        return []

    def collect(self) -> Iterator:
        usage = self._usage()
        tokens = CounterMetricFamily("lurker_llm_tokens", "Anthropic tokens used",
                                     labels=["kind"])
        errors = CounterMetricFamily("lurker_llm_errors", "Failed model calls")
        if usage is not None:
            for kind, attr in (("input", "input_tokens"), ("output", "output_tokens"),
                               ("cache_read", "cache_read_input_tokens"),
                               ("cache_write", "cache_creation_input_tokens")):
                tokens.add_metric([kind], getattr(usage, attr, 0))
            errors.add_metric([], getattr(usage, "errors", 0))
        else:
            errors.add_metric([], 0)
        yield tokens
        yield errors


class QueueCollector:
    """Length of the broker's queues, read at scrape time (a worker autoscaling signal)."""

    def __init__(self, lengths: Callable[[], dict[str, int]]) -> None:
        self.lengths = lengths

    def describe(self):
        return []

    def collect(self) -> Iterator:
        gauge = GaugeMetricFamily("lurker_queue_length", "Events waiting on the broker",
                                  labels=["queue"])
        try:
            lengths = self.lengths()
        except Exception:  # a scrape must not fail because the broker is down
            lengths = {"lurker.events": -1}
        for queue, length in lengths.items():
            gauge.add_metric([queue], length)
        yield gauge


class Timer:
    def __enter__(self) -> Timer:
        self.start = time.perf_counter()
        return self

    def __exit__(self, *exc) -> None:
        self.seconds = time.perf_counter() - self.start


# --- logs -------------------------------------------------------------------------------------
_STANDARD = set(vars(logging.makeLogRecord({}))) | {"message", "asctime", "color_message"}


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        out = {"ts": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
               + f".{int(record.msecs):03d}Z",
               "level": record.levelname.lower(), "logger": record.name,
               "message": record.getMessage()}
        request_id, profile = request_id_var.get(), profile_var.get()
        if request_id:
            out["request_id"] = request_id
        if profile:
            out["profile"] = profile
        for key, value in vars(record).items():
            if key not in _STANDARD and not key.startswith("_") and key not in out:
                out[key] = value
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        return json.dumps(out, default=str, ensure_ascii=False)


def configure_logging(fmt: str = "json", level: int | str = logging.INFO,
                      stream=None) -> logging.Handler:
    """One handler on the root logger (JSON, or plain text for a terminal); uvicorn's own loggers
    go through it too."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JsonFormatter() if fmt == "json" else logging.Formatter(
        "%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    for old in list(root.handlers):
        if getattr(old, "_lurker", False):
            root.removeHandler(old)
    handler._lurker = True  # type: ignore[attr-defined]
    root.addHandler(handler)
    root.setLevel(level)
    # Celery's task trace logs each task's arguments (message text) at INFO: warnings only.
    logging.getLogger("celery.app.trace").setLevel(logging.WARNING)
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logger = logging.getLogger(name)
        logger.handlers = []
        logger.propagate = True
    return handler
