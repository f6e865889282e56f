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

// The CORRUPTION for a stored blob named `what` (e.g. "table db1.t1") that
// did not decode with `why`: the store holds something this code did not
// write.
inline Status BlobError(const std::string& what, const Status& why) {
  return Status::Corruption("metastore " + what + " is unreadable: " + why.message());
}

// Decodes a stored blob. Any failure is BlobError(what, ...).
template <typename T>
Result<T> DecodeBlob(std::string_view blob, const std::string& what) {
  T value;
  Status s = DeserializeThrift(blob, &value, ThriftProtocol::kCompact);
  if (!s.ok()) return BlobError(what, s);
  return value;
}

}  // namespace ics::catalog
