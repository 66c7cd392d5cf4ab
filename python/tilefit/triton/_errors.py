"""The oracle's errors: tilefit's InputError, and OracleError (an InputError) for what the installed
Triton cannot do: not importable, too old or too new for the compile-only recipe."""
from __future__ import annotations

from .._lib import InputError

__all__ = ["InputError", "OracleError"]


class OracleError(InputError):
    """The installed Triton cannot run the compile-only recipe; the message names its version."""
