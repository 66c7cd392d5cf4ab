"""Triton's active driver on a machine without a GPU, for the CPU measurement scripts
(tools/engines/measure_cpu.py, tools/attention/measure_cpu.py): it only names the target
(GPUTarget("cuda", cc, 32)) and answers what JITFunction.run asks for a warmup."""


class CpuDriver:
    """The active driver as JITFunction.run asks it for a warmup (target, device, stream)."""

    def __init__(self, cc):
        from triton.backends.compiler import GPUTarget
        self.target = GPUTarget("cuda", cc, 32)

    def get_current_target(self):
        return self.target

    def get_current_device(self):
        return 0

    def get_current_stream(self, device=None):
        return 0

    def is_active(self):
        return True
