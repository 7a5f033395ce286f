"""Reference solutions for the attnkit exercises (the trusted side's ground truth).

Each module solves one exercise; ``exercises/`` is generated from these files by
``python -m attnkit.release.stubs --write`` (the regions between ``### BEGIN SOLUTION``
and ``### END SOLUTION`` become a TODO and a ``NotImplementedError``).
"""
