"""Under ``attnkit grade`` gpt and sampling are graded on their own code: their calls of block, layers, gpt and
softmax are answered by the reference, and the KV caches their decode steps and generation hand to those calls
cross the wire by value, so a broken block, layers or KVCache costs points in its own exercise only."""
import numpy as np

from grader import tiny_gpt
from grader.mistakes import all_mistakes
from grader.mistakes.model import apply
from grader.sandbox.inside import standin
from tests.sandbox.brokenkit import BROKEN_CACHE
from tests.sessionkit import run_folder


def break_module(folder, module, *mistake_ids):
    path = folder / f"{module}.py"
    text = path.read_text()
    for mistake_id in mistake_ids:
        text = apply(text, all_mistakes()[mistake_id].mutant_patch)
    path.write_text(text)


def broken_submission(submission):
    """layer_norm over the batch axis, a post-norm block that attends before appending, a KVCache that swaps keys
    and values."""
    folder = submission()
    break_module(folder, "layers", "layer_norm_batch_axis")
    break_module(folder, "block", "block_post_norm", "block_decode_attend_before_append")
    cache = folder / "kv_cache.py"
    cache.write_text(cache.read_text().split("class KVCache:")[0] + BROKEN_CACHE.lstrip("\n")
                     + "\n\ndef decode_step" + cache.read_text().split("\ndef decode_step", 1)[1])
    return folder


def test_broken_earlier_exercises_cost_nothing_in_gpt_and_sampling(zygote, submission):
    graded = {r.exercise: r for r in run_folder(zygote, broken_submission(submission),
                                                    ("kv_cache", "layers", "block", "gpt", "sampling"),
                                                    own_siblings=False)}
    for broken in ("kv_cache", "layers", "block"):
        assert graded[broken].score < graded[broken].max_score, broken
    for exercise in ("gpt", "sampling"):
        assert graded[exercise].score == graded[exercise].max_score, graded[exercise].first_failure
        assert {"block", "layers"} <= graded[exercise].reference_siblings


def test_a_broken_block_costs_nothing_in_sampling_with_a_trusted_kv_cache(zygote, submission):
    """kv_cache and gpt at full marks run as the student's own; the caches gpt makes are still the lent KVCache, so
    they cross to the reference answering the broken block's decode step (not the student's block)."""
    folder = submission()
    break_module(folder, "block", "block_post_norm", "block_decode_attend_before_append")
    graded = {r.exercise: r for r in run_folder(zygote, folder, ("kv_cache", "block", "gpt", "sampling"),
                                                    own_siblings=False)}
    assert graded["block"].score < graded["block"].max_score
    for exercise in ("kv_cache", "gpt", "sampling"):
        assert graded[exercise].score == graded[exercise].max_score, graded[exercise].first_failure
    assert "block" in graded["sampling"].reference_siblings


def test_a_broken_gpt_costs_nothing_in_sampling(zygote, submission):
    """sampling's cached generation hands its caches (the sandbox's, lent as kv_cache.KVCache) to the reference's
    gpt_decode_step, which appends to them over the wire."""
    folder = broken_submission(submission)
    break_module(folder, "gpt", "gpt_decode_position_zero", "gpt_no_final_layer_norm")
    graded = {r.exercise: r for r in run_folder(zygote, folder, ("gpt", "sampling"), own_siblings=False)}
    assert graded["gpt"].score < graded["gpt"].max_score
    assert graded["sampling"].score == graded["sampling"].max_score, graded["sampling"].first_failure
    assert "gpt" in graded["sampling"].reference_siblings
    assert "your gpt fails its own checks" in graded["sampling"].note


def test_a_parameter_trees_widths_are_not_sequence_lengths():
    """The shipped tiny GPT-2's block (d = 64, d_ff = 256) on 26 positions is answered by the reference; the same
    arrays outside a tree would count their widths as sequence lengths."""
    model = tiny_gpt.load(np.dtype(np.float32))
    block, x = model.params["h"][0], np.zeros((26, 64), np.float32)
    assert not standin.too_large((x, block, model.n_head), {})
    flat = [array for part in block.values() for linear in part.values()
            for array in (linear.values() if isinstance(linear, dict) else [linear])]
    assert standin.work((x, flat, model.n_head), {}) > standin.work((x, block, model.n_head), {})
