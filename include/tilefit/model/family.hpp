// A kernel family: CUTLASS's builder rules and SharedStorage layout for one kind of kernel.
//
// Adding a family = one .cpp file under src/model/families/ implementing KernelFamily, plus
// one line in src/model/family_registry.cpp. Nothing in the CLI changes.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tilefit/model/arch.hpp"
#include "tilefit/model/config.hpp"
#include "tilefit/model/layout.hpp"

namespace tilefit::model {

/// How a kernel whose SharedStorage exceeds the limit fails.
enum class Overflow {
  RuntimeInitialize,    ///< compiles; cudaFuncSetAttribute fails in initialize() -> kErrorInternal
  CompileStaticAssert,  ///< device-side static_assert "SMEM usage exceeded capacity" (SM100)
  RuntimeRun2x,         ///< CUTLASS 2.x device::Gemm: cudaFuncSetAttribute fails in run()
};

/// What CUTLASS's collective builder decides for a config, before any struct is laid out.
struct BuildPlan {
  /// Reasons CUTLASS rejects the config for something other than capacity (static_asserts,
  /// builder restrictions). Non-empty makes the result `invalid`.
  std::vector<std::string> invalid;
  /// False when no layout can be computed (e.g. a tile the builder cannot tile at all).
  bool sizes_known = true;
  /// Mainloop stages the kernel is built with: the builder's pick (auto) or the explicit count.
  int stages = 0;
  bool auto_stages = true;
  /// The collective's static_assert(Stages >= min_stages) (2 almost everywhere).
  int min_stages = 2;
  /// The builder's own arithmetic, for notes (0 when the family has no automatic rule).
  Bytes capacity_constant = 0;  ///< CUTLASS's per-arch constant (101376, 232448, ...)
  Bytes builder_capacity = 0;   ///< what the builder divides after its own reserves
  Bytes carveout = 0;           ///< epilogue carve-out as the builder uses it
  Bytes stage_bytes = 0;        ///< the builder's per-stage estimate
  Overflow overflow = Overflow::RuntimeInitialize;
  /// How the stage count is spelled in CUTLASS for this family: "StageCount<{}>" (3.x
  /// collective builders) or "kStages = {}" (2.x templates); {} is replaced by the count.
  std::string stage_spelling = "StageCount<{}>";
  /// CUTLASS schedule / kernel the config maps to, e.g.
  /// "KernelPtrArrayTmaWarpSpecializedCooperativeBlockScaledSm120".
  std::string kernel;
  /// What the builder's budget leaves out compared with the real struct (for the note
  /// explaining a builder/struct disagreement), e.g. "4 mainloop tensormaps where it reserves 2".
  std::string unbudgeted;
  /// Family-specific facts worth telling the user.
  std::vector<std::string> notes;
};

/// The kernel's shared memory at one stage count.
struct Storage {
  Field kernel;               ///< sizeof(GemmKernel::SharedStorage), with its breakdown
  Bytes epilogue_shared = 0;  ///< sizeof(CollectiveEpilogue::SharedStorage) (info)
  Bytes mainloop_shared = 0;  ///< sizeof(CollectiveMainloop::SharedStorage) (info)
};

class KernelFamily {
 public:
  virtual ~KernelFamily() = default;
  /// "sm120_blockscaled", "sm90_tma_ws", ...
  virtual std::string_view name() const = 0;
  /// One line for `tilefit families` and notes.
  virtual std::string_view description() const = 0;
  /// True when kernels of this family run on compute capability `sm`.
  virtual bool runs_on(int sm) const = 0;
  /// For inference: the reason this family is the one CUTLASS would build for `cfg` on
  /// `sm`, or nullopt when it is not.
  virtual std::optional<std::string> claims(const KernelConfig& cfg, int sm) const = 0;
  /// The builder's decisions.
  virtual BuildPlan plan(const KernelConfig& cfg) const = 0;
  /// The kernel SharedStorage at `stages` (>= 1). Only called when plan.sizes_known.
  virtual Storage storage(const KernelConfig& cfg, const BuildPlan& plan, int stages) const = 0;
};

/// Every family, in inference order.
std::span<const KernelFamily* const> families();

/// The family called `name`, or nullptr.
const KernelFamily* find_family(std::string_view name);

/// Names of all families, comma separated, for error messages.
std::string family_choices();

}  // namespace tilefit::model
