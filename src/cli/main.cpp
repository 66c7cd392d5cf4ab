// tilefit: does this GEMM tile configuration fit in shared memory, with how many stages,
// and where do the bytes go? Everything happens in cli::run (run.cpp).
#include <cstdio>

#include "cli/cli_context.hpp"

int main(int argc, char** argv) {
  tilefit::cli::Output out(stdout);
  return tilefit::cli::run(argc, argv, out, stderr);
}
