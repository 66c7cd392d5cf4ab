// How a report writes a verdict: "fits", "DOES NOT FIT", "INVALID" (src/report/verdict_text.cpp).
#pragma once

#include <string>

#include "tilefit/model/result.hpp"

namespace tilefit::report {

/// "fits", "DOES NOT FIT", "INVALID".
std::string verdict_text(model::Status s);

}  // namespace tilefit::report
