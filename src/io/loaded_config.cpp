#include "tilefit/io/loaded_config.hpp"

#include <utility>

#include "tilefit/io/vocabulary.hpp"

namespace tilefit::io {

bool Provenance::gave(std::string_view field) const {
  const std::optional<std::size_t> i = config_field_index(field);
  return i && given.test(*i);
}

bool Provenance::varies(std::string_view field) const {
  const std::optional<std::size_t> i = config_field_index(field);
  return i && alternatives.test(*i);
}

void Provenance::give(std::string_view field, bool alternative) {
  const std::optional<std::size_t> i = config_field_index(field);
  if (!i) return;
  given.set(*i);
  if (alternative) alternatives.set(*i);
}

ConfigError Provenance::error(std::string config_name, std::string field,
                              std::string message) const {
  return {file, index, std::move(config_name), std::move(field), std::move(message)};
}

std::string_view origin_name(Provenance::Origin o) {
  switch (o) {
    case Provenance::Origin::file:
      return "file";
    case Provenance::Origin::tuned_entry:
      return "tuned_entry";
    case Provenance::Origin::kernel_name:
      return "kernel_name";
    case Provenance::Origin::sweep_alternative:
      return "sweep_alternative";
    case Provenance::Origin::api:
      return "api";
  }
  return "?";
}

}  // namespace tilefit::io
