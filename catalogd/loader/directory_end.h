// DirectoryEnd: proves from one getdents64 batch that a directory has no
// more entries, so that listing it costs one read instead of two.
//
// Reading a directory normally ends with a read that returns nothing: for a
// table of 10^5 partition directories with one file each, that empty read
// is one system call in five. After a batch, getdents64 leaves the position
// after the batch in the last entry's d_off. Some file systems move that
// position to a fixed end-of-directory value when they run out of entries,
// a value no entry's position can take:
//   - ext4 (hashed directories, the default): INT64_MAX;
//   - tmpfs (Linux 6.14 and later): INT32_MAX. (Between 6.6 and 6.13 a
//     tmpfs position reaches it only after 2^31 entries were created in one
//     directory, and even then a batch is taken as the end only if a
//     signal cut the read short exactly there.)
// A batch is taken as the end only when all of these hold:
//   - the directory is on the same device as the base directory the proof
//     was made for (a file of the batch was stat()ed on that device, so a
//     file system mounted below the base cannot pass), and the base's file
//     system is one of those above;
//   - the batch's last d_off is that file system's end value;
//   - the batch left room for another entry of the longest name, so the
//     read stopped for lack of entries, not of buffer.
// Anything else (other file systems, older kernels whose positions have no
// end value, a read cut short by a signal, an empty directory) reads again
// until the empty read, as before: the proof only ever saves a read.
//
// Thread-safety: immutable after For(); safe from any thread.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <cstdint>

namespace ics::catalog {

class DirectoryEnd {
 public:
  // Proves nothing (every directory is read until the empty read).
  DirectoryEnd() = default;
  // For directories below the directory open as `base_fd`. Costs two system
  // calls (fstatfs, fstat), once per base.
  static DirectoryEnd For(int base_fd);

  // Whether a getdents64 batch of `bytes` out of a buffer of `capacity`,
  // whose last entry has `last_off`, read to the end of its directory,
  // which holds a file on device `dev`.
  bool Ended(dev_t dev, int64_t last_off, size_t bytes, size_t capacity) const;

  // Whether this proof can ever hold (the base's file system is known).
  bool known() const { return end_off_ != 0; }

 private:
  dev_t dev_ = 0;
  int64_t end_off_ = 0;  // 0: unknown file system
};

}  // namespace ics::catalog
