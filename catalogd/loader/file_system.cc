#include "catalogd/loader/file_system.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <limits>
#include <optional>
#include <system_error>

#include "catalogd/loader/directory_end.h"
#include "common/util/checked_math.h"
#include "common/util/path_join.h"

namespace ics::catalog {

namespace fs = std::filesystem;

bool IsHiddenFileName(std::string_view name) {
  return !name.empty() && (name[0] == '.' || name[0] == '_');
}

int64_t StatTimeToMillis(int64_t sec, int64_t nsec) {
  const std::optional<int64_t> ms = CheckedMul(sec, 1000);
  if (!ms) return sec > 0 ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int64_t>::min();
  return SaturatingAdd(*ms, nsec / 1'000'000);
}

namespace {

Status IoError(std::string_view what, const std::string& path, const std::error_code& ec) {
  return Status::IoError(std::string(what) + " '" + path + "': " + ec.message());
}

// Iterates the entries of `dir`, calling fn(entry) for each; a missing dir
// iterates nothing.
template <typename Fn>
Status ForEachEntry(const std::string& dir, Fn fn) {
  std::error_code ec;
  fs::directory_iterator it(dir, ec);
  if (ec) {
    if (ec == std::errc::no_such_file_or_directory) return Status::OK();
    return IoError("cannot list directory", dir, ec);
  }
  for (const fs::directory_iterator end; it != end; it.increment(ec)) {
    if (ec) return IoError("cannot list directory", dir, ec);
    ICS_RETURN_IF_ERROR(fn(*it));
  }
  if (ec) return IoError("cannot list directory", dir, ec);
  return Status::OK();
}

// The device the files of one listing are on: one device, several, or not
// known yet (no file stat()ed).
struct ListingDevice {
  std::optional<dev_t> dev;
  bool mixed = false;
  void Note(dev_t d) {
    if (!dev.has_value()) dev = d;
    mixed = mixed || *dev != d;
  }
  bool one() const { return dev.has_value() && !mixed; }
};

// Appends `name` in the directory open as `dir_fd` (`dir`, for errors) to
// *files when it is a regular file, following symlinks as Hadoop's listing
// of a local dir does. A file deleted meanwhile is skipped. `device`, if
// given, notes the file's device (only for entries that are not links: a
// link's target may be anywhere).
Status AddIfRegularFile(int dir_fd, const std::function<std::string()>& dir, const char* name,
                        std::vector<FileStatus>* files, ListingDevice* device) {
  struct stat st;
  if (::fstatat(dir_fd, name, &st, 0) != 0) {
    const std::error_code ec(errno, std::generic_category());
    if (ec == std::errc::no_such_file_or_directory) return Status::OK();
    return IoError("cannot stat", dir() + "/" + name, ec);
  }
  if (device != nullptr) device->Note(st.st_dev);
  if (!S_ISREG(st.st_mode)) return Status::OK();
  FileStatus f;
  f.name = name;
  f.length = static_cast<int64_t>(st.st_size);
  f.mtime_ms = StatTimeToMillis(static_cast<int64_t>(st.st_mtim.tv_sec),
                                static_cast<int64_t>(st.st_mtim.tv_nsec));
  files->push_back(std::move(f));
  return Status::OK();
}

// The listing of the directory at `path`, relative to `at_fd` (AT_FDCWD
// for an absolute path); `shown` names it in errors. The directory is read
// with getdents64 on one descriptor and each entry stat()ed relative to
// it: a partition costs open, one read (two where `end` cannot prove the
// directory read after its first batch, directory_end.h), one fstatat a
// file and close, and no lookup of the whole path per file (std::filesystem
// adds an fcntl, an fstat and a path object per entry).
Result<std::vector<FileStatus>> ListFilesAt(int at_fd, const char* path,
                                            const std::function<std::string()>& shown,
                                            const DirectoryEnd& end = DirectoryEnd()) {
  const int fd = ::openat(at_fd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) {
    const std::error_code ec(errno, std::generic_category());
    if (ec == std::errc::no_such_file_or_directory) return std::vector<FileStatus>{};
    return IoError("cannot list directory", shown(), ec);
  }
  struct CloseFd {
    int fd;
    ~CloseFd() { ::close(fd); }
  } closer{fd};
  std::vector<FileStatus> files;
  ListingDevice device;
  alignas(struct dirent64) char buf[16384];
  ssize_t n = 0;
  while ((n = ::getdents64(fd, buf, sizeof buf)) != 0) {
    if (n < 0) {
      if (errno == EINTR) continue;
      return IoError("cannot list directory", shown(),
                     std::error_code(errno, std::generic_category()));
    }
    int64_t last_off = 0;
    for (ssize_t off = 0; off < n;) {
      const auto* e = reinterpret_cast<const struct dirent64*>(buf + off);
      off += e->d_reclen;
      last_off = static_cast<int64_t>(e->d_off);
      // "." and ".." are hidden names too.
      if (IsHiddenFileName(e->d_name)) continue;
      if (e->d_type != DT_REG && e->d_type != DT_LNK && e->d_type != DT_UNKNOWN) continue;
      ICS_RETURN_IF_ERROR(AddIfRegularFile(fd, shown, e->d_name, &files,
                                           e->d_type == DT_REG ? &device : nullptr));
    }
    if (device.one() && end.Ended(*device.dev, last_off, static_cast<size_t>(n), sizeof buf)) break;
  }
  std::sort(files.begin(), files.end(),
            [](const FileStatus& a, const FileStatus& b) { return a.name < b.name; });
  return files;
}

// A Base that joins paths (stores that cannot hold a directory).
class JoiningBase final : public FileSystem::Base {
 public:
  JoiningBase(FileSystem* fs, std::string dir) : fs_(fs), dir_(std::move(dir)) {}
  Result<std::vector<FileStatus>> ListFiles(const std::string& relative) override {
    return fs_->ListFiles(JoinPath(dir_, relative));
  }

 private:
  FileSystem* const fs_;
  const std::string dir_;
};

// A local directory held open.
class OpenBaseDir final : public FileSystem::Base {
 public:
  OpenBaseDir(int fd, std::string dir)
      : fd_(fd), dir_(std::move(dir)), end_(DirectoryEnd::For(fd_)) {}
  ~OpenBaseDir() override { ::close(fd_); }
  OpenBaseDir(const OpenBaseDir&) = delete;
  OpenBaseDir& operator=(const OpenBaseDir&) = delete;
  Result<std::vector<FileStatus>> ListFiles(const std::string& relative) override {
    return ListFilesAt(fd_, relative.c_str(), [&] { return JoinPath(dir_, relative); }, end_);
  }

 private:
  const int fd_;
  const std::string dir_;
  const DirectoryEnd end_;
};

}  // namespace

std::unique_ptr<FileSystem::Base> FileSystem::OpenBase(const std::string& dir) {
  return std::make_unique<JoiningBase>(this, dir);
}

Result<std::vector<FileStatus>> LocalFileSystem::ListFiles(const std::string& dir) {
  return ListFilesAt(AT_FDCWD, dir.c_str(), [&] { return dir; });
}

std::unique_ptr<FileSystem::Base> LocalFileSystem::OpenBase(const std::string& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return FileSystem::OpenBase(dir);
  return std::make_unique<OpenBaseDir>(fd, dir);
}

Result<std::vector<std::string>> LocalFileSystem::ListSubdirectories(const std::string& dir) {
  std::vector<std::string> dirs;
  Status s = ForEachEntry(dir, [&](const fs::directory_entry& e) -> Status {
    std::string name = e.path().filename().string();
    if (IsHiddenFileName(name)) return Status::OK();
    std::error_code ec;
    if (e.is_directory(ec)) dirs.push_back(std::move(name));
    return Status::OK();
  });
  if (!s.ok()) return s;
  std::sort(dirs.begin(), dirs.end());
  return dirs;
}

Status LocalFileSystem::CreateDirectories(const std::string& path) {
  std::error_code ec;
  fs::create_directories(path, ec);
  if (ec) return IoError("cannot create directory", path, ec);
  if (!fs::is_directory(path, ec)) {
    return Status::IoError("cannot create directory '" + path + "': exists and is not a directory");
  }
  return Status::OK();
}

Status LocalFileSystem::RemoveAll(const std::string& path) {
  std::error_code ec;
  fs::remove_all(path, ec);
  if (ec) return IoError("cannot remove", path, ec);
  return Status::OK();
}

Status LocalFileSystem::Rename(const std::string& from, const std::string& to) {
  std::error_code ec;
  fs::rename(from, to, ec);
  if (ec) return Status::IoError("cannot rename '" + from + "' to '" + to + "': " + ec.message());
  return Status::OK();
}

Result<bool> LocalFileSystem::Exists(const std::string& path) {
  std::error_code ec;
  const bool exists = fs::exists(path, ec);
  if (ec) return IoError("cannot check", path, ec);
  return exists;
}

// ---------------------------------------------------------------------------
// SyntheticFileSystem

namespace {

uint64_t Fnv1a(const std::string& s, uint64_t seed) {
  uint64_t h = 1469598103934665603ULL ^ seed;
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  return h;
}

// splitmix64 finalizer: spreads consecutive inputs over the whole range.
uint64_t Mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

}  // namespace

SyntheticFileSystem::SyntheticFileSystem(SyntheticFileSystemOptions options)
    : options_(std::move(options)) {}

Result<std::vector<FileStatus>> SyntheticFileSystem::ListFiles(const std::string& dir) {
  const SyntheticFileSystemOptions& o = options_;
  const uint64_t dir_hash = Fnv1a(dir, o.seed);
  // Ranges in unsigned arithmetic (max - min can exceed INT64_MAX); file
  // sizes below 0 are raised to 0.
  const int64_t min_bytes = std::max<int64_t>(0, o.min_file_bytes);
  const uint64_t size_range =
      o.max_file_bytes > min_bytes
          ? static_cast<uint64_t>(o.max_file_bytes) - static_cast<uint64_t>(min_bytes) + 1
          : 1;
  const uint64_t mtime_range = o.mtime_spread_ms > 0 ? static_cast<uint64_t>(o.mtime_spread_ms) : 1;
  std::vector<FileStatus> files;
  files.reserve(static_cast<size_t>(std::max(0, o.files_per_dir)));
  for (int i = 0; i < o.files_per_dir; ++i) {
    const uint64_t h = Mix(dir_hash + static_cast<uint64_t>(i));
    char name[64];
    std::snprintf(name, sizeof(name), "part-%05d-%016llx", i, static_cast<unsigned long long>(h));
    FileStatus f;
    f.name = std::string(name) + o.file_extension;
    // min_bytes + x <= max_file_bytes (x < size_range), so no overflow.
    f.length = min_bytes + static_cast<int64_t>(Mix(h) % size_range);
    f.mtime_ms = SaturatingAdd(o.base_mtime_ms, static_cast<int64_t>(Mix(h + 1) % mtime_range));
    files.push_back(std::move(f));
  }
  // Names are "part-<i>-..." with a 5-digit index: sorted unless wider.
  if (o.files_per_dir > 99999) {
    std::sort(files.begin(), files.end(),
              [](const FileStatus& a, const FileStatus& b) { return a.name < b.name; });
  }
  return files;
}

Result<std::vector<std::string>> SyntheticFileSystem::ListSubdirectories(const std::string&) {
  return std::vector<std::string>{};
}

Status SyntheticFileSystem::CreateDirectories(const std::string&) { return Status::OK(); }
Status SyntheticFileSystem::RemoveAll(const std::string&) { return Status::OK(); }
Status SyntheticFileSystem::Rename(const std::string&, const std::string&) { return Status::OK(); }
Result<bool> SyntheticFileSystem::Exists(const std::string&) { return true; }

}  // namespace ics::catalog
