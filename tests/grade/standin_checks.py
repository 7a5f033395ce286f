"""Minimal stand-in check modules, used only for the checks ``grader/checks/`` does not have yet.

They follow the checks contract (docs/ARCHITECTURE.md): ``@check`` points, fixtures ``impl``/``ref``/``rng``,
``CheckFailed`` with a diagnosis. A ``sitecustomize.py`` appends their folder to ``grader.checks.__path__``
in every Python process the tests start (worker processes, ``python -m attnkit.grade``), so real check
modules, when present, always win.
"""
from __future__ import annotations

import os
from pathlib import Path

HEADER = '''import numpy as np
from grader.checks.marks import check
from grader.compare import CheckFailed, Mistake

def same(got, expected, call):
    got = np.asarray(got)
    if got.shape != np.shape(expected) or not np.allclose(got, expected):
        raise CheckFailed(f"{call} returned {got.shape}; expected {np.shape(expected)}")
'''

BODIES = {
    "softmax": '''
@check(points=2, task=1)
def test_softmax_matches_reference(impl, ref, rng):
    """softmax matches the reference"""
    x = rng.normal(size=(3, 4))
    got = np.asarray(impl.softmax.softmax(x, axis=-1))
    if got.shape == x.shape and np.allclose(got, ref.softmax.softmax(x, axis=0)):
        raise CheckFailed("softmax(x of shape (3, 4), axis=-1) normalised the wrong axis",
                          Mistake("softmax_wrong_axis", "softmax over the wrong axis", "which axis sums to 1?"))
    same(got, ref.softmax.softmax(x, axis=-1), "softmax(x of shape (3, 4))")

@check(points=1, task=1, visibility="hidden")
def test_softmax_stable(impl, ref):
    """softmax is stable for huge inputs"""
    same(impl.softmax.softmax(np.array([1000.0, 1001.0])), ref.softmax.softmax(np.array([1000.0, 1001.0])), "softmax([1000, 1001])")
''',
    "masking": '''
@check(points=2, task=1)
def test_causal_mask(impl, ref):
    """causal_mask(4) matches the reference"""
    same(impl.masking.causal_mask(4), ref.masking.causal_mask(4), "causal_mask(4)")
''',
    "attention": '''
@check(points=3, task=1)
def test_attention(impl, ref, rng):
    """scaled_dot_product_attention matches the reference"""
    Q, K, V = rng.normal(size=(3, 4, 5))
    got = impl.attention.scaled_dot_product_attention(Q, K, V)
    got = got[0] if isinstance(got, tuple) else got
    want = ref.attention.scaled_dot_product_attention(Q, K, V)
    same(got, want[0] if isinstance(want, tuple) else want, "scaled_dot_product_attention(Q, K, V)")
''',
    "multihead": '''
@check(points=2, task=1)
def test_split_heads(impl, ref, rng):
    """split_heads matches the reference"""
    X = rng.normal(size=(4, 6))
    same(impl.multihead.split_heads(X, 2), ref.multihead.split_heads(X, 2), "split_heads(X, 2)")
''',
    "positional": '''
@check(points=2, task=1)
def test_sinusoidal(impl, ref):
    """sinusoidal_encoding matches the reference"""
    same(impl.positional.sinusoidal_encoding(4, 8), ref.positional.sinusoidal_encoding(4, 8), "sinusoidal_encoding(4, 8)")
''',
    "kv_cache": '''
@check(points=2, task=1)
def test_cache_grows(impl, ref, rng):
    """KVCache.append grows the cache"""
    cache = impl.kv_cache.KVCache()
    cache.append(rng.normal(size=3), rng.normal(size=3))
    if len(cache) != 1:
        raise CheckFailed(f"len(cache) after one append is {len(cache)}; expected 1")
''',
    "tiled_attention": '''
@check(points=1.5, task=1)
def test_tiled(impl, ref, rng):
    """tiled_attention matches the reference"""
    Q, K, V = rng.normal(size=(3, 8, 4))
    same(impl.tiled_attention.tiled_attention(Q, K, V, block_size=4), ref.tiled_attention.tiled_attention(Q, K, V, block_size=4), "tiled_attention(Q, K, V)")
''',
}


def install(folder: Path) -> bool:
    """Write the stand-ins and a ``sitecustomize.py`` into ``folder``; put it on PYTHONPATH and on
    ``grader.checks.__path__`` of this process. Returns False (and does nothing) if the real checks exist."""
    import importlib.util

    import grader.checks

    real = Path(grader.checks.__file__).parent
    if all((real / f"check_{ex}.py").exists() for ex in BODIES):
        return False
    checks = folder / "standin_checks"
    checks.mkdir(parents=True, exist_ok=True)
    for exercise, body in BODIES.items():
        (checks / f"check_{exercise}.py").write_text(HEADER + body)
    (folder / "sitecustomize.py").write_text(
        "try:\n    import grader.checks\n    grader.checks.__path__.append(%r)\nexcept ImportError:\n    pass\n" % str(checks))
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(folder), os.environ.get("PYTHONPATH")]))
    if str(checks) not in grader.checks.__path__:
        grader.checks.__path__.append(str(checks))
    importlib.invalidate_caches()
    return True
