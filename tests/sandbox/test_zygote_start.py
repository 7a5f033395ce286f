"""What a zygote's start costs: the sandbox's own modules are compiled once, not at every start."""
import importlib.util
from pathlib import Path

import pytest

from grader.sandbox.host.spawner import Zygote

INSIDE = Path(__file__).resolve().parents[2] / "grader" / "sandbox" / "inside"


@pytest.mark.parametrize("name", ["lockdown.py", "answer.py", "../wire.py"])
def test_the_zygote_keeps_the_bytecode_of_the_modules_it_loads_by_path(name):
    """``attnkit check`` never imports most of them itself, and the zygote runs with -B: without this, every start
    compiled them again (about 10 ms of the zygote's CPU, before it answers its first spawn)."""
    cached = Path(importlib.util.cache_from_source(str((INSIDE / name).resolve())))
    cached.unlink(missing_ok=True)
    with Zygote() as zygote:
        zygote.settle()  # answered from its request loop: every module is loaded
    assert cached.is_file()


PROBES = '''
import gc


def collector():
    return gc.isenabled(), gc.get_stats()[2]["collections"], gc.get_freeze_count() > 0
'''


def test_the_zygote_starts_without_collecting_and_its_children_collect(child):
    """The zygote collects nothing while it starts (its objects, garbage included, are frozen once, and no child
    scans them: a full collection cost 5 ms of its start); its children collect their own cyclic garbage."""
    enabled, full_collections, frozen = child.probes.collector()
    assert enabled and frozen
    assert full_collections == 0
