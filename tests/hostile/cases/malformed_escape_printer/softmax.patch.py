def softmax(x, axis=-1):
    raise ValueError("\x1b[2J\x1b[Hcleared your screen \x9b31m \u202egnp.exe")
