"""The files the student release gets instead of the trusted ones: texts, generated at build time.

* ``grader/reference.py``: ``reference()`` answers from the recording (``grader/replay.py``);
* ``pyproject.toml`` (installs attnkit, grader and quizzes; no solutions) and ``README.md``.
"""
from __future__ import annotations

from pathlib import Path
from string import Template

README_TEMPLATE = Path(__file__).with_name("student_readme.md")
EXAMPLE_MISTAKE = "attention_no_scale"  # the failure the README shows, with its real wording

REFERENCE_MODULE = '''"""The reference as the checks see it in the student release: recorded values, replayed.

The reference solutions are not part of the student release. ``attnkit release`` recorded
what they return to every public check (``grader/recorded/``); ``reference()`` answers the
same calls from that recording (see ``grader/replay.py``).
"""
from __future__ import annotations

from contextlib import contextmanager

from .replay import installed


def reference():
    """A namespace with one attribute per exercise module: ``reference().softmax.softmax(x)``."""
    return installed().reference()


@contextmanager
def checking():
    """As the project's ``checking``: nothing to switch on or off here, a recording is read, not computed."""
    yield
'''

PYPROJECT = '''[build-system]
requires = ["setuptools>=68", "wheel"]
build-backend = "setuptools.build_meta"

[project]
name = "attnkit"
version = "$version"
description = "attnkit for students: self-attention exercises with numpy, checked in a sandbox; quizzes"
readme = "README.md"
requires-python = "$requires_python"
dependencies = [
$dependencies
]

[project.scripts]
attnkit = "attnkit.cli:entry"

[project.entry-points.pytest11]
attnkit = "grader.pytest_plugin"

[tool.setuptools.packages.find]
include = ["attnkit*", "grader*", "quizzes*"]

[tool.setuptools.package-data]
grader = ["*.yaml", "*.json", "*.npz", "recorded/*.json", "recorded/*.bin"]
quizzes = ["*.yaml", "*.json"]
'''


def pyproject(version: str, requires_python: str, dependencies: list[str]) -> str:
    listed = "\n".join(f"    {d!r}," for d in dependencies).replace("'", '"')
    return Template(PYPROJECT).substitute(version=version, requires_python=requires_python, dependencies=listed)


GPT_SECTION = """
## Your code wrote this

Once your exercises pass their checks up to `sampling`, your own `generate` (with your model, your KV
cache and your sampling) can write text with a tiny character-level GPT-2 trained on this kit's own
explanations:

```bash
attnkit show gpt                                          # greedy, then sampled; the last step's distribution
attnkit show gpt --prompt "the " --temperature 1.2 --top-k 5 --seed 3
```

A GPT written with the kit's reference functions continues "$prompt" greedily as

```
$sample
```

When yours prints the same words, your code wrote this.
"""


def gpt_section(verbs: tuple[str, ...], exercise_ids: set[str]) -> str:
    """The README's last section when the release lets the student run ``attnkit show gpt``."""
    if "show" not in verbs or "sampling" not in exercise_ids:
        return ""
    from grader import tiny_gpt

    card = tiny_gpt.load().card
    return Template(GPT_SECTION).substitute(prompt=card["prompt"], sample=card["greedy_sample"])


def readme(exercises: list[tuple[str, str, float, int]], hidden_checks: int, hidden_points: float,
           verbs: tuple[str, ...]) -> str:
    """The students' README: ``exercises`` is (id, title, points, number of public checks) in order."""
    table = "\n".join(f"| `{e}` | {title} | {points:g} |" for e, title, points, _ in exercises)
    graded = (f"Your instructor's grader also runs {hidden_checks} more checks ({hidden_points:g} points) on edge "
              "cases the docstrings describe, so read them carefully." if hidden_checks else "")
    attention = next(((points, count) for e, _, points, count in exercises if e == "attention"), (0, 0))
    watch = ("attnkit watch                 # re-run the checks of what you change, each time you save\n"
             if "watch" in verbs else "")
    from grader import printed
    from grader.mistakes import all_mistakes

    example = all_mistakes()[EXAMPLE_MISTAKE]
    text = Template(README_TEMPLATE.read_text(encoding="utf-8")).substitute(
        looks_like=example.looks_like, hint=example.hint, table=table, public_checks=sum(e[3] for e in exercises),
        public_points=f"{sum(e[2] for e in exercises):g}", graded=graded, watch=watch,
        attention_points=f"{attention[0]:g}", attention_checks=attention[1], printed_lines=printed.SHOWN_LINES,
        printed_mark=printed.MARK.strip())
    return text + gpt_section(verbs, {e[0] for e in exercises})
