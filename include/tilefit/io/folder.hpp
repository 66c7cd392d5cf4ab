// The files of a folder that `tilefit check DIR` reads: every vLLM/SGLang tuned table under it,
// recursively, in a stable order (each folder's entries sorted by name, byte-wise, depth first),
// with what it skips and what it cannot read.
//
//   for (const io::FolderEntry& f : io::list_folder("vllm/model_executor/layers/fused_moe"))
//     ... f.kind: table (read it), skipped (a note), error (a one-line error naming f.path)
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace tilefit::io {

/// One file (or a folder that cannot be walked) under a listed folder.
struct FolderEntry {
  enum class Kind {
    table,    ///< a tuned table by its name: read it
    skipped,  ///< not a tuned table by its name (README, .md, other JSON), or not a regular file
    error,    ///< cannot be walked or read: a symbolic link loop, a broken link, no permission
  };
  Kind kind = Kind::table;
  std::string path;     ///< the folder as given, '/', the names below it
  std::string message;  ///< skipped and error: why ("not a tuned table", "symbolic link loop…")
};

/// True when a file name (the last part of `path`) is a tuned table's: it ends in ".json" and
/// begins "E=" (the fused-MoE grammar, vLLM fused_moe.py get_config_file_name) or "N=" (the
/// block-quantised matmul grammar, vLLM fp8_utils.py / int8_utils.py "N={N},K={K},…"). The
/// reader then decides, with its errors: a name that begins so but does not parse is an input
/// error naming the part, not a skipped file.
bool is_tuned_table_name(std::string_view path);

/// A file named like a tuned table that holds no Triton configs: vLLM's FlyDSL MoE tables
/// ("E=…,N=…,device_name=…,dtype=int4_w4a16,backend=flydsl.json", read by vLLM 6adad087
/// fused_moe/fused_flydsl_moe.py:114-131 try_get_optimal_config, entries of tile_m, tile_n,
/// tile_k, tile_n2, tile_k2 for FlyDSL's own kernel). Returns why it is skipped (one line for
/// the note), "" for any other name. `tilefit check` skips such files, in a folder or named,
/// and counts them with the other skipped files.
std::string not_triton_table(std::string_view path);

/// Every entry under folder `dir`, recursively: symbolic links are followed; a link that leads
/// back to a folder being walked is one error (and is not followed), so is a broken link and a
/// folder or file that cannot be opened; the rest goes on.
std::vector<FolderEntry> list_folder(const std::string& dir);

/// True when `path` names a folder (following symbolic links).
bool is_folder(const std::string& path);

}  // namespace tilefit::io
