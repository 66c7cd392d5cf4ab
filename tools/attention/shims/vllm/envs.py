"""Shim of vllm.envs: the values the attention ops read (defaults of vllm/envs.py at 6adad087)."""
import tilefit_target as T


def __getattr__(name):
    if name == "VLLM_BATCH_INVARIANT":
        return T.BATCH_INVARIANT
    raise AttributeError(name)
