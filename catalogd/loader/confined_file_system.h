// ConfinedFileSystem: catalogd changes data only under its data roots.
//
// A FileSystem decorator every writer in catalogd goes through (DDL through
// the CatalogService, the HMS endpoint, the metastore services: they share
// the server's one FileSystem). Reads pass through unchanged; changes are
// allowed only strictly inside a data root (--data_roots; default the
// warehouse):
//   - CreateDirectories outside every root: OK when the directory already
//     exists (an external LOCATION someone else made), otherwise an
//     INVALID_ARGUMENT saying catalogd creates directories only under its
//     data roots, so CREATE ... LOCATION '/elsewhere' fails at DDL time.
//   - RemoveAll outside every root (or of a root itself): nothing is
//     deleted; the call succeeds, and the data left in place is logged and
//     counted (refused_removals()). DROP TABLE/PARTITION and TRUNCATE of
//     such a location drop the metadata and keep the data.
//   - Rename unless both ends are inside roots: INVALID_ARGUMENT (ALTER
//     TABLE RENAME then undoes its metastore change).
// "Inside" is decided on the path with every symlink of its existing part
// resolved and "." / ".." removed, so a symlink inside a root that points
// out of it, or "root/../etc", is outside. std::filesystem::remove_all does
// not follow symlinks it meets below the path.
//
// Limitation: the check and the change are two steps; a local user who can
// swap a directory for a symlink in between can redirect one change. The
// roots should not be writable by untrusted users.
//
// Thread-safety: as the wrapped FileSystem; the counter is atomic.
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "catalogd/loader/file_system.h"

namespace ics::catalog {

class ConfinedFileSystem final : public FileSystem {
 public:
  // `roots` must be non-empty; they are resolved once here (created first
  // when missing; relative paths against the working directory).
  static Result<std::unique_ptr<ConfinedFileSystem>> Create(std::unique_ptr<FileSystem> inner,
                                                            std::vector<std::string> roots);

  Result<std::vector<FileStatus>> ListFiles(const std::string& dir) override;
  // Reading is not confined: the inner store's.
  std::unique_ptr<Base> OpenBase(const std::string& dir) override { return inner_->OpenBase(dir); }
  Result<std::vector<std::string>> ListSubdirectories(const std::string& dir) override;
  [[nodiscard]] Status CreateDirectories(const std::string& path) override;
  [[nodiscard]] Status RemoveAll(const std::string& path) override;
  [[nodiscard]] Status Rename(const std::string& from, const std::string& to) override;
  Result<bool> Exists(const std::string& path) override;

  // True when `path` lies strictly inside a data root.
  bool MayModify(const std::string& path) const override;
  bool HasBlockLocations() const override { return inner_->HasBlockLocations(); }
  const std::vector<std::string>& roots() const { return roots_; }
  // RemoveAll calls that left data in place because it was outside the roots.
  int64_t refused_removals() const { return refused_removals_.load(); }

 private:
  ConfinedFileSystem(std::unique_ptr<FileSystem> inner, std::vector<std::string> roots)
      : inner_(std::move(inner)), roots_(std::move(roots)) {}

  const std::unique_ptr<FileSystem> inner_;
  const std::vector<std::string> roots_;  // resolved
  std::atomic<int64_t> refused_removals_{0};
};

}  // namespace ics::catalog
