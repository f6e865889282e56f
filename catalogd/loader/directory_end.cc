#include "catalogd/loader/directory_end.h"

#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/vfs.h>

#include <limits>

namespace ics::catalog {

namespace {

// The room a batch must leave: one entry of a 255-byte name (19 bytes of
// header, the name and its NUL, rounded up to 8).
constexpr size_t kLongestEntryBytes = 280;

}  // namespace

DirectoryEnd DirectoryEnd::For(int base_fd) {
  DirectoryEnd end;
  struct statfs fs;
  struct stat st;
  if (::fstatfs(base_fd, &fs) != 0 || ::fstat(base_fd, &st) != 0) return end;
  switch (static_cast<unsigned long>(fs.f_type)) {
    case EXT4_SUPER_MAGIC:
      end.end_off_ = std::numeric_limits<int64_t>::max();
      break;
    case TMPFS_MAGIC:
      end.end_off_ = std::numeric_limits<int32_t>::max();
      break;
    default:
      return end;
  }
  end.dev_ = st.st_dev;
  return end;
}

bool DirectoryEnd::Ended(dev_t dev, int64_t last_off, size_t bytes, size_t capacity) const {
  return end_off_ != 0 && dev == dev_ && last_off == end_off_ && bytes <= capacity &&
         capacity - bytes >= kLongestEntryBytes;
}

}  // namespace ics::catalog
