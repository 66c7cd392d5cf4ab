// The configs reader behind io::load (tilefit/io/load.hpp): the text of one config file, already
// read and labelled, into configs. Sources (files, standard input, kernel names) are resolved
// once, in load.cpp; the sweep spaces' reader is detail::parse_spaces (tilefit/io/space.hpp).
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "tilefit/io/config_error.hpp"
#include "tilefit/io/loaded_config.hpp"

namespace tilefit::io::detail {

LoadResult parse_configs(std::string_view text, const std::string& file_label);
std::vector<ConfigError> stream_configs(std::string_view text, const std::string& file_label,
                                        const std::function<void(LoadedConfig&&)>& each);

}  // namespace tilefit::io::detail
