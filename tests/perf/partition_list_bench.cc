// partition_list_bench: PartitionService filtered listing over one table of
// --partitions partitions (default 100,000), first by scanning every
// partition, then through a partition index on (year, month, day), in the
// same run; prints per-query times and the speed-up. Also prints how fast
// the table was filled with BatchCreatePartitions (900 per batch) and how
// long the index took to build.
//
// The stack is catalogd's in process: the SQLite metastore in a temp
// directory, a synthetic file system (no real directories or files), the
// catalog, the DDL executor and the partition commands, called through the
// PartitionService door (Thrift requests and responses).
//
//   build/bin/partition_list_bench [--partitions=100000] [--repeat=20]
#include <gflags/gflags.h>
#include <glog/logging.h>

#include <chrono>
#include <thread>

#include "catalogd/catalog/catalog.h"
#include "catalogd/ddl/ddl_executor.h"
#include "catalogd/loader/file_system.h"
#include "catalogd/loader/table_load_manager.h"
#include "catalogd/loader/table_loader.h"
#include "catalogd/mds/partition_service_door.h"
#include "catalogd/ops/command_core.h"
#include "common/types/column_type.h"
#include "tests/perf/perf_util.h"

DEFINE_int32(partitions, 100000, "Partitions in the table.");
DEFINE_int32(repeat, 20, "Times each filter is listed per mode.");

namespace ics::perf {
namespace {

using catalog::mds::PartitionServiceDoor;
namespace thrift = ::ics::thrift;

constexpr const char* kBench = "partition_list_bench";

hive::FieldSchema Col(const std::string& name, const std::string& type) {
  hive::FieldSchema c;
  c.name = name;
  c.type = type;
  return c;
}

thrift::TPartitionTableName Table() {
  thrift::TPartitionTableName t;
  t.db_name = "bench";
  t.table_name = "events";
  return t;
}

// The i-th partition: 15 regions per day, 28 days per month, 12 months per
// year from 2000 on.
std::vector<std::string> Values(int i) {
  const int region = i % 15;
  const int day = (i / 15) % 28 + 1;
  const int month = (i / (15 * 28)) % 12 + 1;
  const int year = 2000 + i / (15 * 28 * 12);
  return {std::to_string(year), std::to_string(month), std::to_string(day),
          "r" + std::to_string(region)};
}

struct Query {
  const char* name;
  std::string filter;
};

int Run() {
  TempDir dir("partition_list_bench");
  if (!dir.ok()) return 1;
  auto ms = catalog::OpenSqliteMetastore(dir.path() + "/metastore.db");
  if (!ms.ok()) {
    LOG(ERROR) << ms.status().ToString();
    return 1;
  }
  catalog::SyntheticFileSystemOptions fso;
  fso.files_per_dir = 1;
  catalog::SyntheticFileSystem fs(fso);
  catalog::Catalog cat;
  catalog::LoaderOptions lo;
  lo.num_threads = 2;
  catalog::TableLoader loader(ms->get(), &fs, lo, cat.partition_id_allocator());
  catalog::TableLoadManager loads(&cat, &loader, 0);
  catalog::CatalogContext ctx;
  ctx.catalog = &cat;
  ctx.metastore = ms->get();
  ctx.fs = &fs;
  ctx.loader = &loader;
  ctx.loads = &loads;
  ctx.warehouse_dir = dir.path() + "/warehouse";
  catalog::DdlExecutor ddl(&ctx);
  catalog::ops::CommandCore commands(&ctx, &ddl);
  auto partitions = std::make_shared<catalog::ops::PartitionCommands>(
      &ctx, &commands, catalog::ops::PartitionCommandsOptions{});
  PartitionServiceDoor svc(partitions);

  catalog::CreateDatabaseCommand db;
  db.db.name = "bench";
  catalog::CreateTableCommand table;
  table.table.dbName = "bench";
  table.table.tableName = "events";
  table.table.sd.cols = {Col("id", "bigint"), Col("payload", "string")};
  table.table.partitionKeys = {Col("year", "int"), Col("month", "int"), Col("day", "int"),
                               Col("region", "string")};
  table.file_format = impala::THdfsFileFormat::PARQUET;
  table.table.owner = "bench";
  for (Status s : {ddl.CreateDatabase(db).status(), ddl.CreateTable(table).status()}) {
    if (!s.ok()) {
      LOG(ERROR) << s.ToString();
      return 1;
    }
  }

  // ---- fill ----
  const int n = FLAGS_partitions;
  auto t0 = Clock::now();
  int batches = 0;
  for (int start = 0; start < n; start += 900) {
    thrift::TBatchCreatePartitionsRequest req;
    req.table = Table();
    for (int i = start; i < std::min(n, start + 900); ++i) {
      thrift::TMetastorePartition p;
      p.values = Values(i);
      req.partitions.push_back(std::move(p));
    }
    auto r = svc.BatchCreate(req);
    if (!r.ok()) {
      LOG(ERROR) << r.status().ToString();
      return 1;
    }
    ++batches;
  }
  const double fill_s = SecondsSince(t0);
  Figure(kBench, "partitions", n);
  Figure(kBench, "batch create rate", n / fill_s, "partitions/s",
         std::to_string(batches) + " batches of <= 900");
  Figure(kBench, "batch create latency", fill_s * 1000 / batches, "ms/batch", "average");

  const std::vector<Query> queries = {
      {"eq-year-month", "year = 2005 AND month = 6"},
      {"eq-year-month-day", "year = 2005 AND month = 6 AND day = 15"},
      {"in-years-month-range", "year IN (2001, 2007) AND month BETWEEN 3 AND 4"},
      {"eq-day-region", "year = 2003 AND month = 2 AND day = 7 AND region = 'r3'"},
      {"range-year", "year >= 2019"},
      {"not-indexable", "region = 'r7' AND day = 1"},
  };

  auto list_all = [&](const std::string& filter, std::string* index_used) -> int64_t {
    thrift::TListPartitionsRequest req;
    req.table = Table();
    req.__set_filter(filter);
    req.__set_page_size(1000);
    int64_t count = 0;
    while (true) {
      auto r = svc.List(req);
      if (!r.ok()) {
        LOG(ERROR) << r.status().ToString();
        return -1;
      }
      count += static_cast<int64_t>(r->partitions.size());
      *index_used = r->index_used;
      if (!r->__isset.next_page_token) break;
      req.__set_page_token(r->next_page_token);
    }
    return count;
  };
  // Median milliseconds per complete listing (all pages).
  auto time_query = [&](const Query& q, int64_t* matches, std::string* index_used) {
    std::vector<double> ms_list;
    for (int i = 0; i < FLAGS_repeat; ++i) {
      auto s = Clock::now();
      *matches = list_all(q.filter, index_used);
      ms_list.push_back(SecondsSince(s) * 1000);
    }
    std::sort(ms_list.begin(), ms_list.end());
    return ms_list[ms_list.size() / 2];
  };

  std::vector<double> scan_ms;
  std::vector<int64_t> scan_matches;
  for (const Query& q : queries) {
    int64_t matches = 0;
    std::string used;
    scan_ms.push_back(time_query(q, &matches, &used));
    scan_matches.push_back(matches);
    Figure(kBench, std::string("scan ") + q.name, scan_ms.back(), "ms/listing",
           std::to_string(matches) + " partitions: " + q.filter);
  }

  // ---- index ----
  thrift::TCreatePartitionIndexRequest ci;
  ci.table = Table();
  ci.index_name = "by_date";
  ci.keys = {"year", "month", "day"};
  t0 = Clock::now();
  if (auto r = svc.CreateIndex(ci); !r.ok()) {
    LOG(ERROR) << r.status().ToString();
    return 1;
  }
  while (true) {  // the index is built in the background
    thrift::TGetPartitionIndexesRequest gi;
    gi.table = Table();
    auto r = svc.GetIndexes(gi);
    if (!r.ok() || r->indexes.empty()) return 1;
    if (r->indexes[0].state == thrift::TPartitionIndexState::ACTIVE) break;
    if (r->indexes[0].state == thrift::TPartitionIndexState::FAILED) return 1;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  Figure(kBench, "index build", SecondsSince(t0) * 1000, "ms", "create call to ACTIVE, 3 keys");

  for (size_t i = 0; i < queries.size(); ++i) {
    int64_t matches = 0;
    std::string used;
    const double ms_index = time_query(queries[i], &matches, &used);
    if (matches != scan_matches[i]) {
      LOG(ERROR) << queries[i].name << ": the index listed " << matches << " partitions, the scan "
                 << scan_matches[i];
      return 1;
    }
    Figure(kBench, std::string("index ") + queries[i].name, ms_index, "ms/listing",
           used.empty() ? "index not usable: scanned" : "via " + used);
    Figure(kBench, std::string("speed-up ") + queries[i].name, scan_ms[i] / ms_index, "x");
  }
  partitions->Shutdown();
  loads.Shutdown();
  return 0;
}

}  // namespace
}  // namespace ics::perf

int main(int argc, char** argv) {
  gflags::ParseCommandLineFlags(&argc, &argv, true);
  google::InitGoogleLogging(argv[0]);
  FLAGS_logtostderr = true;
  FLAGS_minloglevel = 1;
  return ics::perf::Run();
}
