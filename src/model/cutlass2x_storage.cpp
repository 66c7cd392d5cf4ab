#include "cutlass2x_storage.hpp"

namespace tilefit::model {

int default_fragments_per_iteration(DType d, DType acc, int epa) {
  if (d == DType::F32 && acc == DType::F32 && epa == 4) return 2;
  if (d == DType::F16 && acc == DType::F32 && epa == 8) return 2;
  if (d == DType::BF16 && acc == DType::S32 && epa == 8) return 2;
  if (d == DType::F16 && acc == DType::S32 && epa == 8) return 2;
  return 1;
}

}  // namespace tilefit::model
