#include "cli/command_options.hpp"

namespace tilefit::cli {

void add_input_options(CLI::App& sub, InputOptions& opt, const std::string& files_help,
                       const std::string& name_help) {
  sub.add_option("files", opt.files, files_help);
  sub.add_option("--name", opt.names, name_help);
  add_target_options(sub, opt.target);
}

void add_format_option(CLI::App& sub, std::string& format, const std::string& help,
                       const std::vector<std::string>& choices) {
  sub.add_option("--format", format, help)->check(CLI::IsMember(choices));
}

void require_inputs(const InputOptions& opt, const std::string& what, CliContext& ctx) {
  if (opt.files.empty() && opt.names.empty())
    throw CommandError(kExitInput,
                       "no configs: give " + what + " (or - for standard input) or --name NAME");
  check_input_paths(opt.files, ctx);
}

int exit_code_of(const analysis::Problem& p) {
  return p.kind == analysis::Problem::Kind::device ? kExitDevice : kExitInput;
}

void report_problems(const std::vector<analysis::Problem>& problems, CliContext& ctx) {
  for (const analysis::Problem& p : problems) ctx.error(analysis::problem_text(p), exit_code_of(p));
}

void register_listing(CLI::App& app, Command& cmd, const std::string& name, const std::string& help,
                      std::string (*text)(), nlohmann::ordered_json (*json)()) {
  auto* sub = app.add_subcommand(name, help);
  auto format = std::make_shared<std::string>("table");
  add_format_option(*sub, *format, "table or json", {"table", "json"});
  sub->callback([format, text, json, &cmd] {
    cmd = [format, text, json](CliContext& ctx) {
      if (*format == "json") {
        Output::report_closed_pipes();
        ctx.out.write(json().dump(2) + "\n");
      } else {
        ctx.out.write(text());
      }
    };
  });
}

}  // namespace tilefit::cli
