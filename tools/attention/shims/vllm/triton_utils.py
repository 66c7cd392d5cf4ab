"""Shim of vllm.triton_utils: the real Triton."""
import triton
import triton.language as tl

__all__ = ["triton", "tl"]
