"""Issue 25: under ``attnkit grade`` a function of the exercise's own module runs in the child as the student wrote
it, when the module's other functions call it, once every check judging it has passed in this run (before that, and
for good when one of them fails, the reference answers those calls): ``grader/proven.py``."""
from collections import defaultdict
from pathlib import Path

import pytest

from grader import curriculum, proven, runner
from grader.calls import Call
from grader.results import Status
from grader.runner import reference_siblings
from grader.sandbox.host import transport
from grader.sandbox.host.inprocess import in_process
from grader.sandbox.host.workspace import Workspace
from tests.sessionkit import run_folder

SOLUTIONS = Path(__file__).resolve().parents[2] / "solutions"


@pytest.fixture
def callbacks(monkeypatch):
    """{check name: [own function the reference answered while it ran]}, in the order the checks ran (``order``)."""
    answered: dict = defaultdict(list)
    order: list[str] = []
    running = [""]
    answer, execute = transport.answer_callback, runner.execute

    def recording_answer(siblings, frame, values, called, own_module=""):
        if frame.get("callback", {}).get("module") == own_module:
            answered[running[0]].append(frame["callback"]["name"])
        return answer(siblings, frame, values, called, own_module)

    def recording_execute(spec, impl, reference=None, hold=True, diagnose=True):
        running[0] = spec.name
        order.append(spec.name)
        return execute(spec, impl, reference, hold, diagnose)

    monkeypatch.setattr(transport, "answer_callback", recording_answer)
    monkeypatch.setattr(runner, "execute", recording_execute)
    answered["order"] = order
    return answered


def judges_of(exercise: str, function: str) -> set[str]:
    specs = runner.discover(exercise)
    return {spec.name for spec, judged in zip(specs, proven.judges(specs, runner._public_functions(exercise)))
            if function in judged}


def test_callers_get_the_students_function_only_after_its_checks_passed(zygote, submission, callbacks):
    graded = run_folder(zygote, submission(), ("attention_backward",), own_siblings=False)[0]
    assert graded.score == graded.max_score
    order, judges = callbacks["order"], judges_of("attention_backward", "softmax_backward")
    proven_at = max(order.index(name) for name in judges)
    before = [name for name in order[:proven_at + 1] if "softmax_backward" in callbacks[name]]
    after = [name for name in order[proven_at + 1:]]
    assert before, "the reference answers softmax_backward until its checks have passed"
    assert after and not any(callbacks[name] for name in after), {name: callbacks[name] for name in after}
    assert {"test_attention_backward_matches_reference", "test_attention_backward_with_mask"} <= set(after)
    assert [check.name for check in graded.checks] == [spec.name for spec in runner.discover("attention_backward")]


def test_a_failing_own_function_is_answered_by_the_reference_for_its_callers(zygote, submission, callbacks):
    source = (submission() / "attention_backward.py").read_text()
    broken = source.replace("return y * (dy - weighted)", "return y * dy", 1)
    assert broken != source
    graded = run_folder(zygote, submission(attention_backward=broken), ("attention_backward",), own_siblings=False)[0]
    value_checks = [check for check in graded.checks if check.name.startswith("test_attention_backward_")
                    and check.name != "test_attention_backward_dtypes"]
    assert value_checks and all(check.status == Status.PASSED for check in value_checks)  # charged once: in its own
    assert all("softmax_backward" in callbacks[check.name] for check in value_checks)


def test_a_child_is_told_at_spawn_what_its_predecessor_was_trusted_with(zygote, submission, callbacks):
    import numpy as np

    rng = np.random.default_rng(0)
    Q, K, V, d_out = (rng.standard_normal((3, 4)) for _ in range(4))
    call = Call("attention_backward", "attention_backward", (Q, K, V, d_out), {})
    with Workspace(submission(), zygote.user) as workspace:
        impl = zygote.implementation(workspace, "attention_backward", siblings=reference_siblings("attention_backward"))
        try:
            impl.call(call)
            asked = len(callbacks[""])
            assert asked > 0  # softmax_backward answered by the reference
            impl.trust_own(["softmax_backward", "softmax", "attention_backward_x"])  # only own functions count
            assert impl._transport.trusted_own == {"softmax_backward"}
            impl.call(call)
            assert len(callbacks[""]) == asked
            impl.measure(call)  # in a new child (a memory measurement's own)
            impl.call(call)
            assert len(callbacks[""]) == asked
        finally:
            impl.close()


def test_a_check_judges_every_own_function_it_calls():
    """The judging checks are read from the checks' source (grader.proven.named); each own function a check calls on
    the reference must be among them, or a function could be trusted before a check that judges it ran."""
    impl = in_process(SOLUTIONS)
    called: list[str] = []
    request = impl._transport.request

    def recording(op, target, *args, **kwargs):
        if op in ("call", "measure") and "name" in target:
            called.append(target["name"])
        return request(op, target, *args, **kwargs)

    impl._transport.request = recording
    for exercise in curriculum.ids():
        functions = runner._public_functions(exercise)
        specs = runner.discover(exercise)
        for spec, judged in zip(specs, proven.judges(specs, functions)):
            called.clear()
            assert runner.execute(spec, impl).status == Status.PASSED, spec.name
            assert set(called) & set(functions) <= judged, (spec.name, set(called) - judged)


def test_a_failed_judge_keeps_a_function_unproven():
    proof = proven.Proof([frozenset({"gelu"}), frozenset({"gelu", "linear"}), frozenset({"linear"})], [0, 1, 2])
    assert proof.ran(0, passed=False) == []
    assert proof.ran(1, passed=True) == []
    assert proof.ran(2, passed=True) == ["linear"]
    assert proof.proven == {"linear"}


def test_callees_judges_run_before_their_callers_checks():
    """layers: the dtype and untouched checks (which judge every function) run before feed_forward's value check,
    so linear and gelu are proven by then; results keep the file's order."""
    specs = runner.discover("layers")
    proof = proven.Proof.of(specs, "layers", runner._public_functions("layers"))
    names = [specs[index].name for index in proof.order]
    assert names.index("test_layers_dtypes") < names.index("test_feed_forward_matches_reference")
    assert names.index("test_layers_leave_inputs_untouched") < names.index("test_feed_forward_matches_reference")
    assert sorted(proof.order) == list(range(len(specs)))
    assert proven.order([frozenset({"b"}), frozenset({"a"})], {"a": frozenset({"b"})}) == [0, 1]
    assert proven.order([frozenset({"a"}), frozenset({"b"})], {"a": frozenset({"b"})}) == [1, 0]
