#include "report/api_json.hpp"

#include "report/json_fields.hpp"
#include "report/result_columns.hpp"
#include "report/suggest_columns.hpp"
#include "tilefit/report/check_report.hpp"

namespace tilefit::report::api {

void append_result(std::string& out, const analysis::Entry& e, Profile profile) {
  emit::JsonText o(out, 0, /*pretty=*/false);
  o.begin_object();
  write_members(o, result_columns(), e, profile);
  o.end();
}

void append_error(std::string& out, const analysis::Problem& p) {
  const std::string members = problem_json(p).dump();  // {"kind":...}
  out += R"({"status":"error",)";
  out.append(members, 1, std::string::npos);
}

void append_target(std::string& out, const analysis::Target& t) {
  emit::JsonText o(out, 0, /*pretty=*/false);
  emit::target(o, t);
}

void append_check(std::string& out, const analysis::CheckRun& run, const analysis::Tally& tally,
                  Profile profile) {
  nlohmann::ordered_json j = to_json(run, tally);
  if (profile == Profile::verdict) {
    nlohmann::ordered_json results = nlohmann::ordered_json::array();
    for (const analysis::Entry& e : run.entries) {
      emit::JsonTree t;
      t.begin_object();
      write_members(t, result_columns(), e, profile);
      t.end();
      results.push_back(t.take());
    }
    j["results"] = std::move(results);
  }
  out += j.dump();
}

void append_suggestions(std::string& out, const analysis::Entry& e,
                        const std::vector<analysis::Suggestion>& found) {
  emit::JsonText o(out, 0, /*pretty=*/false);
  o.begin_array();
  for (std::size_t k = 0; k < found.size(); ++k) {
    o.begin_object();
    write_members(o, suggest_columns(), SuggestRow{e, found[k], k + 1});
    o.end();
  }
  o.end();
}

}  // namespace tilefit::report::api
