// The floor bench/time_check.sh compares `tilefit check` with: a C++ process that prints one line.
#include <cstdio>

int main() {
  std::puts("hello");
  return 0;
}
