"""Classic mistakes of backpropagation through a GPT and of AdamW: statistics taken as constants, a missing
inner derivative or 1/N, embedding gradients that overwrite instead of add, the tied head, the causal mask,
Adam's bias correction, eps and second moment, coupled weight decay, in-place updates, the loss's timing."""
from __future__ import annotations

from .anchors import Edit
from .model import Mistake, modifies_input

BACKWARD = ("gpt_backward", "train")
ADAM = ("adam_step", "train")

LN_CONSTANT_STATS = Mistake(
    id="training_layer_norm_constant_stats",
    functions=("layer_norm_backward", *BACKWARD),
    looks_like="dx is dy * gamma / std: the mean and the variance were treated as constants",
    hint="The mean and the variance are computed from the whole row, so every x_j moves them. What do those two "
         "paths add to the gradient of x_i?",
    patch=(Edit("layer_norm_backward.dx", """    dx = rstd * (dxhat - dxhat.mean(axis=-1, keepdims=True)
                 - xhat * (dxhat * xhat).mean(axis=-1, keepdims=True))   # (..., d)""", "    dx = rstd * dxhat"),),
)
LN_PARAMS_SUMMED_OVER_FIRST_AXIS = Mistake(
    id="training_layer_norm_grads_first_axis_only",
    functions=("layer_norm_backward", *BACKWARD),
    looks_like="dgamma and dbeta were summed over axis 0 only: right for (N, d) rows, but a batch of sequences "
               "(B, T, d) leaves a (T, d) array instead of (d,)",
    hint="gamma and beta are shared by every position of every sequence. Over which axes does their gradient "
         "collect?",
    patch=(Edit("layer_norm_backward.dbeta", "dbeta = dy.reshape(-1, d).sum(axis=0)", "dbeta = dy.sum(axis=0)"),
           Edit("layer_norm_backward.dgamma",
                "dgamma = (dy * xhat).reshape(-1, d).sum(axis=0)", "dgamma = (dy * xhat).sum(axis=0)")),
)
GELU_NO_INNER = Mistake(
    id="training_gelu_no_inner_derivative",
    functions=("gelu_backward", *BACKWARD),
    looks_like="the derivative of tanh's argument was taken as the constant sqrt(2/pi), without 1 + 3 * 0.044715 x^2",
    hint="tanh is applied to c (x + 0.044715 x^3). The chain rule multiplies by the derivative of that whole "
         "argument with respect to x.",
    patch=(Edit("gelu_backward.du_dx", "du_dx = c * (1.0 + 3.0 * a * x**2)", "du_dx = c"),),
)
GELU_NO_PRODUCT_RULE = Mistake(
    id="training_gelu_no_product_rule",
    functions=("gelu_backward", *BACKWARD),
    looks_like="gelu'(x) was 0.5 (1 + tanh(u)) alone: the term of the product rule that differentiates tanh is "
               "missing",
    hint="GELU is x times a function of x. How many terms does the derivative of a product have?",
    patch=(Edit("gelu_backward.slope",
                "slope = 0.5 * (1.0 + tanh_u) + 0.5 * x * (1.0 - tanh_u**2) * du_dx", "slope = 0.5 * (1.0 + tanh_u)"),),
)
CE_NOT_AVERAGED = Mistake(
    id="training_cross_entropy_grad_not_averaged",
    functions=("cross_entropy_backward", *BACKWARD),
    looks_like="the gradient is N times too large: softmax - one_hot was not divided by the number of positions",
    hint="The loss is a mean over every position. What does the mean do to each position's gradient?",
    patch=(Edit("cross_entropy_backward.return", "return (probs - one_hot) / n_positions", "return probs - one_hot"),),
)
EMBEDDING_LAST_WRITE_WINS = Mistake(
    id="training_embedding_last_write_wins",
    functions=BACKWARD,
    looks_like="a token that occurs several times got the embedding gradient of only one of its occurrences "
               "(indexed `+=` with repeated indices keeps the last write)",
    hint="With repeated indices, `a[idx] += b` reads every entry once and writes it once. Which numpy function "
         "adds every occurrence?",
    patch=(Edit("gpt_backward.add",
                "np.add.at(dwte, inputs.reshape(-1), dx_rows)", "dwte[inputs.reshape(-1)] += dx_rows"),),
)
TIED_HEAD_FORGOTTEN = Mistake(
    id="training_tied_head_gradient_forgotten",
    functions=BACKWARD,
    looks_like="wte's gradient holds only the embedding's share: the output head, which is the same matrix, added "
               "nothing",
    hint="wte is used twice in the forward pass. Each use contributes a gradient; the parameter gets their sum.",
    patch=(Edit("gpt_backward.dwte",
                "dwte = dlogits.reshape(-1, V).T @ final.reshape(-1, d)",
                "dwte = np.zeros((V, d), dtype=final.dtype)"),),
)
EMBEDDING_FORGOTTEN = Mistake(
    id="training_embedding_gradient_forgotten",
    functions=BACKWARD,
    looks_like="wte's gradient holds only the output head's share: the gradient reaching the embedded tokens was "
               "dropped",
    hint="wte is used twice in the forward pass: once to look up the input tokens, once as the output head.",
    patch=(Edit("gpt_backward.add", "np.add.at(dwte, inputs.reshape(-1), dx_rows)", "pass"),),
)
ATTENTION_NO_MASK = Mistake(
    id="training_attention_backward_unmasked",
    functions=BACKWARD,
    looks_like="the attention gradients were computed as if every query saw every key: the causal mask was left "
               "out of the backward pass",
    hint="The backward pass must run through the same weights as the forward pass, future keys at 0 included.",
    patch=(Edit("gpt_backward.dq",
                "(Q, K, Vh, split_heads(dmerged, n_head), mask)", "(Q, K, Vh, split_heads(dmerged, n_head))"),),
)
HEADS_MERGED_WRONG = Mistake(
    id="training_heads_merged_in_another_order",
    functions=BACKWARD,
    looks_like="the gradients of q, k and v were put back with the head axis flattened in another order than the "
               "forward pass split it",
    hint="The forward pass split each of q, k, v into heads in one order. Undo exactly that order: tokens before "
         "heads, then heads side by side.",
    patch=(Edit("gpt_backward.dqkv", "merge_heads(g) for g in (dQ, dK, dV)",
            "g.reshape(*g.shape[:-3], g.shape[-2], -1) for g in (dQ, dK, dV)"),),
)
ADAM_NO_BIAS_CORRECTION = Mistake(
    id="training_adam_no_bias_correction",
    functions=ADAM,
    looks_like="the first steps are far too small: m and v were used without dividing by 1 - beta^t",
    hint="m and v start at zero, so early on they underestimate the gradient's moments. What corrects that?",
    patch=(Edit("adam_step.correction_1",
                "correction_1, correction_2 = 1.0 - b1**t, 1.0 - b2**t", "correction_1, correction_2 = 1.0, 1.0"),),
)
ADAM_T_FROM_ZERO = Mistake(
    id="training_adam_step_count_from_zero",
    functions=ADAM,
    looks_like="the bias correction used t - 1: the first step counted as t = 0, where 1 - beta^0 = 0",
    hint="How many updates has the optimiser made when it applies its very first one?",
    patch=(Edit("adam_step.correction_1", "correction_1, correction_2 = 1.0 - b1**t, 1.0 - b2**t",
            "correction_1, correction_2 = 1.0 - b1**(t - 1), 1.0 - b2**(t - 1)"),),
)
ADAM_EPS_INSIDE_SQRT = Mistake(
    id="training_adam_eps_inside_sqrt",
    functions=ADAM,
    looks_like="eps was added to v_hat under the square root instead of to sqrt(v_hat)",
    hint="Compare where eps sits in AdamW's update with where you put it: inside or outside the root?",
    patch=(Edit("adam_step.denominator", "denominator = np.sqrt(v) / math.sqrt(correction_2) + eps",
            "denominator = np.sqrt(v / correction_2 + eps)"),),
)
ADAM_V_OF_G = Mistake(
    id="training_adam_second_moment_of_g",
    functions=ADAM,
    looks_like="v accumulated the gradient itself instead of its square (and a negative v gave NaN)",
    hint="v estimates the second moment of the gradient. What quantity is averaged for a second moment?",
    patch=(Edit("adam_step.v", "v = b2 * v + (1.0 - b2) * (g * g)", "v = b2 * v + (1.0 - b2) * g"),),
)
ADAM_COUPLED_DECAY = Mistake(
    id="training_adam_l2_not_decoupled",
    functions=ADAM,
    looks_like="weight decay was added to the gradient (Adam with L2, as torch.optim.Adam does) instead of shrinking "
               "the weights apart from Adam's step (AdamW)",
    hint="In AdamW the decay does not pass through m and v. Where is it applied, then?",
    patch=(Edit("adam_step.g",
                "g = g.astype(m.dtype, copy=False)", "g = g.astype(m.dtype, copy=False) + weight_decay * p"),
           Edit("adam_step.new_p", "new_p.append((p * (1.0 - lr * weight_decay) - step)", "new_p.append((p - step)")),
)
LOSS_AFTER_STEP = Mistake(
    id="training_loss_recorded_after_step",
    functions=("train",),
    looks_like="every loss is one step late: it was measured after the update, so losses[0] is not the loss of "
               "the params passed in",
    hint="losses[i] is the loss the gradient of step i was computed from.",
    patch=(Edit("train.losses",
                """        losses[step], grads = gpt_backward(tokens, params, n_head)   # the loss before this step
        params, state = adam_step(params, grads, state, lr, betas, eps, weight_decay)""",
            """        _, grads = gpt_backward(tokens, params, n_head)
        params, state = adam_step(params, grads, state, lr, betas, eps, weight_decay)
        losses[step] = gpt_backward(tokens, params, n_head)[0]"""),),
)
UPDATES_IN_PLACE = Mistake(
    id="training_adam_updates_in_place",
    functions=ADAM,
    looks_like="the caller's parameter arrays were overwritten: the update was written into them (`p -= ...`)",
    hint="The caller may still hold the old parameters (to compare, to retry a step). Build new arrays instead of "
         "writing into the ones you were given.",
    mutant=(Edit("adam_step.new_p",
                 "        new_p.append((p * (1.0 - lr * weight_decay) - step).astype(p.dtype, copy=False))",
             "        p *= 1.0 - lr * weight_decay\n        p -= step.astype(p.dtype)\n        new_p.append(p)"),),
)
MODIFIES_INPUT = modifies_input("training", ("layer_norm_backward", "gpt_backward"), "dy",
                                "layer_norm_backward.dxhat", "    dxhat = dy * gamma")
