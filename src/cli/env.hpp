// Everything a run of the CLI reads, writes or asks: standard input, the checked standard output,
// standard error (its terminal decision and clock), the GPUs and the probe. main.cpp builds the
// real one (the process's streams, this machine's GPUs, the CUDA probe); tests build one with a
// fake GPU (an H200, an RTX 5090, none, a driver error) and run every command in-process.
#pragma once

#include <cstdio>
#include <string>

#include "cli/output.hpp"
#include "tilefit/device/device_source.hpp"
#include "tilefit/device/probe_source.hpp"

namespace tilefit::cli {

struct Env {
  /// Standard input: what a file argument "-" reads. The io layer reads "-" from file
  /// descriptor 0, so cli::run() puts this stream there for the run when it is another one
  /// (and puts the old one back).
  std::FILE* in;
  Output& out;       ///< standard output, checked
  ErrorOutput& err;  ///< standard error: error lines and the progress line
  const device::DeviceSource&
      devices;                       ///< check/sweep/suggest --device, config without arch, device
  const device::ProbeSource& probe;  ///< probe
  /// The program's name as it was started (argv[0]): the "Usage:" line of --help shows it.
  std::string program = "tilefit";
};

}  // namespace tilefit::cli
