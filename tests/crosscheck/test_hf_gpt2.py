"""Part three's reference solutions agree with HuggingFace ``transformers``' GPT-2 (random seeded configs, nothing
downloaded): the layers, the block and its attention weights, the logits, the loss, cached decoding against HF's own
``past_key_values``, greedy generation token for token, and the sampling warpers; float64 within 1e-10, float32
within 1e-4 relative.

transformers (and torch) are the optional ``crosscheck`` extra; without them this whole file is skipped.
"""
import numpy as np
import pytest

from solutions.block import causal_self_attention, transformer_block
from solutions.gpt import gpt_decode_step, gpt_forward, lm_loss
from solutions.kv_cache import KVCache
from solutions.layers import feed_forward, layer_norm
from solutions.sampling import generate, sampling_probs
from tests.crosscheck.hfkit import cast, hf_model, params_from_state_dict, tree_leaves
from tests.optional import lazy

torch, F = lazy("torch"), lazy("torch.nn.functional")
# skipped without torch and transformers; imported by the one worker running these (tests/optional.py)
pytestmark = pytest.mark.usefixtures("transformers")
CONFIGS = {   # n_layer, n_embd, n_head, n_ctx, vocab
    "2 layers, 4 heads": dict(n_layer=2, n_embd=16, n_head=4, n_ctx=12, vocab=23),
    "3 layers, 3 heads": dict(n_layer=3, n_embd=24, n_head=3, n_ctx=10, vocab=31),
}
FLOAT64, FLOAT32 = 1e-10, 1e-4


def relative(got, want):
    """max |got - want| / max |want|, printed (the figure the closing note quotes)."""
    error = float(np.max(np.abs(np.asarray(got, dtype=np.float64) - np.asarray(want, dtype=np.float64))))
    scale = float(np.max(np.abs(want)))
    print(f"max abs error {error:.1e} (relative {error / scale:.1e})")
    return error / scale


@pytest.fixture(scope="module", params=sorted(CONFIGS))
def model(request):
    config = CONFIGS[request.param]
    hf = hf_model(seed=sorted(CONFIGS).index(request.param), **config)
    return hf, params_from_state_dict(hf.state_dict()), config


@pytest.fixture(scope="module")
def run(model):
    """One HF forward pass of a batch, with every block's input (hidden states) and attention weights."""
    hf, params, config = model
    tokens = np.random.default_rng(7).integers(0, config["vocab"], (3, config["n_ctx"]))
    with torch.no_grad():
        out = hf(torch.from_numpy(tokens), output_hidden_states=True, output_attentions=True)
    return tokens, out


def test_the_loader_maps_every_parameter_once(model):
    hf, params, config = model
    names = {name for name, _ in hf.named_parameters()}
    assert "lm_head.weight" not in names or hf.lm_head.weight is hf.transformer.wte.weight
    mapped = {name for name, _ in tree_leaves(params)}
    assert mapped == {name for name in names if name.startswith("transformer.")}
    assert len(params["h"]) == config["n_layer"]


def test_logits_match_hf(model, run):
    hf, params, config = model
    tokens, out = run
    assert relative(gpt_forward(tokens, params, config["n_head"]), out.logits.numpy()) < FLOAT64


def test_every_block_and_its_attention_weights_match_hf(model, run):
    """hidden_states[i] is block i's input and [i + 1] its output (the last one after ln_f)."""
    hf, params, config = model
    tokens, out = run
    states = [h.numpy() for h in out.hidden_states]
    for i, block in enumerate(params["h"]):
        got = transformer_block(states[i], block, config["n_head"])
        if i == config["n_layer"] - 1:
            got = layer_norm(got, params["ln_f"]["weight"], params["ln_f"]["bias"])
        assert relative(got, states[i + 1]) < FLOAT64
        normed = layer_norm(states[i], block["ln_1"]["weight"], block["ln_1"]["bias"])
        weights = causal_self_attention(normed, block["attn"], config["n_head"])[1]
        assert relative(weights, out.attentions[i].numpy()) < FLOAT64
        assert np.all(weights[..., np.triu_indices(tokens.shape[-1], 1)[0], np.triu_indices(tokens.shape[-1], 1)[1]]
                      == 0)


def test_feed_forward_matches_hf_mlp(model):
    hf, params, config = model
    x = np.random.default_rng(3).standard_normal((2, 5, config["n_embd"]))
    with torch.no_grad():
        want = hf.transformer.h[0].mlp(torch.from_numpy(x)).numpy()
    assert relative(feed_forward(x, params["h"][0]["mlp"]), want) < FLOAT64


def test_loss_matches_hf(model, run):
    """HF computes its own loss in float32 (it upcasts the logits to float, whatever their dtype), so the float64
    figure is torch's cross_entropy on HF's float64 logits; HF's own loss agrees to float32 precision."""
    hf, params, config = model
    tokens, out = run
    ids = torch.from_numpy(tokens)
    want = F.cross_entropy(out.logits[:, :-1].reshape(-1, config["vocab"]), ids[:, 1:].reshape(-1)).item()
    got = float(lm_loss(tokens, params, config["n_head"]))
    assert abs(got - want) / want < FLOAT64
    with torch.no_grad():
        assert abs(got - hf(ids, labels=ids).loss.item()) / want < 1e-6


def test_float32_matches_float64_hf(model, run):
    hf, params, config = model
    tokens, out = run
    logits = gpt_forward(tokens, cast(params, np.float32), config["n_head"])
    assert logits.dtype == np.float32
    assert relative(logits, out.logits.numpy()) < FLOAT32


def test_cached_decoding_matches_hf_past_key_values(model):
    """Token by token: each step's logits equal HF's with past_key_values, and every layer's cache holds HF's keys
    and values, heads side by side."""
    hf, params, config = model
    tokens = np.random.default_rng(11).integers(0, config["vocab"], config["n_ctx"])
    caches, past = [KVCache() for _ in params["h"]], None
    for token in tokens:
        with torch.no_grad():
            out = hf(torch.tensor([[int(token)]]), cache=past, use_cache=True)
        past = out.past_key_values
        assert relative(gpt_decode_step(int(token), params, config["n_head"], caches), out.logits[0, -1].numpy()) \
            < FLOAT64
    for layer, cache in enumerate(caches):
        keys, values = past.layers[layer].keys[0], past.layers[layer].values[0]          # (nh, T, hs)
        for mine, theirs in ((cache.keys, keys), (cache.values, values)):
            theirs = theirs.permute(1, 0, 2).reshape(len(tokens), -1).numpy()            # (T, nh * hs)
            assert relative(mine, theirs) < FLOAT64


@pytest.mark.parametrize("n_new", [1, 6])
def test_greedy_generation_is_token_identical_to_hf(model, n_new):
    hf, params, config = model
    prompt = np.random.default_rng(n_new).integers(0, config["vocab"], 4)
    ids = torch.from_numpy(prompt)[None]
    with torch.no_grad():
        want = hf.generate(ids, attention_mask=torch.ones_like(ids), do_sample=False, max_new_tokens=n_new,
                           pad_token_id=0).numpy()[0]
    for use_cache in (True, False):
        got = generate(prompt, params, config["n_head"], n_new, use_cache=use_cache)
        assert got.dtype == np.int64
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("temperature, top_k, top_p", [(1.0, None, None), (0.7, 5, None), (1.3, None, 0.8),
                                                        (0.5, 4, 0.6), (2.0, 50, 0.95), (1.0, 1, None)])
def test_sampling_probs_match_hf_warpers(temperature, top_k, top_p):
    from transformers.generation.logits_process import TemperatureLogitsWarper, TopKLogitsWarper, TopPLogitsWarper

    logits = np.random.default_rng(5).standard_normal((4, 30)) * 3
    scores = torch.from_numpy(logits.copy())
    warpers = [TemperatureLogitsWarper(temperature)]
    if top_k is not None:
        warpers.append(TopKLogitsWarper(top_k))
    if top_p is not None:
        warpers.append(TopPLogitsWarper(top_p))
    for warper in warpers:
        scores = warper(None, scores)
    want = F.softmax(scores, dim=-1).numpy()
    got = sampling_probs(logits, temperature, top_k, top_p)
    np.testing.assert_array_equal(got == 0, want == 0)
    assert relative(got, want) < FLOAT64


def test_cached_and_uncached_sampling_give_the_same_text(model):
    hf, params, config = model
    prompt = np.array([1, 2, 3])
    texts = [generate(prompt, params, config["n_head"], config["n_ctx"] - 3, np.random.default_rng(2026),
                      temperature=0.9, top_k=10, top_p=0.9, use_cache=use_cache) for use_cache in (True, False)]
    np.testing.assert_array_equal(*texts)


def test_the_shipped_model_loads_into_hf_and_gives_the_same_logits_and_text():
    """The tiny model's .npz holds GPT-2's own names: HF loads it as is (lm_head tied), and its logits and greedy
    text equal the kit's."""
    from transformers import GPT2Config, GPT2LMHeadModel

    from grader import tiny_gpt

    model = tiny_gpt.load()
    settings = model.card["settings"]
    config = GPT2Config(vocab_size=len(model.vocabulary), n_positions=settings["n_ctx"], n_embd=settings["d"],
                        n_layer=settings["n_layer"], n_head=model.n_head, activation_function="gelu_new",
                        resid_pdrop=0.0, embd_pdrop=0.0, attn_pdrop=0.0, layer_norm_epsilon=1e-5, bos_token_id=None,
                        eos_token_id=None, attn_implementation="eager")   # no end-of-text token: never stops early
    hf = GPT2LMHeadModel(config).to(torch.float64).eval()
    state = {key: torch.from_numpy(value) for key, value in tiny_gpt.dotted_from_tree(model.params).items()}
    missing, unexpected = hf.load_state_dict(state, strict=False)
    assert not unexpected and all(key == "lm_head.weight" or key.endswith(".attn.bias") for key in missing)
    prompt = model.encode(model.card["prompt"])
    with torch.no_grad():
        want = hf(torch.from_numpy(prompt)[None]).logits[0].numpy()
        text = hf.generate(torch.from_numpy(prompt)[None], attention_mask=torch.ones(1, len(prompt), dtype=torch.long),
                           do_sample=False, max_new_tokens=settings["n_ctx"] - len(prompt), pad_token_id=0)[0].numpy()
    assert relative(gpt_forward(prompt, model.params, model.n_head), want) < FLOAT64
    np.testing.assert_array_equal(generate(prompt, model.params, model.n_head, settings["n_ctx"] - len(prompt)), text)
    assert model.decode(text) == model.card["greedy_sample"]
