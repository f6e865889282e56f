#include "catalogd/loader/confined_file_system.h"

#include <filesystem>

#include <glog/logging.h>

namespace ics::catalog {

namespace fs = std::filesystem;

namespace {

// `path` (made absolute against the working directory) with its existing
// prefix's symlinks resolved and dot segments gone; empty when it cannot be
// resolved (then it is treated as outside).
std::string Resolve(const std::string& path) {
  if (path.empty()) return "";
  std::error_code ec;
  fs::path p = fs::weakly_canonical(fs::absolute(fs::path(path), ec), ec);
  if (ec) return "";
  std::string s = p.lexically_normal().string();
  while (s.size() > 1 && s.back() == '/') s.pop_back();
  return s;
}

}  // namespace

Result<std::unique_ptr<ConfinedFileSystem>> ConfinedFileSystem::Create(
    std::unique_ptr<FileSystem> inner, std::vector<std::string> roots) {
  if (roots.empty()) return Status::InvalidArgument("at least one data root is required");
  std::vector<std::string> resolved;
  for (const std::string& r : roots) {
    if (r.empty()) return Status::InvalidArgument("a data root is empty");
    ICS_RETURN_IF_ERROR(inner->CreateDirectories(r));
    std::string c = Resolve(r);
    if (c.empty() || c == "/") {
      return Status::InvalidArgument("data root '" + r + "' cannot be used (resolves to '" + c +
                                     "')");
    }
    resolved.push_back(std::move(c));
  }
  return std::unique_ptr<ConfinedFileSystem>(
      new ConfinedFileSystem(std::move(inner), std::move(resolved)));
}

bool ConfinedFileSystem::MayModify(const std::string& path) const {
  const std::string p = Resolve(path);
  if (p.empty()) return false;
  for (const std::string& root : roots_) {
    if (p.size() > root.size() + 1 && p.compare(0, root.size(), root) == 0 &&
        p[root.size()] == '/') {
      return true;
    }
  }
  return false;
}

Result<std::vector<FileStatus>> ConfinedFileSystem::ListFiles(const std::string& dir) {
  return inner_->ListFiles(dir);
}

Result<std::vector<std::string>> ConfinedFileSystem::ListSubdirectories(const std::string& dir) {
  return inner_->ListSubdirectories(dir);
}

Result<bool> ConfinedFileSystem::Exists(const std::string& path) { return inner_->Exists(path); }

Status ConfinedFileSystem::CreateDirectories(const std::string& path) {
  if (MayModify(path)) return inner_->CreateDirectories(path);
  std::error_code ec;
  if (fs::is_directory(path, ec)) return Status::OK();  // someone else's existing directory
  return Status::InvalidArgument("location '" + path +
                                 "' is outside catalogd's data roots (--data_roots) and does not "
                                 "exist; catalogd creates directories only under its data roots");
}

Status ConfinedFileSystem::RemoveAll(const std::string& path) {
  if (MayModify(path)) return inner_->RemoveAll(path);
  refused_removals_.fetch_add(1);
  LOG(WARNING) << "not deleting '" << path
               << "': it is outside catalogd's data roots (--data_roots); the data stays in place";
  return Status::OK();
}

Status ConfinedFileSystem::Rename(const std::string& from, const std::string& to) {
  if (!MayModify(from) || !MayModify(to)) {
    return Status::InvalidArgument("not moving '" + from + "' to '" + to +
                                   "': catalogd moves data only inside its data roots "
                                   "(--data_roots)");
  }
  return inner_->Rename(from, to);
}

}  // namespace ics::catalog
