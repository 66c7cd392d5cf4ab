// The AMD Instinct targets' front door (issue 20): the architecture rows and their spellings, the
// tuned tables' AMD device_names, the AMD keys and FlyDSL tables through the real reader, the
// async-copy switch (config field, --hip-async-copy) and its rules, CUTLASS families on AMD, and
// check / sweep / suggest / the matrix / SVG / the archs listing for gfx942 and gfx950.
//
// None of these tests depends on the Triton AMD shared-memory numbers (amdmodel's rules): they
// check parsing, listing, errors, option plumbing and which keys a result carries. Where a Triton
// config is analysed on an AMD target only its arch, its hip_async_copy and the absence of input
// errors are checked, never its verdict or bytes.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "test_support.hpp"
#include "tilefit/analysis/target.hpp"
#include "tilefit/io/folder.hpp"
#include "tilefit/io/load.hpp"
#include "tilefit/model/amd_target.hpp"
#include "tilefit/model/arch.hpp"
#include "tilefit/model/evaluate.hpp"
#include "tilefit/model/family_table.hpp"
#include "tilefit/model/products.hpp"

namespace tilefit {
namespace {

using nlohmann::json;
using test::run_command;

// ---- the architecture rows ---------------------------------------------------------------------

TEST(AmdArchs, SpellingsAndAliases) {
  for (const char* s : {"gfx942", "GFX942", "mi300x", "MI300X", "mi325x"})
    EXPECT_EQ(model::parse_arch(s), model::kGfx942) << s;
  for (const char* s : {"gfx950", "mi350x", "MI355X", "mi355x"})
    EXPECT_EQ(model::parse_arch(s), model::kGfx950) << s;
  // The numeric spellings are NVIDIA compute capabilities only: never an AMD target.
  for (const char* s : {"942", "950", "sm_942", "sm942", "94.2", "95.0", "compute_942", "200"})
    EXPECT_EQ(model::parse_arch(s), std::nullopt) << s;
  // Unmodelled AMD GPUs are not parsed either.
  for (const char* s : {"gfx90a", "gfx1201", "mi250x", "mi300a", "gfx942:sramecc+"})
    EXPECT_EQ(model::parse_arch(s), std::nullopt) << s;
  // The NVIDIA spellings are as they were.
  EXPECT_EQ(model::parse_arch("12.1"), 121);
  EXPECT_EQ(model::parse_arch("sm_90a"), 90);
  EXPECT_EQ(model::parse_arch("120"), 120);
  EXPECT_EQ(model::arch_name(model::kGfx942), "gfx942");
  EXPECT_EQ(model::arch_name(model::kGfx950), "gfx950");
  EXPECT_NE(model::arch_choices().find("gfx942, gfx950"), std::string::npos);
  EXPECT_NE(model::arch_choices().find("mi300x"), std::string::npos);
}

TEST(AmdArchs, HintsForAmdSpellingsThatAreNotTargets) {
  EXPECT_NE(model::unmodelled_amd_hint("942").find("never as a number"), std::string::npos);
  EXPECT_NE(model::unmodelled_amd_hint("gfx90a").find("not modelled"), std::string::npos);
  EXPECT_NE(model::unmodelled_amd_hint("MI250X").find("not modelled"), std::string::npos);
  EXPECT_EQ(model::unmodelled_amd_hint("sm_91"), "");
}

TEST(AmdArchs, RowsWithTheirSources) {
  const model::ArchInfo* cdna3 = model::find_arch(model::kGfx942);
  const model::ArchInfo* cdna4 = model::find_arch(model::kGfx950);
  ASSERT_NE(cdna3, nullptr);
  ASSERT_NE(cdna4, nullptr);
  // LDS per workgroup: Triton's AMD TargetInfo.cpp getSharedMemorySize; per CU: ROCm gpu-specs.
  EXPECT_EQ(cdna3->limits.optin_per_block, 65536);
  EXPECT_EQ(cdna3->limits.default_per_block, 65536);
  EXPECT_EQ(cdna3->limits.per_sm, 65536);
  EXPECT_EQ(cdna4->limits.optin_per_block, 163840);
  EXPECT_EQ(cdna4->limits.per_sm, 163840);
  for (const model::ArchInfo* a : {cdna3, cdna4}) {
    EXPECT_EQ(a->limits.reserved_per_block, 0);
    EXPECT_EQ(a->limits.max_ctas_per_sm, 16);   // getMaxWorkGroupsPerCU: 16 barriers
    EXPECT_EQ(a->limits.threads_per_sm, 2048);  // 8 waves x 4 SIMDs x 64
    EXPECT_EQ(a->limits.regs_per_sm, 131072);   // 512 KiB VGPR file
    EXPECT_EQ(a->wave_size, 64);
    EXPECT_EQ(a->vendor, model::Vendor::Amd);
    EXPECT_EQ(a->cluster.portable, 1);
    EXPECT_NE(a->source.find("TargetInfo.cpp"), std::string_view::npos);
  }
  EXPECT_EQ(cdna3->aliases, "mi300x, mi325x");
  EXPECT_EQ(cdna4->aliases, "mi350x, mi355x");
  for (const model::ArchInfo& a : model::builtin_archs()) {
    EXPECT_EQ(a.vendor == model::Vendor::Amd, model::is_amd(a.limits.sm)) << a.limits.sm;
    if (!model::is_amd(a.limits.sm)) {
      EXPECT_EQ(a.wave_size, 32) << a.limits.sm;
    }
  }
  // Occupancy by LDS alone: floor(65536 / 20000) = 3 workgroups per CU.
  EXPECT_EQ(model::ctas_per_sm(20000, cdna3->limits), 3);
  EXPECT_EQ(model::ctas_per_sm(1024, cdna3->limits), 16);
  EXPECT_EQ(model::ctas_per_sm(65537, cdna3->limits), 0);
}

TEST(AmdArchs, ArchsListingTextAndJson) {
  const auto text = run_command("archs");
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(
      text.out.find("gfx942          65536     65536         0     65536       16   131072     "
                    "2048    64  MI300X, MI325X, MI308X (--arch mi300x, mi325x)"),
      std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("gfx950         163840    163840"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("`tilefit device` is NVIDIA-only"), std::string::npos);
  const auto r = run_command("archs --format json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  std::vector<std::string> amd;
  for (const json& a : j["archs"]) {
    if (a["vendor"] == "amd") {
      amd.push_back(a["arch"]);
      EXPECT_EQ(a["wave_size"], 64);
      EXPECT_EQ(a["max_ctas_per_sm"], 16);
    } else {
      EXPECT_EQ(a["vendor"], "nvidia");
      EXPECT_EQ(a["wave_size"], 32);
      EXPECT_EQ(a["aliases"], json::array());
    }
  }
  EXPECT_EQ(amd, (std::vector<std::string>{"gfx942", "gfx950"}));
  EXPECT_EQ(j["archs"][13]["aliases"], json::array({"mi300x", "mi325x"}));
  EXPECT_EQ(j["archs"][14]["optin_per_block_bytes"], 163840);
}

TEST(AmdArchs, UnknownArchErrorsSayHowAmdIsWritten) {
  const auto r = run_command("check configs/triton_kernels.json --arch 942");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--arch \"942\": unknown architecture; allowed: "), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("AMD targets are written gfx942 (mi300x, mi325x) or gfx950"),
            std::string::npos)
      << r.err;
  const auto mi250 = run_command("check configs/triton_kernels.json --arch mi250x");
  EXPECT_EQ(mi250.exit_code, 2);
  EXPECT_NE(mi250.err.find("gfx90a MI200"), std::string::npos) << mi250.err;
  // In a config's "arch" too.
  const auto cfg = run_command(
      "check -", test::with_stdin(R"({"kernel": "triton_matmul", "arch": 942, "tile": [64, 64, 32],
                                     "dtype": "f16"})"));
  EXPECT_EQ(cfg.exit_code, 2);
  EXPECT_NE(cfg.err.find("field \"arch\": 942 is not a known architecture"), std::string::npos)
      << cfg.err;
  EXPECT_NE(cfg.err.find("never as a number"), std::string::npos) << cfg.err;
}

// ---- products ------------------------------------------------------------------------------------

TEST(AmdProducts, EveryInstinctDeviceNameOfTheEnginesTables) {
  for (const char* n : {"AMD_Instinct_MI300X", "AMD_Instinct_MI308X", "AMD_Instinct_MI325X",
                        "AMD_Instinct_MI325_OAM"}) {
    const model::ProductMatch p = model::find_product(n);
    EXPECT_EQ(p.sm, model::kGfx942) << n;
    EXPECT_TRUE(p.exact) << n;
  }
  for (const char* n : {"AMD_Instinct_MI350X", "AMD_Instinct_MI350_OAM", "AMD_Instinct_MI355X",
                        "AMD_Instinct_MI355_OAM"}) {
    EXPECT_EQ(model::find_product(n).sm, model::kGfx950) << n;
    EXPECT_TRUE(model::find_product(n).exact) << n;
  }
  // Spaces as torch reports them; a model token of another spelling.
  EXPECT_EQ(model::find_product("AMD Instinct MI300X").sm, model::kGfx942);
  const model::ProductMatch hf = model::find_product("AMD_Instinct_MI300X_HF");
  EXPECT_EQ(hf.sm, model::kGfx942);
  EXPECT_FALSE(hf.exact);
  EXPECT_EQ(model::find_product("AMD_Instinct_MI355X_VF").sm, model::kGfx950);
}

TEST(AmdProducts, RadeonNamesAreNeverGuessed) {
  for (const char* n : {"AMD_Radeon_R9700", "Radeon_8060S_Graphics"}) {
    const model::ProductMatch p = model::find_product(n);
    EXPECT_EQ(p.sm, 0) << n;
    EXPECT_NE(p.not_modelled.find("AMD Radeon (RDNA) GPU, not a modelled target"),
              std::string_view::npos)
        << n;
  }
  const model::ProductMatch generic = model::find_product("AMD_Radeon_Graphics");
  EXPECT_EQ(generic.sm, 0);
  EXPECT_NE(generic.not_modelled.find("does not say which architecture"), std::string_view::npos);
  const model::ProductMatch mi250 = model::find_product("AMD_Instinct_MI250X_MI250");
  EXPECT_EQ(mi250.sm, 0);
  EXPECT_NE(mi250.not_modelled.find("not a modelled target"), std::string_view::npos);
  // NVIDIA names are as they were.
  EXPECT_EQ(model::find_product("NVIDIA_H100_80GB_HBM3").sm, 90);
  EXPECT_TRUE(model::find_product("NVIDIA_H100_80GB_HBM3").not_modelled.empty());
}

// ---- AMD tables through the real reader --------------------------------------------------------

TEST(AmdTables, AmdKeysAndTritonVersionAreRead) {
  const io::LoadResult r = io::load<io::LoadResult>(io::Source::file(test::data_path(
      "amd_tables/ok/E=64,N=768,device_name=AMD_Instinct_MI355_OAM,dtype=fp8_w8a8,block_shape=[128,"
      "128].json")));
  ASSERT_TRUE(r.errors.empty()) << io::format_error(r.errors[0]);
  ASSERT_EQ(r.configs.size(), 1u);
  const model::KernelConfig& c = r.configs[0].config;
  EXPECT_EQ(c.tuned.waves_per_eu, 1);
  EXPECT_EQ(c.tuned.matrix_instr_nonkdim, 16);
  EXPECT_EQ(c.tuned.kpack, 1);
  EXPECT_EQ(c.triton_version, "3.6.0");
  EXPECT_EQ(c.tuned_device, "AMD_Instinct_MI355_OAM");
  EXPECT_FALSE(c.hip_async_copy.has_value());
}

TEST(AmdTables, MissingWarpsAndStagesStayUnset) {
  const io::LoadResult r = io::load<io::LoadResult>(io::Source::file(test::data_path(
      "amd_tables/ok/E=8,N=7168,device_name=AMD_Instinct_MI300X,dtype=fp8_w8a8.json")));
  ASSERT_TRUE(r.errors.empty()) << io::format_error(r.errors[0]);
  ASSERT_EQ(r.configs.size(), 2u);
  EXPECT_EQ(r.configs[0].config.num_warps, 4);
  EXPECT_EQ(r.configs[0].config.stages, 2);
  // The model applies Triton's HIP defaults (num_warps 4, num_stages 2) to these.
  EXPECT_FALSE(r.configs[1].config.num_warps.has_value());
  EXPECT_FALSE(r.configs[1].config.stages.has_value());
  EXPECT_EQ(r.configs[1].config.tuned.matrix_instr_nonkdim, 32);
}

TEST(AmdTables, BadAmdValuesAreInputErrorsNamingEntryFieldValueAndAllowed) {
  const std::string path =
      test::data_path("amd_tables/bad/E=8,N=1024,device_name=AMD_Instinct_MI325X.json");
  const io::LoadResult r = io::load<io::LoadResult>(io::Source::file(path));
  ASSERT_EQ(r.errors.size(), 3u);
  EXPECT_EQ(io::format_error(r.errors[0]),
            path + ": config #0 \"1\": field \"kpack\": 4 is not a valid kpack; allowed: 1 or 2");
  EXPECT_EQ(io::format_error(r.errors[1]),
            path +
                ": config #1 \"2\": field \"waves_per_eu\": -2 is not a valid waves_per_eu; "
                "allowed: non-negative integers");
  EXPECT_EQ(io::format_error(r.errors[2]),
            path +
                ": config #2 \"4\": field \"matrix_instr_nonkdim\": expected an integer, got "
                "\"16\"; allowed: non-negative integers");
}

TEST(AmdTables, FlyDslTablesAreSkippedNotMisread) {
  const std::string flydsl =
      "E=384,N=256,device_name=AMD_Instinct_MI355X,dtype=int4_w4a16,backend=flydsl.json";
  EXPECT_NE(io::not_triton_table("x/" + flydsl).find("backend=flydsl"), std::string::npos);
  EXPECT_EQ(io::not_triton_table("x/E=8,N=7168,device_name=AMD_Instinct_MI300X.json"), "");
  EXPECT_EQ(io::not_triton_table("README.md"), "");
  bool skipped = false;
  for (const io::FolderEntry& f : io::list_folder(test::data_path("amd_tables/ok")))
    if (f.path.ends_with(flydsl)) {
      EXPECT_EQ(f.kind, io::FolderEntry::Kind::skipped);
      EXPECT_EQ(f.message,
                "a vLLM backend=flydsl table (FlyDSL's own MoE kernel: tile_m, tile_n, tile_k, "
                "tile_n2, tile_k2; fused_flydsl_moe.py), not Triton configs: not modelled");
      skipped = true;
    }
  EXPECT_TRUE(skipped);
  // Named on the command line: skipped with the same note, counted in the summary.
  const auto r = run_command("check 'tests/data/amd_tables/ok/" + flydsl + "' --arch gfx942");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("skipped: a vLLM backend=flydsl table"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("1 file skipped"), std::string::npos) << r.out;
  // Read anyway (sweep), the file name's part is the error.
  const io::LoadResult read =
      io::load<io::LoadResult>(io::Source::file(test::data_path("amd_tables/ok/" + flydsl)));
  ASSERT_FALSE(read.errors.empty());
  EXPECT_NE(io::format_error(read.errors[0]).find("the file name's part \"backend=flydsl\""),
            std::string::npos)
      << io::format_error(read.errors[0]);
}

TEST(AmdTables, TheAmdFolderReadsWithNoInputErrorForEveryAmdArch) {
  for (const char* arch : {"gfx942", "gfx950", "mi300x", "mi355x"}) {
    const auto r = run_command(std::string("check tests/data/amd_tables/ok --arch ") + arch +
                               " --format json");
    EXPECT_EQ(r.err.find("error:"), std::string::npos) << arch << ": " << r.err;
    ASSERT_FALSE(r.out.empty()) << arch;
    const json j = json::parse(r.out);
    EXPECT_EQ(j["summary"]["errors"], 0) << arch;
    EXPECT_EQ(j["summary"]["files_skipped"], 1) << arch;
    EXPECT_EQ(j["results"].size(), 5u) << arch;  // 2 + 1 + 1 + 1 entries; FlyDSL skipped
    for (const json& res : j["results"]) {
      EXPECT_EQ(res["arch"], model::arch_name(*model::parse_arch(arch)));
      EXPECT_EQ(res["hip_async_copy"], false);
      EXPECT_EQ(res["limit_bytes"],
                model::find_arch(*model::parse_arch(arch))->limits.optin_per_block);
    }
  }
}

TEST(AmdTables, DeviceNamePicksTheAmdTargetWithoutArch) {
  const auto r = run_command(
      "check "
      "'tests/data/amd_tables/ok/E=8,N=7168,device_name=AMD_Instinct_MI300X,dtype=fp8_w8a8.json' "
      "'tests/data/amd_tables/ok/"
      "E=64,N=768,device_name=AMD_Instinct_MI355_OAM,dtype=fp8_w8a8,block_"
      "shape=[128,128].json' --format json");
  ASSERT_FALSE(r.out.empty()) << r.err;
  const json j = json::parse(r.out);
  std::vector<std::string> archs;
  for (const json& res : j["results"]) archs.push_back(res["arch"]);
  EXPECT_EQ(archs, (std::vector<std::string>{"gfx942", "gfx942", "gfx950"}));
  EXPECT_EQ(j["results"][0]["target"]["source"], "builtin");
  bool said = false;
  for (const json& d : j["results"][0]["diagnostics"])
    said = said || d["message"] ==
                       "device_name AMD_Instinct_MI300X in the file name is AMD "
                       "Instinct MI300X (gfx942): analysed for it; --arch or --device "
                       "checks the table for another GPU";
  EXPECT_TRUE(said) << j["results"][0]["diagnostics"].dump();
}

TEST(AmdTables, RadeonTablesAskForArch) {
  const auto r = run_command(
      "check "
      "'tests/data/amd_tables/ok/E=64,N=768,device_name=AMD_Radeon_R9700,dtype=fp8_w8a8,block_"
      "shape=[128,128].json' "
      "tests/data/amd_tables/ok/E=8,N=1792,device_name=AMD_Radeon_Graphics.json");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("field \"device_name\": the file name's device_name \"AMD_Radeon_R9700\" is "
                       "an AMD Radeon (RDNA) GPU, not a modelled target (tilefit models the AMD "
                       "Instinct targets gfx942 and gfx950 only); give --arch to check its entries "
                       "for a modelled target (e.g. --arch gfx942)"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("\"AMD_Radeon_Graphics\" is the generic name some ROCm releases report"),
            std::string::npos)
      << r.err;
  // One error per file, not per entry.
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 2) << r.err;
}

// ---- the async-copy switch -----------------------------------------------------------------------

constexpr const char* kMatmul =
    R"({"name": "mm", "kernel": "triton_matmul", "tile": [64, 64, 32], "dtype": "f16",
        "stages": 2, "num_warps": 4)";

std::string matmul(const std::string& extra) { return std::string(kMatmul) + extra + "}"; }

TEST(AmdSwitch, ConfigFieldIsReadAsABoolean) {
  const io::LoadResult on = io::load<io::LoadResult>(
      io::Source::text("[" + matmul(R"(, "hip_async_copy": true)") + "]", "t.json"));
  ASSERT_TRUE(on.errors.empty()) << io::format_error(on.errors[0]);
  EXPECT_EQ(on.configs[0].config.hip_async_copy, true);
  const io::LoadResult str = io::load<io::LoadResult>(
      io::Source::text("[" + matmul(R"(, "hip_async_copy": "on")") + "]", "t.json"));
  ASSERT_EQ(str.errors.size(), 1u);
  EXPECT_EQ(io::format_error(str.errors[0]),
            "t.json: config #0 \"mm\": field \"hip_async_copy\": expected true or false, got "
            "\"on\"; allowed: true, false (TRITON_HIP_USE_ASYNC_COPY=1 / 0; on the command "
            "line --hip-async-copy on|off)");
  const io::LoadResult cutlass = io::load<io::LoadResult>(io::Source::text(
      R"([{"arch": "sm_90", "tile": [128, 128, 64], "hip_async_copy": true}])", "t.json"));
  ASSERT_EQ(cutlass.errors.size(), 1u);
  EXPECT_EQ(io::format_error(cutlass.errors[0]),
            "t.json: config #0: field \"hip_async_copy\": applies only to Triton kernels; give "
            "\"kernel\": \"triton_matmul\" or \"triton_fused_moe\"");
}

TEST(AmdSwitch, InEffectValue) {
  model::KernelConfig c;
  c.arch = model::kGfx942;
  EXPECT_FALSE(model::hip_async_copy_in_effect(c));  // Triton 3.6's default
  c.hip_async_copy = true;
  EXPECT_TRUE(model::hip_async_copy_in_effect(c));
  c.arch = 90;
  EXPECT_FALSE(model::hip_async_copy_in_effect(c));
}

TEST(AmdSwitch, OptionSetsTheValueOnAmdResultsAndOverridesTheField) {
  for (const char* value : {"on", "off"}) {
    const auto r =
        run_command(std::string("check - --arch gfx942 --format json --hip-async-copy ") + value,
                    test::with_stdin(matmul(R"(, "hip_async_copy": false)")));
    ASSERT_FALSE(r.out.empty()) << r.err;
    const json j = json::parse(r.out);
    EXPECT_EQ(j["results"][0]["arch"], "gfx942");
    EXPECT_EQ(j["results"][0]["hip_async_copy"], std::string(value) == "on");
  }
  // The table's ARCH cell says it.
  const auto text =
      run_command("check - --arch gfx950 --hip-async-copy on", test::with_stdin(matmul("")));
  EXPECT_NE(text.out.find("gfx950 (async on)"), std::string::npos) << text.out;
  const auto dflt = run_command("check - --arch gfx942", test::with_stdin(matmul("")));
  EXPECT_NE(dflt.out.find("gfx942 (async off)"), std::string::npos) << dflt.out;
}

TEST(AmdSwitch, NvidiaTargetsAreErrors) {
  const auto arch =
      run_command("check - --arch sm_90 --hip-async-copy on", test::with_stdin(matmul("")));
  EXPECT_EQ(arch.exit_code, 2);
  EXPECT_EQ(arch.err,
            "error: --hip-async-copy on: --arch \"sm_90\" names no AMD target, and the switch "
            "applies to the AMD targets only (gfx942, gfx950); add one (--arch sm_90,gfx942) or "
            "drop --hip-async-copy\n");
  const auto device =
      run_command("check - --device 0 --hip-async-copy off", test::with_stdin(matmul("")));
  EXPECT_EQ(device.exit_code, 2);
  EXPECT_NE(device.err.find("--device asks an NVIDIA GPU (CUDA Runtime)"), std::string::npos)
      << device.err;
  const auto bad =
      run_command("check - --arch gfx942 --hip-async-copy yes", test::with_stdin(matmul("")));
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--hip-async-copy \"yes\": allowed: on or off"), std::string::npos)
      << bad.err;
  // The field on a config analysed for an NVIDIA target (its own arch, or --arch).
  const auto field = run_command(
      "check -", test::with_stdin(matmul(R"(, "arch": "sm_90", "hip_async_copy": true)")));
  EXPECT_EQ(field.exit_code, 2);
  EXPECT_EQ(field.err,
            "error: <stdin>: config #0 \"mm\": field \"hip_async_copy\": true: the config is "
            "analysed for sm_90, an NVIDIA target; TRITON_HIP_USE_ASYNC_COPY applies to the AMD "
            "targets only (gfx942, gfx950): drop \"hip_async_copy\" or give --arch gfx942 (or "
            "gfx950)\n");
  const auto over = run_command("check - --arch sm_120",
                                test::with_stdin(matmul(R"(, "hip_async_copy": false)")));
  EXPECT_EQ(over.exit_code, 2);
  EXPECT_NE(over.err.find("false: the config is analysed for sm_120, an NVIDIA target"),
            std::string::npos)
      << over.err;
  // The option on a per-config run whose config is NVIDIA's.
  const auto per_config =
      run_command("check - --hip-async-copy on", test::with_stdin(matmul(R"(, "arch": "sm_90")")));
  EXPECT_EQ(per_config.exit_code, 2);
  EXPECT_NE(per_config.err.find("field \"--hip-async-copy\": on: the config is analysed for sm_90"),
            std::string::npos)
      << per_config.err;
}

TEST(AmdSwitch, SeveralArchsApplyItToTheAmdTargetsOnly) {
  const auto r = run_command("check - --arch sm_90,gfx942 --hip-async-copy on --format json",
                             test::with_stdin(matmul(R"(, "hip_async_copy": true)")));
  ASSERT_FALSE(r.out.empty()) << r.err;
  EXPECT_EQ(r.err.find("error:"), std::string::npos) << r.err;
  const json j = json::parse(r.out);
  ASSERT_EQ(j["results"].size(), 2u);
  std::vector<std::string> archs;
  for (const json& res : j["results"]) {
    archs.push_back(res["arch"]);
    if (res["arch"] == "sm_90") {
      EXPECT_FALSE(res.contains("hip_async_copy"));
    } else {
      EXPECT_EQ(res["hip_async_copy"], true);
    }
  }
  EXPECT_EQ(archs, (std::vector<std::string>{"sm_90", "gfx942"}));
  // The matrix (table) has both columns.
  const auto m = run_command("check - --arch sm_90,gfx942,gfx950", test::with_stdin(matmul("")));
  EXPECT_NE(m.out.find("sm_90"), std::string::npos) << m.out;
  EXPECT_NE(m.out.find("gfx942"), std::string::npos) << m.out;
  EXPECT_NE(m.out.find("gfx950"), std::string::npos) << m.out;
}

TEST(AmdSwitch, ResolverRule) {
  analysis::TargetRequest req;
  req.mode = analysis::TargetRequest::Mode::arch;
  req.archs = {90, model::kGfx942};
  req.hip_async_copy = true;
  const test::FakeDevices none = test::FakeDevices::none();
  model::KernelConfig cfg;
  cfg.family = "triton_matmul";
  cfg.hip_async_copy = false;
  analysis::TargetResolver nvidia(req.for_arch(90), none);
  analysis::Resolution a = nvidia.resolve(cfg, false);
  EXPECT_EQ(a.kind, analysis::Resolution::Kind::analyse);
  EXPECT_FALSE(a.config.hip_async_copy.has_value());
  analysis::TargetResolver amd(req.for_arch(model::kGfx942), none);
  analysis::Resolution b = amd.resolve(cfg, false);
  EXPECT_EQ(b.config.hip_async_copy, true);  // the option wins over the field
  // One NVIDIA arch alone: an error naming the option.
  analysis::TargetRequest one = req;
  one.archs = {90};
  analysis::TargetResolver alone(one, none);
  analysis::Resolution c = alone.resolve(cfg, false);
  EXPECT_EQ(c.kind, analysis::Resolution::Kind::input_error);
  EXPECT_EQ(c.field, "--hip-async-copy");
}

// ---- CUTLASS on AMD ------------------------------------------------------------------------------

TEST(AmdKernels, CutlassFamiliesDoNotRunOnAmd) {
  for (const model::FamilyRow& f : model::family_table()) {
    const bool triton = f.family->name().starts_with("triton_");
    if (triton) continue;  // amdmodel's TritonFamily::runs_on
    EXPECT_FALSE(f.family->runs_on(model::kGfx942)) << f.family->name();
    EXPECT_FALSE(f.family->runs_on(model::kGfx950)) << f.family->name();
  }
  const auto r = run_command(
      "check - --arch gfx942 --format json",
      test::with_stdin(R"({"kernel": "sm80_multistage", "tile": [128, 128, 32], "dtype": "bf16",
                           "warp": [64, 64, 32], "stages": 3})"));
  ASSERT_FALSE(r.out.empty()) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["results"][0]["status"], "invalid");
  EXPECT_EQ(j["results"][0]["diagnostics"].back()["code"], "cutlass_family_on_amd");
  EXPECT_EQ(j["results"][0]["diagnostics"].back()["message"],
            "sm80_multistage is a CUTLASS (CUDA) kernel: it does not run on gfx942, an AMD "
            "target; on AMD tilefit models the Triton kernels (triton_matmul, triton_fused_moe, "
            "triton_block_matmul)");
}

TEST(AmdKernels, CutlassKernelNameOnAmd) {
  const auto r = run_command(
      "check --name cutlass3x_sm90_tensorop_gemm_bf16_bf16_f32_bf16_bf16_128x256x64_1x1x1_0_tnn_"
      "align8_warpspecialized_cooperative_epi_tma --arch mi300x --format json");
  ASSERT_FALSE(r.out.empty()) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["results"][0]["status"], "invalid");
  EXPECT_EQ(j["results"][0]["arch"], "gfx942");
  bool said = false;
  for (const json& d : j["results"][0]["diagnostics"])
    said = said || d["code"] == "cutlass_family_on_amd";
  EXPECT_TRUE(said) << j["results"][0]["diagnostics"].dump();
}

TEST(AmdKernels, NoFamilyOnAmdSaysToNameATritonKernel) {
  const auto r = run_command("check - --arch gfx950 --format json",
                             test::with_stdin(R"({"tile": [128, 128, 64], "dtype": "bf16"})"));
  ASSERT_FALSE(r.out.empty()) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["results"][0]["status"], "invalid");
  EXPECT_EQ(j["results"][0]["kernel_reason"],
            "no modelled kernel family builds bf16 x bf16 for gfx950: CUTLASS kernels are CUDA "
            "only, and a Triton kernel is never inferred; name it (\"kernel\": \"triton_matmul\", "
            "\"triton_fused_moe\" or \"triton_block_matmul\")");
}

// ---- sweep, suggest, pictures, schema ---------------------------------------------------------

TEST(AmdSweep, SwitchAndArchAsAxes) {
  const auto r =
      run_command("sweep - --all --format json",
                  test::with_stdin(R"({"kernel": "triton_matmul", "arch": ["gfx942", "gfx950"],
                           "tile": [64, 64, 32], "dtype": "f16", "stages": 2,
                           "hip_async_copy": [false, true]})"));
  ASSERT_FALSE(r.out.empty()) << r.err;
  EXPECT_EQ(r.err.find("error:"), std::string::npos) << r.err;
  const json j = json::parse(r.out);
  std::vector<std::string> seen;
  for (const json& res : j["results"])
    seen.push_back(res["arch"].get<std::string>() + "/" +
                   (res["hip_async_copy"].get<bool>() ? "on" : "off"));
  std::sort(seen.begin(), seen.end());
  EXPECT_EQ(seen, (std::vector<std::string>{"gfx942/off", "gfx942/on", "gfx950/off", "gfx950/on"}));
  // --hip-async-copy overrides the axis on every candidate.
  const auto o = run_command(
      "sweep - --all --format json --arch gfx942 --hip-async-copy on",
      test::with_stdin(R"({"kernel": "triton_matmul", "tile": [64, 64, 32], "dtype": "f16",
                           "stages": [1, 2], "hip_async_copy": [false, true]})"));
  ASSERT_FALSE(o.out.empty()) << o.err;
  const json swept = json::parse(o.out);  // kept alive: the loop iterates a part of it
  for (const json& res : swept["results"]) EXPECT_EQ(res["hip_async_copy"], true);
  // A candidate for an NVIDIA arch with the field: the input error of the field.
  const auto n = run_command(
      "sweep - --all", test::with_stdin(R"({"kernel": "triton_matmul", "arch": ["sm_90", "gfx942"],
                           "tile": [64, 64, 32], "dtype": "f16", "hip_async_copy": true})"));
  EXPECT_EQ(n.exit_code, 2);
  EXPECT_NE(n.err.find("field \"hip_async_copy\": true: the config is analysed for sm_90"),
            std::string::npos)
      << n.err;
  // A several-arch sweep with the option.
  const auto m = run_command(
      "sweep - --all --format json --arch sm_90,gfx942 --hip-async-copy off",
      test::with_stdin(R"({"kernel": "triton_matmul", "tile": [64, 64, 32], "dtype": "f16"})"));
  ASSERT_FALSE(m.out.empty()) << m.err;
  EXPECT_EQ(m.err.find("error:"), std::string::npos) << m.err;
}

TEST(AmdSuggest, TakesTheAmdTargetsAndTheSwitch) {
  const auto r = run_command("suggest - --arch gfx942 --hip-async-copy on --format json",
                             test::with_stdin(matmul("")));
  EXPECT_NE(r.exit_code, 2) << r.err;
  EXPECT_EQ(r.err.find("error:"), std::string::npos) << r.err;
  const auto n =
      run_command("suggest - --arch sm_90 --hip-async-copy on", test::with_stdin(matmul("")));
  EXPECT_EQ(n.exit_code, 2);
  EXPECT_NE(n.err.find("names no AMD target"), std::string::npos) << n.err;
}

TEST(AmdPictures, CheckAndSweepDrawForAmd) {
  const auto svg = run_command("check - --arch gfx942 --format svg", test::with_stdin(matmul("")));
  EXPECT_NE(svg.out.find("<svg"), std::string::npos) << svg.out.substr(0, 200) << svg.err;
  EXPECT_NE(svg.out.find("gfx942"), std::string::npos);
  const auto map = run_command(
      "sweep - --format svg --arch gfx950",
      test::with_stdin(R"({"kernel": "triton_matmul", "tile": {"m": [64, 128], "n": [64, 128],
                           "k": 64}, "dtype": "f16", "stages": [1, 2, 3]})"));
  EXPECT_NE(map.out.find("<svg"), std::string::npos) << map.out.substr(0, 200) << map.err;
  EXPECT_NE(map.out.find("gfx950"), std::string::npos);
}

TEST(AmdSchema, DescribesTheSwitchAndTheAmdArchs) {
  const auto config = run_command("schema config");
  ASSERT_EQ(config.exit_code, 0) << config.err;
  const json c = json::parse(config.out);
  const json field = c["$defs"]["config"]["properties"]["hip_async_copy"];
  EXPECT_EQ(field["type"], "boolean") << field.dump();
  const std::string arch = c["$defs"]["config"]["properties"]["arch"].dump();
  EXPECT_NE(arch.find("[gG][fF][xX]942"), std::string::npos) << arch;
  EXPECT_EQ(arch.find("94\\\\.2"), std::string::npos) << arch;
  const auto results = run_command("schema results");
  ASSERT_EQ(results.exit_code, 0) << results.err;
  EXPECT_NE(results.out.find("\"hip_async_copy\""), std::string::npos);
}

}  // namespace
}  // namespace tilefit
