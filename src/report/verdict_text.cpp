#include "tilefit/report/verdict_text.hpp"

namespace tilefit::report {

std::string verdict_text(model::Status s) {
  switch (s) {
    case model::Status::Fits:
      return "fits";
    case model::Status::DoesNotFit:
      return "DOES NOT FIT";
    case model::Status::Invalid:
      return "INVALID";
  }
  return "?";
}

}  // namespace tilefit::report
