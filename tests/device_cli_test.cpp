// Every GPU path of check, sweep, suggest, device and probe, in-process on fake GPUs (an H200, an
// RTX 5090, a GB10, none, a driver error; tests/test_support.hpp): --device N, configs without
// "arch" (GPU 0) and with one (a present GPU of that arch), no GPU, an index out of range, a
// driver error, each output format — on a machine without a GPU.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "test_support.hpp"

namespace tilefit {
namespace {

using test::FakeDevices;
using test::FakeProbe;
using test::RunOptions;

/// A config without "arch" (the GPU's is taken), one for sm_90 and one for sm_120.
constexpr const char* kNoArch =
    R"([{"name": "noarch", "tile": [128, 128, 128], "dtype": "nvfp4"}])";
constexpr const char* kTwoArchs =
    R"([{"name": "hopper", "arch": "sm_90", "tile": [128, 256, 64], "a": "bf16", "b": "bf16"},
        {"name": "blackwell", "arch": "sm_120", "tile": [128, 128, 128], "dtype": "nvfp4"}])";

RunOptions on(const FakeDevices& gpus, const std::string& stdin_text = "") {
  RunOptions o = test::on(gpus);
  o.stdin_text = stdin_text;
  return o;
}

std::size_t count(const std::string& s, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + what.size()))
    ++n;
  return n;
}

int lines(const std::string& s) { return static_cast<int>(count(s, "\n")); }

/// `tilefit <args>` on `gpus` fails as `device` and `probe` do: exit 3, nothing on stdout, one
/// line on stderr that says `says`; with --format json the same error in the document's "error".
/// Returns the table run's stderr.
std::string expect_device_command_failure(const FakeDevices& gpus, const std::string& args,
                                          const std::string& says) {
  const auto t = test::run_command(args, on(gpus));
  EXPECT_EQ(t.exit_code, 3) << args;
  EXPECT_EQ(t.out, "") << args;
  EXPECT_EQ(lines(t.err), 1) << t.err;
  EXPECT_NE(t.err.find(says), std::string::npos) << t.err;
  const auto j = test::run_command(args + " --format json", on(gpus));
  EXPECT_EQ(j.exit_code, 3) << args;
  EXPECT_EQ(lines(j.err), 1) << j.err;
  const auto doc = nlohmann::json::parse(j.out);
  EXPECT_NE(doc["error"]["message"].get<std::string>().find(says), std::string::npos) << j.out;
  return t.err;
}

/// `tilefit <args> --format F` (check, sweep, suggest) with `stdin_text` on `gpus`, for each F:
/// exit 3 and an "error: " line on stderr that says `says`.
void expect_device_problem(const FakeDevices& gpus, const std::string& args,
                           const std::string& says, const std::string& stdin_text,
                           const std::vector<std::string>& formats) {
  for (const std::string& format : formats) {
    const auto r = test::run_command(args + " --format " + format, on(gpus, stdin_text));
    EXPECT_EQ(r.exit_code, 3) << args << " " << format << ": " << r.err;
    EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find(says), std::string::npos) << args << " " << format << ": " << r.err;
    if (format == "json") {
      const auto j = nlohmann::json::parse(r.out);
      ASSERT_FALSE(j["errors"].empty()) << r.out;
      EXPECT_EQ(j["errors"][0]["kind"], "device");
    }
  }
}

// ---- the fakes themselves ------------------------------------------------------------------------

TEST(FakeGpus, AreTheRealOnesLimits) {
  const device::DeviceInfo h200 = test::fake_h200();
  EXPECT_EQ(h200.limits.sm, 90);
  EXPECT_EQ(h200.limits.optin_per_block, 232448);  // docs/dev/device-validation.md, run 2
  EXPECT_EQ(h200.limits.per_sm, 233472);
  EXPECT_EQ(h200.sm_count, 132);
  EXPECT_TRUE(device::table_differences(h200).empty());
  EXPECT_EQ(test::fake_rtx5090().limits.optin_per_block, 101376);
  EXPECT_EQ(test::fake_rtx5090().limits.sm, 120);
  EXPECT_EQ(test::fake_gb10().limits.sm, 121);
  EXPECT_EQ(test::fake_gb10().limits.optin_per_block, 101376);
}

TEST(FakeGpus, ProbeAnswersAsTheRealProbeOnTheH200) {
  const FakeDevices h200({test::fake_h200()});
  const FakeProbe probe(h200);
  // docs/dev/device-validation.md: 232448 B launches, 232449 B is refused (cudaErrorInvalidValue at
  // cudaFuncSetAttribute), 22 launches.
  const auto b = probe.boundary(0);
  ASSERT_TRUE(b.ok()) << b.error().message;
  EXPECT_EQ(b->largest_launched, 232448);
  EXPECT_EQ(b->first_refused, 232449);
  EXPECT_EQ(b->refusal_error, "cudaErrorInvalidValue");
  EXPECT_EQ(b->refused_by, "cudaFuncSetAttribute");
  EXPECT_EQ(b->launches, 22);
  EXPECT_TRUE(probe.launch(0, 232448)->launched);
  EXPECT_FALSE(probe.launch(0, 232449)->launched);
  // The occupancy API for 32 threads: floor(233472 / (bytes + 1024)), at most 32.
  EXPECT_EQ(*probe.occupancy(0, 0), 32);
  EXPECT_EQ(*probe.occupancy(0, 98304), 2);
  EXPECT_EQ(*probe.occupancy(0, 232448), 1);
  EXPECT_EQ(*probe.occupancy(0, 232449), 0);
  EXPECT_FALSE(probe.launch(1, 0).ok());  // GPU 1 is not there
  const FakeDevices none = FakeDevices::none();
  EXPECT_EQ(FakeProbe(none).boundary(0).error().cuda_error, "cudaErrorNoDevice");
}

// ---- check ---------------------------------------------------------------------------------------

TEST(CheckOnFakeGpus, DeviceNUsesThatGpuInEveryFormat) {
  const FakeDevices both({test::fake_h200(), test::fake_rtx5090()});
  const auto table = test::run_command("check - --device 1", on(both, kNoArch));
  EXPECT_EQ(table.exit_code, 0) << table.err;
  EXPECT_EQ(table.err, "");
  EXPECT_NE(table.out.find("noarch"), std::string::npos) << table.out;
  EXPECT_NE(table.out.find("sm_120"), std::string::npos) << table.out;
  EXPECT_NE(table.out.find("limits from device 1 (NVIDIA GeForce RTX 5090)"), std::string::npos)
      << table.out;

  const auto json = test::run_command("check - --device 1 --format json", on(both, kNoArch));
  EXPECT_EQ(json.exit_code, 0) << json.err;
  const auto j = nlohmann::json::parse(json.out);
  ASSERT_EQ(j["results"].size(), 1u);
  EXPECT_EQ(j["results"][0]["arch"], "sm_120");
  EXPECT_EQ(j["results"][0]["target"]["source"], "device");
  EXPECT_EQ(j["results"][0]["limit_bytes"], 101376);

  const auto csv = test::run_command("check - --device 1 --format csv", on(both, kNoArch));
  EXPECT_EQ(csv.exit_code, 0) << csv.err;
  EXPECT_EQ(count(csv.out, "\n"), 2u) << csv.out;  // header and one row
  EXPECT_NE(csv.out.find("noarch"), std::string::npos);
  const auto md = test::run_command("check - --device 1 --format markdown", on(both, kNoArch));
  EXPECT_EQ(md.exit_code, 0) << md.err;
  EXPECT_NE(md.out.find("| noarch"), std::string::npos) << md.out;
  const auto svg = test::run_command("check - --device 1 --format svg", on(both, kNoArch));
  EXPECT_EQ(svg.exit_code, 0) << svg.err;
  EXPECT_NE(svg.out.find("<svg"), std::string::npos) << svg.out.substr(0, 80);
  EXPECT_NE(svg.out.find("noarch"), std::string::npos);
  // The same config on the H200 (GPU 0).
  const auto h = test::run_command("check - --device 0 --format json", on(both, kNoArch));
  EXPECT_EQ(nlohmann::json::parse(h.out)["results"][0]["limit_bytes"], 232448);
}

TEST(CheckOnFakeGpus, ConfigArchAgainstTheDevice) {
  // --device 0 (an H200) with an sm_120 config: invalid there (exit 1), the sm_90 one fits.
  const FakeDevices h200({test::fake_h200()});
  const auto r = test::run_command("check - --device 0 --format json", on(h200, kTwoArchs));
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["results"].size(), 2u);
  EXPECT_EQ(j["results"][0]["status"], "fits");
  EXPECT_EQ(j["results"][1]["status"], "invalid");
  EXPECT_NE(j["results"][1]["diagnostics"].dump().find("arch_mismatch"), std::string::npos);
}

TEST(CheckOnFakeGpus, WithoutATargetConfigsAskThePresentGpus) {
  // No --arch/--device: the sm_90 config uses the H200 that is there, the sm_120 one the table;
  // a config without arch uses GPU 0.
  const FakeDevices h200({test::fake_h200()});
  const auto r = test::run_command("check - --format json", on(h200, kTwoArchs));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["results"][0]["target"]["source"], "device");
  EXPECT_EQ(j["results"][1]["target"]["source"], "builtin");
  const FakeDevices gb10({test::fake_gb10()});
  const auto g = test::run_command("check - --format json", on(gb10, kNoArch));
  EXPECT_EQ(g.exit_code, 0) << g.err;
  EXPECT_EQ(nlohmann::json::parse(g.out)["results"][0]["arch"], "sm_121");
}

TEST(CheckOnFakeGpus, NoGpuOutOfRangeAndDriverErrorAreDeviceErrors) {
  const FakeDevices none = FakeDevices::none();
  const FakeDevices one({test::fake_h200()});
  const FakeDevices no_driver = FakeDevices::driver_error();
  struct Case {
    const FakeDevices* gpus;
    const char* args;
    const char* says;
  };
  for (const Case& c :
       {Case{&none, "check -", "cudaErrorNoDevice"},
        Case{&none, "check - --device 0", "cudaErrorNoDevice"},
        Case{&one, "check - --device 3", "GPU index 3 is out of range: only GPU 0 is visible"},
        Case{&no_driver, "check - --device 0", "cudaErrorInsufficientDriver"},
        Case{&no_driver, "check -", "cudaErrorInsufficientDriver"}})
    expect_device_problem(*c.gpus, c.args, c.says, kNoArch, {"table", "json", "csv", "markdown"});
  // --arch and --builtin never ask a GPU.
  const auto a = test::run_command("check - --arch sm_120", on(no_driver, kNoArch));
  EXPECT_EQ(a.exit_code, 0) << a.err;
  const auto b = test::run_command("check - --builtin", on(no_driver, kTwoArchs));
  EXPECT_EQ(b.exit_code, 0) << b.err;
}

// ---- sweep ---------------------------------------------------------------------------------------

constexpr const char* kSpace =
    R"({"configs": [{"name": "s", "dtype": "nvfp4", "tile": {"m": 128, "n": [128, 256], "k": 128}}]})";

TEST(SweepOnFakeGpus, DeviceNInEveryFormat) {
  const FakeDevices both({test::fake_h200(), test::fake_rtx5090()});
  for (const char* format : {"table", "json", "csv", "markdown", "svg"}) {
    const auto r = test::run_command(std::string("sweep - --device 1 --all --format ") + format,
                                     on(both, kSpace));
    EXPECT_EQ(r.exit_code, 0) << format << ": " << r.err;
    EXPECT_EQ(r.err, "") << format;
    EXPECT_FALSE(r.out.empty()) << format;
  }
  const auto j = nlohmann::json::parse(
      test::run_command("sweep - --device 1 --all --format json", on(both, kSpace)).out);
  ASSERT_EQ(j["results"].size(), 2u);
  for (const auto& res : j["results"]) {
    EXPECT_EQ(res["arch"], "sm_120");
    EXPECT_EQ(res["limit_bytes"], 101376);
  }
  // Without --device a space without arch takes GPU 0, the H200.
  const auto h =
      nlohmann::json::parse(test::run_command("sweep - --all --format json", on(both, kSpace)).out);
  EXPECT_EQ(h["results"][0]["arch"], "sm_90");
}

TEST(SweepOnFakeGpus, DeviceErrors) {
  const FakeDevices none = FakeDevices::none();
  const FakeDevices one({test::fake_rtx5090()});
  const FakeDevices no_driver = FakeDevices::driver_error();
  for (const auto& [gpus, args, says] :
       {std::tuple{&none, "sweep -", "cudaErrorNoDevice"},
        std::tuple{&one, "sweep - --device 2", "GPU index 2 is out of range"},
        std::tuple{&no_driver, "sweep - --device 0", "cudaErrorInsufficientDriver"}})
    expect_device_problem(*gpus, args, says, kSpace, {"table", "json"});
}

// ---- suggest -------------------------------------------------------------------------------------

constexpr const char* kFinalizeConfig =
    R"([{"name": "finalize_128x256x128", "dtype": "nvfp4", "tile": [128, 256, 128], "grouped": true,
         "epilogue": "finalize"}])";

TEST(SuggestOnFakeGpus, DeviceNInEveryFormat) {
  // The story's FINALIZE tile on an RTX 5090: does not fit, with alternatives that do.
  const FakeDevices rtx({test::fake_rtx5090()});
  const auto t = test::run_command("suggest - --device 0", on(rtx, kFinalizeConfig));
  EXPECT_EQ(t.exit_code, 0) << t.err;
  EXPECT_NE(t.out.find("finalize_128x256x128"), std::string::npos) << t.out;
  const auto j = nlohmann::json::parse(
      test::run_command("suggest - --device 0 --format json", on(rtx, kFinalizeConfig)).out);
  EXPECT_EQ(j["results"][0]["status"], "does_not_fit");
  EXPECT_EQ(j["results"][0]["target"]["source"], "device");
  EXPECT_FALSE(j["results"][0]["suggestions"].empty()) << j.dump(2);
  for (const char* format : {"csv", "markdown"}) {
    const auto r = test::run_command(std::string("suggest - --device 0 --format ") + format,
                                     on(rtx, kFinalizeConfig));
    EXPECT_EQ(r.exit_code, 0) << format << ": " << r.err;
    EXPECT_NE(r.out.find("finalize_128x256x128"), std::string::npos) << r.out;
  }
  // GPU 0 an H200 (sm_90): no family builds an NVFP4 block-scaled kernel there; invalid, with no
  // alternative, exit 1.
  const FakeDevices h200({test::fake_h200()});
  const auto hr = test::run_command("suggest - --format json", on(h200, kFinalizeConfig));
  EXPECT_EQ(hr.exit_code, 1) << hr.err;
  const auto h = nlohmann::json::parse(hr.out);
  EXPECT_EQ(h["results"][0]["arch"], "sm_90");
  EXPECT_EQ(h["results"][0]["status"], "invalid");
}

TEST(SuggestOnFakeGpus, DeviceErrors) {
  const FakeDevices none = FakeDevices::none();
  const FakeDevices one({test::fake_h200()});
  const FakeDevices no_driver = FakeDevices::driver_error();
  for (const auto& [gpus, args, says] :
       {std::tuple{&none, "suggest -", "cudaErrorNoDevice"},
        std::tuple{&one, "suggest - --device 1", "GPU index 1 is out of range"},
        std::tuple{&no_driver, "suggest - --device 0", "cudaErrorInsufficientDriver"}})
    expect_device_problem(*gpus, args, says, kFinalizeConfig, {"table", "json", "csv", "markdown"});
}

// ---- device --------------------------------------------------------------------------------------

TEST(DeviceOnFakeGpus, ListsEveryGpuInBothFormats) {
  const FakeDevices three({test::fake_h200(), test::fake_rtx5090(), test::fake_gb10()});
  const auto t = test::run_command("device", on(three));
  EXPECT_EQ(t.exit_code, 0) << t.err;
  EXPECT_EQ(t.err, "");
  for (const char* name : {"NVIDIA H200", "NVIDIA GeForce RTX 5090", "NVIDIA GB10"})
    EXPECT_NE(t.out.find(name), std::string::npos) << t.out;
  const auto j = nlohmann::json::parse(test::run_command("device --format json", on(three)).out);
  ASSERT_EQ(j["devices"].size(), 3u);
  EXPECT_EQ(j["devices"][1]["index"], 1);
  // One GPU by index.
  const auto one =
      nlohmann::json::parse(test::run_command("device --device 2 --format json", on(three)).out);
  ASSERT_EQ(one["devices"].size(), 1u);
  EXPECT_EQ(one["devices"][0]["name"], "NVIDIA GB10");
  EXPECT_EQ(three.queries, 3);
}

TEST(DeviceOnFakeGpus, ErrorsAreOneLineAndExit3) {
  const FakeDevices none = FakeDevices::none();
  const FakeDevices one({test::fake_h200()});
  const FakeDevices no_driver = FakeDevices::driver_error();
  for (const auto& [gpus, args, says] :
       {std::tuple{&none, "device", "cudaErrorNoDevice"},
        std::tuple{&none, "device --device 0", "cudaErrorNoDevice"},
        std::tuple{&one, "device --device 1", "GPU index 1 is out of range: only GPU 0 is visible"},
        std::tuple{&no_driver, "device", "cudaErrorInsufficientDriver"}}) {
    const std::string err = expect_device_command_failure(*gpus, args, says);
    // The device command has no --arch: the advice names the command that has it.
    EXPECT_NE(err.find("use 'tilefit check --arch ARCH' (or sweep, suggest) to"), std::string::npos)
        << err;
  }
  const auto j = nlohmann::json::parse(test::run_command("device --format json", on(none)).out);
  EXPECT_TRUE(j["devices"].empty());
}

// ---- probe ---------------------------------------------------------------------------------------

TEST(ProbeOnFakeGpus, AgreesOnTheH200InBothFormats) {
  const FakeDevices h200({test::fake_h200()});
  const auto t = test::run_command("probe configs/sm90_hopper.json", on(h200));
  EXPECT_EQ(t.exit_code, 0) << t.err;
  EXPECT_EQ(t.out.find("DISAGREE"), std::string::npos) << t.out;
  EXPECT_NE(t.out.find("232448 B launches, 232449 B is refused"), std::string::npos) << t.out;
  const auto j = nlohmann::json::parse(
      test::run_command("probe configs/sm90_hopper.json --format json", on(h200)).out);
  EXPECT_EQ(j["summary"]["disagreements"], 0);
  EXPECT_GT(j["summary"]["probed"].get<int>(), 0);
  EXPECT_EQ(j["boundary"]["largest_launched_bytes"], 232448);
  EXPECT_EQ(j["boundary"]["launches"], 22);
  EXPECT_EQ(j["boundary"]["agrees"], true);
  // --no-boundary: no search.
  const FakeProbe probe(h200);
  RunOptions o = test::on(h200);
  o.probe = &probe;
  const auto nb =
      test::run_command("probe configs/sm90_hopper.json --no-boundary --format json", o);
  EXPECT_EQ(nb.exit_code, 0) << nb.err;
  EXPECT_FALSE(nlohmann::json::parse(nb.out).contains("boundary") &&
               !nlohmann::json::parse(nb.out)["boundary"].is_null());
  EXPECT_EQ(probe.launches, j["summary"]["probed"].get<int>());
}

TEST(ProbeOnFakeGpus, ConfigsWithoutArchTakeTheGpus) {
  const FakeDevices both({test::fake_h200(), test::fake_rtx5090()});
  const auto j = nlohmann::json::parse(
      test::run_command("probe - --device 1 --format json", on(both, kNoArch)).out);
  ASSERT_EQ(j["results"].size(), 1u);
  EXPECT_EQ(j["results"][0]["arch"], "sm_120");
  EXPECT_EQ(j["boundary"]["largest_launched_bytes"], 101376);
  EXPECT_EQ(j["summary"]["disagreements"], 0);
}

TEST(ProbeOnFakeGpus, ADriverThatGrantsLessIsADisagreement) {
  const FakeDevices h200({test::fake_h200()});
  FakeProbe stingy(h200);
  stingy.grant(200000);
  RunOptions o = test::on(h200);
  o.probe = &stingy;
  const auto t = test::run_command("probe configs/sm90_hopper.json", o);
  EXPECT_EQ(t.exit_code, 1) << t.err;
  EXPECT_NE(t.out.find("DISAGREE"), std::string::npos) << t.out;
  EXPECT_NE(t.out.find("200000 B launches, 200001 B is refused"), std::string::npos) << t.out;
  const auto j = nlohmann::json::parse(
      test::run_command("probe configs/sm90_hopper.json --format json", o).out);
  EXPECT_EQ(j["boundary"]["agrees"], false);
}

TEST(ProbeOnFakeGpus, DeviceErrorsInBothFormats) {
  const FakeDevices none = FakeDevices::none();
  const FakeDevices one({test::fake_h200()});
  const FakeDevices no_driver = FakeDevices::driver_error();
  for (const auto& [gpus, args, says] :
       {std::tuple{&none, "probe", "cudaErrorNoDevice"},
        std::tuple{&one, "probe --device 1", "GPU index 1 is out of range"},
        std::tuple{&no_driver, "probe configs/sm90_hopper.json", "cudaErrorInsufficientDriver"}})
    expect_device_command_failure(*gpus, args, says);
}

TEST(ProbeOnFakeGpus, ABuildWithoutAProbeKernelSaysSo) {
  const FakeDevices h200({test::fake_h200()});
  FakeProbe none(h200);
  none.unavailable(
      "built without a CUDA compiler, so there is no probe kernel: make nvcc findable");
  RunOptions o = test::on(h200);
  o.probe = &none;
  const auto r = test::run_command("probe configs/sm90_hopper.json", o);
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(
      r.err,
      "error: built without a CUDA compiler, so there is no probe kernel: make nvcc findable\n");
}

TEST(ProbeOnFakeGpus, InputErrorsExit2AndTheRestIsProbed) {
  const FakeDevices h200({test::fake_h200()});
  const auto r =
      test::run_command("probe tests/data/does-not-exist.json configs/sm90_hopper.json", on(h200));
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("does-not-exist.json: cannot open"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("232448 B launches"), std::string::npos);
}

// ---- --version -----------------------------------------------------------------------------------

TEST(Version, SaysWhetherCudaIsBuiltIn) {
  const auto r = test::run_command("--version");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, "tilefit " TILEFIT_PROJECT_VERSION " (" + device::cuda_support() + ")\n");
  if (device::built_with_cuda())
    EXPECT_EQ(r.out.find("(CUDA "), std::string("tilefit " TILEFIT_PROJECT_VERSION " ").size())
        << r.out;
  else
    EXPECT_EQ(device::cuda_support(), "no CUDA device support");
}

}  // namespace
}  // namespace tilefit
