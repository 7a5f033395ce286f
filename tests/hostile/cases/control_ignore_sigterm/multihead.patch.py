import _signal

for _number in (1, 2, 15):  # SIGHUP, SIGINT, SIGTERM
    _signal.signal(_number, _signal.SIG_IGN)


def _spin(*args, **kwargs):
    while True:
        pass


split_heads = merge_heads = multi_head_self_attention = _spin
