// Encoding of metastore objects as stored blobs (TCompactProtocol), shared
// by the SQLite metastore's reads and writes. Private to the metastore.
//
// Thread-safety: stateless; safe from any thread.
#pragma once

#include <string>
#include <string_view>

#include "common/codec/thrift_serde.h"
#include "common/util/result.h"

namespace ics::catalog {

inline Result<std::string> EncodeBlob(const apache::thrift::TBase& obj) {
  return SerializeThrift(obj, ThriftProtocol::kCompact);
}

// Decodes a stored blob. Any failure is CORRUPTION naming `what` (e.g.
// "table db1.t1"): the store holds something this code did not write.
template <typename T>
Result<T> DecodeBlob(std::string_view blob, const std::string& what) {
  T value;
  Status s = DeserializeThrift(blob, &value, ThriftProtocol::kCompact);
  if (!s.ok()) return Status::Corruption("metastore " + what + " is unreadable: " + s.message());
  return value;
}

}  // namespace ics::catalog
