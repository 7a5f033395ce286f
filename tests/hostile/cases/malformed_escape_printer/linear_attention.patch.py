raise ImportError("\x1b[5mblinking import error\x1b[0m")
