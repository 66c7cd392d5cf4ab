// Streams the configs of a config file out of its JSON text, one at a time.
//
// The text is parsed with nlohmann's SAX interface (iterative: no recursion however deep the
// input). Only the value being delivered is held as a tree (json_value.hpp), so memory does not
// grow with the number of configs beyond what the caller keeps. Each config tree is capped at
// kMaxValuesPerConfig values, the nesting at kMaxJsonDepth levels and the array at
// kMaxConfigsPerFile configs.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "io/json_value.hpp"
#include "tilefit/io/input_limits.hpp"

namespace tilefit::io::detail {

/// Receives the parts of the document as they complete, in file order.
class StreamSink {
 public:
  virtual ~StreamSink() = default;
  /// Element `index` of the configs array. `too_large`: it had more than kMaxValuesPerConfig
  /// values; `v` then holds only the first ones.
  virtual void on_config(std::size_t index, Value&& v, bool too_large) = 0;
  /// A member of the top-level object other than the (first) "configs" array: `v` is
  /// kept up to kMaxValuesPerConfig values (`v.truncated` when cut): a tuned table's entries are
  /// top-level members.
  /// `duplicate`: the key appeared before.
  virtual void on_top_field(const std::string& key, Value&& v, bool duplicate) = 0;
};

/// How the parse ended.
struct StreamOutcome {
  enum class Failure { None, Syntax, TooDeep, TooManyConfigs };
  Failure failure = Failure::None;
  std::size_t position = 0;    ///< Syntax: bytes read when the parser stopped
  std::string parser_message;  ///< Syntax: nlohmann's exception text
  int parser_error_id = 0;     ///< Syntax: nlohmann's exception id (101 syntax, 406 overflow, ...)

  enum class Top { Object, Array, Scalar };
  Top top = Top::Scalar;
  Value top_scalar;                 ///< Top::Scalar: the document's value
  bool configs_array_seen = false;  ///< Top::Object: a "configs" member that is an array
  std::size_t configs = 0;          ///< configs delivered
};

/// Parses `text` (UTF-8 JSON, no byte-order mark) and feeds `sink`.
/// `max_values`: the cap on one config's values (kMaxValuesPerConfig; larger for sweep spaces).
StreamOutcome stream_configs(std::string_view text, StreamSink& sink,
                             std::size_t max_values = kMaxValuesPerConfig);

}  // namespace tilefit::io::detail
