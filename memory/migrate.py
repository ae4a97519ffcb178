"""`lurker migrate`: bring the indices to the mappings this release writes, with no downtime.

On Elasticsearch each kind (messages, memories) lives in one concrete index `{alias}-v{N}` behind an
alias that every read and write goes through (memory/stores/elasticsearch.py). For each alias:

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

import json
import re
import sys
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass

from elasticsearch import helpers

from .embeddings import Embedder
from .errors import LurkerError
from .models import Memory, Message
from .passages import passage_embedding_text, split_passages
from .service import embedding_text
from .stores.base import EmbeddingSpec
from .stores.elasticsearch import SCHEMA_VERSION, ElasticsearchStore

BATCH = 500  # documents per scan page, bulk request and embedding batch
CREATE, UPDATE, REINDEX = "create", "update", "reindex"

# Called after each step of a reindex with (alias, phase); phases in order: "copied",
# "caught-up", "write-blocked", "swapped". Tests use it to read and write mid-migration.
PhaseHook = Callable[[str, str], None]


@dataclass
class Step:
    alias: str
    action: str  # create | update | reindex
    reason: str
    old_index: str | None
    new_index: str
    new_embedding: bool = False  # memories get vectors from the new model (not copied)
    documents: int = 0  # documents in the new index after a reindex
    reembedded: int = 0  # vectors computed with the new model (memories, or passages)


def _generation(alias: str, index: str | None) -> int:
    match = re.fullmatch(re.escape(alias) + r"-v(\d+)", index or "")
    return int(match.group(1)) if match else 0


def plan(store: ElasticsearchStore, spec: EmbeddingSpec) -> list[Step]:
    """What `migrate` would do to each alias, without changing anything."""
    steps = []
    with store._errors():
        for alias in (store.messages_alias, store.memories_alias):
            live = store.live_index(alias)
            if live is None:
                steps.append(Step(alias, CREATE, "no index yet", None,
                                  f"{alias}-v{SCHEMA_VERSION}"))
                continue
            meta = store.client.indices.get_mapping(index=live).body[live]["mappings"].get(
                "_meta", {})
            reasons = []
            if meta.get("schema_version") != SCHEMA_VERSION:
                reasons.append(f"schema version {meta.get('schema_version')} -> {SCHEMA_VERSION}")
            stored = (meta.get("embedding_model"), meta.get("embedding_dims"))
            # both hold vectors: memories their own, messages their passages'
            new_embedding = stored != (spec.name, spec.dim)
            if new_embedding:
                reasons.append(f"embedding {stored[0]} ({stored[1]} dims) -> {spec.name} "
                               f"({spec.dim} dims)")
            if reasons:
                target = f"{alias}-v{max(SCHEMA_VERSION, _generation(alias, live) + 1)}"
                steps.append(Step(alias, REINDEX, "; ".join(reasons), live, target,
                                  new_embedding))
            else:
                steps.append(Step(alias, UPDATE, "compatible: template and new fields only",
                                  live, live))
    return steps


def migrate(store: ElasticsearchStore, embedder: Embedder,
            on_phase: PhaseHook | None = None) -> list[Step]:
    """Create or upgrade both indices to this release's mappings for `embedder` (see the module
    docstring). Returns what was done per alias; the store is left opened and usable."""
    spec = embedder.spec
    steps = plan(store, spec)
    for step in steps:
        if step.action == REINDEX:
            _Reindex(store, embedder, step, on_phase or (lambda alias, phase: None)).run()
    with store._errors():
        _drop_stale_generations(store)
    store.open(spec)  # creates missing indices, puts templates, adds compatible fields
    with store._errors():
        for step in steps:  # e.g. messages after a model change: keep _meta telling the truth
            if step.action == UPDATE:
                store.client.indices.put_mapping(index=step.new_index,
                                                 meta=store.index_body(step.alias, spec)[
                                                     "mappings"]["_meta"])
    return steps


def _drop_stale_generations(store: ElasticsearchStore) -> None:
    """Delete generations a crashed run left behind an alias's back (older ones kept their data
    only until the swap; newer ones are unfinished copies)."""
    for alias in (store.messages_alias, store.memories_alias):
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

    def __init__(self, store: ElasticsearchStore, embedder: Embedder, step: Step,
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
                                size=BATCH, scroll="10m", version=True, preserve_order=False,
                                source_exclude_vectors=False)
            batch = []
            for hit in hits:
                batch.append(hit)
                if len(batch) == BATCH:
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
            for start in range(0, len(changed), BATCH):
                ids = [doc_id for doc_id, _routing in changed[start:start + BATCH]]
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
                size=5 * BATCH, scroll="10m", version=True, preserve_order=False)}

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
                    message.content, vectors[at:at + len(cuts)])
                at += len(cuts)
            self.step.reembedded += len(texts)
            return
        memories = [self.store._record(Memory, source) for source in sources]
        todo = [i for i, memory in enumerate(memories) if memory.embeddable]
        vectors = self.embedder.embed([embedding_text(memories[i]) for i in todo]) if todo else []
        for source in sources:
            source["embedding"] = None
        for i, vector in zip(todo, vectors):
            sources[i]["embedding"] = [float(x) for x in vector]
        self.step.reembedded += len(todo)


# --- command line --------------------------------------------------------------------------------
def add_arguments(parser) -> None:
    parser.add_argument("--dry-run", action="store_true",
                        help="print what would be done, change nothing")
    parser.add_argument("--json", action="store_true", help="machine-readable output")


def run_command(args) -> int:
    from .config import Settings
    from .embeddings import default_embedder
    from .stores.factory import store_from_settings

    settings = Settings(**({"store": args.store} if getattr(args, "store", None) else {}))
    store = store_from_settings(settings)
    embedder = default_embedder()
    try:
        if not isinstance(store, ElasticsearchStore):
            # The embedded store creates its schema on open; it has no aliases to move.
            if not args.dry_run:
                store.open(embedder.spec)
            _report([], args.json, f"{store.location}: embedded store, schema created on open; "
                                   f"nothing to migrate")
            return 0
        steps = plan(store, embedder.spec) if args.dry_run else migrate(
            store, embedder, on_phase=_print_phase)
    finally:
        store.close()
    _report(steps, args.json, None, dry_run=args.dry_run)
    return 0


def _print_phase(alias: str, phase: str) -> None:
    print(f"{alias}: {phase}", file=sys.stderr, flush=True)


def _report(steps: Iterable[Step], as_json: bool, note: str | None, dry_run: bool = False) -> None:
    steps = list(steps)
    if as_json:
        print(json.dumps({"dry_run": dry_run, "steps": [asdict(s) for s in steps],
                          **({"note": note} if note else {})}, indent=2))
        return
    if note:
        print(note)
    for s in steps:
        if s.action == REINDEX:
            done = "" if dry_run else (f": {s.documents} documents"
                                       + (f", {s.reembedded} re-embedded" if s.reembedded else ""))
            print(f"{s.alias}: reindex {s.old_index} -> {s.new_index} ({s.reason}){done}")
        elif s.action == CREATE:
            print(f"{s.alias}: create {s.new_index}")
        else:
            print(f"{s.alias}: up to date ({s.new_index})")
