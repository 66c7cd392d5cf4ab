#!/usr/bin/env python3
"""Python package overhead (README "Python package", Performance).

  TILEFIT_LIBRARY=build/libtilefit.so python3 bench/python_bench.py   (this checkout's package)
  python bench/python_bench.py                                          (the installed package)

Measures, best of --repeat runs each:
  * analyze(): one config through tilefit.analyze (dict -> JSON -> C -> result object) against the
    bare C call (ctypes, pre-encoded text) on the same config: the per-config Python overhead, for the
    verdict (what analyze() asks for) and with the explanation (a second call, when it is read);
  * pruning the 1920-config grid of vLLM's/SGLang's tuners (BLOCK_M {16..256} x BLOCK_N {32..256} x
    BLOCK_K {64,128,256} x warps {4,8} x GROUP_M {1,16,32,64} x stages {2..5}): tilefit.triton.prune
    over triton.Config-like objects and tilefit.tuning.filter over the tuners' dicts (each one
    tilefit_analyze_grid call: arrays in and out), against that C call alone on pre-built arrays
    and against the JSON batch call (tilefit_analyze_batch) on pre-built texts.
"""
import argparse
import ctypes
import itertools
import json
import os
import platform
import sys
import time

# The package of this checkout with TILEFIT_LIBRARY set, else the installed one (pip install .).
if os.environ.get("TILEFIT_LIBRARY"):
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import tilefit  # noqa: E402
import tilefit.triton  # noqa: E402
import tilefit.tuning  # noqa: E402
from tilefit import _grid, _lib  # noqa: E402


class Config:  # triton.Config's fields the pruner reads
    def __init__(self, kwargs, num_warps, num_stages):
        self.kwargs, self.num_warps, self.num_stages = kwargs, num_warps, num_stages


class Tensor:
    def __init__(self, dtype):
        self.dtype = dtype


def best(fn, repeat):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--arch", default="sm_120")
    args = ap.parse_args()
    model = "unknown"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    print(f"machine: {model}, {os.cpu_count()} cores; Python {platform.python_version()}; {_lib.path}")

    # --- one config ---------------------------------------------------------------------------
    cfg = {"arch": args.arch, "kernel": "triton_fused_moe", "tile": [64, 128, 128], "dtype": "fp8_w8a8",
           "block_shape": [128, 128], "num_warps": 4, "stages": 4}
    text = json.dumps(cfg).encode()
    ctx = _lib.context()
    out = ctypes.c_char_p()
    n = 2000
    c_verdict = best(lambda: [_lib.lib.tilefit_analyze(ctx, text, None, _lib.VERDICT, ctypes.byref(out))
                              for _ in range(n)], args.repeat) / n
    py_verdict = best(lambda: [tilefit.analyze(cfg).fits for _ in range(n)], args.repeat) / n
    print(f"analyze().fits: {py_verdict * 1e6:.1f} us per config; the C call alone (TILEFIT_VERDICT) "
          f"{c_verdict * 1e6:.1f} us; Python overhead {(py_verdict - c_verdict) * 1e6:.1f} us per config")
    c_full = best(lambda: [(_lib.lib.tilefit_analyze(ctx, text, None, _lib.VERDICT, ctypes.byref(out)),
                            _lib.lib.tilefit_analyze(ctx, text, None, 0, ctypes.byref(out))) for _ in range(n)],
                  args.repeat) / n
    py_full = best(lambda: [tilefit.analyze(cfg).diagnostics for _ in range(n)], args.repeat) / n
    print(f"analyze().diagnostics (the explanation asked for too): {py_full * 1e6:.1f} us per config; the two C "
          f"calls alone {c_full * 1e6:.1f} us; Python overhead {(py_full - c_full) * 1e6:.1f} us per config")

    # --- the 1920-config grid -----------------------------------------------------------------
    space = list(itertools.product((16, 32, 64, 128, 256), (32, 64, 128, 256), (64, 128, 256), (4, 8),
                                   (1, 16, 32, 64), (2, 3, 4, 5)))
    configs = [Config({"BLOCK_SIZE_M": m, "BLOCK_SIZE_N": bn, "BLOCK_SIZE_K": k, "GROUP_SIZE_M": g}, w, s)
               for m, bn, k, w, g, s in space]
    dicts = [{"BLOCK_SIZE_M": m, "BLOCK_SIZE_N": bn, "BLOCK_SIZE_K": k, "GROUP_SIZE_M": g, "num_warps": w,
              "num_stages": s} for m, bn, k, w, g, s in space]
    assert len(configs) == 1920
    named = {"a_ptr": Tensor("torch.float16"), "b_ptr": Tensor("torch.float16"), "c_ptr": Tensor("torch.float16")}
    prune = tilefit.triton.prune("triton_matmul", arch=args.arch)
    texts = [_grid.config_text("triton_matmul", c.kwargs, c.num_warps, c.num_stages, ',"dtype":"f16"', "x")
             for c in configs]
    batch = ("[" + ",".join(texts) + "]").encode()
    target = tilefit._target(args.arch)
    flags = _lib.VERDICT | _lib.COMPACT

    def c_batch():
        _lib.lib.tilefit_analyze_batch(ctx, batch, target.ptr, flags, ctypes.byref(out))
    rows = [_grid.row(c.kwargs, c.num_warps, c.num_stages, "x") for c in configs]
    base = _grid.base_text("triton_matmul", rows[0], ',"dtype":"f16"')
    prune(configs, named)  # warm: the layout-conversion memo, the target
    t_c = best(c_batch, args.repeat)
    t_grid = best(lambda: _grid.analyze_grid(base, rows, args.arch), args.repeat)
    t_prune = best(lambda: prune(configs, named), args.repeat)
    kept = len(prune(configs, named))
    print(f"triton.prune, 1920 triton.Configs, triton_matmul f16 {args.arch}: {t_prune * 1e3:.2f} ms "
          f"= {t_prune / 1920 * 1e6:.2f} us per config ({kept} kept); the grid C call alone {t_grid * 1e3:.2f} ms; "
          f"the JSON batch C call {t_c * 1e3:.2f} ms")
    moe_texts = [_grid.config_text("triton_fused_moe", d, d["num_warps"], d["num_stages"], ',"dtype":"bf16"', "x")
                 for d in dicts]
    moe_batch = ("[" + ",".join(moe_texts) + "]").encode()

    def c_moe():
        _lib.lib.tilefit_analyze_batch(ctx, moe_batch, target.ptr, flags, ctypes.byref(out))
    t_cm = best(c_moe, args.repeat)
    moe_rows = [_grid.row(d, d["num_warps"], d["num_stages"], "x") for d in dicts]
    moe_base = _grid.base_text("triton_fused_moe", moe_rows[0], ',"dtype":"bf16"')
    t_gm = best(lambda: _grid.analyze_grid(moe_base, moe_rows, args.arch), args.repeat)
    t_filter = best(lambda: tilefit.tuning.filter(dicts, dtype=None, arch=args.arch), args.repeat)
    kept = len(tilefit.tuning.filter(dicts, dtype=None, arch=args.arch))
    print(f"tuning.filter, 1920 tuner dicts, triton_fused_moe bf16 {args.arch}: {t_filter * 1e3:.2f} ms "
          f"= {t_filter / 1920 * 1e6:.2f} us per config ({kept} kept); the grid C call alone {t_gm * 1e3:.2f} ms; "
          f"the JSON batch C call {t_cm * 1e3:.2f} ms")


if __name__ == "__main__":
    main()
