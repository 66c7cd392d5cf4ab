// The measured Triton attention launches of issue 19 (tests/data/attention-triton-3.6.tar.xz,
// tools/attention/README.md): the file the kernel model and the launcher inference are checked
// against. These tests check the file itself: every row is one launch in the agreed format, its
// config uses only the config fields of include/tilefit/model/attention.hpp (read from the
// header, so a renamed field fails here), a decode op has both its launches, a compiled launch
// has its size, an invalid one its reason, and a hold-out slice exists.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "test_support.hpp"

namespace tilefit {
namespace {

const std::vector<nlohmann::json>& rows() {
  static const std::vector<nlohmann::json> all = [] {
    std::vector<nlohmann::json> out;
    std::ifstream in(test::attention_rows_path());
    std::string line;
    while (std::getline(in, line))
      if (!line.empty()) out.push_back(nlohmann::json::parse(line));
    return out;
  }();
  return all;
}

/// The field names AttentionSpec declares (`std::optional<...> a, b;`, `std::string model;`, the
/// enums), plus the KernelConfig fields every config has.
std::set<std::string> config_fields() {
  const std::string hdr = test::read_file(test::source_path("include/tilefit/model/attention.hpp"));
  const auto begin = hdr.find("struct AttentionSpec");
  const std::string body = hdr.substr(begin, hdr.find("operator==", begin) - begin);
  std::set<std::string> names = {"kernel", "launcher", "arch", "num_warps", "num_stages"};
  const std::regex decl(
      R"((?:std::optional<[^>]*>|std::string|AttnOp|AttnStage|AttnPhase)\s+([^;=]+)[;=])");
  for (auto it = std::sregex_iterator(body.begin(), body.end(), decl); it != std::sregex_iterator();
       ++it) {
    std::string list = (*it)[1];
    const std::regex name(R"([A-Za-z_][A-Za-z_0-9]*)");
    for (auto n = std::sregex_iterator(list.begin(), list.end(), name); n != std::sregex_iterator();
         ++n)
      if ((*n)[0] != "AttnOp" && (*n)[0] != "AttnStage" && (*n)[0] != "AttnPhase")
        names.insert((*n)[0]);
  }
  return names;
}

TEST(AttentionRows, HeaderFieldsAreRead) {
  const auto f = config_fields();
  for (const char* n :
       {"op", "stage", "phase", "q_heads", "kv_lora_rank", "kv_dtype", "page_size", "sinks",
        "max_kv_splits", "use_pdl", "block_h", "tile_size", "num_kv_splits", "model", "tp"})
    EXPECT_TRUE(f.count(n)) << n;
}

TEST(AttentionRows, EveryRowIsOneLaunchInTheAgreedFormat) {
  ASSERT_GT(rows().size(), 1000u);
  const auto fields = config_fields();
  const std::set<std::string> dtypes = {"bf16", "f16", "f32", "fp8_e4m3"};
  const std::set<std::string> stages = {"stage1", "stage2", "main", "reduce", "launcher"};
  std::set<std::string> ids;
  for (const auto& r : rows()) {
    const std::string id = r.at("id");
    ASSERT_TRUE(ids.insert(id).second) << "duplicate id " << id;
    ASSERT_TRUE(r.at("engine") == "vllm@6adad087" || r.at("engine") == "sglang@d6ef6888") << id;
    const auto& c = r.at("config");
    for (const auto& [k, v] : c.items())
      EXPECT_TRUE(fields.count(k)) << id << ": config field " << k;
    EXPECT_EQ(c.at("kernel"), "triton_attention") << id;
    EXPECT_EQ(c.at("arch"), "sm_" + std::to_string(r.at("cc").get<int>())) << id;
    for (const char* d : {"act_dtype", "kv_dtype", "q_dtype"})
      EXPECT_TRUE(dtypes.count(c.at(d).get<std::string>())) << id << " " << d;
    EXPECT_TRUE(stages.count(c.at("stage").get<std::string>())) << id;
    if (r.at("status") == "ok") {
      // the attention kernels (stage1, main) hold their dot operands in shared memory; the
      // reductions (stage2, reduce_segments) may need none
      const std::string stage = c.at("stage");
      if (stage == "stage1" || stage == "main")
        EXPECT_GT(r.at("shared").get<long long>(), 0) << id;
      else
        EXPECT_GE(r.at("shared").get<long long>(), 0) << id;
      EXPECT_EQ(r.at("launch").at("stage"), c.at("stage")) << id;
      EXPECT_GE(r.at("launch").at("num_warps").get<int>(), 1) << id;
    } else {
      ASSERT_EQ(r.at("status"), "invalid") << id;
      EXPECT_FALSE(r.at("error").get<std::string>().empty()) << id;
    }
  }
}

// A decode op is two launches (stage1 and stage2) of the same config; unified_3d is the segment
// kernel and reduce_segments.
TEST(AttentionRows, MultiLaunchOpsHaveEveryLaunch) {
  std::map<std::string, std::set<std::string>> stages_of;  // job id -> stages
  std::map<std::string, std::string> op_of;
  for (const auto& r : rows()) {
    const std::string id = r.at("id");
    const std::string job = id.substr(0, id.find('.'));
    stages_of[job].insert(r.at("config").at("stage").get<std::string>());
    op_of[job] = r.at("config").at("op");
  }
  int decode_jobs = 0;
  for (const auto& [job, st] : stages_of) {
    if (st.count("launcher")) continue;  // the launcher refused the config: no launch
    const std::string& op = op_of[job];
    if (op == "decode" || op == "mla_decode") {
      ++decode_jobs;
      EXPECT_EQ(st, (std::set<std::string>{"stage1", "stage2"})) << job;
    } else if (op == "unified_3d") {
      EXPECT_EQ(st, (std::set<std::string>{"main", "reduce"})) << job;
    } else {
      EXPECT_EQ(st, (std::set<std::string>{"main"})) << job;
    }
  }
  EXPECT_GT(decode_jobs, 100);
}

TEST(AttentionRows, HoldOutSliceAndEveryTarget) {
  std::size_t held = 0;
  std::set<int> ccs;
  for (const auto& r : rows()) {
    held += r.value("holdout", false);
    ccs.insert(r.at("cc").get<int>());
  }
  EXPECT_GT(held, rows().size() / 20);
  EXPECT_LT(held, rows().size() / 4);
  EXPECT_EQ(ccs, (std::set<int>{75, 80, 86, 89, 90, 100, 120, 121}));
}

}  // namespace
}  // namespace tilefit
