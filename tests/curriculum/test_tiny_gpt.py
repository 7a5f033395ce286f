"""The tiny GPT-2 the kit ships (grader/tiny_gpt.npz, card grader/tiny_gpt.json) is what scripts/train_tiny_gpt.py
makes: the first steps of training from the card's seed, settings and text reproduce the recorded loss curve bit for
bit (the full run, a few minutes, with ATTNKIT_TRAIN_TINY_GPT=1), the stored weights match the card's digest, and the
file is small, float32, named by GPT-2's dotted keys and loads by the one rule."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from grader import tiny_gpt
from solutions.gpt import gpt_forward, lm_loss

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "train_tiny_gpt.py"
PREFIX_STEPS = 3


@pytest.fixture(scope="module")
def card():
    return tiny_gpt.load().card


def verify(*argv) -> subprocess.CompletedProcess:
    """The script in a fresh process: it sets one BLAS thread before numpy loads (this process has numpy already)."""
    return subprocess.run([sys.executable, str(SCRIPT), "--verify", *argv], capture_output=True, text=True,
                          timeout=900, env={k: v for k, v in os.environ.items() if not k.endswith("_NUM_THREADS")})


def test_the_first_steps_reproduce_the_recorded_curve_bit_for_bit():
    done = verify("--steps", str(PREFIX_STEPS))
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{PREFIX_STEPS} steps in" in done.stdout and "losses identical" in done.stdout


@pytest.mark.skipif(not os.environ.get("ATTNKIT_TRAIN_TINY_GPT"), reason="the full training run takes minutes")
def test_the_full_run_reproduces_the_weights_bit_for_bit():
    done = verify()
    assert done.returncode == 0, done.stdout + done.stderr
    assert "weights identical bit for bit; losses identical" in done.stdout


def test_the_file_is_small_float32_gpt2_keys_and_matches_its_card(card):
    assert tiny_gpt.WEIGHTS.stat().st_size < 1 << 20
    with np.load(tiny_gpt.WEIGHTS) as stored:
        keys = set(stored.files)
        assert all(stored[key].dtype == np.float32 for key in keys)
    n_layer = card["settings"]["n_layer"]
    assert "transformer.wte.weight" in keys and "transformer.ln_f.bias" in keys
    assert f"transformer.h.{n_layer - 1}.attn.c_attn.weight" in keys and f"transformer.h.{n_layer}.ln_1.weight" \
        not in keys
    model = tiny_gpt.load(np.float32)
    assert tiny_gpt.digest(model.params) == card["digest"]
    assert card["parameters"] == sum(a.size for a in tiny_gpt.dotted_from_tree(model.params).values())
    assert len(card["losses"]) == card["settings"]["n_steps"] and card["losses"][-1] < card["losses"][0] / 2


def test_the_dotted_rule_round_trips(card):
    params = tiny_gpt.load().params
    again = tiny_gpt.tree_from_dotted(tiny_gpt.dotted_from_tree(params))
    assert tiny_gpt.digest(again) == tiny_gpt.digest(params)
    with pytest.raises(ValueError, match="block 2 comes before block 0"):
        tiny_gpt.tree_from_dotted({"transformer.h.2.ln_1.weight": np.ones(2)})


def test_the_model_learned_its_text(card):
    """The trained weights give the training text a far lower loss than the first step recorded, float32 and
    float64 alike, and greedy decoding reproduces the card's sample."""
    rows = np.array([[card["vocabulary"].index(c) for c in row] for row in card["text"]])
    for dtype in (np.float64, np.float32):
        model = tiny_gpt.load(dtype)
        assert float(lm_loss(rows, model.params, model.n_head)) < card["losses"][0] / 2
    model = tiny_gpt.load()
    logits = gpt_forward(model.encode(card["prompt"]), model.params, model.n_head)
    assert logits.shape == (len(card["prompt"]), len(card["vocabulary"]))


def test_encode_names_the_first_unknown_character():
    model = tiny_gpt.load()
    assert model.decode(model.encode("Attention 2")) == "attention 2"
    with pytest.raises(ValueError, match="'!' is not one of them"):
        model.encode("attention!")
