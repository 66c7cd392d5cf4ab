#include "io/tuned_file.hpp"

#include <algorithm>
#include <cstdint>
#include <set>

#include "io/block_table_name.hpp"
#include "io/json_fields.hpp"
#include "io/moe_quant.hpp"
#include "io/name_parts.hpp"
#include "io/suggest.hpp"
#include "tilefit/io/vocabulary.hpp"
#include "tilefit/io/input_limits.hpp"
#include "tilefit/model/config_limits.hpp"
#include "tilefit/model/validate.hpp"

namespace tilefit::io::detail {
namespace {

/// Reads a decimal number at the start of `s` (at most 9 digits); advances `s`.
std::optional<long long> take_number(std::string_view& s) {
  std::size_t i = 0;
  long long x = 0;
  while (i < s.size() && i < 9 && s[i] >= '0' && s[i] <= '9') x = x * 10 + (s[i++] - '0');
  if (i == 0) return std::nullopt;
  s.remove_prefix(i);
  return x;
}

bool take(std::string_view& s, std::string_view prefix) {
  if (s.substr(0, prefix.size()) != prefix) return false;
  s.remove_prefix(prefix.size());
  return true;
}

/// "3_4_0" -> "3.4.0" (a folder triton_3_4_0 of SGLang's configs).
std::string folder_version(std::string_view folder) {
  if (!take(folder, "triton_") || folder.empty()) return "";
  std::string v;
  for (char c : folder) {
    if (c == '_')
      v.push_back('.');
    else if (c >= '0' && c <= '9')
      v.push_back(c);
    else
      return "";
  }
  return v.front() == '.' || v.back() == '.' ? "" : v;
}

const std::vector<std::string>& entry_field_names() {
  static const std::vector<std::string> k = field_names(tuned_entry_fields());
  return k;
}

}  // namespace

BatchKey read_batch_size(std::string_view key) {
  // Python's int(str): surrounding whitespace (str.isspace(): the ASCII ones and \x1c-\x1f),
  // an optional sign, decimal digits with single underscores between them, leading zeros allowed.
  auto space = [](char c) {
    return c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1c && c <= 0x1f);
  };
  while (!key.empty() && space(key.front())) key.remove_prefix(1);
  while (!key.empty() && space(key.back())) key.remove_suffix(1);
  if (!key.empty() && (key.front() == '+' || key.front() == '-')) key.remove_prefix(1);
  if (key.empty() || key.front() == '_' || key.back() == '_') return BatchKey::not_integer;
  bool large = false;
  std::uint64_t value = 0;
  char last = 0;
  for (const char c : key) {
    if (c == '_') {
      if (last == '_') return BatchKey::not_integer;
    } else if (c >= '0' && c <= '9') {
      const auto d = static_cast<std::uint64_t>(c - '0');
      if (value > (UINT64_MAX - d) / 10) large = true;
      value = value * 10 + d;
    } else {
      return BatchKey::not_integer;
    }
    last = c;
  }
  return large ? BatchKey::too_large : BatchKey::ok;
}

bool is_batch_size(std::string_view key) { return read_batch_size(key) != BatchKey::not_integer; }

namespace {

/// "[128,128]" or "[128, 64]" -> {128, 128}; anything else (other brackets, a sign, a zero,
/// a third number, letters) -> nullopt.
std::optional<std::array<long long, 2>> block_shape_value(std::string_view v) {
  if (!take(v, "[")) return std::nullopt;
  const auto n = take_number(v);
  if (!n || !take(v, ",")) return std::nullopt;
  take(v, " ");
  const auto k = take_number(v);
  if (!k || !take(v, "]") || !v.empty() || *n <= 0 || *k <= 0) return std::nullopt;
  return std::array<long long, 2>{*n, *k};
}

bool all_digits(std::string_view v) {
  return !v.empty() && v.size() <= 9 &&
         std::all_of(v.begin(), v.end(), [](char c) { return c >= '0' && c <= '9'; });
}

constexpr std::string_view kNameGrammar =
    "E={experts},N={n},device_name={name}[,dtype={dtype}][,block_shape=[{n},{k}]]"
    "[,per_channel_quant=True|False][_down].json";

}  // namespace

TunedName parse_tuned_name(std::string_view path) {
  TunedName out;
  const std::size_t slash = path.find_last_of('/');
  std::string_view base = slash == std::string_view::npos ? path : path.substr(slash + 1);
  if (slash != std::string_view::npos) {
    const std::string_view dir = path.substr(0, slash);
    const std::size_t up = dir.find_last_of('/');
    out.triton_version = folder_version(up == std::string_view::npos ? dir : dir.substr(up + 1));
    std::string folders(1, '/');
    folders.append(dir).push_back('/');
    if (!out.triton_version.empty() || folders.find("/sglang/") != std::string::npos)
      out.engine = model::Launcher::Sglang;
  }
  // E={E},N={N},device_name={device}[,dtype={dtype}][,block_shape={bs}]
  //   [,per_channel_quant={bool}][_down].json (vLLM get_config_file_name; SGLang
  //   fused_moe_triton_config.py:18-26 writes block_shape with a space: "[128, 128]").
  // A name that starts like one (E=…, .json) is meant as a tuned table: a part that does not
  // parse is an error naming it (never a table read as another kernel).
  // N={N},K={K},…: a block-quantised matmul's table, its own grammar (block_table_name.cpp).
  if (is_block_table_name(base)) {
    BlockTableName b = parse_block_table_name(base);
    out.block_matmul = true;
    out.matches = b.matches;
    out.n = b.n;
    out.k = b.k;
    out.device_name = std::move(b.device_name);
    out.dtype = std::move(b.dtype);
    out.block_shape = b.block_shape;
    if (b.sglang_spelling) out.engine = model::Launcher::Sglang;
    out.error_part = std::move(b.error_part);
    out.error = std::move(b.error);
    return out;
  }
  if (base.substr(0, 2) != "E=" || base.size() < 5 || base.substr(base.size() - 5) != ".json")
    return out;
  base.remove_suffix(5);
  if (base.size() > 5 && base.substr(base.size() - 5) == "_down") base.remove_suffix(5);
  auto fail = [&](std::string_view part, const std::string& why) {
    out.error_part = std::string(part);
    out.error = why;
    return out;
  };
  const std::vector<std::string_view> parts = name_parts(base);
  std::set<std::string_view> seen;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const std::string_view part = parts[i];
    const std::size_t eq = part.find('=');
    if (eq == std::string_view::npos) return fail(part, "not a key=value part");
    const std::string_view key = part.substr(0, eq), value = part.substr(eq + 1);
    static constexpr std::string_view kLeading[] = {"E", "N", "device_name"};
    if (i < 3 && key != kLeading[i])
      return fail(part, "expected " + std::string(kLeading[i]) +
                            "=… here (the name begins E=…,N=…,device_name=…)");
    if (!seen.insert(key).second) return fail(part, "given twice");
    if (key == "E" || key == "N") {
      if (!all_digits(value) || value.find_first_not_of('0') == std::string_view::npos)
        return fail(part, "not a positive whole number");
    } else if (key == "device_name") {
      // Empty (SGLang ships two such tables): read, with the table_device_name_empty warning
      // (model/engine_tables.hpp); the entries then have no GPU of their own (give --arch).
      out.device_name = std::string(value);
    } else if (key == "dtype") {
      if (value.empty()) return fail(part, "empty dtype");
      out.dtype = std::string(value);
    } else if (key == "block_shape") {
      out.block_shape = block_shape_value(value);
      if (value.find(", ") != std::string_view::npos) out.engine = model::Launcher::Sglang;
      if (!out.block_shape)
        return fail(part,
                    "not a block shape; allowed: [N,K] or [N, K] with positive whole numbers "
                    "(vLLM and SGLang leave the part out when there is none)");
    } else if (key == "per_channel_quant") {
      if (value == "True")
        out.per_channel_quant = true;
      else if (value != "False")
        return fail(part, "allowed: True or False");
    } else if (key == "backend") {
      // vLLM's FlyDSL MoE tables (fused_flydsl_moe.py:114-131): not Triton configs. `check`
      // skips them with a note (io::not_triton_table); read anyway (sweep, suggest), an error.
      return fail(part,
                  "a backend=" + std::string(value) +
                      " table holds another kernel's configs (FlyDSL's tile_m, tile_n, tile_k, "
                      "...), not Triton's: not modelled (tilefit check skips it)");
    } else {
      return fail(
          part, "unknown part; allowed: E, N, device_name, dtype, block_shape, per_channel_quant");
    }
  }
  if (parts.size() < 3) return fail(base, "incomplete: it needs E=…,N=…,device_name=…");
  out.matches = true;
  return out;
}

std::string tuned_name_error(const TunedName& n) {
  if (n.error.empty()) return "";
  return "the file name's part \"" + truncate_utf8(n.error_part, 64) + "\": " + n.error +
         (n.block_matmul ? "; a block-quantised matmul's tuned table is named " +
                               std::string(block_table_grammar())
                         : "; a tuned fused-MoE table is named " + std::string(kNameGrammar));
}

DecodedConfig decode_tuned_entry(const Value& v, const std::string& key, const TunedName& name,
                                 bool suggest) {
  DecodedConfig out;
  out.name = key;
  if (v.kind != Value::Kind::Object) {
    out.errors.push_back(
        {"",
         type_error(
             "an entry object {\"BLOCK_SIZE_M\": …, \"BLOCK_SIZE_N\": …, \"BLOCK_SIZE_K\": …, …}",
             v)});
    return out;
  }
  if (v.truncated) {
    out.errors.push_back({"", "entry too large: more than " + std::to_string(kMaxValuesPerConfig) +
                                  " JSON values (an entry has about 7); it was not read"});
    return out;
  }
  model::KernelConfig cfg;
  cfg.name = key;
  cfg.family = "triton_fused_moe";
  std::optional<long long> m, n, k;
  std::set<std::string> seen;
  auto number = [&](const std::string& field, const Value& x, std::int64_t hi,
                    std::string_view noun) -> std::optional<long long> {
    if (auto r = integer_in(x, 1, hi)) return *r;
    const std::string allowed = "integers 1.." + std::to_string(hi);
    out.errors.push_back({field, x.is_number() ? value_error(x, noun, allowed)
                                               : type_error("an integer", x, allowed)});
    return std::nullopt;
  };
  for (std::size_t i = 0; i < v.keys.size(); ++i) {
    const std::string& f = v.keys[i];
    const Value& x = v.items[i];
    const std::string field = truncate_utf8(f, 64);
    const auto& known = entry_field_names();
    if (std::find(known.begin(), known.end(), f) == known.end()) {
      std::string msg = "unknown field";
      if (auto s = suggest ? did_you_mean(f, known) : std::nullopt)
        msg += "; did you mean \"" + *s + "\"?";
      else
        msg += "; allowed: " + join_names(known);
      out.errors.push_back({field, msg});
      continue;
    }
    if (!seen.insert(f).second) {
      out.errors.push_back({field, "duplicate field (JSON keeps only one); give it once"});
      continue;
    }
    if (f == "BLOCK_SIZE_M") {
      m = number(f, x, model::kMaxTileExtent, "BLOCK_SIZE_M");
    } else if (f == "BLOCK_SIZE_N") {
      n = number(f, x, model::kMaxTileExtent, "BLOCK_SIZE_N");
    } else if (f == "BLOCK_SIZE_K") {
      k = number(f, x, model::kMaxTileExtent, "BLOCK_SIZE_K");
    } else if (f == "GROUP_SIZE_M") {
      if (auto g = number(f, x, model::kMaxTileExtent, "GROUP_SIZE_M")) cfg.group_m = *g;
    } else if (f == "num_warps") {
      if (auto w = number(f, x, 1024, "num_warps")) cfg.num_warps = static_cast<int>(*w);
    } else if (f == "num_stages") {
      if (auto s = number(f, x, model::kMaxStages, "num_stages")) cfg.stages = static_cast<int>(*s);
    } else {
      // SPLIT_K, USE_TMA, num_ctas and the AMD keys (decode_launch_key).
      std::string error;
      decode_launch_key(f, x, cfg, error);
      if (!error.empty()) out.errors.push_back({field, std::move(error)});
    }
  }
  for (const auto& [field, got] : {std::pair{"BLOCK_SIZE_M", &m}, std::pair{"BLOCK_SIZE_N", &n},
                                   std::pair{"BLOCK_SIZE_K", &k}}) {
    if (seen.count(field) == 0)
      out.errors.push_back(
          {field, "missing; every entry needs BLOCK_SIZE_M, BLOCK_SIZE_N and BLOCK_SIZE_K"});
  }
  if (!out.errors.empty()) return out;
  cfg.m = *m;
  cfg.n = *n;
  cfg.k = *k;
  // The quantisation comes from the file name (apply_moe_quant); what each quantisation runs
  // depends on the engine's release, which the model decides (the release can be pinned after
  // reading, --engine).
  using Quant = model::KernelConfig::TunedLaunch::Quant;
  apply_moe_quant(name.dtype, name.per_channel_quant, cfg);
  cfg.c = cfg.d = model::DType::BF16;
  if (name.block_matmul) {
    // Its quantisation, C, and its reader's BLOCK_SIZE_K (block_table_name.cpp).
    apply_block_table_name(name.dtype, name.block_shape, name.engine == model::Launcher::Sglang,
                           cfg);
  } else if (name.block_shape) {
    cfg.block_shape = name.block_shape;
    // vLLM's invoke_fused_moe_kernel: BLOCK_SIZE_K = min(BLOCK_SIZE_K, min(block_shape)) for
    // block-wise quantisation (000d1458; 6adad087 fused_moe.py:844-846, for every dtype with a
    // block shape). SGLang d6ef6888 passes the entry's BLOCK_SIZE_K unchanged
    // (fused_moe_triton_kernels.py:907-958 `**config`). Both of vLLM's releases clamp, so the
    // engine (not its release) decides it here.
    const long long bk = std::min((*name.block_shape)[0], (*name.block_shape)[1]);
    const bool clamps =
        name.engine != model::Launcher::Sglang &&
        (cfg.fp8_w8a8 || cfg.tuned.quant == Quant::Int8W8a8 || cfg.tuned.quant == Quant::Fp8W8a8);
    if (clamps && cfg.k > bk) {
      cfg.tuned_block_k = cfg.k;
      cfg.k = bk;
    }
  }
  cfg.tuned_device = name.device_name;
  cfg.triton_version = name.triton_version;
  cfg.engine = model::newest_release(name.engine);
  // The config fields this entry (and the table's name) set, for its Provenance.
  const auto give = [&out](std::string_view field) {
    if (const auto i = config_field_index(field)) out.given.set(*i);
  };
  give("kernel");  // a tuned table is vLLM's fused-MoE kernel's
  give("tile");
  if (seen.count("GROUP_SIZE_M")) give("group_m");
  if (seen.count("num_warps")) give("num_warps");
  if (seen.count("num_stages")) give("stages");
  // SPLIT_K, USE_TMA, num_ctas, the AMD keys and per_channel_quant: the config field "tuned".
  const auto& t = cfg.tuned;
  if (t.split_k || t.use_tma || t.num_ctas || t.waves_per_eu || t.matrix_instr_nonkdim || t.kpack ||
      t.per_channel_quant)
    give("tuned");
  if (!name.dtype.empty()) give("dtype");
  if (name.block_shape) give("block_shape");
  if (!name.triton_version.empty()) give("triton");
  give("engine");
  // What every front end checks (a block_shape from the file name is not bounded there).
  for (model::ConfigIssue& i : model::validate(cfg))
    out.errors.push_back({std::move(i.field), std::move(i.message)});
  if (!out.errors.empty()) return out;
  out.config = std::move(cfg);
  return out;
}

}  // namespace tilefit::io::detail
