"""Alternative sampling: one row at a time with np.sort thresholds and a running nucleus, the draw by rng.choice
on float64 probabilities, and generation written as one loop that feeds each token before it samples."""
import numbers

import numpy as np

from .gpt import gpt_decode_step, gpt_forward
from .kv_cache import KVCache


def _row(z, top_k, top_p):
    V = z.shape[0]
    if top_k is not None and top_k < V:
        z = np.where(z >= np.sort(z)[V - top_k], z, -np.inf)
    e = np.exp(z - z.max())
    p = e / e.sum()
    if top_p is not None and top_p < 1:
        keep, mass = np.zeros(V, dtype=bool), 0.0
        for i in sorted(range(V), key=lambda i: -p[i]):
            if mass >= top_p:
                break
            keep[i], mass = True, mass + p[i]
        p = np.where(keep, p, 0)
        p = p / p.sum()
    return p


def sampling_probs(logits, temperature=1.0, top_k=None, top_p=None):
    if not isinstance(temperature, numbers.Real) or not np.isfinite(temperature) or temperature < 0:
        raise ValueError("temperature")
    if top_k is not None and (isinstance(top_k, bool) or not isinstance(top_k, numbers.Integral) or top_k < 1):
        raise ValueError("top_k")
    if top_p is not None and not (isinstance(top_p, numbers.Real) and 0 < top_p <= 1):
        raise ValueError("top_p")
    logits = np.asarray(logits)
    logits = logits if np.issubdtype(logits.dtype, np.floating) else logits.astype(np.float64)
    rows = logits.reshape(-1, logits.shape[-1])
    out = np.zeros_like(rows)
    for r, row in enumerate(rows):
        if temperature == 0:
            out[r, int(np.argmax(row))] = 1
        else:
            out[r] = _row(row / float(temperature), top_k, top_p)
    return out.reshape(logits.shape)


def sample_token(logits, rng=None, temperature=1.0, top_k=None, top_p=None):
    logits = np.asarray(logits)
    if logits.ndim != 1:
        raise ValueError("logits must be 1-D")
    probs = sampling_probs(logits, temperature, top_k, top_p)
    if temperature == 0:
        return int(np.argmax(logits))
    if rng is None:
        raise ValueError("an rng is needed")
    return int(rng.choice(len(probs), p=probs.astype(np.float64)))


def generate(prompt, params, n_head, n_new, rng=None, temperature=0.0, top_k=None, top_p=None, use_cache=True):
    prompt = np.asarray(prompt)
    V, n_ctx = params["wte"]["weight"].shape[0], params["wpe"]["weight"].shape[0]
    if prompt.ndim != 1 or len(prompt) == 0 or not np.issubdtype(prompt.dtype, np.integer):
        raise ValueError("prompt")
    if (prompt < 0).any() or (prompt >= V).any() or not isinstance(n_new, int) or n_new < 0:
        raise ValueError("ids or n_new")
    if len(prompt) + n_new > n_ctx or (temperature > 0 and rng is None):
        raise ValueError("context or rng")
    out = prompt.astype(np.int64).tolist()
    caches = [KVCache() for _ in params["h"]]
    fed = 0
    while len(out) < len(prompt) + n_new:
        if use_cache:
            while fed < len(out):
                logits = gpt_decode_step(out[fed], params, n_head, caches)
                fed += 1
        else:
            logits = gpt_forward(np.array(out), params, n_head)[-1]
        out.append(sample_token(logits, rng, temperature, top_k, top_p))
    return np.array(out, dtype=np.int64)
