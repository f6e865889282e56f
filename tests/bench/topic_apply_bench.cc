// CPU of a coordinator's per-update topic decoding: the two passes an
// on-demand coordinator makes over a typical DDL's topic delta (the CATALOG
// entry, then one table invalidation), through ForEachTopicEntry (one
// object per thread, reset member by member), next to the same passes
// decoding each entry into a freshly constructed TCatalogObject (as
// DecodeTopicEntries does), in the same run.
// Run: build/bin/topic_apply_bench  (Google Benchmark flags apply).
#include <benchmark/benchmark.h>

#include <string>

#include "CatalogObjects_types.h"
#include "StatestoreService_types.h"
#include "common/codec/catalog_topic.h"
#include "coordinator-sim/catalog/catalog_util.h"

namespace ics::coord {
namespace {

impala::TTopicItem Entry(const impala::TCatalogObject& o) {
  impala::TTopicItem item;
  item.key = kInvalidationPrefix + CatalogTopicKey(o);
  item.value = EncodeCatalogTopicValue(o, CatalogTopicFormat()).value();
  item.deleted = false;
  return item;
}

// What one ADD PARTITION puts on the topic in minimal mode.
impala::TTopicDelta DdlDelta() {
  impala::TCatalogObject catalog;
  catalog.type = impala::TCatalogObjectType::CATALOG;
  catalog.catalog_version = 1001;
  catalog.__set_catalog(impala::TCatalog());
  catalog.catalog.catalog_service_id.hi = 7;
  impala::TCatalogObject table;
  table.type = impala::TCatalogObjectType::TABLE;
  table.catalog_version = 1001;
  table.__set_table(impala::TTable());
  table.table.db_name = "tpcds";
  table.table.tbl_name = "store_sales";
  impala::TTopicDelta d;
  d.topic_name = "catalog-update";
  d.is_delta = true;
  d.topic_entries = {Entry(table), Entry(catalog)};
  return d;
}

void BM_ForEachTopicEntry(benchmark::State& state) {
  const impala::TTopicDelta delta = DdlDelta();
  int64_t seen = 0;
  for (auto _ : state) {
    for (TopicEntries which : {TopicEntries::kCatalogService, TopicEntries::kAllButCatalogService}) {
      ForEachTopicEntry(delta, kInvalidationPrefix, CatalogTopicFormat(), which,
                        [&](const impala::TCatalogObject& o, bool) { seen += o.catalog_version; });
    }
  }
  benchmark::DoNotOptimize(seen);
}
BENCHMARK(BM_ForEachTopicEntry);

// Baseline: the same two passes, each entry decoded into a fresh object.
void BM_FreshObjectPerEntry(benchmark::State& state) {
  const impala::TTopicDelta delta = DdlDelta();
  int64_t seen = 0;
  for (auto _ : state) {
    for (bool catalog_pass : {true, false}) {
      for (const impala::TTopicItem& item : delta.topic_entries) {
        if (IsCatalogServiceEntry(item.key) != catalog_pass) continue;
        impala::TCatalogObject obj;
        if (DecodeCatalogTopicValue(item.value, CatalogTopicFormat(), &obj).ok()) {
          seen += obj.catalog_version;
        }
      }
    }
  }
  benchmark::DoNotOptimize(seen);
}
BENCHMARK(BM_FreshObjectPerEntry);

}  // namespace
}  // namespace ics::coord

BENCHMARK_MAIN();
