"""Record/replay: canonical call keys, the store, near matches, and the build-time detector of checks
that feed the student's results to ``ref``."""
from __future__ import annotations

import numpy as np
import pytest

from attnkit.release.record import Recorder, record
from attnkit.release.recording import FORMAT, INDEX_NAME, REDOWNLOAD, RecordingUnreadable, Store
from attnkit.release.replay import MISS, Replay, ReplayMiss, token
from attnkit.release.verify import verify
from grader.calls import Call, decode
from grader.checks.marks import check
from grader.compare import CheckFailed, expect_close
from grader.diagnosis import Session, mistaken_reference
from grader.interfaces import ReferenceKind
from grader.mistakes import softmax as softmax_mistakes
from grader.reference import reference
from grader.runner import CheckSpec, seed_for
from grader.sandbox.host.inprocess import InProcessTransport, in_process, trusted_runtime
from tests.release.releasekit import SOLUTIONS


def call_key(space, module, function, args, kwargs, arrays=None):
    return Call(module, function, args, kwargs).identity(space, arrays, token)


def key(*args, **kwargs):
    return call_key("ref", "softmax", "softmax", args, kwargs)[0]


def test_keys_are_canonical():
    x = np.arange(6.0).reshape(2, 3)
    assert key(x, axis=0) == key(x.copy(), axis=0) == key(np.asfortranarray(x), axis=0)
    assert key(x, axis=0) != key(x, axis=1) != key(x)
    assert key(x) != key(x.astype(np.float32)) != key(x.reshape(3, 2))
    assert key([1.0, 2.0]) != key((1.0, 2.0)) != key(np.array([1.0, 2.0]))
    assert key(0.0) != key(-0.0) and key(1) != key(1.0) != key(True)
    assert call_key("ref", "a", "f", (), {"p": 1, "q": 2})[0] == call_key("ref", "a", "f", (), {"q": 2, "p": 1})[0]
    changed = x.copy()
    changed[1, 2] = np.nextafter(changed[1, 2], 10)
    assert key(changed) != key(x)


def store_of(recorder: Recorder, tmp_path) -> Store:
    Store.write(tmp_path, recorder.index(), recorder.arrays)
    return Store.load(tmp_path)


def test_store_round_trip_through_files(tmp_path):
    recorder = Recorder()
    values = (np.ones((2, 3), np.float32), [None, 1.5, -np.inf, "s", True], np.float64(2.5), {"k": np.arange(3)})
    k, tree, inputs = recorder.key("ref", Call("m", "f", (np.zeros(2),), {}))
    recorder.add(k, tree, inputs, {"kind": "value", "value": recorder.node(values)})
    store = store_of(recorder, tmp_path)
    got = decode(store.calls("m")[k]["value"], store.fetch)
    assert got[0].dtype == np.float32 and np.array_equal(got[0], values[0])
    assert got[1] == [None, 1.5, -np.inf, "s", True] and type(got[2]) is np.float64 and got[2] == 2.5
    assert np.array_equal(got[3]["k"], np.arange(3))
    got[0][0, 0] = 7  # a fresh copy each time: the recording cannot be changed by a check
    assert decode(store.calls("m")[k]["value"], store.fetch)[0][0, 0] == 1


def test_near_matches_only_when_not_strict(tmp_path):
    recorder = Recorder()
    x = np.linspace(-2, 2, 12).reshape(3, 4)
    k, tree, inputs = recorder.key("ref", Call("softmax", "softmax", (x,), {"axis": 0}))
    recorder.add(k, tree, inputs, {"kind": "value", "value": recorder.node(np.full((3, 4), 0.25))})
    store = store_of(recorder, tmp_path)
    last_bit = x.copy()
    last_bit[0, 1] = np.nextafter(last_bit[0, 1], 5)  # a matrix product on another CPU
    assert np.array_equal(Replay(store).reference().softmax.softmax(last_bit, axis=0), np.full((3, 4), 0.25))
    with pytest.raises(ReplayMiss):
        Replay(store, strict=True).reference().softmax.softmax(last_bit, axis=0)
    replay = Replay(store)
    with pytest.raises(ReplayMiss) as miss:
        replay.reference().softmax.softmax(x + 0.1, axis=0)
    assert str(miss.value) == MISS.format(call="softmax.softmax(array (3, 4) float64, axis=0)", numpy=np.__version__)
    assert replay.misses == ["ref: softmax.softmax(array (3, 4) float64, axis=0)"]


@check(points=1)
def feeds_the_students_result_to_ref(impl, ref, rng):
    """a check written the wrong way: ref sees a value computed from the student's answer"""
    x = rng.standard_normal((3, 4))
    got = impl.softmax.softmax(x)
    expect_close(ref.softmax.softmax(got * 2), ref.softmax.softmax(got * 2), call="softmax")


@check(points=1)
def diagnoses_from_inputs_only(impl, ref, rng):
    """a check written the right way"""
    x = rng.standard_normal((3, 4))
    expect_close(impl.softmax.softmax(x), ref.softmax.softmax(x), call="softmax")


def spec(function) -> CheckSpec:
    return CheckSpec("softmax", function.__name__, function.__doc__, 1, 1.0, "visible", function,
                     ("impl", "ref", "rng"))


def test_the_build_detects_a_check_that_feeds_student_values_to_ref():
    specs = [spec(feeds_the_students_result_to_ref), spec(diagnoses_from_inputs_only)]
    recorder, outcomes = record(lambda e: in_process(SOLUTIONS, e), reference(), specs)
    assert [o.status for o in outcomes] == ["passed", "passed"]
    replay = Replay(Store.in_memory(recorder.index(), recorder.arrays), strict=True)
    verdict = verify(replay, lambda e: InProcessTransport(trusted_runtime(SOLUTIONS), e), specs)
    assert not verdict.failures
    assert list(verdict.misses) == ["softmax.feeds_the_students_result_to_ref"]
    assert verdict.misses["softmax.feeds_the_students_result_to_ref"][0].startswith("ref: softmax.softmax(")


@check(points=1)
def softmax_over_columns(impl, ref, rng):
    """a check whose reference call recording also records every softmax mistake's output"""
    x = rng.standard_normal((3, 4))
    expect_close(impl.softmax.softmax(x, axis=0), ref.softmax.softmax(x, axis=0), call="softmax")


def test_replayed_mistakes_diagnose_like_the_real_ones(tmp_path):
    recorder, outcomes = record(lambda e: in_process(SOLUTIONS, e), reference(), [spec(softmax_over_columns)])
    assert outcomes[0].status == "passed"
    replay = Replay(store_of(recorder, tmp_path))
    x = np.random.default_rng(seed_for("softmax", "softmax_over_columns")).standard_normal((3, 4))
    real, replayed = Session(reference()), Session(replay.reference())
    for session in (real, replayed):
        session.ref.softmax.softmax(x, axis=0)
        assert session.diagnose(CheckFailed("m", got=np.zeros((3, 4)), expected=session.calls[0].result)) is None
    for mistake in softmax_mistakes.WRONG_AXIS, softmax_mistakes.GLOBAL_SUM:
        got = mistaken_reference(mistake.id)["softmax"].softmax(x, axis=0)
        for session in (real, replayed):
            assert session.diagnose(CheckFailed("m", got=got, expected=session.calls[0].result)) == mistake
    with pytest.raises(ReplayMiss):
        Session(replay.reference()).ref.softmax.softmax(x + 1.0, axis=0)




def test_a_replayed_reference_reads_mistakes_only_to_diagnose(tmp_path, monkeypatch):
    """The replay answers ``ref`` calls; a mistake's recorded output is read only when a comparison fails.
    (``ref.records_mistakes``, before a reference declared its kind, once read as a module of that name, which is
    true: every reference call of a passing check then decoded every mistake's output, a third of the release's check
    time.)"""
    recorder, _ = record(lambda e: in_process(SOLUTIONS, e), reference(), [spec(softmax_over_columns)])
    replay = Replay(store_of(recorder, tmp_path))
    read: list[str] = []
    real_mistaken = Replay.mistaken
    monkeypatch.setattr(Replay, "mistaken", lambda self, mistake_id, key: read.append(mistake_id)
                        or real_mistaken(self, mistake_id, key))
    assert replay.reference().kind is ReferenceKind.REPLAYING
    x = np.random.default_rng(seed_for("softmax", "softmax_over_columns")).standard_normal((3, 4))
    session = Session(replay.reference())
    session.ref.softmax.softmax(x, axis=0)
    assert read == []
    got = mistaken_reference(softmax_mistakes.WRONG_AXIS.id)["softmax"].softmax(x, axis=0)
    assert session.diagnose(CheckFailed("m", got=got, expected=session.calls[0].result)) == softmax_mistakes.WRONG_AXIS
    assert read  # the diagnosis read the recorded outputs it compared with


def test_the_arrays_file_is_read_once_and_only_when_needed(tmp_path, monkeypatch):
    """A module's index is read at its first lookup, the arrays' file at the first array, the arguments kept for near
    matches at the first call not recorded exactly: checking one exercise reads what its checks ask for."""
    recorder = Recorder()
    for module, value in (("softmax", np.arange(6.0).reshape(2, 3)), ("masking", np.ones(3, np.float32))):
        k, tree, inputs = recorder.key("ref", Call(module, "f", (np.zeros(2),), {}))
        recorder.add(k, tree, inputs, {"kind": "value", "value": recorder.node(value)})
    wrong = recorder.key("mistakes", Call("softmax", "wrong_axis", (), {}))
    recorder.add(*wrong, {"kind": "value", "value": recorder.node(np.zeros(3))})
    Store.write(tmp_path, recorder.index(), recorder.arrays)
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "mistakes-softmax.json", "near-masking.json", "near-softmax.json", "reference-masking.json",
        "reference-softmax.json", "reference.bin", "reference.json"]
    opened: list[str] = []
    path = type(tmp_path)
    real_bytes, real_text = path.read_bytes, path.read_text
    monkeypatch.setattr(path, "read_bytes", lambda self: opened.append(self.name) or real_bytes(self))
    monkeypatch.setattr(path, "read_text", lambda self, **kw: opened.append(self.name) or real_text(self, **kw))
    store = Store.load(tmp_path)
    assert opened == ["reference.json"]
    (result,) = store.calls("softmax").values()
    assert opened == ["reference.json", "reference-softmax.json"]
    fetched = decode(result["value"], store.fetch)
    assert fetched.tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]] and fetched.flags.writeable
    assert opened == ["reference.json", "reference-softmax.json", "reference.bin"]
    assert store.calls("gqa") == {} and store.mistakes("masking") == {}
    assert list(store.mistakes("softmax")) == [wrong[0]]   # the mistakes' outputs: read when a diagnosis asks
    assert opened == ["reference.json", "reference-softmax.json", "reference.bin", "mistakes-softmax.json"]
    replay = Replay(store)
    replay.reference().softmax.f(np.zeros(2))
    assert opened[-1] == "mistakes-softmax.json"   # recorded exactly: no near calls read
    last_bit = np.zeros(2)
    last_bit[1] = np.nextafter(0, 1)
    assert replay.reference().softmax.f(last_bit).tolist() == fetched.tolist()
    assert opened[-1] == "near-softmax.json"


@check(points=1)
def decodes_with_a_cache(impl, ref, rng):
    """a check whose reference calls involve an object the reference returned (the KV cache's history)"""
    w = [rng.standard_normal((4, 4)) for _ in range(3)]
    caches = impl.kv_cache.KVCache(), ref.kv_cache.KVCache()
    for x_t in rng.standard_normal((3, 4)):
        expect_close(impl.kv_cache.decode_step(x_t, *w, caches[0]), ref.kv_cache.decode_step(x_t, *w, caches[1]),
                     call="decode_step")


def test_a_call_with_an_object_replays_by_its_history(tmp_path):
    """A call that involves an object has no digest: it is recorded and found by its identity tree, the object's
    history in it; the same calls in another order are other calls."""
    kv = CheckSpec("kv_cache", "decodes_with_a_cache", "", 1, 1.0, "visible", decodes_with_a_cache,
                   ("impl", "ref", "rng"))
    recorder, outcomes = record(lambda e: in_process(SOLUTIONS, e), reference(), [kv])
    assert outcomes[0].status == "passed"
    stateful = [entry for entry in recorder.calls.values() if entry["function"] == "decode_step"]
    assert len(stateful) == 3 and all(entry["near"]["args"][3]["items"][4]["t"] == "object" for entry in stateful)
    replay = Replay(store_of(recorder, tmp_path), strict=True)
    verdict = verify(replay, lambda e: InProcessTransport(trusted_runtime(SOLUTIONS), e), [kv])
    assert verdict.ok and not verdict.nudged_failures
    rng = np.random.default_rng(seed_for("kv_cache", "decodes_with_a_cache"))
    w = [rng.standard_normal((4, 4)) for _ in range(3)]
    steps = rng.standard_normal((3, 4))
    ref = replay.reference()
    cache = ref.kv_cache.KVCache()
    ref.kv_cache.decode_step(steps[0], *w, cache)
    with pytest.raises(ReplayMiss):   # the third step's arguments after the first: another history
        ref.kv_cache.decode_step(steps[2], *w, cache)
    with pytest.raises(ReplayMiss):
        ref.kv_cache.decode_step(steps[1], *w, ref.kv_cache.KVCache())


def test_a_recorded_call_is_found_without_building_its_tree(tmp_path, monkeypatch):
    """A lookup is a digest of the arguments and a dictionary access; the call's tree (every argument encoded) is
    built only for a call not recorded exactly: for the near match and the message."""
    recorder = Recorder()
    x = np.linspace(-2, 2, 12).reshape(3, 4)
    k, tree, inputs = recorder.key("ref", Call("softmax", "softmax", (x,), {"axis": 0}))
    recorder.add(k, tree, inputs, {"kind": "value", "value": recorder.node(np.full((3, 4), 0.25))})
    replay = Replay(store_of(recorder, tmp_path))
    built: list[str] = []
    real_tree = Call.tree
    monkeypatch.setattr(Call, "tree", lambda self, *a, **kw: built.append(self.function) or real_tree(self, *a, **kw))
    assert np.array_equal(replay.reference().softmax.softmax(x.copy(), axis=0), np.full((3, 4), 0.25))
    assert built == []
    last_bit = x.copy()
    last_bit[2, 3] = np.nextafter(last_bit[2, 3], 5)
    assert np.array_equal(replay.reference().softmax.softmax(last_bit, axis=0), np.full((3, 4), 0.25))
    assert built == ["softmax"]


def test_a_recording_in_another_format_is_refused_by_its_format(tmp_path):
    """A recording written by another kit's format (the keys changed with it) is refused, naming both formats."""
    recorder = Recorder()
    k, tree, inputs = recorder.key("ref", Call("softmax", "softmax", (np.zeros(2),), {}))
    recorder.add(k, tree, inputs, {"kind": "value", "value": recorder.node(np.zeros(2))})
    Store.write(tmp_path, dict(recorder.index(), format=FORMAT - 1), recorder.arrays)
    with pytest.raises(RecordingUnreadable) as refused:
        Store.load(tmp_path)
    assert str(refused.value) == (f"{tmp_path / INDEX_NAME}: recorded reference format {FORMAT - 1}; this grader "
                                  f"reads format {FORMAT} ({REDOWNLOAD})")
