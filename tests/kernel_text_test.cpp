// A kernel's description is data (model::KernelDescription: parts with typed values, each part's
// template in include/tilefit/model/kernel_texts.def) and the report layer writes the words
// (report::kernel_description), as it writes a diagnostic's message.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <string_view>

#include "api/internal.hpp"
#include "model_test_util.hpp"
#include "tilefit/model/kernel_text.hpp"
#include "tilefit/report/diagnostic_text.hpp"

namespace tilefit {
namespace {

using model::KernelDescription;
using model::KernelText;

TEST(KernelText, PartsAreWrittenOneAfterAnother) {
  KernelDescription k;
  k.add(KernelText::kernel).name("kernel", "KernelTmaWarpSpecializedCooperative");
  k.add(KernelText::then_semicolon);
  k.add(KernelText::epilogue_tile)
      .name("epilogue", "TmaWarpSpecializedCooperative")
      .integer("epi_m", 64)
      .integer("epi_n", 32);
  k.add(KernelText::epilogue_stages).integer("stages_c", 4).integer("stages_d", 2);
  k.add(KernelText::reuse_smem_c);
  EXPECT_EQ(report::kernel_description(k),
            "KernelTmaWarpSpecializedCooperative; TmaWarpSpecializedCooperative epilogue 64x32, "
            "StagesC 4, StagesD 2, ReuseSmemC");
  KernelDescription named;
  named.add(KernelText::triton_engine_kernel)
      .name("engine", "vLLM")
      .name("kernel", "_w8a8_triton_block_scaled_mm");
  k.prepend(named);
  EXPECT_EQ(report::kernel_description(k).rfind("vLLM _w8a8_triton_block_scaled_mm: Kernel", 0),
            0u);
  k.clear();
  EXPECT_EQ(report::kernel_description(k), "");
}

// Every placeholder of a template is a value its part declares (the keys beside it), so a
// part the model fills as declared never renders "?".
TEST(KernelText, EveryPlaceholderIsADeclaredKey) {
  struct Decl {
    KernelText text;
    std::string_view keys;
  };
  const Decl decls[] = {
#define TILEFIT_KERNEL_TEXT(code, keys, text) {KernelText::code, keys},
#include "tilefit/model/kernel_texts.def"
#undef TILEFIT_KERNEL_TEXT
  };
  std::set<std::string_view> names;
  for (const Decl& d : decls) {
    const std::string_view t = model::kernel_text_template(d.text);
    EXPECT_FALSE(t.empty()) << model::kernel_text_name(d.text);
    EXPECT_TRUE(names.insert(model::kernel_text_name(d.text)).second);
    std::set<std::string> keys;
    std::string key;
    for (const char c : std::string(d.keys) + " ") {
      if (c == ' ') {
        if (!key.empty()) keys.insert(key);
        key.clear();
      } else {
        key += c;
      }
    }
    for (std::size_t i = t.find('{'); i != std::string_view::npos; i = t.find('{', i + 1)) {
      const std::size_t close = t.find('}', i);
      ASSERT_NE(close, std::string_view::npos) << t;
      const std::string_view field = t.substr(i + 1, close - i - 1);
      EXPECT_TRUE(keys.count(std::string(field.substr(0, field.find(':')))))
          << model::kernel_text_name(d.text) << ": {" << field << "} is not among \"" << d.keys
          << "\"";
    }
  }
}

// A result's description from the model, written by the report: the measured SM120 FINALIZE
// tile (the story's), byte for byte what `tilefit check` has always printed for it.
TEST(KernelText, TheFinalizeTileInWords) {
  const model::KernelConfig cfg =
      api::read_model_config(
          R"({"arch": "sm_120", "dtype": "nvfp4", "grouped": true, "epilogue": "finalize", "tile": "CtaShape128x256x64B"})",
          "")
          .config;
  const model::Result r = test::eval(cfg);
  EXPECT_EQ(report::kernel_description(r.kernel),
            "KernelPtrArrayTmaWarpSpecializedCooperativeBlockScaledSm120 (MXF4/NVF4, A/B packed "
            "4-bit, SF vector 16); Sm120PtrArrayTmaWarpSpecialized epilogue 64x32, StagesC 2, "
            "StagesD 2, TRT-LLM finalize scatter (bias row, 512 B; the C stages are allocated but "
            "never read, D is the scatter's scratch)");
}

}  // namespace
}  // namespace tilefit
