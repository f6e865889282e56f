// Topic-value decoding (common/codec/topic_value.h): what every subscriber
// does with each catalog-update entry it receives.
//
// Each input is tried as an LZ4-compacted value and as a plain one. Property
// (the codec's contract): a value that decodes re-encodes, and the new bytes
// decode again.
#include <cstdint>
#include <string>
#include <string_view>

#include "CatalogObjects_types.h"
#include "common/codec/topic_value.h"
#include "tests/fuzz/fuzz_check.h"

namespace {

// Far above any seeded value, far below the 1 GiB default: a small input can
// declare this much, so the cap is what bounds one decode.
constexpr size_t kMaxValueBytes = 4u << 20;

void TryDecode(std::string_view value, bool compact) {
  impala::TCatalogObject obj;
  if (!ics::DecodeTopicValue(value, compact, &obj, kMaxValueBytes).ok()) return;
  auto encoded = ics::EncodeTopicValue(obj, compact);
  FUZZ_CHECK(encoded.ok(), encoded.status().ToString());
  impala::TCatalogObject again;
  ics::Status s = ics::DecodeTopicValue(*encoded, compact, &again, kMaxValueBytes);
  FUZZ_CHECK(s.ok(), "re-encoded topic value does not decode: " + s.ToString());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view in(reinterpret_cast<const char*>(data), size);
  TryDecode(in, /*compact=*/true);
  TryDecode(in, /*compact=*/false);
  auto raw = ics::DecompressTopicValue(in, kMaxValueBytes);
  if (raw.ok()) {
    auto again = ics::CompressTopicValue(*raw);
    FUZZ_CHECK(again.ok(), again.status().ToString());
    auto back = ics::DecompressTopicValue(*again, kMaxValueBytes);
    FUZZ_CHECK(back.ok() && *back == *raw, "LZ4 round trip changed the bytes");
  }
  return 0;
}
