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

// Decodes a stored blob into *out. Any failure is CORRUPTION naming what()
// (e.g. "table db1.t1"), which is called only then: the store holds
// something this code did not write.
template <typename What>
Status DecodeBlobInto(std::string_view blob, apache::thrift::TBase* out, What&& what) {
  const Status s = DeserializeThrift(blob, out, ThriftProtocol::kCompact);
  if (s.ok()) return s;
  return Status::Corruption("metastore " + std::string(what()) + " is unreadable: " + s.message());
}

// DecodeBlobInto for a fresh T, named `what`.
template <typename T>
Result<T> DecodeBlob(std::string_view blob, const std::string& what) {
  T value;
  ICS_RETURN_IF_ERROR(DecodeBlobInto(blob, &value, [&] { return what; }));
  return value;
}

}  // namespace ics::catalog
