// The device layer on any machine: with or without CUDA, a driver or a GPU. Tests that need
// a GPU are in gpu/ (label `gpu`); these pass everywhere, by checking whichever answer the
// machine gives; the CLI's device paths run in-process on fake GPUs.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "report/device_report.hpp"
#include "test_support.hpp"
#include "tilefit/device/device_query.hpp"
#include "tilefit/device/probe.hpp"
#include "tilefit/model/arch.hpp"

namespace tilefit {
namespace {

using device::DeviceError;
using device::DeviceInfo;

int count_lines(const std::string& s) {
  return static_cast<int>(std::count(s.begin(), s.end(), '\n'));
}

/// What every DeviceError must look like: one line, naming the CUDA error or the build.
void expect_clear(const DeviceError& e) {
  EXPECT_FALSE(e.message.empty());
  EXPECT_EQ(e.message.find('\n'), std::string::npos) << e.message;
  if (device::built_with_cuda()) {
    if (!e.cuda_error.empty()) {
      EXPECT_EQ(e.cuda_error.rfind("cudaError", 0), 0u) << e.cuda_error;
      EXPECT_NE(e.message.find(e.cuda_error), std::string::npos) << e.message;
    }
  } else {
    EXPECT_NE(e.message.find("built without CUDA"), std::string::npos) << e.message;
  }
}

/// A one-line device error on stderr, nothing on stdout, exit 3.
void expect_device_failure(const test::CliRun& r) {
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_EQ(count_lines(r.err), 1) << r.err;
  const bool names_cause = r.err.find("cudaError") != std::string::npos ||
                           r.err.find("built without CUDA") != std::string::npos ||
                           r.err.find("without a CUDA compiler") != std::string::npos ||
                           r.err.find("out of range") != std::string::npos;
  EXPECT_TRUE(names_cause) << r.err;
}

DeviceInfo fake_device(int sm) {
  DeviceInfo d;
  d.name = "Fake GPU";
  d.cc_major = sm / 10;
  d.cc_minor = sm % 10;
  d.sm_count = 132;
  if (const model::ArchInfo* a = model::find_arch(sm)) d.limits = a->limits;
  d.limits.sm = sm;
  d.driver_version = 13000;
  d.runtime_version = 13000;
  return d;
}

TEST(DeviceQuery, QueryAllGivesDevicesOrOneClearError) {
  const device::DeviceList all = device::query_all();
  if (all) {
    ASSERT_FALSE(all->empty());
    for (const DeviceInfo& d : *all) {
      EXPECT_GT(d.limits.optin_per_block, 0);
      EXPECT_EQ(d.limits.sm, d.cc_major * 10 + d.cc_minor);
    }
    return;
  }
  expect_clear(all.error());
  if (device::built_with_cuda()) {
    EXPECT_FALSE(all.error().cuda_error.empty());
  }
}

TEST(DeviceQuery, QueryOneOutOfRangeIsAnError) {
  const device::DeviceResult r = device::query_one(4096);
  ASSERT_FALSE(r.ok());
  expect_clear(r.error());
  const device::Expected<int> n = device::device_count();
  if (n) {
    EXPECT_NE(r.error().message.find("out of range"), std::string::npos) << r.error().message;
    EXPECT_NE(r.error().message.find("4096"), std::string::npos) << r.error().message;
  }
  EXPECT_FALSE(device::query_one(-1).ok());
}

TEST(DeviceQuery, CountAgreesWithQueryAll) {
  const auto n = device::device_count();
  const auto all = device::query_all();
  ASSERT_EQ(n.ok(), all.ok());
  if (n) {
    EXPECT_EQ(static_cast<std::size_t>(*n), all->size());
  } else {
    EXPECT_EQ(n.error().cuda_error, all.error().cuda_error);
  }
}

TEST(DeviceQuery, TableDifferences) {
  const DeviceInfo h200 = fake_device(90);
  EXPECT_TRUE(device::table_differences(h200).empty());

  DeviceInfo rtx = fake_device(120);
  rtx.limits.max_ctas_per_sm = 32;  // peers.md §3 conflict 1: the device decides
  const auto diff = device::table_differences(rtx);
  ASSERT_EQ(diff.size(), 1u);
  EXPECT_EQ(diff[0], "max_ctas_per_sm: device 32, table 24 (sm_120)");

  DeviceInfo odd = fake_device(99);
  ASSERT_EQ(device::table_differences(odd).size(), 1u);
  EXPECT_NE(device::table_differences(odd)[0].find("no row for sm_99"), std::string::npos);
}

TEST(DeviceQuery, VersionStrings) {
  EXPECT_EQ(device::cuda_version_string(13000), "13.0");
  EXPECT_EQ(device::cuda_version_string(12080), "12.8");
  EXPECT_EQ(device::cuda_version_string(0), "unknown");
  EXPECT_EQ(device::compute_capability(fake_device(121)), "12.1");
}

TEST(DeviceReport, JsonCarriesEveryField) {
  DeviceInfo d = fake_device(120);
  d.limits.max_ctas_per_sm = 32;
  d.pci_bus_id = "0000:01:00.0";
  const auto j = report::devices_json({d});
  EXPECT_EQ(j["schema_version"], report::kSchemaVersion);
  ASSERT_EQ(j["devices"].size(), 1u);
  const auto& x = j["devices"][0];
  for (const char* k :
       {"index", "name", "compute_capability", "cc_major", "cc_minor", "arch", "sm_count",
        "pci_bus_id", "limits", "driver_version", "runtime_version", "table_differences"})
    EXPECT_TRUE(x.contains(k)) << k;
  for (const char* k :
       {"sm", "optin_per_block_bytes", "per_sm_bytes", "reserved_per_block_bytes",
        "default_per_block_bytes", "max_ctas_per_sm", "regs_per_sm", "threads_per_sm"})
    EXPECT_TRUE(x["limits"].contains(k)) << k;
  EXPECT_EQ(x["compute_capability"], "12.0");
  EXPECT_EQ(x["limits"]["optin_per_block_bytes"], 101376);
  EXPECT_EQ(x["table_differences"].size(), 1u);
}

TEST(DeviceReport, TextShowsValuesAndDifferences) {
  DeviceInfo a = fake_device(90), b = fake_device(120);
  b.index = 1;
  b.limits.max_ctas_per_sm = 32;
  const std::string t = report::devices_text({a, b});
  EXPECT_NE(t.find("232448 B"), std::string::npos) << t;
  EXPECT_NE(t.find("101376 B"), std::string::npos) << t;
  EXPECT_NE(t.find("matches sm_90"), std::string::npos) << t;
  EXPECT_NE(t.find("max_ctas_per_sm: device 32, table 24"), std::string::npos) << t;
}

TEST(DeviceReport, ProbeDisagreementsAreLoud) {
  report::ProbeReport rep;
  rep.device = fake_device(90);
  report::ProbeRow row;
  row.file = "x.json";
  row.name = "t";
  row.arch = 90;
  row.smem = 232449;
  row.model_fits = false;
  row.launch = device::ProbeOutcome{232449, true, "", ""};
  row.occupancy = 1;
  row.disagreements.push_back("the model says it does not fit but the driver launched it");
  rep.rows.push_back(row);
  rep.boundary =
      device::Boundary{232448, 232449, "cudaErrorInvalidValue", "cudaFuncSetAttribute", 20};
  const std::string t = report::probe_text(rep);
  EXPECT_NE(t.find("\nDISAGREE x.json#0 't': the model says"), std::string::npos) << t;
  EXPECT_NE(t.find("232448 B launches, 232449 B is refused"), std::string::npos) << t;
  const auto j = report::probe_json(rep);
  EXPECT_EQ(j["summary"]["disagreements"], 1);
  EXPECT_EQ(j["results"][0]["agree"], false);
  EXPECT_EQ(j["boundary"]["agrees"], true);
}

// --- the CLI's faults: exit 3, one clear line (in-process, fake GPUs: tests/device_cli_test.cpp has
// every path) ---------------------------------------------------------------------------------

TEST(DeviceCli, NoGpu) {
  expect_device_failure(test::run_command("device"));
  const test::FakeDevices no_driver = test::FakeDevices::driver_error();
  expect_device_failure(test::run_command("device", test::on(no_driver)));
}

TEST(DeviceCli, JsonErrorIsStillOneLineOnStderr) {
  const test::CliRun r = test::run_command("device --format json");
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(count_lines(r.err), 1) << r.err;
  const auto j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << r.out;
  EXPECT_TRUE(j["devices"].empty());
  EXPECT_FALSE(j["error"]["message"].get<std::string>().empty());
}

TEST(DeviceCli, IndexOutOfRange) {
  const test::FakeDevices one({test::fake_h200()});
  expect_device_failure(test::run_command("device --device 4096", test::on(one)));
}

TEST(DeviceCli, BadIndexIsUsageError) {
  const test::CliRun r = test::run_command("device --device first");
  EXPECT_EQ(r.exit_code, 2) << r.err;
}

// End to end, the real binary on this machine's real devices (the CUDA Runtime, or the build
// without CUDA): the one place the system device source is run through the CLI.
TEST(DeviceCli, RealBinaryOnThisMachine) {
  const test::CliRun r = test::run_binary("device");
  if (device::query_all().ok()) {
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("smem opt-in per block"), std::string::npos) << r.out;
  } else {
    expect_device_failure(r);
  }
  const test::CliRun probe = test::run_binary("probe", "CUDA_VISIBLE_DEVICES= ");
  expect_device_failure(probe);
}

TEST(ProbeCli, FailsCleanlyWithoutAGpu) { expect_device_failure(test::run_command("probe")); }

TEST(ProbeCli, IndexOutOfRange) {
  const test::FakeDevices one({test::fake_h200()});
  expect_device_failure(test::run_command("probe --device 4096", test::on(one)));
}

TEST(ProbeApi, UnavailableSaysHowToEnable) {
  if (device::probe_available()) {
    EXPECT_TRUE(device::probe_unavailable_reason().empty());
    // Without a GPU every probe is a clear DeviceError, never a crash.
    if (!device::device_count().ok()) {
      const auto r = device::probe_launch(0, 1024);
      ASSERT_FALSE(r.ok());
      expect_clear(r.error());
      EXPECT_FALSE(device::probe_boundary(0).ok());
      EXPECT_FALSE(device::probe_occupancy(0, 0).ok());
    }
  } else {
    EXPECT_NE(device::probe_unavailable_reason().find("cmake"), std::string::npos);
    EXPECT_FALSE(device::probe_launch(0, 1024).ok());
  }
}

}  // namespace
}  // namespace tilefit
