// The Hive type parser (common/types/column_type.h), as catalogd applies it
// to every FieldSchema.type the metastore or a client sends.
//
// Properties (the header's contract): ParseHiveType(TypeToString(t)) == t and
// ValidateColumnType(t) is OK for every t ParseHiveType returns. Inputs that
// are not a type are also tried as a compact-encoded TColumnType tree, whose
// printing and validation must cope with any malformed tree.
#include <cstdint>
#include <string>
#include <string_view>

#include "common/codec/thrift_serde.h"
#include "common/types/column_type.h"
#include "tests/fuzz/fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto type = ics::ParseHiveType(text);
  if (type.ok()) {
    FUZZ_CHECK(ics::ValidateColumnType(*type).ok(), "parsed type does not validate");
    const std::string printed = ics::TypeToString(*type);
    auto again = ics::ParseHiveType(printed);
    FUZZ_CHECK(again.ok(), "printed type '" + printed + "' does not parse: " +
                               again.status().ToString());
    FUZZ_CHECK(*again == *type, "type changed in a round trip through '" + printed + "'");
    return 0;
  }
  impala::TColumnType tree;
  if (ics::DeserializeThrift(text, &tree, ics::ThriftProtocol::kCompact, 1u << 20).ok()) {
    (void)ics::ValidateColumnType(tree);
    (void)ics::TypeToString(tree);
    (void)ics::IsScalar(tree);
    (void)ics::PrimitiveOf(tree);
  }
  return 0;
}
