"""The zygote prepares each child before it forks it (inside/lockdown.py: prepare), the child only applies it."""
import os

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
    """landlock.ruleset counted (each call returns a descriptor of /dev/null), the zygote's cache empty."""
    made = []

    def counted(read_roots, write_roots, site_dir):
        made.append((tuple(read_roots), tuple(write_roots)))
        return os.open(os.devnull, os.O_RDONLY), 6

    monkeypatch.setattr(landlock, "ruleset", counted)
    monkeypatch.setattr(lockdown, "_rulesets", {})
    yield made
    for fd in lockdown._rulesets.values():
        os.close(fd)


def test_one_ruleset_per_submission(tmp_path, rulesets):
    submission, scratch, other = tmp_path / "submission", tmp_path / "scratch", tmp_path / "other"
    for folder in (submission, scratch, other):
        folder.mkdir()
    first = lockdown._ruleset([str(submission)], [str(scratch)], "site")
    assert lockdown._ruleset([str(submission)], [str(scratch)], "site") == first
    assert len(rulesets) == 1  # the submission's second child: no rule made again
    lockdown._ruleset([str(other)], [str(scratch)], "site")
    assert len(rulesets) == 2 and len(lockdown._rulesets) == 1  # only the latest kept (the other closed)


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
