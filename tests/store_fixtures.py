"""Store fixtures: every contract and engine test runs once on the embedded SQLite store and once on
the real Elasticsearch started by the harness. Elasticsearch stores are session-wide (index creation
is slow); tests stay apart by using a fresh profile name each, which also exercises isolation."""
from __future__ import annotations

import uuid

import numpy as np
import pytest

from memory.stores.base import EmbeddingSpec

STORE_KINDS = ["sqlite", "elasticsearch"]
TEST_SPEC = EmbeddingSpec("contract-test-vectors", 384)


def unit_vectors(n: int, dim: int = 384, seed: int = 0) -> np.ndarray:
    v = np.random.default_rng(seed).standard_normal((n, dim)).astype(np.float32)
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def make_es_store(es_server, prefix: str):
    from memory.stores.elasticsearch import ElasticsearchStore

    return ElasticsearchStore(es_server.url, user=es_server.user, password=es_server.password,
                              index_prefix=prefix)


@pytest.fixture(scope="session")
def _es_contract_store(request):
    store = make_es_store(request.getfixturevalue("es_server"), "lurker-contract")
    store.open(TEST_SPEC)
    yield store
    store.close()


@pytest.fixture(params=STORE_KINDS)
def store(request, tmp_path):
    """An opened store of each kind (spec TEST_SPEC)."""
    if request.param == "sqlite":
        from memory.stores.sqlite import SQLiteStore

        s = SQLiteStore(tmp_path / "contract.sqlite3")
        s.open(TEST_SPEC)
        yield s
        s.close()
    else:
        yield request.getfixturevalue("_es_contract_store")


@pytest.fixture
def profile_name() -> str:
    return f"test:{uuid.uuid4().hex[:12]}"


@pytest.fixture
def profile(service, profile_name):
    """A fresh profile of the `service` (on each store)."""
    return service.profile(profile_name)


def chat_event(content: str, ext: str, minute: int = 0, author: str = "maya") -> dict:
    """One chat message as ingest takes it, with its platform id, on 16 November 2026."""
    return {"role": "user", "author": author, "content": content, "external_id": ext,
            "ts": f"2026-11-16T09:{minute:02d}:00Z"}


@pytest.fixture(scope="session")
def embedder():
    from memory.embeddings import default_embedder

    return default_embedder()


@pytest.fixture(scope="session")
def _es_service_store(request, embedder):
    store = make_es_store(request.getfixturevalue("es_server"), "lurker-engine")
    yield store
    store.close()


@pytest.fixture(params=STORE_KINDS)
def service(request, tmp_path, embedder):
    """A MemoryService with the offline extractor/answerer over each store kind."""
    from memory.config import Settings
    from memory.service import MemoryService

    settings = Settings(store=f"sqlite:///{tmp_path / 'engine.sqlite3'}", anthropic_api_key=None)
    if request.param == "sqlite":
        svc = MemoryService.from_settings(settings, embedder=embedder)
        yield svc
        svc.close()
    else:
        store = request.getfixturevalue("_es_service_store")
        yield MemoryService.from_settings(settings, store=store, embedder=embedder)
