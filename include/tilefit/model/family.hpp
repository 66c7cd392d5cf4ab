// A kernel family: what CUTLASS (or Triton) decides for one kind of kernel, and how that
// kernel lays out its shared memory.
//
// Each family has two halves:
//  * decide(): which kernel, which stage rule and stage count, what is invalid and why — run
//    once per config; its findings are typed diagnostics, built only when asked to explain;
//  * layout(): the SharedStorage arithmetic at one stage count — run for every stage count the
//    max_stages search tries, from the decisions alone (it decides nothing again).
//
// Adding a family = its folder src/model/families/<family>/ (family.cpp implementing it, its
// codes and messages in diagnostics.def) plus its row in src/model/family_registry.cpp: the
// list of every file it touches is in tilefit/model/family_table.hpp. The CLI does not change.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <cstring>
#include <new>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "tilefit/model/arch.hpp"
#include "tilefit/model/config.hpp"
#include "tilefit/model/diagnostic.hpp"
#include "tilefit/model/kernel_text.hpp"
#include "tilefit/model/launch_summary.hpp"
#include "tilefit/model/layout.hpp"

namespace tilefit::model {

/// How a kernel whose shared memory exceeds the limit fails.
enum class Overflow {
  RuntimeInitialize,     ///< compiles; cudaFuncSetAttribute fails in initialize() -> kErrorInternal
  CompileStaticAssert,   ///< device-side static_assert "SMEM usage exceeded capacity" (SM100)
  RuntimeRun2x,          ///< CUTLASS 2.x device::Gemm: cudaFuncSetAttribute fails in run()
  TritonOutOfResources,  ///< Triton raises OutOfResources when the kernel is loaded
};

/// CUTLASS's automatic stage count, StageCountAutoCarveout<carveout>, as the collective
/// builders compute it (sm90_gmma_builder.inl:69-85, sm100_umma_builder.inl:84-99,
/// sm100_blockscaled_umma_builder.inl:69-88, sm120 builders through the sm100 ones):
///   S = (builder_capacity − carveout) / stage_bytes      (C++ integer division)
/// A family with no automatic rule leaves capacity_constant at 0.
struct StageRule {
  Bytes capacity_constant = 0;  ///< CUTLASS's per-arch constant (101376, 232448, ...)
  Bytes builder_capacity = 0;   ///< what the builder divides, after its own reserves
  Bytes carveout = 0;           ///< the epilogue carve-out as the builder uses it
  Bytes stage_bytes = 0;        ///< the builder's per-stage estimate

  /// max(0, (builder_capacity − carveout) / stage_bytes); 0 when stage_bytes <= 0. CUTLASS's
  /// quotient can be negative; every family reports it as 0 (the static_assert fails either way).
  int automatic() const;
};

/// The decisions a family's layout() needs, kept by value inside the Plan (no allocation):
/// any trivially copyable struct of at most kBytes bytes.
class LayoutState {
 public:
  static constexpr std::size_t kBytes = 512;

  template <class T>
  void store(const T& value) {
    static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= kBytes && alignof(T) <= 16,
                  "a family's layout state must be a small trivially copyable struct");
    ::new (static_cast<void*>(buffer_)) T(value);
  }
  template <class T>
  const T& get() const {
    return *std::launder(reinterpret_cast<const T*>(buffer_));
  }

 private:
  alignas(16) std::byte buffer_[kBytes] = {};
};

/// What a family decides for a config, before any struct is laid out.
struct Plan {
  /// CUTLASS rejects the config for something other than capacity (a static_assert, a builder
  /// restriction); `reasons` says why when the plan was explained.
  bool invalid = false;
  /// True when a rejection means no SharedStorage type exists (Findings::reject, as opposed to
  /// Findings::reject_kernel): evaluate() then reports no size, whatever sizes_known says.
  bool no_storage = false;
  /// False when no layout can be computed (e.g. a tile the builder cannot tile at all).
  bool sizes_known = true;
  /// Mainloop stages the kernel is built with: the builder's pick (auto) or the explicit count.
  int stages = 0;
  bool auto_stages = true;
  /// The collective's static_assert(Stages >= min_stages) (2 almost everywhere).
  int min_stages = 2;
  StageRule rule;
  Overflow overflow = Overflow::RuntimeInitialize;
  StageParam stage_param = StageParam::CutlassStageCount;
  /// The CUTLASS kernel the config maps to (schedule, instruction, epilogue), as typed parts the
  /// report writes ("KernelTmaWarpSpecializedCooperative; NoSmemWarpSpecialized epilogue ...") —
  /// built only when explaining.
  KernelDescription kernel;
  /// Identifier of what the builder's budget leaves out compared with the real struct
  /// ("sm120_blockscaled_grouped"); the report layer phrases it (builder_budget_gap).
  std::string_view unbudgeted;
  /// The epilogue tile the builder decided, when the epilogue stages tiles in shared memory
  /// (what `suggest` shrinks).
  std::optional<std::array<long long, 2>> epilogue_tile;
  /// Error diagnostics (why it is invalid) and info/warning diagnostics, when explained.
  std::vector<Diagnostic> reasons;
  std::vector<Diagnostic> notes;
  /// The family's decided layout parameters, for layout().
  LayoutState state;
  /// Families whose config runs several kernel launches (triton_attention): each launch, in
  /// launch order; layout() is the worst of them. Empty for one-kernel families.
  std::vector<LaunchSummary> launches;
  /// The engine refuses the configuration before any kernel runs (a warning says why); the
  /// status stays the kernels' shared-memory verdict.
  bool engine_refuses = false;
  /// False when `stages` does not change layout(): evaluate() then searches no stage count.
  bool stages_matter = true;

  /// Stages from an explicit count, or from `rule` (auto).
  void choose_stages(const std::optional<int>& explicit_stages);
  /// Moves the findings of decide() into the plan.
  void take(Findings&& f);
};

/// The kernel's shared memory at one stage count, as a Field (with the breakdown) or as an
/// Extent (size and alignment only).
template <class F>
struct BasicStorage {
  F kernel;                   ///< sizeof(GemmKernel::SharedStorage)
  Bytes epilogue_shared = 0;  ///< sizeof(CollectiveEpilogue::SharedStorage) (info)
  Bytes mainloop_shared = 0;  ///< sizeof(CollectiveMainloop::SharedStorage) (info)
};
using Storage = BasicStorage<Field>;
using Sizes = BasicStorage<Extent>;

class KernelFamily {
 public:
  virtual ~KernelFamily() = default;
  /// "sm120_blockscaled", "sm90_tma_ws", ...
  virtual std::string_view name() const = 0;
  /// One line for `tilefit families`.
  virtual std::string_view description() const = 0;
  /// True when kernels of this family run on compute capability `sm`.
  virtual bool runs_on(int sm) const = 0;
  /// For inference: true when this family is the one CUTLASS would build for `cfg` on `sm`.
  virtual bool claims(const KernelConfig& cfg, int sm) const = 0;
  /// Why claims() is true (an info diagnostic); only called when it is.
  virtual Diagnostic claim_reason(const KernelConfig& cfg, int sm) const = 0;
  /// The builder's decisions. With `explain` false (the fast path) no diagnostic and no kernel
  /// name is built; every number is the same.
  virtual Plan decide(const KernelConfig& cfg, bool explain) const = 0;
  /// The kernel SharedStorage at `stages` (>= 1), from the plan alone, with its breakdown.
  /// Only called when plan.sizes_known.
  virtual Storage layout(const KernelConfig& cfg, const Plan& plan, int stages) const = 0;
  /// The same sizes without the breakdown: what the max_stages search and sweeps call. A family
  /// writes its layout once, as a template over Field/Extent, and both overrides call it.
  virtual Sizes sizes(const KernelConfig& cfg, const Plan& plan, int stages) const = 0;
};

/// The usual way to write a family: decide() stores a `State` in the plan, and one static
/// template `Derived::assemble<F>(cfg, state, stages)` lays the kernel out for F = Field and
/// F = Extent; this base turns it into layout() and sizes().
template <class Derived, class State>
class LaidOutFamily : public KernelFamily {
 public:
  Storage layout(const KernelConfig& cfg, const Plan& plan, int stages) const final {
    return Derived::template assemble<Field>(cfg, plan.state.get<State>(), stages);
  }
  Sizes sizes(const KernelConfig& cfg, const Plan& plan, int stages) const final {
    return Derived::template assemble<Extent>(cfg, plan.state.get<State>(), stages);
  }
};

/// Every family, in inference order (the families of family_table()).
std::span<const KernelFamily* const> families();

/// The family called `name`, or nullptr.
const KernelFamily* find_family(std::string_view name);

/// Names of all families, comma separated, for error messages.
std::string family_choices();

}  // namespace tilefit::model
