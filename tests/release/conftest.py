"""The student release, built once per test session into a temporary folder (fixture and helpers: releasekit.py)."""
from tests.release.releasekit import release  # noqa: F401  (a fixture)
