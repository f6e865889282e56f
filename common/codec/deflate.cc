#include "common/codec/deflate.h"

#include <zlib.h>

#include <algorithm>
#include <climits>
#include <memory>

namespace ics {

namespace {

// zlib's deflate state is ~270 KB; allocating it per call makes glibc hand
// the memory back to the OS and fault it in again every time. Each thread
// keeps one stream per level and resets it between uses.
class DeflateStream {
 public:
  explicit DeflateStream(int level) : level_(level) {
    ok_ = deflateInit(&zs_, level) == Z_OK;
  }
  ~DeflateStream() {
    if (ok_) deflateEnd(&zs_);
  }
  DeflateStream(const DeflateStream&) = delete;
  DeflateStream& operator=(const DeflateStream&) = delete;

  int level() const { return level_; }
  bool ok() const { return ok_; }
  z_stream* Reset() {
    deflateReset(&zs_);
    return &zs_;
  }

 private:
  const int level_;
  z_stream zs_{};
  bool ok_ = false;
};

z_stream* ThreadDeflateStream(int level) {
  thread_local std::unique_ptr<DeflateStream> stream;
  if (stream == nullptr || stream->level() != level) stream = std::make_unique<DeflateStream>(level);
  return stream->ok() ? stream->Reset() : nullptr;
}

}  // namespace

Result<std::string> DeflateCompress(std::string_view raw, int level) {
  if (raw.size() > UINT_MAX / 2) return Status::LimitExceeded("deflate input too large");
  z_stream* zs = ThreadDeflateStream(level);
  if (zs == nullptr) return Status::Internal("zlib deflateInit failed for level " + std::to_string(level));
  std::string out(deflateBound(zs, static_cast<uLong>(raw.size())), '\0');
  zs->next_in = reinterpret_cast<Bytef*>(const_cast<char*>(raw.data()));
  zs->avail_in = static_cast<uInt>(raw.size());
  zs->next_out = reinterpret_cast<Bytef*>(out.data());
  zs->avail_out = static_cast<uInt>(out.size());
  const int rc = deflate(zs, Z_FINISH);
  if (rc != Z_STREAM_END) {
    return Status::Internal("zlib deflate failed with code " + std::to_string(rc));
  }
  out.resize(zs->total_out);
  return out;
}

Result<std::string> InflateDecompress(std::string_view compressed, size_t max_output_bytes) {
  if (compressed.size() > UINT_MAX) return Status::LimitExceeded("inflate input too large");
  z_stream zs{};
  if (inflateInit(&zs) != Z_OK) return Status::Internal("zlib inflateInit failed");
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(compressed.data()));
  zs.avail_in = static_cast<uInt>(compressed.size());

  std::string out;
  // Start from a guess and grow geometrically, never beyond the cap (+1 byte
  // so that reaching the cap exactly can be told apart from exceeding it).
  const size_t hard_cap = max_output_bytes + 1;
  size_t capacity = std::min(hard_cap, std::max<size_t>(256, compressed.size() * 4));
  out.resize(capacity);
  int rc = Z_OK;
  while (true) {
    zs.next_out = reinterpret_cast<Bytef*>(out.data() + zs.total_out);
    zs.avail_out = static_cast<uInt>(std::min<size_t>(capacity - zs.total_out, UINT_MAX));
    rc = inflate(&zs, Z_NO_FLUSH);
    if (rc == Z_STREAM_END) break;
    if (rc != Z_OK && rc != Z_BUF_ERROR) break;
    if (zs.avail_out == 0) {
      if (capacity >= hard_cap) break;  // output full at the cap
      capacity = std::min(hard_cap, capacity * 2);
      out.resize(capacity);
      continue;
    }
    // Output space left but no progress possible: input ended early.
    if (zs.avail_in == 0) break;
  }
  const size_t produced = zs.total_out;
  const uInt trailing = zs.avail_in;
  inflateEnd(&zs);

  if (produced > max_output_bytes) {
    return Status::LimitExceeded("inflated data exceeds the limit of " +
                                 std::to_string(max_output_bytes) + " bytes");
  }
  if (rc != Z_STREAM_END) {
    return Status::Corruption(rc == Z_DATA_ERROR ? "corrupt deflate stream"
                                                 : "truncated deflate stream");
  }
  if (trailing != 0) {
    return Status::Corruption(std::to_string(trailing) + " trailing bytes after deflate stream");
  }
  out.resize(produced);
  return out;
}

}  // namespace ics
