"""Issue 22 item 13: the grading machine's paths are named, not shown, in what a child reports."""
import sys

import numpy as np

from grader.sandbox.host import errors
from grader.sandbox.host.scrub import KIT, Scrubber
from grader.sandbox.host.workspace import Workspace

PROBES = '''import os
import sys

import numpy as np


def tell():
    raise ValueError(f"{sys.argv} {np.__file__} {sys.prefix} {os.environ} {os.getcwd()}")
'''


def test_paths_are_replaced_longest_first():
    scrub = Scrubber({"/srv/kit": "<attnkit>", "/srv/kit/venv": "<python environment>", "/": "<root>"})
    assert scrub("/srv/kit/venv/lib and /srv/kit/grader and /etc") == \
        "<python environment>/lib and <attnkit>/grader and /etc"


def test_a_childs_error_names_no_machine_path(zygote, submission):
    with Workspace(submission(probes=PROBES), zygote.user) as workspace:
        impl = zygote.implementation(workspace, "softmax", module="probes")
        try:
            impl.probes.tell()
        except errors.StudentRaised as error:
            message = error.message
        finally:
            impl.close()
        for path in (str(KIT), sys.prefix, str(workspace.root), np.__file__):
            assert path not in message
        assert "<numpy>" in message and "<your submission>" in message
