"""The per-user attnkit folder (quiz progress, hints shown): ``$ATTNKIT_HOME``, else the platform's user data dir."""
from __future__ import annotations

import os
from pathlib import Path


def home() -> Path:
    """The per-user attnkit folder (not created here: writers make it on demand)."""
    if os.environ.get("ATTNKIT_HOME"):
        return Path(os.environ["ATTNKIT_HOME"])
    from platformdirs import user_data_dir

    return Path(user_data_dir("attnkit", appauthor=False))
