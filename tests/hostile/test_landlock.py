"""grader.sandbox.inside.landlock: what the kernel is asked to enforce, and that it does where Landlock exists."""
from __future__ import annotations

import os

import pytest

from grader.sandbox.inside import landlock


def test_stdlib_roots_leave_site_packages_out():
    stdlib = os.path.realpath(os.path.dirname(os.__file__))
    roots = landlock.stdlib_roots(os.path.join(stdlib, "site-packages"))
    names = {os.path.basename(root) for root in roots}
    assert "json" in names and "os.py" in names
    assert not names & landlock.SITE_DIRS
    assert landlock.stdlib_roots("/nowhere/site-packages") == [stdlib]  # a venv: the whole standard library


def test_confines_a_process():
    if landlock.abi() < 1:
        pytest.skip("no Landlock on this kernel")
    assert landlock.self_test().startswith(f"Landlock ABI {landlock.abi()}: sandboxed children are confined")


def test_rights_on_a_file_are_file_rights_only():
    for rights in landlock.DEVICES.values():
        assert rights & ~(landlock.FILE_RIGHTS | landlock.READ_DIR) == 0
    assert landlock.DEVICES["/proc/self"] & landlock.READ_DIR  # the only folder among them
