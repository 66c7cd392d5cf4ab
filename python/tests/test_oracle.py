"""The compile-only oracle on the installed Triton (skipped where Triton is not importable).

CI installs one Triton from PyPI (pip install triton==3.6.0); the proof's measured rows
(tools/oracle/rows/triton-<version>.jsonl: the full compile's metadata.shared / tmem_size and the
oracle's) of that version are re-run through the oracle here."""
import json
import os
import pathlib
import subprocess
import sys
import textwrap

import pytest
import triton

if getattr(triton, "__tilefit_stub__", False):
    pytest.skip("Triton is not importable here (the tests' stand-in triton.Config is in use); "
                "pip install triton==3.6.0 to run the oracle's tests", allow_module_level=True)

import triton.language as tl  # noqa: E402

import tilefit  # noqa: E402
import tilefit.triton  # noqa: E402
from tilefit.triton import oracle  # noqa: E402

REPO = pathlib.Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(REPO / "tools" / "oracle"))
import grid as G  # noqa: E402
import kernels as K  # noqa: E402

VERSION = triton.__version__
ROWS = REPO / "tools" / "oracle" / "rows" / f"triton-{VERSION}.jsonl"


def sample_rows():
    """Per (kernel, arch): the first measured row, and the first one the full compile refused. Not the
    ptxas refusals of fp8 conversions before sm_89: the proof's process had compiled for other targets
    first, and Triton then emits sm_89's cvt for sm_75/sm_80 (a fresh process emulates them and
    compiles): those rows hold in the proof's process, not in this one."""
    if not ROWS.exists():
        return []
    seen = {}
    for line in ROWS.read_text().splitlines():
        r = json.loads(line)
        if "ptxas" in r.get("fe", ""):
            continue
        key = (r["k"], r["a"], r["f"][0])
        if key not in seen:
            seen[key] = r
    return list(seen.values())


@pytest.mark.skipif(not ROWS.exists(), reason=f"no measured rows for Triton {VERSION} ({ROWS.name})")
@pytest.mark.parametrize("row", sample_rows(), ids=lambda r: f"{r['k']}-{r['t']}-{r['a']}-w{r['w']}s{r['s']}")
def test_oracle_equals_the_full_compile(row):
    sig, consts = G.signature(row["k"], row["t"])
    r = oracle.compile(K.KERNELS[row["k"]][0], sig, dict(consts, **row["c"]), arch=row["a"], num_warps=row["w"],
                       num_stages=row["s"])
    status, shared, tmem = row["f"]
    assert r.triton_version == VERSION
    if status == "invalid":
        assert r.status == "invalid", (r, row.get("fe"))
        assert r.message
    else:
        assert r.status in ("fits", "does_not_fit")
        assert r.smem_bytes == shared
        assert (r.tmem_columns or 0) == (tmem or 0)
        assert r.status == ("fits" if shared <= r.limit_bytes and (tmem or 0) <= 512 else "does_not_fit")


@triton.jit
def _two_dot_kernel(x_ptr, w1_ptr, w2_ptr, out_ptr, K, BLOCK_M: tl.constexpr, BLOCK_K: tl.constexpr,
                    BLOCK_H: tl.constexpr):
    """A kernel tilefit has never seen: x @ w1, then relu, then @ w2, over K."""
    offs_m = tl.arange(0, BLOCK_M)
    offs_k = tl.arange(0, BLOCK_K)
    offs_h = tl.arange(0, BLOCK_H)
    acc = tl.zeros((BLOCK_M, BLOCK_H), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        x = tl.load(x_ptr + offs_m[:, None] * K + (k + offs_k)[None, :])
        w1 = tl.load(w1_ptr + (k + offs_k)[:, None] * BLOCK_H + offs_h[None, :])
        h = tl.maximum(tl.dot(x, w1), 0.0).to(tl.float16)
        w2 = tl.load(w2_ptr + offs_h[:, None] * BLOCK_H + offs_h[None, :])
        acc = tl.dot(h, w2, acc)
    tl.store(out_ptr + offs_m[:, None] * BLOCK_H + offs_h[None, :], acc.to(tl.float16))


class DType:
    def __init__(self, name):
        self.name = name

    def __str__(self):
        return self.name


class Tensor:  # what the oracle reads of a torch.Tensor: .dtype and .data_ptr()
    def __init__(self, dtype):
        self.dtype = DType(dtype)

    def data_ptr(self):
        return 1 << 20


def full_shared(fn, sig, consts, arch, w, s):
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource, make_backend
    a, ta, warp, _ = oracle.resolve_arch(arch)
    target = GPUTarget("cuda" if isinstance(ta, int) else "hip", ta, warp)
    full = oracle._full_signature(fn, sig, set(consts))
    attrs = oracle._default_attrs(full, None, sig)
    backend = make_backend(target)
    src = ASTSource(fn=fn, signature=full, constexprs=consts,
                    attrs={(fn.arg_names.index(k), ): backend.parse_attr(v) for k, v in attrs.items()})
    return triton.compile(src, target=target, options={"num_warps": w, "num_stages": s}).metadata.shared


def test_prunes_a_kernel_it_has_never_seen_inside_a_real_autotune(tmp_path, monkeypatch):
    monkeypatch.setenv("TRITON_CACHE_DIR", str(tmp_path / "triton-cache"))
    configs = [triton.Config({"BLOCK_M": 64, "BLOCK_K": 64, "BLOCK_H": 64}, num_warps=4, num_stages=3),
               triton.Config({"BLOCK_M": 128, "BLOCK_K": 128, "BLOCK_H": 256}, num_warps=8, num_stages=4),
               triton.Config({"BLOCK_M": 128, "BLOCK_K": 64, "BLOCK_H": 128}, num_warps=4, num_stages=2)]
    pruner = tilefit.triton.prune(arch="sm_120", cache=None)
    tuned = triton.autotune(configs=configs, key=["K"], prune_configs_by={"early_config_prune": pruner})(_two_dot_kernel)
    args = {"x_ptr": Tensor("torch.float16"), "w1_ptr": Tensor("torch.float16"), "w2_ptr": Tensor("torch.float16"),
            "out_ptr": Tensor("torch.float16"), "K": 4096}
    tuned.nargs = args  # what Autotuner.run sets before it prunes (no launch, no GPU)
    kept = tuned.prune_configs({})
    assert pruner.source == "oracle"
    assert [r["source"] for r in pruner.results] == ["oracle"] * 3
    sig = {"x_ptr": "*fp16", "w1_ptr": "*fp16", "w2_ptr": "*fp16", "out_ptr": "*fp16", "K": "i32:16"}
    expected = []
    for c, r in zip(configs, pruner.results):
        shared = full_shared(_two_dot_kernel, sig, dict(c.kwargs), "sm_120", c.num_warps, c.num_stages)
        assert r["smem_bytes"] == shared, c
        if shared <= 101376:
            expected.append(c)
    assert kept == expected
    assert 0 < len(kept) < len(configs)


def test_model_where_modelled_oracle_elsewhere():
    assert tilefit.triton.modelled("triton_matmul", "3.6.0")
    assert not tilefit.triton.modelled("triton_matmul", "3.9.0")
    assert not tilefit.triton.modelled(_two_dot_kernel)
    assert tilefit.triton.prune(_two_dot_kernel, arch="sm_90").source == "oracle"
    assert tilefit.triton.prune("triton_matmul", arch="sm_90", source="model").source == "model"
    if VERSION in tilefit.triton.MODELLED_TRITON:
        assert tilefit.triton.prune("triton_matmul", arch="sm_90").source == "model"
    else:  # never another version's rules
        with pytest.raises(tilefit.InputError) as e:
            tilefit.triton.prune("triton_matmul", arch="sm_90")
        assert VERSION in str(e.value) and e.value.field == "kernel"
        with pytest.raises(tilefit.InputError) as e:
            tilefit.tuning.filter([{"BLOCK_SIZE_M": 64, "BLOCK_SIZE_N": 64, "BLOCK_SIZE_K": 64, "GROUP_SIZE_M": 1,
                                    "num_warps": 4, "num_stages": 3}], arch="sm_90")
        assert VERSION in str(e.value)


def test_model_and_oracle_agree_on_the_tutorial_matmul(tmp_path):
    if VERSION not in tilefit.triton.MODELLED_TRITON:
        pytest.skip(f"the model answers Triton {tilefit.triton.MODELLED_TRITON}, not {VERSION}")
    sig, consts = G.signature("matmul", "fp16")
    cfgs = [{"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 64, "GROUP_SIZE_M": 8, "num_warps": 8,
             "num_stages": 3},
            {"BLOCK_SIZE_M": 64, "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 32, "GROUP_SIZE_M": 8, "num_warps": 4,
             "num_stages": 4}]
    rows = tilefit.triton.verify(K.matmul_kernel, "triton_matmul", cfgs, "sm_80", signature=sig, constexprs=consts,
                                 dtype="f16", cache=None, file=None)
    assert [r["agree"] for r in rows] == [True, True], rows
    # a tuned-table folder; a disagreement is printed (the model told another dtype)
    (tmp_path / "N=4096,K=4096,device_name=X.json").write_text(json.dumps({"16": cfgs[0], "64": cfgs[1]}))
    import io
    out = io.StringIO()
    rows = tilefit.triton.verify(K.matmul_kernel, "triton_matmul", str(tmp_path), "sm_80", signature=sig,
                                 constexprs=consts, dtype="f32", cache=None, file=out)
    assert [r["name"] for r in rows] == ["N=4096,K=4096,device_name=X.json M=16", "N=4096,K=4096,device_name=X.json M=64"]
    assert not any(r["agree"] for r in rows)
    assert out.getvalue().count("disagree: ") == 2 and "0 of 2 configs agree" in out.getvalue()
    results = []
    kept = tilefit.tuning.filter(cfgs, K.matmul_kernel, arch="sm_120", signature=sig, constexprs=consts,
                                 results=results, cache=None)
    assert [r["source"] for r in results] == ["oracle", "oracle"]
    assert kept == [c for c, r in zip(cfgs, results) if r["smem_bytes"] <= 101376]


def test_refusals_and_bad_input():
    sig, consts = G.signature("matmul", "fp8e4nv")
    tile = dict(consts, BLOCK_SIZE_M=64, BLOCK_SIZE_N=64, BLOCK_SIZE_K=64, GROUP_SIZE_M=8)
    r = oracle.compile(K.matmul_kernel, sig, tile, arch="sm_80")
    assert r.status == "invalid" and "fp8e4nv" in r.message and not r.fits
    sig16, _ = G.signature("matmul", "fp16")
    with pytest.raises(tilefit.InputError) as e:
        oracle.compile(K.matmul_kernel, {k: v for k, v in sig16.items() if k != "M"}, tile, arch="sm_90")
    assert e.value.field == "M" and "missing" in str(e.value)
    with pytest.raises(tilefit.InputError) as e:
        oracle.compile(K.matmul_kernel, sig16, dict(tile, BLOCK_SIZE_Q=4), arch="sm_90")
    assert e.value.field == "BLOCK_SIZE_Q" and "not an argument of matmul_kernel" in str(e.value)
    with pytest.raises(tilefit.InputError) as e:
        oracle.compile(K.matmul_kernel, sig16, tile, arch="sm_999")
    assert e.value.field == "arch"
    assert oracle.resolve_arch("H100")[0] == "sm_90" and oracle.resolve_arch("MI300X")[0] == "gfx942"
    # one bad config does not stop the others
    rs = oracle.compile_many(K.matmul_kernel, [dict(tile, BLOCK_SIZE_Q=1), dict(tile)], signature=sig16, arch="sm_90",
                             strict=False)
    assert rs[0].status == "error" and rs[1].status == "fits"


def test_a_triton_without_the_recipe_is_named():
    class Backend:
        def make_llir(self, src, metadata, options, capability):
            pm = object()
            mod = src
            return str(pm) + str(mod)

    Backend.__module__ = __name__
    with pytest.raises(oracle.OracleError) as e:
        oracle.allocation_prefix(Backend)
    assert f"triton {VERSION}" in str(e.value) and "no allocation pass" in str(e.value)


def test_prefix_is_read_from_the_installed_source():
    from triton.backends.nvidia.compiler import CUDABackend
    from triton.backends.amd.compiler import HIPBackend
    fn, static = oracle.allocation_prefix(CUDABackend)
    assert not static and "_tilefit_allocation_prefix" == fn.__name__
    fn, static = oracle.allocation_prefix(HIPBackend)
    assert static


def test_configs_differing_in_warps_and_stages_share_the_front_end_exactly():
    sig, consts = G.signature("attention", "fp16")
    cfgs = [dict(consts, HEAD_DIM=64, BLOCK_M=64, BLOCK_N=32, num_warps=w, num_stages=s) for w, s in ((4, 2), (8, 3))]
    for arch in ("sm_90", "gfx942"):
        shared = oracle.compile_many(K.attention_kernel, cfgs, signature=sig, arch=arch)
        alone = []
        for c in cfgs:
            oracle._frontend.texts.clear()  # nothing to share: each from the AST
            alone.append(oracle.compile_many(K.attention_kernel, [c], signature=sig, arch=arch)[0])
        assert [r.smem_bytes for r in shared] == [r.smem_bytes for r in alone], arch


@pytest.mark.parametrize("arch", ["sm_75", "sm_80", "sm_90", "sm_100", "sm_120", "gfx942", "gfx950"])
def test_configs_differing_in_stages_share_make_ttgir_up_to_its_num_stages_reader_exactly(arch):
    sig, consts = G.signature("matmul", "fp16")
    cfgs = [dict(consts, BLOCK_SIZE_M=64, BLOCK_SIZE_N=128, BLOCK_SIZE_K=64, GROUP_SIZE_M=8, num_warps=4, num_stages=s)
            for s in (1, 2, 3, 4)]
    oracle._frontend.__init__()
    shared = oracle.compile_many(K.matmul_kernel, cfgs, signature=sig, arch=arch)
    used = len(oracle._frontend.prefixes)
    try:
        oracle.share_stages = False
        oracle._frontend.__init__()
        alone = oracle.compile_many(K.matmul_kernel, cfgs, signature=sig, arch=arch)
    finally:
        oracle.share_stages = True
    assert [(r.status, r.smem_bytes, r.tmem_columns) for r in shared] == \
        [(r.status, r.smem_bytes, r.tmem_columns) for r in alone]
    assert len({r.smem_bytes for r in alone}) > 1 or arch == "sm_75"  # the stages do move the bytes
    # sm_75's branch of make_ttgir has no pass that reads num_stages: the split falls at a later
    # statement that may read it (3.9.0: `is_enabled(opt, "fpsan")`) or nowhere (each config whole)
    assert used == 1 or (arch == "sm_75" and used == 0), used


def test_the_num_stages_split_is_read_from_the_source(tmp_path, monkeypatch):
    (tmp_path / "fake_backend.py").write_text(textwrap.dedent("""
        class Backend:
            @staticmethod
            def make_ttgir(mod, metadata, opt, capability):
                pm = ir.pass_manager(mod.context)
                pm.enable_debug()
                passes.a(pm)
                deep = opt.num_stages > 2
                if capability >= 90:
                    passes.b(pm, opt.num_warps)
                    if deep:
                        passes.c(pm)
                passes.d(pm, opt)
                pm.run(mod, 'make_ttgir')
                return mod

        class Reads:
            @staticmethod
            def make_ttgir(mod, metadata, opt, capability):
                pm = ir.pass_manager(mod.context)
                passes.a(pm)
                n = mod.get_int_attr("x")
                passes.b(pm, opt.num_stages + n)
                pm.run(mod)
                return mod
        """))
    monkeypatch.syspath_prepend(str(tmp_path))
    import fake_backend as ns_mod
    ns = vars(ns_mod)
    fn, static = oracle.ttgir_split(ns["Backend"])
    text = oracle._split_sources[ns["Backend"]]
    assert static
    # the split comes before `if deep:` (a name read from num_stages) inside the capability branch,
    # and before the call given the whole options object in the other path; a, b are guarded
    assert text.count("_tilefit_split.at_split()") == 2
    assert text.index("passes.b(pm, opt.num_warps)") < text.index("at_split()") < text.index("if deep:")
    assert "if not _tilefit_split.skipping():\n        passes.a(pm)" in text
    # a make_ttgir that reads the module mid-way is not split (nothing shared)
    assert oracle.ttgir_split(ns["Reads"]) is None


def test_cache_answers_repeats(tmp_path):
    cache = oracle.Cache(str(tmp_path / "oracle.sqlite"))
    sig, consts = G.signature("softmax", "fp16")
    cfgs = [dict(consts, BLOCK_SIZE=1024, ROWS_PER_PROGRAM=1, num_warps=w, num_stages=2) for w in (4, 8)]
    first = oracle.compile_many(K.softmax_kernel, cfgs, signature=sig, arch="gfx942", cache=cache)
    again = oracle.compile_many(K.softmax_kernel, cfgs, signature=sig, arch="gfx942", cache=cache)
    assert [r.cached for r in first] == [False, False] and [r.cached for r in again] == [True, True]
    assert [r.smem_bytes for r in first] == [r.smem_bytes for r in again]
    other = oracle.compile_many(K.softmax_kernel, cfgs, signature=sig, arch="gfx950", cache=cache)
    assert [r.cached for r in other] == [False, False]


def test_command_line(tmp_path):
    kfile = tmp_path / "k.py"
    kfile.write_text(textwrap.dedent('''
        import triton
        import triton.language as tl

        @triton.jit
        def copy_dot(a_ptr, b_ptr, c_ptr, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
            a = tl.load(a_ptr + tl.arange(0, BM)[:, None] * BK + tl.arange(0, BK)[None, :])
            b = tl.load(b_ptr + tl.arange(0, BK)[:, None] * BN + tl.arange(0, BN)[None, :])
            c = tl.dot(a, b)
            tl.store(c_ptr + tl.arange(0, BM)[:, None] * BN + tl.arange(0, BN)[None, :], c.to(tl.float16))
    '''))
    cfg = tmp_path / "configs.json"
    cfg.write_text(json.dumps([{"BM": 64, "BN": 64, "BK": 64, "num_warps": 4, "num_stages": 1},
                               {"BM": 64, "BN": 64, "BK": 64, "BQ": 1, "num_warps": 4, "num_stages": 1}]))
    env = dict(os.environ, TILEFIT_ORACLE_CACHE=str(tmp_path / "c.sqlite"), PYTHONPATH=os.pathsep.join(sys.path))
    cmd = [sys.executable, "-m", "tilefit.triton", "check", f"{kfile}:copy_dot", "--signature",
           "a_ptr=*fp16,b_ptr=*fp16,c_ptr=*fp16", "--configs", str(cfg), "--arch", "sm_90,gfx942", "--format", "json"]
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    assert p.returncode == 2, p.stderr
    out = json.loads(p.stdout)
    assert [(r["name"], r["arch"], r["status"], r["source"]) for r in out["results"]] == \
        [("config #0", "sm_90", "fits", "oracle"), ("config #0", "gfx942", "fits", "oracle")]
    assert all(r["smem_bytes"] > 0 and r["limit_bytes"] > 0 for r in out["results"])
    err = [ln for ln in p.stderr.splitlines() if ln.startswith("error:")]
    assert len(err) == 2 and all("config #1" in ln and "BQ: not an argument of copy_dot" in ln for ln in err)
    cfg.write_text(json.dumps([{"BM": 64, "BN": 64, "BK": 64, "num_warps": 4, "num_stages": 1}]))
    p = subprocess.run(cmd[:-1] + ["csv"], capture_output=True, text=True, env=env)
    assert p.returncode == 0 and p.stdout.splitlines()[0].startswith("name,arch,smem_bytes,limit_bytes,status,source")
    p = subprocess.run(cmd[:5] + ["--signature", "a_ptr=*fp16", "--configs", str(cfg), "--arch", "sm_90"],
                       capture_output=True, text=True, env=env)
    err = [ln for ln in p.stderr.splitlines() if ln.startswith("error:")]
    assert p.returncode == 2 and len(err) == 1 and "b_ptr: missing" in err[0]


def test_works_without_the_c_library(tmp_path):
    import shutil
    shutil.copytree(REPO / "python" / "tilefit", tmp_path / "tilefit",
                    ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    (tmp_path / "k.py").write_text(textwrap.dedent('''
        import triton
        import triton.language as tl

        @triton.jit
        def scale(x_ptr, BLOCK: tl.constexpr):
            x = tl.load(x_ptr + tl.arange(0, BLOCK))
            tl.store(x_ptr + tl.arange(0, BLOCK), x * 2)
    '''))
    code = textwrap.dedent('''
        import k, tilefit
        from tilefit.triton import oracle
        r = oracle.compile(k.scale, {"x_ptr": "*fp32"}, {"BLOCK": 1024}, arch="sm_90", cache=None)
        assert r.status == "fits" and r.smem_bytes == 0, r
        try:
            tilefit.analyze({"arch": "sm_90", "kernel": "triton_matmul", "tile": [64, 64, 64]})
        except ImportError as e:
            assert "libtilefit.so not found" in str(e), e
        else:
            raise AssertionError("analyze without the library")
        print("ok")
    ''')
    paths = [str(tmp_path)] + [p for p in sys.path if not p.startswith(str(REPO))]
    env = {k: v for k, v in os.environ.items() if k != "TILEFIT_LIBRARY"}
    env["PYTHONPATH"] = os.pathsep.join(paths)
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=str(tmp_path))
    assert p.returncode == 0 and p.stdout.strip() == "ok", p.stderr
