"""What runs in the student's process: loaded by path by the zygote; imports only the standard library, numpy
and the shared wire module (grader/sandbox/wire.py)."""
