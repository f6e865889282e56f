// The partition list filter of PartitionService.ListPartitions: the
// ListPartitions dialect of the one filter parser (common/sql/filter_parser.h,
// through catalogd/ops/partition_filter.h), parsed, bound to typed partition
// keys (partition_predicate.h), evaluated and asked for its per-key
// constraints (what an index uses).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "catalogd/ops/partition_filter.h"
#include "catalogd/ops/partition_predicate.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace ics::catalog::ops;
  using ics::KeyKind;
  static const std::vector<PartitionKeyInfo> keys = {
      {"year", KeyKind::kInt},   {"region", KeyKind::kString}, {"day", KeyKind::kDate},
      {"ok", KeyKind::kBool},    {"ratio", KeyKind::kFloat},   {"ts", KeyKind::kTimestamp},
  };
  static const std::vector<std::vector<std::string>> stored = {
      {"2024", "eu", "2024-01-31", "true", "0.5", "2024-01-31 10:00:00"},
      {"-1", "", "1970-01-01", "false", "-1e300", "x"},
      {"__HIVE_DEFAULT_PARTITION__", "__HIVE_DEFAULT_PARTITION__", "__HIVE_DEFAULT_PARTITION__",
       "__HIVE_DEFAULT_PARTITION__", "__HIVE_DEFAULT_PARTITION__", "__HIVE_DEFAULT_PARTITION__"},
  };
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)ParsePartitionFilter(text);
  auto pred = PartitionPredicate::Compile(text, keys);
  if (!pred.ok()) return 0;
  (void)pred->Constraints();
  std::vector<size_t> all;
  for (size_t i = 0; i < keys.size(); ++i) all.push_back(i);
  for (const auto& values : stored) {
    auto typed = TypedValues(keys, values, pred->referenced_keys());
    if (typed.ok()) (void)pred->Matches(*typed);
    auto every = TypedValues(keys, values, all);
    if (every.ok()) (void)pred->Matches(*every);
  }
  return 0;
}
