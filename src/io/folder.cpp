#include "tilefit/io/folder.hpp"

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

namespace tilefit::io {
namespace {

struct FileId {
  dev_t dev;
  ino_t ino;
  bool operator==(const FileId&) const = default;
};

class Walk {
 public:
  explicit Walk(std::vector<FolderEntry>& out) : out_(out) {}

  void folder(const std::string& path, const FileId& id) {
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
    for (const std::string& n : names) item(path + "/" + n);
    ancestors_.pop_back();
  }

 private:
  void item(const std::string& path) {
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
    if (S_ISDIR(st.st_mode)) {
      const FileId id{st.st_dev, st.st_ino};
      if (std::find(ancestors_.begin(), ancestors_.end(), id) != ancestors_.end()) {
        error(path, "symbolic link loop: it leads back to a folder that contains it");
        return;
      }
      folder(path, id);
      return;
    }
    if (!S_ISREG(st.st_mode)) {
      out_.push_back({FolderEntry::Kind::skipped, path, "not a regular file"});
      return;
    }
    if (std::string why = not_triton_table(path); !why.empty())
      out_.push_back({FolderEntry::Kind::skipped, path, std::move(why)});
    else if (is_tuned_table_name(path))
      out_.push_back({FolderEntry::Kind::table, path, ""});
    else
      out_.push_back({FolderEntry::Kind::skipped, path, "not a tuned table"});
  }

  void error(const std::string& path, std::string message) {
    out_.push_back({FolderEntry::Kind::error, path, std::move(message)});
  }

  std::vector<FolderEntry>& out_;
  std::vector<FileId> ancestors_;  ///< the folders being walked, outermost first
};

}  // namespace

bool is_tuned_table_name(std::string_view path) {
  const std::size_t slash = path.find_last_of('/');
  const std::string_view name = slash == std::string_view::npos ? path : path.substr(slash + 1);
  constexpr std::string_view kJson = ".json";
  if (name.size() <= kJson.size() || name.substr(name.size() - kJson.size()) != kJson) return false;
  return name.starts_with("E=") || name.starts_with("N=");
}

std::string not_triton_table(std::string_view path) {
  if (!is_tuned_table_name(path)) return "";
  const std::size_t slash = path.find_last_of('/');
  std::string_view name = slash == std::string_view::npos ? path : path.substr(slash + 1);
  name.remove_suffix(5);  // ".json"
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

std::vector<FolderEntry> list_folder(const std::string& dir) {
  std::vector<FolderEntry> out;
  std::string root = dir;
  while (root.size() > 1 && root.back() == '/') root.pop_back();
  struct stat st {};
  if (::stat(root.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    out.push_back({FolderEntry::Kind::error, root, "not a folder"});
    return out;
  }
  Walk(out).folder(root, FileId{st.st_dev, st.st_ino});
  return out;
}

}  // namespace tilefit::io
