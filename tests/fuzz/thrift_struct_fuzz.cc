// Thrift struct decoding through DeserializeThrift (common/codec/thrift_serde.h),
// the bounded decode every stored or received blob goes through, into the
// biggest structs of the wire format.
//
// Input: byte 0 picks the struct (low bits) and the protocol (bit 7:
// compact), the rest is the encoded struct. Property (DeserializeThrift's
// contract): a struct that decodes re-serializes, and the bytes decode again.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <string_view>

#include "CatalogObjects_types.h"
#include "CatalogService_types.h"
#include "StatestoreService_types.h"
#include "hive_metastore_types.h"
#include "common/codec/thrift_serde.h"
#include "tests/fuzz/fuzz_check.h"

namespace {

constexpr size_t kMaxMessageBytes = 1u << 20;

std::unique_ptr<apache::thrift::TBase> MakeStruct(uint8_t which) {
  switch (which % 8) {
    case 0: return std::make_unique<impala::TCatalogObject>();
    case 1: return std::make_unique<impala::TUpdateStateRequest>();
    case 2: return std::make_unique<impala::TDdlExecRequest>();
    case 3: return std::make_unique<impala::TGetPartialCatalogObjectResponse>();
    case 4: return std::make_unique<impala::TPartitionStats>();
    case 5: return std::make_unique<hive::Table>();
    case 6: return std::make_unique<impala::TUpdateCatalogRequest>();
    default: return std::make_unique<impala::TGetPartialCatalogObjectRequest>();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const auto protocol = (data[0] & 0x80) != 0 ? ics::ThriftProtocol::kCompact
                                              : ics::ThriftProtocol::kBinary;
  const std::string_view bytes(reinterpret_cast<const char*>(data + 1), size - 1);
  std::unique_ptr<apache::thrift::TBase> obj = MakeStruct(data[0]);
  if (!ics::DeserializeThrift(bytes, obj.get(), protocol, kMaxMessageBytes).ok()) return 0;
  auto encoded = ics::SerializeThrift(*obj, protocol);
  FUZZ_CHECK(encoded.ok(), encoded.status().ToString());
  std::unique_ptr<apache::thrift::TBase> again = MakeStruct(data[0]);
  ics::Status s = ics::DeserializeThrift(*encoded, again.get(), protocol,
                                         std::max(kMaxMessageBytes, encoded->size()));
  FUZZ_CHECK(s.ok(), "a re-serialized struct does not decode: " + s.ToString());
  return 0;
}
