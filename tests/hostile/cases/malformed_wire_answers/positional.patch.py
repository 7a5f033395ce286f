import json as _json
import os as _os
import stat as _stat
import struct as _struct
import time as _time

_ATTACKS = (
    lambda: b"[" * 100_000 + b"]" * 100_000,
    lambda: _json.dumps({"ok": True, "value": {"t": "handle", "id": "x", "type": "KVCache"}, "arrays": []}).encode(),
    lambda: _json.dumps({"ok": True, "value": {"t": "array", "i": 0}, "arrays": [["|S0", [1 << 40]]]}).encode(),
    lambda: _json.dumps({"ok": False, "error": {"type": ["x"], "message": list(range(150_000)), "where": {"a": 1},
                                                "sibling": "../../etc/passwd", "import": "yes"}, "arrays": []}).encode(),
)


def _attack(*args, **kwargs):
    counter = _os.path.join(_os.environ["TMPDIR"], "attack-counter")
    count = int(open(counter).read()) if _os.path.exists(counter) else 0
    with open(counter, "w") as handle:
        handle.write(str(count + 1))
    header = _ATTACKS[count % len(_ATTACKS)]()
    arrays = 1 if count % len(_ATTACKS) == 2 else 0
    body = _struct.pack("!II", len(header), arrays) + header
    frame = _struct.pack("!Q", len(body)) + body
    for fd in range(3, 64):
        try:
            if _stat.S_ISSOCK(_os.fstat(fd).st_mode):
                _os.write(fd, frame)
        except OSError:
            pass
    _time.sleep(10)


sinusoidal_encoding = apply_rope = _attack
