// A coordinator reading a GetPartialCatalogObject reply from catalogd with
// the table's partition names streamed (coordinator-sim/catalog/
// partition_name_stream.h), over the bounded protocol a client connection
// uses. The input is the reply message as catalogd would send it.
//
// Property: streaming agrees with the generated reader on the same bytes
// under the same limits: both fail, or both succeed with the same response
// (the generated reader's partition list equal to the streamed names, every
// other field equal).
#include <cstdint>
#include <memory>
#include <string>

#include <thrift/protocol/TBinaryProtocol.h>
#include <thrift/transport/TBufferTransports.h>

#include "CatalogService.h"
#include "common/rpc/bounded_protocol.h"
#include "coordinator-sim/catalog/partition_name_stream.h"
#include "tests/fuzz/fuzz_check.h"
#include "tests/fuzz/fuzz_rpc.h"

namespace {

using apache::thrift::protocol::TBinaryProtocol;
using apache::thrift::transport::TMemoryBuffer;

// A client reading `data` as its connection would: binary protocol under a
// decode budget (the fuzz RPC limits; not counted process-wide).
impala::CatalogServiceClient Client(const uint8_t* data, size_t size) {
  auto buf = std::make_shared<TMemoryBuffer>(const_cast<uint8_t*>(data),
                                             static_cast<uint32_t>(size), TMemoryBuffer::OBSERVE);
  ics::BoundedProtocol::Options bounds;
  bounds.limits = ics::fuzz::kFuzzRpcLimits;
  bounds.limits.process_wide = false;
  bounds.binary_inner = true;
  auto in = std::make_shared<ics::BoundedProtocol>(
      std::make_shared<TBinaryProtocol>(buf, ics::kMaxMessageNameBytes,
                                        static_cast<int32_t>(ics::fuzz::kFuzzRpcLimits.max_wire_bytes),
                                        false, true),
      bounds);
  return impala::CatalogServiceClient(in, in);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  impala::TGetPartialCatalogObjectResponse streamed;
  ics::coord::PartitionNames names;
  bool streamed_ok = true;
  try {
    impala::CatalogServiceClient c = Client(data, size);
    ics::coord::RecvWithPartitionNames(c, &streamed, &names);
  } catch (const apache::thrift::TException&) {
    streamed_ok = false;
  }
  impala::TGetPartialCatalogObjectResponse plain;
  bool plain_ok = true;
  try {
    Client(data, size).recv_GetPartialCatalogObject(plain);
  } catch (const apache::thrift::TException&) {
    plain_ok = false;
  }
  if (!streamed_ok || !plain_ok) {
    // The generated reader also charges whole partition records where the
    // stream charges (id, name) pairs: a reply only the stream can afford
    // is fine, the other way round is not.
    FUZZ_CHECK(streamed_ok || !plain_ok, "the generated reader took a reply the stream refused");
    return 0;
  }
  const auto& parts = plain.table_info.partitions;
  FUZZ_CHECK(parts.size() == names.size(), "streamed names differ in number from the list");
  for (size_t i = 0; i < parts.size(); ++i) {
    FUZZ_CHECK(parts[i].id == names[i].first && parts[i].name == names[i].second,
               "streamed name " + std::to_string(i) + " differs from the list's");
  }
  plain.table_info.partitions.clear();
  FUZZ_CHECK(streamed == plain, "streaming changed a field other than the partition list");
  return 0;
}
