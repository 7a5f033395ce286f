import os as _os

_scratch = _os.environ.get("TMPDIR", ".")
for _index in range(80):  # bounded here; a real attack writes until the disk is full
    try:
        with open(_os.path.join(_scratch, f"fill-{_index}.bin"), "wb") as _handle:
            _handle.write(b"x" * (1 << 20))
    except OSError:
        break
