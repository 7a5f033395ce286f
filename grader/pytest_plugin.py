"""pytest plugin (entry point ``pytest11``): ``pytest --impl DIR`` runs the attnkit checks on DIR.

(Being written; this placeholder only registers the option.)
"""


def pytest_addoption(parser):
    group = parser.getgroup("attnkit")
    group.addoption("--impl", action="store", default=None, metavar="DIR",
                    help="run the attnkit checks on the implementation in DIR")
