"""``python -m tilefit ARGS...``: runs the ``tilefit`` command-line tool (C++) with ARGS.

The tool the wheel carries (``tilefit/bin/tilefit``), else ``$TILEFIT_BINARY``, else ``tilefit`` on
PATH; without one it says how to get it and exits 2 (the CLI's usage-error code)."""
from __future__ import annotations

import os
import shutil
import sys
from typing import List, Optional


def tool_path() -> Optional[str]:
    """The tilefit tool this package runs, or None."""
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bin", "tilefit")
    if os.access(here, os.X_OK):
        return here
    env = os.environ.get("TILEFIT_BINARY")
    if env:
        return env if os.access(env, os.X_OK) else None
    return shutil.which("tilefit")


def main(argv: Optional[List[str]] = None) -> int:
    args = sys.argv[1:] if argv is None else list(argv)
    tool = tool_path()
    if tool is None:
        sys.stderr.write(
            "tilefit: this installation of the Python package carries no tilefit tool: install the package "
            "with pip from the source (pip install . or pip install git+URL builds the tool into it), or build "
            "it (cmake -S . -B build && cmake --build build --target tilefit) and set TILEFIT_BINARY to its "
            "path\n")
        return 2
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(tool, [tool] + args)
    return 0  # not reached


if __name__ == "__main__":
    sys.exit(main())
