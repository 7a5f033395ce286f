"""The student release of the release tests (built once per run): the student-kernel test runs the notebooks on it."""
from tests.release.releasekit import release  # noqa: F401  (a fixture)
