// The files of a folder that `tilefit check DIR` reads: every JSON file under it (by its name:
// "*.json"), recursively, in a stable order (each folder's entries sorted by name, byte-wise,
// depth first), each real file and folder once, within bounds; the rest is counted.
//
//   io::FolderCounts n = io::walk_folder("kernels", [](io::FolderEntry&& f) {
//     ... f.kind: json (read it: the reader decides whether it is a config file, a tuned table or
//         a list of CUTLASS kernel names), skipped (a note: a table of another backend),
//         error (a one-line error naming f.path)
//   });
//   ... n.not_json, n.not_regular, n.seen_before: what was not read, for one summary note
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace tilefit::io {

/// One file (or a folder that cannot be walked) under a walked folder.
struct FolderEntry {
  enum class Kind {
    json,     ///< a JSON file by its name (*.json): read it as what it is
    skipped,  ///< a JSON file that holds no configs tilefit models (not_triton_table): a note
    error,    ///< cannot be walked or read: a symbolic link loop, a broken link, no permission,
              ///< a folder past the walk's bounds
  };
  Kind kind = Kind::json;
  std::string path;     ///< the folder as given, '/', the names below it
  std::string message;  ///< skipped and error: why ("a vLLM backend=flydsl table…", "symbolic…")
};

/// The bounds of one folder walk. A link to a large tree (`ln -s / root`) or a folder nested
/// without end stops at them, with an error naming where: the walk never runs unbounded.
struct FolderLimits {
  /// Folders below the given one that are walked; a folder deeper is one error, not walked.
  std::size_t max_depth = 64;
  /// Names looked at (files, folders, links: each one stat) in one walk; the first name past it
  /// is one error and the walk ends there.
  std::size_t max_names = 1'000'000;
  /// Errors listed per walk; the rest are counted in one more error line.
  std::size_t max_errors = 100;
};

/// What a walk did not read, for the one summary note (never a line per file).
struct FolderCounts {
  std::size_t not_json = 0;     ///< regular files whose name does not end in ".json"
  std::size_t not_regular = 0;  ///< sockets, pipes, devices
  std::size_t seen_before = 0;  ///< paths to a file or folder walked already (links, hard links)
  std::size_t more_errors = 0;  ///< errors past FolderLimits::max_errors (one line says how many)
  bool stopped = false;         ///< the walk ended at FolderLimits::max_names
  /// Every file not read: not JSON, not regular, reached twice, or a skipped entry.
  std::size_t skipped_files(std::size_t skipped_entries) const {
    return not_json + not_regular + seen_before + skipped_entries;
  }
};

/// True when a file name (the last part of `path`) is a tuned table's: it ends in ".json" and
/// begins "E=" (the fused-MoE grammar, vLLM fused_moe.py get_config_file_name) or "N=" (the
/// block-quantised matmul grammar, vLLM fp8_utils.py / int8_utils.py "N={N},K={K},…"). The
/// reader then decides, with its errors: a name that begins so but does not parse is an input
/// error naming the part, not a skipped file.
bool is_tuned_table_name(std::string_view path);

/// True when a file name (the last part of `path`) ends in ".json": a folder walk reads it.
bool is_json_name(std::string_view path);

/// A file named like a tuned table that holds no configs tilefit models: vLLM's FlyDSL MoE
/// tables ("E=…,N=…,device_name=…,dtype=int4_w4a16,backend=flydsl.json", read by vLLM 6adad087
/// fused_moe/fused_flydsl_moe.py:114-131 try_get_optimal_config, entries of tile_m, tile_n,
/// tile_k, tile_n2, tile_k2 for FlyDSL's own kernel), tables of another backend, and vLLM's
/// Intel XPU tables ("E=…,N=…,device_name=Intel(R)_Arc(TM)_….json": the device name vLLM's XPU
/// platform reports, entries with "grf_mode" and a "triton_version" of Intel's Triton backend,
/// 3.8.0). Returns why it is skipped (one line for the note), "" for any other name.
/// `tilefit check` skips such files, in a folder or named, and counts them with the other
/// skipped files.
std::string not_triton_table(std::string_view path);

/// Walks folder `dir` (FolderLimits bound it) and hands each JSON file, skipped table and error to
/// `each` as it is found: memory holds the walk's path and the identities (device, inode) of what
/// it visited, never the list of files. Symbolic links are followed; each real file and folder is
/// visited once (a second path to it is counted in seen_before); a link that leads back to a
/// folder being walked is one error (and is not followed), so is a broken link and a folder or
/// file that cannot be opened; the rest goes on.
FolderCounts walk_folder(const std::string& dir, const std::function<void(FolderEntry&&)>& each,
                         const FolderLimits& limits = {});

/// walk_folder's entries, collected (tests and small folders).
std::vector<FolderEntry> list_folder(const std::string& dir, const FolderLimits& limits = {});

/// True when `path` names a folder (following symbolic links).
bool is_folder(const std::string& path);

}  // namespace tilefit::io
