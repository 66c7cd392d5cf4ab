// CUTLASS library kernel names -> tilefit configs (include/tilefit/io/kernel_name.hpp).
//
// Paths are relative to CUTLASS 4.7.0 (commit 7107b05): python/cutlass_library/ for the
// generator (gemm_operation.py, library.py, generator.py), include/cutlass/ for the templates.
//
// ## The grammar
//
// GemmOperation._procedural_name (gemm_operation.py:364-393) writes, for arch >= 90,
//
//   cutlass{p}_sm{ar}_{op}_{ex}{_MxNxK}{_XxYxZ}_{stages}_{layout}_align{al}{sched}{kernel}{epi}
//
// with p = "3x" for the 3.x GemmKinds (gemm_operation.py:71-83), op = OpcodeClassNames,
// ex = extended_name_3x (gemm_operation.py:248-292):
//   {core}_{A}_{B}_{acc}_{C}_{D}                              dense
//   {core}_{sfA}x{A}_{sfB}x{B}_{acc}_{C}_[{sfD}x]{D}          block-scaled (bstensorop)
//   {core}_{m}x{k}{acc}x{A}_{n}x{k}{acc}x{B}_{acc}_{C}_{D}    blockwise-scaled (rejected)
//   ... plus _cvt/_scl/_sclzr[_shfl] for SM90 mixed-input modes (rejected)
// core = core_name (gemm_operation.py:162-200) = [intermediate type]GemmKindNames, the tile is
// the CTA tile (SM100: the MMA tile, get_collective_tile_shape, gemm_operation.py:343-358),
// stages 0 = StageCountAutoCarveout<sizeof(epilogue SharedStorage)> (gemm_operation.py:958-963),
// layout = layout_name_3x (A, B, C letters, gemm_operation.py:314-324), align = max(align A,
// align B), sched = TileSchedulerSuffixes, kernel = kernel_schedule_name_3x, epi =
// epilogue_schedule_name_3x (plus _epiVs{vector}{t|n} for a block-scaled D,
// gemm_operation.py:331-337). For arch < 90 (CUTLASS 2.x) it writes
//
//   cutlass_{op}_{ex}_{M}x{N}_{K}x{stages}_{layout}_align{al}
//
// with ex = extended_name (gemm_operation.py:203-234) = [{C}_]{core}[_{A}][_{B}], core =
// {ShortDataTypeNames[acc]}{instruction MNK}{intermediate}{gemm kind}, the threadblock tile of
// TileDescription.procedural_name (library.py:1485-1496), layout = layout_name (A, B letters).
//
// ## Parts -> config fields
//
// | part                               | field                                                  |
// |------------------------------------|--------------------------------------------------------|
// | sm90 / sm100 / sm120 (3.x)         | arch; kernel = sm90_tma_ws / sm100_umma / sm120_dense,  |
// |                                    | sm120_blockscaled (by opclass)                         |
// | (2.x, no arch in the name)         | arch sm_80, kernel sm80_multistage (instruction's CC)  |
// | gemm / gemm_grouped                | grouped false / true                                   |
// | tf32gemm (f32 operands)            | a, b = f32 (run as tf32)                               |
// | A, B (dense)                       | a, b                                                   |
// | sfAxA, sfBxB (block-scaled)        | a, b = nvfp4 / mxfp4 / mxfp6 / mxfp8, sf_vec           |
// | acc, C, D                          | acc, c (void -> null), d                               |
// | MxNxK / MxN_KxS                    | tile (2.x: stages = S)                                 |
// | XxYxZ                              | cluster (SM100 0x0x1, a run-time cluster: map_sm100)   |
// | stages                             | stages (0 -> "auto")                                   |
// | tnn / nn                           | layout (2.x: + "n", the library's column-major C)      |
// | align                              | checked only (no field)                                |
// | kernel schedule suffix             | schedule, mma, sf_vec                                  |
// | epilogue suffix, _epiVs{V}{t}      | epilogue ("auto", "tma", "nosmem", or blockscale_out   |
// |                                    | with sf_vec / sf; SM100 "" after _1sm is "tma")        |
// | 2.x instruction + tile             | warp (from the generator's warp counts)                |
//
// Substitutions the config format forces (an e5m2 block-scaled operand written as mxfp8, a
// run-time cluster written as a static one) are listed in the config's "comment".
#include "tilefit/io/kernel_name.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <optional>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "io/config_decoder.hpp"
#include "io/json_value.hpp"
#include "tilefit/io/input_limits.hpp"
#include "tilefit/model/arch.hpp"
#include "tilefit/model/config_limits.hpp"
#include "tilefit/model/dtype.hpp"

namespace tilefit::io {
namespace {

using model::DType;
using Json = nlohmann::ordered_json;

// =============================================================================================
// Failing: every error names the part, its offset and what was expected there.
// =============================================================================================

/// Thrown inside this file only; config_from_kernel_name turns it into its error alternative.
struct Failure {
  KernelNameError error;
};

/// One part of the name: its text and where it starts.
struct Part {
  std::string_view text;
  std::size_t offset = 0;
};

[[noreturn]] void fail(const Part& p, std::string message) {
  throw Failure{{p.offset, std::string(p.text), std::move(message)}};
}

/// The part spanning `first` .. `last` (inclusive) of consecutive parts.
Part span(std::string_view name, const Part& first, const Part& last) {
  const std::size_t end = last.offset + last.text.size();
  return {name.substr(first.offset, end - first.offset), first.offset};
}

std::string in_quotes(std::string_view s) {
  std::string out(1, '"');
  out.append(s);
  out.push_back('"');
  return out;
}

// =============================================================================================
// CUTLASS's name tables (library.py), in our own words.
// =============================================================================================

/// How tilefit can use an element type named in DataTypeNames (library.py:134-181).
enum class TypeKind {
  element,       ///< an element type the model knows (model::parse_dtype)
  void_c,        ///< void: no C source
  scale_factor,  ///< ue4m3, ue8m0
  runtime,       ///< f8, f6, f4: type_erased_dynamic_float{8,6,4}_t, format chosen at launch
  complex,       ///< cf16 ... cs64
  f64,           ///< double precision
  other,         ///< b1, u2, u4, u16 ... s64: integer widths the model has no MMA for
};

struct TypeName {
  std::string_view name;
  TypeKind kind;
};

/// DataTypeNames, library.py:134-181 (every entry; the kind says what tilefit can do with it).
constexpr TypeName kDataTypeNames[] = {
    {"void", TypeKind::void_c},
    {"b1", TypeKind::other},
    {"u2", TypeKind::other},
    {"u4", TypeKind::other},
    {"u8", TypeKind::element},
    {"u16", TypeKind::other},
    {"u32", TypeKind::other},
    {"u64", TypeKind::other},
    {"s2", TypeKind::other},
    {"s4", TypeKind::other},
    {"s8", TypeKind::element},
    {"s16", TypeKind::other},
    {"s32", TypeKind::element},
    {"s64", TypeKind::other},
    {"e4m3", TypeKind::element},
    {"e5m2", TypeKind::element},
    {"f8", TypeKind::runtime},
    {"f6", TypeKind::runtime},
    {"f4", TypeKind::runtime},
    {"e2m3", TypeKind::element},
    {"e3m2", TypeKind::element},
    {"e2m1", TypeKind::element},
    {"ue8m0", TypeKind::scale_factor},
    {"ue4m3", TypeKind::scale_factor},
    {"f16", TypeKind::element},
    {"bf16", TypeKind::element},
    {"f32", TypeKind::element},
    {"tf32", TypeKind::element},
    {"f64", TypeKind::f64},
    {"cf16", TypeKind::complex},
    {"cbf16", TypeKind::complex},
    {"cf32", TypeKind::complex},
    {"ctf32", TypeKind::complex},
    {"cf64", TypeKind::complex},
    {"cu2", TypeKind::complex},
    {"cu4", TypeKind::complex},
    {"cu8", TypeKind::complex},
    {"cu16", TypeKind::complex},
    {"cu32", TypeKind::complex},
    {"cu64", TypeKind::complex},
    {"cs2", TypeKind::complex},
    {"cs4", TypeKind::complex},
    {"cs8", TypeKind::complex},
    {"cs16", TypeKind::complex},
    {"cs32", TypeKind::complex},
    {"cs64", TypeKind::complex},
};

const TypeName* find_type(std::string_view s) {
  for (const TypeName& t : kDataTypeNames)
    if (t.name == s) return &t;
  return nullptr;
}

/// ShortDataTypeNames, library.py:119-131: the accumulator letter that starts a 2.x core name
/// (gemm_operation.py:155-159; a leading "g" marks the Gaussian complex product).
struct ShortType {
  std::string_view letter;
  std::string_view type;  ///< the DataTypeNames spelling
};
constexpr ShortType kShortDataTypeNames[] = {
    {"i", "s32"},  {"e4m3", "e4m3"}, {"e5m2", "e5m2"}, {"h", "f16"}, {"s", "f32"}, {"d", "f64"},
    {"c", "cf32"}, {"z", "cf64"},    {"f8", "f8"},     {"f6", "f6"}, {"f4", "f4"},
};

/// OpcodeClassNames, library.py:1146-1153.
enum class OpClass { simt, tensorop, wmma, sparse, block_scaled, block_scaled_sparse };
struct OpClassName {
  std::string_view name;
  OpClass op;
};
constexpr OpClassName kOpcodeClassNames[] = {
    {"simt", OpClass::simt},
    {"tensorop", OpClass::tensorop},
    {"wmma_tensorop", OpClass::wmma},
    {"sptensorop", OpClass::sparse},
    {"bstensorop", OpClass::block_scaled},
    {"bssptensorop", OpClass::block_scaled_sparse},
};

/// TileSchedulerSuffixes, library.py:1071-1075: Default and Persistent write nothing, StreamK
/// writes "_stream_k".
constexpr std::string_view kStreamKSuffix = "_stream_k";

/// What a kernel schedule suffix means to tilefit.
enum class Sched { auto_, cooperative, pingpong, sm1, sm2 };
enum class Instr { none, auto_, f8f6f4, nvf4, mxf4_or_mxf8f6f4 };

/// One KernelScheduleSuffixes entry (library.py:745-868) for one architecture. Several CUTLASS
/// schedules share a suffix (the dense, block-scaled and ptr-array 1SM schedules all write
/// "_1sm"); the opclass and the gemm kind of the name tell them apart.
struct KernelSuffix {
  int arch;                    ///< 90, 100 (SM100/SM103/SM110) or 120 (SM120/SM121)
  std::string_view text;       ///< as written after "align{N}" (and "_stream_k")
  std::string_view schedules;  ///< the KernelScheduleType(s) that write it
  bool modelled;
  Sched sched = Sched::auto_;
  char opclass = 'a';  ///< 'd': tensorop only, 'b': bstensorop only, 'a': either
  Instr instr = Instr::none;
  int sf_vec = 0;  ///< block-scaled vector size the schedule fixes (find_vector_size)
  std::string_view why_not = {};  ///< for entries that are not modelled
};

constexpr KernelSuffix modelled(int arch, std::string_view text, std::string_view schedules,
                                Sched sched, char opclass = 'a', Instr instr = Instr::none,
                                int sf_vec = 0) {
  return {arch, text, schedules, true, sched, opclass, instr, sf_vec};
}
constexpr KernelSuffix not_modelled(int arch, std::string_view text, std::string_view schedules,
                                    std::string_view why) {
  return {arch, text, schedules, false, Sched::auto_, 'a', Instr::none, 0, why};
}

constexpr std::string_view kCpAsync =
    "cp.async (non-TMA) mainloops are not modelled; tilefit models the TMA warp-specialized "
    "kernels";
constexpr std::string_view kBasicWs =
    "the basic (non-persistent) warp-specialized schedule is not modelled; tilefit models the "
    "cooperative and pingpong kernels";
constexpr std::string_view kFastF32 =
    "the fast-FP32 schedule (FP32 emulated with BF16 MMAs) is not modelled";

/// KernelScheduleSuffixes (library.py:745-868), by architecture.
///  * SM90: ScheduleAuto "", the cooperative and pingpong TMA schedules with and without
///    FP8FastAccum (FP8 fast accumulation changes no shared memory: it only skips the promotion
///    of partial sums in registers), the ptr-array variants (same suffixes). The basic
///    KernelTmaWarpSpecialized (non-persistent), KernelTma and the cp.async schedules are other
///    kernels, not modelled.
///  * SM100: "_1sm"/"_2sm" for the dense, the generic block-scaled and the ptr-array schedules;
///    "_q_" Mxf8f6f4; "_o_vs16_" Nvf4; "_o_vs32_" Mxf4, and for ptr-array also Mxf8f6f4
///    (library.py:832-834 give PtrArrayMxf8f6f4 the "_o_vs32" suffix).
///  * SM120: the block-scaled Mxf8f6f4/Nvf4/Mxf4 cooperative/pingpong schedules; grouped names
///    carry the ptr-array cooperative/pingpong schedules (to_grouped_schedule,
///    library.py:1048-1054), which a dense SM120 builder also takes
///    (sm120_mma_builder.inl:72-75).
constexpr KernelSuffix kKernelSuffixes[] = {
    // SM90
    modelled(90, "", "ScheduleAuto", Sched::auto_),
    modelled(90, "_warpspecialized_cooperative", "TmaWarpSpecializedCooperative",
             Sched::cooperative),
    modelled(90, "_warpspecialized_pingpong", "TmaWarpSpecializedPingpong", Sched::pingpong),
    modelled(90, "_warpspecialized_cooperative_fp8_fastaccum",
             "TmaWarpSpecializedCooperativeFP8FastAccum", Sched::cooperative),
    modelled(90, "_warpspecialized_pingpong_fp8_fastaccum",
             "TmaWarpSpecializedPingpongFP8FastAccum", Sched::pingpong),
    not_modelled(90, "_warpspecialized", "TmaWarpSpecialized", kBasicWs),
    not_modelled(90, "_warpspecialized_fp8_fastaccum", "TmaWarpSpecializedFP8FastAccum", kBasicWs),
    not_modelled(90, "_unspecialized", "Tma",
                 "the KernelTma (not warp-specialized) schedule is not modelled"),
    not_modelled(90, "_cpasync", "Multistage", kCpAsync),
    not_modelled(90, "_cpasync_warpspecialized", "CpAsyncWarpSpecialized", kCpAsync),
    not_modelled(90, "_cpasync_warpspecialized_pingpong", "CpAsyncWarpSpecializedPingpong",
                 kCpAsync),
    not_modelled(90, "_cpasync_warpspecialized_cooperative", "CpAsyncWarpSpecializedCooperative",
                 kCpAsync),
    // SM100
    modelled(100, "", "ScheduleAuto", Sched::auto_, 'a', Instr::auto_),
    modelled(100, "_1sm", "TmaWarpSpecialized1SmSm100, BlockScaledTmaWarpSpecialized1SmSm100",
             Sched::sm1, 'a', Instr::auto_),
    modelled(100, "_2sm", "TmaWarpSpecialized2SmSm100, BlockScaledTmaWarpSpecialized2SmSm100",
             Sched::sm2, 'a', Instr::auto_),
    modelled(100, "_q_1sm", "Mxf8f6f4TmaWarpSpecialized1SmSm100", Sched::sm1, 'b', Instr::f8f6f4,
             32),
    modelled(100, "_q_2sm", "Mxf8f6f4TmaWarpSpecialized2SmSm100", Sched::sm2, 'b', Instr::f8f6f4,
             32),
    modelled(100, "_o_vs16_1sm", "Nvf4TmaWarpSpecialized1SmSm100", Sched::sm1, 'b', Instr::nvf4,
             16),
    modelled(100, "_o_vs16_2sm", "Nvf4TmaWarpSpecialized2SmSm100", Sched::sm2, 'b', Instr::nvf4,
             16),
    modelled(100, "_o_vs32_1sm", "Mxf4TmaWarpSpecialized1SmSm100 (ptr-array: Mxf4 or Mxf8f6f4)",
             Sched::sm1, 'b', Instr::mxf4_or_mxf8f6f4, 32),
    modelled(100, "_o_vs32_2sm", "Mxf4TmaWarpSpecialized2SmSm100 (ptr-array: Mxf4 or Mxf8f6f4)",
             Sched::sm2, 'b', Instr::mxf4_or_mxf8f6f4, 32),
    not_modelled(100, "_cpasync_1sm", "WarpSpecialized1SmSm100", kCpAsync),
    not_modelled(100, "_mixed_cpasync_1sm", "MixedTmaCpAsyncWarpSpecialized1SmSm100",
                 "the mixed TMA/cp.async MoE schedule is not modelled"),
    not_modelled(100, "_FastF32_1sm", "TmaWarpSpecialized1SmFastFP32Sm100", kFastF32),
    not_modelled(100, "_FastF32_2sm", "TmaWarpSpecialized2SmFastFP32Sm100", kFastF32),
    // SM120
    modelled(120, "", "ScheduleAuto", Sched::auto_, 'a', Instr::auto_),
    modelled(120, "_warpspecialized_cooperative", "PtrArrayTmaWarpSpecializedCooperative",
             Sched::cooperative, 'a', Instr::auto_),
    modelled(120, "_warpspecialized_pingpong", "PtrArrayTmaWarpSpecializedPingpong",
             Sched::pingpong, 'a', Instr::auto_),
    modelled(120, "_cooperative_q", "Mxf8f6f4TmaWarpSpecializedCooperativeSm120",
             Sched::cooperative, 'b', Instr::f8f6f4, 32),
    modelled(120, "_pingpong_q", "Mxf8f6f4TmaWarpSpecializedPingpongSm120", Sched::pingpong, 'b',
             Instr::f8f6f4, 32),
    modelled(120, "_cooperative_o_vs16", "Nvf4TmaWarpSpecializedCooperativeSm120",
             Sched::cooperative, 'b', Instr::nvf4, 16),
    modelled(120, "_pingpong_o_vs16", "Nvf4TmaWarpSpecializedPingpongSm120", Sched::pingpong, 'b',
             Instr::nvf4, 16),
    modelled(120, "_cooperative_o_vs32", "Mxf4TmaWarpSpecializedCooperativeSm120",
             Sched::cooperative, 'b', Instr::nvf4, 32),
    modelled(120, "_pingpong_o_vs32", "Mxf4TmaWarpSpecializedPingpongSm120", Sched::pingpong, 'b',
             Instr::nvf4, 32),
};

/// The SM103 FP4-ultra schedules (library.py:802-850): "_o_vs{16,32}_ultra_{1,2}sm[_nopf|_tmapf]".
bool is_sm103_ultra(std::string_view s) { return s.find("_ultra_") != std::string_view::npos; }

enum class Epi { auto_, tma, nosmem };

/// EpilogueScheduleSuffixes, library.py:939-971. "" is ScheduleAuto, EpilogueTransposed, and on
/// SM100 also (PtrArray)TmaWarpSpecialized1Sm; "_epi_tma" every other TMA schedule (2SM on
/// SM100); "_epi_nosmem" the no-smem ones.
struct EpilogueSuffix {
  std::string_view text;
  bool modelled;
  Epi epi;
};
constexpr EpilogueSuffix kEpilogueSuffixes[] = {
    {"", true, Epi::auto_},
    {"_epi_tma", true, Epi::tma},
    {"_epi_nosmem", true, Epi::nosmem},
    {"_epi_nosmem_fastf32", false, Epi::nosmem},
};

/// Block-scaled D: epilogue_schedule_name_3x appends "_epiVs{ScaleFactorVectorSize}{layout}"
/// (gemm_operation.py:331-337).
constexpr std::string_view kEpiVsPrefix = "_epiVs";

// =============================================================================================
// Small readers.
// =============================================================================================

bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

/// A decimal integer 0..limit, or nullopt.
std::optional<long long> number(std::string_view s, long long limit) {
  if (!all_digits(s) || s.size() > 9) return std::nullopt;
  long long v = 0;
  std::from_chars(s.data(), s.data() + s.size(), v);
  if (v > limit) return std::nullopt;
  return v;
}

/// "AxBxC" (count = 3) or "AxB" (count = 2) of decimal integers, or nullopt.
std::optional<std::vector<long long>> extents(std::string_view s, std::size_t count) {
  std::vector<long long> out;
  std::size_t start = 0;
  while (true) {
    const std::size_t x = s.find('x', start);
    const std::string_view piece =
        s.substr(start, x == std::string_view::npos ? s.npos : x - start);
    if (!all_digits(piece) || piece.size() > 9) return std::nullopt;
    long long v = 0;
    std::from_chars(piece.data(), piece.data() + piece.size(), v);
    out.push_back(v);
    if (x == std::string_view::npos) break;
    start = x + 1;
  }
  if (out.size() != count) return std::nullopt;
  return out;
}

/// What the parts of a name are: element roles in messages.
enum class Role { a, b, acc, c, d, sfa, sfb, sfd };

std::string_view role_name(Role r) {
  switch (r) {
    case Role::a:
      return "A element type";
    case Role::b:
      return "B element type";
    case Role::acc:
      return "accumulator type";
    case Role::c:
      return "C element type";
    case Role::d:
      return "D element type";
    case Role::sfa:
      return "A scale-factor type";
    case Role::sfb:
      return "B scale-factor type";
    case Role::sfd:
      return "output scale-factor type";
  }
  return "";
}

constexpr std::string_view kModelledElements =
    "e2m1, e2m3, e3m2, e4m3, e5m2, f16, bf16, f32, tf32, s8, u8, s32";

/// Reads a DataTypeNames spelling in the role `r`; fails with what the role takes.
DType read_type(const Part& p, Role r) {
  const std::string role(role_name(r));
  const TypeName* t = find_type(p.text);
  const bool sf_role = r == Role::sfa || r == Role::sfb || r == Role::sfd;
  if (!t) {
    fail(p, "expected the " + role + " (a CUTLASS DataTypeNames spelling, e.g. " +
                (sf_role ? "ue8m0 or ue4m3" : "bf16, f16, f32, e4m3 or s8") + ")");
  }
  switch (t->kind) {
    case TypeKind::runtime:
      fail(p, "the " + role + " " + in_quotes(p.text) +
                  " is a run-time type (type_erased_dynamic_float" + std::string(p.text.substr(1)) +
                  "_t, its format chosen at launch), which is not modelled; tilefit needs a fixed "
                  "type such as " +
                  (p.text == "f8"   ? "e4m3 or e5m2"
                   : p.text == "f6" ? "e3m2 or e2m3"
                                    : "e2m1"));
    case TypeKind::complex:
      fail(p, "complex element types are not modelled");
    case TypeKind::f64:
      fail(p, "double precision (f64) is not modelled");
    case TypeKind::other:
      fail(p, "the " + role + " " + std::string(p.text) + " is not modelled; tilefit models " +
                  std::string(kModelledElements));
    case TypeKind::void_c:
      if (r != Role::c) fail(p, "void is a C type only (no C source); expected the " + role);
      return DType::Void;
    case TypeKind::scale_factor:
      if (!sf_role)
        fail(p, std::string(p.text) + " is a scale-factor type; expected the " + role + " (" +
                    std::string(kModelledElements) + ")");
      return *model::parse_dtype(p.text);
    case TypeKind::element:
      if (sf_role) fail(p, "expected the " + role + " (ue8m0 or ue4m3)");
      return *model::parse_dtype(p.text);
  }
  fail(p, "expected the " + role);
}

/// Splits the name into its '_'-separated parts, with offsets.
std::vector<Part> split(std::string_view name) {
  std::vector<Part> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t u = name.find('_', start);
    const std::size_t end = u == std::string_view::npos ? name.size() : u;
    parts.push_back({name.substr(start, end - start), start});
    if (u == std::string_view::npos) break;
    start = u + 1;
  }
  return parts;
}

/// Reads the parts of a name in order.
class Reader {
 public:
  Reader(std::string_view name, std::vector<Part> parts) : name_(name), parts_(std::move(parts)) {}

  bool done() const { return i_ >= parts_.size(); }
  const Part& peek() const { return done() ? end_ : parts_[i_]; }
  const Part* peek_at(std::size_t ahead) const {
    return i_ + ahead < parts_.size() ? &parts_[i_ + ahead] : nullptr;
  }
  /// The next part; fails with `expected` at the end of the name.
  const Part& next(std::string_view expected) {
    if (done()) fail(end_part(), "the name ends here; expected " + std::string(expected));
    const Part& p = parts_[i_++];
    if (p.text.empty())
      fail({"_", p.offset == 0 ? 0 : p.offset - 1},
           "an empty part (two '_' in a row, or a '_' at either end); expected " +
               std::string(expected));
    return p;
  }
  Part end_part() const { return {"", name_.size()}; }
  std::size_t index() const { return i_; }

 private:
  std::string_view name_;
  std::vector<Part> parts_;
  std::size_t i_ = 0;
  Part end_{"", 0};
};

// =============================================================================================
// The config being built.
// =============================================================================================

/// A block-scaled operand as tilefit writes it: a format name ("nvfp4", "mxfp8", ...); the
/// substitution made, if any, for the comment.
struct OperandFormat {
  std::string format;
  std::string note;
};

/// The tilefit operand format of a block-scaled operand sf x elem (tilefit's formats fix the
/// element: nvfp4 = e2m1+ue4m3, mxfp4 = e2m1+ue8m0, mxfp6 = e3m2+ue8m0, mxfp8 = e4m3+ue8m0,
/// model/dtype.hpp). e2m3 and e5m2 have the width of e3m2 and e4m3, and the block-scaled
/// families size shared memory by width only, so they are written as mxfp6 and mxfp8, and said
/// so in the comment.
OperandFormat block_scaled_format(const Part& p, DType sf, DType elem) {
  if (sf == DType::UE4M3) {
    if (elem == DType::E2M1) return {"nvfp4", ""};
    fail(p, "ue4m3 scale factors with " + std::string(model::dtype_name(elem)) +
                " elements: tilefit's ue4m3 format is nvfp4 (e2m1), and CUTLASS's MXF8F6F4 "
                "instruction takes ue8m0 scale factors only");
  }
  switch (elem) {
    case DType::E2M1:
      return {"mxfp4", ""};
    case DType::E3M2:
      return {"mxfp6", ""};
    case DType::E2M3:
      return {"mxfp6", "ue8m0xe2m3 is written as mxfp6 (e3m2): same 6-bit width"};
    case DType::E4M3:
      return {"mxfp8", ""};
    case DType::E5M2:
      return {"mxfp8", "ue8m0xe5m2 is written as mxfp8 (e4m3): same 8-bit width"};
    default:
      fail(p, "block-scaled " + std::string(model::dtype_name(elem)) +
                  " operands are not modelled; expected e2m1, e2m3, e3m2, e4m3 or e5m2 with a "
                  "ue8m0 or ue4m3 scale factor");
  }
}

class Output {
 public:
  Json j;
  void note(std::string s) {
    if (!s.empty() && std::find(notes_.begin(), notes_.end(), s) == notes_.end())
      notes_.push_back(std::move(s));
  }
  Json finish() {
    if (!notes_.empty()) {
      std::string c;
      for (const std::string& n : notes_) c += (c.empty() ? "" : "; ") + n;
      j["comment"] = "read from a CUTLASS kernel name: " + c;
    }
    return std::move(j);
  }

 private:
  std::vector<std::string> notes_;
};

Json element_json(DType t) {
  if (t == DType::Void) return nullptr;
  return std::string(model::dtype_name(t));
}

// =============================================================================================
// CUTLASS 3.x names (arch >= 90).
// =============================================================================================

/// The parts of a 3.x name, read but not yet mapped.
struct Name3x {
  std::string_view name;
  int arch = 0;         ///< as written (90, 100, 103, 120, ...)
  int family_arch = 0;  ///< 90, 100 or 120: which suffix table and family
  Part arch_part, op_part, core_part, a_part, b_part, d_part, tile_part, cluster_part, stages_part,
      layout_part, align_part, kernel_part, epi_part, epivs_part;
  OpClass op = OpClass::tensorop;
  bool grouped = false;
  bool tf32_math = false;  ///< "tf32gemm": f32 operands, tf32 MMA
  DType a = DType::BF16, b = DType::BF16, sfa = DType::Void, sfb = DType::Void;
  DType acc = DType::F32, c = DType::BF16, d = DType::BF16, sfd = DType::Void;
  std::vector<long long> tile, cluster;
  long long stages = 0;
  std::string layout;
  long long align = 0;
  const KernelSuffix* kernel = nullptr;
  const EpilogueSuffix* epi = nullptr;
  int epi_vs = 0;  ///< _epiVs vector size (0: none)
  char epi_vs_layout = 0;
};

/// "ue8m0xe2m1" -> (ue8m0, e2m1); a part without 'x' is a plain element.
std::pair<Part, Part> split_scaled(const Part& p) {
  const std::size_t x = p.text.find('x');
  return {{p.text.substr(0, x), p.offset}, {p.text.substr(x + 1), p.offset + x + 1}};
}

bool looks_blockwise(std::string_view s) {
  // "128x128f32xe4m3": {m}x{k}{acc}x{A} (gemm_operation.py:274-290).
  const std::size_t x = s.find('x');
  return x != std::string_view::npos && x > 0 && all_digits(s.substr(0, x)) && s.size() > x + 1 &&
         s[x + 1] >= '0' && s[x + 1] <= '9' && s.find_first_of("abcdefghijklmnopqrstuvw") != s.npos;
}

void read_arch3x(Reader& r, Name3x& n) {
  const Part& p = r.next("the architecture (sm90, sm100, sm120, ...)");
  n.arch_part = p;
  const auto v = p.text.size() > 2 && p.text.substr(0, 2) == "sm" ? number(p.text.substr(2), 999)
                                                                  : std::nullopt;
  if (!v) fail(p, "expected the architecture, e.g. sm90, sm100 or sm120");
  n.arch = static_cast<int>(*v);
  switch (n.arch) {
    case 90:
      n.family_arch = 90;
      break;
    case 100:
    case 101:
    case 103:
    case 110:
      n.family_arch = 100;
      break;
    case 120:
    case 121:
      n.family_arch = 120;
      break;
    default:
      fail(p, "no modelled CUTLASS 3.x kernel family for sm_" + std::to_string(n.arch) +
                  "; tilefit models sm90 (sm90_tma_ws), sm100/sm103 (sm100_umma) and sm120/sm121 "
                  "(sm120_dense, sm120_blockscaled)");
  }
  if (!model::find_arch(n.arch))
    fail(p, "sm_" + std::to_string(n.arch) + " is not in tilefit's architecture table");
}

void read_opclass3x(Reader& r, Name3x& n) {
  const Part& p = r.next("the opcode class (tensorop or bstensorop)");
  n.op_part = p;
  const std::string_view op = p.text;
  if (op == "wmma") fail({"wmma_tensorop", p.offset}, "WMMA kernels are not modelled");
  for (const OpClassName& o : kOpcodeClassNames) {
    if (o.name != op) continue;
    n.op = o.op;
    switch (o.op) {
      case OpClass::tensorop:
      case OpClass::block_scaled:
        return;
      case OpClass::simt:
        fail(p, "SIMT (CUDA-core) kernels are not modelled");
      case OpClass::wmma:
        fail(p, "WMMA kernels are not modelled");
      case OpClass::sparse:
      case OpClass::block_scaled_sparse:
        fail(p, "sparse (2:4 structured) GEMMs are not modelled");
    }
  }
  fail(p, "expected the opcode class: tensorop or bstensorop (OpcodeClassNames)");
}

/// core_name for 3.x kinds: [intermediate]GemmKindNames (library.py:1254-1271).
void read_core3x(std::string_view name, Reader& r, Name3x& n) {
  const Part& p = r.next("the GEMM kind (gemm or gemm_grouped)");
  n.core_part = p;
  if (p.text == "moe") {
    const Part* g = r.peek_at(0);
    const Part whole = g ? span(name, p, *g) : p;
    fail(whole, "the MoE grouped GEMM (MoeGroupedUniversal3x) is not modelled");
  }
  std::string_view t = p.text;
  if (t.size() >= 6 && t.substr(t.size() - 6) == "spgemm")
    fail(p, "sparse (2:4 structured) GEMMs are not modelled");
  if (t.size() < 4 || t.substr(t.size() - 4) != "gemm")
    fail(p, "expected the GEMM kind: gemm or gemm_grouped (GemmKindNames)");
  const std::string_view inter = t.substr(0, t.size() - 4);
  if (inter == "tf32") {
    n.tf32_math = true;
  } else if (!inter.empty()) {
    const TypeName* ty = find_type(inter);
    if (ty && ty->kind == TypeKind::complex) fail(p, "complex GEMMs are not modelled");
    fail(p, "the MMA runs in " + std::string(inter) +
                " on operands of another type (a fast-math or emulated mode), which is not "
                "modelled; expected gemm, gemm_grouped or tf32gemm");
  }
  if (r.peek().text == "grouped") {
    n.core_part = span(name, p, r.next("grouped"));
    n.grouped = true;
  } else if (r.peek().text == "planar") {
    fail(span(name, p, r.peek()), "planar-complex GEMMs are not modelled");
  }
}

void read_types3x(std::string_view name, Reader& r, Name3x& n) {
  const bool bs = n.op == OpClass::block_scaled;
  auto operand = [&](Role role, Role sf_role, DType& elem, DType& sf, Part& where) {
    const Part& p = r.next(bs ? "a block-scaled operand such as ue8m0xe2m1" : "an element type");
    where = p;
    if (looks_blockwise(p.text))
      fail(p,
           "blockwise-scaled operands (per-block f32 scale tensors, BlockwiseUniversal3x) are "
           "not modelled");
    if (bs) {
      if (p.text.find('x') == std::string_view::npos)
        fail(p,
             "expected a block-scaled operand {scale factor}x{element}, e.g. ue8m0xe2m1 or "
             "ue4m3xe2m1");
      const auto [sfp, ep] = split_scaled(p);
      sf = read_type(sfp, sf_role);
      elem = read_type(ep, role);
    } else {
      elem = read_type(p, role);
    }
  };
  operand(Role::a, Role::sfa, n.a, n.sfa, n.a_part);
  operand(Role::b, Role::sfb, n.b, n.sfb, n.b_part);
  n.acc = read_type(r.next("the accumulator type"), Role::acc);
  n.c = read_type(r.next("the C element type"), Role::c);
  const Part& dp = r.next("the D element type");
  n.d_part = dp;
  if (bs && dp.text.find('x') != std::string_view::npos) {
    const auto [sfp, ep] = split_scaled(dp);
    n.sfd = read_type(sfp, Role::sfd);
    n.d = read_type(ep, Role::d);
  } else {
    n.d = read_type(dp, Role::d);
  }
  // Mixed-input modes (gemm_operation.py:237-246): _cvt, _scl, _sclzr, then _shfl.
  const std::string_view m = r.peek().text;
  if (m == "cvt" || m == "scl" || m == "sclzr" || m == "shfl") {
    const Part& first = r.next("");
    const Part* last = &first;
    if (r.peek().text == "shfl") last = &r.next("");
    fail(span(name, first, *last),
         "mixed-input GEMMs (narrow operand converted in the mainloop) are not modelled");
  }
}

void read_shape3x(Reader& r, Name3x& n) {
  const Part& t = r.next("the tile MxNxK");
  n.tile_part = t;
  const auto tile = extents(t.text, 3);
  if (!tile) fail(t, "expected the tile MxNxK, e.g. 128x256x64");
  for (long long v : *tile)
    if (v < 1 || v > model::kMaxTileExtent)
      fail(t, "tile extents must be 1.." + std::to_string(model::kMaxTileExtent));
  n.tile = *tile;

  const Part& c = r.next("the cluster shape XxYxZ");
  n.cluster_part = c;
  const auto cl = extents(c.text, 3);
  if (!cl) fail(c, "expected the cluster shape XxYxZ, e.g. 1x1x1 or 2x1x1");
  for (long long v : *cl)
    if (v > model::kMaxClusterExtent)
      fail(c, "cluster extents must be at most " + std::to_string(model::kMaxClusterExtent));
  n.cluster = *cl;

  const Part& s = r.next("the stage count (0 = automatic)");
  n.stages_part = s;
  const auto st = number(s.text, model::kMaxStages);
  if (!st)
    fail(s, "expected the stage count: 0 (automatic) or 1.." + std::to_string(model::kMaxStages));
  n.stages = *st;

  const Part& l = r.next("the layouts of A, B and C (e.g. tnn)");
  n.layout_part = l;
  if (l.text.find_first_of("0123456789") != std::string_view::npos)
    fail(l, "interleaved layouts (ShortLayoutTypeNames n32, t32, ...) are not modelled");
  if (l.text.find_first_of("ch") != std::string_view::npos && l.text.size() == 3 &&
      l.text.find_first_not_of("tnch") == std::string_view::npos)
    fail(l, "conjugated (complex) operands are not modelled");
  if (l.text.size() != 3 || l.text.find_first_not_of("tn") != std::string_view::npos)
    fail(l,
         "expected three layout letters t/n for A, B and C (t = row-major, n = column-major), "
         "e.g. tnn");
  n.layout = std::string(l.text);

  const Part& a = r.next("the alignment alignN");
  n.align_part = a;
  const auto al = a.text.size() > 5 && a.text.substr(0, 5) == "align"
                      ? number(a.text.substr(5), 1 << 20)
                      : std::nullopt;
  if (!al || *al < 1) fail(a, "expected the alignment alignN, e.g. align8");
  n.align = *al;
}

/// The suffixes after align{N}: tile scheduler, kernel schedule, epilogue schedule, epiVs.
void read_tail3x(std::string_view name, std::size_t tail_at, Name3x& n) {
  std::string_view tail = name.substr(tail_at);
  std::size_t at = tail_at;
  if (tail.substr(0, kStreamKSuffix.size()) == kStreamKSuffix &&
      (tail.size() == kStreamKSuffix.size() || tail[kStreamKSuffix.size()] == '_'))
    fail({"stream_k", at + 1},
         "the stream-K tile scheduler is not modelled; tilefit models the default persistent "
         "scheduler");

  // Kernel schedule suffix: everything up to the epilogue suffix ("_epi...").
  const std::size_t epi = tail.find("_epi");
  const std::string_view ktext = tail.substr(0, epi);
  const Part kpart{ktext.empty() ? ktext : ktext.substr(1), at + (ktext.empty() ? 0 : 1)};
  n.kernel_part = kpart;
  if (is_sm103_ultra(ktext)) fail(kpart, "the SM103 FP4-ultra schedules are not modelled");
  const KernelSuffix* found = nullptr;
  for (const KernelSuffix& k : kKernelSuffixes)
    if (k.arch == n.family_arch && k.text == ktext) found = &k;
  const bool bs = n.op == OpClass::block_scaled;
  auto allowed = [&] {
    std::string list;
    for (const KernelSuffix& k : kKernelSuffixes) {
      if (k.arch != n.family_arch || !k.modelled || k.text.empty()) continue;
      if ((k.opclass == 'd' && bs) || (k.opclass == 'b' && !bs)) continue;
      list += (list.empty() ? "" : ", ") + std::string(k.text.substr(1));
    }
    return list;
  };
  if (ktext == "_") fail({"_", at}, "a '_' at the end of the name");
  if (!found) {
    fail(kpart, "expected a kernel schedule suffix of " + std::string(bs ? "block-scaled " : "") +
                    "sm" + std::to_string(n.family_arch) +
                    " kernels (KernelScheduleSuffixes): none, " + allowed() +
                    (tail.empty() ? "" : "; then an epilogue suffix _epi_tma or _epi_nosmem"));
  }
  if (!found->modelled) fail(kpart, std::string(found->why_not));
  if (found->opclass == 'b' && !bs)
    fail(kpart, in_quotes(kpart.text) + " is a block-scaled kernel schedule (" +
                    std::string(found->schedules) + "); this is a tensorop name");
  n.kernel = found;
  if (epi == std::string_view::npos) {
    n.epi = &kEpilogueSuffixes[0];
    n.epi_part = {"", name.size()};
    return;
  }

  // Epilogue schedule suffix, then the block-scaled output's "_epiVs{N}{t|n}".
  std::string_view etext = tail.substr(epi);
  std::size_t eat = at + epi;
  const std::size_t vs = etext.find(kEpiVsPrefix);
  const std::string_view esched = etext.substr(0, vs);
  const Part epart{esched.empty() ? esched : esched.substr(1), eat + (esched.empty() ? 0 : 1)};
  n.epi_part = epart;
  const EpilogueSuffix* e = nullptr;
  for (const EpilogueSuffix& x : kEpilogueSuffixes)
    if (x.text == esched) e = &x;
  if (!e)
    fail(epart,
         "expected an epilogue schedule suffix (EpilogueScheduleSuffixes): none, epi_tma or "
         "epi_nosmem");
  if (!e->modelled) fail(epart, "the fast-FP32 no-smem epilogue is not modelled");
  n.epi = e;
  if (vs == std::string_view::npos) return;
  const std::string_view v = etext.substr(vs);
  const Part vpart{v.substr(1), eat + vs + 1};
  n.epivs_part = vpart;
  const std::string_view body = v.substr(kEpiVsPrefix.size());
  if (body.size() < 2 || (body.back() != 't' && body.back() != 'n') ||
      !all_digits(body.substr(0, body.size() - 1)) || body.size() > 6)
    fail(vpart, "expected the block-scaled output suffix epiVs{vector size}{t|n}, e.g. epiVs32t");
  n.epi_vs = static_cast<int>(*number(body.substr(0, body.size() - 1), 99999));
  n.epi_vs_layout = body.back();
}

// ---- mapping ----------------------------------------------------------------------------------

std::string_view schedule_text(Sched s) {
  switch (s) {
    case Sched::auto_:
      return "auto";
    case Sched::cooperative:
      return "cooperative";
    case Sched::pingpong:
      return "pingpong";
    case Sched::sm1:
      return "1sm";
    case Sched::sm2:
      return "2sm";
  }
  return "auto";
}

std::string_view epi_text(Epi e) {
  switch (e) {
    case Epi::auto_:
      return "auto";
    case Epi::tma:
      return "tma";
    case Epi::nosmem:
      return "nosmem";
  }
  return "auto";
}

/// Operands: dense types as they are; "tf32gemm" names f32 operands the MMA reads as tf32 (the
/// intermediate type of core_name, gemm_operation.py:194-196) — tilefit's f32 operands are
/// exactly that. Block-scaled: formats and the schedule's vector size.
void map_operands(const Name3x& n, int sf_vec, Output& out) {
  if (n.tf32_math && (n.a != DType::F32 || n.b != DType::F32))
    fail(n.core_part, "tf32gemm names f32 operands read as tf32; A and B are " +
                          std::string(model::dtype_name(n.a)) + " and " +
                          std::string(model::dtype_name(n.b)));
  if (n.op != OpClass::block_scaled) {
    out.j["a"] = std::string(model::dtype_name(n.a));
    out.j["b"] = std::string(model::dtype_name(n.b));
    return;
  }
  const OperandFormat fa = block_scaled_format(n.a_part, n.sfa, n.a);
  const OperandFormat fb = block_scaled_format(n.b_part, n.sfb, n.b);
  out.j["a"] = fa.format;
  out.j["b"] = fb.format;
  out.j["sf_vec"] = sf_vec;
  out.note(fa.note);
  out.note(fb.note);
}

void map_outputs(const Name3x& n, Output& out) {
  out.j["c"] = element_json(n.c);
  out.j["d"] = std::string(model::dtype_name(n.d));
  out.j["acc"] = std::string(model::dtype_name(n.acc));
}

/// SM90: sm90_tma_ws (the cooperative and pingpong TMA warp-specialized kernels, dense and
/// ptr-array grouped).
void map_sm90(const Name3x& n, Output& out) {
  if (n.op == OpClass::block_scaled) fail(n.op_part, "there are no block-scaled GEMMs on sm90");
  // Operands of different widths take the register-sourced mixed-input mainloop
  // (IsABDifferentWidth, sm90_common.inl:415-420).
  if (model::bits(n.a) != model::bits(n.b))
    fail(span(n.name, n.a_part, n.b_part),
         "A and B of different widths (" + std::string(model::dtype_name(n.a)) + ", " +
             std::string(model::dtype_name(n.b)) +
             ") build CUTLASS's mixed-input mainloop, which is not modelled");
  // 8- and 32-bit operands that are not both K-major (A "t", B "n") build the register-sourced
  // mainloop (is_use_rmem_A, sm90_common.inl:400-421; GMMA_TMA_WS_RS,
  // sm90_gmma_builder.inl:313-416).
  const bool k_major = n.layout[0] == 't' && n.layout[1] == 'n';
  if (!k_major && (model::bits(n.a) != 16 || model::bits(n.b) != 16))
    fail(n.layout_part,
         "with " + std::string(model::dtype_name(n.a)) +
             " operands that are not both K-major (A t, B n) CUTLASS builds the register-sourced "
             "(RS) mainloop, which is not modelled");
  if (n.epi_vs) fail(n.epivs_part, "block-scaled output needs a block-scaled (bstensorop) kernel");
  for (long long v : n.cluster)
    if (v < 1) fail(n.cluster_part, "expected a static cluster shape with extents 1..16");
  // KernelScheduleAuto picks the TMA kernels only for 16-byte aligned A and B
  // (IsTmaCompatible, sm90_gmma_builder.inl:1009-1029), else KernelCpAsyncWarpSpecialized.
  if (n.kernel->sched == Sched::auto_) {
    for (DType t : {n.a, n.b})
      if ((n.align * model::bits(t)) % 128 != 0)
        fail(n.align_part, "A and B are not 16-byte aligned (" + std::to_string(n.align) + " x " +
                               std::string(model::dtype_name(t)) +
                               "), so CUTLASS's automatic schedule builds the cp.async kernel "
                               "(KernelCpAsyncWarpSpecialized), which is not modelled");
  }
  map_operands(n, 0, out);
  map_outputs(n, out);
  out.j["layout"] = n.layout;
  out.j["schedule"] = std::string(schedule_text(n.kernel->sched));
  out.j["epilogue"] = std::string(epi_text(n.epi->epi));
  out.j["grouped"] = n.grouped;
}

/// The block-scaled output (LinCombBlockScaleFactor): "_epiVs{V}{layout}" and the D prefix.
/// Returns whether the epilogue is blockscale_out.
bool read_blockscale_out(const Name3x& n) {
  const bool has_sfd = n.sfd != DType::Void;
  if (has_sfd && !n.epi_vs)
    fail(n.d_part,
         "D carries output scale factors, so the name should end in "
         "_epiVs{vector size}{t|n}");
  if (!has_sfd && n.epi_vs)
    fail(n.epivs_part,
         "a block-scaled output needs a scale-factor type in D ({sf}x{D}, e.g. "
         "ue8m0xe2m1)");
  if (!has_sfd) return false;
  if (n.sfd != DType::UE4M3 && n.sfd != DType::UE8M0)
    fail(n.d_part, "output scale factors of type " + std::string(model::dtype_name(n.sfd)) +
                       " are not modelled; tilefit's blockscale_out epilogue takes ue4m3 or ue8m0");
  if (n.epi_vs != 16 && n.epi_vs != 32)
    fail(n.epivs_part, "an output scale-factor vector of " + std::to_string(n.epi_vs) +
                           " is not modelled; tilefit's blockscale_out epilogue takes 16 or 32");
  if (n.epi->epi == Epi::nosmem)
    fail(n.epi_part, "a block-scaled output with the no-smem epilogue is not modelled");
  return true;
}

/// SM100 (and SM101/SM103/SM110): sm100_umma.
void map_sm100(const Name3x& n, Output& out) {
  const KernelSuffix& k = *n.kernel;
  const bool bs = n.op == OpClass::block_scaled;
  const bool blockscale_out = bs && read_blockscale_out(n);
  if (!bs && n.epi_vs)
    fail(n.epivs_part, "block-scaled output needs a block-scaled (bstensorop) kernel");

  // The MMA instruction and the scale-factor vector the schedule implies. Generic schedules
  // take SfVectorSize 32 for tuple<T, SF> operands (find_vector_size, sm1xx_common.inl:137-183).
  Instr instr = k.instr;
  int sf_vec = k.sf_vec ? k.sf_vec : 32;
  if (instr == Instr::mxf4_or_mxf8f6f4) {
    if (!n.grouped) {
      instr = Instr::nvf4;  // Mxf4TmaWarpSpecialized{1,2}SmSm100
    } else if (model::bits(n.a) != 4 || model::bits(n.b) != 4) {
      instr = Instr::f8f6f4;  // PtrArrayMxf8f6f4 (PtrArrayMxf4 takes fp4 only)
    } else if (n.align == 128) {
      instr = Instr::f8f6f4;  // fp4 unpacked to a byte: 128-element TMA alignment
    } else if (n.align == 32) {
      instr = Instr::nvf4;  // packed fp4: 32 elements = 16 bytes
    } else {
      fail(n.kernel_part,
           "grouped \"" + std::string(n.kernel_part.text) +
               "\" is written by both PtrArrayMxf4 and PtrArrayMxf8f6f4 (library.py:832-834); "
               "for fp4 operands the alignment tells them apart (align32: Mxf4, align128: "
               "Mxf8f6f4), and align" +
               std::to_string(n.align) + " is neither");
    }
  }

  // Epilogue. "" after a 1SM schedule is (PtrArray)TmaWarpSpecialized1Sm, the generator's only
  // pairing for 1SM kernels outside MoE (generator.py:6858, 7904, 9794 and the other SM100
  // generators); after a 2SM or automatic schedule it is ScheduleAuto (TmaWarpSpecialized2Sm writes
  // "_epi_tma").
  Epi epi = n.epi->epi;
  if (n.epi->text.empty()) epi = k.sched == Sched::sm1 ? Epi::tma : Epi::auto_;
  // The library's emitter fixes NVF4 kernels with CTA N = 256 to a 128x64 epilogue tile and makes
  // their TMA epilogue schedule explicit (gemm_operation.py:1000-1007).
  std::optional<std::array<long long, 2>> epi_tile;
  const bool nvf4_schedule = k.text == "_o_vs16_1sm" || k.text == "_o_vs16_2sm";
  if (bs && nvf4_schedule && n.tile[1] == 256) {
    epi_tile = std::array<long long, 2>{128, 64};
    if (epi == Epi::auto_) epi = Epi::tma;
  }

  // Cluster: DynamicClusterShape 0x0x1 (library.py:1450) is a cluster chosen at run time
  // (Shape<int,int,_1>, gemm_operation.py:1144-1146).
  std::vector<long long> cluster = n.cluster;
  std::string cluster_note;
  const bool dynamic = n.cluster[0] == 0 || n.cluster[1] == 0 || n.cluster[2] == 0;
  if (dynamic) {
    if (n.cluster[0] != 0 || n.cluster[1] != 0 || n.cluster[2] != 1)
      fail(n.cluster_part, "expected a static cluster shape or 0x0x1 (chosen at run time)");
    if (k.sched == Sched::sm2 && epi == Epi::auto_)
      fail(n.cluster_part,
           "with a cluster chosen at run time CUTLASS's automatic epilogue is the 1SM one "
           "(sm100_builder.inl:1698-1714) under this 2SM kernel, a pairing the config format "
           "cannot express");
    cluster = {k.sched == Sched::sm2 ? 2 : 1, 1, 1};
    cluster_note =
        (k.sched == Sched::sm2
             ? "cluster 0x0x1 (chosen at run time) is read as 2x1x1: the 2SM schedule needs an "
               "even cluster M, and nothing else in the model depends on the cluster"
         : k.sched == Sched::sm1
             ? "cluster 0x0x1 (chosen at run time) is read as 1x1x1: nothing in the model "
               "of a 1SM kernel depends on the cluster"
             : "cluster 0x0x1 (chosen at run time) is read as 1x1x1: CUTLASS's automatic "
               "SM100 schedules pick 1SM for a run-time cluster (sm100_common.inl:470-475, "
               "sm100_builder.inl:1703-1706)");
  }
  if (bs && n.epi_vs && n.epi_vs_layout != 't')
    fail(n.epivs_part,
         "a column-major output scale-factor layout is not modelled on sm100; "
         "tilefit models Sm100BlockScaleFactorRowStore (t)");

  out.j["cluster"] = cluster;
  map_operands(n, sf_vec, out);
  out.note(cluster_note);
  if (epi_tile)
    out.note(
        "epilogue tile 128x64: the library's emitter fixes it for NVF4 kernels with N = 256 "
        "(gemm_operation.py:1000-1007)");
  map_outputs(n, out);
  out.j["layout"] = n.layout;
  out.j["schedule"] = std::string(schedule_text(k.sched));
  if (blockscale_out || epi_tile) {
    Json e;
    e["variant"] = blockscale_out ? "blockscale_out" : std::string(epi_text(epi));
    if (epi_tile) e["tile"] = *epi_tile;
    if (blockscale_out) {
      e["sf_vec"] = n.epi_vs;
      e["sf"] = std::string(model::dtype_name(n.sfd));
    }
    out.j["epilogue"] = e;
  } else {
    out.j["epilogue"] = std::string(epi_text(epi));
  }
  out.j["grouped"] = n.grouped;
  if (bs) out.j["mma"] = instr == Instr::f8f6f4 ? "f8f6f4" : instr == Instr::nvf4 ? "nvf4" : "auto";
}

/// SM120 (and SM121): sm120_blockscaled (bstensorop) or sm120_dense (tensorop).
void map_sm120(const Name3x& n, Output& out) {
  const KernelSuffix& k = *n.kernel;
  const bool bs = n.op == OpClass::block_scaled;
  const bool blockscale_out = bs && read_blockscale_out(n);
  if (!bs && n.epi_vs)
    fail(n.epivs_part, "block-scaled output needs a block-scaled (bstensorop) kernel");
  for (long long v : n.cluster)
    if (v < 1) fail(n.cluster_part, "expected a static cluster shape with extents 1..16");
  // tilefit stores the SM120 output scale factors row-wise for a row-major D and column-wise for
  // a column-major D; CUTLASS picks the store from the scale-factor layout tag
  // (sm120_callbacks_tma_warpspecialized.hpp:128-139 row, 743-761 column).
  if (blockscale_out && n.epi_vs_layout != n.layout[2])
    fail(n.epivs_part, "an output scale-factor layout (" + std::string(1, n.epi_vs_layout) +
                           ") other than D's (" + std::string(1, n.layout[2]) +
                           ") is not modelled on sm120");
  const int sf_vec = k.sf_vec ? k.sf_vec : 32;
  out.j["cluster"] = n.cluster;
  map_operands(n, sf_vec, out);
  map_outputs(n, out);
  out.j["layout"] = n.layout;
  out.j["schedule"] = std::string(schedule_text(k.sched));
  if (blockscale_out) {
    out.j["epilogue"] = Json{{"variant", "blockscale_out"},
                             {"sf_vec", n.epi_vs},
                             {"sf", std::string(model::dtype_name(n.sfd))}};
  } else {
    out.j["epilogue"] = std::string(epi_text(n.epi->epi));
  }
  out.j["grouped"] = n.grouped;
  if (bs)
    out.j["mma"] = k.instr == Instr::f8f6f4 ? "f8f6f4" : k.instr == Instr::nvf4 ? "nvf4" : "auto";
}

Json read_3x(std::string_view name, Reader& r) {
  Name3x n;
  n.name = name;
  read_arch3x(r, n);
  read_opclass3x(r, n);
  read_core3x(name, r, n);
  read_types3x(name, r, n);
  read_shape3x(r, n);
  read_tail3x(name, n.align_part.offset + n.align_part.text.size(), n);
  // Every modelled 3.x kernel loads A and B with TMA, which needs 16-byte-aligned rows; the name
  // gives max(align A, align B), a multiple of each when both are TMA-aligned. (The SM90 automatic
  // schedule picks cp.async instead: map_sm90 says so.)
  if (!(n.family_arch == 90 && n.kernel->sched == Sched::auto_)) {
    for (DType t : {n.a, n.b})
      if ((n.align * model::bits(t)) % 128 != 0)
        fail(n.align_part, "the TMA kernels need 16-byte-aligned A and B (" +
                               std::to_string(n.align) + " x " + std::string(model::dtype_name(t)) +
                               " is not)");
  }

  Output out;
  out.j["name"] = std::string(name);
  out.j["arch"] = model::arch_name(n.arch);
  const bool bs = n.op == OpClass::block_scaled;
  out.j["kernel"] = n.family_arch == 90    ? "sm90_tma_ws"
                    : n.family_arch == 100 ? "sm100_umma"
                    : bs                   ? "sm120_blockscaled"
                                           : "sm120_dense";
  out.j["tile"] = n.tile;
  if (n.family_arch == 90) out.j["cluster"] = n.cluster;
  if (n.family_arch == 90) map_sm90(n, out);
  if (n.family_arch == 100) map_sm100(n, out);
  if (n.family_arch == 120) map_sm120(n, out);
  out.j["stages"] = n.stages == 0 ? Json("auto") : Json(n.stages);
  return out.finish();
}

// =============================================================================================
// CUTLASS 2.x names (cutlass_tensorop_...): sm80_multistage.
// =============================================================================================

/// One TileDescription of a generator function: threadblock tile and warp count
/// (warp tile = tile / warp count, EmitGemmUniversalInstance.emit, gemm_operation.py:731-734).
struct TileWarps {
  int m, n, k;
  int wm, wn, wk;
};

/// GenerateSM80_TensorOp_16816, generator.py:2428-2451 (f16/bf16, 16x8x16).
constexpr TileWarps kTiles16816[] = {
    {256, 128, 32, 4, 2, 1}, {128, 256, 32, 2, 4, 1}, {256, 64, 32, 4, 1, 1},
    {64, 256, 32, 1, 4, 1},  {128, 128, 32, 2, 2, 1}, {128, 64, 32, 2, 2, 1},
    {64, 128, 32, 2, 2, 1},  {64, 64, 32, 2, 2, 1},   {256, 128, 64, 4, 2, 1},
    {128, 256, 64, 2, 4, 1}, {256, 64, 64, 4, 1, 1},  {64, 256, 64, 1, 4, 1},
    {128, 128, 64, 2, 2, 1}, {128, 64, 64, 2, 2, 1},  {64, 128, 64, 2, 2, 1},
    {64, 64, 64, 2, 2, 1},
};
/// GenerateSM80_TensorOp_1688 (tf32 operands, generator.py:3474-3494) and
/// GenerateSM80_TensorOp_1688_fast_math (f32 operands run as tf32, generator.py:3559-3579): the
/// same list, 16x8x8.
constexpr TileWarps kTiles1688[] = {
    {256, 128, 16, 4, 2, 1}, {128, 256, 16, 2, 4, 1}, {256, 64, 16, 4, 1, 1},
    {64, 256, 16, 1, 4, 1},  {128, 128, 16, 2, 2, 1}, {128, 64, 16, 2, 2, 1},
    {64, 128, 16, 2, 2, 1},  {64, 64, 16, 2, 2, 1},   {256, 128, 32, 4, 2, 1},
    {128, 256, 32, 2, 4, 1}, {256, 64, 32, 4, 1, 1},  {64, 256, 32, 1, 4, 1},
    {128, 128, 32, 2, 2, 1}, {128, 64, 32, 2, 2, 1},  {64, 128, 32, 2, 2, 1},
    {64, 64, 32, 2, 2, 1},
};
/// GenerateSM80_TensorOp_16832_TN, generator.py:2872-2897 (s8/u8, 16x8x32).
constexpr TileWarps kTiles16832[] = {
    {256, 128, 64, 4, 2, 1},  {128, 256, 64, 2, 4, 1},  {256, 64, 64, 4, 1, 1},
    {64, 256, 64, 1, 4, 1},   {256, 32, 64, 4, 1, 1},   {32, 256, 64, 1, 4, 1},
    {128, 128, 64, 2, 2, 1},  {128, 64, 64, 2, 2, 1},   {64, 128, 64, 2, 2, 1},
    {128, 32, 64, 4, 1, 1},   {32, 128, 64, 1, 4, 1},   {64, 64, 64, 2, 2, 1},
    {256, 128, 128, 4, 2, 1}, {128, 256, 128, 2, 4, 1}, {256, 64, 128, 4, 1, 1},
    {64, 256, 128, 1, 4, 1},  {256, 32, 128, 4, 1, 1},  {32, 256, 128, 1, 4, 1},
    {128, 128, 128, 2, 2, 1}, {128, 64, 128, 2, 2, 1},  {64, 128, 128, 2, 2, 1},
    {128, 32, 128, 4, 1, 1},  {32, 128, 128, 1, 4, 1},  {64, 64, 128, 2, 2, 1},
};
/// GenerateSM80_TensorOp_16816_mixed_input_upcast_a (s8/u8 A x f16/bf16 B),
/// generator.py:2693-2705.
constexpr TileWarps kTilesUpcastA[] = {
    {128, 128, 64, 2, 2, 1},
    {128, 64, 64, 2, 2, 1},
    {128, 32, 64, 2, 2, 1},
    {128, 16, 64, 2, 1, 1},
};
/// GenerateSM80_TensorOp_16816_mixed_input_upcast_b (f16/bf16 A x s8/u8 B),
/// generator.py:2790-2810.
constexpr TileWarps kTilesUpcastB[] = {
    {128, 128, 64, 2, 2, 1}, {128, 64, 64, 2, 2, 1}, {128, 32, 64, 2, 2, 1}, {128, 32, 32, 2, 2, 1},
    {128, 16, 64, 2, 1, 1},  {128, 16, 32, 2, 1, 1}, {256, 16, 32, 2, 1, 1},
};

/// The SM80 generator function a 2.x name comes from, and what it fixes.
enum class Recipe { f16_16816, tf32_1688, f32_as_tf32_1688, int8_16832, upcast_a, upcast_b };

struct RecipeInfo {
  std::string_view what;   ///< for messages
  std::string_view lines;  ///< generator.py lines of the tile list
  const TileWarps* tiles;
  std::size_t count;
};

RecipeInfo recipe_info(Recipe r) {
  switch (r) {
    case Recipe::f16_16816:
      return {"16816 (f16/bf16)", "generator.py:2428-2451", kTiles16816, std::size(kTiles16816)};
    case Recipe::tf32_1688:
      return {"1688 (tf32)", "generator.py:3474-3494", kTiles1688, std::size(kTiles1688)};
    case Recipe::f32_as_tf32_1688:
      return {"1688 (f32 as tf32)", "generator.py:3559-3579", kTiles1688, std::size(kTiles1688)};
    case Recipe::int8_16832:
      return {"16832 (s8/u8)", "generator.py:2872-2897", kTiles16832, std::size(kTiles16832)};
    case Recipe::upcast_a:
      return {"16816 mixed-input (upcast A)", "generator.py:2693-2705", kTilesUpcastA,
              std::size(kTilesUpcastA)};
    case Recipe::upcast_b:
      return {"16816 mixed-input (upcast B)", "generator.py:2790-2810", kTilesUpcastB,
              std::size(kTilesUpcastB)};
  }
  return {};
}

bool is_half(DType t) { return t == DType::F16 || t == DType::BF16; }
bool is_int8(DType t) { return t == DType::S8 || t == DType::U8; }

Json read_2x(std::string_view name, Reader& r) {
  // Opcode class.
  const Part& op = r.next("the opcode class (tensorop)");
  if (op.text.size() > 2 && op.text.substr(0, 2) == "sm" && number(op.text.substr(2), 999))
    fail(op, "a CUTLASS 2.x kernel named for sm_" + std::string(op.text.substr(2)) +
                 " (GemmKind.Universal at arch >= 90: f64 and complex tensor-op GEMMs) is not "
                 "modelled; a 3.x name starts with cutlass3x");
  if (op.text == "simt") fail(op, "SIMT (CUDA-core) kernels are not modelled");
  if (op.text == "wmma") fail({"wmma_tensorop", op.offset}, "WMMA kernels are not modelled");
  if (op.text != "tensorop") fail(op, "expected the opcode class tensorop (OpcodeClassNames)");

  // [C_]core: the C type is written first when it differs from the accumulator.
  std::optional<Part> c_part;
  Part core = r.next("the core name, e.g. s16816gemm");
  if (find_type(core.text) && r.peek().text.find("gemm") != std::string_view::npos) {
    c_part = core;
    core = r.next("the core name, e.g. s16816gemm");
  }
  std::string_view t = core.text;
  if (t.size() >= 6 && t.substr(t.size() - 6) == "spgemm")
    fail(core, "sparse (2:4 structured) GEMMs are not modelled");
  if (t.size() < 5 || t.substr(t.size() - 4) != "gemm")
    fail(core, "expected the core name {accumulator}{instruction}gemm, e.g. s16816gemm");
  t.remove_suffix(4);
  if (!t.empty() && t[0] == 'g') fail(core, "complex (Gaussian) GEMMs are not modelled");
  // Accumulator letter (ShortDataTypeNames), instruction shape digits, math operation, and the
  // intermediate (MMA) type (core_name, gemm_operation.py:162-200).
  const ShortType* acc_short = nullptr;
  for (const ShortType& s : kShortDataTypeNames)
    if (t.substr(0, s.letter.size()) == s.letter &&
        (!acc_short || s.letter.size() > acc_short->letter.size()))
      acc_short = &s;
  if (!acc_short)
    fail(core, "expected the core name {accumulator}{instruction}gemm, e.g. s16816gemm");
  const Part acc_part{core.text.substr(0, acc_short->letter.size()), core.offset};
  if (acc_short->type != "f32" && acc_short->type != "f16" && acc_short->type != "s32")
    fail(acc_part, in_quotes(acc_part.text) + " accumulates in " + std::string(acc_short->type) +
                       ", which is not modelled; tilefit's 2.x kernels accumulate in f32 (s), f16 "
                       "(h) or s32 (i)");
  const DType acc = *model::parse_dtype(acc_short->type);
  t.remove_prefix(acc_short->letter.size());
  std::size_t digits = 0;
  while (digits < t.size() && t[digits] >= '0' && t[digits] <= '9') ++digits;
  const std::string_view inst = t.substr(0, digits);
  const Part inst_part{inst, core.offset + acc_short->letter.size()};
  t.remove_prefix(digits);
  const Part rest_part{t, inst_part.offset + digits};
  if (inst.empty())
    fail(core, "expected the tensor-op instruction shape after the accumulator, e.g. s16816gemm");
  for (std::string_view mop : {"xor", "and", "fastaccum"})
    if (t.substr(0, mop.size()) == mop)
      fail(
          {mop, rest_part.offset},
          "the " + std::string(mop) + " math operation is not modelled (binary or SM89 FP8 GEMMs)");
  std::optional<DType> intermediate;
  if (!t.empty()) {
    const TypeName* ty = find_type(t);
    if (!ty) fail(rest_part, "expected an intermediate MMA type (tf32) or nothing before \"gemm\"");
    if (ty->kind == TypeKind::complex) fail(rest_part, "complex GEMMs are not modelled");
    if (t != "tf32")
      fail(rest_part, "f32 operands run through " + std::string(t) + " MMAs (multiply_add_fast_" +
                          std::string(t) + ") are not modelled; expected tf32 or nothing");
    intermediate = DType::TF32;
  }
  // Kind: "gemm", then "grouped" / "planar_complex[_array]" for the other 2.x kinds.
  if (r.peek().text == "grouped")
    fail(span(name, core, r.peek()),
         "the CUTLASS 2.x grouped GEMM (GemmKind.Grouped) is not modelled");
  if (r.peek().text == "planar")
    fail(span(name, core, r.peek()), "planar-complex GEMMs are not modelled");

  // [_A][_B] until the tile "MxN".
  std::vector<Part> types;
  while (!r.done() && !extents(r.peek().text, 2)) types.push_back(r.next("an element type"));
  if (types.size() > 2)
    fail(span(name, types[0], types.back()),
         "expected at most the A and B element types between the core name and the tile");
  DType a = acc, b = acc;
  bool mixed = false;
  if (types.size() >= 1) a = b = read_type(types[0], Role::a);
  if (types.size() == 2) {
    b = read_type(types[1], Role::b);
    mixed = true;
  }
  const DType c = c_part ? read_type(*c_part, Role::c) : acc;

  // Tile MxN, then KxStages.
  const Part& tile_mn = r.next("the threadblock tile MxN");
  const Part& tile_ks = r.next("the tile K and stage count KxS");
  const auto mn = extents(tile_mn.text, 2);
  const auto ks = extents(tile_ks.text, 2);
  const Part tile_part = span(name, tile_mn, tile_ks);
  if (!mn || !ks)
    fail(tile_part, "expected the threadblock tile and stages MxN_KxS, e.g. 256x128_32x3");
  const long long m = (*mn)[0], n = (*mn)[1], k = (*ks)[0], stages = (*ks)[1];
  if (m < 1 || n < 1 || k < 1 || m > model::kMaxTileExtent || n > model::kMaxTileExtent ||
      k > model::kMaxTileExtent)
    fail(tile_part, "tile extents must be 1.." + std::to_string(model::kMaxTileExtent));
  if (stages < 1 || stages > model::kMaxStages)
    fail(tile_part, "the stage count must be 1.." + std::to_string(model::kMaxStages));

  const Part& lay = r.next("the layouts of A and B (e.g. tn)");
  if (lay.text.find_first_of("0123456789") != std::string_view::npos)
    fail(lay, "interleaved layouts (ShortLayoutTypeNames n32, t32, ...) are not modelled");
  if (lay.text.size() == 2 && lay.text.find_first_not_of("tnch") == std::string_view::npos &&
      lay.text.find_first_of("ch") != std::string_view::npos)
    fail(lay, "conjugated (complex) operands are not modelled");
  if (lay.text.size() != 2 || lay.text.find_first_not_of("tn") != std::string_view::npos)
    fail(lay,
         "expected two layout letters t/n for A and B (t = row-major, n = column-major), e.g. tn");
  const Part& al = r.next("the alignment alignN");
  const auto align = al.text.size() > 5 && al.text.substr(0, 5) == "align"
                         ? number(al.text.substr(5), 1 << 20)
                         : std::nullopt;
  if (!align || *align < 1) fail(al, "expected the alignment alignN, e.g. align8");
  if (!r.done()) {
    const Part& extra = r.peek();
    fail(span(name, extra, extra), "expected the end of the name after the alignment");
  }

  // Which generator function: the instruction and the operand types decide.
  Recipe recipe;
  const std::string inst_s(inst);
  if (inst_s == "16816" && !intermediate && !mixed && is_half(a)) {
    recipe = Recipe::f16_16816;
  } else if (inst_s == "16816" && !intermediate && mixed &&
             ((is_int8(a) && is_half(b)) || (is_half(a) && is_int8(b)))) {
    recipe = is_int8(a) ? Recipe::upcast_a : Recipe::upcast_b;
  } else if (inst_s == "1688" && !intermediate && !mixed && a == DType::TF32) {
    recipe = Recipe::tf32_1688;
  } else if (inst_s == "1688" && intermediate && !mixed && a == DType::F32) {
    recipe = Recipe::f32_as_tf32_1688;
  } else if (inst_s == "16832" && !intermediate && !mixed && is_int8(a)) {
    recipe = Recipe::int8_16832;
  } else if (inst_s == "1688" && !intermediate && a == DType::F32) {
    fail(core,
         "f32 operands with the 3xTF32 fast-f32 math (multiply_add_fast_f32) are not "
         "modelled");
  } else if (inst_s != "16816" && inst_s != "1688" && inst_s != "16832") {
    fail(inst_part,
         "the instruction " + std::string(inst) +
             " is not modelled; tilefit's sm80_multistage takes the SM80 instructions "
             "16816 (f16, bf16 and their s8/u8 mixed input), 1688 (tf32) and 16832 (s8, u8)");
  } else {
    fail(types.empty() ? core : span(name, types.front(), types.back()),
         "the instruction " + std::string(inst) + " with " + std::string(model::dtype_name(a)) +
             (mixed ? " x " + std::string(model::dtype_name(b)) : std::string()) +
             " operands is not one of the SM80 library kernels tilefit models (16816: f16, bf16, "
             "and f16/bf16 x s8/u8; 1688: tf32, and f32 as tf32gemm; 16832: s8, u8)");
  }
  const RecipeInfo info = recipe_info(recipe);
  // Library kernels the model does not cover: tf32 outputs (the tf32 C of
  // GenerateSM80_TensorOp_1688's data_type_mixed, generator.py:3503-3508) and f16 accumulation
  // with the mixed-input upcast (generator.py:2671-2680, 2768-2777).
  if (c == DType::TF32)
    fail(c_part ? *c_part : core,
         "a tf32 C/D is not modelled; tilefit's sm80_multistage writes f16, "
         "bf16, f32, s32, s8 or u8");
  if ((recipe == Recipe::upcast_a || recipe == Recipe::upcast_b) && acc == DType::F16)
    fail(acc_part,
         "f16 accumulation with mixed-input (s8/u8 x f16) operands is not modelled; "
         "tilefit's sm80_multistage takes f32 accumulators for them");

  // Operand alignment: the model's cp.async thread maps are those of 128-bit (16-byte) accesses
  // (DefaultMmaCore sm80 with kAlignment = 128 / bits). Uniform recipes use the name's alignment
  // for A and B (CreateGemmOperator, generator.py:163-166); the mixed-input ones the fixed
  // [16, 8] / [8, 16] (generator.py:2689, 2786).
  if (recipe == Recipe::upcast_a || recipe == Recipe::upcast_b) {
    if (*align != 16)
      fail(al,
           "the mixed-input library kernels are align16 ([16, 8, 8] / [8, 16, 8], "
           "generator.py:2689, 2786)");
  } else if (*align * model::bits(a) != 128) {
    fail(al, "A and B are read in " + std::to_string(*align * model::bits(a)) + "-bit accesses (" +
                 std::to_string(*align) + " x " + std::string(model::dtype_name(a)) +
                 "); tilefit's sm80_multistage models 128-bit accesses (align" +
                 std::to_string(128 / model::bits(a)) + ")");
  }
  // The epilogue's vector: EpilogueFunctor<C, min(alignC * bits(C), 128) / bits(C)>
  // (gemm_operation.py:759-761); the model's is 128 / bits(C). C's alignment: min(8, align)
  // (generator.py:166), then the generators' overrides (16832: generator.py:2923-2930; upcast:
  // generator.py:2732-2735, 2837-2839).
  long long align_c = std::min<long long>(8, *align);
  if (recipe == Recipe::int8_16832 && c != DType::S32) align_c = n >= 128 ? (m == 32 ? 8 : 16) : 8;
  if (recipe == Recipe::upcast_a || recipe == Recipe::upcast_b) {
    align_c = 8;
    if (n <= 32 && (recipe == Recipe::upcast_b || model::bits(c) == 16)) align_c = 4;
  }
  if (align_c * model::bits(c) < 128)
    fail(tile_part, "the library builds this kernel's epilogue with " + std::to_string(align_c) +
                        "-element (" + std::to_string(align_c * model::bits(c)) +
                        "-bit) vectors of " + std::string(model::dtype_name(c)) +
                        " (C alignment for this tile); tilefit's sm80_multistage models 128-bit "
                        "epilogue vectors");

  // Warp count from the generator's list.
  const TileWarps* tw = nullptr;
  for (std::size_t i = 0; i < info.count; ++i)
    if (info.tiles[i].m == m && info.tiles[i].n == n && info.tiles[i].k == k) tw = &info.tiles[i];
  if (!tw)
    fail(tile_part, std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k) +
                        " is not a tile of the CUTLASS library's " + std::string(info.what) +
                        " list (" + std::string(info.lines) +
                        "), so its warp count, and with it the warp tile, is unknown");

  Output out;
  out.j["name"] = std::string(name);
  // The instructions of these generators need compute capability 8.0 (min_cc = 80,
  // generator.py:2422, 2683, 2780, 2864, 3468, 3553); the name has no architecture.
  out.j["arch"] = "sm_80";
  out.j["kernel"] = "sm80_multistage";
  out.j["tile"] = std::vector<long long>{m, n, k};
  out.j["warp"] = std::vector<long long>{m / tw->wm, n / tw->wn, k / tw->wk};
  out.j["a"] = std::string(model::dtype_name(a));
  out.j["b"] = std::string(model::dtype_name(b));
  out.j["c"] = std::string(model::dtype_name(c));
  out.j["d"] = std::string(model::dtype_name(c));  // D = C (GemmOperation.__init__)
  out.j["acc"] = std::string(model::dtype_name(acc));
  // Every SM80 tensor-op GEMM of these generators has a column-major C (their layout lists,
  // e.g. generator.py:2397-2402, 2847-2849).
  out.j["layout"] = std::string(lay.text) + "n";
  out.j["stages"] = stages;
  return out.finish();
}

/// The name's config in the config-file format, as the reader's own tree (no JSON text).
detail::Value to_value(const Json& j) {
  detail::Value v;
  using K = detail::Value::Kind;
  switch (j.type()) {
    case Json::value_t::null:
      v.kind = K::Null;
      break;
    case Json::value_t::boolean:
      v.kind = K::Bool;
      v.boolean = j.get<bool>();
      break;
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned: {
      const std::int64_t x = j.get<std::int64_t>();
      if (x < 0) {
        v.kind = K::Integer;
        v.integer = x;
      } else {
        v.kind = K::Unsigned;
        v.unsigned_ = static_cast<std::uint64_t>(x);
      }
      v.text = std::to_string(x);
      break;
    }
    case Json::value_t::number_float:
      v.kind = K::Float;
      v.text = j.dump();
      break;
    case Json::value_t::string:
      v.kind = K::String;
      v.text = j.get<std::string>();
      break;
    case Json::value_t::array:
      v.kind = K::Array;
      for (const Json& e : j) v.items.push_back(to_value(e));
      break;
    case Json::value_t::object:
      v.kind = K::Object;
      for (auto it = j.begin(); it != j.end(); ++it) {
        v.keys.push_back(it.key());
        v.items.push_back(to_value(it.value()));
      }
      break;
    default:
      break;  // binary, discarded: never built here
  }
  return v;
}

/// The config-file form of `name` (the readers of this file), or why it cannot be read.
std::variant<Json, KernelNameError> name_json(std::string_view name) {
  try {
    if (name.empty())
      fail({"", 0},
           "empty name; expected a CUTLASS library kernel name such as "
           "cutlass3x_sm90_tensorop_gemm_bf16_bf16_f32_bf16_bf16_128x256x64_1x1x1_0_tnn_"
           "align8_warpspecialized_cooperative_epi_tma");
    if (name.size() > kMaxNameBytes)
      fail({name.substr(0, 40), 0}, "the name is " + std::to_string(name.size()) +
                                        " bytes long; a config name is at most " +
                                        std::to_string(kMaxNameBytes) + " bytes");
    for (std::size_t i = 0; i < name.size(); ++i) {
      const unsigned char ch = static_cast<unsigned char>(name[i]);
      const bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                      (ch >= '0' && ch <= '9') || ch == '_';
      if (!ok) {
        std::string shown;
        if (ch >= 0x20 && ch < 0x7F) {
          shown = std::string(1, static_cast<char>(ch));
        } else {
          static constexpr char kHex[] = "0123456789abcdef";
          shown = std::string("\\x") + kHex[ch >> 4] + kHex[ch & 15];
        }
        throw Failure{
            {i, shown, "unexpected character; CUTLASS kernel names hold letters, digits and '_'"}};
      }
    }
    Reader r(name, split(name));
    const Part& first = r.next("cutlass3x or cutlass");
    if (first.text == "cutlass3x") return read_3x(name, r);
    if (first.text == "cutlass") return read_2x(name, r);
    fail(first,
         "expected cutlass3x (a CUTLASS 3.x/4.x library kernel) or cutlass (a CUTLASS 2.x "
         "one) at the start");
  } catch (const Failure& f) {
    return f.error;
  }
}

}  // namespace

std::variant<NamedConfig, KernelNameError> config_from_kernel_name(std::string_view name) {
  std::variant<Json, KernelNameError> j = name_json(name);
  if (auto* e = std::get_if<KernelNameError>(&j)) return std::move(*e);
  // The one decoder gives the typed config: a name and the config it stands for, written out,
  // read the same (defaults, inference, what the config format bounds).
  detail::DecodedConfig d = detail::decode_config(to_value(std::get<Json>(j)), 0, false);
  NamedConfig out;
  out.config = std::move(d.config);
  out.arch_given = d.arch_given;
  out.given = d.given;
  for (detail::FieldError& f : d.errors)
    out.errors.push_back({std::move(f.field), std::move(f.message)});
  return out;
}

std::variant<std::string, KernelNameError> kernel_name_json(std::string_view name) {
  std::variant<Json, KernelNameError> j = name_json(name);
  if (auto* e = std::get_if<KernelNameError>(&j)) return std::move(*e);
  return std::get<Json>(j).dump();
}

std::string format_kernel_name_error(const KernelNameError& e) {
  return in_quotes(e.part) + " (offset " + std::to_string(e.offset) + "): " + e.message;
}

}  // namespace tilefit::io
