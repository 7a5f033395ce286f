"""The reference's results kept between ``attnkit check`` runs in the checkout (``grader.kept_results``): read back
exactly as computed, only for the reference they were computed with, never from a damaged file."""
import io
import re

import numpy as np
import pytest

from grader import kept_results, reference
from grader.calls import Call
from grader.memo import MISSING


@pytest.fixture
def sources(tmp_path):
    """A reference of two modules in a folder of its own."""
    folder = tmp_path / "ref"
    folder.mkdir()
    for name in ("alpha", "beta"):
        (folder / f"{name}.py").write_text(f"# {name}\n")
    return {"alpha": folder / "alpha.py", "beta": folder / "beta.py"}


def run(sources, call, function):
    """One run's answer to ``call``: a fresh cache that reads and keeps results in ``sources``' folder."""
    cache = reference.ResultCache()
    cache.enabled, cache.kept = False, kept_results.Kept(sources)
    answer = cache.call(call, function)
    cache.kept.save()
    return answer


def counting(result):
    made = []

    def function(*args, **kwargs):
        made.append(1)
        return result

    return function, made


TREE = {"w": np.arange(6, dtype=np.float32).reshape(2, 3), "n": np.float32(1.5), "loss": 0.1 + 0.2, "steps": 3,
        "flag": True, "name": "gelu", "none": None, "pair": (np.int64(7), [np.zeros((0, 4)), np.array(2.5)]),
        "mask": np.tri(3, dtype=bool), "big": 2**70}


def same(a, b):
    assert type(a) is type(b), (a, b)
    if isinstance(a, np.ndarray):
        assert a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()
    elif isinstance(a, dict):
        assert list(a) == list(b)
        for key in a:
            same(a[key], b[key])
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b)
        for x, y in zip(a, b):
            same(x, y)
    elif isinstance(a, np.generic):
        assert a.dtype == b.dtype and a.tobytes() == b.tobytes()
    else:
        assert a == b


def test_a_later_run_reads_the_result_back_exactly_without_computing(sources):
    call = Call("alpha", "step", (np.ones(3),), {"scale": 2.0})
    function, made = counting(TREE)
    first = run(sources, call, function)
    second = run(sources, Call("alpha", "step", (np.ones(3),), {"scale": 2.0}), function)
    assert len(made) == 1
    same(first, TREE)
    same(second, TREE)     # types kept: float32 scalars, tuples and lists, Python ints past 64 bits, the dict's order
    assert not second["w"].flags.writeable and not second["pair"][1][0].flags.writeable
    third = run(sources, call, function)
    assert third["pair"][1] is not second["pair"][1]   # a check may change its own lists and dicts


def test_another_call_or_another_module_is_not_answered(sources):
    function, made = counting(np.ones(2))
    run(sources, Call("alpha", "f", (1.0,), {}), function)
    run(sources, Call("alpha", "f", (2.0,), {}), function)
    run(sources, Call("beta", "f", (1.0,), {}), function)
    assert len(made) == 3
    run(sources, Call("alpha", "f", (2.0,), {}), function)   # both alpha calls kept: a run adds to the file
    assert len(made) == 3


def test_a_changed_reference_file_is_another_tag_and_its_old_results_go(sources):
    function, made = counting(np.ones(2))
    call = Call("alpha", "f", (1.0,), {})
    run(sources, call, function)
    old = list(sources["alpha"].parent.glob("__pycache__/alpha.results.*.bin"))
    assert len(old) == 1
    sources["beta"].write_text("# beta, edited: alpha may import it\n")
    run(sources, call, function)
    assert len(made) == 2
    new = list(sources["alpha"].parent.glob("__pycache__/alpha.results.*.bin"))
    assert len(new) == 1 and new != old


@pytest.mark.parametrize("damage", ["truncated", "magic", "header", "past the end", "object dtype", "tag"])
def test_a_damaged_file_is_ignored_and_the_answer_computed(sources, damage):
    function, made = counting(np.arange(4.0))
    call = Call("alpha", "f", (1.0,), {})
    run(sources, call, function)
    path = kept_results.Kept(sources).path("alpha")
    data = path.read_bytes()
    if damage == "truncated":
        data = data[:-8]
    elif damage == "magic":
        data = b"x" + data[1:]
    elif damage == "header":
        data = data.replace(b'"calls"', b'"callz"')
    elif damage == "past the end":
        data = re.sub(rb'\[4\],0\]', b'[4000],0]', data)
    elif damage == "object dtype":
        data = data.replace(b'"<f8"', b'"|O" ')
    else:
        data = data.replace(b'"tag":"', b'"tag":"0')
    path.write_bytes(data)
    assert kept_results.Kept(sources).get("alpha", call.digest) is MISSING
    same(run(sources, call, function), np.arange(4.0))
    assert len(made) == 2


def drawing():
    """A function that draws from the generator it is handed (as the reference's ``generate`` does), and its runs."""
    made = []

    def function(logits, rng, temperature=1.0):
        made.append(1)
        return logits + rng.standard_normal(logits.shape) * temperature

    return function, made


def test_a_call_handed_a_generator_is_kept_by_its_state_and_moves_it_on_as_computing_would(sources):
    function, made = drawing()
    computed_rng, kept_rng = np.random.default_rng(7), np.random.default_rng(7)
    computed = run(sources, Call("alpha", "f", (np.zeros(3), computed_rng), {"temperature": 0.5}), function)
    answered = run(sources, Call("alpha", "f", (np.zeros(3), kept_rng), {"temperature": 0.5}), function)
    assert len(made) == 1   # the second run read the answer the first kept
    same(answered, computed)
    assert kept_rng.bit_generator.state == computed_rng.bit_generator.state
    assert kept_rng.random() == computed_rng.random()   # the caller's next draw is the one it would have been
    # the same generator where it is now (a state never seen), another seed, other arguments: computed
    run(sources, Call("alpha", "f", (np.zeros(3), kept_rng), {"temperature": 0.5}), function)
    run(sources, Call("alpha", "f", (np.zeros(3), np.random.default_rng(8)), {"temperature": 0.5}), function)
    run(sources, Call("alpha", "f", (np.zeros(3), np.random.default_rng(7)), {"temperature": 0.6}), function)
    assert len(made) == 4


def test_the_class_memo_answers_a_seeded_call_once_per_state():
    """``attnkit grade``'s memo (no file): a class's students hand the reference the same seeded generator."""
    function, made = drawing()
    cache = reference.ResultCache()
    answers, generators = [], []
    for _ in range(3):
        rng = np.random.default_rng(3)
        answers.append(cache.call(Call("alpha", "f", (np.ones(2), rng), {}), function))
        generators.append(rng)
    assert len(made) == 1
    for answer, rng in zip(answers[1:], generators[1:]):
        same(answer, answers[0])
        assert rng.bit_generator.state == generators[0].bit_generator.state


def test_results_without_a_canonical_form_and_calls_without_a_digest_are_not_kept(sources):
    # a generator inside a list, or another object: no digest, and its state is not part of any key
    listed, listed_made = counting(np.ones(2))
    run(sources, Call("alpha", "g", ([np.random.default_rng(0)],), {}), listed)
    run(sources, Call("alpha", "g", ([np.random.default_rng(0)],), {}), listed)
    held, held_made = counting(np.ones(2))
    run(sources, Call("alpha", "h", (object(),), {}), held)
    run(sources, Call("alpha", "h", (object(),), {}), held)
    assert len(listed_made) == 2 and len(held_made) == 2
    kept = kept_results.Kept(sources)
    kept.add("alpha", b"\x01" * 32, {"x": object()})
    kept.add("alpha", b"\x02" * 32, complex(1, 2))
    kept.save()
    assert not kept.path("alpha").exists()


def test_an_unwritable_folder_only_costs_the_computing(sources):
    cache_folder = sources["alpha"].parent / "__pycache__"
    cache_folder.write_text("a file where the folder would be")
    function, made = counting(np.ones(2))
    for _ in range(2):
        run(sources, Call("alpha", "f", (1.0,), {}), function)
    assert len(made) == 2


def test_attnkit_check_reads_what_an_earlier_run_kept_and_reports_the_same(monkeypatch):
    """Two runs of ``attnkit check`` on the reference: the second computes nothing anew and reports the same verdicts
    and messages."""
    from attnkit.check import main

    added, found = [], []
    add, get = kept_results.Kept.add, kept_results.Kept.get

    def spied_add(self, module, key, result):
        added.append(module)
        add(self, module, key, result)

    def spied_get(self, module, key):
        answer = get(self, module, key)
        found.append(answer is not MISSING)
        return answer

    def report():
        out = io.StringIO()
        assert main(["softmax", "attention"], impl="solutions", out=out) == 0
        return re.sub(r"\(\d+\.\d+ s\)", "(s)", out.getvalue())

    first = report()
    monkeypatch.setattr(kept_results.Kept, "add", spied_add)
    monkeypatch.setattr(kept_results.Kept, "get", spied_get)
    second = report()
    assert first == second
    assert not added and len(found) > 20 and all(found)
    assert reference.cache().kept is None   # kept results are read only while a check runs
