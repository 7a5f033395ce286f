"""The zygote prepares each child before it forks it (inside/lockdown.py: prepare), the child only applies it."""
import os
import sys

import pytest

from grader.sandbox.host.workspace import Workspace
from grader.sandbox.inside import landlock, lockdown

PROBES = '''
import os


def write_scratch():
    with open(os.path.join(os.environ["TMPDIR"], "probe.txt"), "w") as handle:
        handle.write("x")
    return sorted(os.environ)


def read_outside():
    with open("/etc/hostname") as handle:
        return handle.read()
'''


@pytest.fixture
def rulesets(monkeypatch):
    """landlock.ruleset counted (each call returns a descriptor of /dev/null), the zygote's memo empty, and this
    process's environment and bytecode folder restored after the test (prepare sets them, as in the zygote)."""
    made = []

    def counted(read_roots, write_roots, site_dir):
        made.append((tuple(read_roots), tuple(write_roots)))
        return os.open(os.devnull, os.O_RDONLY), 6

    monkeypatch.setattr(landlock, "ruleset", counted)
    monkeypatch.setattr(lockdown, "_latest", {})
    monkeypatch.setattr(os, "environ", dict(os.environ))
    monkeypatch.setattr(sys, "pycache_prefix", sys.pycache_prefix)
    monkeypatch.setattr(sys, "dont_write_bytecode", sys.dont_write_bytecode)
    yield made
    for prepared in lockdown._latest.values():
        os.close(prepared.ruleset)


def _request(submission, scratch):
    return {"submission": str(submission), "scratch": str(scratch), "bytecode": str(scratch / "pycache"),
            "read_roots": [str(submission), str(scratch)], "limits": {"print_bytes": 1000}, "cpu": None}


def test_what_every_child_of_a_submission_shares_is_made_once(tmp_path, rulesets):
    submission, scratch, other = tmp_path / "submission", tmp_path / "scratch", tmp_path / "other"
    for folder in (submission, scratch, other):
        folder.mkdir()
    first = lockdown.prepare(_request(submission, scratch), "site")
    assert os.environ == {"TMPDIR": str(scratch), "HOME": str(scratch), "PATH": "/usr/bin:/bin"}
    assert sys.pycache_prefix == str(scratch / "pycache")
    assert lockdown.prepare(_request(submission, scratch), "site") is first
    assert len(rulesets) == 1  # the submission's second child: nothing made again
    second = lockdown.prepare(_request(other, scratch), "site")
    assert len(rulesets) == 2 and list(lockdown._latest.values()) == [second]  # the earlier one closed


@pytest.mark.skipif(landlock.abi() < 1, reason="the kernel has no Landlock")
def test_a_scratch_folder_made_again_is_another_key_while_the_old_ruleset_is_kept(tmp_path):
    """The key is the folders' device and inode: a real ruleset holds the removed folder's inode, so the folder
    made again at the same path (the quota's clean-up) never has the same number."""
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    before = lockdown._identity(str(scratch))
    fd, _ = landlock.ruleset([str(tmp_path)], [str(scratch)], str(tmp_path))
    try:
        scratch.rmdir()
        scratch.mkdir()
        assert lockdown._identity(str(scratch)) != before
    finally:
        os.close(fd)


def test_a_child_after_its_scratch_folder_was_cleared_still_writes_there_and_nowhere_else(zygote, submission):
    with Workspace(submission(probes=PROBES), zygote.user) as workspace:
        impl = zygote.implementation(workspace, "softmax", module="probes")
        assert impl.probes.write_scratch() == ["HOME", "PATH", "TMPDIR"]
        impl.close()
        workspace.clear_scratch()  # a new scratch folder: its child gets a ruleset made for it
        impl = zygote.implementation(workspace, "softmax", module="probes")
        assert impl.probes.write_scratch() == ["HOME", "PATH", "TMPDIR"]
        assert (workspace.scratch / "probe.txt").exists()
        with pytest.raises(AssertionError, match="SandboxRefused|PermissionError"):  # the hook, or Landlock
            impl.probes.read_outside()
        impl.close()
