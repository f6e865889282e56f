// RootedFileSystem: the local file system seen from `root`, as chroot does:
// every absolute path the caller gives ("/warehouse/db.db/t") is taken
// below `root` (<root>/warehouse/db.db/t). For tests whose metastore
// objects carry absolute, made-up locations, so that the directories a
// command core creates, moves and removes stay inside the test's own
// directory. A relative path, or one with a ".." component, fails with
// INVALID_ARGUMENT.
//
// Thread-safety: as LocalFileSystem (thread-safe).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "catalogd/loader/file_system.h"

namespace ics::catalog::testing {

class RootedFileSystem final : public FileSystem {
 public:
  explicit RootedFileSystem(std::string root) : root_(std::move(root)) {}

  Result<std::vector<FileStatus>> ListFiles(const std::string& dir) override {
    ICS_ASSIGN_OR_RETURN(std::string p, Under(dir));
    return local_.ListFiles(p);
  }
  Result<std::vector<std::string>> ListSubdirectories(const std::string& dir) override {
    ICS_ASSIGN_OR_RETURN(std::string p, Under(dir));
    return local_.ListSubdirectories(p);
  }
  Status CreateDirectories(const std::string& path) override {
    ICS_ASSIGN_OR_RETURN(std::string p, Under(path));
    return local_.CreateDirectories(p);
  }
  Status RemoveAll(const std::string& path) override {
    ICS_ASSIGN_OR_RETURN(std::string p, Under(path));
    return local_.RemoveAll(p);
  }
  Status Rename(const std::string& from, const std::string& to) override {
    ICS_ASSIGN_OR_RETURN(std::string f, Under(from));
    ICS_ASSIGN_OR_RETURN(std::string t, Under(to));
    return local_.Rename(f, t);
  }
  Result<bool> Exists(const std::string& path) override {
    ICS_ASSIGN_OR_RETURN(std::string p, Under(path));
    return local_.Exists(p);
  }

 private:
  Result<std::string> Under(const std::string& path) const {
    if (path.empty() || path[0] != '/' || path.find("/..") != std::string::npos) {
      return Status::InvalidArgument("not an absolute path without '..': " + path);
    }
    return root_ + path;
  }

  const std::string root_;
  LocalFileSystem local_;
};

}  // namespace ics::catalog::testing
