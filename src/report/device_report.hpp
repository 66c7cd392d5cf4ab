// Reports of the device layer: `tilefit device` (what the GPUs say) and `tilefit probe`
// (the model's verdicts next to the driver's). Text for terminals, JSON for scripts.
//
// `tilefit device` sample (devices_text):
//   GPU                      0
//   name                     NVIDIA H200
//   compute capability       9.0 (sm_90)
//   smem opt-in per block    232448 B
//   ...
//   built-in table           matches sm_90
//
// `tilefit probe` sample (probe_text):
//   GPU 0: NVIDIA H200 (sm_90, 132 SMs), driver 13.0, runtime 13.0
//   limits from the device: 232448 B opt-in per block, 233472 B per SM, ...
//   config  where  arch  model status  smem B  model verdict  driver verdict  CTAs/SM model  ...
//   boundary: 232448 B launches, 232449 B is refused (...); device opt-in limit 232448 B: agrees
//   summary: 1 config probed, 0 not probed, 0 input errors, 0 disagreements
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "tilefit/device/device_query.hpp"
#include "tilefit/device/probe.hpp"
#include "tilefit/model/arch.hpp"
#include "tilefit/model/result.hpp"
#include "tilefit/report/json.hpp"

namespace tilefit::report {

/// One device: index, name, compute_capability, arch, sm_count, pci_bus_id, limits,
/// driver/runtime versions and table_differences.
nlohmann::ordered_json device_json(const device::DeviceInfo& dev);

/// {"cuda_error": ..., "message": ...}
nlohmann::ordered_json device_error_json(const device::DeviceError& err);

/// `tilefit device --format json`: {"schema_version", "devices": [...]}.
nlohmann::ordered_json devices_json(const std::vector<device::DeviceInfo>& devs);

/// `tilefit device`: one column per GPU, one row per field, then the table differences.
std::string devices_text(const std::vector<device::DeviceInfo>& devs);

// --- probe -------------------------------------------------------------------------------

/// One config, probed.
struct ProbeRow {
  std::string file;
  int index = 0;  ///< position of the config in its file
  std::string name;
  int arch = 0;                      ///< the config's arch, or the device's when it had none
  bool arch_from_device = false;     ///< the config gave no arch
  bool what_if = false;              ///< the config is for another arch than the device's: its
                                     ///< smem_bytes are probed on this device as a what-if
  model::Result result;              ///< model::evaluate against the device's limits
  std::optional<model::Bytes> smem;  ///< the size probed (result.smem_bytes)
  bool model_fits = false;           ///< smem <= device opt-in limit
  std::optional<device::ProbeOutcome> launch;  ///< the driver's verdict
  int model_ctas = 0;                          ///< model::ctas_per_sm(smem, device limits)
  std::optional<int> occupancy;                ///< cudaOccupancyMaxActiveBlocksPerMultiprocessor
  std::vector<std::string> disagreements;      ///< empty when model and driver agree
  std::string skipped;                         ///< why it was not probed (no smem_bytes)
  std::vector<std::string> notes;              ///< anything else worth a line
};

struct ProbeReport {
  device::DeviceInfo device;
  std::optional<device::Boundary> boundary;
  std::vector<std::string> boundary_disagreements;
  std::vector<ProbeRow> rows;
  std::vector<std::string> input_errors;  ///< one line each, from the config reader

  int disagreements() const;
  int probed() const;
};

/// Text: a header with the device, one line per config, every disagreement on a line of its
/// own starting "DISAGREE", the boundary and a summary.
std::string probe_text(const ProbeReport& rep);

/// {"schema_version", "device", "boundary", "results", "errors", "summary"}: the boundary and
/// each result written from their column sets (probe_boundary_columns, probe_columns).
nlohmann::ordered_json probe_json(const ProbeReport& rep);

/// One probed config as the probe's columns see it: the row and the device's opt-in limit.
struct ProbeLine {
  const ProbeRow& row;
  model::Bytes limit_bytes;
};
template <class Row>
struct Column;
/// The columns of a probe result (report/columns.hpp), and of its boundary: for tests.
std::span<const Column<ProbeLine>> probe_columns();
std::span<const Column<ProbeReport>> probe_boundary_columns();

}  // namespace tilefit::report
