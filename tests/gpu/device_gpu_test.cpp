// On a real GPU: the device's limits, the probe's launch boundary and the occupancy API
// against the model. Every test skips where there is no GPU (or no probe kernel).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "test_support.hpp"
#include "tilefit/device/device_query.hpp"
#include "tilefit/device/probe.hpp"
#include "tilefit/model/arch.hpp"

namespace tilefit {
namespace {

using device::DeviceInfo;

/// GPU 0, or skip the test.
#define REQUIRE_GPU(dev)                                               \
  const device::DeviceResult dev##_r = device::query_one(0);           \
  if (!dev##_r) GTEST_SKIP() << "no GPU: " << dev##_r.error().message; \
  const DeviceInfo& dev = *dev##_r

#define REQUIRE_PROBE() \
  if (!device::probe_available()) GTEST_SKIP() << device::probe_unavailable_reason()

TEST(GpuDevice, EveryDeviceAnswersEveryAttribute) {
  const device::DeviceList all = device::query_all();
  if (!all) GTEST_SKIP() << "no GPU: " << all.error().message;
  for (const DeviceInfo& d : *all) {
    SCOPED_TRACE(d.name);
    EXPECT_FALSE(d.name.empty());
    EXPECT_GE(d.cc_major, 7);
    EXPECT_GT(d.sm_count, 0);
    EXPECT_GE(d.limits.optin_per_block, d.limits.default_per_block);
    EXPECT_GT(d.limits.per_sm, d.limits.optin_per_block);
    EXPECT_GT(d.limits.max_ctas_per_sm, 0);
    EXPECT_GT(d.limits.regs_per_sm, 0);
    EXPECT_GT(d.limits.threads_per_sm, 0);
    EXPECT_GE(d.driver_version, d.runtime_version)
        << "the static runtime needs a driver at least as new";
  }
}

TEST(GpuDevice, HopperFacts) {
  const device::DeviceList all = device::query_all();
  if (!all) GTEST_SKIP() << "no GPU: " << all.error().message;
  int seen = 0;
  for (const DeviceInfo& d : *all) {
    if (d.cc_major != 9 || d.cc_minor != 0) continue;
    ++seen;
    SCOPED_TRACE(d.name);
    EXPECT_EQ(d.limits.optin_per_block, 232448);
    EXPECT_EQ(d.limits.per_sm, 233472);
    EXPECT_EQ(d.limits.reserved_per_block, 1024);
    EXPECT_EQ(d.limits.default_per_block, 49152);
    EXPECT_TRUE(device::table_differences(d).empty())
        << "the sm_90 table row differs: " << device::table_differences(d).front();
  }
  if (seen == 0) GTEST_SKIP() << "no compute capability 9.0 GPU here";
}

TEST(GpuProbe, LaunchAtTheLimitAndOneByteOver) {
  REQUIRE_GPU(dev);
  REQUIRE_PROBE();
  const model::Bytes optin = dev.limits.optin_per_block;
  auto at = device::probe_launch(0, optin);
  ASSERT_TRUE(at.ok()) << at.error().message;
  EXPECT_TRUE(at->launched) << at->refused_by << ": " << at->error;

  auto over = device::probe_launch(0, optin + 1);
  ASSERT_TRUE(over.ok()) << over.error().message;
  EXPECT_FALSE(over->launched);
  EXPECT_EQ(over->error, "cudaErrorInvalidValue");

  // A refusal leaves the context usable.
  auto after = device::probe_launch(0, 48 * 1024);
  ASSERT_TRUE(after.ok()) << after.error().message;
  EXPECT_TRUE(after->launched);
}

TEST(GpuProbe, BoundaryIsExactlyTheOptInLimit) {
  REQUIRE_GPU(dev);
  REQUIRE_PROBE();
  auto b = device::probe_boundary(0);
  ASSERT_TRUE(b.ok()) << b.error().message;
  EXPECT_EQ(b->largest_launched, dev.limits.optin_per_block);
  EXPECT_EQ(b->first_refused, dev.limits.optin_per_block + 1);
  EXPECT_FALSE(b->refusal_error.empty());
  if (dev.limits.sm == 90) {
    EXPECT_EQ(b->largest_launched, 232448);
    EXPECT_EQ(b->first_refused, 232449);
  }
}

TEST(GpuProbe, OccupancyAgreesWithTheModel) {
  REQUIRE_GPU(dev);
  REQUIRE_PROBE();
  const model::Limits& lim = dev.limits;
  std::vector<model::Bytes> sizes = {0,
                                     1024,
                                     8192,
                                     16 * 1024,
                                     32 * 1024,
                                     48 * 1024,
                                     64 * 1024,
                                     100 * 1024,
                                     lim.per_sm / 2 - lim.reserved_per_block,
                                     lim.per_sm / 2 - lim.reserved_per_block + 1024,
                                     lim.optin_per_block,
                                     lim.optin_per_block + 1};
  for (model::Bytes s : sizes) {
    if (s < 0) continue;
    auto occ = device::probe_occupancy(0, s);
    ASSERT_TRUE(occ.ok()) << occ.error().message;
    EXPECT_EQ(*occ, model::ctas_per_sm(s, lim)) << "at " << s << " B";
  }
}

TEST(GpuProbe, OutOfRangeDeviceIsAnError) {
  REQUIRE_GPU(dev);
  REQUIRE_PROBE();
  (void)dev;
  auto r = device::probe_launch(4096, 1024);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("out of range"), std::string::npos) << r.error().message;
}

TEST(GpuCli, DeviceJson) {
  REQUIRE_GPU(dev);
  const test::CliRun r = test::run_binary("device --format json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_FALSE(j["devices"].empty());
  EXPECT_EQ(j["devices"][0]["limits"]["optin_per_block"], dev.limits.optin_per_block);
}

TEST(GpuCli, ProbeBoundaryOnly) {
  REQUIRE_GPU(dev);
  REQUIRE_PROBE();
  const test::CliRun r = test::run_binary("probe --format json");
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["boundary"]["largest_launched"], dev.limits.optin_per_block);
  EXPECT_EQ(j["boundary"]["agrees"], true);
}

}  // namespace
}  // namespace tilefit
