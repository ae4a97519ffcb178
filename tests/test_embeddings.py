"""The numpy MiniLM runtime against vectors from the real sentence-transformers.

tests/data/minilm_reference.json was made once, in a throwaway virtualenv with sentence-transformers
and torch, by `SentenceTransformer(str(get_model_path()), device="cpu").encode(sentences)`; see its
"generated_with" field. The sentences cover a one-word message, chat, emoji, non-Latin scripts,
code, SQL, an empty string and a 622-token text (truncated to 256 tokens by sentence-transformers).
"""
from __future__ import annotations

import json
import math
import threading
from pathlib import Path

import numpy as np
import pytest

from memory.embeddings import Embedder, MiniLMEmbedder, default_embedder, erf
from memory.stores.base import EmbeddingSpec

REFERENCE_FILE = Path(__file__).parent / "data" / "minilm_reference.json"
REFERENCE = json.loads(REFERENCE_FILE.read_text("utf-8"))
SENTENCES: list[str] = REFERENCE["sentences"]
REF = np.array(REFERENCE["vectors"], dtype=np.float32)


@pytest.fixture(scope="module")
def embedder() -> MiniLMEmbedder:
    e = default_embedder()
    e._load()  # some tests reach the tokenizer and encoder directly
    return e


def cosines(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return (a * b).sum(1) / (np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1))


def test_matches_sentence_transformers(embedder):
    ours = embedder.embed(SENTENCES)
    cos = cosines(ours, REF)
    assert cos.min() > 0.999, dict(zip(SENTENCES, cos.round(6)))
    # Stricter than the cosine: per component within the reference's 6-decimal rounding plus float32
    # noise. (A tanh-approximated GELU still has cosine > 0.999 but drifts by ~3e-4 here.)
    assert np.abs(ours - REF).max() < 2e-5


def test_reference_check_can_fail(embedder):
    """The same hidden states pooled the wrong way (CLS token, as BERT classifiers do) must miss the
    reference: proves the check above has teeth."""
    tok = embedder._tok
    encs = tok.encode_batch(SENTENCES)
    worst = 1.0
    for enc, ref in zip(encs, REF):
        ids = np.array([enc.ids])
        mask = np.ones(ids.shape, np.float32)
        cls = embedder._encode(ids, mask)[0, 0]
        worst = min(worst, float(cls @ ref / np.linalg.norm(cls)))
    assert worst < 0.999


def test_long_text_is_truncated_to_256_tokens(embedder):
    long = max(SENTENCES, key=len)
    assert len(embedder._tok.encode(long).ids) == 256
    # Anything after token 256 is ignored, as in sentence-transformers.
    same = embedder.embed([long, long + " and then the database caught fire"])
    assert np.abs(same[0] - same[1]).max() < 1e-6


def test_shape_dtype_and_unit_rows(embedder):
    v = embedder.embed(["hello there", "second message", ""])
    assert v.shape == (3, 384) and v.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-5)
    assert np.isfinite(v).all()


def test_empty_input(embedder):
    v = embedder.embed([])
    assert v.shape == (0, 384) and v.dtype == np.float32


def test_interface(embedder):
    assert isinstance(embedder, Embedder)
    assert embedder.name == "all-MiniLM-L6-v2" and embedder.dim == 384
    assert embedder.spec == EmbeddingSpec("all-MiniLM-L6-v2", 384)
    assert default_embedder() is embedder


def test_order_is_preserved_when_batches_are_sorted_by_length(embedder):
    # Lengths deliberately out of order, and more texts than one batch of 3.
    texts = [SENTENCES[8], "ok", SENTENCES[2], "", SENTENCES[5], "lgtm", SENTENCES[3]]
    small = MiniLMEmbedder(batch_size=3)
    together = small.embed(texts)
    one_by_one = np.vstack([embedder.embed([t]) for t in texts])
    np.testing.assert_allclose(together, one_by_one, atol=1e-5)


def test_same_text_same_vector_whatever_the_batch(embedder):
    """Padding must be invisible: a short text padded next to long ones equals it alone."""
    text = "Can we push the release to Friday?"
    alone = embedder.embed([text])[0]
    with_long = embedder.embed([SENTENCES[8], text, SENTENCES[2]])[1]
    with_short = embedder.embed(["ok", text])[1]
    assert np.abs(alone - with_long).max() < 1e-5
    assert np.abs(alone - with_short).max() < 1e-5


def test_paraphrase_is_closer_than_unrelated(embedder):
    a, para, other = embedder.embed([
        "The deploy is blocked until the database migration finishes.",
        "We can't ship until the DB migration is done.",
        "Who wants to order pizza for lunch on Friday?",
    ])
    assert a @ para > 0.5
    assert a @ para > a @ other + 0.3


def test_concurrent_first_use_loads_once_and_agrees():
    fresh = MiniLMEmbedder()
    results: list[np.ndarray] = []
    threads = [threading.Thread(target=lambda: results.append(fresh.embed(SENTENCES[:4])))
               for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 4
    for r in results[1:]:
        np.testing.assert_allclose(r, results[0], atol=1e-6)


def test_erf_is_accurate():
    x = np.linspace(-6, 6, 20001)
    want = np.array([math.erf(v) for v in x])
    assert np.abs(erf(x) - want).max() < 1e-7
