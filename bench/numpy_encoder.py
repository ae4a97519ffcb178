"""The numpy forward pass of all-MiniLM-L6-v2 that memory/embeddings.py used before onnxruntime,
kept as bench/embeddings.py's baseline (the "old path").

The code is the old runtime's, unchanged: fused QKV matmul, exact erf GELU in cache-sized blocks,
mean pooling. It reads its weights from the same model.onnx the onnxruntime path runs (int8,
dequantised here to float32 once, as onnxruntime does), so the bench compares runtimes, not
weights; reading the ONNX file needs the `onnx` package (in the test extras).
"""
from __future__ import annotations

import math
import threading
from pathlib import Path

import numpy as np

from memory.embeddings import (Embedder, length_batches, load_tokenizer, mean_pool, model_file,
                               padded)

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


HEADS = 12  # all-MiniLM-L6-v2's attention heads (the graph has them only inside Reshape shapes)


def onnx_weights(path: Path) -> tuple[dict[str, np.ndarray], int, int, float]:
    """The exported graph's weights under the Hugging Face BERT names the old runtime read from
    model.safetensors, Linear weights in torch's (out, in) layout; and the layer count, the head
    count and the LayerNorm epsilon.

    The export names the biases and LayerNorms but not the six Linear weights of a layer: those are
    the MatMul nodes' dequantised initializers, in graph order query, key, value, attention output,
    intermediate, output (the two attention MatMuls multiply activations and are skipped)."""
    import onnx
    from onnx import numpy_helper

    graph = onnx.load(str(path)).graph
    raw = {t.name: numpy_helper.to_array(t) for t in graph.initializer}
    # Every int8 tensor X_q is used as Cast(X_q) * X_scale, producing X.
    weights = {name[:-2]: (q.astype(np.float32) * raw[name[:-2] + "_scale"]).astype(np.float32)
               for name, q in raw.items() if name.endswith("_q")}
    weights.update({k: v for k, v in raw.items() if v.dtype == np.float32})
    w = {k.removeprefix("inner."): v for k, v in weights.items()}
    linear = [n.input[1] for n in graph.node if n.op_type == "MatMul" and n.input[1] in weights]
    names = ("attention.self.query", "attention.self.key", "attention.self.value",
             "attention.output.dense", "intermediate.dense", "output.dense")
    if len(linear) % len(names):
        raise ValueError(f"{path}: {len(linear)} weight matmuls, not {len(names)} a layer")
    layers = len(linear) // len(names)
    for j, name in enumerate(linear):
        w[f"encoder.layer.{j // len(names)}.{names[j % len(names)]}.weight"] = \
            np.ascontiguousarray(weights[name].T)
    eps = next(a.f for n in graph.node if n.op_type == "LayerNormalization"
               for a in n.attribute if a.name == "epsilon")
    return w, layers, HEADS, eps


class NumpyMiniLMEmbedder(Embedder):
    """all-MiniLM-L6-v2 by numpy alone (the pre-onnxruntime runtime). Thread-safe."""

    name = "all-MiniLM-L6-v2"
    dim = 384

    def __init__(self, batch_size: int = 32, max_batch_tokens: int = 8192):
        self.batch_size = batch_size
        self.max_batch_tokens = max_batch_tokens
        self._lock = threading.Lock()
        self._loaded = False

    def _load(self) -> None:
        if self._loaded:
            return
        with self._lock:
            if self._loaded:
                return
            w, n_layers, self._heads, self._eps = onnx_weights(model_file())
            self._tok = load_tokenizer()
            self._word = w["embeddings.word_embeddings.weight"]
            # Single-sentence inputs are all token type 0: fold that row into the position table.
            self._pos = (w["embeddings.position_embeddings.weight"]
                         + w["embeddings.token_type_embeddings.weight"][0])
            self._emb_ln = (w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
            self._layers = [_layer_weights(w, f"encoder.layer.{i}.") for i in range(n_layers)]
            self._loaded = True

    def embed(self, texts: list[str]) -> np.ndarray:
        texts = list(texts)
        if not texts:
            return np.zeros((0, self.dim), np.float32)
        self._load()
        ids = [e.ids for e in self._tok.encode_batch(texts)]
        out = np.empty((len(texts), self.dim), np.float32)
        for batch in length_batches([len(x) for x in ids], self.batch_size,
                                    self.max_batch_tokens):
            tokens, mask = padded(ids, batch)
            out[batch] = mean_pool(self._encode(tokens, mask.astype(np.float32)), mask)
        return out

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
