"""pytest set-up: the package from this checkout (or, with TILEFIT_TEST_INSTALLED=1, the one installed
in this Python: scripts/python_package.sh), and a stub ``triton.Config`` where Triton is absent
(tilefit.triton never imports triton: it reads configs by duck typing)."""
import os
import pathlib
import sys
import types

HERE = pathlib.Path(__file__).resolve().parent
INSTALLED = os.environ.get("TILEFIT_TEST_INSTALLED") == "1"
if not INSTALLED:
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

if INSTALLED:
    import tilefit  # noqa: E402
    import tilefit.__main__  # noqa: E402

    _pkg = pathlib.Path(tilefit.__file__).resolve().parent
    if _pkg == REPO / "python" / "tilefit":
        raise RuntimeError(f"TILEFIT_TEST_INSTALLED=1 but tilefit was imported from the source tree ({_pkg})")
    if "TILEFIT_LIBRARY" in os.environ:
        raise RuntimeError("TILEFIT_TEST_INSTALLED=1: unset TILEFIT_LIBRARY (the wheel's library is under test)")
    # The tool the wheel carries, for the tests that compare with the CLI.
    _tool = tilefit.__main__.tool_path()
    if _tool:
        os.environ.setdefault("TILEFIT_BINARY", _tool)
