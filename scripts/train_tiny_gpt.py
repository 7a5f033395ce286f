"""Train the tiny character-level GPT-2 the kit ships (grader/tiny_gpt.npz and its card grader/tiny_gpt.json).

The text is the project's own: windows of its quiz explanations and exercise hints that start at the word
"attention", lower-cased, every other character folded to a space. The weights start from GPT-2's initialisation
(seeded) and are trained full-batch by the reference ``solutions.training.train`` (AdamW), in float64 with one BLAS
thread, then stored as float32 under GPT-2's dotted names. The card records the seed, the settings, the text, the
loss before every step, the training time, a greedy sample and the digest of the weights.

    python scripts/train_tiny_gpt.py            # train and write both files
    python scripts/train_tiny_gpt.py --verify   # train again from the card's text and settings; compare bit for bit
    python scripts/train_tiny_gpt.py --verify --steps 2   # only the first 2 steps: their losses, bit for bit
"""
from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")   # one summation order: the same bits on every run
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")

import argparse  # noqa: E402
import json  # noqa: E402
import math  # noqa: E402
import re  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
import yaml  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from grader import tiny_gpt  # noqa: E402
from solutions.sampling import generate  # noqa: E402
from solutions.training import train  # noqa: E402

SETTINGS = {"seed": 2019, "n_layer": 2, "d": 64, "n_head": 4, "n_ctx": 48, "rows": 24, "n_steps": 300, "lr": 0.01,
            "betas": [0.9, 0.99], "eps": 1e-8, "weight_decay": 0.0, "init_std": 0.02}
VOCABULARY = " ',.0123456789abcdefghijklmnopqrstuvwxyz"
PROMPT, SAMPLE = "attention ", 38


def project_text() -> str:
    """The quiz explanations and the exercises' hints, lower-cased, characters outside the vocabulary as spaces."""
    texts = []
    for bank in sorted((REPO / "quizzes").glob("*.yaml")):
        texts += [q.get("explanation", "") for q in yaml.safe_load(bank.read_text(encoding="utf-8"))["questions"]]
    curriculum = yaml.safe_load((REPO / "grader" / "curriculum.yaml").read_text(encoding="utf-8"))
    texts += [hint for exercise in curriculum["exercises"] for task in exercise["tasks"] for hint in task["hints"]]
    folded = re.sub(f"[^{re.escape(VOCABULARY)}]", " ", " ".join(texts).lower())
    return re.sub(" +", " ", folded)


def training_rows(text: str, rows: int, width: int) -> list[str]:
    """``rows`` windows of ``width`` characters starting at "attention", spread evenly over its occurrences."""
    starts = [m.start() for m in re.finditer(r"\battention ", text) if m.start() + width <= len(text)]
    if len(starts) < rows:
        raise SystemExit(f"the project's text has {len(starts)} windows starting at 'attention'; {rows} needed")
    return [text[starts[i * len(starts) // rows]:][:width] for i in range(rows)]


def initial_params(settings: dict, vocab: int) -> dict:
    """GPT-2's initialisation: N(0, std^2) weights (the residual projections scaled by 1/sqrt(2 n_layer)), zero biases,
    LayerNorm gains 1 and shifts 0."""
    rng = np.random.default_rng(settings["seed"])
    d, std = settings["d"], settings["init_std"]
    projection = std / math.sqrt(2 * settings["n_layer"])

    def linear(d_in, d_out, scale=std):
        return {"weight": rng.normal(0.0, scale, (d_in, d_out)), "bias": np.zeros(d_out)}

    def norm():
        return {"weight": np.ones(d), "bias": np.zeros(d)}

    return {"wte": {"weight": rng.normal(0.0, std, (vocab, d))},
            "wpe": {"weight": rng.normal(0.0, std / 2, (settings["n_ctx"], d))},
            "h": [{"ln_1": norm(), "attn": {"c_attn": linear(d, 3 * d), "c_proj": linear(d, d, projection)},
                   "ln_2": norm(), "mlp": {"c_fc": linear(d, 4 * d), "c_proj": linear(4 * d, d, projection)}}
                  for _ in range(settings["n_layer"])],
            "ln_f": norm()}


def run(settings: dict, rows: list[str], n_steps: int | None = None) -> tuple[dict, np.ndarray, float]:
    """(trained float64 params, losses, seconds): ``n_steps`` (default: the settings') steps of the reference train."""
    tokens = np.array([[VOCABULARY.index(c) for c in row] for row in rows], dtype=np.int64)   # (rows, n_ctx)
    params = initial_params(settings, len(VOCABULARY))
    start = time.perf_counter()
    trained, losses = train(tokens, params, settings["n_head"], settings["n_steps"] if n_steps is None else n_steps,
                            lr=settings["lr"], betas=tuple(settings["betas"]), eps=settings["eps"],
                            weight_decay=settings["weight_decay"])
    return trained, losses, time.perf_counter() - start


def stored(params: dict) -> dict:
    """The weights as shipped: float32."""
    return tiny_gpt.tree_from_dotted({k: v.astype(np.float32) for k, v in tiny_gpt.dotted_from_tree(params).items()})


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--verify", action="store_true", help="retrain from the card and compare with the weights")
    parser.add_argument("--steps", type=int, metavar="N", help="with --verify: only the first N steps' losses")
    parser.add_argument("--out", type=Path, default=tiny_gpt.HERE, help="folder for tiny_gpt.npz and tiny_gpt.json")
    args = parser.parse_args(argv)
    if args.verify:
        card = json.loads(tiny_gpt.CARD.read_text(encoding="utf-8"))
        trained, losses, seconds = run(card["settings"], card["text"], args.steps)
        same_losses = losses.tolist() == card["losses"][:len(losses)]
        if args.steps is not None:
            print(f"{len(losses)} steps in {seconds:.1f} s: losses {'identical' if same_losses else 'DIFFERENT'}")
            return 0 if same_losses else 1
        same = tiny_gpt.digest(stored(trained)) == card["digest"] == tiny_gpt.digest(tiny_gpt.load(np.float32).params)
        print(f"retrained in {seconds:.0f} s: weights {'identical' if same else 'DIFFERENT'} bit for bit; "
              f"losses {'identical' if same_losses else 'DIFFERENT'}")
        return 0 if same and same_losses else 1
    rows = training_rows(project_text(), SETTINGS["rows"], SETTINGS["n_ctx"])
    trained, losses, seconds = run(SETTINGS, rows)
    weights = stored(trained)
    model = tiny_gpt.TinyGPT(weights, SETTINGS["n_head"], VOCABULARY, {})
    sample = generate(model.encode(PROMPT), weights, SETTINGS["n_head"], SAMPLE)
    args.out.mkdir(parents=True, exist_ok=True)
    np.savez(args.out / "tiny_gpt.npz", **tiny_gpt.dotted_from_tree(weights))
    card = {"about": "A 2-layer character-level GPT-2 trained on the project's own quiz explanations and hints by "
                     "scripts/train_tiny_gpt.py with the reference train (AdamW, full batch, float64, one BLAS "
                     "thread), stored as float32 under GPT-2's dotted names.",
            "n_head": SETTINGS["n_head"], "vocabulary": VOCABULARY, "settings": SETTINGS,
            "parameters": int(sum(a.size for a in tiny_gpt.dotted_from_tree(weights).values())),
            "seconds": round(seconds, 1), "digest": tiny_gpt.digest(weights), "prompt": PROMPT,
            "greedy_sample": model.decode(sample), "losses": losses.tolist(), "text": rows}
    (args.out / "tiny_gpt.json").write_text(json.dumps(card, indent=1) + "\n", encoding="utf-8")
    print(f"trained in {seconds:.0f} s: loss {losses[0]:.3f} -> {losses[-1]:.3f}; greedy: {card['greedy_sample']!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
