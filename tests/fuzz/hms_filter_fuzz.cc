// The HMS filter of get_partitions_by_filter: the Hive Metastore dialect of
// the one filter parser (common/sql/filter_parser.h, through
// catalogd/hms/hms_filter.h), parsed against a table's partition keys and
// evaluated over the partitions' text, plus the LIKE subset on its own.
//
// Input: the whole input is a filter over keys (year int, region string,
// day string); it is also split at its first NUL byte into a LIKE pattern
// and a value.
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "catalogd/hms/hms_filter.h"

namespace {

hive::FieldSchema Key(const std::string& name, const std::string& type) {
  hive::FieldSchema f;
  f.name = name;
  f.type = type;
  return f;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using ics::catalog::hms::HmsPartitionFilter;
  static const std::vector<hive::FieldSchema> keys = {Key("year", "int"), Key("region", "string"),
                                                      Key("day", "string")};
  static const std::vector<std::vector<std::string>> partitions = {
      {"2024", "eu", "2024-01-31"},
      {"-7", "", "x"},
      {"__HIVE_DEFAULT_PARTITION__", "us", "__HIVE_DEFAULT_PARTITION__"},
      {"99999999999999999999", "a.b*c\\", "2024-1-1"},
      {"2024", "eu"},  // wrong count: never matches
  };
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto filter = HmsPartitionFilter::Parse(text, keys);
  if (filter.ok()) {
    for (const auto& values : partitions) (void)filter->Matches(values);
  }
  const void* nul = std::memchr(data, 0, size);
  const size_t split = nul != nullptr ? static_cast<const uint8_t*>(nul) - data : size / 2;
  (void)ics::catalog::hms::HmsLikeMatches(text.substr(0, split),
                                          text.substr(std::min(size, split + 1)));
  return 0;
}
