"""Loading libtilefit.so (the C ABI, include/tilefit/tilefit.h) through ctypes.

Where the library is looked for, first found wins:
  1. $TILEFIT_LIBRARY (a path to libtilefit.so; an error when it does not exist);
  2. next to this package (``cmake --install`` and ``pip install`` put it there);
  3. a build folder of the source checkout this package lies in (``<repo>/build*/libtilefit.so``).
"""
from __future__ import annotations

import ctypes
import os
import pathlib
import threading

ABI_VERSION = 2  # TILEFIT_ABI_VERSION this package speaks

OK = 0
ERROR_INPUT = 2
ERROR_DEVICE = 3
ERROR_INTERNAL = 5
VERDICT = 1
COMPACT = 2


class TilefitError(Exception):
    """Base of tilefit's errors."""


class InputError(TilefitError, ValueError):
    """A config that cannot be read, an unknown arch, a bad argument.

    ``str(e)`` is the one line ``tilefit check`` prints for it; ``e.field`` names the field at
    fault ("tile", "arch", ...; "" for the config as a whole)."""

    def __init__(self, message: str, field: str = ""):
        super().__init__(message)
        self.message = message
        self.field = field


class DeviceError(TilefitError, RuntimeError):
    """No GPU could be asked (no driver, no device, built without CUDA)."""


class InternalError(TilefitError, RuntimeError):
    """A bug in tilefit (please report it)."""


def _candidates():
    env = os.environ.get("TILEFIT_LIBRARY")
    if env:
        return [pathlib.Path(env)], True
    here = pathlib.Path(__file__).resolve().parent
    found = [here / "libtilefit.so"]
    root = here.parent.parent
    if (root / "CMakeLists.txt").exists():
        found += sorted(root.glob("build*/libtilefit.so"))
    return found, False


def _load():
    paths, from_env = _candidates()
    for p in paths:
        if p.exists():
            return ctypes.CDLL(str(p)), str(p)
    if from_env:
        raise ImportError(f"TILEFIT_LIBRARY={paths[0]}: no such file")
    raise ImportError(
        "libtilefit.so not found (looked in: " + ", ".join(str(p) for p in paths) + "); build it "
        "(cmake --build build --target tilefit_c), install tilefit (cmake --install build --prefix P), "
        "or set TILEFIT_LIBRARY to its path")


class _Missing:
    """Stands for the library where it was not found: the oracle (tilefit.triton.oracle) works without
    it; anything that needs the C core raises the ImportError that says where it was looked for."""

    def __init__(self, message: str):
        self.message = message

    def __getattr__(self, name):
        raise ImportError(self.message)


try:
    lib, path = _load()
except ImportError as _e:
    if os.environ.get("TILEFIT_LIBRARY"):
        raise  # a library named and not there is an error
    lib, path = _Missing(str(_e)), None

_c = ctypes.c_char_p
_ctx_p = ctypes.c_void_p
_out = ctypes.POINTER(ctypes.c_char_p)
_tgt_out = ctypes.POINTER(ctypes.c_void_p)


def _declare(lib):
    lib.tilefit_abi_version.restype = ctypes.c_int
    lib.tilefit_abi_version.argtypes = []
    lib.tilefit_version.restype = _c
    lib.tilefit_version.argtypes = []
    lib.tilefit_context_new.restype = _ctx_p
    lib.tilefit_context_new.argtypes = []
    lib.tilefit_context_free.restype = None
    lib.tilefit_context_free.argtypes = [_ctx_p]
    lib.tilefit_error_message.restype = _c
    lib.tilefit_error_message.argtypes = [_ctx_p]
    lib.tilefit_error_field.restype = _c
    lib.tilefit_error_field.argtypes = [_ctx_p]
    lib.tilefit_target_builtin.restype = ctypes.c_int
    lib.tilefit_target_builtin.argtypes = [_ctx_p, _c, _tgt_out]
    lib.tilefit_target_device.restype = ctypes.c_int
    lib.tilefit_target_device.argtypes = [_ctx_p, ctypes.c_int, _tgt_out]
    lib.tilefit_target_json.restype = ctypes.c_int
    lib.tilefit_target_json.argtypes = [_ctx_p, ctypes.c_void_p, _out]
    lib.tilefit_target_free.restype = None
    lib.tilefit_target_free.argtypes = [ctypes.c_void_p]
    lib.tilefit_analyze.restype = ctypes.c_int
    lib.tilefit_analyze.argtypes = [_ctx_p, _c, _c, ctypes.c_uint, _out]
    lib.tilefit_analyze_batch.restype = ctypes.c_int
    lib.tilefit_analyze_batch.argtypes = [_ctx_p, _c, ctypes.c_void_p, ctypes.c_uint, _out]
    lib.tilefit_check_files.restype = ctypes.c_int
    lib.tilefit_check_files.argtypes = [_ctx_p, _c, _c, ctypes.c_uint, _out]
    lib.tilefit_check_paths.restype = ctypes.c_int
    lib.tilefit_check_paths.argtypes = [_ctx_p, ctypes.POINTER(ctypes.c_char_p), ctypes.c_size_t, _c, ctypes.c_uint,
                                        _out]
    lib.tilefit_engine.restype = ctypes.c_int
    lib.tilefit_engine.argtypes = [_ctx_p, _c, _out]
    _vp = ctypes.c_void_p
    lib.tilefit_analyze_grid.restype = ctypes.c_int
    lib.tilefit_analyze_grid.argtypes = [_ctx_p, _c, _vp, ctypes.c_size_t, _vp, _vp, _vp, _vp, _vp, _vp, _vp, _vp,
                                         _vp, _vp, _vp]
    lib.tilefit_suggest.restype = ctypes.c_int
    lib.tilefit_suggest.argtypes = [_ctx_p, _c, ctypes.c_void_p, ctypes.c_int, _out]

    if lib.tilefit_abi_version() != ABI_VERSION:
        raise ImportError(f"{path}: C ABI version {lib.tilefit_abi_version()}, this package needs {ABI_VERSION}")


if path is not None:
    _declare(lib)


class _Context:
    """One tilefit_context per thread (a context is used by one thread at a time)."""

    def __init__(self):
        self.ptr = lib.tilefit_context_new()
        if not self.ptr:
            raise MemoryError("tilefit_context_new")

    def __del__(self):
        if getattr(self, "ptr", None) and lib is not None:
            lib.tilefit_context_free(self.ptr)
            self.ptr = None


_local = threading.local()


def context():
    try:
        return _local.ctx.ptr
    except AttributeError:
        c = _local.ctx = _Context()
        return c.ptr


def raise_for(ctx, rc: int):
    """Turns a non-OK code into the matching exception, with the library's message and field."""
    message = (lib.tilefit_error_message(ctx) or b"").decode("utf-8", "replace")
    field = (lib.tilefit_error_field(ctx) or b"").decode("utf-8", "replace")
    if rc == ERROR_INPUT:
        raise InputError(message, field)
    if rc == ERROR_DEVICE:
        raise DeviceError(message)
    raise InternalError(message or f"tilefit: error code {rc}")


class Target:
    """Owned tilefit_target handle (limits configs are analysed against)."""

    __slots__ = ("ptr", "arch", "limit_bytes")

    def __init__(self, ptr, info: dict):
        self.ptr = ptr
        self.arch = info["arch"]
        self.limit_bytes = info["optin_per_block_bytes"]

    def __del__(self):
        if getattr(self, "ptr", None) and lib is not None:
            lib.tilefit_target_free(self.ptr)
            self.ptr = None
