import os

_scratch = os.environ.get("TMPDIR", ".")
_written = 0
for _index in range(24):  # a real attack would not stop: see SECURITY.md (disk)
    try:
        with open(os.path.join(_scratch, f"fill-{_index}.bin"), "wb") as _handle:
            _handle.write(b"x" * (1 << 20))
        _written += 1
    except OSError:
        break


def _full(*args, **kwargs):
    raise RuntimeError(f"wrote {_written} MiB in its scratch folder")


sinusoidal_encoding = apply_rope = _full
