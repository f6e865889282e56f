// TableService figures (prints, asserts nothing):
//  - SearchTables latency over N tables (default 10,000): the first search
//    (table objects read from the metastore into the directory cache) and
//    warm searches (free text, a property filter, sorted);
//  - UpdateTable latency with version archiving vs skip_archive.
// Usage: table_bench [num_tables] [num_updates]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <unistd.h>

#include "catalogd/ddl/ddl_executor.h"
#include "catalogd/loader/table_load_manager.h"
#include "catalogd/mds/table_service_door.h"
#include "catalogd/ops/command_core.h"
#include "common/types/column_type.h"

namespace ics::catalog {
namespace {

using Clock = std::chrono::steady_clock;

double MsSince(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

void Die(const Status& s, const char* what) {
  if (s.ok()) return;
  std::fprintf(stderr, "%s: %s\n", what, s.ToString().c_str());
  std::exit(1);
}

// Percentiles of a sample, in ms.
void PrintLatency(const char* what, std::vector<double> ms) {
  std::sort(ms.begin(), ms.end());
  auto at = [&](double q) { return ms[static_cast<size_t>(q * (ms.size() - 1))]; };
  double sum = 0;
  for (double v : ms) sum += v;
  std::printf("%-44s n=%-5zu mean=%8.3f ms  p50=%8.3f  p90=%8.3f  max=%8.3f\n", what, ms.size(),
              sum / ms.size(), at(0.5), at(0.9), ms.back());
}

int Run(int num_tables, int num_updates) {
  const std::string root =
      (std::filesystem::temp_directory_path() / ("ics_table_bench_" + std::to_string(getpid())))
          .string();
  std::filesystem::create_directories(root);
  {
    auto ms = OpenSqliteMetastore(root + "/metastore.db");
    Die(ms.status(), "open metastore");
    std::unique_ptr<Metastore> metastore = std::move(ms).value();
    LocalFileSystem fs;
    Catalog catalog;
    LoaderOptions lo;
    lo.num_threads = 2;
    TableLoader loader(metastore.get(), &fs, lo, catalog.partition_id_allocator());
    TableLoadManager loads(&catalog, &loader, 0);
    CatalogContext ctx;
    ctx.catalog = &catalog;
    ctx.metastore = metastore.get();
    ctx.fs = &fs;
    ctx.loader = &loader;
    ctx.loads = &loads;
    ctx.warehouse_dir = root + "/warehouse";
    DdlExecutor ddl(&ctx);
    ops::CommandCore commands(&ctx, &ddl);
    ops::CatalogQueries queries(metastore.get());
    mds::TableServiceDoor service(std::make_shared<ops::TableCommands>(&ctx, &commands, &queries));

    // Setup: one metastore txn of N tables (through the metastore, then the
    // catalog's names, as catalogd loads them at startup).
    const auto t_setup = Clock::now();
    MetastoreTxn txn;
    MetastoreOp db;
    db.kind = MetastoreOp::Kind::kCreateDatabase;
    db.database.name = "bench";
    db.database.locationUri = ctx.warehouse_dir + "/bench.db";
    txn.ops.push_back(db);
    const char* kinds[] = {"orders", "customer", "web_sales", "inventory", "link"};
    for (int i = 0; i < num_tables; ++i) {
      MetastoreOp op;
      op.kind = MetastoreOp::Kind::kCreateTable;
      hive::Table& t = op.table;
      t.dbName = "bench";
      t.tableName = std::string(kinds[i % 5]) + "_" + std::to_string(i);
      t.owner = i % 7 == 0 ? "alice" : "bob";
      t.tableType = "EXTERNAL_TABLE";
      t.createTime = 1700000000 + i;
      t.sd.location = ctx.warehouse_dir + "/bench.db/" + t.tableName;
      for (int c = 0; c < 8; ++c) {
        hive::FieldSchema f;
        f.name = "col_" + std::to_string(c) + (i % 100 == 0 ? "_rare" : "");
        f.type = "bigint";
        t.sd.cols.push_back(f);
      }
      t.parameters["classification"] = i % 3 == 0 ? "parquet" : "csv";
      t.parameters["comment"] = "table number " + std::to_string(i);
      txn.ops.push_back(std::move(op));
    }
    Die(metastore->Commit(txn).status(), "create tables");
    ChangeSet cs;
    auto d = std::make_shared<DatabaseState>();
    d->name = "bench";
    d->hms = *metastore->GetDatabase("bench");
    cs.put_databases.push_back(d);
    const std::vector<std::string> names = *metastore->GetAllTables("bench");
    for (const std::string& t : names) {
      cs.put_tables.push_back(MakeUnloadedTable("bench", t));
    }
    catalog.ResetAll(std::move(cs));
    std::printf("setup: %d tables in %.0f ms\n", num_tables, MsSince(t_setup));

    thrift::TSearchTablesRequest text;
    text.__set_search_text("rare");
    text.__set_max_results(1000);
    auto t0 = Clock::now();
    auto r = service.SearchTables(text);
    Die(r.status(), "search");
    std::printf("SearchTables, first (reads %d objects):      %8.1f ms, %zu hits\n", num_tables,
                MsSince(t0), r->tables.size());

    thrift::TSearchTablesRequest filter;
    thrift::TPropertyPredicate p;
    p.key = "classification";
    p.value = "parquet";
    filter.__set_filters({p});
    thrift::TPropertyPredicate owner;
    owner.key = "Owner";
    owner.value = "alice";
    filter.filters.push_back(owner);
    thrift::TSortCriterion sort;
    sort.field_name = "CreateTime";
    sort.__set_sort(thrift::TSortDirection::DESCENDING);
    filter.__set_sort_criteria({sort});
    filter.__set_max_results(100);

    std::vector<double> warm_text, warm_filter, get_tables;
    for (int i = 0; i < 20; ++i) {
      t0 = Clock::now();
      Die(service.SearchTables(text).status(), "search");
      warm_text.push_back(MsSince(t0));
      t0 = Clock::now();
      Die(service.SearchTables(filter).status(), "search");
      warm_filter.push_back(MsSince(t0));
      thrift::TGetTablesRequest gt;
      gt.db_name = "bench";
      gt.__set_expression("link_*");
      t0 = Clock::now();
      Die(service.GetTables(gt).status(), "get tables");
      get_tables.push_back(MsSince(t0));
    }
    PrintLatency("SearchTables warm, free text", warm_text);
    PrintLatency("SearchTables warm, 2 filters + sort", warm_filter);
    PrintLatency("GetTables 'link_*', 100 per page", get_tables);

    // UpdateTable: archive vs skip_archive, alternating over 10 tables.
    for (bool skip : {false, true}) {
      std::vector<double> lat;
      for (int i = 0; i < num_updates; ++i) {
        thrift::TGetTableRequest g;
        g.db_name = "bench";
        g.table_name = std::string(kinds[i % 5]) + "_" + std::to_string(i % 10);
        auto cur = service.GetTable(g);
        Die(cur.status(), "get table");
        thrift::TUpdateTableRequest u;
        u.db_name = "bench";
        u.table_input.name = g.table_name;
        u.table_input.__set_sd(cur->table.sd);
        u.table_input.__set_owner(cur->table.owner);
        u.table_input.__set_table_type(cur->table.tableType);
        u.table_input.__set_parameters(cur->table.parameters);
        u.table_input.parameters["n"] = std::to_string(i);
        if (skip) u.__set_skip_archive(true);
        t0 = Clock::now();
        Die(service.UpdateTable(u).status(), "update");
        lat.push_back(MsSince(t0));
      }
      PrintLatency(skip ? "UpdateTable, skip_archive" : "UpdateTable, archiving the old version",
                   lat);
    }
    loads.Shutdown();
  }
  std::error_code ec;
  std::filesystem::remove_all(root, ec);
  return 0;
}

}  // namespace
}  // namespace ics::catalog

int main(int argc, char** argv) {
  const int tables = argc > 1 ? std::atoi(argv[1]) : 10000;
  const int updates = argc > 2 ? std::atoi(argv[2]) : 200;
  if (tables < 10 || updates < 1) {
    std::fprintf(stderr, "usage: table_bench [num_tables >= 10] [num_updates >= 1]\n");
    return 2;
  }
  return ics::catalog::Run(tables, updates);
}
