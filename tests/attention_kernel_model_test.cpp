// The triton_attention kernel model (src/model/families/triton_attention/kernel_model.cpp)
// against Triton 3.6's CompiledKernel.metadata.shared of every measured attention launch
// (attnmeasure's rows: the "launch" of each row gives the AttnLaunch, "cc" the target), plus
// hand-computed cases and invariants.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "model/families/triton_attention/kernels.hpp"
#include "model/families/triton_attention/launch.hpp"
#include "test_support.hpp"

namespace tfm = tilefit::model;
namespace ta = tilefit::model::attention;

namespace {

/// The measured rows: the committed data file, else $TILEFIT_ATTN_ROWS.
std::string rows_path() {
  if (const char* e = std::getenv("TILEFIT_ATTN_ROWS")) return e;
  return tilefit::test::attention_rows_path();
}

std::optional<tfm::DType> dtype_of(const std::string& s) {
  if (s == "bf16" || s == "bfloat16") return tfm::DType::BF16;
  if (s == "f16" || s == "float16" || s == "fp16") return tfm::DType::F16;
  if (s == "f32" || s == "float32") return tfm::DType::F32;
  if (s == "fp8_e4m3" || s == "e4m3" || s == "float8_e4m3fn") return tfm::DType::E4M3;
  if (s == "fp8_e5m2" || s == "e5m2") return tfm::DType::E5M2;
  return std::nullopt;
}

std::optional<ta::AttnKernel> kernel_of(const std::string& engine, const std::string& file,
                                        const std::string& fn) {
  const bool sg = engine.rfind("sglang", 0) == 0 || file.find("sglang") != std::string::npos;
  using K = ta::AttnKernel;
  if (file.find("triton_decode_attention") != std::string::npos ||
      (file.find("decode_attention") != std::string::npos)) {
    if (fn == "_fwd_kernel_stage1") return sg ? K::SglangDecodeStage1 : K::VllmDecodeStage1;
    if (fn == "_fwd_grouped_kernel_stage1")
      return sg ? K::SglangDecodeGroupedStage1 : K::VllmDecodeGroupedStage1;
    if (fn == "_fwd_kernel_stage2") return sg ? K::SglangDecodeStage2 : K::VllmDecodeStage2;
  }
  if (file.find("unified_attention") != std::string::npos) {
    if (fn == "kernel_unified_attention") return K::VllmUnified;
    if (fn == "reduce_segments") return K::VllmReduceSegments;
  }
  if (file.find("prefix_prefill") != std::string::npos)
    return fn == "_fwd_kernel_alibi" ? K::VllmPrefixPrefillAlibi : K::VllmPrefixPrefill;
  if (file.find("extend_attention") != std::string::npos)
    return fn == "_fwd_kernel_unified" ? K::SglangExtendUnified : K::SglangExtend;
  if (file.find("prefill_attention") != std::string::npos)
    return sg ? K::SglangPrefill : K::VllmPrefill;
  return std::nullopt;
}

struct Row {
  std::string id, group;
  ta::AttnLaunch launch;
  int cc = 0;
  bool ok = false, holdout = false;
  long long shared = 0;
};

std::vector<Row> read_rows(const std::string& path) {
  std::vector<Row> out;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    const auto j = nlohmann::json::parse(line);
    if (!j.contains("launch") || !j["launch"].is_object()) continue;
    const auto& L = j["launch"];
    Row r;
    r.id = j.value("id", std::string());
    const auto k = kernel_of(j.value("engine", std::string()), L.value("file", std::string()),
                             L.value("kernel", std::string()));
    if (!k) continue;
    r.launch.kernel = *k;
    static const std::map<std::string, std::string_view> stages{
        {"stage1", "stage1"}, {"stage2", "stage2"}, {"main", "main"}, {"reduce", "reduce"}};
    const auto st = stages.find(L.value("stage", std::string("main")));
    r.launch.stage = st == stages.end() ? std::string_view("main") : st->second;
    for (const char* key : {"constexprs", "specialised_ints"}) {
      if (!L.contains(key) || !L[key].is_object()) continue;
      for (const auto& [name, v] : L[key].items()) {
        if (v.is_boolean())
          r.launch.constexprs.emplace_back(name, v.get<bool>() ? 1.0 : 0.0);
        else if (v.is_number())
          r.launch.constexprs.emplace_back(name, v.get<double>());
      }
    }
    r.launch.num_warps = L.value("num_warps", 4);
    r.launch.num_stages = L.value("num_stages", 3);
    auto dt = [&](const char* key, tfm::DType d) {
      if (!L.contains(key) || !L[key].is_string()) return d;
      return dtype_of(L[key].get<std::string>()).value_or(d);
    };
    r.launch.q_dtype = dt("q_dtype", tfm::DType::BF16);
    r.launch.kv_dtype = dt("kv_dtype", r.launch.q_dtype);
    r.launch.out_dtype = dt("out_dtype", r.launch.q_dtype);
    r.cc = j.value("cc", 0);
    r.ok = j.value("status", std::string()) == "ok";
    r.shared = j.contains("shared") && j["shared"].is_number() ? j["shared"].get<long long>() : 0;
    r.holdout = j.value("holdout", false);
    const int cc = r.cc;
    const char* cls = cc < 80    ? "sm75"
                      : cc < 90  ? "sm80-89"
                      : cc < 100 ? "sm90"
                      : cc < 110 ? "sm100"
                                 : "sm120";
    r.group = std::string(ta::kernel_function(*k)) +
              (L.value("file", std::string()).find("sglang") != std::string::npos ||
                       j.value("engine", std::string()).rfind("sglang", 0) == 0
                   ? " (sglang)"
                   : " (vllm)") +
              " " + cls;
    out.push_back(std::move(r));
  }
  return out;
}

bool has_code(tfm::Findings& f, tfm::Code c) {
  for (const auto& d : f.reasons())
    if (d.code == c) return true;
  return false;
}

}  // namespace

/// The committed rows (tests/data/attention-triton-3.6.tar.xz): 6671 launches (attnmeasure's
/// 1813, attnB's second measurement, 1903, run Y's 22 sm_75 probes, blind run Z's 2084,
/// exact at first scoring, run W's 25 README levers, and run V's 715 on the CPU: vLLM unified
/// with an fp8 cache and query, f32 activations on sm_75, SGLang's fp8 MLA decode on sm_89,
/// prefills with num_stages overrides and heads of 72 / 80 / 96; and its blind 109, hold-out,
/// exact at first scoring), 1004 of them hold-out. Each
/// row is exact (status and bytes), declined (attn_unmodelled: the model claims no size) or
/// wrong; the exact counts are floors, the declined counts pinned (a new decline is a decision:
/// update them and docs/dev/triton-attention-model.md §6-§7). Run V's last 4 wrong rows are
/// exact with §4.3's rules: none is wrong.
constexpr int kMeasuredInSample = 5667;
constexpr int kExactInSampleFloor = 5667;
constexpr int kDeclinedInSample = 0;
constexpr int kMeasuredHoldOut = 1004;
constexpr int kExactHoldOutFloor = 1004;
constexpr int kDeclinedHoldOut = 0;

TEST(AttentionKernelModel, MeasuredRows) {
  const std::string path = rows_path();
  if (!std::filesystem::exists(path)) GTEST_SKIP() << "no measured rows at " << path;
  const auto rows = read_rows(path);
  ASSERT_FALSE(rows.empty());
  std::map<std::string, std::array<int, 4>> by_group;  // exact, total, hold-out exact, total
  std::map<std::string, std::array<int, 2>> declined_by_what;  // in-sample, hold-out
  int exact = 0, total = 0, declined = 0, h_exact = 0, h_total = 0, h_declined = 0;
  std::ostringstream misses;
  int shown = 0;
  for (const Row& r : rows) {
    tfm::Findings why(true);
    const ta::KernelSmem k = ta::kernel_smem(r.launch, r.cc, why);
    if (k.unmodelled) {
      EXPECT_TRUE(k.invalid) << r.id;
      EXPECT_TRUE(has_code(why, tfm::Code::attn_unmodelled)) << r.id;
      (r.holdout ? h_declined : declined) += 1;
      for (const auto& d : why.reasons())
        if (d.code == tfm::Code::attn_unmodelled)
          declined_by_what[std::string(d.text("what"))][r.holdout ? 1 : 0] += 1;
    }
    const bool good =
        !k.unmodelled && (r.ok ? (!k.invalid && k.storage.kernel.size == r.shared) : k.invalid);
    if (r.holdout) {
      ++h_total;
      h_exact += good;
      by_group[r.group][2] += good;
      by_group[r.group][3] += 1;
    } else {
      ++total;
      exact += good;
      by_group[r.group][0] += good;
      by_group[r.group][1] += 1;
    }
    if (!good && !k.unmodelled && shown < 400) {
      ++shown;
      misses << (r.holdout ? "H " : "") << r.id << " " << r.group << " cc" << r.cc << " w"
             << r.launch.num_warps << " s" << r.launch.num_stages << " q"
             << tfm::dtype_name(r.launch.q_dtype) << " kv" << tfm::dtype_name(r.launch.kv_dtype)
             << " measured " << (r.ok ? std::to_string(r.shared) : "invalid") << " model "
             << (k.invalid ? "invalid" : std::to_string(k.storage.kernel.size)) << " |";
      for (const auto& [n, v] : r.launch.constexprs) misses << " " << n << "=" << v;
      misses << "\n";
    }
  }
  std::ostringstream summary;
  for (const auto& [g, v] : by_group)
    summary << "  " << g << ": " << v[0] << "/" << v[1] << " (hold-out " << v[2] << "/" << v[3]
            << ")\n";
  std::cout << "attention rows: " << exact << "/" << total << " exact in-sample, " << declined
            << " declined, " << total - exact - declined << " wrong; hold-out " << h_exact << "/"
            << h_total << " exact, " << h_declined << " declined, "
            << h_total - h_exact - h_declined << " wrong\n"
            << summary.str();
  for (const auto& [what, n] : declined_by_what)
    std::cout << "  declined " << n[0] << " (hold-out " << n[1] << "): " << what << "\n";
  if (std::getenv("TILEFIT_ATTN_MISSES")) std::cout << misses.str();
  // Not every launch is modelled exactly yet (docs/dev/triton-attention-model.md §7 lists what is
  // not): the exact counts are floors, so a change that loses a row fails. The hold-out rows
  // are reported, never tuned on.
  if (total == kMeasuredInSample) {
    EXPECT_GE(exact, kExactInSampleFloor) << misses.str().substr(0, 20000);
    EXPECT_EQ(declined, kDeclinedInSample);
  }
  if (h_total == kMeasuredHoldOut) {
    EXPECT_GE(h_exact, kExactHoldOutFloor) << misses.str().substr(0, 20000);
    EXPECT_EQ(h_declined, kDeclinedHoldOut);
  }
}

namespace {

ta::AttnLaunch mla_decode(tfm::DType kv, int stages) {
  // vLLM's MLA decode as _decode_grouped_att_m_fwd launches it for Lk 576 / Lv 512
  // (triton_decode_attention.py:470-570): BLOCK_DMODEL 512, BLOCK_DPE 64, BLOCK_DV 512,
  // BLOCK_N 32, BLOCK_H 16, num_warps 4, num_stages 2.
  ta::AttnLaunch l;
  l.kernel = ta::AttnKernel::VllmDecodeGroupedStage1;
  l.stage = "stage1";
  l.constexprs = {{"kv_group_num", 16}, {"q_head_num", 16},   {"BLOCK_DMODEL", 512},
                  {"BLOCK_DPE", 64},    {"BLOCK_DV", 512},    {"BLOCK_N", 32},
                  {"BLOCK_H", 16},      {"NUM_KV_SPLITS", 4}, {"PAGE_SIZE", 1},
                  {"logit_cap", 0},     {"Lk", 576},          {"Lv", 512},
                  {"IS_MLA", 1}};
  l.q_dtype = tfm::DType::BF16;
  l.kv_dtype = kv;
  l.out_dtype = tfm::DType::BF16;
  l.num_warps = 4;
  l.num_stages = stages;
  return l;
}

}  // namespace

TEST(AttentionKernelModel, Fp8KvNeedsSm89) {
  tfm::Findings why(true);
  const auto k = ta::kernel_smem(mla_decode(tfm::DType::E4M3, 2), 86, why);
  EXPECT_TRUE(k.invalid);
  EXPECT_TRUE(has_code(why, tfm::Code::attn_fp8_needs_sm89));
  tfm::Findings ok(true);
  EXPECT_FALSE(ta::kernel_smem(mla_decode(tfm::DType::E4M3, 2), 89, ok).invalid);
}

TEST(AttentionKernelModel, BlockBelowDotMinimum) {
  auto l = mla_decode(tfm::DType::BF16, 2);
  for (auto& [n, v] : l.constexprs)
    if (n == "BLOCK_N") v = 8;  // the P·V dot's K
  tfm::Findings why(true);
  EXPECT_TRUE(ta::kernel_smem(l, 90, why).invalid);
  ASSERT_TRUE(has_code(why, tfm::Code::attn_dot_min));
  EXPECT_EQ(why.reasons()[0].text("block"), "BLOCK_N");
  EXPECT_EQ(why.reasons()[0].number("min"), 16);
}

TEST(AttentionKernelModel, MissingConstexprNamesIt) {
  auto l = mla_decode(tfm::DType::BF16, 2);
  std::erase_if(l.constexprs, [](const auto& kv) { return kv.first == "BLOCK_H"; });
  tfm::Findings why(true);
  EXPECT_TRUE(ta::kernel_smem(l, 90, why).invalid);
  ASSERT_TRUE(has_code(why, tfm::Code::attn_missing_constexpr));
  EXPECT_EQ(why.reasons()[0].text("name"), "BLOCK_H");
}

TEST(AttentionKernelModel, PartsSumToTotal) {
  for (int cc : {75, 80, 86, 89, 90, 100, 103, 110, 120, 121})
    for (int s : {1, 2, 3, 4}) {
      tfm::Findings why(false);
      const auto k = ta::kernel_smem(mla_decode(tfm::DType::BF16, s), cc, why);
      if (k.invalid) continue;
      tfm::Bytes sum = 0;
      for (tfm::Bytes b : k.storage.kernel.parts) sum += b;
      EXPECT_EQ(sum, k.storage.kernel.size) << "cc " << cc << " s " << s;
    }
}

TEST(AttentionKernelModel, KernelFunctionNames) {
  EXPECT_EQ(ta::kernel_function(ta::AttnKernel::VllmDecodeGroupedStage1),
            "_fwd_grouped_kernel_stage1");
  EXPECT_EQ(ta::kernel_function(ta::AttnKernel::SglangExtendUnified), "_fwd_kernel_unified");
  EXPECT_EQ(ta::kernel_function(ta::AttnKernel::VllmReduceSegments), "reduce_segments");
}

// vLLM #46721: the MLA decode with an fp8 cache on sm_120. Hand-computed from the rules
// (docs/dev/triton-attention-model.md §4): the cast copies of K [512, 32] and of V = trans(K), bf16,
// 2 x 32768; Q [16, 512] bf16 16384; the raw fp8 K buffer (num_stages 2: one copy) 16384; Qpe
// [16, 64] bf16 2048; the raw fp8 Kpe buffer [64, 32] 2048.
TEST(AttentionKernelModel, MlaFp8DecodeOnSm120) {
  tfm::Findings why(true);
  const auto s2 = ta::kernel_smem(mla_decode(tfm::DType::E4M3, 2), 120, why);
  ASSERT_FALSE(s2.invalid);
  EXPECT_EQ(s2.storage.kernel.size, 2 * 32768 + 16384 + 16384 + 2048 + 2048);  // 102400
  EXPECT_TRUE(s2.stages_matter);
  // num_stages 1: nothing buffered, the raw copies go.
  tfm::Findings why1(true);
  EXPECT_EQ(ta::kernel_smem(mla_decode(tfm::DType::E4M3, 1), 120, why1).storage.kernel.size,
            2 * 32768 + 16384 + 2048);  // 83968
  // BLOCK_N 16 halves every K/V tile.
  auto l = mla_decode(tfm::DType::E4M3, 2);
  for (auto& [n, v] : l.constexprs)
    if (n == "BLOCK_N") v = 16;
  tfm::Findings why16(true);
  EXPECT_EQ(ta::kernel_smem(l, 120, why16).storage.kernel.size,
            2 * 16384 + 16384 + 8192 + 2048 + 1024);  // 60416
}

// sm_75 has no mma in Triton 3.6: FMA dots on f32 operands, no pipeliner. Gemma head 512
// grouped decode (BLOCK_H 16, BLOCK_N 32): Q [16, 512] f32 + K [512, 32] f32 live together.
TEST(AttentionKernelModel, Sm75FmaDotsOnF32) {
  auto l = mla_decode(tfm::DType::F16, 2);
  l.q_dtype = l.out_dtype = tfm::DType::F16;
  l.constexprs = {{"kv_group_num", 2}, {"q_head_num", 8}, {"BLOCK_DMODEL", 512}, {"BLOCK_DPE", 0},
                  {"BLOCK_DV", 512},   {"BLOCK_N", 32},   {"BLOCK_H", 16},       {"IS_MLA", 0}};
  tfm::Findings why(true);
  const auto k = ta::kernel_smem(l, 75, why);
  ASSERT_FALSE(k.invalid);
  EXPECT_EQ(k.storage.kernel.size, 16 * 512 * 4 + 512 * 32 * 4);  // 98304
  EXPECT_FALSE(k.stages_matter);
}

// sm_75: Q's f32 copy, hoisted before the loop, is live through the whole body, so where
// BLOCK_M > head_dim the peak is Q + P, not Q + K. SGLang context_attention_fwd, f16, head 64,
// BLOCK_M 128, BLOCK_N 32, 4 warps: Q [128, 64] f32 32768 + P [128, 32] f32 16384 = 49152 B
// (measured 49152, run Y: Q at offset 0, K, P and V at 32768); BLOCK_N 64: 32768 + 32768.
TEST(AttentionKernelModel, Sm75QLiveThroughTheLoop) {
  ta::AttnLaunch l;
  l.kernel = ta::AttnKernel::SglangPrefill;
  l.stage = "main";
  l.q_dtype = l.kv_dtype = l.out_dtype = tfm::DType::F16;
  l.num_stages = 1;
  l.constexprs = {{"kv_group_num", 8}, {"BLOCK_M", 128}, {"BLOCK_DMODEL", 64},
                  {"BLOCK_N", 32},     {"IS_CAUSAL", 1}, {"Lk", 64}};
  tfm::Findings why(true);
  const auto k = ta::kernel_smem(l, 75, why);
  ASSERT_FALSE(k.invalid);
  EXPECT_EQ(k.storage.kernel.size, 128 * 64 * 4 + 128 * 32 * 4);  // 49152
  for (auto& [n, v] : l.constexprs)
    if (n == "BLOCK_N") v = 64;
  tfm::Findings why64(true);
  EXPECT_EQ(ta::kernel_smem(l, 75, why64).storage.kernel.size, 128 * 64 * 4 * 2);  // 65536
}

// The split-decode's second stage reduces nothing across threads: no shared memory, and
// num_stages changes nothing.
TEST(AttentionKernelModel, Stage2NeedsNoSharedMemory) {
  ta::AttnLaunch l;
  l.kernel = ta::AttnKernel::VllmDecodeStage2;
  l.stage = "stage2";
  l.constexprs = {{"NUM_KV_SPLITS", 16}, {"BLOCK_DV", 512}, {"Lv", 512}};
  for (int cc : {75, 80, 90, 100, 120}) {
    tfm::Findings why(true);
    const auto k = ta::kernel_smem(l, cc, why);
    EXPECT_FALSE(k.invalid);
    EXPECT_EQ(k.storage.kernel.size, 0);
    EXPECT_FALSE(k.stages_matter);
  }
}

namespace {

ta::AttnLaunch launch_of(ta::AttnKernel k, std::string_view stage,
                         std::vector<std::pair<std::string, double>> constexprs, tfm::DType q,
                         tfm::DType kv, int warps, int stages) {
  ta::AttnLaunch l;
  l.kernel = k;
  l.stage = stage;
  l.constexprs = std::move(constexprs);
  l.q_dtype = l.out_dtype = q;
  l.kv_dtype = kv;
  l.num_warps = warps;
  l.num_stages = stages;
  return l;
}

}  // namespace

// SGLang casts q and p to the cache's type (extend_attention.py:430, 503-504): with an fp8
// cache the P·V dot's K extent BLOCK_N 16 is below the 8-bit minimum 32 (measured: "Input
// shapes should have M >= 1, N >= 1 and K >= 32", full00115 on sm_120).
TEST(AttentionKernelModel, SglangFp8DotsInTheCacheType) {
  const auto l = launch_of(ta::AttnKernel::SglangExtend, "main",
                           {{"SLIDING_WINDOW_SIZE", -1},
                            {"logit_cap", 0},
                            {"xai_temperature_len", -1},
                            {"Lq", 512},
                            {"Lv", 512},
                            {"BLOCK_DMODEL", 512},
                            {"BLOCK_DPE", 0},
                            {"BLOCK_DV", 512},
                            {"BLOCK_M", 32},
                            {"BLOCK_N", 16},
                            {"USE_CUSTOM_MASK", 0},
                            {"IS_CAUSAL", 1},
                            {"SKIP_PREFIX_CUSTOM_MASK", 1},
                            {"SKIP_PREFIX", 0},
                            {"SKIP_EXTEND", 0},
                            {"PAGE_SIZE", 64}},
                           tfm::DType::BF16, tfm::DType::E4M3, 8, 1);
  tfm::Findings why(true);
  EXPECT_TRUE(ta::kernel_smem(l, 120, why).invalid);
  ASSERT_TRUE(has_code(why, tfm::Code::attn_dot_min));
  EXPECT_EQ(why.reasons()[0].text("block"), "BLOCK_N");
  EXPECT_EQ(why.reasons()[0].number("bits"), 8);
  auto bf16 = l;
  bf16.kv_dtype = tfm::DType::BF16;
  tfm::Findings ok(true);
  EXPECT_FALSE(ta::kernel_smem(bf16, 120, ok).invalid);
}

// SGLang's grouped MLA decode casts the fp8 kpe to bf16 (decode_attention.py:530). Triton 3.6
// lowers e4m3 -> bf16 below sm_90 through f32 (ElementwiseOpToLLVM.cpp
// Fp8E4M3Nv_to_Bf16(computeCapability >= 90)): it compiles on sm_89, with the bytes of the same
// launch's other archs' rules. Measured in a fresh process (run V; full00719 re-measured:
// 45312 B with kv_group_num 8 at num_stages 4, vc0001: 45056 B at num_stages 2).
TEST(AttentionKernelModel, E4m3ToBf16CastCompilesOnSm89) {
  const auto l = launch_of(ta::AttnKernel::SglangDecodeGroupedStage1, "stage1",
                           {{"kv_group_num", 8},
                            {"q_head_num", 8},
                            {"BLOCK_DMODEL", 512},
                            {"BLOCK_DPE", 64},
                            {"BLOCK_DV", 512},
                            {"BLOCK_N", 32},
                            {"BLOCK_H", 16},
                            {"MIN_BLOCK_KV", 32},
                            {"logit_cap", 0},
                            {"Lk", 576},
                            {"Lv", 512},
                            {"HAS_MLA", 1},
                            {"PAGE_SIZE", 1}},
                           tfm::DType::BF16, tfm::DType::E4M3, 4, 4);
  tfm::Findings why(true);
  const auto k = ta::kernel_smem(l, 89, why);
  ASSERT_FALSE(k.invalid);
  EXPECT_EQ(k.storage.kernel.size, 45312);
  auto s2 = l;
  s2.num_stages = 2;
  tfm::Findings why2(true);
  EXPECT_EQ(ta::kernel_smem(s2, 89, why2).storage.kernel.size, 45056);
}

namespace {

/// vLLM's kernel_unified_attention as the launcher passes it (the constexprs the model reads).
ta::AttnLaunch unified(long long m, long long tile, long long head, long long window, int quant,
                       bool is3d, tfm::DType q, tfm::DType kv, int warps, int stages) {
  auto l = launch_of(ta::AttnKernel::VllmUnified, "main",
                     {{"BLOCK_M", double(m)},
                      {"TILE_SIZE", double(tile)},
                      {"HEAD_SIZE", double(head)},
                      {"HEAD_SIZE_PADDED", double(head)},
                      {"SLIDING_WINDOW", double(window)},
                      {"KV_QUANT_MODE", double(quant)},
                      {"IS_3D", is3d ? 1.0 : 0.0},
                      {"Q_IS_FP8", q == tfm::DType::E4M3 ? 1.0 : 0.0}},
                     q, kv, warps, stages);
  l.out_dtype = q == tfm::DType::E4M3 ? tfm::DType::BF16 : q;
  return l;
}

}  // namespace

// vLLM quantizes the query to fp8 with an fp8 cache (attention.py:462-516). With a sliding window
// the PV dot's V is tl.where(sw_mask_v, V, 0.0): mma.sync on sm_90 / sm_100 promotes the fp8 dot
// to f16 and the conversion cannot be hoisted above the select, so V's copy is f16, not fp8
// (run V: vq0005 41216 B, vq0003 81920 B; the fp8 copy gave 33024 / 65536). Without a window V
// stays an fp8 copy (vq0002: 8192 B at num_stages 1).
TEST(AttentionKernelModel, MaskedFp8VPromotedToF16) {
  const auto e4 = tfm::DType::E4M3;
  tfm::Findings w1(true), w2(true), w3(true);
  EXPECT_EQ(ta::kernel_smem(unified(16, 32, 256, 1024, 1, false, e4, e4, 4, 3), 90, w1)
                .storage.kernel.size,
            41216);
  EXPECT_EQ(ta::kernel_smem(unified(32, 64, 256, 1024, 1, false, e4, e4, 8, 2), 100, w2)
                .storage.kernel.size,
            81920);
  EXPECT_EQ(
      ta::kernel_smem(unified(16, 32, 128, 0, 1, false, e4, e4, 4, 1), 90, w3).storage.kernel.size,
      8192);
}

// f32 activations on sm_75 (Gemma on a T4): no extf, each operand's copy is made where the
// value is defined and read at its dot (run V TTGIR): vLLM unified's K and V copies, both made
// at the loop's head, are live together (vb0000: Q 8192 + K 8192 + V 8192 = 24576 B); with a
// sliding window V is the tl.where result, live with P (vb0004: Q 16384 + V 32768 + P 2048 =
// 51200 B); vLLM decode's v, loaded after the QK dot, is live with P and the rescale factor's
// conversion (vb0007: q 8192 + v 16384 + p 2048 = 26624 B).
TEST(AttentionKernelModel, Sm75F32OperandsCopiedWhereDefined) {
  const auto f32 = tfm::DType::F32;
  tfm::Findings w1(true), w2(true), w3(true);
  EXPECT_EQ(
      ta::kernel_smem(unified(16, 16, 128, 0, 0, true, f32, f32, 4, 3), 75, w1).storage.kernel.size,
      24576);
  EXPECT_EQ(ta::kernel_smem(unified(16, 32, 256, 1024, 0, false, f32, f32, 4, 3), 75, w2)
                .storage.kernel.size,
            51200);
  auto d = mla_decode(f32, 2);
  d.q_dtype = d.out_dtype = f32;
  d.constexprs = {{"kv_group_num", 4}, {"q_head_num", 16}, {"BLOCK_DMODEL", 128},
                  {"BLOCK_DPE", 0},    {"BLOCK_DV", 128},  {"BLOCK_N", 32},
                  {"BLOCK_H", 16},     {"IS_MLA", 0},      {"PAGE_SIZE", 16}};
  EXPECT_EQ(ta::kernel_smem(d, 75, w3).storage.kernel.size, 26624);
}

// SGLang's context_attention_fwd with a head of 72 (SigLIP-style vision encoders): the K / V
// addresses add cur_kv_head * stride_kh with stride_kh = 72, which Triton does not specialise as
// divisible by 16, so each thread loads one 16-bit element and the pipeliner buffers nothing
// at any num_stages (run V, vp0001 / vp0002: 40960 B at num_stages 3 and 4, as at 1; the model
// gave 90112 / 122880). A head of 80 is a multiple of 16 and is buffered.
TEST(AttentionKernelModel, HeadStrideNotMultipleOf16IsNotPipelined) {
  ta::AttnLaunch l;
  l.kernel = ta::AttnKernel::SglangPrefill;
  l.stage = "main";
  l.q_dtype = l.kv_dtype = l.out_dtype = tfm::DType::BF16;
  l.num_warps = 8;
  l.constexprs = {{"kv_group_num", 1}, {"BLOCK_M", 64},  {"BLOCK_DMODEL", 128},
                  {"BLOCK_N", 64},     {"IS_CAUSAL", 1}, {"Lk", 72}};
  for (int stages : {1, 3, 4}) {
    l.num_stages = stages;
    tfm::Findings why(true);
    const auto k = ta::kernel_smem(l, 89, why);
    ASSERT_FALSE(k.invalid);
    EXPECT_EQ(k.storage.kernel.size, 40960) << stages;
  }
  for (auto& [n, v] : l.constexprs)
    if (n == "Lk") v = 80;
  tfm::Findings why80(true);
  EXPECT_GT(ta::kernel_smem(l, 89, why80).storage.kernel.size, 40960);
}

// vLLM's prefill 128x128 with head 512 and 16 warps on sm_90: the P·V wgmma is m64n256, its
// accumulator fragment alone 128 registers, the most a thread has with 16 warps (measured:
// ptxas C7602 Insufficient registers (128), full00511). With 8 warps (255) or head 256 (n 128)
// it compiles.
TEST(AttentionKernelModel, WgmmaRegisterNeed) {
  const auto l = launch_of(ta::AttnKernel::VllmPrefill, "main",
                           {{"kv_group_num", 8},
                            {"BLOCK_M", 128},
                            {"BLOCK_DMODEL", 512},
                            {"BLOCK_N", 128},
                            {"IS_CAUSAL", 0},
                            {"Lk", 512}},
                           tfm::DType::F16, tfm::DType::F16, 16, 1);
  tfm::Findings why(true);
  EXPECT_TRUE(ta::kernel_smem(l, 90, why).invalid);
  ASSERT_TRUE(has_code(why, tfm::Code::attn_wgmma_registers));
  EXPECT_EQ(why.reasons()[0].number("instr_n"), 256);
  EXPECT_EQ(why.reasons()[0].number("acc"), 128);
  EXPECT_EQ(why.reasons()[0].number("limit"), 128);
  auto w8 = l;
  w8.num_warps = 8;
  tfm::Findings ok8(true);
  EXPECT_FALSE(ta::kernel_smem(w8, 90, ok8).invalid);
  auto d256 = l;
  for (auto& [n, v] : d256.constexprs)
    if (n == "BLOCK_DMODEL" || n == "Lk") v = 256;
  tfm::Findings ok256(true);
  EXPECT_FALSE(ta::kernel_smem(d256, 90, ok256).invalid);
  tfm::Findings blackwell(true);  // mma.sync with 16 warps on sm_120: 4 accumulator registers
  EXPECT_FALSE(ta::kernel_smem(l, 120, blackwell).invalid);
}

// reduce_segments stores the bf16 result from the reduction's slice layout (4 f32 per thread)
// through the output's coalesced layout (8 bf16 per thread): with HEAD_SIZE 512 and 2 warps a
// convert_layout through 512 x 2 B of shared memory (x200548 on sm_90: 1024 B); with head 256
// both layouts hold 4 per thread (0 B).
TEST(AttentionKernelModel, ReduceSegmentsStoreConversion) {
  auto l = launch_of(ta::AttnKernel::VllmReduceSegments, "reduce",
                     {{"num_query_heads", 16},
                      {"TILE_SIZE", 16},
                      {"HEAD_SIZE", 512},
                      {"HEAD_SIZE_PADDED", 512},
                      {"BLOCK_Q", 2},
                      {"NUM_SEGMENTS_PER_SEQ", 16},
                      {"USE_FP8", 0}},
                     tfm::DType::BF16, tfm::DType::BF16, 2, 3);
  tfm::Findings why(true);
  EXPECT_EQ(ta::kernel_smem(l, 90, why).storage.kernel.size, 1024);
  for (auto& [n, v] : l.constexprs)
    if (n == "HEAD_SIZE" || n == "HEAD_SIZE_PADDED") v = 256;
  tfm::Findings why256(true);
  EXPECT_EQ(ta::kernel_smem(l, 90, why256).storage.kernel.size, 0);
}

// The declined path: no size, invalid, the attn_unmodelled error naming what is not modelled.
TEST(AttentionKernelModel, DeclineClaimsNoSize) {
  ta::KernelSmem r;
  tfm::Findings why(true);
  ta::decline(r, why, mla_decode(tfm::DType::BF16, 2), "a launch class the rules miss");
  EXPECT_TRUE(r.invalid);
  EXPECT_TRUE(r.unmodelled);
  EXPECT_TRUE(why.invalid());
  ASSERT_TRUE(has_code(why, tfm::Code::attn_unmodelled));
  EXPECT_EQ(why.reasons()[0].text("what"), "a launch class the rules miss");
  EXPECT_EQ(why.reasons()[0].text("kernel"), "_fwd_grouped_kernel_stage1");
}

namespace {

// SGLang's _fwd_kernel (extend) as extend_attention_fwd launches it on sm_100 for a head of
// `head` (BLOCK_DMODEL / BLOCK_DV its next power of 2), BLOCK_M = BLOCK_N = 64, page size 1.
ta::AttnLaunch sglang_extend(long long head, int warps, int stages) {
  long long block = 16;
  while (block < head) block *= 2;
  return launch_of(ta::AttnKernel::SglangExtend, "main",
                   {{"kv_group_num", 1},
                    {"SLIDING_WINDOW_SIZE", -1},
                    {"logit_cap", 0},
                    {"xai_temperature_len", -1},
                    {"Lq", double(head)},
                    {"Lv", double(head)},
                    {"BLOCK_DMODEL", double(block)},
                    {"BLOCK_DPE", 0},
                    {"BLOCK_DV", double(block)},
                    {"BLOCK_M", 64},
                    {"BLOCK_N", 64},
                    {"USE_CUSTOM_MASK", 0},
                    {"IS_CAUSAL", 1},
                    {"SKIP_PREFIX_CUSTOM_MASK", 1},
                    {"SKIP_PREFIX", 0},
                    {"SKIP_EXTEND", 0},
                    {"PAGE_SIZE", 1}},
                   tfm::DType::BF16, tfm::DType::BF16, warps, stages);
}

}  // namespace

// tcgen05 pipelines the extend loop's P·V MMA (acc * re_scale + tl.dot(p, v) accumulates in
// tensor memory, read only by the next iteration) even where V's load is not buffered (a head
// of 72: one 16-bit element a thread): the expander peels the first iteration and carries V's
// copy to the next iteration's wait, so the peeled copy and the loop's live with K's (run V,
// vp0036 / vp0031: Q 16384 + 2 x V 16384 + K 16384 + barriers 24 = 65560 B at num_stages 2 and
// 4; the model gave 32776). At num_stages 1 nothing is pipelined.
TEST(AttentionKernelModel, ExtendLoopPvMmaPipelinedOnSm100) {
  for (int stages : {2, 4}) {
    tfm::Findings why(true);
    const auto k = ta::kernel_smem(sglang_extend(72, 8, stages), 100, why);
    ASSERT_FALSE(k.invalid);
    EXPECT_EQ(k.storage.kernel.size, 65560) << stages;
  }
  tfm::Findings s1(true);
  EXPECT_LT(ta::kernel_smem(sglang_extend(72, 8, 1), 100, s1).storage.kernel.size, 65536);
}

// The prefix loop's P·V product is read in its iteration (tl.dot(p, v) * v_scale): that MMA
// stays synchronous and its buffered V keeps num_stages - 1 copies, no extra one for an
// asynchronous MMA, while K (the QK MMA asynchronous beside a buffered load) and the extend
// loop's V keep num_stages (run V, vp0007: head 64, 4 warps, num_stages 2: prefix K 2 x 8192,
// V 8192, extend K and V 2 x 8192, Q 8192, barriers 32 = 40992 B; the model gave 41984).
TEST(AttentionKernelModel, PrefixLoopPvMmaSynchronousOnSm100) {
  tfm::Findings why(true);
  const auto k = ta::kernel_smem(sglang_extend(64, 4, 2), 100, why);
  ASSERT_FALSE(k.invalid);
  EXPECT_EQ(k.storage.kernel.size, 40992);
}

// f32 activations under tf32 mma.sync: P.to(V.dtype) is a no-op, so P's shared copy is made
// where P = exp(S - m) is defined, before tl.sum(P, 1), and is live with the row sum's scratch;
// that scratch spans the warps with unique data along the tile (16 columns: 2 of 4 warps, 128
// B). Run V, vb0078 (vLLM unified on sm_80, BLOCK_M 16, TILE_SIZE 16, 4 warps, num_stages 3):
// Q, K, V 8192 each + P 1024 + the row sum's 128 + two block-index buffers 64 = 25856 B (the
// model gave 25728). With bf16 activations P is cast at the dot, after the row sum.
TEST(AttentionKernelModel, UncastPCopyLiveWithRowSum) {
  const auto f32 = tfm::DType::F32;
  auto l = unified(16, 16, 128, 0, 0, false, f32, f32, 4, 3);
  l.constexprs.push_back({"BLOCK_SIZE", 32});
  tfm::Findings why(true);
  const auto k = ta::kernel_smem(l, 80, why);
  ASSERT_FALSE(k.invalid);
  EXPECT_EQ(k.storage.kernel.size, 25856);
}
