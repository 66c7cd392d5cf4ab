"""The TARGET the engine shims report (tools/attention/README.md). measure_attention.py sets
these before it imports the engines' modules (some branch at import time)."""
CC = 90          # compute capability as an int: 75, 80, 86, 89, 90, 100, 120, 121
SM_COUNT = 132   # multiprocessor count (current_platform.num_compute_units)
BATCH_INVARIANT = False  # VLLM_BATCH_INVARIANT


def capability():
    return (CC // 10, CC % 10)
