// Serialization of Thrift structs to and from bytes, with size limits.
//
// Both protocols Impala uses are offered: TBinaryProtocol (topic values, RPC
// payloads) and TCompactProtocol (partition statistics). Deserialization
// never trusts its input: every string, container and the whole message are
// bounded, required fields are checked by the generated code, and trailing
// bytes after the struct are rejected. Any failure comes back as a
// CORRUPTION (or LIMIT_EXCEEDED) Status, never as an exception.
//
// The functions work on apache::thrift::TBase, so each struct type does not
// instantiate its own copy of the machinery.
//
// Thread-safety: stateless; safe from any thread.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include <thrift/TBase.h>

#include "common/util/result.h"

namespace ics {

enum class ThriftProtocol { kBinary, kCompact };

// Largest input DeserializeThrift accepts unless told otherwise.
inline constexpr size_t kDefaultMaxThriftMessageBytes = 256u << 20;

// Encodes `obj` with the given protocol.
Result<std::string> SerializeThrift(const apache::thrift::TBase& obj,
                                    ThriftProtocol protocol = ThriftProtocol::kBinary);

// Decodes `bytes` into `*out`, which should be freshly constructed (fields
// absent from the input keep their values). `max_bytes` bounds the
// input size and every string/container length inside it.
[[nodiscard]] Status DeserializeThrift(std::string_view bytes, apache::thrift::TBase* out,
                                       ThriftProtocol protocol = ThriftProtocol::kBinary,
                                       size_t max_bytes = kDefaultMaxThriftMessageBytes);

// Convenience: returns the decoded value.
template <typename T>
Result<T> DeserializeThriftAs(std::string_view bytes,
                              ThriftProtocol protocol = ThriftProtocol::kBinary,
                              size_t max_bytes = kDefaultMaxThriftMessageBytes) {
  T value;
  Status s = DeserializeThrift(bytes, &value, protocol, max_bytes);
  if (!s.ok()) return s;
  return value;
}

}  // namespace ics
