"""Under ``attnkit grade`` training is graded on its own code: what its gpt_backward and train call of layers,
multihead, attention, masking, gpt and attention_backward is answered by the reference, so broken earlier exercises
cost nothing in training, and a broken training costs points in training only."""
from grader.mistakes import all_mistakes
from grader.mistakes.model import apply
from tests.sessionkit import run_folder

BROKEN = {"layers": ("layer_norm_batch_axis",), "gpt": ("gpt_loss_summed", "gpt_no_final_layer_norm"),
          "attention_backward": ("backward_no_scale",)}
EARLIER = ("layers", "gpt", "attention_backward")


def broken(submission, modules: dict):
    folder = submission()
    for module, mistake_ids in modules.items():
        path = folder / f"{module}.py"
        text = path.read_text()
        for mistake_id in mistake_ids:
            text = apply(text, all_mistakes()[mistake_id].mutant_patch)
        path.write_text(text)
    return folder


def test_broken_earlier_exercises_cost_nothing_in_training(zygote, submission):
    graded = {r.exercise: r for r in run_folder(zygote, broken(submission, BROKEN), (*EARLIER, "training"),
                                                    own_siblings=False)}
    for exercise in EARLIER:
        assert graded[exercise].score < graded[exercise].max_score, exercise
    training = graded["training"]
    assert training.score == training.max_score, training.first_failure
    assert set(EARLIER) <= training.reference_siblings


def test_a_broken_training_costs_points_in_training_only(zygote, submission):
    folder = broken(submission, {"training": ("training_embedding_last_write_wins",)})
    graded = {r.exercise: r for r in run_folder(zygote, folder, ("gpt", "training"), own_siblings=False)}
    assert graded["gpt"].score == graded["gpt"].max_score
    assert graded["training"].score < graded["training"].max_score
