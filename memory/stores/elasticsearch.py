"""The Elasticsearch store: two shared indices (messages, memories) for every profile.

- Indices `{prefix}-messages-vN` / `{prefix}-memories-vN` (generation N, 1 when first created)
  come from composable index templates and are read and written only through the aliases
  `{prefix}-messages` / `{prefix}-memories`. The mapping's `_meta` records the schema version and
  the embedding model/dimension; opening with another schema version or embedding raises
  SchemaOutdated / EmbeddingMismatch instead of mixing them, and `lurker migrate`
  (the index lifecycle below) reindexes into the next generation and moves the alias.
- Every document carries a `profile` keyword, is routed by profile and has `_id` "{profile}/{id}"
  (ids are content-addressed, so two profiles can hold the same one); every query filters on
  profile.
- Stemming is done here (memory/text.py), not by the cluster: a `stems` field holds Snowball English
  stems, so any cluster ranks the same way, including the bare distribution without analysis-common.
- Memory vectors live in the memory document's `embedding` (dense_vector, cosine, float32 HNSW).
  To a cluster whose every node is 9.3 or newer they are sent as base64 of big-endian float32
  (the client's `pack_dense_vector`), query vectors too from 9.4: JSON arrays of floats cost
  both sides far more to write and parse (bench/vector_writes.py, README "Benchmarks").
- The passages of a message (memory.passages) are nested objects of its document: offsets, stems
  for those of long messages (passage_text, a nested BM25 query) and vectors (passage_vector, a
  nested kNN), each answering with the best passage per message through inner_hits.
- `search` sends every requested channel in one `_msearch` round trip.

Index lifecycle (`lurker migrate`, the Store.migrate hook), for each alias:

- missing: create the index and its template (a fresh install);
- same schema version and embedding: put the template again and add the fields the mapping gained
  (compatible changes); nothing is copied;
- another schema version, or memories embedded by another model or dimension: build generation N+1
  beside the live index and copy every document into it with scan + bulk (bare clusters have no
  reindex module), re-embedding memories when the model changed. Writes made meanwhile are caught
  up by comparing document versions (copies keep the source `_version`, external versioning); then
  the old index is write-blocked for a last catch-up (writers get StoreUnavailable and retry: the
  workers' queue absorbs the pause), the alias moves to the new index in one atomic `_aliases`
  call, and the old index is deleted.

Reads never stop: the alias points at a complete index at every moment. After a model change,
pods still running the old model fail their kNN channel until they are replaced, which the helm
chart does right after this runs as its pre-upgrade hook. Running it again is a no-op. A run that
dies half-way leaves the old index live; the next run lifts its write block, deletes the unfinished
generation and starts that alias over. Run one migration at a time per index prefix.
"""
from __future__ import annotations

import contextlib
import hashlib
import itertools
import logging
import random
import re
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from datetime import datetime, timezone
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import numpy as np
from elastic_transport import ConnectionError as TransportConnectionError
from elastic_transport import ConnectionTimeout, TransportError
from elasticsearch import (
    ApiError,
    AuthenticationException,
    AuthorizationException,
    Elasticsearch,
    UnsupportedProductError,
    helpers,
)
from elasticsearch.helpers import pack_dense_vector

from ..errors import EmbeddingMismatch, LurkerError, StoreUnavailable
from ..models import Memory, Message, Passage, embedding_text
from ..passages import is_long, passage_embedding_text, split_passages
from ..standing import is_standing_rule
from ..text import STOP_WORDS, query_stems, stem_tokens, words
from .base import (
    CH_ASKER_TEXT,
    CH_ASKER_VECTOR,
    CH_DATE,
    CH_HYDE,
    CH_INSTRUCTION,
    CH_MEMORY_TEXT,
    CH_MESSAGE_TEXT,
    CH_PASSAGE_TEXT,
    CH_PASSAGE_VECTOR,
    CH_SESSION_TEXT,
    CH_TOPIC,
    CH_VECTOR,
    CREATE,
    INSTRUCTION_K,
    INSTRUCTION_MIN_SIMILARITY,
    INSTRUCTION_SCAN,
    REINDEX,
    SESSION_DOC_MESSAGES,
    UPDATE,
    EmbeddingSpec,
    Hit,
    MigrationStep,
    PhaseHook,
    SearchRequest,
    Store,
    dated_in,
    dated_then_said,
    said_within,
    span_utc_bounds,
)

log = logging.getLogger("lurker.store")
SCHEMA_VERSION = 1
TEMPLATE_PRIORITY = 500  # above the built-in templates (priority 100) whatever the prefix
PAGE = 1000  # documents per page when scanning a profile
_NOT_READY = (408, 429, 502, 503, 504)  # statuses that pass: the caller waits and tries again
MAX_WINDOW = 10_000  # index.max_result_window: deeper pages go through search_after
MAX_AUTHORS = 10_000  # authors() reads at most this many of a profile's (a terms aggregation)
QUERY_TERMS = 32  # distinct terms taken from a query (a pasted page must not hit max_clause_count)
# A session document rebuilt after a race is written only if no one changed it since it was read.
# With eight writers appending to one session, five tries back to back all lost to them 388 times
# in 30 runs, leaving the document as the last writer made it (a deleted message's words stay
# if that writer read the document before the delete); with growing random pauses between tries
# (at most ~2.7 s in all) the rebuild landed every time in 80 runs.
SESSION_REBUILD_ATTEMPTS = 12
_PREFIX = re.compile(r"[a-z0-9][a-z0-9_.-]{0,99}")
_REFRESH = ("true", "false", "wait_for")
# Vectors as base64 (`pack_dense_vector`) in documents since 9.3, in kNN queries since 9.4: for
# 17,500 memory vectors attached, 9.5.3 used 0.31x the CPU of float arrays and the client 0.14x
# (bench/vector_writes.py; README, "Benchmarks").
PACKED_VECTORS_SINCE = (9, 3)
PACKED_QUERY_VECTORS_SINCE = (9, 4)
# Fields we add to the documents: never part of the returned records.
# the date channel's second search (memories dated in the span), merged into its ranking
_DATED = "date:dated"
_INTERNAL = ["profile", "stems", "embedding", "ts_key", "created_key", "passages"]
# A record's fields, read once (pydantic's `model_fields` is a computed property: ~1 ms a recall
# when asked for every key of every hit).
_FIELDS = {model: frozenset(model.model_fields) for model in (Memory, Message)}

_KEYWORD = {"type": "keyword"}
_LONG_KEYWORD = {"type": "keyword", "ignore_above": 8191}  # free text used as a key: never fail
_DATE = {"type": "date"}
_DAY = {"type": "date", "format": "strict_date"}


def quiet_client_logs() -> None:
    """elastic_transport logs a WARNING for every failed try and every node put on a timeout:
    during a 100 s outage that was hundreds of lines. Failures reach our callers as one
    StoreUnavailable each, and the workers log an outage once when it starts and once when it
    ends (workers/processing.py), so the client's own lines are kept to errors."""
    for name in ("elastic_transport.transport", "elastic_transport.node_pool"):
        logging.getLogger(name).setLevel(logging.ERROR)


class SchemaOutdated(LurkerError):
    """The indices were built by another schema version: `lurker migrate` reindexes them."""


def sort_key(dt: datetime) -> str:
    """Fixed-width UTC text that sorts like the instant, to the microsecond (an ES `date` keeps
    milliseconds only)."""
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=timezone.utc)
    return dt.astimezone(timezone.utc).replace(tzinfo=None).isoformat(timespec="microseconds")


def redact_url(url: str) -> str:
    """The URL without a password in it, for messages."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = f"{parts.username}:***@{parts.hostname}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))


def _short_reason(exc: Exception) -> str:
    """One line out of elastic_transport's nested connection errors."""
    text = str(exc)
    errno = re.search(r"\[Errno -?\d+\] ([^)\]'\"]+)", text)
    if errno:
        return errno.group(1).strip()
    for hint in ("Connection refused", "timed out", "Name or service not known",
                 "certificate verify failed", "Connection reset", "Remote end closed"):
        if hint in text:
            return hint
    line = text.strip().splitlines()[0] if text.strip() else type(exc).__name__
    return line[:200]


def _api_reason(exc: ApiError) -> str:
    body = exc.body if isinstance(exc.body, dict) else {}
    error = body.get("error")
    if isinstance(error, dict):
        cause = (error.get("root_cause") or [error])[0]
        return f"{cause.get('type', 'error')}: {cause.get('reason', '')}"[:300]
    return str(error or exc.message)[:300]


def _item_reason(result: dict) -> str:
    error = result.get("error")
    if isinstance(error, dict):
        return f"{error.get('type')}: {error.get('reason')}"[:300]
    return str(error)[:300]


def version_tuple(number: str) -> tuple[int, ...]:
    """"9.5.3" -> (9, 5, 3); "9.4.0-SNAPSHOT" -> (9, 4, 0); nothing readable -> (0,)."""
    parts = re.findall(r"\d+", number.split("-", 1)[0])
    return tuple(int(p) for p in parts[:3]) or (0,)


class ElasticsearchStore(Store):
    def __init__(self, url: str, user: str | None = None, password: str | None = None,
                 api_key: str | None = None, index_prefix: str = "lurker", refresh: str = "true",
                 request_timeout: float = 30, shards: int = 1, replicas: int = 0):
        if not isinstance(index_prefix, str) or not _PREFIX.fullmatch(index_prefix):
            raise LurkerError(f"invalid Elasticsearch index prefix {index_prefix!r}: use 1-100 "
                              f"characters from a-z 0-9 _ . - starting with a letter or digit")
        refresh = str(refresh).lower()  # also True/False
        if refresh not in _REFRESH:
            raise LurkerError(f"invalid Elasticsearch refresh {refresh!r}: use true, wait_for or "
                              f"false")
        self.url = url
        self.location = redact_url(url)
        self.prefix = index_prefix
        self.refresh = refresh
        self.request_timeout = request_timeout
        self._deferral = threading.local()  # deferred_refresh(): profiles written since a refresh
        self.shards = shards
        self.replicas = replicas
        self.messages_alias = f"{index_prefix}-messages"
        self.memories_alias = f"{index_prefix}-memories"
        # session_text documents: derived from the messages, so never reindexed by a migration
        self.sessions_alias = f"{index_prefix}-sessions"
        self.messages_index = f"{self.messages_alias}-v{SCHEMA_VERSION}"
        self.memories_index = f"{self.memories_alias}-v{SCHEMA_VERSION}"
        self.sessions_index = f"{self.sessions_alias}-v{SCHEMA_VERSION}"
        self.dim: int | None = None
        self.packed_vectors = self.packed_query_vectors = False  # set by open(): the nodes' version
        self._delete_by_query = True  # the bare distribution has no reindex module: then scan+bulk
        auth: dict[str, Any] = {}
        if api_key:
            auth["api_key"] = api_key
        elif user is not None:
            auth["basic_auth"] = (user, password or "")
        quiet_client_logs()
        # Our callers wait out an outage with their own backoff (the workers' retry window):
        # the client's dead-node timeout (doubling up to 30 s by default) would stack on it, so
        # a node is tried again after at most 2 s.
        self.client = Elasticsearch(url, request_timeout=request_timeout, max_retries=2,
                                    retry_on_timeout=False, max_dead_node_backoff=2.0, **auth)

    # --- errors ---------------------------------------------------------------------------
    @contextlib.contextmanager
    def _errors(self) -> Iterator[None]:
        """Turn client exceptions into one-line LurkerErrors that name the URL."""
        where = f"Elasticsearch at {self.location}"
        try:
            yield
        except AuthenticationException:
            raise StoreUnavailable(
                f"{where} rejected the credentials (HTTP 401): check LURKER_ES_USER/"
                f"LURKER_ES_PASSWORD or LURKER_ES_API_KEY") from None
        except AuthorizationException as exc:
            raise StoreUnavailable(f"{where} refused the request (HTTP 403): the user lacks a "
                                   f"privilege on the {self.prefix}-* indices: "
                                   f"{_api_reason(exc)}") from None
        except UnsupportedProductError:
            raise StoreUnavailable(f"{where} is not Elasticsearch (the server did not identify "
                                   f"itself as Elasticsearch)") from None
        except ConnectionTimeout:
            raise StoreUnavailable(f"{where} did not answer within {self.request_timeout:g}s") \
                from None
        except TransportConnectionError as exc:
            raise StoreUnavailable(f"{where} is unreachable: {_short_reason(exc)}") from None
        except TransportError as exc:
            raise StoreUnavailable(f"{where} failed: {_short_reason(exc)}") from None
        except ApiError as exc:
            if exc.meta.status in _NOT_READY:
                raise StoreUnavailable(f"{where} is not ready or overloaded (HTTP "
                                       f"{exc.meta.status}): {_api_reason(exc)}") from None
            raise LurkerError(f"{where} refused a request (HTTP {exc.meta.status}): "
                              f"{_api_reason(exc)}") from exc

    # --- schema ---------------------------------------------------------------------------
    def _meta(self, spec: EmbeddingSpec) -> dict:
        return {"schema_version": SCHEMA_VERSION, "embedding_model": spec.name,
                "embedding_dims": spec.dim}

    def _settings(self) -> dict:
        return {"number_of_shards": self.shards, "number_of_replicas": self.replicas}

    def _messages_mapping(self, spec: EmbeddingSpec) -> dict:
        return {"dynamic": False, "_meta": self._meta(spec), "_routing": {"required": True},
                "properties": {
                    "profile": _KEYWORD, "id": _KEYWORD, "session_id": _LONG_KEYWORD,
                    "role": _KEYWORD, "author": _LONG_KEYWORD,
                    "content": {"type": "text", "analyzer": "standard"},
                    "stems": {"type": "text", "analyzer": "whitespace"},
                    "ts": _DATE, "ts_key": _KEYWORD, "seq": {"type": "long"},
                    "truncated": {"type": "boolean"}, "external_id": _LONG_KEYWORD,
                    "utc_offset_minutes": {"type": "short"},
                    "suppressed": {"type": "boolean"}, "replaces": _KEYWORD,
                    "passages": {"type": "nested", "properties": {
                        "index": {"type": "integer"}, "start": {"type": "integer"},
                        "end": {"type": "integer"},
                        "stems": {"type": "text", "analyzer": "whitespace"},
                        "embedding": {"type": "dense_vector", "dims": spec.dim, "index": True,
                                      "similarity": "cosine",
                                      "index_options": {"type": "hnsw"}}}}}}

    def _memories_mapping(self, spec: EmbeddingSpec) -> dict:
        return {"dynamic": False, "_meta": self._meta(spec), "_routing": {"required": True},
                "properties": {
                    "profile": _KEYWORD, "id": _KEYWORD, "type": _KEYWORD, "status": _KEYWORD,
                    "topic_key": _LONG_KEYWORD, "session_id": _LONG_KEYWORD,
                    "content": {"type": "text", "analyzer": "standard"},
                    "questions": {"type": "text", "analyzer": "standard"},
                    "stems": {"type": "text", "analyzer": "whitespace"},
                    "source_message_ids": _KEYWORD, "dates": _KEYWORD,
                    # what the memory is about in time, apart from when it was said (event_time)
                    "event_dates": {"properties": {
                        "phrase": {"type": "text", "analyzer": "standard"},
                        "start": _DAY, "end": _DAY, "granularity": _KEYWORD}},
                    "created_at": _DATE, "created_key": _KEYWORD, "event_time": _DATE,
                    "supersedes": _KEYWORD, "superseded_by": _KEYWORD,
                    "forgotten_reason": {"type": "text"}, "forgotten_at": _DATE,
                    # float32 HNSW (no quantisation): scores are the exact cosine
                    "embedding": {"type": "dense_vector", "dims": spec.dim, "index": True,
                                  "similarity": "cosine", "index_options": {"type": "hnsw"}}}}

    def _sessions_mapping(self) -> dict:
        """One document per (profile, session): the stems of its searchable messages, and
        which messages those are (not searched; an append skips what is already in)."""
        return {"dynamic": False, "_meta": {"schema_version": SCHEMA_VERSION},
                "_routing": {"required": True},
                "properties": {"profile": _KEYWORD, "session_id": _LONG_KEYWORD,
                               "stems": {"type": "text", "analyzer": "whitespace"},
                               "ids": {"type": "keyword", "index": False, "doc_values": False}}}

    def index_body(self, alias: str, embedding: EmbeddingSpec) -> dict:
        """Settings and mappings of a new index behind `alias` (messages, memories, sessions)."""
        mapping = (self._messages_mapping(embedding) if alias == self.messages_alias
                   else self._sessions_mapping() if alias == self.sessions_alias
                   else self._memories_mapping(embedding))
        return {"settings": self._settings(), "mappings": mapping}

    def put_template(self, alias: str, index: str, embedding: EmbeddingSpec) -> None:
        """The composable template describing `index`, the live generation behind `alias` (an
        exact pattern, so templates of other prefixes never overlap)."""
        self.client.indices.put_index_template(
            name=alias, index_patterns=[index], priority=TEMPLATE_PRIORITY,
            version=SCHEMA_VERSION, meta={"managed_by": "lurker"},
            template={**self.index_body(alias, embedding), "aliases": {alias: {}}})

    def live_index(self, alias: str) -> str | None:
        """The concrete index behind `alias`, or None when the alias does not exist."""
        found = self.client.options(ignore_status=404).indices.get_alias(name=alias)
        if found.meta.status == 404:
            return None
        indices = sorted(found.body)
        if len(indices) != 1:
            raise LurkerError(f"Elasticsearch alias {alias} at {self.location} points at "
                              f"{len(indices)} indices ({', '.join(indices)}); it must point at "
                              f"one: fix it by hand, then run `lurker migrate`")
        return indices[0]

    def open(self, embedding: EmbeddingSpec) -> None:
        client = self.client
        with self._errors():
            live = {alias: self.live_index(alias) for alias in self.aliases}
            for alias, index in live.items():
                if index is not None:
                    self._check_schema(alias, index, embedding)
            for alias in live:
                index = live[alias] or f"{alias}-v{SCHEMA_VERSION}"
                self.put_template(alias, index, embedding)
                if live[alias] is None:
                    created = client.options(ignore_status=400).indices.create(index=index)
                    if created.meta.status == 400 and "resource_already_exists" not in str(
                            created.body):
                        raise LurkerError(f"could not create Elasticsearch index {index} at "
                                          f"{self.location}: {created.body}")
                else:
                    self._add_missing_fields(
                        alias, self.index_body(alias, embedding)["mappings"]["properties"])
                if alias == self.messages_alias:
                    self.messages_index = index
                elif alias == self.sessions_alias:
                    self.sessions_index = index
                else:
                    self.memories_index = index
            client.cluster.health(index=",".join(self.aliases),
                                  wait_for_status="yellow", timeout=f"{self.request_timeout}s")
        self.dim = embedding.dim
        oldest = self._oldest_node_version()
        self.packed_vectors = oldest >= PACKED_VECTORS_SINCE
        self.packed_query_vectors = oldest >= PACKED_QUERY_VECTORS_SINCE

    def _oldest_node_version(self) -> tuple[int, ...]:
        """The version of the cluster's oldest node (a rolling upgrade mixes them); (0,) when the
        cluster will not say, which keeps vectors as float arrays every version reads."""
        try:
            nodes = self.client.nodes.info(filter_path="nodes.*.version").body.get("nodes", {})
        except (ApiError, TransportError):  # a user without the monitor privilege: be safe
            return (0,)
        versions = [version_tuple(n.get("version", "")) for n in nodes.values()]
        return min(versions) if versions else (0,)

    def _vector(self, values: np.ndarray) -> str | list[float]:
        """A vector to write: packed where every node reads it, else a float array."""
        values = np.asarray(values, dtype=np.float32).ravel()
        return pack_dense_vector(values) if self.packed_vectors else values.tolist()

    def _query_vector(self, values: np.ndarray) -> str | list[float]:
        values = np.asarray(values, dtype=np.float32).ravel()
        return pack_dense_vector(values) if self.packed_query_vectors else values.tolist()

    @property
    def aliases(self) -> tuple[str, str, str]:
        return (self.messages_alias, self.memories_alias, self.sessions_alias)

    def _check_schema(self, alias: str, index: str, embedding: EmbeddingSpec) -> None:
        """Refuse an index of another schema version, or memories embedded by another model:
        `lurker migrate` reindexes them; mixing would corrupt ranking or fail writes."""
        body = self.client.indices.get_mapping(index=index).body
        meta = body.get(index, {}).get("mappings", {}).get("_meta", {})
        version = meta.get("schema_version")
        if version != SCHEMA_VERSION:
            raise SchemaOutdated(
                f"Elasticsearch index {index} at {self.location} has schema version {version}; "
                f"this release uses {SCHEMA_VERSION}: run `lurker migrate` (it reindexes behind "
                f"the alias {alias} without downtime)")
        if alias == self.memories_alias:
            stored = (meta.get("embedding_model"), meta.get("embedding_dims"))
            if stored != (embedding.name, embedding.dim):
                raise EmbeddingMismatch(
                    f"Elasticsearch index {index} at {self.location} holds vectors from "
                    f"{stored[0]} ({stored[1]} dims) but the configured embedder is "
                    f"{embedding.name} ({embedding.dim} dims): run `lurker migrate` to reindex "
                    f"and re-embed behind the alias {alias} instead of mixing them")

    def _add_missing_fields(self, alias: str, properties: dict) -> None:
        """Add the fields of `properties` that an existing index (made by an older release of the
        same schema version) lacks; fields already mapped are never touched. Documents stored
        before keep the new field unindexed until they are rewritten."""
        for index, body in self.client.indices.get_mapping(index=alias).body.items():
            have = body.get("mappings", {}).get("properties", {})
            missing = {name: spec for name, spec in properties.items() if name not in have}
            if missing:
                self.client.indices.put_mapping(index=index, properties=missing)

    def close(self) -> None:
        self.client.close()

    def migrate(self, embedder, *, dry_run: bool = False,
                on_phase: PhaseHook | None = None) -> list[MigrationStep]:
        """See the module docstring; the store is left opened and usable."""
        if dry_run:
            return plan_migration(self, embedder.spec)
        return migrate_indices(self, embedder, on_phase)

    # --- documents ------------------------------------------------------------------------
    @staticmethod
    def _doc_id(profile: str, record_id: str) -> str:
        return f"{profile}/{record_id}"

    @staticmethod
    def _message_doc(profile: str, m: Message) -> dict:
        doc = m.model_dump(mode="json")
        doc.update(profile=profile, stems=" ".join(stem_tokens(m.content)), ts_key=sort_key(m.ts),
                   passages=ElasticsearchStore._passage_docs(m.content))
        return doc

    @staticmethod
    def _passage_docs(content: str, vectors: np.ndarray | None = None,
                      encode: Callable[[np.ndarray], Any] = lambda v: [float(x) for x in v]
                      ) -> list[dict]:
        """The nested passage objects of a message: stems only for a long one (passage_text),
        vectors when given (passage_vector), written by `encode`."""
        long = is_long(content)
        docs = []
        for i, (a, b) in enumerate(split_passages(content)):
            doc: dict[str, Any] = {"index": i, "start": a, "end": b}
            if long:
                doc["stems"] = " ".join(stem_tokens(content[a:b]))
            if vectors is not None:
                doc["embedding"] = encode(vectors[i])
            docs.append(doc)
        return docs

    @staticmethod
    def _memory_doc(profile: str, m: Memory) -> dict:
        doc = m.model_dump(mode="json")
        doc.update(profile=profile, created_key=sort_key(m.created_at),
                   stems=" ".join(stem_tokens("\n".join([m.content, *m.questions]))))
        if not m.embeddable:  # superseded, forgotten and tasks stay out of the vector index
            doc["embedding"] = None
        return doc

    @staticmethod
    def _record(model: type[Message] | type[Memory], source: dict):
        fields = _FIELDS.get(model) or frozenset(model.model_fields)
        return model.model_validate({k: v for k, v in source.items() if k in fields})

    # --- refresh ----------------------------------------------------------------------------
    @contextlib.contextmanager
    def deferred_refresh(self) -> Iterator[None]:
        """Writes skip the per-request refresh; a search of a profile written since the last
        refresh refreshes first (every read here is scoped to one profile), and leaving refreshes
        once if anything is still unrefreshed. A worker's batch over 50 channel profiles then
        costs one refresh instead of two per conversation, with read-your-writes kept."""
        if getattr(self._deferral, "dirty", None) is not None:  # nested: the outer one refreshes
            yield
            return
        self._deferral.dirty = set()
        try:
            yield
        except BaseException:
            with contextlib.suppress(Exception):  # do not hide why the batch failed
                self._refresh_if_dirty()
            raise
        else:
            self._refresh_if_dirty()
        finally:
            self._deferral.dirty = None

    def _refresh_if_dirty(self, profile: str | None = None, alias: str | None = None) -> None:
        """Refresh if `profile` (any, if None) was written in `alias` (either index, if None)
        since the last refresh. Only the written indices are refreshed."""
        self._refresh_any_dirty(None if profile is None else [profile], alias)

    def _refresh_any_dirty(self, profiles: Iterable[str] | None, alias: str | None = None
                           ) -> None:
        dirty: set[tuple[str, str]] | None = getattr(self._deferral, "dirty", None)
        if not dirty:
            return
        wanted = None if profiles is None else set(profiles)
        if any((wanted is None or p in wanted) and (alias is None or a == alias)
               for a, p in dirty):
            with self._errors():
                self.client.indices.refresh(index=",".join(sorted({a for a, _ in dirty})))
            dirty.clear()

    def _bulk(self, actions: list[dict], what: str, ok_statuses: tuple[int, ...] = (),
              refresh: str | None = None) -> list[tuple[dict, int]]:
        """Run bulk actions; return (action, status) for each. Failures with a status outside
        `ok_statuses` (e.g. 409 for create-if-absent) raise one error listing them."""
        results: list[tuple[dict, int]] = []
        failures: list[str] = []
        blocked = 0  # write-blocked index (`lurker migrate` finishing, or a full disk): retryable
        if not actions:
            return results
        dirty = getattr(self._deferral, "dirty", None)
        if dirty is not None and refresh is None:
            refresh = "false"
            dirty.update((a["_index"], a["_routing"]) for a in actions)
        with self._errors():
            for action, (ok, item) in zip(actions, helpers.streaming_bulk(
                    self.client, actions, chunk_size=500, max_chunk_bytes=20 * 1024 * 1024,
                    raise_on_error=False, raise_on_exception=True,
                    refresh=refresh or self.refresh)):
                result = next(iter(item.values()))
                status = int(result.get("status", 0))
                results.append((action, status))
                if not ok and status not in ok_statuses:
                    failures.append(f"{action['_id']}: {_item_reason(result)}")
                    error = result.get("error")
                    blocked += status in _NOT_READY or isinstance(error, dict) and error.get(
                        "type") == "cluster_block_exception"
        if failures and blocked == len(failures):
            raise StoreUnavailable(f"Elasticsearch at {self.location} refused {len(failures)} "
                                   f"{what} for now (the index write-blocked by a migration "
                                   f"swapping indices or a full disk, or the node overloaded or "
                                   f"recovering): {failures[0]}")
        if failures:
            more = f" (and {len(failures) - 3} more)" if len(failures) > 3 else ""
            raise LurkerError(f"Elasticsearch at {self.location} rejected {len(failures)} of "
                              f"{len(actions)} {what}: {'; '.join(failures[:3])}{more}")
        return results

    def _scan(self, alias: str, profile: str, query: dict, sort: list, source: Any = None,
              skip: int = 0, limit: int | None = None) -> Iterator[dict]:
        """Hits in `sort` order (which must be a total order), page by page with search_after."""
        self._refresh_if_dirty(profile, alias)
        source = {"excludes": _INTERNAL} if source is None else source
        search_after = None
        with self._errors():
            if limit is not None and skip + limit <= MAX_WINDOW:  # one plain page does it
                if limit == 0:
                    return
                response = self.client.search(index=alias, routing=profile, query=query,
                                              sort=sort, from_=skip, size=limit, source=source,
                                              track_total_hits=False)
                yield from response["hits"]["hits"]
                return
            while limit is None or limit > 0:
                response = self.client.search(index=alias, routing=profile, query=query,
                                              sort=sort, size=PAGE, source=source,
                                              search_after=search_after, track_total_hits=False)
                hits = response["hits"]["hits"]
                for hit in hits:
                    if skip:
                        skip -= 1
                        continue
                    yield hit
                    if limit is not None:
                        limit -= 1
                        if limit == 0:
                            return
                if len(hits) < PAGE:
                    return
                search_after = hits[-1]["sort"]

    @staticmethod
    def _profile_filter(profile: str) -> dict:
        return {"term": {"profile": profile}}

    # --- messages -------------------------------------------------------------------------
    def insert_messages(self, profile: str, messages: list[Message]) -> set[str]:
        return self.insert_messages_many({profile: messages})[profile]

    def get_messages(self, profile: str, ids: Iterable[str]) -> list[Message]:
        return self.get_messages_many({profile: ids})[profile]

    def iter_messages(self, profile: str) -> Iterator[Message]:
        query = {"bool": {"filter": [self._profile_filter(profile)]}}
        sort = [{"ts_key": "asc"}, {"session_id": "asc"}, {"seq": "asc"}, {"id": "asc"}]
        for hit in self._scan(self.messages_alias, profile, query, sort):
            yield self._record(Message, hit["_source"])

    def _before_query(self, profile: str, session_id: str, before: datetime) -> dict:
        # (on the `date` field, not the keyword `ts_key`: a keyword range and sort, run for
        # every worker round, cost the cluster a third more CPU in bench/ingest.py; a date
        # keeps milliseconds, so a message said within the same millisecond is not "before")
        when = before if before.tzinfo else before.replace(tzinfo=timezone.utc)
        return {"bool": {"filter": [self._profile_filter(profile),
                                    {"term": {"session_id": session_id}},
                                    {"range": {"ts": {"lt": when.isoformat()}}}]}}

    _BEFORE_SORT = [{"ts": "desc"}, {"seq": "desc"}, {"id": "desc"}]

    def messages_before(self, profile: str, session_id: str, before: datetime,
                        limit: int = 5) -> list[Message]:
        query = self._before_query(profile, session_id, before)
        return [self._record(Message, hit["_source"]) for hit in self._scan(
            self.messages_alias, profile, query, self._BEFORE_SORT, limit=limit)]

    def messages_before_many(self, wanted: dict[str, tuple[str, datetime]], limit: int = 5
                             ) -> dict[str, list[Message]]:
        """One msearch, a search per profile."""
        asked = list(wanted)
        if not asked:
            return {}
        self._refresh_any_dirty(asked, self.messages_alias)
        searches: list[dict] = []
        for p in asked:
            searches += [{"index": self.messages_alias, "routing": p},
                         {"query": self._before_query(p, *wanted[p]), "sort": self._BEFORE_SORT,
                          "size": limit, "_source": {"excludes": _INTERNAL},
                          "track_total_hits": False}]
        return {p: [self._record(Message, hit["_source"]) for hit in response["hits"]["hits"]]
                for p, response in zip(asked, self._msearch(searches))}

    def find_messages_by_external_id(self, profile: str,
                                     external_ids: Iterable[str]) -> dict[str, Message]:
        keys = list(dict.fromkeys(k for k in external_ids if k))
        found: dict[str, Message] = {}
        sort = [{"ts_key": "asc"}, {"session_id": "asc"}, {"seq": "asc"}, {"id": "asc"}]
        for start in range(0, len(keys), PAGE):
            query = {"bool": {"filter": [self._profile_filter(profile),
                                         {"terms": {"external_id": keys[start:start + PAGE]}}]}}
            for hit in self._scan(self.messages_alias, profile, query, sort):
                message = self._record(Message, hit["_source"])
                found[message.external_id] = message  # ascending, so the newest per id wins
        return found

    def delete_messages(self, profile: str, ids: Iterable[str]) -> set[str]:
        ids = list(dict.fromkeys(ids))
        sessions = {m.session_id for m in self.get_messages(profile, ids)}
        actions = [{"_op_type": "delete", "_index": self.messages_alias,
                    "_id": self._doc_id(profile, i), "_routing": profile} for i in ids]
        prefix = len(profile) + 1
        removed = {action["_id"][prefix:] for action, status in
                   self._bulk(actions, "message deletions", ok_statuses=(404,)) if status == 200}
        if removed:
            self._rebuild_sessions(profile, sessions)
        return removed

    def suppress_messages(self, profile: str, ids: Iterable[str]) -> set[str]:
        todo = [m for m in self.get_messages(profile, ids) if not m.suppressed]
        actions = [{"_op_type": "update", "_index": self.messages_alias,
                    "_id": self._doc_id(profile, m.id), "_routing": profile,
                    "doc": {"suppressed": True}, "retry_on_conflict": 3} for m in todo]
        prefix = len(profile) + 1
        done = {action["_id"][prefix:] for action, status in
                self._bulk(actions, "message suppressions", ok_statuses=(404,)) if status == 200}
        if done:  # its text leaves the session's document too
            self._rebuild_sessions(profile, {m.session_id for m in todo if m.id in done})
        return done

    # --- memories -------------------------------------------------------------------------
    def upsert_memories(self, profile: str, memories: list[Memory]) -> None:
        # A partial update keeps the stored embedding (vectors are set separately); a memory
        # that is not embeddable any more has it removed (`embedding: null` in its doc).
        self.upsert_memories_many({profile: memories})

    def get_memories(self, profile: str, ids: Iterable[str]) -> list[Memory]:
        return self.get_memories_many({profile: ids})[profile]

    def memory_ids_by_prefix(self, profile: str, prefix: str, limit: int = 2) -> list[str]:
        with self._errors():
            response = self.client.search(
                index=self.memories_alias, routing=profile, size=limit, source=["id"],
                sort=[{"id": "asc"}], track_total_hits=False,
                query={"bool": {"filter": [self._profile_filter(profile),
                                           {"prefix": {"id": prefix}}]}})
        return [hit["_source"]["id"] for hit in response["hits"]["hits"]]

    def active_by_topic(self, profile: str, topic_keys: Iterable[str]) -> dict[str, Memory]:
        keys = list(dict.fromkeys(k for k in topic_keys if k))
        found: dict[str, Memory] = {}
        sort = [{"created_key": "asc"}, {"id": "asc"}]
        for start in range(0, len(keys), PAGE):
            query = {"bool": {"filter": [self._profile_filter(profile),
                                         {"term": {"status": "active"}},
                                         {"terms": {"topic_key": keys[start:start + PAGE]}}]}}
            for hit in self._scan(self.memories_alias, profile, query, sort):
                memory = self._record(Memory, hit["_source"])
                found[memory.topic_key] = memory  # ascending, so the newest per key wins
        return found

    # --- many profiles in one round trip (a worker's batch) --------------------------------
    def _newest_by_term_many(self, alias: str, field: str, wanted: dict[str, Iterable[str]],
                             sort: list, extra: list[dict], model, single
                             ) -> dict[str, dict[str, Any]]:
        """{profile: {term: the newest record carrying it}}: one msearch, a search per profile.
        A profile whose hits fill the page is read again by `single` (which pages)."""
        keys = {p: list(dict.fromkeys(k for k in ids if k)) for p, ids in wanted.items()}
        out: dict[str, dict[str, Any]] = {p: {} for p in keys}
        asked = [p for p, ks in keys.items() if ks and len(ks) <= PAGE]
        for p, ks in keys.items():
            if len(ks) > PAGE:
                out[p] = single(p, ks)
        if not asked:
            return out
        self._refresh_any_dirty(asked, alias)
        size = {p: min(MAX_WINDOW, 4 * len(keys[p]) + 10) for p in asked}
        searches: list[dict] = []
        for p in asked:
            searches += [{"index": alias, "routing": p},
                         {"query": {"bool": {"filter": [self._profile_filter(p), *extra,
                                                        {"terms": {field: keys[p]}}]}},
                          "sort": sort, "size": size[p], "_source": {"excludes": _INTERNAL},
                          "track_total_hits": False}]
        for p, response in zip(asked, self._msearch(searches)):
            hits = response["hits"]["hits"]
            if len(hits) >= size[p]:  # more versions than the page holds: page through them
                out[p] = single(p, keys[p])
                continue
            for hit in hits:  # ascending, so the newest per term wins
                record = self._record(model, hit["_source"])
                out[p][getattr(record, field)] = record
        return out

    def find_messages_by_external_id_many(self, wanted: dict[str, Iterable[str]]
                                          ) -> dict[str, dict[str, Message]]:
        sort = [{"ts_key": "asc"}, {"session_id": "asc"}, {"seq": "asc"}, {"id": "asc"}]
        return self._newest_by_term_many(self.messages_alias, "external_id", wanted, sort, [],
                                         Message, self.find_messages_by_external_id)

    def active_by_topic_many(self, wanted: dict[str, Iterable[str]]
                             ) -> dict[str, dict[str, Memory]]:
        return self._newest_by_term_many(
            self.memories_alias, "topic_key", wanted, [{"created_key": "asc"}, {"id": "asc"}],
            [{"term": {"status": "active"}}], Memory, self.active_by_topic)

    def _mget_many(self, alias: str, wanted: dict[str, Iterable[str]], **source: Any
                   ) -> dict[str, list[dict]]:
        """{profile: the found docs} for the ids of every profile, in pages of PAGE docs."""
        asked = [(p, i) for p, ids in wanted.items() for i in dict.fromkeys(ids)]
        out: dict[str, list[dict]] = {p: [] for p in wanted}
        with self._errors():
            for start in range(0, len(asked), PAGE):
                page = asked[start:start + PAGE]
                docs = [{"_id": self._doc_id(p, i), "routing": p} for p, i in page]
                response = self.client.mget(index=alias, docs=docs, realtime=True, **source)
                for (p, _), doc in zip(page, response["docs"]):
                    if doc.get("found"):
                        out[p].append(doc)
        return out

    def stored_message_ids_many(self, wanted: dict[str, Iterable[str]]) -> dict[str, set[str]]:
        found = self._mget_many(self.messages_alias, wanted, source=False)
        return {p: {d["_id"][len(p) + 1:] for d in docs} for p, docs in found.items()}

    def get_messages_many(self, wanted: dict[str, Iterable[str]]) -> dict[str, list[Message]]:
        found = self._mget_many(self.messages_alias, wanted, source_excludes=_INTERNAL)
        return {p: [self._record(Message, d["_source"]) for d in docs]
                for p, docs in found.items()}

    def get_memories_many(self, wanted: dict[str, Iterable[str]]) -> dict[str, list[Memory]]:
        found = self._mget_many(self.memories_alias, wanted, source_excludes=_INTERNAL)
        return {p: [self._record(Memory, d["_source"]) for d in docs]
                for p, docs in found.items()}

    def insert_messages_many(self, messages: dict[str, list[Message]]) -> dict[str, set[str]]:
        actions = [{"_op_type": "create", "_index": self.messages_alias,
                    "_id": self._doc_id(p, m.id), "_routing": p,
                    "_source": self._message_doc(p, m)} for p, ms in messages.items() for m in ms]
        appends, appended = self._session_appends(
            messages, {(a["_routing"], a["_source"]["id"]): a["_source"]["stems"]
                       for a in actions})
        created: dict[str, set[str]] = {p: set() for p in messages}
        raced: dict[str, set[str]] = {}
        for action, status in self._bulk(actions, "messages", ok_statuses=(409,)):
            p = action["_routing"]
            if status == 201:
                created[p].add(action["_id"][len(p) + 1:])
            elif (p, action["_source"]["id"]) in appended:
                # stored before and not in its session's document: perhaps suppressed since (a
                # redelivered create after a forget), so the stored messages decide
                raced.setdefault(p, set()).add(action["_source"]["session_id"])
        # Their sessions' documents grow only once the messages are stored. In one bulk request
        # the two indices are written in parallel, and a document could name a message not
        # stored yet: a rebuild then (another writer's race, a delete) read the document, did
        # not find the message and left it out for good (8 writers on one session: 1 run in 40).
        for action, status in self._bulk(appends, "session documents", ok_statuses=(409,)):
            if status == 409:  # another writer changed it since it was read
                raced.setdefault(action["_routing"], set()).add(action["_source"]["session_id"])
        for p, sessions in raced.items():
            self._rebuild_sessions(p, sessions)
        return created

    # --- session_text documents -------------------------------------------------------------
    def _session_doc_id(self, profile: str, session_id: str) -> str:
        return self._doc_id(profile, "session:" + hashlib.sha256(
            session_id.encode("utf-8", "surrogatepass")).hexdigest()[:32])

    def _session_action(self, profile: str, session_id: str, ids: list[str], stems: list[str]
                        ) -> dict:
        """A bulk action writing a session's document (its messages' ids and stems, in order)."""
        return {"_op_type": "index", "_index": self.sessions_alias,
                "_id": self._session_doc_id(profile, session_id), "_routing": profile,
                "_source": {"profile": profile, "session_id": session_id,
                            "stems": "\n".join(stems), "ids": ids}}

    def _session_appends(self, messages: dict[str, list[Message]],
                         stems: dict[tuple[str, str], str]
                         ) -> tuple[list[dict], set[tuple[str, str]]]:
        """Bulk actions adding the searchable messages to their sessions' documents (those not
        in them yet, so a retried batch whose messages were stored before still lands). Read
        in real time (mget), written only if unchanged since (if_seq_no): the caller rebuilds
        a session another writer changed meanwhile (409) from its messages. Also returns the
        (profile, message id) pairs appended."""
        by_session: dict[tuple[str, str], list[Message]] = {}
        for p, ms in messages.items():
            for m in ms:
                if not m.suppressed:
                    by_session.setdefault((p, m.session_id), []).append(m)
        if not by_session:
            return [], set()
        keys = list(by_session)
        with self._errors():
            docs = self.client.mget(index=self.sessions_alias, realtime=True, docs=[
                {"_id": self._session_doc_id(p, s), "routing": p} for p, s in keys])["docs"]
        actions, appended = [], set()
        for (p, s), doc in zip(keys, docs):
            old = doc.get("_source", {}) if doc.get("found") else {}
            have = set(old.get("ids", []))
            new = [m for m in dict((m.id, m) for m in by_session[(p, s)]).values()
                   if m.id not in have][:max(0, SESSION_DOC_MESSAGES - len(have))]
            if not new:
                continue
            appended.update((p, m.id) for m in new)
            action = self._session_action(
                p, s, [*old.get("ids", []), *(m.id for m in new)],
                [old.get("stems", "")] * bool(old) + [stems[(p, m.id)] for m in new])
            if doc.get("found"):
                action.update(if_seq_no=doc["_seq_no"], if_primary_term=doc["_primary_term"])
            else:
                action["_op_type"] = "create"
            actions.append(action)
        return actions, appended

    def _rebuild_sessions(self, profile: str, session_ids: Iterable[str]) -> None:
        """Rewrite these sessions' documents from their searchable messages (after a delete, a
        suppression or a race); a session with none left loses its document. Each is written
        only if no one changed it since it was read (else read and written again: a concurrent
        append then lands in the rebuilt document, not under it)."""
        todo = list(dict.fromkeys(session_ids))
        for attempt in range(SESSION_REBUILD_ATTEMPTS):
            if not todo:
                return
            if attempt:  # the writers it lost to are still appending: let them finish first
                time.sleep(random.uniform(0, min(0.4, 0.01 * 2 ** attempt)))
            with self._errors():
                docs = self.client.mget(index=self.sessions_alias, realtime=True, docs=[
                    {"_id": self._session_doc_id(profile, s), "routing": profile,
                     "_source": False} for s in todo])["docs"]
                # what other writers stored up to now is searched too (their bulk refreshes
                # at its end; this may run before that)
                self.client.indices.refresh(index=self.messages_alias)
            actions = []
            for session_id, doc in zip(todo, docs):
                query = {"bool": {"filter": [self._profile_filter(profile),
                                             {"term": {"session_id": session_id}}],
                                  "must_not": [{"term": {"suppressed": True}}]}}
                sort = [{"ts_key": "asc"}, {"seq": "asc"}, {"id": "asc"}]
                hits = list(self._scan(self.messages_alias, profile, query, sort,
                                       source=["id", "stems"], limit=SESSION_DOC_MESSAGES))
                if not hits and not doc.get("found"):
                    continue
                action = self._session_action(profile, session_id,
                                              [h["_source"]["id"] for h in hits],
                                              [h["_source"].get("stems", "") for h in hits])
                if not hits:
                    action = {k: action[k] for k in ("_index", "_id", "_routing")}
                    action["_op_type"] = "delete"
                elif not doc.get("found"):
                    action["_op_type"] = "create"
                if doc.get("found"):
                    action.update(if_seq_no=doc["_seq_no"], if_primary_term=doc["_primary_term"])
                actions.append(action)
            raced = {a["_id"] for a, status in self._bulk(
                actions, "session documents", ok_statuses=(404, 409)) if status == 409}
            todo = [s for s in todo if self._session_doc_id(profile, s) in raced]
        if todo:
            log.warning("the session_text documents of %d sessions of profile %r kept changing "
                        "while being rebuilt; left as the last writer made them", len(todo),
                        profile)

    def upsert_memories_many(self, memories: dict[str, list[Memory]]) -> None:
        self._bulk([{"_op_type": "update", "_index": self.memories_alias,
                     "_id": self._doc_id(p, m.id), "_routing": p,
                     "doc": self._memory_doc(p, m), "doc_as_upsert": True,
                     "retry_on_conflict": 3} for p, ms in memories.items() for m in ms],
                   "memories")

    def list_memories(self, profile: str, types: Iterable[str] | None = None,
                      include_inactive: bool = False, limit: int | None = None,
                      offset: int = 0, newest_first: bool = False) -> list[Memory]:
        filters: list[dict] = [self._profile_filter(profile)]
        if types:
            filters.append({"terms": {"type": list(types)}})
        if not include_inactive:
            filters.append({"term": {"status": "active"}})
        if limit is not None and limit < 0:
            limit = None
        order = "desc" if newest_first else "asc"
        sort = [{"created_key": order}, {"id": order}]
        return [self._record(Memory, hit["_source"]) for hit in self._scan(
            self.memories_alias, profile, {"bool": {"filter": filters}}, sort,
            skip=max(0, offset), limit=limit)]

    def memories_by_source(self, profile: str, message_ids: Iterable[str],
                           include_inactive: bool = False) -> list[Memory]:
        ids = list(dict.fromkeys(message_ids))
        found: dict[str, Memory] = {}
        sort = [{"created_key": "asc"}, {"id": "asc"}]
        for start in range(0, len(ids), PAGE):
            filters: list[dict] = [self._profile_filter(profile),
                                   {"terms": {"source_message_ids": ids[start:start + PAGE]}}]
            if not include_inactive:
                filters.append({"term": {"status": "active"}})
            for hit in self._scan(self.memories_alias, profile, {"bool": {"filter": filters}},
                                  sort):
                memory = self._record(Memory, hit["_source"])
                found[memory.id] = memory
        return sorted(found.values(), key=lambda m: (sort_key(m.created_at), m.id))

    def authors_with_platform_id(self, profile: str, platform_id: str) -> set[str]:
        self._refresh_if_dirty(profile)
        pattern = "*" + re.sub(r"([\\*?])", r"\\\1", f"({platform_id})")
        (response,) = self._msearch([
            {"index": self.messages_alias, "routing": profile},
            {"query": {"bool": {"filter": [self._profile_filter(profile),
                                           {"wildcard": {"author": {"value": pattern}}}]}},
             "size": 0, "track_total_hits": False,
             "aggs": {"authors": {"terms": {"field": "author", "size": 1000}}}}])
        return {b["key"] for b in response["aggregations"]["authors"]["buckets"]}

    def authors(self, profile: str) -> set[str]:
        self._refresh_if_dirty(profile)
        (response,) = self._msearch([
            {"index": self.messages_alias, "routing": profile},
            {"query": {"bool": {"filter": [self._profile_filter(profile)]}},
             "size": 0, "track_total_hits": False,
             "aggs": {"authors": {"terms": {"field": "author", "size": MAX_AUTHORS}}}}])
        return {b["key"] for b in response["aggregations"]["authors"]["buckets"]}

    def count(self, profile: str) -> dict[str, int]:
        self._refresh_if_dirty(profile)
        header = {"routing": profile}
        only = {"bool": {"filter": [self._profile_filter(profile)]}}
        with_vector = {"bool": {"filter": [self._profile_filter(profile),
                                           {"exists": {"field": "embedding"}}]}}
        searches = []
        for alias, query in ((self.messages_alias, only), (self.memories_alias, only),
                             (self.memories_alias, with_vector)):
            searches += [{**header, "index": alias},
                         {"query": query, "size": 0, "track_total_hits": True}]
        responses = self._msearch(searches)
        return {name: r["hits"]["total"]["value"]
                for name, r in zip(("messages", "memories", "vectors"), responses)}

    # --- vectors --------------------------------------------------------------------------
    def set_vectors(self, profile: str, vectors: dict[str, np.ndarray]) -> None:
        self.set_vectors_many({profile: vectors})

    def set_vectors_many(self, vectors: dict[str, dict[str, np.ndarray]]) -> None:
        actions = []
        for profile, of in vectors.items():
            for memory_id, vector in of.items():
                values = np.asarray(vector, dtype=np.float32).ravel()
                if self.dim is not None and values.shape[0] != self.dim:
                    raise ValueError(f"vector for memory {memory_id} has {values.shape[0]} "
                                     f"dimensions; the store holds {self.dim}")
                actions.append({"_op_type": "update", "_index": self.memories_alias,
                                "_id": self._doc_id(profile, memory_id), "_routing": profile,
                                "doc": {"embedding": self._vector(values)},
                                "retry_on_conflict": 3})
        self._bulk(actions, "vectors", ok_statuses=(404,))  # 404: no such memory, nothing to attach

    def delete_vectors(self, profile: str, ids: Iterable[str]) -> None:
        self.delete_vectors_many({profile: ids})

    def delete_vectors_many(self, wanted: dict[str, Iterable[str]]) -> None:
        actions = [{"_op_type": "update", "_index": self.memories_alias,
                    "_id": self._doc_id(p, i), "_routing": p,
                    "doc": {"embedding": None}, "retry_on_conflict": 3}
                   for p, ids in wanted.items() for i in dict.fromkeys(ids)]
        self._bulk(actions, "vector deletions", ok_statuses=(404,))

    def vector_ids(self, profile: str) -> set[str]:
        query = {"bool": {"filter": [self._profile_filter(profile),
                                     {"exists": {"field": "embedding"}}]}}
        prefix = len(profile) + 1
        return {hit["_id"][prefix:] for hit in self._scan(
            self.memories_alias, profile, query, [{"id": "asc"}], source=False)}

    def set_passage_vectors(self, profile: str, vectors: dict[str, np.ndarray]) -> None:
        self.set_passage_vectors_many({profile: vectors})

    def set_passage_vectors_many(self, vectors: dict[str, dict[str, np.ndarray]]) -> None:
        actions = []
        stored = self.get_messages_many({p: list(of) for p, of in vectors.items()})
        for profile, messages in stored.items():
            for message in messages:
                matrix = np.asarray(vectors[profile][message.id], dtype=np.float32)
                matrix = matrix.reshape(-1, self.dim or matrix.shape[-1])
                count = len(split_passages(message.content))
                if matrix.shape[0] != count:
                    raise ValueError(f"message {message.id} has {count} passages, not "
                                     f"{matrix.shape[0]} vectors")
                actions.append({"_op_type": "update", "_index": self.messages_alias,
                                "_id": self._doc_id(profile, message.id), "_routing": profile,
                                "doc": {"passages": self._passage_docs(
                                    message.content, matrix, self._vector)},
                                "retry_on_conflict": 3})
        self._bulk(actions, "passage vectors", ok_statuses=(404,))  # deleted meanwhile

    def passage_vector_ids(self, profile: str) -> set[str]:
        query = {"bool": {"filter": [self._profile_filter(profile), {"nested": {
            "path": "passages", "query": {"exists": {"field": "passages.embedding"}}}}]}}
        prefix = len(profile) + 1
        return {hit["_id"][prefix:] for hit in self._scan(
            self.messages_alias, profile, query, [{"id": "asc"}], source=False)}

    # --- retrieval ------------------------------------------------------------------------
    def _msearch(self, searches: list[dict]) -> list[dict]:
        with self._errors():
            responses = self.client.msearch(searches=searches)["responses"]
        for response in responses:
            if "error" in response and response.get("status") in _NOT_READY:
                # a search of a cluster still recovering (all shards failed: 503) or overloaded
                raise StoreUnavailable(f"Elasticsearch at {self.location} is not ready or "
                                       f"overloaded (HTTP {response.get('status')}): "
                                       f"{_item_reason(response)}")
            if "error" in response:
                raise LurkerError(f"Elasticsearch at {self.location} failed a search (HTTP "
                                  f"{response.get('status')}): {_item_reason(response)}")
        return responses

    def search(self, profile: str, request: SearchRequest) -> dict[str, list[Hit]]:
        request.wait_vectors()  # one msearch carries every channel, the kNN ones included
        self._refresh_if_dirty(profile)
        k = max(0, int(request.k))
        active = [self._profile_filter(profile), {"term": {"status": "active"}}]
        out: dict[str, list[Hit]] = {}
        planned: list[tuple[str, type, dict, dict]] = []  # (channel, model, header, body)
        memories = {"index": self.memories_alias, "routing": profile}
        messages = {"index": self.messages_alias, "routing": profile}
        sessions = {"index": self.sessions_alias, "routing": profile}
        source = {"excludes": _INTERNAL}
        stems = query_stems(request.text, QUERY_TERMS)
        plain = " ".join(list(dict.fromkeys(
            w for w in words(request.text) if w not in STOP_WORDS))[:QUERY_TERMS])
        for channel in dict.fromkeys(request.channels):
            if channel == CH_TOPIC:
                keys = list(dict.fromkeys(key for key in request.topic_keys if key))
                out[channel] = []
                if keys and k:
                    planned.append((channel, Memory, memories, {
                        "query": {"bool": {"filter": [*active, {"terms": {"topic_key": keys}}]}},
                        "collapse": {"field": "topic_key"},  # the newest memory per key
                        "sort": [{"created_key": "desc"}, {"id": "desc"}],
                        "size": k, "_source": source, "track_total_hits": False}))
            elif channel in (CH_MEMORY_TEXT, CH_MESSAGE_TEXT, CH_ASKER_TEXT):
                if channel == CH_ASKER_TEXT and not request.askers:
                    continue
                out[channel] = []
                if not stems or not k:
                    continue
                is_memory = channel == CH_MEMORY_TEXT
                exact = ({"multi_match": {"query": plain, "fields": ["content", "questions"],
                                          "boost": 0.3}} if is_memory else
                         {"match": {"content": {"query": plain, "boost": 0.3}}})
                should = [{"match": {"stems": {"query": " ".join(stems)}}}]
                if plain:
                    should.append(exact)
                filters = active if is_memory else [self._profile_filter(profile)]
                if channel == CH_ASKER_TEXT:
                    filters = [*filters, {"terms": {"author": list(request.askers)}}]
                # a suppressed message (a memory drawn from it was forgotten) is never found
                hidden = [] if is_memory else [{"term": {"suppressed": True}}]
                planned.append((channel, Memory if is_memory else Message,
                                memories if is_memory else messages, {
                                    "query": {"bool": {"filter": filters, "should": should,
                                                       "must_not": hidden,
                                                       "minimum_should_match": 1}},
                                    "size": k, "_source": source, "track_total_hits": False}))
            elif channel == CH_DATE:
                if request.span is None:
                    continue
                out[channel] = []
                if not k:
                    continue
                low, high = span_utc_bounds(request.span)
                # the question's words score the span's messages; the rest follow, newest first
                planned.append((channel, Message, messages, {
                    "query": {"bool": {
                        "filter": [self._profile_filter(profile), {"range": {"ts": {
                            "gte": low.isoformat(), "lt": high.isoformat()}}}],
                        "must_not": [{"term": {"suppressed": True}}],
                        "should": [{"match": {"stems": {"query": " ".join(stems)}}}]
                        if stems else []}},
                    "sort": ["_score", {"ts": "desc"}], "track_scores": True,
                    "size": min(2 * k, MAX_WINDOW), "_source": source,
                    "track_total_hits": False}))
                # and the memories dated in it (event_dates are objects, not nested: a start
                # and an end of two dates may pair, so the hits are checked below)
                if request.dated:
                    planned.append((_DATED, Memory, memories, {
                        "query": {"bool": {"filter": [*active, {"range": {"event_dates.end": {
                            "gte": request.span[0].isoformat()}}}, {"range": {
                                "event_dates.start": {"lte": request.span[1].isoformat()}}}]}},
                        "sort": [{"event_dates.start": {"order": "asc", "mode": "min"}},
                                 {"created_key": "desc"}],
                        "size": min(2 * k, MAX_WINDOW), "_source": source,
                        "track_total_hits": False}))
            elif channel == CH_SESSION_TEXT:
                out[channel] = []
                if stems and k:
                    planned.append((channel, None, sessions, {
                        "query": {"bool": {"filter": [self._profile_filter(profile)],
                                           "should": [{"match": {"stems": {
                                               "query": " ".join(stems)}}}],
                                           "minimum_should_match": 1}},
                        "size": k, "_source": ["session_id"], "track_total_hits": False}))
            elif channel in (CH_VECTOR, CH_HYDE):
                vector = request.query_vector if channel == CH_VECTOR else request.hyde_vector
                if vector is None:
                    continue
                out[channel] = []
                if not k:
                    continue
                values = np.asarray(vector, dtype=np.float32).ravel()
                if self.dim is not None and values.shape[0] != self.dim:
                    raise ValueError(f"{channel} query vector has {values.shape[0]} dimensions; "
                                     f"the store holds {self.dim}")
                planned.append((channel, Memory, memories, {
                    "knn": {"field": "embedding", "query_vector": self._query_vector(values),
                            "k": min(k, MAX_WINDOW),
                            "num_candidates": min(MAX_WINDOW, max(100, 10 * k)),
                            "filter": active},
                    "size": min(k, MAX_WINDOW), "_source": source, "track_total_hits": False}))
            elif channel == CH_INSTRUCTION:
                if request.query_vector is None:
                    continue
                out[channel] = []
                values = np.asarray(request.query_vector, dtype=np.float32).ravel()
                # the nearest instruction memories; the standing rules among them are kept below
                planned.append((channel, Memory, memories, {
                    "knn": {"field": "embedding", "query_vector": self._query_vector(values),
                            "k": INSTRUCTION_SCAN,
                            "num_candidates": min(MAX_WINDOW, 2 * INSTRUCTION_SCAN),
                            "filter": [*active, {"term": {"type": "instruction"}}]},
                    "size": INSTRUCTION_SCAN, "_source": source, "track_total_hits": False}))
            elif channel in (CH_PASSAGE_TEXT, CH_PASSAGE_VECTOR, CH_ASKER_VECTOR):
                if channel != CH_PASSAGE_TEXT and request.query_vector is None:
                    continue  # like the vector channels: no vector, no channel
                if channel == CH_ASKER_VECTOR and not request.askers:
                    continue
                out[channel] = []
                inner = {"size": 1, "_source": ["passages.index", "passages.start",
                                                "passages.end"]}
                shown = {"bool": {"filter": [self._profile_filter(profile)],  # never suppressed
                                  "must_not": [{"term": {"suppressed": True}}]}}
                if channel == CH_ASKER_VECTOR:
                    shown["bool"]["filter"].append({"terms": {"author": list(request.askers)}})
                if channel == CH_PASSAGE_TEXT and stems and k:
                    planned.append((channel, Passage, messages, {
                        "query": {"bool": {"filter": [shown],
                                           "must": {"nested": {
                                               "path": "passages", "score_mode": "max",
                                               "query": {"match": {"passages.stems": {
                                                   "query": " ".join(stems)}}},
                                               "inner_hits": inner}}}},
                        "size": k, "_source": source, "track_total_hits": False}))
                elif channel != CH_PASSAGE_TEXT and request.query_vector is not None and k:
                    values = np.asarray(request.query_vector, dtype=np.float32).ravel()
                    planned.append((channel, Passage, messages, {
                        "knn": {"field": "passages.embedding", "query_vector": self._query_vector(values),
                                "k": min(k, MAX_WINDOW),
                                "num_candidates": min(MAX_WINDOW, max(100, 10 * k)),
                                "filter": [shown], "inner_hits": inner},
                        "size": min(k, MAX_WINDOW), "_source": source,
                        "track_total_hits": False}))
        if not planned:
            return out
        searches = []
        for _channel, _model, header, body in planned:
            searches += [header, body]
        dated: list[Hit] = []  # the date channel's memories (_DATED), merged into it below
        for (channel, model, _header, _body), response in zip(planned, self._msearch(searches)):
            request.timings[channel] = response.get("took", 0) / 1000
            hits = []
            if model is None:  # session_text: sessions, not records
                out[channel] = [Hit(h["_source"]["session_id"], float(h["_score"]), None)
                                for h in response["hits"]["hits"]]
                continue
            for hit in response["hits"]["hits"]:
                score = hit.get("_score")
                if channel in (CH_VECTOR, CH_HYDE, CH_INSTRUCTION):
                    score = 2.0 * score - 1.0  # ES cosine scores are (1 + cos) / 2
                elif score is None:
                    score = 1.0  # topic hits are sorted by recency, not scored
                if model is Passage:
                    record = self._passage(hit)
                    if channel != CH_PASSAGE_TEXT:  # kNN: (1 + cos) / 2
                        score = 2.0 * hit["_score"] - 1.0
                else:
                    record = self._record(model, hit["_source"])
                hits.append(Hit(record.id, float(score), record))
            if channel == CH_INSTRUCTION:
                hits = [h for h in hits if h.score >= INSTRUCTION_MIN_SIMILARITY
                        and is_standing_rule(h.record.content)][:INSTRUCTION_K]
            elif channel == CH_DATE:  # read in UTC bounds: keep the span's local days
                hits = [h for h in hits if said_within(h.record, request.span)][:k]
            elif channel == _DATED:
                days = {h.id: dated_in(h.record, request.span) for h in hits}
                # earliest first by the dates in the span (the sort read every date's start)
                dated[:] = sorted((h for h in hits if days[h.id] is not None),
                                  key=lambda h: days[h.id])[:k]
                continue
            out[channel] = hits
        if CH_DATE in out:
            out[CH_DATE] = dated_then_said(dated, out[CH_DATE])
            request.timings[CH_DATE] = max(request.timings.get(CH_DATE, 0.0),
                                           request.timings.pop(_DATED, 0.0))
        return out

    def _passage(self, hit: dict) -> Passage:
        """The Passage a nested hit names: its best passage (inner_hits) cut from the message."""
        message = self._record(Message, hit["_source"])
        inner = hit["inner_hits"]["passages"]["hits"]["hits"][0]
        where = inner["_source"]
        if "start" not in where:  # some versions nest the source under the path
            where = where.get("passages", where)
        a, b = int(where["start"]), int(where["end"])
        return Passage(**message.model_dump(exclude={"content"}), content=message.content[a:b],
                       passage=int(where.get("index", inner["_nested"]["offset"])), start=a, end=b)

    # --- whole profile --------------------------------------------------------------------
    def delete_memories(self, profile: str, ids: Iterable[str]) -> None:
        self._bulk([{"_op_type": "delete", "_index": self.memories_alias,
                     "_id": self._doc_id(profile, i), "_routing": profile}
                    for i in dict.fromkeys(ids)], "memory deletions", ok_statuses=(404,))

    def profiles(self) -> list[str]:
        found: set[str] = set()
        with self._errors():
            indices = ",".join([self.messages_alias, self.memories_alias])
            self.client.indices.refresh(index=indices)
            after = None
            while True:  # a composite aggregation pages through every profile
                composite: dict = {"size": 1000, "sources": [{"p": {"terms": {"field": "profile"}}}]}
                if after:
                    composite["after"] = after
                response = self.client.search(index=indices, size=0, track_total_hits=False,
                                              aggs={"profiles": {"composite": composite}})
                buckets = response["aggregations"]["profiles"]["buckets"]
                found.update(b["key"]["p"] for b in buckets)
                after = response["aggregations"]["profiles"].get("after_key")
                if not buckets or after is None:
                    return sorted(found)

    def expunge(self, profile: str) -> None:
        # a deleted or updated document stays in its Lucene segment (source and terms) until a
        # merge drops it: merge away the segments' deleted documents now, then flush
        self._refresh_if_dirty(profile)
        with self._errors():
            indices = ",".join(self.aliases)
            self.client.indices.refresh(index=indices)
            self.client.indices.forcemerge(index=indices, only_expunge_deletes=True)
            self.client.indices.flush(index=indices)

    def delete_profile(self, profile: str) -> None:
        query = {"bool": {"filter": [self._profile_filter(profile)]}}
        with self._errors():
            if self._delete_by_query:
                try:
                    self.client.delete_by_query(
                        index=",".join(self.aliases), query=query,
                        routing=profile, refresh=True, conflicts="proceed",
                        wait_for_completion=True)
                    return
                except ApiError as exc:  # no reindex module (bare distribution): no such API
                    if exc.meta.status not in (400, 404, 405) or "no handler" not in str(exc):
                        raise
                    self._delete_by_query = False
            self.client.indices.refresh(index=",".join(self.aliases))
        for alias in self.aliases:
            while True:  # page by page; refresh=true so the next search sees the deletions
                with self._errors():
                    hits = self.client.search(index=alias, routing=profile, query=query,
                                              size=PAGE, source=False, track_total_hits=False,
                                              )["hits"]["hits"]
                if not hits:
                    break
                self._bulk([{"_op_type": "delete", "_index": alias, "_id": h["_id"],
                             "_routing": profile} for h in hits], "deletions",
                           ok_statuses=(404,), refresh="true")


# --- index lifecycle (`lurker migrate`) -----------------------------------------------------------
MIGRATION_BATCH = 500  # documents per scan page, bulk request and embedding batch


def _generation(alias: str, index: str | None) -> int:
    match = re.fullmatch(re.escape(alias) + r"-v(\d+)", index or "")
    return int(match.group(1)) if match else 0


def plan_migration(store: ElasticsearchStore, spec: EmbeddingSpec) -> list[MigrationStep]:
    """What a migration would do to each alias, without changing anything."""
    steps = []
    with store._errors():
        for alias in store.aliases:
            live = store.live_index(alias)
            if live is None:
                steps.append(MigrationStep(alias, CREATE, "no index yet", None,
                                           f"{alias}-v{SCHEMA_VERSION}"))
                continue
            meta = store.client.indices.get_mapping(index=live).body[live]["mappings"].get(
                "_meta", {})
            reasons = []
            if meta.get("schema_version") != SCHEMA_VERSION:
                reasons.append(f"schema version {meta.get('schema_version')} -> {SCHEMA_VERSION}")
            stored = (meta.get("embedding_model"), meta.get("embedding_dims"))
            # both hold vectors: memories their own, messages their passages' (sessions none)
            new_embedding = alias != store.sessions_alias and stored != (spec.name, spec.dim)
            if new_embedding:
                reasons.append(f"embedding {stored[0]} ({stored[1]} dims) -> {spec.name} "
                               f"({spec.dim} dims)")
            if reasons:
                target = f"{alias}-v{max(SCHEMA_VERSION, _generation(alias, live) + 1)}"
                steps.append(MigrationStep(alias, REINDEX, "; ".join(reasons), live, target,
                                           new_embedding))
            else:
                steps.append(MigrationStep(alias, UPDATE, "compatible: template and new fields "
                                           "only", live, live))
    return steps


def migrate_indices(store: ElasticsearchStore, embedder,
                    on_phase: PhaseHook | None = None) -> list[MigrationStep]:
    """Create or upgrade both indices to this release's mappings for `embedder` (see the module
    docstring). Returns what was done per alias; the store is left opened and usable."""
    spec = embedder.spec
    steps = plan_migration(store, spec)
    for step in steps:
        if step.action == REINDEX:
            _Reindex(store, embedder, step, on_phase or (lambda alias, phase: None)).run()
    with store._errors():
        _drop_stale_generations(store)
    store.open(spec)  # creates missing indices, puts templates, adds compatible fields
    for step in steps:
        if step.alias == store.sessions_alias and step.action == CREATE:
            step.documents = _backfill_sessions(store)
    with store._errors():
        for step in steps:  # e.g. messages after a model change: keep _meta telling the truth
            if step.action == UPDATE:
                store.client.indices.put_mapping(index=step.new_index,
                                                 meta=store.index_body(step.alias, spec)[
                                                     "mappings"]["_meta"])
    return steps


def _backfill_sessions(store: ElasticsearchStore) -> int:
    """The conversation documents (session_text) of messages stored before the sessions index
    existed: one pass over the messages in (profile, session) order; returns how many were
    written. (The pre-upgrade hook runs `lurker migrate` before new pods start, so this runs
    once, when the index is created.)"""
    query = {"bool": {"must_not": [{"term": {"suppressed": True}}]}}
    sort = [{"profile": "asc"}, {"session_id": "asc"}, {"ts_key": "asc"}, {"seq": "asc"},
            {"id": "asc"}]
    written = 0
    actions: list[dict] = []

    def flush() -> None:
        store._bulk(actions, "session documents", refresh="false")
        actions.clear()

    with store._errors():
        hits = helpers.scan(store.client, index=store.messages_alias,
                            query={"query": query, "sort": sort}, preserve_order=True,
                            size=MIGRATION_BATCH, scroll="10m",
                            _source=["profile", "session_id", "id", "stems"])
        key, ids, stems = None, [], []
        for hit in itertools.chain(hits, [None]):  # None: the end closes the last session
            source = hit["_source"] if hit else {}
            now = (source.get("profile"), source.get("session_id"))
            if key is not None and now != key:
                actions.append(store._session_action(*key, ids, stems))
                written += 1
                if len(actions) == MIGRATION_BATCH:
                    flush()
            if key != now:
                key, ids, stems = now, [], []
            if hit and len(ids) < SESSION_DOC_MESSAGES:
                ids.append(source["id"])
                stems.append(source.get("stems", ""))
        flush()
        store.client.indices.refresh(index=store.sessions_alias)
    return written


def _drop_stale_generations(store: ElasticsearchStore) -> None:
    """Delete generations a crashed run left behind an alias's back (older ones kept their data
    only until the swap; newer ones are unfinished copies)."""
    for alias in store.aliases:
        live = store.live_index(alias)
        if live is None:  # never guess which index holds the data
            continue
        found = store.client.options(ignore_status=404).indices.get(
            index=f"{alias}-v*", expand_wildcards="open,closed")
        if found.meta.status == 404:
            continue
        for index in found.body:
            if index != live and _generation(alias, index):
                store.client.indices.delete(index=index)


class _Reindex:
    """One alias moved to a new generation: copy, catch up, block, catch up, swap, delete."""

    def __init__(self, store: ElasticsearchStore, embedder, step: MigrationStep,
                 on_phase: PhaseHook):
        self.store, self.client, self.step, self.on_phase = store, store.client, step, on_phase
        self.embedder = embedder
        self.old, self.new = step.old_index, step.new_index
        # Vectors are recomputed only when the model changed; a schema change copies them.
        self.reembed = step.new_embedding

    def run(self) -> None:
        store, client, alias = self.store, self.client, self.step.alias
        with store._errors():
            self._unblock()  # a crashed run may have left the block on
            client.options(ignore_status=404).indices.delete(index=self.new)
            client.indices.create(index=self.new, **store.index_body(alias, self.embedder.spec))
            client.cluster.health(index=self.new, wait_for_status="yellow",
                                  timeout=f"{store.request_timeout}s")
        swapped = False
        try:
            self._copy_all()
            self.on_phase(alias, "copied")
            self._catch_up()
            self.on_phase(alias, "caught-up")
            with store._errors():  # returns once writes in flight on the old index are done
                client.indices.add_block(index=self.old, block="write")
            self.on_phase(alias, "write-blocked")
            self._catch_up()
            with store._errors():
                client.indices.refresh(index=f"{self.old},{self.new}")
                have = client.count(index=self.new)["count"]
                want = client.count(index=self.old)["count"]
                if have != want:
                    raise LurkerError(f"migration of {alias}: {self.new} holds {have} documents "
                                      f"but {self.old} holds {want}; the alias was not moved")
                client.indices.update_aliases(actions=[
                    {"remove": {"index": self.old, "alias": alias}},
                    {"add": {"index": self.new, "alias": alias}}])
                swapped = True
                self.step.documents = have
                store.put_template(alias, self.new, self.embedder.spec)
            self.on_phase(alias, "swapped")
            with store._errors():
                client.indices.delete(index=self.old)
        finally:
            if not swapped:  # the old index stays live and writable; the copy goes
                with store._errors():
                    self._unblock()
                    client.options(ignore_status=404).indices.delete(index=self.new)

    def _unblock(self) -> None:
        self.client.indices.put_settings(index=self.old, settings={"index.blocks.write": None})

    # --- copying (ES 9 leaves vectors out of _source unless asked: we ask) ---------------------
    def _copy_all(self) -> None:
        with self.store._errors():
            hits = helpers.scan(self.client, index=self.old, query={"query": {"match_all": {}}},
                                size=MIGRATION_BATCH, scroll="10m", version=True,
                                preserve_order=False, source_exclude_vectors=False)
            batch = []
            for hit in hits:
                batch.append(hit)
                if len(batch) == MIGRATION_BATCH:
                    self._write(batch)
                    batch = []
            self._write(batch)

    def _catch_up(self) -> None:
        """Copy what changed in the old index since it was copied (by `_version`), and delete
        from the new one what was deleted from the old."""
        with self.store._errors():  # searches see what was written up to now
            self.client.indices.refresh(index=f"{self.old},{self.new}")
        old, new = self._versions(self.old), self._versions(self.new)
        changed = [(doc_id, routing) for doc_id, (version, routing) in old.items()
                   if new.get(doc_id, (None,))[0] != version]
        gone = [(doc_id, routing) for doc_id, (_version, routing) in new.items()
                if doc_id not in old]
        with self.store._errors():
            for start in range(0, len(changed), MIGRATION_BATCH):
                ids = [doc_id for doc_id, _routing in changed[start:start + MIGRATION_BATCH]]
                self._write(self.client.search(
                    index=self.old, query={"ids": {"values": ids}}, size=len(ids), version=True,
                    source_exclude_vectors=False, track_total_hits=False)["hits"]["hits"])
        self.store._bulk([{"_op_type": "delete", "_index": self.new, "_id": doc_id,
                           "_routing": routing} for doc_id, routing in gone],
                         f"deletions in {self.new}", ok_statuses=(404,), refresh="false")

    def _versions(self, index: str) -> dict[str, tuple[int, str]]:
        with self.store._errors():
            return {hit["_id"]: (hit["_version"], hit.get("_routing")) for hit in helpers.scan(
                self.client, index=index, query={"query": {"match_all": {}}, "_source": False},
                size=5 * MIGRATION_BATCH, scroll="10m", version=True, preserve_order=False)}

    def _write(self, hits: list[dict]) -> None:
        if not hits:
            return
        sources = [hit["_source"] for hit in hits]
        if self.reembed:
            self._embed(sources)
        # external versioning: a copy never overwrites a newer copy of the same document
        actions = [{"_op_type": "index", "_index": self.new, "_id": hit["_id"],
                    "_routing": hit.get("_routing"), "_source": source,
                    "version": hit["_version"], "version_type": "external"}
                   for hit, source in zip(hits, sources)]
        self.store._bulk(actions, f"documents copied into {self.new}", ok_statuses=(409,),
                         refresh="false")

    def _embed(self, sources: list[dict]) -> None:
        """Replace the vectors of embeddable memories, and of every message's passages, with the
        new model's; other memories get none."""
        if self.step.alias == self.store.messages_alias:
            messages = [self.store._record(Message, source) for source in sources]
            spans = [split_passages(m.content) for m in messages]
            texts = [passage_embedding_text(m.author or m.role, m.content[a:b])
                     for m, cuts in zip(messages, spans) for a, b in cuts]
            vectors = self.embedder.embed(texts) if texts else []
            at = 0
            for source, message, cuts in zip(sources, messages, spans):
                source["passages"] = self.store._passage_docs(
                    message.content, vectors[at:at + len(cuts)], self.store._vector)
                at += len(cuts)
            self.step.reembedded += len(texts)
            return
        memories = [self.store._record(Memory, source) for source in sources]
        todo = [i for i, memory in enumerate(memories) if memory.embeddable]
        vectors = self.embedder.embed([embedding_text(memories[i]) for i in todo]) if todo else []
        for source in sources:
            source["embedding"] = None
        for i, vector in zip(todo, vectors):
            sources[i]["embedding"] = self.store._vector(vector)
        self.step.reembedded += len(todo)
