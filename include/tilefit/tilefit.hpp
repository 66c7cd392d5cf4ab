// tilefit as a library: ask, in-process and before anything is built or launched, whether a GEMM
// tile configuration fits in shared memory, with how many stages, and where the bytes go.
//
//   #include <tilefit/tilefit.hpp>
//
//   const tilefit::Analysis a = tilefit::analyze(R"({"arch": "sm_120", "dtype": "nvfp4",
//       "grouped": true, "epilogue": "finalize", "tile": "CtaShape128x256x64B"})");
//   if (!a.fits) std::fprintf(stderr, "%s\n", a.diagnostics.front().message.c_str());
//   // a.smem_bytes == 102400, a.stages == 3 (the builder's), a.max_stages == 2, a.limit_bytes == 101376
//
// Self-contained C++17 (it includes only standard headers): link tilefit::tilefit (CMake:
// find_package(tilefit CONFIG REQUIRED)), which needs no CUDA. device_limits() is in
// tilefit::device (CUDA when tilefit was built with it). The C ABI is <tilefit/tilefit.h>.
//
// Stability: this header is tilefit's C++ API. Within a major version (semantic versioning, see
// TILEFIT_VERSION_* below) it only grows: no declaration here is removed or changes meaning, new
// members may be added to the structs, and new diagnostic codes may appear. Before 1.0 a minor
// release may change it and says so (0.3.0: the value types below replaced the model's types).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#define TILEFIT_VERSION_MAJOR 0
#define TILEFIT_VERSION_MINOR 3
#define TILEFIT_VERSION_PATCH 0

namespace tilefit {

/// "0.3.0".
std::string_view version();

/// A config that cannot be read, or an arch that is not in the built-in table. what() is the one
/// line `tilefit check` prints for it (naming the field, the value and what is allowed).
class InputError : public std::runtime_error {
 public:
  InputError(const std::string& message, std::string field);
  /// The field at fault ("tile", "epilogue.stages_c", "arch"); empty when it is the config as a whole.
  const std::string& field() const { return field_; }

 private:
  std::string field_;
};

/// No GPU could be asked (no driver, no device, an index out of range, built without CUDA).
class DeviceError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// One diagnostic: a stable snake_case code, "error" / "warning" / "info", and its sentence.
struct Message {
  std::string code;
  std::string severity;
  std::string message;
};

/// Bytes of one component of the kernel's SharedStorage ("A", "B", "epilogue_C_D_shared", ...).
struct Part {
  std::string component;
  std::int64_t bytes = 0;
};

/// What a GPU grants (cudaDeviceGetAttribute's names); builtin_limits() or device_limits().
struct Limits {
  int sm = 0;                           ///< compute capability as major*10+minor (90, 120, ...)
  std::int64_t optin_per_block = 0;     ///< cudaDevAttrMaxSharedMemoryPerBlockOptin
  std::int64_t per_sm = 0;              ///< cudaDevAttrMaxSharedMemoryPerMultiprocessor
  std::int64_t reserved_per_block = 0;  ///< cudaDevAttrReservedSharedMemoryPerBlock
  std::int64_t default_per_block = 0;   ///< cudaDevAttrMaxSharedMemoryPerBlock (no opt-in)
  int max_ctas_per_sm = 0;              ///< cudaDevAttrMaxBlocksPerMultiprocessor
  int regs_per_sm = 0;                  ///< cudaDevAttrMaxRegistersPerMultiprocessor
  int threads_per_sm = 0;               ///< cudaDevAttrMaxThreadsPerMultiProcessor
};

/// One config as the reader read it (opaque: the model's typed config stays inside the library).
/// Copyable; change the stage count or the arch in code, or get it back as config JSON.
class Config {
 public:
  struct Impl;
  explicit Config(std::unique_ptr<Impl> impl);
  Config(const Config& other);
  Config(Config&& other) noexcept;
  Config& operator=(const Config& other);
  Config& operator=(Config&& other) noexcept;
  ~Config();

  std::string name() const;
  /// "sm_120".
  std::string arch() const;
  /// Analyse it for another arch ("sm_90", "9.0", ...); throws InputError when not in the table.
  void set_arch(std::string_view arch);
  /// The stage count as configured; nullopt: automatic (the builder's, or Triton's default).
  std::optional<int> stages() const;
  /// Sets the stage count; throws InputError (field "stages") for a count outside 1..4096, with
  /// the message the reader gives for that value in a config text (model::validate).
  void set_stages(std::optional<int> stages);
  /// The config in the config-file format (every field the reader decided, written out).
  std::string json() const;

  const Impl& impl() const { return *impl_; }

 private:
  std::unique_ptr<Impl> impl_;
};

/// One kernel launch of an operation that runs several (`"kernel": "triton_attention"`): what
/// the engine's launcher passes, and what Triton allocates for it.
struct Launch {
  std::string stage;   ///< "stage1", "stage2", "main", "reduce"
  std::string kernel;  ///< the @triton.jit function ("_fwd_grouped_kernel_stage1")
  /// The constexprs by the kernel signature's names, in its order, as the launcher passes them.
  std::vector<std::pair<std::string, double>> constexprs;
  int num_warps = 0;
  int num_stages = 0;
  std::optional<std::int64_t> smem_bytes;  ///< metadata.shared; nullopt when it does not compile
  bool fits = false;                       ///< smem_bytes <= the limit
  bool invalid = false;                    ///< Triton fails to compile it for the target
  bool stages_matter = true;               ///< num_stages changes its shared memory
};

struct Analysis {
  bool fits = false;
  std::string status;                      ///< "fits", "does_not_fit", "invalid"
  std::string name;                        ///< the config's "name" (empty when none)
  std::string kernel;                      ///< the family modelled ("sm120_blockscaled")
  std::string kernel_description;          ///< the CUTLASS kernel / Triton MMA it maps to
  std::string arch;                        ///< "sm_120"
  std::optional<std::int64_t> smem_bytes;  ///< dynamic shared memory at `stages`
  int stages = 0;                          ///< what the kernel is built with
  bool auto_stages = true;                 ///< `stages` is the builder's automatic count
  int max_stages = 0;                      ///< the largest stage count that fits (0: none)
  std::optional<std::int64_t> max_stages_smem_bytes;
  std::int64_t limit_bytes = 0;                ///< opt-in shared memory per block
  std::optional<std::int64_t> headroom_bytes;  ///< limit - smem (negative when over)
  int ctas_per_sm = 0;
  std::optional<std::int64_t> epilogue_smem_bytes;  ///< sizeof(CollectiveEpilogue::SharedStorage)
  std::optional<std::int64_t> mainloop_smem_bytes;  ///< sizeof(CollectiveMainloop::SharedStorage)
  std::vector<Part> breakdown;                      ///< non-zero parts; they sum to smem_bytes
  std::vector<Message> diagnostics;                 ///< why, what fits instead, what to know
  /// triton_attention: every launch of the op (the verdict is the worst); empty otherwise.
  std::vector<Launch> launches;
  /// triton_attention: the engine refuses the configuration before any kernel runs (vLLM: FP8
  /// KV cache below sm_89, ...), whatever `status` says of shared memory.
  bool engine_refuses = false;
};

/// One config as JSON text — an object in the config-file format (README "Config format"),
/// TensorRT-LLM tile names and CUTLASS kernel names (as a JSON string) included — analysed for
/// `arch` ("sm_120", "sm90", "12.0", ...), or for the config's own "arch", with the built-in
/// architecture table. Throws InputError for bad input.
Analysis analyze(std::string_view config_json, std::string_view arch = {});

/// One config as JSON text read (as analyze() reads it), without analysing it: to change a field
/// in code, or to analyse it against a GPU's limits. With `arch`, that arch replaces the config's.
/// Throws InputError.
Config read_config(std::string_view config_json, std::string_view arch = {});

/// The same for a config already read, against any limits (the built-in table's, or a GPU's).
Analysis analyze(const Config& cfg, const Limits& limits);

/// The built-in table's limits for `arch`; throws InputError when it is not in the table.
Limits builtin_limits(std::string_view arch);

/// What GPU `device` reports through the CUDA Runtime (opt-in and per-SM shared memory, reserved
/// bytes, CTAs per SM, ...); throws DeviceError. Defined in tilefit::device.
Limits device_limits(int device);

}  // namespace tilefit
