"""Classic KV-cache mistakes: the decode step's order, scale and cached keys and values."""
from __future__ import annotations

from .anchors import Edit
from .model import Mistake

FUNCTIONS = ("decode_step",)
APPEND = "cache.append(k, v)"
READ = "keys, values = cache.keys, cache.values"
SCALE = "scores = (keys @ q) * (1.0 / math.sqrt(q.shape[-1]))"

ATTEND_BEFORE_APPEND = Mistake(
    id="kv_cache_attend_before_append",
    functions=FUNCTIONS,
    looks_like="the new token missed itself: it attended to the cache before its own key and value were in it",
    hint="A causal mask lets a token see itself. When does the new key and value reach the cache?",
    patch=(Edit("decode_step.cache", APPEND, "pass"), Edit("decode_step.keys", READ, READ + "\n    " + APPEND)),
)
ONLY_SELF = Mistake(
    id="kv_cache_only_self",
    functions=FUNCTIONS,
    looks_like="each step returned the new token's own value: it attended only to itself",
    hint="The point of the cache is that the new query sees every cached key, oldest first, itself last.",
    patch=(Edit("decode_step.keys", READ, "keys, values = k[None, :], v[None, :]"),),
)
VALUES_AS_KEYS = Mistake(
    id="kv_cache_keys_values_swapped",
    functions=FUNCTIONS,
    looks_like="keys and values traded places in the cache",
    hint="Scores come from the query and the cached keys; the output is a weighted sum of the cached values.",
    patch=(Edit("decode_step.cache", APPEND, "cache.append(v, k)"),),
)
NO_SCALE = Mistake(
    id="kv_cache_no_scale",
    functions=FUNCTIONS,
    looks_like="the decode step's weights are too peaked: its scores were not divided by sqrt(d_k)",
    hint="A decode step is ordinary scaled dot-product attention for one query.",
    patch=(Edit("decode_step.scores", SCALE, "scores = keys @ q"),),
)
DIVIDE_BY_DK = Mistake(
    id="kv_cache_divide_by_dk",
    functions=FUNCTIONS,
    looks_like="the decode step's weights are too flat: its scores were divided by d_k instead of sqrt(d_k)",
    hint="The decode step must scale exactly as full attention does.",
    patch=(Edit("decode_step.scores", SCALE, "scores = (keys @ q) / q.shape[-1]"),),
)
SCALE_D_MODEL = Mistake(
    id="kv_cache_scale_d_model",
    functions=FUNCTIONS,
    looks_like="the decode step's scores were divided by sqrt(d_model) (the width of x_t) instead of sqrt(d_k)",
    hint="The scale comes from the vectors in the dot product: the query and the cached keys.",
    patch=(Edit("decode_step.scores", "(1.0 / math.sqrt(q.shape[-1]))", "(1.0 / math.sqrt(x_t.shape[-1]))"),),
)
INTEGER_DTYPE = Mistake(
    id="kv_cache_integer_dtype",
    functions=("KVCache",),
    looks_like="integer keys and values were cached as integers (every result in the kit is float; integer input "
               "gives float64)",
    hint="Which dtype should the buffers get when the first key is an integer vector?",
    mutant=(Edit("append.dtype", "dtype = np.result_type(k, v, 1.0)", "dtype = np.result_type(k, v)"),),
)
ALIASING = Mistake(
    id="kv_cache_aliasing",
    functions=("KVCache",),
    looks_like="the cache kept the caller's arrays: changing k after append changed the cached key",
    hint="The cache must remember the key as it was when it was appended.",
    mutant=(Edit("append.count",
                 "self._length += 1",
                 "self._length += 1\n        self._appended = getattr(self, '_appended', []) + [k]"),
            Edit("keys.stored",
                 "view = self._keys[: self._length]", "view = np.stack(self._appended).astype(self._keys.dtype)")),
)
