// FakeFileSystem: an in-memory FileSystem for loader tests.
//
// The test sets the listing of each directory (any lengths and mtimes,
// including ones no real file system reports) and may make listing a
// directory throw (fault injection for exception barriers). Directories
// without a listing list as empty, like a missing directory. Mutations
// succeed and change nothing.
//
// Thread-safety: thread-safe (one mutex around everything).
#pragma once

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "catalogd/loader/file_system.h"
#include "common/util/mutex.h"

namespace ics::catalog {

class FakeFileSystem final : public FileSystem {
 public:
  void SetFiles(const std::string& dir, std::vector<FileStatus> files) EXCLUDES(mu_) {
    MutexLock l(&mu_);
    files_[dir] = std::move(files);
  }
  // Listing `dir` throws std::runtime_error(message).
  void ThrowOnList(const std::string& dir, std::string message) EXCLUDES(mu_) {
    MutexLock l(&mu_);
    throws_[dir] = std::move(message);
  }

  Result<std::vector<FileStatus>> ListFiles(const std::string& dir) override EXCLUDES(mu_) {
    MutexLock l(&mu_);
    auto t = throws_.find(dir);
    if (t != throws_.end()) throw std::runtime_error(t->second);
    auto it = files_.find(dir);
    if (it == files_.end()) return std::vector<FileStatus>{};
    return it->second;
  }
  Result<std::vector<std::string>> ListSubdirectories(const std::string&) override {
    return std::vector<std::string>{};
  }
  [[nodiscard]] Status CreateDirectories(const std::string&) override { return Status::OK(); }
  [[nodiscard]] Status RemoveAll(const std::string&) override { return Status::OK(); }
  [[nodiscard]] Status Rename(const std::string&, const std::string&) override {
    return Status::OK();
  }
  Result<bool> Exists(const std::string&) override { return true; }
  // Stands in for an HDFS store: files are described with blocks.
  bool HasBlockLocations() const override { return true; }

 private:
  Mutex mu_;
  std::map<std::string, std::vector<FileStatus>> files_ GUARDED_BY(mu_);
  std::map<std::string, std::string> throws_ GUARDED_BY(mu_);
};

// Another file system (a LocalFileSystem over test files) as an HDFS-like
// store would be seen: the same listings, with block locations.
class WithBlockLocations final : public FileSystem {
 public:
  explicit WithBlockLocations(FileSystem* inner) : inner_(inner) {}
  Result<std::vector<FileStatus>> ListFiles(const std::string& dir) override {
    return inner_->ListFiles(dir);
  }
  Result<std::vector<std::string>> ListSubdirectories(const std::string& dir) override {
    return inner_->ListSubdirectories(dir);
  }
  [[nodiscard]] Status CreateDirectories(const std::string& path) override {
    return inner_->CreateDirectories(path);
  }
  [[nodiscard]] Status RemoveAll(const std::string& path) override {
    return inner_->RemoveAll(path);
  }
  [[nodiscard]] Status Rename(const std::string& from, const std::string& to) override {
    return inner_->Rename(from, to);
  }
  Result<bool> Exists(const std::string& path) override { return inner_->Exists(path); }
  bool HasBlockLocations() const override { return true; }

 private:
  FileSystem* const inner_;
};

}  // namespace ics::catalog
