"""The compile-only oracle: the installed Triton's own stages up to and including the allocation passes.

Triton writes a kernel's shared memory (``ttg.shared``) and tensor-memory columns
(``ttg.tensor_memory_size``) in the allocation passes at the start of the backend's ``make_llir``
(``triton/backends/nvidia/compiler.py`` ``CUDABackend.make_llir``: ``add_allocate_shared_memory_nv``,
``add_allocate_tensor_memory``; ``triton/backends/amd/compiler.py`` ``HIPBackend.make_llir``:
``add_allocate_shared_memory``), before LLVM, PTX/AMDGCN and ptxas. ``compile`` here mirrors
``triton/compiler/compiler.py`` ``compile()`` (``make_backend``, ``parse_options``, ``add_stages``,
``make_ir``, the ``ttir`` and ``ttgir`` stages) and replaces the ``llir`` stage with the installed
``make_llir`` cut right after its last allocation pass: the cut is read from the installed source
with ``inspect`` at run time, never written down per version. No GPU and no torch are needed: the
target is a ``GPUTarget``.

    from tilefit.triton import oracle
    r = oracle.compile(matmul_kernel, {"a_ptr": "*fp16", ...}, {"BLOCK_SIZE_M": 128, ...},
                       arch="sm_90", num_warps=8, num_stages=3)
    r.smem_bytes, r.limit_bytes, r.status, r.triton_version, r.seconds
"""
from __future__ import annotations

import ast
import copy
import hashlib
import inspect
import json
import os
import sqlite3
import sys
import tempfile
import textwrap
import threading
import time
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

from ._errors import InputError, OracleError

__all__ = ["compile", "compile_many", "OracleResult", "resolve_arch", "triton_version", "signature_of",
           "OracleError", "Cache", "ARCHS"]

# Shared memory per block a kernel may opt in to (cudaDevAttrMaxSharedMemoryPerBlockOptin / the LDS
# size), which Triton compares metadata.shared with at load (compiler.py CompiledKernel._init_handles:
# max_shared_mem(device)); the same numbers as tilefit's built-in table (src/model targets).
ARCHS: Dict[str, Tuple[str, Any, int, int]] = {
    # arch: (backend, arch for GPUTarget, warp size, limit bytes)
    "sm_75": ("cuda", 75, 32, 65536),
    "sm_80": ("cuda", 80, 32, 166912),
    "sm_86": ("cuda", 86, 32, 101376),
    "sm_87": ("cuda", 87, 32, 166912),
    "sm_89": ("cuda", 89, 32, 101376),
    "sm_90": ("cuda", 90, 32, 232448),
    "sm_100": ("cuda", 100, 32, 232448),
    "sm_103": ("cuda", 103, 32, 232448),
    "sm_110": ("cuda", 110, 32, 232448),
    "sm_120": ("cuda", 120, 32, 101376),
    "sm_121": ("cuda", 121, 32, 101376),
    "gfx90a": ("hip", "gfx90a", 64, 65536),
    "gfx942": ("hip", "gfx942", 64, 65536),
    "gfx950": ("hip", "gfx950", 64, 163840),
}
# Products named by their arch (a few; tilefit's C library knows more and is asked first).
PRODUCTS = {
    "t4": "sm_75", "a100": "sm_80", "a10": "sm_86", "a10g": "sm_86", "rtx3090": "sm_86", "a6000": "sm_86",
    "l4": "sm_89", "l40s": "sm_89", "rtx4090": "sm_89", "h100": "sm_90", "h200": "sm_90", "h20": "sm_90",
    "gh200": "sm_90", "b200": "sm_100", "gb200": "sm_100", "b300": "sm_103", "gb300": "sm_103", "rtx5090": "sm_120",
    "rtxpro6000": "sm_120", "dgxspark": "sm_121", "gb10": "sm_121", "mi300x": "gfx942", "mi300a": "gfx942",
    "mi325x": "gfx942", "mi250x": "gfx90a", "mi350x": "gfx950", "mi355x": "gfx950",
}
TMEM_COLUMNS = 512  # compiler.py CompiledKernel._init_handles: max_tmem_size = 512 (columns)

# The allocation passes the cut ends with (NVIDIA, then AMD).
_ALLOC_PASSES = ("add_allocate_shared_memory_nv", "add_allocate_tensor_memory", "add_allocate_shared_memory")
_OPTION_NAMES = ("num_warps", "num_stages", "num_ctas", "maxnreg", "waves_per_eu", "matrix_instr_nonkdim", "kpack",
                 "schedule_hint", "enable_fp_fusion", "launch_cooperative_grid", "max_num_imprecise_acc_default",
                 "allow_flush_denorm", "debug", "instrumentation_mode")


def triton_version() -> str:
    """The installed Triton's version; OracleError when Triton is not importable."""
    try:
        import triton
    except Exception as e:  # noqa: BLE001 - any failure to import is "no Triton"
        raise OracleError(f"triton: not importable ({e}); the oracle runs the installed Triton's compiler "
                          "(pip install triton)", "triton") from None
    v = getattr(triton, "__version__", None)
    if not isinstance(v, str) or getattr(triton, "__tilefit_stub__", False):
        raise OracleError("triton: the importable module is not Triton (no __version__); pip install triton",
                          "triton")
    return v


def resolve_arch(arch: Any) -> Tuple[str, Any, int, int]:
    """(tilefit arch, GPUTarget arch, warp size, limit bytes) of an arch name ("sm_90", "sm90", 90,
    (9, 0), "gfx942") or a product ("H100", "MI300X"); InputError naming the allowed ones."""
    if isinstance(arch, tuple) and len(arch) == 2:
        arch = f"sm_{int(arch[0])}{int(arch[1])}"
    elif isinstance(arch, int) and not isinstance(arch, bool):
        arch = f"sm_{arch}"
    if not isinstance(arch, str) or not arch:
        raise InputError(f"arch: expected a name such as \"sm_90\" or \"gfx942\" or a GPU product; got {arch!r}",
                         "arch")
    a = arch.strip().lower()
    if a.startswith("sm") and not a.startswith("sm_"):
        a = "sm_" + a[2:]
    a = {"sm_100a": "sm_100", "sm_90a": "sm_90", "sm_120a": "sm_120", "sm_103a": "sm_103"}.get(a, a)
    if a not in ARCHS:
        key = "".join(ch for ch in a if ch.isalnum()).replace("nvidia", "").replace("geforce", "").replace(
            "amd", "").replace("instinct", "")
        if key in PRODUCTS:
            a = PRODUCTS[key]
        else:
            a = _arch_from_library(arch) or a
    if a not in ARCHS:
        raise InputError(f"arch: unknown arch or product {arch!r}; allowed: {', '.join(ARCHS)} or a product "
                         f"({', '.join(sorted(PRODUCTS))})", "arch")
    return (a, ) + ARCHS[a][1:]


def _arch_from_library(name: str) -> Optional[str]:
    """A product name through tilefit's C library when it is there (it knows every product tilefit does)."""
    try:
        import tilefit
        return tilefit.builtin_limits(name).arch
    except Exception:  # noqa: BLE001 - no library, or not a name it knows
        return None


class OracleResult:
    """One config's answer from the installed Triton."""

    __slots__ = ("name", "arch", "smem_bytes", "tmem_columns", "limit_bytes", "tmem_limit", "status", "message",
                 "triton_version", "seconds", "cached", "source", "config", "num_warps")

    def __init__(self, **kw):
        for k in self.__slots__:
            setattr(self, k, kw.get(k))
        if self.source is None:
            self.source = "oracle"

    @property
    def fits(self) -> bool:
        return self.status == "fits"

    def to_dict(self) -> dict:
        return {k: getattr(self, k) for k in self.__slots__}

    def __repr__(self):
        return (f"OracleResult({self.arch}, {self.status}, smem_bytes={self.smem_bytes}, limit_bytes={self.limit_bytes}"
                f", tmem_columns={self.tmem_columns}, triton {self.triton_version}, {self.seconds:.3f} s)")


# ---- the installed Triton's pieces -------------------------------------------------------------------------

_prefix_lock = threading.Lock()
_prefixes: Dict[type, Any] = {}


def allocation_prefix(backend_cls: type):
    """The backend's own ``make_llir`` cut right after its last allocation pass, then ``pm.run``: a
    function with make_llir's parameters that returns the module. Read from the installed source."""
    with _prefix_lock:
        fn = _prefixes.get(backend_cls)
        if fn is not None:
            return fn
        version = triton_version()
        where = f"{backend_cls.__module__}.{backend_cls.__name__}.make_llir"
        try:
            src = textwrap.dedent(inspect.getsource(backend_cls.make_llir))
        except (OSError, TypeError) as e:
            raise OracleError(f"triton {version}: the source of {where} cannot be read ({e}); the oracle needs the "
                              "installed Triton's Python sources", "triton") from None
        tree = ast.parse(src)
        fdef = tree.body[0]
        if not isinstance(fdef, ast.FunctionDef):
            raise OracleError(f"triton {version}: {where} is not a function the oracle can read", "triton")
        last = -1
        for i, stmt in enumerate(fdef.body):
            for node in ast.walk(stmt):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                        node.func.attr in _ALLOC_PASSES:
                    last = i
        if last < 0:
            raise OracleError(f"triton {version}: no allocation pass ({', '.join(_ALLOC_PASSES)}) found in {where}; "
                              "this Triton is not one the compile-only recipe knows", "triton")
        assigned = {t.id for s in fdef.body[:last + 1] for n in ast.walk(s) if isinstance(n, ast.Assign)
                    for t in n.targets if isinstance(t, ast.Name)}
        if not {"pm", "mod"} <= assigned:
            raise OracleError(f"triton {version}: {where} does not build its pass manager as `pm` on `mod` before the "
                              "allocation pass; the compile-only recipe cannot cut it", "triton")
        tail = ast.parse("pm.run(mod, 'make_llir')\nreturn mod").body
        fdef.body = fdef.body[:last + 1] + tail
        fdef.decorator_list = []
        fdef.name = "_tilefit_allocation_prefix"
        ast.fix_missing_locations(tree)
        namespace = dict(sys.modules[backend_cls.__module__].__dict__)
        exec(compile_source(tree, f"<{where} cut after allocation>"), namespace)
        fn = namespace["_tilefit_allocation_prefix"]
        is_static = isinstance(inspect.getattr_static(backend_cls, "make_llir"), staticmethod)
        fn = (fn, is_static)
        _prefixes[backend_cls] = fn
        return fn


class _SplitState(threading.local):
    """The state of one make_ttgir call through its split form (``ttgir_split``)."""

    def __init__(self):
        self.replaying = False  # True: the passes before the split already ran (the module is their output)
        self.done = False  # the split point was reached in this call
        self.text: Optional[str] = None  # record mode: the module at the split point

    def reset(self, replaying: bool):
        self.replaying, self.done, self.text = replaying, False, None

    def at_split(self) -> bool:
        if self.done:
            return False
        self.done = True
        return True

    def skipping(self) -> bool:
        return self.replaying and not self.done

    def save(self, mod):
        self.text = str(mod)


_split_state = _SplitState()
share_stages = True  # False: every config runs make_ttgir whole (the benchmark's comparison)
_splits: Dict[type, Any] = {}
_split_sources: Dict[type, str] = {}  # the rewritten source, for reading
_STAGES_NAMES = ("num_stages", )


def _mentions(node, names: set) -> bool:
    for n in ast.walk(node):
        if isinstance(n, ast.Attribute) and n.attr in _STAGES_NAMES:
            return True
        if isinstance(n, ast.Name) and (n.id in names or n.id in _STAGES_NAMES):
            return True
        if isinstance(n, ast.Constant) and n.value in _STAGES_NAMES:
            return True
    return False


def _uses_name(node, name: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(node))


def ttgir_split(backend_cls: type):
    """The backend's own ``make_ttgir`` rewritten so that configs differing only in ``num_stages`` share
    the passes before its first statement that reads ``num_stages`` (Triton runs the passes of one pass
    manager in order, so running them as two pass managers is the same pipeline).

    Read from the installed source: a name assigned from an expression that reads ``num_stages`` reads
    it too, and so does a call given the whole options object; the split comes before the first such
    statement (before an ``if``/loop whose condition reads it), so every config of a group reaches it at
    the same point. Before the split, in a config that replays a saved prefix, the statements that touch
    the pass manager are skipped; at the split, the recording config runs the function's own
    ``pm.run(...)`` statement, keeps the module's text and starts a pass manager as the function does.
    Returns ``(function, is_static)``, or None when the source is not of that shape (no sharing)."""
    with _prefix_lock:
        if backend_cls in _splits:
            return _splits[backend_cls]
        _splits[backend_cls] = None
        try:
            src = textwrap.dedent(inspect.getsource(backend_cls.make_ttgir))
        except (OSError, TypeError):
            return None
        tree = ast.parse(src)
        fdef = tree.body[0]
        if not isinstance(fdef, ast.FunctionDef):
            return None
        params = [a.arg for a in fdef.args.args]
        is_static = isinstance(inspect.getattr_static(backend_cls, "make_ttgir"), staticmethod)
        ps = params if is_static else params[1:]
        if len(ps) < 3 or ps[0] != "mod":
            return None
        opt_name = ps[2]
        body = fdef.body
        runs = [i for i, st in enumerate(body) if isinstance(st, ast.Expr) and isinstance(st.value, ast.Call)
                and isinstance(st.value.func, ast.Attribute) and st.value.func.attr == "run"
                and _uses_name(st.value.func, "pm")]
        news = [st for st in body if isinstance(st, ast.Assign) and len(st.targets) == 1
                and isinstance(st.targets[0], ast.Name) and st.targets[0].id == "pm"]
        debug = [st for st in body if isinstance(st, (ast.Expr, ast.Assign)) and isinstance(st.value, ast.Call)
                 and isinstance(st.value.func, ast.Attribute) and st.value.func.attr == "enable_debug"]
        if not runs or not news:
            return None
        last_run = runs[-1]
        run_stmt = body[last_run]

        # Before the last run, `mod` may only give its context, take set_attr (of values the group
        # shares), or go to the pass manager: anything else could read the module mid-way.
        for st in body[:last_run]:
            for n in ast.walk(st):
                if isinstance(n, ast.Call) and _uses_name(n, "pm"):
                    continue
                if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == "mod" and \
                        n.attr not in ("context", "set_attr"):
                    return None

        tainted: set = set()

        def whole_options(node) -> bool:
            # the options object itself handed to a call (not one of its fields)
            for n in ast.walk(node):
                if isinstance(n, ast.Call):
                    for a in list(n.args) + [k.value for k in n.keywords]:
                        if isinstance(a, ast.Name) and a.id == opt_name:
                            return True
            return False

        def dependent(st) -> bool:
            if isinstance(st, (ast.If, ast.While)):
                return _mentions(st.test, tainted) or whole_options(st.test)
            if isinstance(st, (ast.For, ast.AsyncFor, ast.With, ast.Try)):
                return _mentions(st, tainted) or whole_options(st)
            return _mentions(st, tainted) or whole_options(st)

        def touches_pm(st) -> bool:
            return isinstance(st, ast.Expr) and _uses_name(st, "pm")

        split_tpl = ast.parse(
            "if _tilefit_split.at_split():\n"
            "    if not _tilefit_split.replaying:\n"
            "        RUN\n"
            "        _tilefit_split.save(mod)\n"
            "    NEW\n").body[0]
        inner = split_tpl.body[0]
        inner.body[0] = run_stmt
        split_tpl.body[1] = news[0]
        if debug:
            split_tpl.body.append(debug[0])
        found = [False]

        def rewrite(stmts):
            out = []
            for st in stmts:
                if isinstance(st, (ast.Assign, ast.AugAssign, ast.AnnAssign)) and not _uses_name(st, "pm") \
                        and dependent(st):
                    # a value read from num_stages: what reads it later reads num_stages
                    for t in (st.targets if isinstance(st, ast.Assign) else [st.target]):
                        for n in ast.walk(t):
                            if isinstance(n, ast.Name):
                                tainted.add(n.id)
                    out.append(st)
                    continue
                compound = isinstance(st, (ast.For, ast.AsyncFor, ast.While, ast.With, ast.Try))
                if dependent(st) or (compound and _uses_name(st, "pm")):
                    out.append(copy.deepcopy(split_tpl))
                    found[0] = True
                    out.append(st)
                    continue
                if isinstance(st, ast.If):
                    st.body = rewrite(st.body)
                    st.orelse = rewrite(st.orelse)
                    out.append(st)
                    continue
                if touches_pm(st):
                    guard = ast.parse("if not _tilefit_split.skipping():\n    pass").body[0]
                    guard.body = [st]
                    out.append(guard)
                    continue
                out.append(st)
            return out

        fdef.body = rewrite(body[:last_run]) + body[last_run:]
        if not found[0]:
            return None
        fdef.decorator_list = []
        fdef.name = "_tilefit_make_ttgir_split"
        ast.fix_missing_locations(tree)
        where = f"{backend_cls.__module__}.{backend_cls.__name__}.make_ttgir"
        namespace = dict(sys.modules[backend_cls.__module__].__dict__)
        namespace["_tilefit_split"] = _split_state
        exec(compile_source(tree, f"<{where} split at num_stages>"), namespace)
        _splits[backend_cls] = (namespace["_tilefit_make_ttgir_split"], is_static)
        _split_sources[backend_cls] = ast.unparse(tree) if hasattr(ast, "unparse") else ""
        return _splits[backend_cls]


def compile_source(tree, name):
    return __builtins__["compile"](tree, name, "exec") if isinstance(__builtins__, dict) else \
        __builtins__.compile(tree, name, "exec")


def _make_ir_kwargs(src, target, options, codegen_fns, module_map, context) -> dict:
    have = {"target": target, "options": options, "codegen_fns": codegen_fns, "module_map": module_map,
            "context": context}
    params = [p for p in inspect.signature(src.make_ir).parameters]
    missing = [p for p in params if p not in have]
    if missing:
        raise OracleError(f"triton {triton_version()}: ASTSource.make_ir takes {params}; the oracle does not know "
                          f"{missing}", "triton")
    return {p: have[p] for p in params}


# ---- signatures ---------------------------------------------------------------------------------------------

_TORCH_TYPES = {
    "float16": "fp16", "half": "fp16", "bfloat16": "bf16", "float32": "fp32", "float": "fp32", "float64": "fp64",
    "double": "fp64", "float8_e4m3fn": "fp8e4nv", "float8_e5m2": "fp8e5", "float8_e4m3fnuz": "fp8e4b8",
    "float8_e5m2fnuz": "fp8e5b16", "int8": "i8", "uint8": "u8", "int16": "i16", "int32": "i32", "int64": "i64",
    "bool": "i1", "uint16": "u16", "uint32": "u32", "uint64": "u64",
}


def _pointee(dtype: Any) -> Optional[str]:
    name = str(dtype)
    name = name.split(".")[-1]
    return _TORCH_TYPES.get(name)


def signature_of(fn, args: Dict[str, Any]) -> Tuple[Dict[str, str], Dict[str, Any], Dict[str, Any]]:
    """(signature, constexprs, attrs) of a launch from its arguments, as Triton's JIT specialises them
    (runtime/jit.py: pointers and integers divisible by 16 get tt.divisibility, an integer equal to 1
    becomes a constant, None a constexpr): tensors by ``.dtype``, bool i1, int i32/i64, float fp32."""
    sig: Dict[str, str] = {}
    const: Dict[str, Any] = {}
    attrs: Dict[str, Any] = {}
    params = _params(fn)
    for name, is_constexpr in params:
        if name not in args:
            continue
        v = args[name]
        if is_constexpr:
            sig[name] = "constexpr"
            const[name] = v
            continue
        if v is None:
            sig[name] = "constexpr"
            const[name] = None
        elif hasattr(v, "dtype") and not isinstance(v, (int, float, bool)):
            t = _pointee(v.dtype)
            if t is None:
                raise InputError(f"{name}: a tensor of {v.dtype}, which has no Triton pointer type the oracle knows; "
                                 f"allowed: {', '.join(sorted(_TORCH_TYPES))}", name)
            sig[name] = "*" + t
            ptr = getattr(v, "data_ptr", None)
            p = ptr() if callable(ptr) else 0
            if p % 16 == 0:
                attrs[name] = "D"
        elif isinstance(v, bool):
            sig[name] = "i1"
        elif isinstance(v, int):
            if v == 1:
                sig[name] = "constexpr"
                const[name] = 1
            else:
                sig[name] = "i32" if -2**31 <= v < 2**31 else ("u64" if v >= 2**63 else "i64")
                if v % 16 == 0:
                    attrs[name] = "D"
        elif isinstance(v, float):
            sig[name] = "fp32"
        else:
            raise InputError(f"{name}: {type(v).__name__} is not an argument the oracle can type; pass signature= "
                             "with Triton's type strings", name)
    return sig, const, attrs


def _params(fn) -> List[Tuple[str, bool]]:
    ps = getattr(fn, "params", None)
    if ps is None:
        return [(n, False) for n in fn.arg_names]
    return [(p.name, bool(getattr(p, "is_constexpr", False))) for p in ps]


def jit_function(kernel):
    """The JITFunction of a @triton.jit function, a JITFunction, or an Autotuner / Heuristics wrapper."""
    k = kernel
    for _ in range(8):
        if hasattr(k, "arg_names") and hasattr(k, "src") and hasattr(k, "fn") and not hasattr(k, "configs"):
            return k
        inner = getattr(k, "fn", None)
        if inner is None:
            break
        k = inner
    raise InputError(f"kernel: {kernel!r} is not a @triton.jit function (nor an Autotuner over one)", "kernel")


# ---- the persistent cache -----------------------------------------------------------------------------------


class Cache:
    """Results keyed by (kernel source hash, signature, constexprs, attrs, options, target, Triton version),
    in one SQLite file ($TILEFIT_ORACLE_CACHE, else ~/.cache/tilefit/oracle.sqlite)."""

    def __init__(self, path: Optional[str] = None):
        if path is None:
            path = os.environ.get("TILEFIT_ORACLE_CACHE") or os.path.join(
                os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "tilefit",
                "oracle.sqlite")
        self.path = path
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        self._local = threading.local()

    def _db(self):
        db = getattr(self._local, "db", None)
        if db is None:
            db = sqlite3.connect(self.path, timeout=60)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("CREATE TABLE IF NOT EXISTS results (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
            self._local.db = db
        return db

    def get_many(self, keys: Sequence[str]) -> Dict[str, dict]:
        out: Dict[str, dict] = {}
        db = self._db()
        for i in range(0, len(keys), 500):
            chunk = list(keys[i:i + 500])
            q = "SELECT key, value FROM results WHERE key IN (%s)" % ",".join("?" * len(chunk))
            for k, v in db.execute(q, chunk):
                out[k] = json.loads(v)
        return out

    def put_many(self, items: Dict[str, dict]):
        if not items:
            return
        db = self._db()
        with db:
            db.executemany("INSERT OR REPLACE INTO results VALUES (?, ?)",
                           [(k, json.dumps(v, sort_keys=True)) for k, v in items.items()])


def source_hash(fn) -> str:
    """The kernel's source hash: Triton's own JITFunction.cache_key (the source and the jit functions it
    calls), else the source text."""
    try:
        return str(fn.cache_key)
    except Exception:  # noqa: BLE001 - older JITFunctions: the source alone
        return hashlib.sha256(fn.src.encode()).hexdigest()


def cache_key(src_hash: str, signature, constexprs, attrs, options: dict, arch: str, version: str) -> str:
    text = json.dumps([src_hash, signature, {str(k): repr(v) for k, v in (constexprs or {}).items()},
                       {str(k): v for k, v in (attrs or {}).items()},
                       {k: repr(v) for k, v in sorted(options.items())}, arch, version], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


# ---- the compile ---------------------------------------------------------------------------------------------


class _Frontend:
    """TTIR shared by configs that differ only in num_warps / num_stages / maxnreg, and the TTGIR at
    make_ttgir's num_stages split shared by configs that differ only in num_stages (stage outputs
    re-parsed from their text), per process."""

    def __init__(self):
        self.texts: Dict[str, str] = {}
        self.prefixes: Dict[str, str] = {}  # TTGIR at make_ttgir's num_stages split (ttgir_split)
        self.dir = None

    def path(self, key, suffix=".ttir"):
        if self.dir is None:
            self.dir = tempfile.mkdtemp(prefix="tilefit-oracle-")
        return os.path.join(self.dir, key[:32] + suffix)


_frontend = _Frontend()
# Options the TTIR stage does not read: configs differing only in these share it. Checked against the
# installed make_ttir / code generator's source at first use (a version that reads them shares nothing).
_BACKEND_ONLY = ("num_warps", "num_stages", "maxnreg")


def _ttir_shareable(backend) -> bool:
    try:
        import triton.compiler.code_generator as cg
        text = inspect.getsource(type(backend).make_ttir) + inspect.getsource(cg)
    except (OSError, TypeError):
        return False
    return not any(f"options.{o}" in text or f"opt.{o}" in text for o in _BACKEND_ONLY)


_shareable: Dict[type, bool] = {}


def _may_need_completion(target_backend: str, capability: Any) -> bool:
    return target_backend == "cuda" and isinstance(capability, int) and capability < 89


def _needs_completion(target_backend: str, capability: Any, ttgir: str) -> Optional[str]:
    """Refusals that come after the allocation pass: fp8 conversions on NVIDIA before sm_89 reach
    ptxas (cvt.*.e4m3/e5m2 need sm_89), which refuses some of them. For those modules the oracle
    runs the rest of the installed pipeline rather than say "fits"."""
    if _may_need_completion(target_backend, capability) and "f8E" in ttgir:
        return "fp8 on an NVIDIA target before sm_89"
    return None


def _options_dict(num_warps, num_stages, num_ctas, maxnreg, extra) -> dict:
    o = {"num_warps": num_warps, "num_stages": num_stages}
    if num_ctas is not None:
        o["num_ctas"] = num_ctas
    if maxnreg is not None:
        o["maxnreg"] = maxnreg
    for k, v in (extra or {}).items():
        if v is not None:
            o[k] = v
    return o


def compile(kernel, signature: Optional[Dict[str, str]] = None, constexprs: Optional[Dict[str, Any]] = None,
            arch: Any = "sm_90", num_warps: int = 4, num_stages: int = 3, num_ctas: Optional[int] = None,
            maxnreg: Optional[int] = None, args: Optional[Dict[str, Any]] = None, attrs: Optional[dict] = None,
            cache: Any = None, name: Optional[str] = None, **options: Any) -> OracleResult:
    """One config through the installed Triton up to and including its allocation passes.

    ``kernel``: a @triton.jit function (or Autotuner over one); ``signature``: Triton's type string for
    every non-constexpr argument (``{"a_ptr": "*fp16", "M": "i32"}``), or ``args`` (example arguments:
    tensors by their dtype, ints, floats) to type them as Triton's JIT does; ``constexprs``: the
    constexpr arguments' values; ``options``: other backend options (AMD ``waves_per_eu``, ``kpack``,
    ``matrix_instr_nonkdim``, ``schedule_hint``...). ``attrs``: {arg: "D"} divisibility by 16 (default:
    every pointer, as for tensors from torch). ``cache``: a ``Cache``, True for the default one, or None."""
    return compile_many(kernel, [dict(constexprs or {}, num_warps=num_warps, num_stages=num_stages,
                                      **({"num_ctas": num_ctas} if num_ctas is not None else {}),
                                      **({"maxnreg": maxnreg} if maxnreg is not None else {}), **options)],
                        signature=signature, arch=arch, args=args, attrs=attrs, cache=cache,
                        names=[name] if name else None)[0]


def _split(cfg: dict, fn) -> Tuple[Dict[str, Any], Dict[str, Any]]:
    consts: Dict[str, Any] = {}
    opts: Dict[str, Any] = {}
    names = set(fn.arg_names)
    for k, v in cfg.items():
        if k in _OPTION_NAMES or (k not in names and k in ("name", )):
            if k != "name":
                opts[k] = v
        else:
            consts[k] = v
    opts.setdefault("num_warps", 4)
    opts.setdefault("num_stages", 3)
    return consts, opts


def compile_many(kernel, configs: Sequence[dict], signature: Optional[Dict[str, str]] = None, arch: Any = "sm_90",
                 args: Optional[Dict[str, Any]] = None, attrs: Optional[dict] = None, cache: Any = None,
                 names: Optional[Sequence[str]] = None, constexprs: Optional[Dict[str, Any]] = None,
                 processes: int = 1, strict: bool = True) -> List[OracleResult]:
    """Many configs of one kernel on one target: each config a dict of constexprs plus num_warps,
    num_stages (num_ctas, maxnreg, AMD options). Configs differing only in num_warps/num_stages share
    the front end; ``processes`` > 1 spreads them over forked processes; a ``cache`` answers repeats."""
    fn = jit_function(kernel)
    version = triton_version()
    a, target_arch, warp, limit = resolve_arch(arch)
    base_consts = dict(constexprs or {})
    if signature is None:
        if args is None:
            raise InputError("signature: give the kernel's argument types (signature={\"a_ptr\": \"*fp16\", ...}) "
                             "or example arguments (args=...)", "signature")
        signature, c2, a2 = signature_of(fn, args)
        base_consts = dict(c2, **base_consts)
        if attrs is None:
            attrs = a2
    if cache is True:
        cache = Cache()
    jobs = []
    for i, cfg in enumerate(configs):
        consts, opts = _split(dict(cfg), fn)
        consts = dict(base_consts, **consts)
        nm = names[i] if names else cfg.get("name", f"config #{i}")
        jobs.append((nm, consts, opts))
    # Each config's own signature (its constexprs are "constexpr"): a config naming an unknown argument,
    # or leaving one out, is an error of that config alone (strict: raised).
    sigs: Dict[frozenset, Any] = {}
    results: List[Optional[OracleResult]] = [None] * len(jobs)
    per_job = []
    for i, j in enumerate(jobs):
        names_ = frozenset(j[1])
        if names_ not in sigs:
            try:
                sg = _full_signature(fn, signature, names_)
                sigs[names_] = (sg, _default_attrs(sg, attrs, signature))
            except InputError as e:
                sigs[names_] = e
        got = sigs[names_]
        if isinstance(got, InputError):
            if strict:
                raise InputError(f"{j[0]}: {got}", got.field)
            results[i] = OracleResult(name=j[0], arch=a, limit_bytes=limit, status="error", message=str(got),
                                      triton_version=version, seconds=0.0, cached=False, config=dict(configs[i]))
        per_job.append(got)
    h = source_hash(fn) if cache is not None else ""
    keys = [cache_key(h, pj[0], j[1], pj[1], j[2], a, version) if not isinstance(pj, InputError) else ""
            for j, pj in zip(jobs, per_job)] if cache is not None else []
    hits = cache.get_many([k for k in keys if k]) if cache is not None else {}
    todo = []
    for i, j in enumerate(jobs):
        if results[i] is not None:
            continue
        if cache is not None and keys[i] in hits:
            d = dict(hits[keys[i]], name=j[0], cached=True, seconds=0.0, config=dict(configs[i]))
            results[i] = OracleResult(**d)
        else:
            todo.append(i)
    if todo:
        payload = (fn, a, target_arch, warp, limit, version)
        items = [(i, jobs[i] + per_job[i]) for i in todo]
        if processes and processes > 1 and len(todo) > 1:
            done = _in_processes(payload, items, processes)
        else:
            done = [(i, _one(payload, *job)) for i, job in items]
        fresh = {}
        for i, r in done:
            r.config = dict(configs[i])
            results[i] = r
            if cache is not None and r.status in ("fits", "does_not_fit", "invalid"):
                d = r.to_dict()
                for k in ("name", "seconds", "cached", "config"):
                    d.pop(k, None)
                fresh[keys[i]] = d
        if cache is not None:
            cache.put_many(fresh)
    return results  # type: ignore[return-value]


def _full_signature(fn, signature: Dict[str, str], const_names) -> Dict[str, str]:
    """Triton's ASTSource signature: every parameter, constexprs as "constexpr"; InputError for a
    missing argument or an unknown name."""
    if not isinstance(signature, dict):
        raise InputError(f"signature: expected a dict of argument name to Triton type string; got "
                         f"{type(signature).__name__}", "signature")
    params = _params(fn)
    names = [p for p, _ in params]
    for k in list(signature) + list(const_names):
        if k not in names:
            raise InputError(f"{k}: not an argument of {fn.__name__}; its arguments: {', '.join(names)}", k)
    out = {}
    for p, is_constexpr in params:
        if p in const_names or is_constexpr or signature.get(p) == "constexpr":
            out[p] = "constexpr"
        elif p in signature:
            t = signature[p]
            if not isinstance(t, str) or not t:
                raise InputError(f"{p}: expected a Triton type string such as \"*fp16\" or \"i32\"; got {t!r}", p)
            out[p] = t.split(":")[0]
        else:
            raise InputError(f"{p}: missing; {fn.__name__} takes it (give its type in the signature, or its value "
                             "as a constexpr)", p)
    return out


def _default_attrs(sig: Dict[str, str], attrs: Optional[dict], given: Dict[str, str]) -> Dict[str, str]:
    """Divisibility by 16 ("D", backend.parse_attr): ``attrs`` when given, else every pointer (torch's
    allocations are 256-byte aligned) and every argument typed "T:16" (the form of Triton's AOT
    compiler, triton/tools/compile.py); "*T:1" or a pointer typed "*T:0"... is left without it."""
    if attrs is not None:
        return {k: v for k, v in attrs.items() if v}
    out = {}
    for k, t in sig.items():
        g = given.get(k, "")
        suffix = g.split(":")[1] if isinstance(g, str) and ":" in g else None
        if suffix is not None:
            if suffix not in ("16", "1", ""):
                raise InputError(f"{k}: {g!r}: the part after ':' is a divisibility, 16 (or 1 for none)", k)
            if suffix == "16":
                out[k] = "D"
        elif t.startswith("*"):
            out[k] = "D"
    return out


def _in_processes(payload, items, processes):
    import multiprocessing as mp
    # Configs sharing a front end go to the same process.
    groups: Dict[str, list] = {}
    for i, job in items:
        key = json.dumps({k: repr(v) for k, v in sorted(job[1].items())}) + json.dumps(
            {k: repr(v) for k, v in sorted(job[2].items()) if k not in _BACKEND_ONLY})
        groups.setdefault(key, []).append((i, job))
    chunks: List[list] = [[] for _ in range(processes)]
    for n, g in enumerate(sorted(groups.values(), key=len, reverse=True)):
        min(chunks, key=len).extend(g)
    chunks = [c for c in chunks if c]
    ctx = mp.get_context("fork")
    global _payload
    _payload = payload
    with ctx.Pool(len(chunks)) as pool:
        out = pool.map(_run_chunk, chunks)
    return [x for c in out for x in c]


_payload = None


def _run_chunk(chunk):
    return [(i, _one(_payload, *job)) for i, job in chunk]


def _one(payload, name, consts, opts, sig, attrs) -> OracleResult:
    fn, arch, target_arch, warp, limit, version = payload
    t0 = time.perf_counter()
    base = dict(name=name, arch=arch, limit_bytes=limit, tmem_limit=TMEM_COLUMNS if arch.startswith("sm_") else None,
                triton_version=version, cached=False, num_warps=opts.get("num_warps"))
    try:
        shared, tmem, warps = _allocate(fn, sig, consts, attrs, target_arch, warp, opts)
    except InputError:
        raise
    except Exception as e:  # noqa: BLE001 - Triton's refusal or crash: the config is invalid, with its message
        msg = _first_line(e)
        return OracleResult(status="invalid", message=f"{type(e).__name__}: {msg}", smem_bytes=None, tmem_columns=None,
                            seconds=time.perf_counter() - t0, **base)
    status = "fits"
    msg = None
    if shared > limit:
        status, msg = "does_not_fit", f"{shared} B of shared memory > {limit} B"
    elif tmem and tmem > TMEM_COLUMNS:
        status, msg = "does_not_fit", f"{tmem} tensor-memory columns > {TMEM_COLUMNS}"
    base["num_warps"] = warps or base["num_warps"]
    return OracleResult(status=status, message=msg, smem_bytes=shared, tmem_columns=tmem,
                        seconds=time.perf_counter() - t0, **base)


def _first_line(e: BaseException) -> str:
    text = str(e).strip() or type(e).__name__
    lines = [ln for ln in text.splitlines() if ln.strip()]
    # ptxas: its first "error :" line says why (the last line only says it aborted).
    for ln in lines:
        if ln.startswith("ptxas") and "error" in ln and "fatal" not in ln:
            return ln.strip()[:500]
    # Triton's CompilationError prints the source around the error first; keep the message lines.
    for ln in reversed(lines):
        if "Error" in ln or "error" in ln:
            return ln.strip()[:500]
    return lines[-1].strip()[:500] if lines else text


def _allocate(fn, sig, consts, attrs, target_arch, warp, opts) -> Tuple[int, Optional[int], Optional[int]]:
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource, make_backend
    from triton._C.libtriton import ir

    backend_name = "cuda" if isinstance(target_arch, int) else "hip"
    target = GPUTarget(backend_name, target_arch, warp)
    backend = make_backend(target)
    src = ASTSource(fn=fn, signature=dict(sig), constexprs=dict(consts),
                    attrs={(fn.arg_names.index(k), ): backend.parse_attr(v) for k, v in attrs.items()})
    extra = src.parse_options()
    options = backend.parse_options(dict(opts, **extra))
    prefix, is_static = allocation_prefix(type(backend))
    stages: Dict[str, Any] = {}
    backend.add_stages(stages, options, src.language)
    # The llir stage calls self.make_llir(...): the instance attribute answers with the cut.
    if is_static:
        backend.make_llir = prefix
    else:
        backend.make_llir = prefix.__get__(backend, type(backend))
    context = ir.context()
    ir.load_dialects(context)
    backend.load_dialects(context)
    metadata = {"target": target, **options.__dict__}
    shareable = _shareable.get(type(backend))
    if shareable is None:
        shareable = _shareable[type(backend)] = _ttir_shareable(backend)
    names = list(stages)
    first = names.index(src.ext)
    fkey = pkey = None
    module = None
    split = None
    replaying = False
    if shareable:
        fkey = hashlib.sha256(json.dumps([id(fn), source_hash(fn), sig, {k: repr(v) for k, v in consts.items()},
                                          attrs, str(target), {k: repr(v) for k, v in sorted(opts.items())
                                                               if k not in _BACKEND_ONLY}]).encode()).hexdigest()
        split = ttgir_split(type(backend)) if "ttgir" in names and share_stages else None
        if split is not None:
            # The passes before make_ttgir's first num_stages reader: shared by the configs whose parsed
            # options differ only in num_stages.
            pkey = hashlib.sha256(json.dumps([fkey, {k: repr(v) for k, v in sorted(options.__dict__.items())
                                                     if k not in _STAGES_NAMES}]).encode()).hexdigest()
            split_fn, split_static = split
            backend.make_ttgir = split_fn if split_static else split_fn.__get__(backend, type(backend))
            path = _frontend.prefixes.get(pkey)
            if path is not None:
                module = ir.parse_mlir_module(path, context)
                module.context = context
                first = names.index("ttgir")
                replaying = True
        path = _frontend.texts.get(fkey) if module is None else None
        if path is not None:
            module = ir.parse_mlir_module(path, context)
            module.context = context
            first = names.index("ttir") + 1
    if module is None:
        codegen_fns = backend.get_codegen_implementation(options)
        module_map = backend.get_module_map()
        module = src.make_ir(**_make_ir_kwargs(src, target, options, codegen_fns, module_map, context))
    ttgir_text = None
    for ext in names[first:]:
        if ext == "llir" and _may_need_completion(backend_name, target_arch):
            ttgir_text = str(module)
        if ext == "ttgir" and split is not None:
            _split_state.reset(replaying=replaying)
        module = stages[ext](module, metadata)
        if ext == "ttgir" and split is not None and _split_state.text is not None:
            p = _frontend.path(pkey, ".ttgir")
            with open(p, "w") as f:
                f.write(_split_state.text)
            _frontend.prefixes[pkey] = p
            _split_state.text = None
        if ext == "ttir" and fkey is not None:
            p = _frontend.path(fkey)
            with open(p, "w") as f:
                f.write(str(module))
            _frontend.texts[fkey] = p
        if ext == "llir":
            break
    shared = module.get_int_attr("ttg.shared")
    tmem = module.get_int_attr("ttg.tensor_memory_size")
    warps = module.get_int_attr("ttg.total-num-warps")
    why = _needs_completion(backend_name, target_arch, ttgir_text or "")
    if why:
        _complete(backend, options, ttgir_text, metadata)
    return int(shared or 0), (int(tmem) if tmem is not None else None), warps


def _complete(backend, options, ttgir_text, metadata):
    """The rest of the installed pipeline (make_llir, PTX, ptxas) from the TTGIR, for modules whose
    refusal comes later: raises what Triton raises."""
    from triton._C.libtriton import ir
    stages: Dict[str, Any] = {}
    if "make_llir" in backend.__dict__:
        del backend.make_llir
    backend.add_stages(stages, options, _language())
    context = ir.context()
    ir.load_dialects(context)
    backend.load_dialects(context)
    with tempfile.NamedTemporaryFile("w", suffix=".ttgir", delete=False) as f:
        f.write(ttgir_text)
        path = f.name
    try:
        module = ir.parse_mlir_module(path, context)
        module.context = context
        names = list(stages)
        for ext in names[names.index("ttgir") + 1:]:
            module = stages[ext](module, metadata)
    finally:
        os.unlink(path)


def _language():
    from triton.compiler.compiler import ASTSource
    try:
        from triton._utils import Language  # noqa: F401
    except Exception:  # noqa: BLE001
        pass
    return ASTSource.__init__.__globals__["Language"].TRITON
