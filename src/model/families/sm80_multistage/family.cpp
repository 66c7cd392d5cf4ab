// Family `sm80_multistage`: CUTLASS 2.x `cutlass::gemm::device::Gemm` with
// OpClassTensorOp / arch::Sm80 (cp.async multistage mainloop, DefaultEpilogueTensorOp), the
// kernel that sm80, sm86, sm87 and sm89 GPUs run. docs/dev/cutlass-smem-model.md §6.2.
//
// Paths are relative to CUTLASS 4.7.0's include/cutlass/ (commit 7107b05, the version the
// ground truth was measured with).
//
// Kernel storage (gemm/kernel/gemm.h:139-142):
//   union SharedStorage { Mma::SharedStorage main_loop; Epilogue::SharedStorage epilogue; };
// and device::Gemm launches with sizeof(GemmKernel::SharedStorage) as dynamic shared memory
// (gemm/device/gemm.h:482-491: cudaFuncSetAttribute(MaxDynamicSharedMemorySize) when >= 48 KiB,
// kErrorInternal when that fails).
//
// Mainloop (gemm/threadblock/mma_base.h:140-165; MmaMultistage and MmaPipelined add nothing):
//   AlignedBuffer<ElementA, (M + padA.row) * (K*S + padA.col)> operand_A;
//   AlignedBuffer<ElementB, (K*S + padB.row) * (N + padB.col)> operand_B;
// TensorOp cores pad nothing (MmaPolicy<..., MatrixShape<0,0>, MatrixShape<0,0>, ...>:
// gemm/threadblock/default_mma_core_sm80.h:1354-1355, 1492-1493, 1633-1634, 1773-1774, and the
// two-stage cores of default_mma_core_sm75.h). AlignedBuffer<T,N> is
// alignas(16) uint8_t[ceil(N*bits(T)/8)] (cutlass/aligned_buffer.h:62-69), so
//   mainloop = ru(ceil(M*K*S*bits(A)/8), 16) + ru(ceil(N*K*S*bits(B)/8), 16).
//
// Epilogue (epilogue/threadblock/epilogue_base.h:137-168, default_epilogue_tensor_op.h:600-606):
//   WarpCount = (M/Wm, N/Wn, kPartitionsK = K/Wk)                  (gemm/kernel/default_gemm.h:370)
//   Shape     = (WarpCount.m * 8 * kPartitionsK, WarpCount.n * Wn) (8 = TensorOpPolicy::
//               kRowsPerIteration, epilogue/warp/tensor_op_policy.h:78; the warp tile iterator's
//               Shape is (8, Wn), epilogue/warp/tile_iterator_tensor_op.h:86-89 and
//               tile_iterator_tensor_op_mixed.h:87-90)
//   Padding   = (0, 64 / bits(Acc) * 4)                              (default_epilogue_tensor_op.h:604)
//   FPI       = kPartitionsK == 1 ? DefaultIteratorsTensorOp::kFragmentsPerIteration : 1   (:606)
//   AlignedBuffer<Acc, Shape.row * FPI * (Shape.col + Padding.col)> storage
// The shared-memory element is the accumulator in every DefaultIteratorsTensorOp.
//
// Measured (tests/data/cutlass-4.7.jsonl, tests/data/measured-sm80.jsonl) and reproduced here.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "../../cutlass2x_storage.hpp"
#include "../families.hpp"
#include "tilefit/model/bytes.hpp"
#include "tilefit/model/dtype.hpp"

namespace tilefit::model {
namespace {

struct Shape3 {
  long long m = 0, n = 0, k = 0;
};

/// device::Gemm's default WarpShape: DefaultGemmConfiguration<OpClassTensorOp, Sm80, ...>
/// (gemm/device/default_gemm_configuration.h:468, and the int8 specializations below it).
constexpr Shape3 kDefaultWarp{64, 64, 64};
/// device::Gemm's default Stages: DefaultGemmConfiguration<OpClassTensorOp, Sm80>::kStages
/// (gemm/device/default_gemm_configuration.h:470). CUTLASS 2.x has no automatic stage count.
constexpr int kDefaultStages = 3;

bool is_half_float(DType t) { return t == DType::F16 || t == DType::BF16; }
bool is_f32_class(DType t) { return t == DType::F32 || t == DType::TF32; }
bool is_int8(DType t) { return t == DType::S8 || t == DType::U8; }

/// The Sm80 tensor-op instruction CUTLASS pairs with the operand types (arch/mma_sm80.h):
/// 16x8x16 for f16/bf16 (and the f16/bf16 x s8/u8 mixed-input upcast), 16x8x8 for tf32 (f32
/// operands run as tf32), 16x8x32 for s8/u8.
std::optional<Shape3> instruction_shape(DType a, DType b) {
  if (is_half_float(a) && a == b) return Shape3{16, 8, 16};
  if (is_f32_class(a) && a == b) return Shape3{16, 8, 8};
  if (is_int8(a) && is_int8(b)) return Shape3{16, 8, 32};
  if ((is_half_float(a) && is_int8(b)) || (is_int8(a) && is_half_float(b)))
    return Shape3{16, 8, 16};
  return std::nullopt;
}

/// The accumulator types the Sm80 tensor-op instructions produce for the operand types.
bool accumulator_ok(DType a, DType b, DType acc) {
  if (is_int8(a) && is_int8(b)) return acc == DType::S32;
  if (a == DType::F16 && b == DType::F16) return acc == DType::F32 || acc == DType::F16;
  return acc == DType::F32;
}

bool output_ok(DType d) {
  switch (d) {
    case DType::F16:
    case DType::BF16:
    case DType::F32:
    case DType::S32:
    case DType::S8:
    case DType::U8:
    case DType::E4M3:
    case DType::E5M2:
      return true;
    default:
      return false;
  }
}

/// One mainloop operand as the underlying (row-major-output) kernel sees it.
struct KernelOperand {
  DType elem = DType::F16;
  bool k_major = true;
  long long extent = 0;  ///< rows of A (tile M) or columns of B (tile N)
};

/// Everything the layout depends on, derived from the config once.
struct Derived {
  Shape3 tile, warp, instr;
  bool default_warp = false;
  KernelOperand a, b;
  DType acc = DType::F32, d = DType::BF16;
  long long warps_m = 0, warps_n = 0, partitions_k = 0;
  int elements_per_access = 0;  ///< EpilogueOutputOp::kCount = 128 / bits(D)
  int fragments_per_iteration = 1;
  bool f32_fast_f16 = false;  ///< f32 x f32 -> f32: the two-stage core stores half_t
};

/// Bits of an operand element in shared memory at `stages`. With two stages DefaultMma picks
/// its two-stage specializations (gemm/threadblock/default_mma.h:190-258); for f32 x f32 -> f32
/// that is DefaultMma<float, ..., float, ..., 2> (default_mma.h:260-320), whose core runs
/// OpMultiplyAddFastF16 and keeps A and B as half_t in shared memory
/// (gemm/threadblock/default_mma_core_sm75.h:643-1158). Measured: f32 128x128x32 S=2 -> 32768 B.
int smem_bits(const Derived& x, DType elem, int stages) {
  if (stages == 2 && x.f32_fast_f16) return 16;
  return bits(elem);
}

/// Mma::SharedStorage at `stages` (cutlass2x_storage.hpp):
///   ru(ceil(M*K*S*bits(A)/8), 16) + ru(ceil(K*S*N*bits(B)/8), 16), alignment 16.
template <class F>
F mainloop_field(const Derived& x, int stages) {
  const Bytes s = stages;
  const Bytes a_bits = x.tile.m * x.tile.k * s * smem_bits(x, x.a.elem, stages);
  const Bytes b_bits = x.tile.n * x.tile.k * s * smem_bits(x, x.b.elem, stages);
  return mma_base_storage<F>(bits_to_bytes(a_bits), bits_to_bytes(b_bits));
}

/// Epilogue::SharedStorage (cutlass2x_storage.hpp):
///   rows = WarpCount.m * 8 * kPartitionsK * FPI
///   cols = WarpCount.n * Wn + 64 / bits(Acc) * 4
template <class F>
F epilogue_field(const Derived& x) {
  const int acc_bits = bits(x.acc);
  const Bytes rows = x.warps_m * 8 * x.partitions_k * x.fragments_per_iteration;
  const Bytes cols = x.warps_n * x.warp.n + (64 / acc_bits) * 4;
  return epilogue_base_storage<F>(acc_bits, rows, cols);
}

// ---------------------------------------------------------------------------------------
// Compile-time checks of the templates device::Gemm instantiates (each a static_assert).
// ---------------------------------------------------------------------------------------

/// transform::PitchLinearWarpRakedThreadMap<Shape(contiguous, strided), threads,
/// WarpThreadArrangement(wc, ws), epa> (transform/pitch_linear_thread_map.h:222-300): the
/// cp.async global-load map of one operand. The static_assert that fails, as an identifier
/// ("" when every one holds): "narrower" (the tile is narrower than one 128-bit access per warp
/// thread row), "vector_length" ("Shape must be divisible by vector length."),
/// "warp_arrangement" ("ShapeInAccesses must be divisible by WarpThreadArrangement."),
/// "iterations" ("Number of iterations must be non-zero").
std::string_view warp_raked_thread_map_failure(long long contiguous, long long strided,
                                               long long threads, long long wc, long long ws,
                                               long long epa) {
  if (epa <= 0 || wc <= 0 || ws <= 0) return "narrower";
  if (contiguous % epa != 0) return "vector_length";
  const long long acc_contig = contiguous / epa;
  if (acc_contig % wc != 0 || strided % ws != 0) return "warp_arrangement";
  const long long warp_size = wc * ws;
  const long long warp_count = threads / warp_size;
  const long long wai_c = acc_contig / wc, wai_s = strided / ws;
  if (warp_count <= 0 || wai_s <= 0) return "iterations";
  const long long warps_strided = wai_s >= warp_count ? warp_count : wai_s;
  const long long warps_contig = warp_count > wai_s ? warp_count / warps_strided : 1;
  if (wai_c / warps_contig == 0 || wai_s / warps_strided == 0) return "iterations";
  return "";
}

/// The sm80 DefaultMmaCore of one operand (default_mma_core_sm80.h:1250-1800, 128-bit accesses):
///   K-major (crosswise): Shape(K, extent), wc = K / epa, ws = 32 / wc,
///     smem layout TensorOpMultiplicandCrosswise<bits, K>, which needs
///     kFactor = 8 * epa / K > 0 (layout/tensor_op_multiplicand_sm75.h:88-94);
///   MN-major (congruous): Shape(extent, K), wc = min(extent / epa, 8), ws = 32 / wc.
void check_operand_core(const KernelOperand& op, long long k, long long threads,
                        std::string_view which, Findings& why) {
  const int b = bits(op.elem);
  const long long epa = b > 0 ? 128 / b : 0;
  std::string_view failure;
  if (op.k_major) {
    if (epa > 0 && 8 * epa / k == 0) {
      why.reject([&] {
        return diag(Code::sm80_crosswise_k)
            .name("operand", which)
            .integer("tile_k", k)
            .integer("max_k", 8 * epa)
            .dtype("dtype", op.elem);
      });
      return;
    }
    const long long wc = epa > 0 ? k / epa : 0;
    failure = warp_raked_thread_map_failure(k, op.extent, threads, wc, wc > 0 ? 32 / wc : 0, epa);
  } else {
    const long long wc = epa > 0 ? std::min<long long>(op.extent / epa, 8) : 0;
    failure = warp_raked_thread_map_failure(op.extent, k, threads, wc, wc > 0 ? 32 / wc : 0, epa);
  }
  if (!failure.empty())
    why.reject([&] {
      return diag(Code::sm80_operand_thread_map)
          .name("operand", which)
          .integer("threads", threads)
          .name("failure", failure);
    });
}

/// epilogue::threadblock::OutputTileOptimalThreadMap as DefaultThreadMapTensorOp builds it
/// (epilogue/threadblock/default_thread_map_tensor_op.h:95-101): Shape = OutputTileShape<N, 8,
/// WarpCount.m, 1, 1>, all warps as threads. With cluster 1 and group = WarpCount.m the rows are
/// shared by W = WarpCount.n * kPartitionsK warps (output_tile_thread_map.h:286-365), then
/// RowArrangement (L180-265) lays the 8 rows out:
///   W < 8 (2-D): shapeRow = 8 / W, shapeWidth = N / epa, width = 256 B / access bytes,
///     targetRows = 32 / width; accessWidth = targetRows > shapeRow ? 32 / shapeRow
///     : min(shapeWidth, 32, width); accessRows = targetRows > shapeRow ? shapeRow
///     : min(8, 32 / accessWidth); needs shapeRow / accessRows > 0,
///     shapeWidth / accessWidth > 0 and accessWidth * epa <= N (L260-262);
///   W >= 8 (1-D): N / epa / 32 column iterations > 0 (predicated_tile_iterator.h:100-103).
void check_epilogue_thread_map(const Derived& x, Findings& why) {
  const long long n = x.tile.n;
  const long long epa = x.elements_per_access;
  const long long w = x.warps_n * x.partitions_k;
  const long long access_bytes = epa * bits(x.d) / 8;
  if (epa <= 0 || access_bytes <= 0) return;
  auto fail = [&](std::string_view failure) {
    why.reject([&] {
      return diag(Code::sm80_epilogue_thread_map)
          .name("failure", failure)
          .integer("warps", w)
          .integer("tile_n", n);
    });
  };
  if (w >= 8) {
    if (n / epa / 32 == 0) fail("column_iterations");
    return;
  }
  const long long shape_row = 8 / w;
  const long long shape_width = n / epa;
  const long long width = 256 / access_bytes;
  const long long target_rows = width > 0 ? 32 / width : 0;
  long long access_width, access_rows;
  if (target_rows > shape_row) {
    access_width = 32 / shape_row;
    access_rows = shape_row;
  } else {
    access_width = std::min(shape_width, std::min<long long>(32, width));
    access_rows = access_width > 0 ? std::min<long long>(8, 32 / access_width) : 0;
  }
  if (access_width <= 0 || shape_width / access_width == 0)
    fail("iteration_count_column");
  else if (access_width * epa > n)
    fail("too_many_elements");
  else if (access_rows <= 0 || shape_row / access_rows == 0)
    fail("iteration_count_row");
}

/// Derives the numbers the layout depends on (no strings: storage() calls this for every stage
/// count the max-stages search tries). False when no layout can be computed.
bool derive(const KernelConfig& cfg, Derived& x) {
  x.tile = {cfg.m, cfg.n, cfg.k};
  x.default_warp = !cfg.warp.has_value();
  x.warp = cfg.warp ? Shape3{(*cfg.warp)[0], (*cfg.warp)[1], (*cfg.warp)[2]} : kDefaultWarp;
  x.acc = cfg.acc;
  x.d = cfg.d;
  if (x.tile.m <= 0 || x.tile.n <= 0 || x.tile.k <= 0 || x.warp.m <= 0 || x.warp.n <= 0 ||
      x.warp.k <= 0)
    return false;
  if (x.tile.m % x.warp.m != 0 || x.tile.n % x.warp.n != 0 || x.tile.k % x.warp.k != 0)
    return false;
  x.warps_m = x.tile.m / x.warp.m;
  x.warps_n = x.tile.n / x.warp.n;
  x.partitions_k = x.tile.k / x.warp.k;  // kPartitionsK (gemm/kernel/default_gemm.h:370)
  if (cfg.a.block_scaled() || cfg.b.block_scaled()) return false;
  const auto instr = instruction_shape(cfg.a.elem, cfg.b.elem);
  if (!instr || !output_ok(cfg.d) || (bits(cfg.acc) != 16 && bits(cfg.acc) != 32)) return false;
  x.instr = *instr;
  // Operands as the row-major-output kernel sees them: a column-major C/D runs the transposed
  // problem (gemm/device/gemm.h:606-630: A' = B^T, B' = A^T, same tile shape).
  if (cfg.cd_row_major) {
    x.a = {cfg.a.elem, cfg.a_k_major, x.tile.m};
    x.b = {cfg.b.elem, cfg.b_k_major, x.tile.n};
  } else {
    x.a = {cfg.b.elem, cfg.b_k_major, x.tile.m};
    x.b = {cfg.a.elem, cfg.a_k_major, x.tile.n};
  }
  x.f32_fast_f16 = cfg.a.elem == DType::F32 && cfg.b.elem == DType::F32 && cfg.acc == DType::F32;
  // EpilogueOutputOp::kCount = 128 / bits(D) (LinearCombination as
  // DefaultGemmConfiguration builds it, gemm/device/default_gemm_configuration.h:472-474).
  x.elements_per_access = 128 / bits(cfg.d);
  x.fragments_per_iteration =
      x.partitions_k == 1 ? default_fragments_per_iteration(cfg.d, cfg.acc, x.elements_per_access)
                          : 1;
  return true;
}

/// Reasons CUTLASS rejects the config (static_asserts of the templates device::Gemm
/// instantiates, and what the 2.x device::Gemm cannot express).
void check(const KernelConfig& cfg, const Derived& x, bool sizes_known, int stages, Findings& why) {
  // Family-level restrictions.
  if (cfg.a.block_scaled() || cfg.b.block_scaled())
    why.reject(
        [&] { return diag(Code::sm80_block_scaled).operand("a", cfg.a).operand("b", cfg.b); });
  else if (!instruction_shape(cfg.a.elem, cfg.b.elem))
    why.reject([&] {
      return diag(Code::sm80_operand_types).dtype("a", cfg.a.elem).dtype("b", cfg.b.elem);
    });
  else if (!accumulator_ok(cfg.a.elem, cfg.b.elem, cfg.acc))
    why.reject([&] {
      const bool int8 = is_int8(cfg.a.elem) && is_int8(cfg.b.elem);
      const bool f16 = cfg.a.elem == DType::F16 && cfg.b.elem == DType::F16;
      return diag(Code::sm80_accumulator)
          .dtype("acc", cfg.acc)
          .dtype("a", cfg.a.elem)
          .dtype("b", cfg.b.elem)
          .name("allowed", int8  ? "s32"
                           : f16 ? "f32 or f16"
                                 : "f32");
    });
  if (!output_ok(cfg.d)) why.reject([&] { return diag(Code::sm80_output_type).dtype("d", cfg.d); });
  if (cfg.c != DType::Void && cfg.c != cfg.d)
    why.reject(
        [&] { return diag(Code::sm80_c_differs_from_d).dtype("c", cfg.c).dtype("d", cfg.d); });
  if (cfg.cluster != std::array<int, 3>{1, 1, 1})
    why.reject([] { return diag(Code::sm80_cluster); });
  if (cfg.grouped) why.reject([] { return diag(Code::sm80_grouped); });
  if (cfg.schedule != Schedule::Auto && cfg.schedule != Schedule::Multistage)
    why.reject([&] { return diag(Code::sm80_schedule).schedule("schedule", cfg.schedule); });
  if (cfg.epilogue.variant != EpilogueVariant::Auto || cfg.epilogue.tile || cfg.epilogue.stages_c ||
      cfg.epilogue.stages_d)
    why.reject([] { return diag(Code::sm80_epilogue); });
  if (cfg.mma != Mma::Auto) why.reject([&] { return diag(Code::sm80_mma).mma("mma", cfg.mma); });
  if (cfg.swap_ab) why.reject([] { return diag(Code::sm80_swap_ab); });
  if (stages == 1) why.reject([] { return diag(Code::sm80_one_stage); });

  // Shapes.
  if (x.tile.m <= 0 || x.tile.n <= 0 || x.tile.k <= 0 || x.warp.m <= 0 || x.warp.n <= 0 ||
      x.warp.k <= 0) {
    why.reject([] { return diag(Code::sm80_extents_positive); });
    return;
  }
  if (x.tile.m % x.warp.m != 0 || x.tile.n % x.warp.n != 0 || x.tile.k % x.warp.k != 0) {
    why.reject([&] {
      return diag(Code::sm80_tile_not_divisible_by_warp)
          .integer("tile_m", x.tile.m)
          .integer("tile_n", x.tile.n)
          .integer("tile_k", x.tile.k)
          .integer("warp_m", x.warp.m)
          .integer("warp_n", x.warp.n)
          .integer("warp_k", x.warp.k)
          .flag("in_k_only", x.tile.m % x.warp.m == 0 && x.tile.n % x.warp.n == 0)
          .flag("default_warp", x.default_warp);
    });
    return;
  }
  if (!sizes_known) return;

  // Warp-level MMA: kWarpGemmIterations = Wk / instruction K must be > 1 and even
  // (gemm/threadblock/mma_base.h:116-133); the warp tile is tiled by the instruction.
  const long long warp_k_iters = x.warp.k / x.instr.k;
  if (x.warp.k % x.instr.k != 0 || warp_k_iters < 2 || warp_k_iters % 2 != 0)
    why.reject([&] {
      return diag(Code::sm80_warp_k_iterations)
          .integer("warp_k", x.warp.k)
          .integer("iterations", warp_k_iters)
          .integer("instr_k", x.instr.k);
    });
  if (x.warp.m % x.instr.m != 0 || x.warp.n % x.instr.n != 0)
    why.reject([&] {
      return diag(Code::sm80_warp_tile_instruction)
          .integer("warp_m", x.warp.m)
          .integer("warp_n", x.warp.n)
          .integer("warp_k", x.warp.k)
          .integer("instr_m", x.instr.m)
          .integer("instr_n", x.instr.n)
          .integer("instr_k", x.instr.k);
    });
  const long long threads = 32 * x.warps_m * x.warps_n * x.partitions_k;
  if (threads > 1024) {
    why.reject([&] { return diag(Code::sm80_too_many_threads).integer("threads", threads); });
    return;
  }
  // Thread maps of the sm80 (Stages >= 3) cores; the two-stage cores of
  // default_mma_core_sm75.h use other maps, not modelled.
  if (stages >= 3) {
    check_operand_core(x.a, x.tile.k, threads, "A", why);
    check_operand_core(x.b, x.tile.k, threads, "B", why);
  }
  check_epilogue_thread_map(x, why);
}

/// The CUTLASS 2.x kernel storage at `stages`:
///   union SharedStorage { Mma::SharedStorage main_loop; Epilogue::SharedStorage epilogue; }
template <class F>
BasicStorage<F> union_storage(const Derived& x, int stages) {
  const F mainloop = mainloop_field<F>(x, stages);
  const F epilogue = epilogue_field<F>(x);
  BasicStorage<F> st;
  st.kernel = make_union({mainloop, epilogue});
  st.mainloop_shared = mainloop.size;
  st.epilogue_shared = epilogue.size;
  return st;
}

class Sm80Multistage final : public LaidOutFamily<Sm80Multistage, Derived> {
 public:
  std::string_view name() const override { return "sm80_multistage"; }

  std::string_view description() const override {
    return "CUTLASS 2.x device::Gemm, cp.async multistage mainloop (sm80/86/87/89): mainloop "
           "stages and the epilogue share one union";
  }

  /// cp.async and the Sm80 mma.sync instructions exist from compute capability 8.0 on.
  // Every NVIDIA architecture from sm_80 on; never the AMD ids (942, 950: arch.hpp is_amd).
  bool runs_on(int sm) const override { return sm >= 80 && !is_amd(sm); }

  bool claims(const KernelConfig& cfg, int sm) const override {
    if (cfg.launcher != Launcher::None) return false;  // the engine families model those
    return sm == 80 || sm == 86 || sm == 87 || sm == 89 || cfg.warp ||
           cfg.schedule == Schedule::Multistage;
  }
  Diagnostic claim_reason(const KernelConfig& cfg, int sm) const override {
    if (sm == 80 || sm == 86 || sm == 87 || sm == 89)
      return diag(Code::claim_sm80_no_3x_builder).arch("arch", sm);
    if (cfg.warp) return diag(Code::claim_sm80_warp_tile);
    return diag(Code::claim_sm80_multistage_schedule);
  }

  Plan decide(const KernelConfig& cfg, bool explain) const override {
    Plan p;
    Findings why(explain);
    p.auto_stages = !cfg.stages.has_value();
    p.stages = cfg.stages.value_or(kDefaultStages);
    // Stages = 2 selects DefaultMma's two-stage specialization (MmaPipelined, which asserts
    // kStages == 2: gemm/threadblock/mma_pipelined.h:137); Stages >= 3 MmaMultistage.
    p.min_stages = 2;
    p.overflow = Overflow::RuntimeRun2x;  // no builder rule in 2.x: rule.capacity_constant = 0
    p.stage_param = StageParam::CutlassKStages;

    Derived x;
    p.sizes_known = derive(cfg, x);
    check(cfg, x, p.sizes_known, p.stages, why);

    const bool pipelined = p.stages == 2;
    if (explain)
      p.kernel.add(KernelText::sm80_gemm)
          .name("mainloop", pipelined ? "MmaPipelined" : "MmaMultistage")
          .integer("tile_m", x.tile.m)
          .integer("tile_n", x.tile.n)
          .integer("tile_k", x.tile.k)
          .integer("warp_m", x.warp.m)
          .integer("warp_n", x.warp.n)
          .integer("warp_k", x.warp.k)
          .integer("stages", p.stages);
    if (p.auto_stages) why.note([] { return diag(Code::sm80_default_stages); });
    if (x.default_warp) why.note([] { return diag(Code::sm80_default_warp); });
    if (pipelined) why.note([] { return diag(Code::sm80_two_stage_pipelined); });
    if (p.sizes_known && !cfg.cd_row_major)
      why.note([] { return diag(Code::sm80_column_major_output); });
    if (pipelined && p.sizes_known && x.f32_fast_f16)
      why.note([] { return diag(Code::sm80_f32_two_stage_half); });
    if (explain && p.sizes_known && p.stages >= 1) {
      const Sizes st = union_storage<Extent>(x, p.stages);
      note_union_epilogue_larger(why, st);
    }
    finish(p, x, std::move(why));
    return p;
  }

  template <class F>
  static BasicStorage<F> assemble(const KernelConfig&, const Derived& x, int stages) {
    return union_storage<F>(x, stages);
  }
};

}  // namespace

const KernelFamily& sm80_multistage_family() { return the_family<Sm80Multistage>(); }

}  // namespace tilefit::model
