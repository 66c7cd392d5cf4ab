#include "tilefit/report/csv.hpp"

#include "report/text.hpp"

#include <charconv>

#include "tilefit/io/config_writer.hpp"
#include "tilefit/model/arch.hpp"

namespace tilefit::report {
namespace {

void num(std::string& out, long long v) {
  char buf[24];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, r.ptr);
}

void opt(std::string& out, const std::optional<model::Bytes>& v) {
  if (v) num(out, *v);
}

}  // namespace

void append_csv_field(std::string& out, std::string_view field) {
  bool quote = false;
  for (const char c : field)
    if (c == ',' || c == '"' || c == '\r' || c == '\n') {
      quote = true;
      break;
    }
  if (!quote) {
    out += field;
    return;
  }
  // One pass into room for the worst case (every character a quote), then trim.
  const std::size_t at = out.size();
  out.resize(at + 2 * field.size() + 2);
  char* p = out.data() + at;
  *p++ = '"';
  for (const char c : field) {
    if (c == '"') *p++ = '"';
    *p++ = c;
  }
  *p++ = '"';
  out.resize(static_cast<std::size_t>(p - out.data()));
}

std::string_view csv_header() {
  return "name,file,index,arch,kernel,tile,stages,auto_stages,max_stages,max_stages_smem_bytes,"
         "smem_bytes,limit_bytes,headroom_bytes,ctas_per_sm,status,epilogue_smem,mainloop_smem,"
         "target,config\n";
}

void append_csv_row(std::string& out, const analysis::Entry& e) {
  append_csv_row(out, e, io::config_json_csv(e.config), /*quoted=*/true);
}

void append_csv_row(std::string& out, const analysis::Entry& e, std::string_view config, bool quoted) {
  const model::Result& r = e.result;
  append_csv_field(out, csv_text(r.name));
  out += ',';
  append_csv_field(out, csv_text(e.file));
  out += ',';
  num(out, e.index);
  out += ',';
  out += model::arch_name(r.arch);
  out += ',';
  out += r.family;
  out += ',';
  num(out, e.config.m);
  out += 'x';
  num(out, e.config.n);
  out += 'x';
  num(out, e.config.k);
  out += ',';
  num(out, r.stages);
  out += r.auto_stages ? ",true," : ",false,";
  num(out, r.max_stages);
  out += ',';
  opt(out, r.max_stages_smem);
  out += ',';
  opt(out, r.smem_bytes);
  out += ',';
  num(out, r.limit_bytes);
  out += ',';
  opt(out, r.headroom_bytes);
  out += ',';
  num(out, r.ctas_per_sm);
  out += ',';
  out += model::status_name(r.status);
  out += ',';
  opt(out, r.epilogue_smem);
  out += ',';
  opt(out, r.mainloop_smem);
  out += ',';
  if (e.target.source == analysis::Target::Source::device) {
    out += "device ";
    num(out, e.target.device);
  } else {
    out += "builtin";
  }
  out += ',';
  if (quoted)
    out += config;
  else
    append_csv_field(out, config);
  out += '\n';
}

}  // namespace tilefit::report
