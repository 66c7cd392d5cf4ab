#include "tilefit/io/folder.hpp"

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <unordered_set>
#include <utility>

namespace tilefit::io {
namespace {

struct FileId {
  dev_t dev;
  ino_t ino;
  bool operator==(const FileId&) const = default;
};

struct FileIdHash {
  std::size_t operator()(const FileId& id) const {
    return std::hash<unsigned long long>()(static_cast<unsigned long long>(id.ino) * 1000003ULL ^
                                           static_cast<unsigned long long>(id.dev));
  }
};

class Walk {
 public:
  Walk(const std::function<void(FolderEntry&&)>& each, const FolderLimits& limits, std::string root)
      : each_(each), limits_(limits), root_(std::move(root)) {}

  void folder(const std::string& path, const FileId& id, std::size_t depth) {
    visited_.insert(id);
    ancestors_.push_back(id);
    DIR* d = ::opendir(path.c_str());
    if (d == nullptr) {
      error(path, std::string("cannot open the folder: ") + std::strerror(errno));
      ancestors_.pop_back();
      return;
    }
    std::vector<std::string> names;
    errno = 0;
    while (const dirent* e = ::readdir(d)) {
      const std::string_view n(e->d_name);
      if (n != "." && n != "..") names.emplace_back(n);
    }
    const int read_errno = errno;
    ::closedir(d);
    if (read_errno != 0)
      error(path, std::string("cannot read the folder: ") + std::strerror(read_errno));
    std::sort(names.begin(), names.end());
    for (const std::string& n : names) {
      if (counts_.stopped) break;
      item(path + "/" + n, depth);
    }
    ancestors_.pop_back();
  }

  FolderCounts counts() {
    if (counts_.more_errors > 0)
      each_({FolderEntry::Kind::error, root_,
             std::to_string(counts_.more_errors) + " more paths could not be walked (at most " +
                 std::to_string(limits_.max_errors) + " are listed per folder)"});
    return counts_;
  }

 private:
  /// `path` is an entry of a folder `depth` folders below the root.
  void item(const std::string& path, std::size_t depth) {
    if (++names_ > limits_.max_names) {
      counts_.stopped = true;
      each_({FolderEntry::Kind::error, root_,
             "the walk stopped after " + std::to_string(limits_.max_names) +
                 " names (the most one folder walk looks at); the files after " + path +
                 " are not checked: give the folders that hold the configs"});
      return;
    }
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) {
      const int e = errno;
      struct stat lst {};
      if (::lstat(path.c_str(), &lst) == 0 && S_ISLNK(lst.st_mode))
        error(path, e == ELOOP ? "symbolic link loop"
                               : "broken symbolic link: " + std::string(std::strerror(e)));
      else
        error(path, std::string("cannot read: ") + std::strerror(e));
      return;
    }
    const FileId id{st.st_dev, st.st_ino};
    if (S_ISDIR(st.st_mode)) {
      if (std::find(ancestors_.begin(), ancestors_.end(), id) != ancestors_.end()) {
        error(path, "symbolic link loop: it leads back to a folder that contains it");
        return;
      }
      if (!visited_.insert(id).second) {
        ++counts_.seen_before;
        return;
      }
      if (depth + 1 > limits_.max_depth) {
        error(path, "not walked: more than " + std::to_string(limits_.max_depth) +
                        " folders deep (the most one folder walk goes)");
        return;
      }
      folder(path, id, depth + 1);
      return;
    }
    if (!S_ISREG(st.st_mode)) {
      ++counts_.not_regular;
      return;
    }
    if (!is_json_name(path)) {
      ++counts_.not_json;
      return;
    }
    if (!visited_.insert(id).second) {
      ++counts_.seen_before;
      return;
    }
    if (std::string why = not_triton_table(path); !why.empty())
      each_({FolderEntry::Kind::skipped, path, std::move(why)});
    else
      each_({FolderEntry::Kind::json, path, ""});
  }

  void error(const std::string& path, std::string message) {
    if (errors_++ >= limits_.max_errors) {
      ++counts_.more_errors;
      return;
    }
    each_({FolderEntry::Kind::error, path, std::move(message)});
  }

  const std::function<void(FolderEntry&&)>& each_;
  const FolderLimits& limits_;
  std::string root_;
  FolderCounts counts_;
  std::size_t names_ = 0;
  std::size_t errors_ = 0;
  std::vector<FileId> ancestors_;                   ///< the folders being walked, outermost first
  std::unordered_set<FileId, FileIdHash> visited_;  ///< every folder and JSON file walked
};

}  // namespace

bool is_json_name(std::string_view path) {
  const std::size_t slash = path.find_last_of('/');
  const std::string_view name = slash == std::string_view::npos ? path : path.substr(slash + 1);
  constexpr std::string_view kJson = ".json";
  return name.size() > kJson.size() && name.substr(name.size() - kJson.size()) == kJson;
}

bool is_tuned_table_name(std::string_view path) {
  if (!is_json_name(path)) return false;
  const std::size_t slash = path.find_last_of('/');
  const std::string_view name = slash == std::string_view::npos ? path : path.substr(slash + 1);
  return name.starts_with("E=") || name.starts_with("N=");
}

std::string not_triton_table(std::string_view path) {
  if (!is_tuned_table_name(path)) return "";
  const std::size_t slash = path.find_last_of('/');
  std::string_view name = slash == std::string_view::npos ? path : path.substr(slash + 1);
  name.remove_suffix(5);  // ".json"
  // vLLM's Intel XPU tables: device_name is what vLLM's XPU platform reports
  // (torch.xpu.get_device_name(), spaces as "_": "Intel(R)_Arc(TM)_Pro_B70_Graphics"); their
  // entries carry "grf_mode" (the register file mode of Triton's Intel XPU backend) and some a
  // "triton_version" of that backend (3.8.0).
  constexpr std::string_view kDevice = ",device_name=";
  if (const std::size_t d = name.find(kDevice); d != std::string_view::npos) {
    std::string_view device = name.substr(d + kDevice.size());
    device = device.substr(0, device.find(','));
    if (device.starts_with("Intel"))
      return "a vLLM Intel XPU table (device_name=" + std::string(device) +
             ": entries with grf_mode, for Triton's Intel XPU backend), not an NVIDIA or AMD "
             "target: not modelled";
  }
  constexpr std::string_view kPart = ",backend=";
  const std::size_t at = name.find(kPart);
  if (at == std::string_view::npos) return "";
  std::string_view backend = name.substr(at + kPart.size());
  backend = backend.substr(0, backend.find(','));
  if (backend == "flydsl")
    return "a vLLM backend=flydsl table (FlyDSL's own MoE kernel: tile_m, tile_n, tile_k, "
           "tile_n2, tile_k2; fused_flydsl_moe.py), not Triton configs: not modelled";
  return "a backend=" + std::string(backend) +
         " table: not Triton configs (only vLLM's and SGLang's Triton tables are modelled)";
}

bool is_folder(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

FolderCounts walk_folder(const std::string& dir, const std::function<void(FolderEntry&&)>& each,
                         const FolderLimits& limits) {
  std::string root = dir;
  while (root.size() > 1 && root.back() == '/') root.pop_back();
  struct stat st {};
  if (::stat(root.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    each({FolderEntry::Kind::error, root, "not a folder"});
    return {};
  }
  Walk walk(each, limits, root);
  walk.folder(root, FileId{st.st_dev, st.st_ino}, 0);
  return walk.counts();
}

std::vector<FolderEntry> list_folder(const std::string& dir, const FolderLimits& limits) {
  std::vector<FolderEntry> out;
  walk_folder(
      dir, [&out](FolderEntry&& f) { out.push_back(std::move(f)); }, limits);
  return out;
}

}  // namespace tilefit::io
