// tilefit: does this GEMM tile configuration fit in shared memory, with how many stages,
// and where do the bytes go? Everything happens in cli::run (run.cpp); here only the real Env:
// the process's streams, this machine's GPUs and the CUDA probe.
#include <cstdio>
#include <string>
#include <vector>

#include "cli/cli_context.hpp"

int main(int argc, char** argv) {
  using namespace tilefit;
  cli::Output out(stdout);
  cli::ErrorOutput err(stderr);
  const std::vector<std::string> args(argv + (argc > 0 ? 1 : 0), argv + argc);
  return cli::run(args, cli::Env{stdin, out, err, device::system_devices(), device::system_probe(),
                                 argc > 0 ? argv[0] : "tilefit"});
}
