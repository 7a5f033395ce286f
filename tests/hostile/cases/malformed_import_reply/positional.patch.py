import json as _json
import os as _os
import stat as _stat
import struct as _struct

_header = _json.dumps({"ok": True, "value": {"t": "handle", "id": "x", "type": "x"}, "arrays": []}).encode()
_body = _struct.pack("!II", len(_header), 0) + _header
for _fd in range(3, 64):
    try:
        if _stat.S_ISSOCK(_os.fstat(_fd).st_mode):
            _os.write(_fd, _struct.pack("!Q", len(_body)) + _body)
    except OSError:
        pass
