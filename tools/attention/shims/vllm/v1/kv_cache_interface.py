"""Shim of vllm.v1.kv_cache_interface.KVQuantMode (the enum values of
vllm/v1/kv_cache_interface.py:36-49 at 6adad087)."""
from enum import IntEnum


class KVQuantMode(IntEnum):
    NONE = 0
    FP8_PER_TENSOR = 1
    INT8_PER_TOKEN_HEAD = 2
    FP8_PER_TOKEN_HEAD = 3
    INT4_PER_TOKEN_HEAD = 4
    NVFP4 = 5
    TURBOQUANT = 6
