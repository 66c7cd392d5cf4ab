"""Unit tests for probe.py and check_citations.py. They need neither CUTLASS nor nvcc:

    python3 -m unittest discover -s tools/cutlass -p 'test_*.py'     # from the repository root

probe.py: the generated type chains for a few rows, the same chain as the `cutlass.cxx` the
earlier measurements recorded for every row that spells one out, the stratified sample, and
how compile / run results become measured rows. check_citations.py: the lexer, the citation
parser and the resolution rules against a small fake CUTLASS tree.
"""

import glob
import json
import os
import re
import sys
import tempfile
import textwrap
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import check_citations as cc  # noqa: E402
import probe  # noqa: E402

ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
# Every measured-row file, as the README's `tests/data/*.jsonl` passes them: the loader keeps
# the CUTLASS rows (engine launcher rows have their own probes in fp8_engines/, Triton rows are
# measured by tools/triton/); kernel-names.jsonl holds names, not rows.
ALL_DATA = sorted(f for f in glob.glob(os.path.join(ROOT, "tests", "data", "*.jsonl"))
                  if os.path.basename(f) != "kernel-names.jsonl")
DATA = [f for f in ALL_DATA
        if "fp8-engines" not in os.path.basename(f) and "triton" not in os.path.basename(f)
        and "attention" not in os.path.basename(f)]


def rows():
    return probe.load_rows(DATA)


def row(row_id):
    for it in rows():
        if it.row.get("id") == row_id:
            return it.row
    raise KeyError(row_id)


def norm(t):
    """A C++ type as a comparable string: no namespaces of cutlass/cute, no spaces, no '*'."""
    t = re.sub(r"\b(cutlass|cute)::", "", t)
    return re.sub(r"\s+", "", t).replace("*", "")


def split_args(s):
    out, depth, cur = [], 0, ""
    for ch in s:
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    out.append(cur.strip())
    return out


SM100_ABBREV = [(r"\bRM\b", "layout::RowMajor"), (r"\bCM\b", "layout::ColumnMajor"),
                (r"\bG::", "gemm::"), (r"\bE::", "epilogue::"), (r"\bbf16\b", "bfloat16_t")]


def recorded_chain(r):
    """The roles of a row's `cutlass.cxx` when it spells out the template arguments
    (Cfg3x<...> in cutlass-4.7.jsonl, Probe<...> in measured-sm100 / measured-sm120-sm90)."""
    cxx = r.get("cutlass", {}).get("cxx", "")
    m = re.match(r"(Cfg3x|Probe)<(.*)>$", cxx)
    if not m:
        return None
    a = split_args(m.group(2))
    if m.group(1) == "Cfg3x":      # 23: Arch..AlignB, Acc, C..AlignD, Tile, Cluster, MS, ES, Epi, Fusion, Stages, Grouped
        names = ["Arch", "OpClass", "ElementA", "LayoutA", "AlignmentA", "ElementB", "LayoutB",
                 "AlignmentB", "ElementAccumulator", "ElementC", "LayoutC", "AlignmentC",
                 "ElementD", "LayoutD", "AlignmentD", "TileShape", "ClusterShape",
                 "MainloopSchedule", "EpilogueSchedule", "EpilogueTile", "Fusion", "Stages",
                 "Grouped"]
    elif len(a) == 21 and a[0].startswith("cutlass::arch::OpClass"):   # measured-sm100
        names = ["OpClass", "ElementA", "LayoutA", "AlignmentA", "ElementB", "LayoutB",
                 "AlignmentB", "ElementC", "LayoutC", "AlignmentC", "ElementD", "LayoutD",
                 "AlignmentD", "TileShape", "ClusterShape", "MainloopSchedule",
                 "EpilogueSchedule", "EpilogueTile", "Fusion", "Stages", "Grouped"]
    else:                          # measured-sm120-sm90: 21, no accumulator, no stages
        names = ["Arch", "OpClass", "ElementA", "LayoutA", "AlignmentA", "ElementB", "LayoutB",
                 "AlignmentB", "ElementC", "LayoutC", "AlignmentC", "ElementD", "LayoutD",
                 "AlignmentD", "TileShape", "ClusterShape", "MainloopSchedule",
                 "EpilogueSchedule", "EpilogueTile", "Fusion", "Grouped"]
    chain = dict(zip(names, a))
    for k, v in list(chain.items()):
        for rx, full in SM100_ABBREV:
            v = re.sub(rx, full, v)
        if k == "EpilogueTile" and v == "Auto":
            v = "cutlass::epilogue::collective::EpilogueTileAuto"
        lc = re.match(r"LC<(.*),(.*)>$", v)
        if lc:
            v = f"epilogue::fusion::LinearCombination<{lc.group(1)},float,{lc.group(2)},float>"
        chain[k] = v
    if chain.get("Fusion") == "void":
        chain["Fusion"] = (f"epilogue::fusion::LinearCombination<{chain['ElementD']},float,"
                           f"{chain['ElementC']},float>")
    return chain


#: Recorded template arguments a config cannot express (the row's numbers equal those of a
#: row with the spelling the generator uses).
CONFIG_CANNOT_SAY = {
    ("measured-sm120-sm90/sm120bs_nvfp4xnvfp4_bf16_bf16_256x128x128_pingpong_nvf4tag",
     "MainloopSchedule"):
        "measured with KernelTmaWarpSpecializedPingpongNvf4Sm120; its config (mma auto) is the "
        "generic KernelTmaWarpSpecializedPingpong row's, with the same sizes",
}


class GeneratedTypeChains(unittest.TestCase):
    def test_sm120_nvfp4_auto(self):
        p = probe.generate(row("sm120bs_nvfp4xnvfp4_bf16_bf16_128x128x128_auto"))
        t = p.types
        self.assertEqual(p.arch_flag, "sm_120a")
        self.assertEqual(t["ElementA"], "cutlass::nv_float4_t<cutlass::float_e2m1_t>")
        self.assertEqual(t["LayoutA"], "cutlass::layout::RowMajor")
        self.assertEqual(t["LayoutB"], "cutlass::layout::ColumnMajor")
        self.assertEqual(t["AlignmentA"], "32")
        self.assertEqual(t["MainloopSchedule"], "cutlass::gemm::collective::KernelScheduleAuto")
        self.assertEqual(t["EpilogueSchedule"],
                         "cutlass::epilogue::collective::EpilogueScheduleAuto")
        self.assertIn("StageCountAutoCarveout<static_cast<int>(sizeof(typename "
                      "CollectiveEpilogue::SharedStorage))>", t["StageCountType"])
        self.assertEqual(t["ProblemShape"], "cute::Shape<int,int,int,int>")
        # the chain of the program: epilogue builder -> mainloop builder -> GemmUniversal
        src = p.source
        self.assertLess(src.index("cutlass::epilogue::collective::CollectiveBuilder<"),
                        src.index("cutlass::gemm::collective::CollectiveBuilder<"))
        self.assertIn("cutlass::gemm::kernel::GemmUniversal<", src)
        self.assertIn("sizeof(typename GemmKernel::SharedStorage)", src)

    def test_trtllm_finalize_swap_ab(self):
        p = probe.generate(row("trtllm_moe_sm120bs_grouped_nvfp4xnvfp4_bf16_128x128x128_finalize_swapab"))
        t = p.types
        self.assertEqual(t["ElementC"], "cutlass::bfloat16_t")   # C = the output type
        self.assertEqual(t["ElementD"], "void")                  # finalize: no D store
        self.assertEqual(t["LayoutC"], "cutlass::layout::ColumnMajor*")   # swap_ab
        self.assertEqual(t["EpilogueSchedule"], "cutlass::epilogue::TmaWarpSpecialized")
        self.assertEqual(t["MainloopSchedule"], "cutlass::gemm::collective::KernelScheduleAuto")
        self.assertTrue(t["Fusion"].startswith("tilefit_probe::FinalizeLikeScatter<"
                                               "cutlass::layout::ColumnMajor"))
        self.assertTrue(t["Fusion"].endswith("float, true>"))    # fp32 router scales, swapped
        self.assertIn("GroupProblemShape<cute::Shape<int64_t,int64_t,int64_t>>", t["ProblemShape"])
        self.assertIn("struct FusionCallbacks<", p.source)
        self.assertIn("Sm90RowBroadcast<0, CtaTileShapeMNK, ElementScale*", p.source)

    def test_trtllm_default(self):
        t = probe.generate(row("trtllm_moe_sm120bs_grouped_nvfp4xnvfp4_bf16_128x128x128_default_noswap")).types
        self.assertEqual(t["ElementD"], "cutlass::bfloat16_t")
        self.assertEqual(t["LayoutD"], "cutlass::layout::RowMajor*")
        self.assertIn("LinearCombination<cutlass::bfloat16_t, float, cutlass::bfloat16_t, float>",
                      t["Fusion"])

    def test_sm90_tf32_is_float_and_explicit_stages(self):
        t = probe.generate(row("sm90_tf32_f32_f32_128x128x32_c1x1x1_cooperative_tma")).types
        self.assertEqual(t["ElementA"], "float")
        self.assertEqual(t["AlignmentA"], "4")
        t = probe.generate(row("sm90_bf16_bf16_bf16_128x128x64_c1x1x1_cooperative_tma_S7")).types
        self.assertEqual(t["StageCountType"], "cutlass::gemm::collective::StageCount<7>")
        self.assertEqual(t["EpilogueSchedule"], "cutlass::epilogue::TmaWarpSpecializedCooperative")

    def test_sm100_blockscale_out(self):
        t = probe.generate(row("sm100_nvfp4_bf16_e2m1_128x128x256_c1x1x1_1sm_tma_lcbsf")).types
        self.assertEqual(t["MainloopSchedule"], "cutlass::gemm::KernelTmaWarpSpecialized1SmNvf4Sm100")
        self.assertEqual(t["EpilogueSchedule"], "cutlass::epilogue::TmaWarpSpecialized1Sm")
        self.assertEqual(t["Fusion"], "cutlass::epilogue::fusion::LinCombBlockScaleFactor<16, "
                         "cutlass::float_e2m1_t, float, cutlass::float_ue8m0_t, "
                         "cutlass::layout::RowMajor, cutlass::bfloat16_t>")

    def test_sm80_device_gemm(self):
        p = probe.generate(row("sm80_s8_64x64x64_w32x32x64_S4"))
        self.assertEqual(p.arch_flag, "sm_80")
        self.assertEqual(p.fixed_stages, 4)
        t = p.types
        self.assertEqual(t["InstructionShape"], "cutlass::gemm::GemmShape<16, 8, 32>")
        self.assertEqual(t["WarpShape"], "cutlass::gemm::GemmShape<32, 32, 64>")
        self.assertEqual(t["Operator"], "cutlass::arch::OpMultiplyAddSaturate")
        self.assertTrue(t["EpilogueOutputOp"].startswith(
            "cutlass::epilogue::thread::LinearCombinationClamp<int8_t, 16"))
        self.assertIn("cutlass::gemm::device::Gemm<", p.source)
        self.assertIn("sizeof(typename GemmKernel::Mma::SharedStorage)", p.source)

    def test_every_row_generates(self):
        for it in rows():
            with self.subTest(row=it.key):
                p = probe.generate(it.row)
                self.assertIn("int main()", p.source)

    def test_chain_matches_recorded_cxx(self):
        """Wherever a row records the full template argument list it was measured with, the
        chain derived from its config is the same (namespaces and spacing aside)."""
        checked = 0
        for it in rows():
            rec = recorded_chain(it.row)
            if rec is None:
                continue
            t = probe.generate(it.row).types
            for role, want in rec.items():
                if role in ("Grouped", "Stages") or (it.key, role) in CONFIG_CANNOT_SAY:
                    continue
                got = t.get(role)
                if role == "ElementAccumulator":
                    got = t["ElementAccumulator"]
                with self.subTest(row=it.key, role=role):
                    self.assertEqual(norm(got), norm(want))
            stages = rec.get("Stages")
            if stages is not None:
                want = "StageCountAutoCarveout" if stages == "0" else f"StageCount<{stages}>"
                self.assertIn(want, t["StageCountType"], it.key)
            checked += 1
        self.assertGreaterEqual(checked, 133)

    def test_config_defaults_and_trtllm_tile_names(self):
        cfg = probe.normalize({"arch": "sm_120a", "tile": "CtaShape128x256x64B",
                               "dtype": "nvfp4"})
        self.assertEqual((cfg.m, cfg.n, cfg.k), (128, 256, 128))   # K in bytes, fp4
        self.assertEqual(cfg.family, "sm120_blockscaled")
        self.assertEqual((cfg.c, cfg.d, cfg.acc), ("bf16", "bf16", "f32"))
        self.assertIsNone(cfg.stages)

    def test_unexpressible_config(self):
        with self.assertRaises(probe.GenError):
            probe.generate({"id": "x", "config": {"arch": "sm90", "tile": [128, 128, 64],
                                                  "dtype": "bf16",
                                                  "epilogue": {"variant": "tma", "stages_c": 2}}})


class Loader(unittest.TestCase):
    def test_other_rows_are_skipped_and_counted(self):
        skipped = []
        items = probe.load_rows(ALL_DATA, skipped)
        self.assertEqual([it.key for it in items], [it.key for it in rows()])
        stems = {k.split("/")[0] for k in skipped}
        self.assertEqual(stems, {"fp8-engines-cutlass-4.7", "measured-fp8-engines",
                                 "triton-3.6", "measured-triton-3.6", "measured-triton-3.6-grid",
                                 "attention-launch-rows"})
        self.assertGreater(len(skipped), 1000)


class Sample(unittest.TestCase):
    def test_sample_covers_families_and_trtllm(self):
        picked = probe.select(rows(), None, 60)
        self.assertEqual(len(picked), 60)
        fams = {it.row["config"]["kernel"] for it in picked}
        self.assertEqual(fams, {"sm120_blockscaled", "sm120_dense", "sm90_tma_ws", "sm100_umma",
                                "sm80_multistage"})
        epis = {str(it.row["config"].get("epilogue")) for it in picked}
        self.assertTrue({"finalize", "trtllm_default", "nosmem", "tma"} <= epis)
        self.assertEqual({it.stem for it in picked}, {os.path.basename(p)[:-6] for p in DATA})
        statuses = {it.row["expect"]["status"] for it in picked}
        self.assertEqual(statuses, {"fits", "does_not_fit", "invalid"})


class MeasuredRows(unittest.TestCase):
    def item(self, row_id):
        for it in rows():
            if it.row.get("id") == row_id:
                return it
        raise KeyError(row_id)

    def test_fits_and_over_the_limit(self):
        it = self.item("sm120bs_nvfp4xnvfp4_bf16_bf16_128x128x128_auto")
        entry = {"sm": 120, "stages_auto": True, "fixed_stages": None}
        res = {"compile_rc": 0, "run": '{"stages": 4, "smem_bytes": 88064, '
               '"epilogue_smem": 13312, "mainloop_smem": 74752}'}
        m = probe.measured_row(it, entry, res, "13.0", "7107b05")
        self.assertEqual(m["expect"]["status"], "fits")
        self.assertEqual(probe.compare(it, m), [])
        res["run"] = res["run"].replace("88064", "101377")
        m = probe.measured_row(it, entry, res, "13.0", "7107b05")
        self.assertEqual(m["expect"]["status"], "does_not_fit")
        self.assertEqual(probe.compare(it, m)[0][0], "status")

    def test_compile_failures(self):
        it = self.item("sm120bs_nvfp4xnvfp4_bf16_bf16_128x256x256_auto")
        entry = {"sm": 120, "stages_auto": True, "fixed_stages": None}
        res = {"compile_rc": 2, "error": "error: static assertion failed with \"Specialization "
               "requires Stages set to value 2 or more.\"", "stages_run": '{"stages": 1}'}
        m = probe.measured_row(it, entry, res, "13.0", "7107b05")
        self.assertEqual((m["expect"]["status"], m["expect"]["stages"]), ("does_not_fit", 1))
        self.assertEqual(probe.compare(it, m), [])
        it = self.item("sm80_f16_128x128x16_w64x64x16_S3")
        entry = {"sm": 80, "stages_auto": False, "fixed_stages": 3}
        m = probe.measured_row(it, entry, {"compile_rc": 1, "error": "error: x"}, "13.0", "x")
        self.assertEqual((m["expect"]["status"], m["expect"]["stages"]), ("invalid", 3))

    def test_first_error(self):
        log = ("/opt/c/include/cutlass/gemm/x.hpp(12): warning #1: something\n"
               "/opt/c/include/cutlass/gemm/x.hpp(215): error: static assertion failed with "
               "\"Stages\"\n          detected during ...\n")
        msg, where = probe.first_error(log, "/opt/c")
        self.assertEqual(msg, 'error: static assertion failed with "Stages"')
        self.assertEqual(where, "cutlass/gemm/x.hpp:215")


FAKE_TREE = {
    "include/cutlass/gemm/collective/builders/sm90_builder.inl": [
        "// header", "namespace x {", "constexpr int sm90_smem_capacity_bytes = 232448;"] +
        ["// filler"] * 10 + [
        "template <class T>", "struct CollectiveBuilder<T, EpilogueScheduleAuto> {",
        "  static constexpr int PipelineStages = 4;", "  int pad;", "};", "}"],
    "include/cutlass/gemm/collective/sm120_mma_tma.hpp": [
        "struct SharedStorage {", "  int a;", "  static_assert(Stages >= 2, \"Specialization "
        "requires Stages set to value 2 or more.\");", "};"] + ["// filler"] * 20,
    "include/cutlass/gemm/collective/sm120_mma_array_tma.hpp": [
        "// filler"] * 9 + ["struct TensorMapStorage {", "  TmaDescriptor smem_tensormap_A;",
                            "};"],
    "include/cutlass/gemm/kernel/sm90_gemm_tma_warpspecialized_cooperative.hpp": [
        "struct Kernel {", "  struct PipelineStorage { int load_order; };", "};"],
    "include/cutlass/gemm/kernel/sm90_gemm_tma_warpspecialized_pingpong.hpp": [
        "struct Kernel {", "  struct PipelineStorage { int math_wg_order; };", "};"],
    "include/cutlass/conv/collective/builders/sm90_builder.inl": ["// conv"] * 5,
}

FAKE_SOURCE = textwrap.dedent('''\
    // family: a test
    //
    // Builder:   gemm/collective/builders/sm90_builder.inl
    // Mainloop:  gemm/collective/sm120_mma_tma.hpp (dense),
    //            gemm/collective/sm120_mma_array_tma.hpp (grouped)
    #include "tilefit/model/layout.hpp"

    /// The capacity sm90_smem_capacity_bytes (sm90_builder.inl:3).
    int a();
    /// Wrong line: sm90_smem_capacity_bytes (gemm/collective/builders/sm90_builder.inl:8).
    int b();
    /// PipelineStages of the builder (builder L16).
    int c();
    /// SharedStorage (sm120_mma_tma.hpp:1; array L10-11 holds TensorMapStorage).
    int d();
    /// load_order (sm90_gemm_tma_warpspecialized_cooperative.hpp:2, …pingpong.hpp:2 math_wg_order)
    int e();
    const char* s = cond ? "EpilogueScheduleAuto (sm90_builder.inl:" : "x";
    const char* t = "(see layout.hpp:12 and the TRT-LLM launcher moe_gemm_tma_ws_launcher.inl:40)";
    /// No such file: sm90_nothing.inl:4 names sm90_smem_capacity_bytes.
    int f();
    ''')


class Citations(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        root = os.path.join(cls.tmp.name, "cutlass")
        for rel, lines in FAKE_TREE.items():
            path = os.path.join(root, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write("\n".join(lines) + "\n")
        src = os.path.join(cls.tmp.name, "repo", "src")
        os.makedirs(src)
        os.makedirs(os.path.join(cls.tmp.name, "repo", "include", "tilefit", "model"))
        open(os.path.join(cls.tmp.name, "repo", "include", "tilefit", "model", "layout.hpp"),
             "w").close()
        with open(os.path.join(src, "fake.cpp"), "w") as f:
            f.write(FAKE_SOURCE)
        cls.tree = cc.Tree(root)
        cls.results = cc.check_tree([src], cls.tree, 1, os.path.join(cls.tmp.name, "repo"))

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def at(self, line, text=None):
        hits = [c for c in self.results if c.line == line and (text is None or text in c.text)]
        self.assertTrue(hits, f"no citation at line {line} ({text})")
        return hits[0]

    def test_lexer(self):
        segs = cc.lex("x.cpp", 'int a; // one\n// two\nconst char* s = "a.h:1" "2";\n'
                               '/* three\n four */\n')
        kinds = [(s.kind, s.marks[0][1], s.text) for s in segs]
        self.assertEqual(kinds[0], ("comment", 1, " one"))
        self.assertEqual(kinds[1], ("comment", 2, " two"))     # trailing comment not merged
        self.assertEqual(kinds[2], ("string", 3, "a.h:12"))    # adjacent literals concatenate
        self.assertEqual(kinds[3][0], "comment")

    def test_parse_ranges_and_patterns(self):
        self.assertEqual(cc.parse_ranges("12-20, 30"), [(12, 20), (30, 30)])
        self.assertEqual(sorted(cc.expand_pattern("a_[b_]c_{x,y}.hpp")),
                         ["a_b_c_x.hpp", "a_b_c_y.hpp", "a_c_x.hpp", "a_c_y.hpp"])

    def test_header_and_short_names(self):
        c = self.at(8)
        self.assertEqual(c.verdict, "ok")
        # sm90_builder.inl exists under gemm/ and conv/: the directory the header names wins
        self.assertEqual(c.resolved, "include/cutlass/gemm/collective/builders/sm90_builder.inl")

    def test_wrong_line_fails(self):
        c = self.at(10)
        self.assertEqual(c.verdict, "FAIL")
        self.assertEqual(c.found["sm90_smem_capacity_bytes"], [3])

    def test_bare_reference_by_header_label(self):
        c = self.at(12)
        self.assertIn("header label 'builder'", c.how)
        self.assertEqual(c.verdict, "ok")

    def test_sibling_and_elided_names(self):
        c = self.at(14, "L10-11")
        self.assertEqual(c.resolved, "include/cutlass/gemm/collective/sm120_mma_array_tma.hpp")
        self.assertEqual(c.verdict, "ok")
        self.assertEqual(self.at(14, "sm120_mma_tma").verdict, "ok")
        c = self.at(16, "pingpong")
        self.assertTrue(c.resolved.endswith("sm90_gemm_tma_warpspecialized_pingpong.hpp"))
        self.assertEqual(c.verdict, "ok")

    def test_strings_tilefit_and_foreign(self):
        s = self.at(18)
        self.assertEqual(s.kind, "string")
        self.assertEqual(s.ranges, [])         # "…inl:" + expr: no line glued on
        self.assertEqual(self.at(19, "layout.hpp").verdict, "tilefit")
        self.assertEqual(self.at(19, "moe_gemm").verdict, "foreign")

    def test_missing_file_fails(self):
        c = self.at(20)
        self.assertEqual(c.verdict, "FAIL")
        self.assertIn("no such file", c.reason)


if __name__ == "__main__":
    unittest.main()
