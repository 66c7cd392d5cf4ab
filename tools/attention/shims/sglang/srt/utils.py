"""Shim of sglang.srt.utils for an NVIDIA TARGET: the attention ops read is_cuda / is_hip /
is_gfx95_supported, and torch.cuda.get_device_capability() (patched by measure_attention.py to
return tilefit_target.capability())."""


def is_cuda():
    return True


def is_hip():
    return False


def is_gfx95_supported():
    return False
