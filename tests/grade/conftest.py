"""Fixtures of the class-grading tests (helpers live in gradekit.py, importable by name)."""
from tests.grade.gradekit import class_dir, graded  # noqa: F401  (fixtures)
