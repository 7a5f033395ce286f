"""Classic mistakes of the whole model: embeddings, the final LayerNorm, the tied head, the cached position,
log-softmax and the next-token loss."""
from __future__ import annotations

from .anchors import Edit
from .model import Mistake, modifies_input

MODEL = ("gpt_forward", "gpt_decode_step", "lm_loss")
LOSSES = ("cross_entropy", "lm_loss")
EMBED = "x = wte[tokens] + wpe[:T]"
EMBED_STEP = "x = wte[token] + wpe[position]"
LN_F = 'x = layer_norm(x, params["ln_f"]["weight"], params["ln_f"]["bias"])'
HEAD = "return x @ wte.T                              # (..., T, d)"
HEAD_STEP = "return x @ wte.T                              # (d,)"
POSITION = "position = len(caches[0])"
LOG_SUM = "return shifted - np.log(np.sum(np.exp(shifted), axis=axis, keepdims=True))"
PICKED = "picked = np.take_along_axis(log_probs, targets[..., None], axis=-1)[..., 0]"
SHIFTED_LOGITS = "logits = gpt_forward(tokens[..., :-1], params, n_head)"
SHIFTED_TARGETS = "return cross_entropy(logits, tokens[..., 1:])"

NO_FINAL_LAYER_NORM = Mistake(
    id="gpt_no_final_layer_norm",
    functions=MODEL,
    looks_like="the last block's output went straight into the head: the final LayerNorm (ln_f) is missing",
    hint="GPT-2 normalises before every sub-layer, so the residual stream itself is never normalised inside the "
         "blocks. What must happen to it once, before the head?",
    patch=(Edit("gpt_forward.x", f"    {LN_F}  # (..., T, d); eps 1e-5 as in GPT-2\n", ""),
           Edit("gpt_decode_step.x", f"    {LN_F}  # (d,); eps 1e-5 as in GPT-2\n", "")),
)
NO_POSITIONS = Mistake(
    id="gpt_no_position_embedding",
    functions=MODEL,
    looks_like="the model ignored word order: the position embeddings (wpe) were never added",
    hint="Attention by itself does not know where a token stands. Which table tells the model the position?",
    patch=(Edit("gpt_forward.embed", EMBED, "x = wte[tokens]"),
           Edit("gpt_decode_step.embed", EMBED_STEP, "x = wte[token]")),
)
POSITIONS_BY_TOKEN = Mistake(
    id="gpt_positions_by_token_id",
    functions=MODEL,
    looks_like="the position embeddings were looked up with the token ids instead of the positions 0, 1, ..., T-1",
    hint="wte is indexed by what the token is, wpe by where it stands.",
    patch=(Edit("gpt_forward.embed", EMBED, "x = wte[tokens] + wpe[tokens]"),
           Edit("gpt_decode_step.embed", EMBED_STEP, "x = wte[token] + wpe[token]")),
)
POSITIONS_FROM_BATCH = Mistake(
    id="gpt_positions_from_batch_length",
    functions=("gpt_forward", "lm_loss"),
    looks_like="the positions were counted with len(tokens), which for a batch is the number of sequences, not T "
               "(right for one sequence only)",
    hint="tokens has shape (..., T). Which axis counts the positions, whatever the number of leading axes?",
    patch=(Edit("gpt_forward.embed", EMBED, "x = wte[tokens] + wpe[:len(tokens)]"),),
)
SCALED_EMBEDDINGS = Mistake(
    id="gpt_scaled_embeddings",
    functions=MODEL,
    looks_like="the token embeddings were multiplied by sqrt(d) (the 2017 Transformer's convention, which GPT-2 "
               "does not use)",
    hint="Compare the embedding step with the original Transformer paper: does GPT-2 rescale anything there?",
    patch=(Edit("gpt_forward.embed", EMBED, "x = wte[tokens] * wte.shape[1] ** 0.5 + wpe[:T]"),
           Edit("gpt_decode_step.embed", EMBED_STEP, "x = wte[token] * wte.shape[1] ** 0.5 + wpe[position]")),
)
HEAD_NOT_TRANSPOSED = Mistake(
    id="gpt_head_not_transposed",
    functions=MODEL,
    looks_like="the head multiplied by wte instead of its transpose (the shapes only agree when V == d)",
    hint="wte has one row per vocabulary entry. The logit of entry i is the dot product of the final vector with "
         "which row?",
    patch=(Edit("gpt_forward.return", HEAD, "return x @ wte                                # (..., T, d)"),
           Edit("gpt_decode_step.return", HEAD_STEP, "return x @ wte                                # (d,)")),
)
POSITION_ZERO = Mistake(
    id="gpt_decode_position_zero",
    functions=("gpt_decode_step",),
    looks_like="every cached step used position 0: only the first step is right",
    hint="The new token stands after every position the caches already hold. How many is that?",
    patch=(Edit("gpt_decode_step.position", POSITION, "position = 0"),),
)
POSITION_LAYERS = Mistake(
    id="gpt_decode_position_number_of_layers",
    functions=("gpt_decode_step",),
    looks_like="the position was len(caches), the number of layers, instead of the number of cached positions",
    hint="caches is a list with one cache per layer. Which length grows by one at every step?",
    patch=(Edit("gpt_decode_step.position", POSITION, "position = len(caches)"),),
)
POSITION_OFF_BY_ONE = Mistake(
    id="gpt_decode_position_off_by_one",
    functions=("gpt_decode_step",),
    looks_like="every cached step used the position after its own (as if the token were already in the cache)",
    hint="Read the position before anything is appended: the first token of a sequence stands at position 0.",
    patch=(Edit("gpt_decode_step.position", POSITION, "position = len(caches[0]) + 1"),),
)
LOG_OF_SOFTMAX = Mistake(
    id="gpt_log_of_softmax",
    functions=("log_softmax", *LOSSES),
    looks_like="log_softmax was computed as log(softmax(x)): an unlikely token's probability underflows to 0 and "
               "its log-probability becomes -inf",
    hint="log(exp(a) / s) = a - log(s). Which of the two forms never has to take the log of a tiny number?",
    patch=(Edit("log_softmax.return",
                LOG_SUM, "return np.log(np.exp(shifted) / np.sum(np.exp(shifted), axis=axis, keepdims=True))"),),
)
NO_MAX_SHIFT = Mistake(
    id="gpt_log_softmax_no_max_shift",
    functions=("log_softmax", *LOSSES),
    looks_like="exp overflowed to inf for scores in the hundreds: the log-sum-exp was taken of the raw scores",
    hint="log-sum-exp does not change meaning if you take the largest score out first: logsumexp(x) = "
         "m + logsumexp(x - m).",
    patch=(Edit("log_softmax.shifted", "shifted = x - row_max  ", "shifted = x  "),),
)
LOSS_SUMMED = Mistake(
    id="gpt_loss_summed",
    functions=LOSSES,
    looks_like="the loss was the sum over the positions instead of their mean (it grows with the batch and the "
               "sequence length)",
    hint="torch's cross_entropy and HuggingFace's loss use the 'mean' reduction. What does that divide by?",
    patch=(Edit("cross_entropy.return", "return -np.mean(picked)", "return -np.sum(picked)"),),
)
GATHERED_MATRIX = Mistake(
    id="gpt_loss_gathered_matrix",
    functions=LOSSES,
    looks_like="every position's log-probabilities were indexed by every target (logits[:, targets], an N x N "
               "matrix), not each position by its own target",
    hint="Position i needs one number: its own log-probability of targets[i]. Pair the positions with their "
         "targets element by element.",
    patch=(Edit("cross_entropy.picked", PICKED, "picked = log_probs[..., targets]"),),
)
TARGETS_NOT_SHIFTED = Mistake(
    id="gpt_loss_targets_not_shifted",
    functions=("lm_loss",),
    looks_like="each position was scored on its own token (copying the input) instead of the next one",
    hint="A language model at position t has seen tokens 0..t. Which token is it trying to predict?",
    patch=(Edit("lm_loss.return", SHIFTED_TARGETS, "return cross_entropy(logits, tokens[..., :-1])"),),
)
SHIFTED_WRONG_WAY = Mistake(
    id="gpt_loss_shifted_wrong_way",
    functions=("lm_loss",),
    looks_like="the shift went the wrong way: the logits came from tokens 1..T-1 and were scored on tokens 0..T-2 "
               "(predicting the previous token)",
    hint="Drop the last token from the input (nothing follows it) and the first from the targets (nothing "
         "predicts it).",
    patch=(Edit("lm_loss.logits", SHIFTED_LOGITS, "logits = gpt_forward(tokens[..., 1:], params, n_head)"),
           Edit("lm_loss.return", SHIFTED_TARGETS, "return cross_entropy(logits, tokens[..., :-1])")),
)
ROLLED_TARGETS = Mistake(
    id="gpt_loss_rolled_targets",
    functions=("lm_loss",),
    looks_like="the targets were np.roll(tokens, -1): the last position was scored on the first token, which "
               "wrapped around",
    hint="The last token has no next token. Should its position be scored at all?",
    patch=(Edit("lm_loss.logits", SHIFTED_LOGITS, "logits = gpt_forward(tokens, params, n_head)"),
           Edit("lm_loss.return", SHIFTED_TARGETS, "return cross_entropy(logits, np.roll(tokens, -1, axis=-1))")),
)
NEGATIVE_IDS_WRAP = Mistake(
    id="gpt_negative_ids_wrap",
    functions=("gpt_forward",),
    looks_like="a negative token id was accepted: numpy indexing wrapped it around to the last rows of wte",
    hint="wte[-1] is a valid numpy index, so nothing stops a negative id unless you do.",
    mutant=(Edit("gpt_forward.if_tokens",
                 "tokens.size and (tokens.min() < 0 or tokens.max() >= V)", "tokens.size and tokens.max() >= V"),),
)
MODIFIES_INPUT = modifies_input(
    "gpt", ("gpt_forward", "log_softmax", "cross_entropy", "lm_loss"), "tokens",
    "gpt_forward.embed", "    x = wte[tokens] + wpe[:T]                     # (..., T, d) + (T, d) -> (..., T, d)")
