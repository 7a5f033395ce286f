"""Your attnkit exercises: implement every function marked TODO.

Run ``attnkit check`` after each change; ``attnkit hint EXERCISE`` when stuck.
The order of the learning path is softmax, masking, attention, multihead, positional,
kv_cache, tiled_attention, cross_attention, gqa, position_bias, linear_attention,
attention_backward, layers, block, gpt, sampling, training.
"""
