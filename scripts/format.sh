#!/usr/bin/env bash
# Format tilefit's C and C++ sources with the repository's .clang-format (docs/dev/house-rules.md).
# Usage: scripts/format.sh            format every tracked source in place
#        scripts/format.sh --check [clang-format]   list the files that are not formatted; exit 1 if any
# The .def tables and third-party files are not formatted.
set -euo pipefail
cd "$(dirname "$0")/.."
check=0
if [ "${1:-}" = "--check" ]; then check=1; shift; fi
cf=${1:-clang-format}
mapfile -t files < <(git ls-files 'src/*.cpp' 'src/*.hpp' 'src/*.cu' 'include/*.hpp' 'include/*.h' \
  'tests/*.cpp' 'tests/*.hpp' 'tests/*.c' 'bench/*.cpp' 'fuzz/*.cpp' 2>/dev/null || true)
if [ ${#files[@]} -eq 0 ]; then
  # Not a git checkout (a source archive): every source under the folders.
  mapfile -t files < <(find src include tests bench fuzz -type f \( -name '*.cpp' -o -name '*.hpp' \
    -o -name '*.cu' -o -name '*.h' -o -name '*.c' \) | sort)
fi
if [ "$check" = 0 ]; then
  "$cf" -i "${files[@]}"
  exit 0
fi
# One clang-format process; it names each file and line that differs.
if out=$("$cf" --dry-run -Werror "${files[@]}" 2>&1); then exit 0; fi
echo "$out" | grep -o '^[^:]*:[0-9]*:[0-9]*: error' | cut -d: -f1 | sort -u | sed 's/^/not formatted: /; s/$/ (scripts\/format.sh formats it)/'
exit 1
