// The phrasing functions of the codes every family shares (include/tilefit/model/
// diagnostic_codes.def): which phrasing each picks, from its values (phrasing.hpp).
#include "phrasing.hpp"
#include "tilefit/model/arch.hpp"
#include "tilefit/model/family.hpp"

namespace tilefit::model::phrasing {
namespace {

/// What the builder's budget leaves out, by family (builder_budget_gap's `unbudgeted`).
std::string unbudgeted_phrase(std::string_view id) {
  if (id == "sm90")
    return "the kernel pipelines and the padding of the tensor block to the epilogue's swizzle "
           "alignment";
  if (id == "sm120_blockscaled_grouped")
    return "4 mainloop and 3 epilogue tensormaps where it reserves 2, scheduler_response[8], the "
           "load-order barrier, and the 1 KiB alignment of the tensor block and of the struct";
  if (id == "sm120_blockscaled")
    return "the scheduler's 144 B where it reserves 96, the kernel pipelines, and the 1 KiB "
           "header that alignas(1024) on A/B forces";
  if (id == "sm120_dense_grouped")
    return "any scheduler, tensormap or kernel pipeline storage: the SM120 dense builder reserves "
           "nothing for them";
  if (id == "sm120_dense")
    return "the 96 B scheduler, the kernel pipelines and the 1 KiB header forced by alignas(1024): "
           "the SM120 dense builder reserves nothing";
  const std::string sm100 =
      "the padding that aligns the kernel's `tensors` to max(128, epilogue swizzle alignment) "
      "after the pipelines";
  if (id == "sm100") return sm100;
  if (id == "sm100_grouped")
    return sm100 +
           ", and 4 more copies of the epilogue's 256 B tensormaps (tensormaps[5]; the "
           "builder's 128·T·5 covers the mainloop descriptors only)";
  return literal(id);
}

/// "the builder picks 3 stages but the kernel then needs " / "StageCount<3> needs ".
std::string over_limit_head(const Phrase& x) {
  const std::string what = x.on("builder_pick") ? "the builder picks " + x.v("stages") +
                                                      " stages but the kernel then needs "
                                                : x.spelled("stages") + " needs ";
  return what + x.B("smem_bytes") + " > " + x.B("limit_bytes") + " (over by " + x.B("over_bytes") +
         "): ";
}

}  // namespace

std::string no_family(const Diagnostic& d) {
  const Phrase x(d);
  if (is_amd(static_cast<int>(x.n("arch"))))
    return "no modelled kernel family builds " + x.v("a") + " x " + x.v("b") + " for " +
           x.v("arch") +
           ": CUTLASS kernels are CUDA only, and a Triton kernel is never inferred; name it "
           "(\"kernel\": \"triton_matmul\", \"triton_fused_moe\" or \"triton_block_matmul\")";
  return "no modelled CUTLASS kernel family builds " + x.v("a") + " x " + x.v("b") + " for " +
         x.v("arch") + " (families: " + literal(family_choices()) + ")";
}

std::string tuned_device_other_target(const Diagnostic& d) {
  const Phrase x(d);
  std::string m = "tuned on " + x.v("device_name");
  if (x.n("tuned_arch") != 0) m += " (" + x.v("product") + ", " + x.v("tuned_arch") + ")";
  return m + "; checked for " + x.v("target_arch");
}

/// over_limit_*: the head, then how the kernel fails, by code.
std::string over_limit(const Diagnostic& d) {
  std::string_view how;
  switch (d.code) {
    case Code::over_limit_static_assert:
      how =
          "CUTLASS's device-side static_assert \"SMEM usage exceeded capacity\" rejects it at "
          "compile time";
      break;
    case Code::over_limit_launch_2x:
      how =
          "it compiles, then cudaFuncSetAttribute(MaxDynamicSharedMemorySize) fails when the "
          "2.x device::Gemm launches it (run() returns kErrorInternal)";
      break;
    case Code::over_limit_out_of_resources:
      how =
          "it compiles, then Triton raises OutOfResources (\"out of resource: shared memory\") "
          "when it loads the kernel, before launch";
      break;
    default:  // over_limit_initialize
      how =
          "it compiles, then cudaFuncSetAttribute(MaxDynamicSharedMemorySize) fails and "
          "GemmUniversalAdapter::initialize() returns kErrorInternal";
  }
  return over_limit_head(Phrase(d)) + std::string(how);
}

std::string over_limit_initialize(const Diagnostic& d) { return over_limit(d); }
std::string over_limit_static_assert(const Diagnostic& d) { return over_limit(d); }
std::string over_limit_launch_2x(const Diagnostic& d) { return over_limit(d); }
std::string over_limit_out_of_resources(const Diagnostic& d) { return over_limit(d); }

std::string builder_budget_gap(const Diagnostic& d) {
  const Phrase x(d);
  std::string m = "the builder budgets " + x.B("budget_bytes") + " (epilogue carve-out " +
                  x.v("carveout") + " + " + x.v("stages") + " x " + x.v("stage_bytes") +
                  " per stage";
  if (x.n("reserved_bytes") > 0) m += " + " + x.v("reserved_bytes") + " reserved";
  m += ") against its " + x.B("capacity_bytes") + " constant, but the real SharedStorage is " +
       x.B("smem_bytes") + ": " + x.B("gap_bytes") + " it does not count";
  if (!x.t("unbudgeted").empty()) m += " (" + unbudgeted_phrase(x.t("unbudgeted")) + ")";
  return m;
}

std::string no_stage_count_fits(const Diagnostic& d) {
  const Phrase x(d);
  std::string m = "even " + x.spelled("stages") + " needs " + x.B("smem_bytes") + " > " +
                  x.B("limit_bytes") + "; ";
  if (x.n("smaller_k") == 0) return m + "choose a smaller tile";
  if (x.on("smaller_k_auto"))
    return m + "tile K = " + x.v("smaller_k") + " fits: the builder then picks " +
           x.v("smaller_k_stages") + " stages and the kernel needs " + x.B("smaller_k_bytes");
  return m + "tile K = " + x.v("smaller_k") + " fits with " + x.spelled("smaller_k_stages") + " (" +
         x.B("smaller_k_bytes") + ")";
}

std::string more_stages_fit(const Diagnostic& d) {
  const Phrase x(d);
  if (x.on("builder_pick"))
    return "up to " + x.v("max_stages") + " stages fit; the builder picks " + x.v("stages") +
           " (an explicit " + x.spelled("max_stages") + " needs " + x.B("smem_bytes") + ")";
  return "up to " + x.v("max_stages") + " stages fit (" + x.spelled("max_stages") + " needs " +
         x.B("smem_bytes") + ")";
}

}  // namespace tilefit::model::phrasing
