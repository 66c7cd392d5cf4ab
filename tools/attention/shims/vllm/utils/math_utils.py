"""Shim of vllm.utils.math_utils (the constant the prefill op imports)."""
RCP_LN2 = 1.4426950216  # 1 / ln(2), as vllm/utils/math_utils.py:7
