// Every target path of `tilefit check`, on a machine without a GPU: the resolver runs against
// fake devices (an H200, an RTX 5090, both, none).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "model_test_util.hpp"
#include "tilefit/analysis/check.hpp"
#include "tilefit/analysis/target.hpp"
#include "tilefit/device/device_source.hpp"
#include "test_support.hpp"
#include "tilefit/io/load.hpp"

namespace tilefit {
namespace {

using analysis::Resolution;
using analysis::Target;
using analysis::TargetRequest;
using analysis::TargetResolver;
using Mode = TargetRequest::Mode;

device::DeviceInfo fake(int index, const char* name, int sm) {
  device::DeviceInfo d;
  d.index = index;
  d.name = name;
  d.cc_major = sm / 10;
  d.cc_minor = sm % 10;
  d.sm_count = 132;
  d.limits = model::find_arch(sm)->limits;
  return d;
}

const device::DeviceInfo kH200 = fake(0, "NVIDIA H200", 90);
const device::DeviceInfo kRtx5090 = fake(1, "NVIDIA GeForce RTX 5090", 120);

/// GPUs that answer from a list, or the one error every query gives; counts the queries.
class FakeDevices final : public device::DeviceSource {
 public:
  explicit FakeDevices(std::vector<device::DeviceInfo> gpus) : gpus_(std::move(gpus)) {}
  explicit FakeDevices(device::DeviceError error) : error_(std::move(error)) {}

  device::DeviceList all() const override {
    ++queries;
    if (!error_.message.empty()) return error_;
    return gpus_;
  }
  device::DeviceResult one(int index) const override {
    ++queries;
    if (!error_.message.empty()) return error_;
    if (index < 0 || index >= static_cast<int>(gpus_.size()))
      return device::DeviceError{"", "GPU index " + std::to_string(index) + " is out of range"};
    return gpus_[static_cast<std::size_t>(index)];
  }
  mutable int queries = 0;

 private:
  std::vector<device::DeviceInfo> gpus_;
  device::DeviceError error_;
};

const device::DeviceError kNoDriver{"cudaErrorInsufficientDriver",
                                    "no usable NVIDIA driver (fake)"};

model::KernelConfig config(int arch) {
  model::KernelConfig c = test::make_config("", arch, 128, 128, 128, "nvfp4");
  c.name = "c";
  return c;
}

TEST(Target, ArchOverridesTheConfigAndNamesIt) {
  FakeDevices none(kNoDriver);
  TargetResolver r({Mode::arch, {120}}, none);
  ASSERT_TRUE(r.common());
  EXPECT_EQ(r.common()->source, Target::Source::builtin);
  const Resolution res = r.resolve(config(90), /*arch_given=*/true);
  EXPECT_EQ(res.kind, Resolution::Kind::analyse);
  EXPECT_EQ(res.config.arch, 120);
  EXPECT_EQ(res.target.limits.optin_per_block, 101376);
  ASSERT_EQ(res.before.size(), 1u);
  EXPECT_EQ(res.before[0].code, model::Code::arch_overridden);
  EXPECT_EQ(report::message(res.before[0]),
            "arch sm_90 from the config is overridden by --arch sm_120");
  // The same arch is no override; --arch never asks a GPU.
  EXPECT_TRUE(r.resolve(config(120), true).before.empty());
  EXPECT_EQ(none.queries, 0);
}

TEST(Target, DeviceNUsesThatGpu) {
  FakeDevices both({kH200, kRtx5090});
  TargetResolver r({Mode::device, {}, 1}, both);
  ASSERT_TRUE(r.common());
  EXPECT_EQ(r.common()->device_name, "NVIDIA GeForce RTX 5090");
  const Resolution res = r.resolve(config(0), /*arch_given=*/false);
  EXPECT_EQ(res.kind, Resolution::Kind::analyse);
  EXPECT_EQ(res.config.arch, 120);
  EXPECT_EQ(res.target.source, Target::Source::device);
  EXPECT_EQ(res.target.device, 1);
  ASSERT_EQ(res.after.size(), 1u);
  EXPECT_EQ(report::message(res.after[0]), "limits from device 1 (NVIDIA GeForce RTX 5090)");
}

TEST(Target, DeviceNWithAnotherArchIsAMismatch) {
  FakeDevices both({kH200, kRtx5090});
  TargetResolver r({Mode::device, {}, 0}, both);
  const Resolution res = r.resolve(config(120), /*arch_given=*/true);
  ASSERT_EQ(res.kind, Resolution::Kind::mismatch);
  ASSERT_TRUE(res.why);
  EXPECT_EQ(res.why->code, model::Code::arch_mismatch);
  EXPECT_EQ(res.why->severity, model::Severity::error);
  EXPECT_EQ(report::message(*res.why),
            "config arch sm_120 differs from device 0 (NVIDIA H200, sm_90): its kernel cannot run "
            "there; drop \"arch\" or use --arch to ask what-if");
}

TEST(Target, DeviceNThatCannotBeAskedFailsEveryConfig) {
  FakeDevices one({kH200});
  TargetResolver r({Mode::device, {}, 3}, one);
  EXPECT_FALSE(r.common());
  ASSERT_TRUE(r.device_failure());
  const Resolution res = r.resolve(config(90), true);
  EXPECT_EQ(res.kind, Resolution::Kind::device_error);
  EXPECT_NE(res.message.find("out of range"), std::string::npos);
}

TEST(Target, PerConfigArchUsesAPresentGpuOfThatArch) {
  FakeDevices both({kH200, kRtx5090});
  TargetResolver r({}, both);
  const Resolution res = r.resolve(config(120), true);
  EXPECT_EQ(res.kind, Resolution::Kind::analyse);
  EXPECT_EQ(res.target.source, Target::Source::device);
  EXPECT_EQ(res.target.device, 1);
  // An arch no GPU here has: the built-in table, no note.
  const Resolution b200 = r.resolve(config(100), true);
  EXPECT_EQ(b200.target.source, Target::Source::builtin);
  EXPECT_EQ(b200.target.limits.optin_per_block, 232448);
  EXPECT_TRUE(b200.after.empty());
  EXPECT_EQ(both.queries, 1) << "the GPUs are asked once";
}

TEST(Target, PerConfigWithoutArchUsesGpu0) {
  FakeDevices h200({kH200});
  TargetResolver r({}, h200);
  const Resolution res = r.resolve(config(0), false);
  EXPECT_EQ(res.kind, Resolution::Kind::analyse);
  EXPECT_EQ(res.config.arch, 90);
  EXPECT_EQ(res.target.device_name, "NVIDIA H200");
}

TEST(Target, NoGpu) {
  FakeDevices none(kNoDriver);
  TargetResolver r({}, none);
  // With an arch: the built-in table.
  const Resolution with_arch = r.resolve(config(120), true);
  EXPECT_EQ(with_arch.kind, Resolution::Kind::analyse);
  EXPECT_EQ(with_arch.target.source, Target::Source::builtin);
  // Without one: a device error that names the cause and --arch.
  const Resolution without = r.resolve(config(0), false);
  EXPECT_EQ(without.kind, Resolution::Kind::device_error);
  EXPECT_NE(without.message.find("no usable NVIDIA driver (fake)"), std::string::npos);
  EXPECT_NE(without.message.find("--arch"), std::string::npos);
}

TEST(Target, BuiltinNeverAsksAndNeedsAnArch) {
  FakeDevices both({kH200, kRtx5090});
  TargetRequest builtin;
  builtin.mode = Mode::builtin;
  TargetResolver r(builtin, both);
  EXPECT_EQ(r.resolve(config(120), true).target.source, Target::Source::builtin);
  const Resolution missing = r.resolve(config(0), false);
  EXPECT_EQ(missing.kind, Resolution::Kind::input_error);
  EXPECT_EQ(missing.field, "arch");
  EXPECT_EQ(both.queries, 0);
}

/// The whole check path with a fake GPU: entries, problems and the diagnostics' order.
TEST(Target, CheckFilesOnAFakeRtx5090) {
  FakeDevices rtx({fake(0, "NVIDIA GeForce RTX 5090", 120)});
  const analysis::CheckRun run =
      analysis::check_files({test::source_path("configs/sm120_moe_finalize.json"),
                             test::source_path("configs/sm90_hopper.json")},
                            {Mode::device, {}, 0}, rtx);
  EXPECT_TRUE(run.problems.empty());
  ASSERT_TRUE(run.common_target);
  int mismatches = 0, over = 0;
  for (const analysis::Entry& e : run.entries) {
    EXPECT_EQ(e.target.device_name, "NVIDIA GeForce RTX 5090");
    const auto& d = e.result.diagnostics;
    ASSERT_FALSE(d.empty());
    if (e.result.status == model::Status::Invalid) {
      ++mismatches;
      EXPECT_EQ(d.front().code, model::Code::arch_mismatch);
    } else {
      EXPECT_EQ(d.back().code, model::Code::limits_from_device);
    }
    if (e.result.status == model::Status::DoesNotFit) ++over;
  }
  EXPECT_EQ(mismatches, 6);  // every sm_90 config
  EXPECT_EQ(over, 2);        // the story's two FINALIZE tiles
}

TEST(Target, CheckFilesWithoutAGpuReportsDeviceProblems) {
  FakeDevices none(kNoDriver);
  const analysis::CheckRun run = analysis::check_files(
      {test::source_path("configs/sm90_hopper.json")}, {Mode::device, {}, 0}, none);
  EXPECT_TRUE(run.entries.empty());
  ASSERT_EQ(run.problems.size(), 1u);
  EXPECT_EQ(run.problems[0].kind, analysis::Problem::Kind::device);
  EXPECT_EQ(analysis::problem_text(run.problems[0]), "no usable NVIDIA driver (fake)");
}

}  // namespace
}  // namespace tilefit
