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
