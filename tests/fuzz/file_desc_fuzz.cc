// FlatBuffer file-descriptor verification (common/codec/file_desc.h):
// coordinators read THdfsFileDesc.file_desc_data received from catalogd with
// ReadFileDesc, which must reject any buffer that does not verify before a
// field is followed.
//
// Property: a buffer that verifies converts to the plain form, and that
// builds a buffer which verifies again and converts to the same form.
#include <cstdint>
#include <string>
#include <string_view>

#include "common/codec/file_desc.h"
#include "tests/fuzz/fuzz_check.h"

namespace {

bool SameInfo(const ics::FileDescInfo& a, const ics::FileDescInfo& b) {
  if (a.relative_path != b.relative_path || a.absolute_path != b.absolute_path ||
      a.length != b.length || a.mtime_ms != b.mtime_ms || a.compression != b.compression ||
      a.is_ec != b.is_ec || a.is_encrypted != b.is_encrypted ||
      a.blocks.size() != b.blocks.size()) {
    return false;
  }
  for (size_t i = 0; i < a.blocks.size(); ++i) {
    const auto& x = a.blocks[i];
    const auto& y = b.blocks[i];
    if (x.offset != y.offset || x.length != y.length ||
        x.replica_host_idxs != y.replica_host_idxs || x.disk_ids != y.disk_ids) {
      return false;
    }
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // A copy: FlatBuffers verification requires no alignment, but a fresh
  // heap buffer of exactly `size` bytes lets ASan catch any overread.
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  (void)ics::CompressionFromFileName(bytes);
  auto desc = ics::ReadFileDesc(bytes);
  if (!desc.ok()) return 0;
  const ics::FileDescInfo info = ics::ToFileDescInfo(**desc);
  const std::string rebuilt = ics::BuildFileDesc(info);
  auto again = ics::ReadFileDesc(rebuilt);
  FUZZ_CHECK(again.ok(), "a rebuilt descriptor does not verify: " + again.status().ToString());
  FUZZ_CHECK(SameInfo(info, ics::ToFileDescInfo(**again)), "descriptor changed in a rebuild");
  return 0;
}
