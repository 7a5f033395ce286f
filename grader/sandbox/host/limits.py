"""The sandbox's default limits, in one place: ``Limits`` and every front end's ``--help`` read them from here.

Nothing is imported, so a command line can state its defaults without loading the sandbox (or numpy)."""

TIMEOUT_SECONDS = 10.0   # one request of the trusted side to a child (wall clock)
MEMORY_MB = 2048         # RLIMIT_AS of a child
