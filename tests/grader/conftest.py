"""Fixtures shared by the diagnosis tests."""
import pytest

from grader.diagnosis import Session
from grader.reference import reference


@pytest.fixture
def session():
    """A diagnosis session on the live reference."""
    return Session(reference())
