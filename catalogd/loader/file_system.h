// FileSystem: the warehouse storage catalogd lists to build file descriptors,
// behind an interface so tests and benchmarks can substitute it.
//
// Two implementations:
//  - LocalFileSystem: the local filesystem via std::filesystem. Errors are
//    IO_ERROR naming the path and the OS reason.
//  - SyntheticFileSystem: deterministic listings without real files, for
//    scale benchmarks. Every directory "contains" files_per_dir files whose
//    names, sizes and mtimes are derived from a hash of the directory path,
//    so two listings of the same path are identical and different paths
//    differ. Mutations succeed and change nothing.
//
// Listing rules (as Hive): only entries directly inside `dir`; names
// starting with '.' or '_' are hidden and skipped (e.g. "_SUCCESS",
// ".staging"); results are sorted by name; a directory that does not exist
// lists as empty, not as an error.
//
// Paths are plain absolute paths ("/wh/db.db/t/k=1"); names in results are
// bare names (no directory part).
//
// Thread-safety: both implementations are stateless (configuration is
// constant after construction) and safe to call from any number of threads.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/util/result.h"

namespace ics::catalog {

struct FileStatus {
  std::string name;      // bare file name
  int64_t length = 0;    // bytes
  int64_t mtime_ms = 0;  // last modification, ms since the epoch

  bool operator==(const FileStatus& o) const {
    return name == o.name && length == o.length && mtime_ms == o.mtime_ms;
  }
};

class FileSystem {
 public:
  virtual ~FileSystem() = default;

  // Regular files directly in `dir` (symlinks to regular files count),
  // hidden names skipped, sorted by name. A missing `dir` yields {}.
  virtual Result<std::vector<FileStatus>> ListFiles(const std::string& dir) = 0;

  // A directory held for listing many directories below it (a table's
  // partitions) by their paths relative to it, without resolving its own
  // path again for each. Listings are ListFiles' (same rules, errors name
  // the full path). Lives no longer than its file system; thread-safe.
  class Base {
   public:
    virtual ~Base() = default;
    // ListFiles(base + "/" + relative); `relative` is not empty and does
    // not start with '/'.
    virtual Result<std::vector<FileStatus>> ListFiles(const std::string& relative) = 0;
  };
  // The default joins the paths and calls ListFiles; a store that can hold
  // a directory open overrides it. Never null; a `dir` that cannot be held
  // (missing, say) gives a Base that joins paths.
  virtual std::unique_ptr<Base> OpenBase(const std::string& dir);

  // Names of the non-hidden subdirectories of `dir`, sorted. Missing `dir` yields {}.
  virtual Result<std::vector<std::string>> ListSubdirectories(const std::string& dir) = 0;

  // mkdir -p. OK if it already exists as a directory.
  [[nodiscard]] virtual Status CreateDirectories(const std::string& path) = 0;

  // rm -rf. OK if `path` does not exist.
  [[nodiscard]] virtual Status RemoveAll(const std::string& path) = 0;

  // Renames a file or directory; the parent of `to` must exist.
  [[nodiscard]] virtual Status Rename(const std::string& from, const std::string& to) = 0;

  virtual Result<bool> Exists(const std::string& path) = 0;

  // Whether CreateDirectories/RemoveAll/Rename may change `path`; false for
  // data outside catalogd's data roots (confined_file_system.h), where
  // RemoveAll keeps the data. Callers that must know (INSERT OVERWRITE)
  // ask first.
  virtual bool MayModify(const std::string& /*path*/) const { return true; }

  // Whether the store keeps block locations for its files (HDFS-like
  // stores). As in Impala, descriptors of files on a store without them
  // (a local filesystem, object stores) carry no blocks: a planner splits
  // such files into scan ranges itself. False unless overridden.
  virtual bool HasBlockLocations() const { return false; }
};

class LocalFileSystem final : public FileSystem {
 public:
  Result<std::vector<FileStatus>> ListFiles(const std::string& dir) override;
  // Holds `dir` open: listings below it open their directory relative to
  // it (openat), so the kernel walks one name instead of the whole path.
  std::unique_ptr<Base> OpenBase(const std::string& dir) override;
  Result<std::vector<std::string>> ListSubdirectories(const std::string& dir) override;
  [[nodiscard]] Status CreateDirectories(const std::string& path) override;
  [[nodiscard]] Status RemoveAll(const std::string& path) override;
  [[nodiscard]] Status Rename(const std::string& from, const std::string& to) override;
  Result<bool> Exists(const std::string& path) override;
};

struct SyntheticFileSystemOptions {
  int files_per_dir = 10;
  // File sizes are spread uniformly over [min_file_bytes, max_file_bytes]
  // (min below 0 counts as 0; max below min gives min). Any values are safe.
  int64_t min_file_bytes = 1 << 20;
  int64_t max_file_bytes = 256LL << 20;
  // mtimes are spread over [base_mtime_ms, base_mtime_ms + mtime_spread_ms).
  int64_t base_mtime_ms = 1'700'000'000'000;
  int64_t mtime_spread_ms = 86'400'000;
  // Appended to every file name (".parq", ".gz", ...); drives compression.
  std::string file_extension = ".parq";
  // Mixed into the hash: change it to make every listing differ (simulates
  // a rewrite of the whole warehouse).
  uint64_t seed = 0;
};

class SyntheticFileSystem final : public FileSystem {
 public:
  explicit SyntheticFileSystem(SyntheticFileSystemOptions options = {});

  const SyntheticFileSystemOptions& options() const { return options_; }

  // files_per_dir files named "part-<i 5 digits>-<hash 16 hex><extension>".
  Result<std::vector<FileStatus>> ListFiles(const std::string& dir) override;
  // Always empty: synthetic directories have no children.
  Result<std::vector<std::string>> ListSubdirectories(const std::string& dir) override;
  [[nodiscard]] Status CreateDirectories(const std::string& path) override;
  [[nodiscard]] Status RemoveAll(const std::string& path) override;
  [[nodiscard]] Status Rename(const std::string& from, const std::string& to) override;
  // Always true.
  Result<bool> Exists(const std::string& path) override;
  // True: synthetic listings stand in for an HDFS warehouse.
  bool HasBlockLocations() const override { return true; }

 private:
  const SyntheticFileSystemOptions options_;
};

// True for names Hive treats as hidden ('.' or '_' first).
bool IsHiddenFileName(std::string_view name);

// A stat() time as ms since the epoch, saturating at the int64 limits (a
// file's mtime can be set to any 64-bit second count).
int64_t StatTimeToMillis(int64_t sec, int64_t nsec);

}  // namespace ics::catalog
