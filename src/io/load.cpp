#include "tilefit/io/load.hpp"

#include <optional>
#include <utility>
#include <variant>

#include "io/file_input.hpp"
#include "io/config_reader.hpp"
#include "io/text_checks.hpp"
#include "tilefit/io/config_writer.hpp"

namespace tilefit::io {
namespace {

/// A source's text and label, or the file-level error that stands for it.
struct Resolved {
  std::string owned;      ///< the bytes read (file) or built (kernel names)
  std::string_view text;  ///< what to parse: `owned`, or a text source's own body
  std::string label;
  std::optional<ConfigError> failure;
};

Resolved resolve(const Source& s) {
  Resolved r;
  switch (s.kind) {
    case Source::Kind::text:
      r.text = s.body;
      r.label = s.label;
      return r;
    case Source::Kind::kernel_names:
      // The names as a configs array of strings: each is read as a kernel name, by the same
      // reader and with the same errors as a name in a file.
      r.owned.assign(1, '[');
      for (std::size_t i = 0; i < s.names.size(); ++i) {
        if (i) r.owned += ",";
        append_json_string(r.owned, s.names[i]);
      }
      r.owned += "]";
      r.text = r.owned;
      r.label = "--name";
      return r;
    case Source::Kind::file:
      break;
  }
  // A path that is not printable UTF-8 (legal on Linux) is named with visible escapes: the
  // label goes into JSON and tables, which take only UTF-8.
  r.label = s.path == "-" ? "<stdin>" : detail::printable(s.path);
  auto input = detail::read_input(s.path);
  if (auto* failure = std::get_if<detail::ReadFailure>(&input)) {
    r.failure = ConfigError{r.label, -1, "", "", std::move(failure->message)};
    return r;
  }
  r.owned = std::move(std::get<std::string>(input));
  r.text = r.owned;
  return r;
}

template <class Want, class Parse>
Want load_with(const Source& source, Parse parse) {
  Resolved r = resolve(source);
  if (r.failure) {
    Want w;
    w.errors.push_back(std::move(*r.failure));
    return w;
  }
  return parse(r.text, r.label);
}

}  // namespace

Source Source::file(std::string path) {
  Source s;
  s.kind = Kind::file;
  s.path = std::move(path);
  return s;
}

Source Source::text(std::string_view body, std::string label) {
  Source s;
  s.kind = Kind::text;
  s.body = body;
  s.label = std::move(label);
  return s;
}

Source Source::kernel_names(std::vector<std::string> names) {
  Source s;
  s.kind = Kind::kernel_names;
  s.names = std::move(names);
  return s;
}

template <>
LoadResult load<LoadResult>(const Source& source) {
  return load_with<LoadResult>(source, detail::parse_configs);
}

template <>
SpaceLoad load<SpaceLoad>(const Source& source) {
  return load_with<SpaceLoad>(source, detail::parse_spaces);
}

std::vector<ConfigError> stream(const Source& source,
                                const std::function<void(LoadedConfig&&)>& each) {
  Resolved r = resolve(source);
  if (r.failure) return {std::move(*r.failure)};
  return detail::stream_configs(r.text, r.label, each);
}

}  // namespace tilefit::io
