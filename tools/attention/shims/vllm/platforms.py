"""Shim of vllm.platforms.current_platform for an NVIDIA TARGET (tilefit_target.CC), with the
semantics of vllm/platforms/interface.py at 6adad087 (has_device_capability 433-454,
is_device_capability 457-478, is_device_capability_family 481-493)."""
from typing import NamedTuple

import torch

import tilefit_target as T


class DeviceCapability(NamedTuple):
    major: int
    minor: int

    def to_int(self) -> int:
        return self.major * 10 + self.minor


class _Cuda:
    device_type = "cuda"

    @staticmethod
    def is_rocm():
        return False

    @staticmethod
    def is_cuda():
        return True

    @staticmethod
    def is_cuda_alike():
        return True

    @staticmethod
    def is_xpu():
        return False

    @staticmethod
    def get_device_capability(device_id=0):
        return DeviceCapability(*T.capability())

    @classmethod
    def has_device_capability(cls, capability, device_id=0):
        cur = cls.get_device_capability()
        if isinstance(capability, tuple):
            return cur >= capability
        return cur.to_int() >= capability

    @classmethod
    def is_device_capability(cls, capability, device_id=0):
        cur = cls.get_device_capability()
        if isinstance(capability, tuple):
            return cur == capability
        return cur.to_int() == capability

    @classmethod
    def is_device_capability_family(cls, capability, device_id=0):
        return cls.get_device_capability().to_int() // 10 == capability // 10

    @staticmethod
    def fp8_dtype():
        return torch.float8_e4m3fn

    @staticmethod
    def num_compute_units(device_id=0):
        return T.SM_COUNT


current_platform = _Cuda()
