"""pytest set-up: the package from this checkout, and a stub ``triton.Config`` where Triton is absent
(tilefit.triton never imports triton: it reads configs by duck typing)."""
import os
import pathlib
import sys
import types

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

try:
    import triton  # noqa: F401
except Exception:  # noqa: BLE001 - no Triton here (CI has no GPU): the stub
    stub = types.ModuleType("triton")

    class Config:  # the fields Triton 3.6's Config has that the pruner reads
        def __init__(self, kwargs, num_warps=4, num_stages=3, num_ctas=1, maxnreg=None, pre_hook=None):
            self.kwargs = kwargs
            self.num_warps = num_warps
            self.num_stages = num_stages
            self.num_ctas = num_ctas
            self.maxnreg = maxnreg
            self.pre_hook = pre_hook

        def __repr__(self):
            return f"Config({self.kwargs}, num_warps={self.num_warps}, num_stages={self.num_stages})"

    stub.Config = Config
    stub.__tilefit_stub__ = True
    sys.modules["triton"] = stub

REPO = HERE.parent.parent
os.environ.setdefault("TILEFIT_REPO", str(REPO))
