#!/usr/bin/env python3
"""measure_attention.py's measurement on a machine without a GPU (and without torch): the same
engine launchers (copied by extract.py), the same interception and the same compile
(`JITFunction.run(..., warmup=True)`, `CompiledKernel.metadata.shared`), with

- Triton's active driver replaced by a stand-in that only names the TARGET
  (GPUTarget("cuda", cc, 32)), as tools/engines/measure_cpu.py does for fused MoE;
- a shape-only stand-in for the few torch calls the launchers make (`empty`, views: slicing,
  `unsqueeze`, `expand`, `view(dtype)`, `stride`, `element_size`, the dtypes, `finfo`,
  `cuda.get_device_capability`): a tensor is Triton's MockTensor with a shape, strides, an
  element offset (data_ptr = offset x element size from a 0 base: a torch allocation is
  16-byte aligned, a view keeps its byte offset) and a Triton dtype (what Triton's specializer
  reads from a torch tensor: the element type, the pointer's 16-byte alignment).

Nothing is launched, so nothing else of the driver or of torch is asked. Every job compiles in a
process of its own (maxtasksperchild=1): Triton 3.6 builds its fp8 conversion table once per
process (third_party/nvidia/lib/TritonNVIDIAGPUToLLVM/ElementwiseOpToLLVM.cpp,
FpToFpOpConversion::getConversionFunc's `static DenseMap srcMap`, whose e4m3 -> bf16 entry is
Fp8E4M3Nv_to_Bf16(computeCapability >= 90)), so a process that compiled such a cast for sm_90
first emits `cvt.bf16.f16` for a later sm_89 compile, which ptxas refuses ("requires .target
sm_90"); a fresh process compiles it (the non-native path through f32). The compiled kernel's
metadata.shared is what the GPU machine's compile gives (checked with --check on the committed
rows).

usage:
  measure_cpu.py JOBS.json OUT.jsonl [DUMPDIR]   jobs and results as measure_attention.py's
                                                 (PROCS in the environment: worker processes)
  measure_cpu.py --check ROWS.jsonl N JOBS.json...  re-measures N jobs of the committed rows
                                                 (spread over the rows) and prints how many of
                                                 their launches agree (status and shared bytes)

Run it with the Triton 3.6.0 virtual environment (no torch needed), under `nice`.
"""
import json
import os
import sys
import time
import types
from multiprocessing import Pool

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.append(os.path.dirname(HERE))
from cpu_driver import CpuDriver  # noqa: E402



def fake_torch():
    """A module named torch with what the copied launchers and measure_attention.py call."""
    import triton.language as tl
    from triton.runtime.jit import MockTensor

    T = types.ModuleType("torch")
    T.dtype = tl.dtype
    T.bfloat16, T.float16, T.float32 = tl.bfloat16, tl.float16, tl.float32
    T.half, T.float = tl.float16, tl.float32
    T.float8_e4m3fn, T.float8_e5m2 = tl.float8e4nv, tl.float8e5
    T.int8, T.uint8, T.int16, T.int32, T.int64, T.bool = (tl.int8, tl.uint8, tl.int16, tl.int32,
                                                          tl.int64, tl.int1)

    def esize(dt):
        return max(1, dt.primitive_bitwidth // 8)

    class Tensor(MockTensor):
        def __init__(self, shape, dtype, strides=None, offset=0):
            super().__init__(dtype)
            self.shape = tuple(int(s) for s in shape)
            self.ndim = len(self.shape)
            if strides is None:
                st, acc = [], 1
                for d in reversed(self.shape):
                    st.append(acc)
                    acc *= d
                strides = tuple(reversed(st))
            self._strides = tuple(strides)
            self._offset = offset
            self.device = "cuda"
            self.is_cuda = True

        def data_ptr(self):
            return self._offset * esize(self.dtype)

        def stride(self, i=None):
            return self._strides if i is None else self._strides[i]

        def size(self, i=None):
            return self.shape if i is None else self.shape[i]

        def __len__(self):
            return self.shape[0]

        def dim(self):
            return self.ndim

        def numel(self):
            n = 1
            for d in self.shape:
                n *= d
            return n

        def element_size(self):
            return esize(self.dtype)

        def is_contiguous(self):
            return self._strides == Tensor(self.shape, self.dtype)._strides

        def contiguous(self):
            return self if self.is_contiguous() else Tensor(self.shape, self.dtype)

        def __getitem__(self, idx):
            if not isinstance(idx, tuple):
                idx = (idx,)
            if Ellipsis in idx:
                i = idx.index(Ellipsis)
                fill = self.ndim - (len(idx) - 1)
                idx = idx[:i] + (slice(None),) * fill + idx[i + 1:]
            idx = idx + (slice(None),) * (self.ndim - len(idx))
            shape, strides, off = [], [], self._offset
            for d, (n, s, ix) in enumerate(zip(self.shape, self._strides, idx)):
                if isinstance(ix, int):
                    off += (ix % n) * s
                elif ix is None:
                    shape.append(1)
                    strides.append(0)
                else:
                    a, b, step = ix.indices(n)
                    shape.append(max(0, -(-(b - a) // step)))
                    strides.append(s * step)
                    off += a * s
            return Tensor(shape, self.dtype, strides, off)

        def unsqueeze(self, d):
            if d < 0:
                d += self.ndim + 1
            st = self._strides[d] * self.shape[d] if d < self.ndim else 1
            return Tensor(self.shape[:d] + (1,) + self.shape[d:], self.dtype,
                          self._strides[:d] + (st,) + self._strides[d:], self._offset)

        def expand(self, *shape):
            if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
                shape = tuple(shape[0])
            lead = len(shape) - self.ndim
            src = (1,) * lead + self.shape
            sst = (0,) * lead + self._strides
            out, st = [], []
            for n, s, want in zip(src, sst, shape):
                if want == -1 or want == n:
                    out.append(n)
                    st.append(s)
                else:
                    assert n == 1, "expand of a dimension that is not 1"
                    out.append(want)
                    st.append(0)
            return Tensor(out, self.dtype, st, self._offset)

        def view(self, *a):
            if len(a) == 1 and isinstance(a[0], tl.dtype):
                dt = a[0]
                assert esize(dt) == esize(self.dtype), "view to a dtype of another size"
                return Tensor(self.shape, dt, self._strides, self._offset)
            raise NotImplementedError("view(shape)")

        def __repr__(self):
            return f"Tensor({self.shape}, {self.dtype}, {self._strides})"

    def empty(*shape, dtype=None, device=None, **kw):
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = tuple(shape[0])
        return Tensor(shape, dtype or tl.float32)

    def tensor(v, dtype=None, device=None):
        return Tensor((), dtype or tl.float32)

    class finfo:
        def __init__(self, dt):
            self.max = {tl.float8e4nv: 448.0, tl.float8e5: 57344.0, tl.float16: 65504.0}.get(
                dt, 3.389531389251535e38)
            self.min = -self.max

    class inference_mode:  # a decorator (with or without arguments) and a context manager
        def __init__(self, fn=None, *a, **k):
            self.fn = fn if callable(fn) else None

        def __call__(self, *a, **k):
            if self.fn is None and len(a) == 1 and callable(a[0]) and not k:
                return a[0]
            return self.fn(*a, **k)

        def __enter__(self):
            return self

        def __exit__(self, *e):
            return False

    T.inference_mode = T.no_grad = inference_mode
    T.Tensor = Tensor
    T.empty = empty
    T.zeros = empty
    T.tensor = tensor
    T.finfo = finfo
    T.cuda = types.SimpleNamespace(get_device_capability=lambda device=None: (9, 0),
                                   is_available=lambda: True)
    T.version = types.SimpleNamespace(hip=None, cuda="12.8")
    T.__version__ = "2.9.0"
    return T


def setup(cc):
    """Per process: the torch stand-in in sys.modules, the driver stand-in naming cc."""
    os.environ.setdefault("TRITON_CACHE_DIR", f"/tmp/tcache_attn_cpu{os.getpid()}")
    if "torch" not in sys.modules:
        sys.modules["torch"] = fake_torch()
    from triton.runtime import driver
    driver.set_active(CpuDriver(cc))
    import measure_attention as ma
    import triton.language as tl
    # the row format names dtypes as measure_attention.TORCH_TO_NAME does for torch's
    for d, n in ((tl.bfloat16, "bf16"), (tl.float16, "f16"), (tl.float32, "f32"),
                 (tl.float8e4nv, "fp8_e4m3"), (tl.int32, "i32"), (tl.int64, "i64"), (tl.uint8, "u8"),
                 (tl.int8, "i8"), (tl.float8e5, "fp8_e5m2")):
        ma.TORCH_TO_NAME[str(d)] = n
    return ma


def work(job):
    return setup(job["cc"]).work(job)


def main():
    import triton
    if sys.argv[1] == "--check":
        rows = [json.loads(l) for l in open(sys.argv[2])]
        n = int(sys.argv[3])
        jobs = {}
        for jf in sys.argv[4:]:
            for j in json.load(open(jf))["jobs"]:
                jobs[j["id"]] = j
        by_job = {}
        for r in rows:
            by_job.setdefault(r["id"].split(".")[0], []).append(r)
        ids = [i for i in by_job if i in jobs]
        pick = ids[:: max(1, len(ids) // n)][:n]
        with Pool(int(os.environ.get("PROCS", "1")), maxtasksperchild=1) as p:
            res = list(p.imap(work, [dict(jobs[i], dump=False) for i in pick]))
        agree = total = 0
        for i, rs in zip(pick, res):
            want = sorted(by_job[i], key=lambda r: r["id"])
            got = [g for g in rs if g.get("stage") != "launcher" or g.get("status") != "ok"]
            stage_of = {}
            for g in got:
                stage_of.setdefault(g.get("stage"), g)
            for w in want:
                total += 1
                g = stage_of.get(w["config"]["stage"]) or (got[0] if len(got) == 1 else {})
                ok = g.get("status") == w["status"] and (w["status"] != "ok" or g.get("shared") == w.get("shared"))
                agree += ok
                if not ok:
                    print("DIFF", w["id"], w["status"], w.get("shared"), "cpu:", g.get("status"),
                          g.get("shared"), str(g.get("error", ""))[:200])
        print(f"{agree}/{total} launches of {len(pick)} jobs re-measured on the CPU agree")
        return
    spec = json.load(open(sys.argv[1]))
    if len(sys.argv) > 3:
        import measure_attention as ma
        ma.DUMPDIR = sys.argv[3]
        os.makedirs(ma.DUMPDIR, exist_ok=True)
    t0 = time.time()
    n = ok = 0
    with open(sys.argv[2], "w") as f, Pool(int(os.environ.get("PROCS", "1")), maxtasksperchild=1) as p:
        for rs in p.imap(work, spec["jobs"]):
            for r in rs:
                r["triton"] = triton.__version__
                f.write(json.dumps(r) + "\n")
                n += 1
                ok += r.get("status") == "ok"
            f.flush()
    print(f"{len(spec['jobs'])} jobs, {n} launches, {ok} compiled, {time.time() - t0:.1f} s")


if __name__ == "__main__":
    main()
