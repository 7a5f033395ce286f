"""HuggingFace GPT-2 with random seeded weights, and the one rule that maps its state dict onto the kit's
parameter tree (``transformer.h.3.attn.c_attn.weight`` -> ``params["h"][3]["attn"]["c_attn"]["weight"]``).

Nothing is downloaded: the models are built from a ``GPT2Config`` and initialised from a torch seed.
"""
from __future__ import annotations

import os

import numpy as np

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

from grader.tiny_gpt import dotted_from_tree, tree_from_dotted  # noqa: E402
from tests.optional import lazy  # noqa: E402

torch, transformers = lazy("torch"), lazy("transformers")  # the tests using these ask for the transformers fixture


def hf_model(*, seed: int, n_layer: int = 2, n_embd: int = 16, n_head: int = 4, n_ctx: int = 12,
             vocab: int = 23, dtype: str = "float64", scale: float = 0.3) -> transformers.GPT2LMHeadModel:
    """A random GPT-2 in eval mode (no dropout), every weight drawn from N(0, scale^2) so that biases and
    LayerNorm parameters are not the 0 and 1 of a fresh init (a mistake hidden by them still shows)."""
    torch.manual_seed(seed)
    config = transformers.GPT2Config(
        vocab_size=vocab, n_positions=n_ctx, n_embd=n_embd, n_layer=n_layer, n_head=n_head,
        activation_function="gelu_new", resid_pdrop=0.0, embd_pdrop=0.0, attn_pdrop=0.0, layer_norm_epsilon=1e-5,
        bos_token_id=None, eos_token_id=None, loss_type="ForCausalLM", attn_implementation="eager")
    model = transformers.GPT2LMHeadModel(config).to(getattr(torch, dtype)).eval()
    with torch.no_grad():
        for name, tensor in model.named_parameters():
            tensor.copy_(torch.randn_like(tensor) * scale + (1.0 if name.endswith(("ln_1.weight", "ln_2.weight",
                                                                                    "ln_f.weight")) else 0.0))
    return model


def params_from_state_dict(state_dict) -> dict:
    """The kit's parameter tree from ``GPT2LMHeadModel.state_dict()``, by the kit's one rule
    (``grader.tiny_gpt.tree_from_dotted``: drop ``transformer.``, split at the dots, integer parts index the list of
    blocks; no transpose). ``lm_head.weight`` (the tied ``wte``) and HF's non-parameter buffers (``attn.bias``,
    ``masked_bias``, which older versions keep) are skipped."""
    return tree_from_dotted({key: value.detach().cpu().numpy().copy() for key, value in state_dict.items()
                             if value is not None and not key.endswith((".attn.bias", ".attn.masked_bias"))})


def hf_grads(model: transformers.GPT2LMHeadModel) -> dict:
    """The ``.grad`` of every parameter, as a kit tree (``wte`` holds both tied contributions)."""
    return params_from_state_dict({name: tensor.grad for name, tensor in model.named_parameters()})


def tree_leaves(tree):
    """(GPT-2's dotted name, array) for every leaf of a kit tree, in the tree's order (the one rule, reversed)."""
    return dotted_from_tree(tree).items()


def cast(tree, dtype):
    """The tree with every leaf as ``dtype``."""
    if isinstance(tree, dict):
        return {key: cast(value, dtype) for key, value in tree.items()}
    if isinstance(tree, list):
        return [cast(value, dtype) for value in tree]
    return np.asarray(tree).astype(dtype)
