"""Under ``attnkit grade`` the block exercise is graded on its own code: its calls of the layers exercise (parameter
dicts over the wire) are answered by the reference, and its decode steps run on the sandbox's cache, so a broken
layer_norm or a broken KVCache costs points in its own exercise only."""
from grader.mistakes import all_mistakes
from grader.mistakes.model import apply
from tests.sandbox.brokenkit import BROKEN_CACHE
from tests.sessionkit import run_folder


def test_a_broken_layer_norm_and_cache_cost_nothing_in_block(zygote, submission):
    folder = submission()
    layers = folder / "layers.py"
    layers.write_text(apply(layers.read_text(), all_mistakes()["layer_norm_batch_axis"].patch))
    cache = folder / "kv_cache.py"
    cache.write_text(cache.read_text().split("class KVCache:")[0] + BROKEN_CACHE.lstrip("\n")
                     + "\n\ndef decode_step" + cache.read_text().split("\ndef decode_step", 1)[1])
    graded = {r.exercise: r for r in run_folder(zygote, folder, ("kv_cache", "layers", "block"),
                                                    own_siblings=False)}
    assert graded["layers"].score < graded["layers"].max_score
    assert graded["kv_cache"].score < graded["kv_cache"].max_score
    assert graded["block"].score == graded["block"].max_score, graded["block"].first_failure
    assert "layers" in graded["block"].reference_siblings
    assert "your layers fails its own checks" in graded["block"].note
