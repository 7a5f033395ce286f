"""A child that is done with is killed by the zygote (``Zygote.release``), not left to end itself: one that survives
the end of its socket (its code replaced ``os._exit``) is gone as promptly as one that does not."""
import os
import time

import pytest

from grader.sandbox.host.workspace import Workspace

PROBES = '''
import os, time

def value():
    return 1.0
'''
# replaces the exit the child makes when its socket closes with a minute's sleep
SURVIVOR = PROBES + '''
os._exit = lambda code: time.sleep(60)
'''


def _dead(pid: int, seconds: float = 10.0) -> bool:
    """Whether ``pid`` has ended within ``seconds`` (a zombie, or reaped already: the zygote reaps the children it
    was handed when it next hears from the trusted side)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with open(f"/proc/{pid}/stat") as handle:
                if handle.read().rsplit(")", 1)[1].split()[0] in "ZX":
                    return True
        except FileNotFoundError:
            return True
        time.sleep(0.01)
    return False


@pytest.mark.parametrize("module", [PROBES, SURVIVOR], ids=["ends_itself", "survives_its_socket"])
def test_a_released_child_is_killed_and_reaped(zygote, submission, module):
    with Workspace(submission(probes=module), zygote.user) as workspace:
        impl = zygote.implementation(workspace, "softmax", module="probes")
        assert impl.probes.value() == 1.0
        pid = impl._transport.pid
        started = time.monotonic()
        impl.close()
        assert time.monotonic() - started < 0.5  # the trusted side does not wait for it
        assert _dead(pid)
        zygote.settle()  # and reaped
        assert not os.path.exists(f"/proc/{pid}")


def test_with_the_zygote_gone_the_trusted_side_kills_it(submission):
    from grader.sandbox.host.spawner import Zygote

    with Zygote() as zygote, Workspace(submission(probes=SURVIVOR), zygote.user) as workspace:
        impl = zygote.implementation(workspace, "softmax", module="probes")
        assert impl.probes.value() == 1.0
        pid = impl._transport.pid
        zygote.process.kill()  # the zygote alone: its children live in sessions of their own
        zygote.process.wait()
        impl.close()
        assert _dead(pid)
        workspace.released.clear()  # nothing left to settle with a zygote that is gone
