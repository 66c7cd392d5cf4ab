// The AMD targets' front-door rules (issue 20): what the async-copy switch is on a config.
#pragma once

#include "tilefit/model/arch.hpp"
#include "tilefit/model/config.hpp"

namespace tilefit::model {

/// Triton 3.6's TRITON_HIP_USE_ASYNC_COPY when nothing sets it: off on gfx942 and gfx950
/// (knobs.amd.use_async_copy reads the variable, unset = false; compiler.py make_ttgir passes it
/// to add_stream_pipeline). Measured with the 3.6.0 wheel (docs/users-2026-12.md §3.4 as kept
/// in /work/shared/docs): gfx950 128x128x64 at num_stages 2 uses 32768 B without the variable,
/// the (num_stages - 1) buffers of the default pipeliner. Later Triton (PR #9087) turns it on by
/// default for gfx950; tilefit models 3.6.
inline constexpr bool kTriton36HipAsyncCopyDefault = false;

/// The async-copy value `cfg` is analysed with on an AMD target: its `hip_async_copy` (the
/// config field, or --hip-async-copy, which the target resolver puts there), else Triton 3.6's
/// default. Meaningless on an NVIDIA target (false).
inline bool hip_async_copy_in_effect(const KernelConfig& cfg) {
  return is_amd(cfg.arch) && cfg.hip_async_copy.value_or(kTriton36HipAsyncCopyDefault);
}

}  // namespace tilefit::model
