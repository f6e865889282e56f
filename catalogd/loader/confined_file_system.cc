#include "catalogd/loader/confined_file_system.h"

#include <fcntl.h>
#include <limits.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>

#include <glog/logging.h>

namespace ics::catalog {

namespace fs = std::filesystem;

namespace {

// The real path of the directory entry `fd` was opened on, from the kernel
// (one readlink however deep the path); empty when /proc is not there.
std::string RealPathOfFd(int fd) {
  char link[64];
  std::snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
  char buf[PATH_MAX];
  const ssize_t n = ::readlink(link, buf, sizeof(buf));
  if (n <= 0 || n >= static_cast<ssize_t>(sizeof(buf)) || buf[0] != '/') return "";
  return std::string(buf, static_cast<size_t>(n));
}

// What std::filesystem::weakly_canonical gives for the absolute path `abs`,
// with a few system calls instead of two per component: its longest
// existing prefix is opened (O_PATH, following symlinks as any later use of
// the path does) and its real path read back from the kernel; the rest,
// which does not exist, is appended. Not lexically normal yet. Nothing when
// anything but "does not exist" goes wrong, or /proc is missing.
std::optional<std::string> ResolveExisting(const std::string& abs) {
  std::string prefix = abs;
  for (;;) {
    const int fd = ::open(prefix.c_str(), O_PATH | O_CLOEXEC);
    if (fd >= 0) {
      std::string real = RealPathOfFd(fd);
      ::close(fd);
      if (real.empty()) return std::nullopt;
      const fs::path rest = fs::path(abs.substr(prefix.size())).relative_path();
      return rest.empty() ? real : (fs::path(real) / rest).string();
    }
    if (errno != ENOENT && errno != ENOTDIR) return std::nullopt;
    const size_t slash = prefix.find_last_of('/');
    if (slash == std::string::npos || prefix == "/") return std::nullopt;
    prefix.resize(slash == 0 ? 1 : slash);
  }
}

// `path` (made absolute against the working directory) with its existing
// prefix's symlinks resolved and dot segments gone; empty when it cannot be
// resolved (then it is treated as outside). A path with a NUL byte is never
// resolved: every system call would see only the part before it.
std::string Resolve(const std::string& path) {
  if (path.empty() || path.find('\0') != std::string::npos) return "";
  std::error_code ec;
  const fs::path abs = fs::absolute(fs::path(path), ec);
  if (ec) return "";
  std::optional<std::string> existing = ResolveExisting(abs.string());
  if (!existing.has_value()) {
    // No /proc, or an error to report as the library does: its walk, one
    // stat and one readlink per component.
    fs::path p = fs::weakly_canonical(abs, ec);
    if (ec) return "";
    existing = p.string();
  }
  std::string s = fs::path(*existing).lexically_normal().string();
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
