// Spaces of configs for `tilefit sweep` (read through io::load<SpaceLoad>, tilefit/io/load.hpp): any field of a config may hold an array of alternatives,
// and the cartesian product is the space. `tile` may also be {"m": [...], "n": [...], "k": [...]}
// or a list of tiles:
//
//   {"name": "moe", "arch": "sm120", "dtype": "nvfp4", "grouped": true,
//    "tile": {"m": [128, 256], "n": [64, 128, 256], "k": [128, 256]},
//    "epilogue": ["trtllm_default", "finalize"], "swap_ab": [false, true], "stages": ["auto", 2, 3]}
//
// is 2·3·2 tiles × 2 × 2 × 3 = 288 candidates, named "moe@0" … "moe@287" (the last field varies
// fastest). Every alternative is read once, by the same decoder as `check`; a candidate is then a
// copy of an already-read config with the varying fields set, so a space of a million
// candidates costs about as much memory as its alternatives.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tilefit/io/config_error.hpp"
#include "tilefit/io/loaded_config.hpp"
#include "tilefit/model/config.hpp"

namespace tilefit::io {

/// The most candidates one config may span; a larger space is refused, unread, with its size.
inline constexpr std::uint64_t kMaxCandidates = 100'000'000;

/// One config of a sweep file, with the alternatives of its varying fields.
class ConfigSpace {
 public:
  /// A varying field: its name and how each alternative is written in the file (compact JSON).
  struct Axis {
    std::string field;
    std::vector<std::string> shown;
  };

  std::string file;
  int index = 0;     ///< position in the file's configs array
  std::string name;  ///< the config's name, or "#<index>"
  bool arch_given = false;

  /// Number of candidates (the product of the axes' sizes; 1 without axes).
  std::uint64_t size() const { return size_; }
  const std::vector<Axis>& axes() const { return axes_; }

  /// Candidate `i` (< size()): the concrete config, named "<name>@<i>" (the name alone when the
  /// space has one candidate).
  void candidate(std::uint64_t i, model::KernelConfig& out) const;
  /// The alternative each axis takes in candidate `i`.
  std::vector<std::size_t> choice(std::uint64_t i) const;

  /// Where the space came from (a config object, a kernel name, a tuned-table entry) and the
  /// fields it set; candidates of a space of several are sweep alternatives (provenance()).
  Provenance from;
  /// Candidate `i`'s provenance: `from`, as Origin::sweep_alternative keyed "<name>@<i>" when the
  /// space has more than one candidate.
  Provenance provenance(std::uint64_t i) const;

  /// A space of one candidate: a config already read (an entry of a vLLM/SGLang tuned table).
  static ConfigSpace single(const LoadedConfig& c);

 private:
  friend class SpaceBuilder;
  /// How one independent axis sets its alternative on a config.
  struct Setter {
    std::size_t axis;                          ///< index into axes_
    std::vector<model::KernelConfig> decoded;  ///< the config with each alternative applied
    void (*apply)(model::KernelConfig& to, const model::KernelConfig& from);
  };
  std::vector<Axis> axes_;
  std::vector<std::uint64_t> stride_;        ///< candidate index weight of each axis
  std::vector<std::size_t> coupled_;         ///< axes read together (their product is decoded)
  std::vector<model::KernelConfig> combos_;  ///< one decoded config per coupled combination
  std::vector<Setter> setters_;
  std::uint64_t size_ = 1;
};

struct SpaceLoad {
  std::vector<ConfigSpace> spaces;  ///< the configs without errors, in file order
  std::vector<ConfigError> errors;  ///< every error, in file order
};

namespace detail {
/// The text of one sweep file, already read and labelled, as spaces: what io::load<SpaceLoad>
/// (tilefit/io/load.hpp) calls once it has resolved its Source. Not for direct use.
SpaceLoad parse_spaces(std::string_view text, const std::string& file_label);
}  // namespace detail

}  // namespace tilefit::io
