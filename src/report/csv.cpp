#include "tilefit/report/csv.hpp"

#include <charconv>

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
  if (field.find_first_of(",\"\r\n") == std::string_view::npos) {
    out += field;
    return;
  }
  out += '"';
  for (const char c : field) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
}

std::string_view csv_header() {
  return "name,file,index,arch,kernel,tile,stages,auto_stages,max_stages,max_stages_smem_bytes,"
         "smem_bytes,limit_bytes,headroom_bytes,ctas_per_sm,status,epilogue_smem,mainloop_smem,"
         "target,config\n";
}

void append_csv_row(std::string& out, const analysis::Entry& e, std::string_view config) {
  const model::Result& r = e.result;
  append_csv_field(out, r.name);
  out += ',';
  append_csv_field(out, e.file);
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
  append_csv_field(out, config);
  out += '\n';
}

}  // namespace tilefit::report
