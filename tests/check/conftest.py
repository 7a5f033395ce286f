"""Every check test keeps its quiz progress (the review queue ``attnkit check`` fills) in its own folder."""
import pytest


@pytest.fixture(autouse=True)
def private_home(tmp_path, monkeypatch):
    home = tmp_path / "attnkit-home"
    monkeypatch.setenv("ATTNKIT_HOME", str(home))
    return home
