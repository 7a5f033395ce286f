_hoard = []
while True:
    _hoard.append(np.empty(32 << 20))  # 256 MiB each
