// CPU of building a coordinator's partition list (PartitionList: id -> name
// and the index by value) for a table it fetches: all at once, as the
// on-demand catalog does with a fetched list, next to one Add() per
// partition, in the same run. Names as the synthetic catalogs name them:
// year=<2000 + i / 365>/day=<i % 365>, two int keys.
// Run: build/bin/partition_names_bench  (Google Benchmark flags apply).
#include <benchmark/benchmark.h>

#include <string>
#include <utility>
#include <vector>

#include "common/types/column_type.h"
#include "coordinator-sim/catalog/partition_list.h"

namespace ics::coord {
namespace {

std::vector<impala::TColumn> Keys() {
  std::vector<impala::TColumn> keys(2);
  keys[0].columnName = "year";
  keys[1].columnName = "day";
  keys[0].columnType = ParseHiveType("int").value();
  keys[1].columnType = keys[0].columnType;
  return keys;
}

std::vector<std::pair<int64_t, std::string>> Names(int64_t n) {
  std::vector<std::pair<int64_t, std::string>> names;
  names.reserve(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    names.emplace_back(i + 1, "year=" + std::to_string(2000 + i / 365) +
                                  "/day=" + std::to_string(i % 365));
  }
  return names;
}

void BM_OneAddPerPartition(benchmark::State& state) {
  const auto keys = Keys();
  const auto names = Names(state.range(0));
  for (auto _ : state) {
    PartitionList list(keys);
    for (const auto& [id, name] : names) list.Add(id, name);
    benchmark::DoNotOptimize(list.size());
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_OneAddPerPartition)->Arg(1000)->Arg(100000)->Unit(benchmark::kMillisecond);

void BM_AllAtOnce(benchmark::State& state) {
  const auto keys = Keys();
  const auto names = Names(state.range(0));
  for (auto _ : state) {
    // The fetched list is handed over, not copied (on_demand_fetch.cc).
    state.PauseTiming();
    auto fetched = names;
    state.ResumeTiming();
    PartitionList list(keys, std::move(fetched));
    benchmark::DoNotOptimize(list.size());
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_AllAtOnce)->Arg(1000)->Arg(100000)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace ics::coord

BENCHMARK_MAIN();
