#include "tilefit/model/kernel_text.hpp"

namespace tilefit::model {
namespace {

struct Entry {
  std::string_view name;
  std::string_view text;
};

constexpr Entry kTexts[] = {
#define TILEFIT_KERNEL_TEXT(code, keys, text) {#code, text},
#include "tilefit/model/kernel_texts.def"
#undef TILEFIT_KERNEL_TEXT
};

}  // namespace

std::string_view kernel_text_template(KernelText t) {
  return kTexts[static_cast<std::size_t>(t)].text;
}
std::string_view kernel_text_name(KernelText t) { return kTexts[static_cast<std::size_t>(t)].name; }

}  // namespace tilefit::model
