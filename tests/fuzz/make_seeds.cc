// fuzz_make_seeds: writes the checked-in seed corpora and the Thrift method
// dictionaries of the fuzz targets, so they can be regenerated exactly:
//
//   build/bin/fuzz_make_seeds tests/fuzz
//
// writes tests/fuzz/corpus/<target>/<seed> (overwriting only the files it
// names; regression inputs added by hand stay) and
// tests/fuzz/dict/<target>.dict for the RPC targets (method names, read from
// the generated processors). RPC seeds are requests as a client sends them
// (TBinaryProtocol, strict header; several messages in one seed form a
// session), about the objects every fuzz stack starts with
// (tests/fuzz/fuzz_stacks.h). Codec seeds are encoded from the catalog of a
// seeded in-process catalogd. Hand-written dictionaries (SQL keywords,
// filters) live next to the generated ones.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <thrift/protocol/TBinaryProtocol.h>
#include <thrift/protocol/TMultiplexedProtocol.h>
#include <thrift/transport/TBufferTransports.h>

#include "CatalogService.h"
#include "CoordinatorService.h"
#include "PartitionService.h"
#include "StatestoreHaService.h"
#include "StatestoreService.h"
#include "StatestoreSubscriber.h"
#include "TableService.h"
#include "ThriftHiveMetastore.h"
#include "catalogd/topic/catalog_topic_publisher.h"
#include "common/codec/partition_stats.h"
#include "common/codec/thrift_serde.h"
#include "common/types/column_type.h"
#include "tests/fuzz/fuzz_stacks.h"
#include "tests/fuzz/make_seeds.h"

namespace ics::fuzz {
namespace {

using apache::thrift::protocol::TBinaryProtocol;
using apache::thrift::protocol::TMultiplexedProtocol;
using apache::thrift::protocol::TProtocol;
using apache::thrift::transport::TMemoryBuffer;

std::filesystem::path g_out;
int g_files = 0;

}  // namespace

void Write(const std::string& target, const std::string& name, const std::string& bytes) {
  const std::filesystem::path dir = g_out / "corpus" / target;
  std::filesystem::create_directories(dir);
  std::ofstream(dir / name, std::ios::binary) << bytes;
  ++g_files;
}

void WriteDict(const std::string& target, const std::string& text) {
  std::filesystem::create_directories(g_out / "dict");
  std::ofstream(g_out / "dict" / (target + ".dict")) << text;
  ++g_files;
}

std::string MustSerialize(const apache::thrift::TBase& obj, ThriftProtocol p) {
  auto r = SerializeThrift(obj, p);
  if (!r.ok()) {
    std::cerr << "serialize: " << r.status().ToString() << "\n";
    std::exit(1);
  }
  return *r;
}

impala::TCatalogObject TableDesc(const std::string& table) {
  impala::TCatalogObject o;
  o.type = impala::TCatalogObjectType::TABLE;
  o.catalog_version = 0;
  impala::TTable t;
  t.db_name = kDb;
  t.tbl_name = table;
  o.__set_table(t);
  return o;
}

// Topic values of the seeded catalog, as catalogd publishes them.
impala::TTopicDelta SeedTopic(CatalogdStack& stack, catalog::TopicMode mode) {
  catalog::PublisherOptions po;
  po.mode = mode;
  catalog::CatalogTopicPublisher publisher(stack.catalog(), po);
  impala::TTopicDelta topic = publisher.BuildFullTopic();
  topic.topic_name = ics::kCatalogTopic;
  topic.is_delta = false;
  return topic;
}

const impala::TTopicItem* FindEntry(const impala::TTopicDelta& topic, const std::string& prefix) {
  for (const auto& item : topic.topic_entries) {
    if (item.key.compare(0, prefix.size(), prefix) == 0) return &item;
  }
  return nullptr;
}

namespace {

// ---- request pieces ----

impala::TTableName SalesName() { return TableName(kDb, kPartTable); }

impala::TPartitionKeyValue Kv(const std::string& k, const std::string& v) {
  impala::TPartitionKeyValue kv;
  kv.name = k;
  kv.value = v;
  return kv;
}

hive::FieldSchema Field(const std::string& name, const std::string& type) {
  hive::FieldSchema f;
  f.name = name;
  f.type = type;
  return f;
}

hive::Table HiveTable(const std::string& name) {
  hive::Table t;
  t.dbName = kDb;
  t.tableName = name;
  t.owner = "fuzz";
  t.tableType = "MANAGED_TABLE";
  t.sd.cols = {Field("id", "bigint"), Field("tags", "array<string>")};
  t.sd.inputFormat = "org.apache.hadoop.mapred.TextInputFormat";
  t.sd.outputFormat = "org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat";
  t.sd.serdeInfo.serializationLib = "org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe";
  t.partitionKeys = {Field("dt", "string"), Field("n", "int")};
  t.parameters = {{"comment", "made by fuzz_make_seeds"}};
  return t;
}

// ---- per target ----

void CatalogServiceSeeds() {
  using Client = impala::CatalogServiceClient;
  const std::vector<impala::TDdlExecRequest> seed_ddl = SeedDdl();
  Write("catalog_service_fuzz", "create_db_table", Calls<Client>([&](Client& c) {
          impala::TDdlExecRequest db = seed_ddl[0];
          db.create_db_params.db = "fuzzdb2";
          c.send_ExecDdl(db);
          impala::TDdlExecRequest t = seed_ddl[1];
          t.create_table_params.table_name = TableName("fuzzdb2", "t");
          t.create_table_params.__set_location("/outside/the/sandbox");
          c.send_ExecDdl(t);
        }));
  Write("catalog_service_fuzz", "exactly_once_repeat", Calls<Client>([&](Client& c) {
          // A request with an id, then its repeat (the reply was lost).
          impala::TDdlExecRequest db = seed_ddl[0];
          db.create_db_params.db = "fuzzdb3";
          db.__isset.header = true;
          db.header.request_id.hi = 11;
          db.header.request_id.lo = 12;
          c.send_ExecDdl(db);
          db.header.__set_request_repeated(true);
          c.send_ExecDdl(db);
        }));
  Write("catalog_service_fuzz", "alter_partitions", Calls<Client>([&](Client& c) {
          impala::TDdlExecRequest add = seed_ddl[3];
          add.alter_table_params.add_partition_params.partitions.resize(1);
          add.alter_table_params.add_partition_params.partitions[0].partition_spec = {
              Kv("year", "2025"), Kv("region", "ap")};
          add.alter_table_params.add_partition_params.if_not_exists = true;
          c.send_ExecDdl(add);
          impala::TDdlExecRequest drop = DdlRequest(impala::TDdlType::ALTER_TABLE);
          drop.__isset.alter_table_params = true;
          drop.alter_table_params.alter_type = impala::TAlterTableType::DROP_PARTITION;
          drop.alter_table_params.table_name = SalesName();
          drop.alter_table_params.__isset.drop_partition_params = true;
          drop.alter_table_params.drop_partition_params.partition_set = {
              {Kv("year", "2023"), Kv("region", "eu")}};
          drop.alter_table_params.drop_partition_params.if_exists = true;
          drop.alter_table_params.drop_partition_params.purge = false;
          drop.query_options.sync_ddl = true;
          c.send_ExecDdl(drop);
        }));
  Write("catalog_service_fuzz", "partial_fetch", Calls<Client>([&](Client& c) {
          impala::TGetPartialCatalogObjectRequest req;
          req.object_desc = TableDesc(kPartTable);
          impala::TTableInfoSelector sel;
          sel.want_hms_table = true;
          sel.want_partition_names = true;
          sel.want_partition_metadata = true;
          sel.want_partition_files = true;
          sel.want_partition_stats = true;
          sel.__set_want_stats_for_column_names({"id", "amount"});
          req.__set_table_info_selector(sel);
          c.send_GetPartialCatalogObject(req);
          impala::TGetPartialCatalogObjectRequest db;
          db.object_desc.type = impala::TCatalogObjectType::DATABASE;
          impala::TDatabase d;
          d.db_name = kDb;
          db.object_desc.__set_db(d);
          impala::TDbInfoSelector dsel;
          dsel.want_hms_database = true;
          dsel.want_brief_meta_of_tables = true;
          dsel.want_function_names = true;
          db.__set_db_info_selector(dsel);
          c.send_GetPartialCatalogObject(db);
        }));
  Write("catalog_service_fuzz", "get_objects", Calls<Client>([&](Client& c) {
          impala::TGetCatalogObjectRequest get;
          get.object_desc = TableDesc(kFlatTable);
          c.send_GetCatalogObject(get);
          impala::TGetPartitionStatsRequest stats;
          stats.table_name = SalesName();
          c.send_GetPartitionStats(stats);
          impala::TGetFunctionsRequest fns;
          fns.__set_db_name(kDb);
          c.send_GetFunctions(fns);
          impala::TPrioritizeLoadRequest prio;
          prio.object_descs = {TableDesc(kView)};
          c.send_PrioritizeLoad(prio);
        }));
  Write("catalog_service_fuzz", "update_and_reset", Calls<Client>([&](Client& c) {
          impala::TUpdateCatalogRequest upd;
          upd.sync_ddl = false;
          upd.db_name = kDb;
          upd.target_table = kPartTable;
          impala::TUpdatedPartition files;
          files.files = {"data_0.txt"};
          upd.updated_partitions = {{"year=2024/region=us", files}};
          upd.is_overwrite = false;
          c.send_UpdateCatalog(upd);
          impala::TResetMetadataRequest reset;
          reset.is_refresh = true;
          reset.sync_ddl = false;
          reset.__set_table_name(SalesName());
          reset.__set_partition_spec({Kv("year", "2024"), Kv("region", "us")});
          c.send_ResetMetadata(reset);
          impala::TGetNullPartitionNameRequest null_name;
          c.send_GetNullPartitionName(null_name);
        }));
}

void HmsSeeds() {
  using Client = hive::ThriftHiveMetastoreClient;
  Write("hms_fuzz", "reads", Calls<Client>([](Client& c) {
          c.send_get_all_databases();
          c.send_get_table(kDb, kPartTable);
          c.send_get_partition_names(kDb, kPartTable, -1);
          c.send_get_partitions_by_filter(kDb, kPartTable, "year = 2024 and region like \"u.*\"",
                                          100);
          c.send_get_config_value("hive.metastore.warehouse.dir", "");
        }));
  Write("hms_fuzz", "create_objects", Calls<Client>([](Client& c) {
          hive::Database db;
          db.name = "hmsdb";
          db.description = "from the fuzz seeds";
          c.send_create_database(db);
          hive::Table t = HiveTable("events");
          t.dbName = "hmsdb";
          c.send_create_table(t);
          hive::Partition p;
          p.dbName = "hmsdb";
          p.tableName = "events";
          p.values = {"2024-01-31", "7"};
          hive::Partition added;
          c.send_add_partition(p);
          c.send_append_partition_by_name("hmsdb", "events", "dt=2024-02-01/n=8");
        }));
  Write("hms_fuzz", "partitions", Calls<Client>([](Client& c) {
          c.send_get_partition(kDb, kPartTable, {"2024", "us"});
          c.send_get_partitions_ps(kDb, kPartTable, {"2024"}, -1);
          c.send_partition_name_to_vals("year=2024/region=a%2Fb");
          c.send_partition_name_to_spec("year=2024/region=us");
          hive::DropPartitionsRequest drop;
          drop.dbName = kDb;
          drop.tblName = kPartTable;
          drop.parts.__set_names({"year=2023/region=eu"});
          c.send_drop_partitions_req(drop);
        }));
  Write("hms_fuzz", "stats_functions", Calls<Client>([](Client& c) {
          hive::TableStatsRequest req;
          req.dbName = kDb;
          req.tblName = kPartTable;
          req.colNames = {"id", "amount"};
          c.send_get_table_statistics_req(req);
          c.send_get_functions(kDb, "*");
          c.send_get_function(kDb, std::string(kFunction) + "(int)");
          hive::NotificationEventRequest ev;
          ev.lastEvent = 0;
          ev.__set_maxEvents(10);
          c.send_get_next_notification(ev);
        }));
  Write("hms_fuzz", "alter_table", Calls<Client>([](Client& c) {
          hive::Table t = HiveTable(kFlatTable);
          t.partitionKeys.clear();
          t.sd.cols = {Field("id", "bigint"), Field("label", "string"),
                       Field("extra", "map<string,decimal(10,2)>")};
          c.send_alter_table(kDb, kFlatTable, t);
          c.send_drop_table(kDb, kView, true);
        }));
  // What Hive 3/4 clients send: catalog-prefixed names, request objects,
  // notification filters.
  Write("hms_fuzz", "hive4_requests", Calls<Client>([](Client& c) {
          c.send_get_databases("@hive#");
          hive::GetTableRequest t;
          t.dbName = kDb;
          t.tblName = kPartTable;
          t.__set_catName("hive");
          t.__set_getColumnStats(true);
          c.send_get_table_req(t);
          hive::GetTablesRequest ts;
          ts.dbName = "@hive#" + std::string(kDb);
          ts.__set_tablesPattern("*");
          c.send_get_table_objects_by_name_req(ts);
          c.send_get_schema(kDb, kPartTable);
          hive::GetPartitionNamesPsRequest ps;
          ps.dbName = kDb;
          ps.tblName = kPartTable;
          ps.__set_partValues({"2024"});
          c.send_get_partition_names_ps_req(ps);
          hive::NotificationEventRequest n;
          n.lastEvent = 0;
          n.__set_dbName(kDb);
          n.__set_eventTypeSkipList({"CREATE_DATABASE"});
          c.send_get_next_notification(n);
          hive::GetPartitionsByNamesRequest byname;
          byname.db_name = "@hive#" + std::string(kDb);
          byname.tbl_name = kPartTable;
          byname.__set_names({"year=2024/region=us"});
          byname.__set_get_col_stats(true);
          c.send_get_partitions_by_names_req(byname);
          c.send_get_catalogs();
        }));
}

thrift::TPartitionTableName PartTable() {
  thrift::TPartitionTableName n;
  n.db_name = kDb;
  n.table_name = kPartTable;
  return n;
}

thrift::TMetastorePartition MsPartition(const std::vector<std::string>& values) {
  thrift::TMetastorePartition p;
  p.values = values;
  p.__set_parameters({{"owner", "fuzz"}});
  return p;
}

void MetastoreServicesSeeds() {
  using PClient = thrift::PartitionServiceClient;
  using TClient = thrift::TableServiceClient;
  const std::string p = "PartitionService";
  const std::string t = "TableService";
  Write("metastore_services_fuzz", "list_partitions", Calls<PClient>([](PClient& c) {
          thrift::TListPartitionsRequest req;
          req.table = PartTable();
          req.__set_filter("year BETWEEN 2023 AND 2024 AND region IN ('eu', 'us') OR region IS NULL");
          req.__set_page_size(2);
          c.send_ListPartitions(req);
        }, p));
  Write("metastore_services_fuzz", "batches", Calls<PClient>([](PClient& c) {
          thrift::TBatchCreatePartitionsRequest create;
          create.table = PartTable();
          create.partitions = {MsPartition({"2030", "mars"}), MsPartition({"2031", "venus"})};
          c.send_BatchCreatePartitions(create);
          thrift::TBatchUpdatePartitionsRequest update;
          update.table = PartTable();
          thrift::TPartitionUpdate u;
          u.partition = MsPartition({"2030", "mars"});
          u.__set_update_mask({"parameters"});
          update.updates = {u};
          c.send_BatchUpdatePartitions(update);
          thrift::TBatchDeletePartitionsRequest del;
          del.table = PartTable();
          del.partition_values = {{"2031", "venus"}};
          c.send_BatchDeletePartitions(del);
        }, p));
  Write("metastore_services_fuzz", "index_and_stream", Calls<PClient>([](PClient& c) {
          thrift::TCreatePartitionIndexRequest idx;
          idx.table = PartTable();
          idx.index_name = "by_year";
          idx.keys = {"year"};
          c.send_CreatePartitionIndex(idx);
          thrift::TGetPartitionIndexesRequest get;
          get.table = PartTable();
          c.send_GetPartitionIndexes(get);
          thrift::TOpenWriteStreamRequest open;
          open.table = PartTable();
          c.send_OpenWriteStream(open);
          thrift::TCommitWriteStreamRequest commit;
          commit.stream_id = "no-such-stream";
          c.send_CommitWriteStream(commit);
        }, p));
  Write("metastore_services_fuzz", "table_reads", Calls<TClient>([](TClient& c) {
          thrift::TGetTableRequest get;
          get.db_name = kDb;
          get.table_name = kPartTable;
          c.send_GetTable(get);
          thrift::TGetTablesRequest list;
          list.db_name = kDb;
          list.__set_expression("sal*|item.");
          c.send_GetTables(list);
          thrift::TSearchTablesRequest search;
          search.__set_search_text("\"id\"");
          thrift::TPropertyPredicate pred;
          pred.key = "DatabaseName";
          pred.value = kDb;
          search.__set_filters({pred});
          thrift::TSortCriterion sort;
          sort.field_name = "name";
          search.__set_sort_criteria({sort});
          c.send_SearchTables(search);
          thrift::TGetColumnStatisticsRequest stats;
          stats.db_name = kDb;
          stats.table_name = kPartTable;
          stats.column_names = {"id", "name"};
          c.send_GetColumnStatistics(stats);
        }, t));
  Write("metastore_services_fuzz", "table_versions", Calls<TClient>([](TClient& c) {
          thrift::TUpdateTableRequest upd;
          upd.db_name = kDb;
          upd.table_input.name = kFlatTable;
          upd.table_input.__set_description("second version");
          hive::StorageDescriptor sd;
          sd.cols = {Field("id", "bigint"), Field("label", "varchar(64)")};
          upd.table_input.__set_sd(sd);
          c.send_UpdateTable(upd);
          thrift::TGetTableVersionsRequest versions;
          versions.db_name = kDb;
          versions.table_name = kFlatTable;
          c.send_GetTableVersions(versions);
          thrift::TGetTableRequest old;
          old.db_name = kDb;
          old.table_name = kFlatTable;
          old.__set_version_id("1");
          c.send_GetTable(old);
        }, t));
}

void CoordinatorSeeds() {
  using Client = thrift::CoordinatorServiceClient;
  auto stmt = [](Client& c, const std::string& sql, const std::string& db = "",
                 std::map<std::string, std::string> options = {}) {
    thrift::TExecuteStatementRequest req;
    req.statement = sql;
    if (!db.empty()) req.__set_default_db(db);
    if (!options.empty()) req.__set_query_options(options);
    c.send_ExecuteStatement(req);
  };
  Write("coordinator_service_fuzz", "explain_select", Calls<Client>([&](Client& c) {
          stmt(c, "EXPLAIN SELECT region, count(*) FROM sales WHERE year = 2024 AND "
                  "region IN ('us', 'eu') GROUP BY region ORDER BY region LIMIT 10",
               kDb);
          stmt(c, "EXPLAIN SELECT id, label FROM fuzzdb.items_view WHERE id BETWEEN 1 AND 5", kDb);
        }));
  Write("coordinator_service_fuzz", "insert_stats", Calls<Client>([&](Client& c) {
          stmt(c, "INSERT INTO fuzzdb.sales PARTITION (year=2024, region) VALUES "
                  "(7, 'x', 1.5, 'us'), (8, NULL, -2, NULL)");
          stmt(c, "COMPUTE INCREMENTAL STATS fuzzdb.sales PARTITION (year=2024, region='us')");
          stmt(c, "SHOW COLUMN STATS fuzzdb.sales");
        }));
  Write("coordinator_service_fuzz", "show_describe", Calls<Client>([&](Client& c) {
          stmt(c, "SHOW PARTITIONS sales", kDb);
          stmt(c, "DESCRIBE FORMATTED fuzzdb.items");
          stmt(c, "SHOW CREATE TABLE fuzzdb.sales");
          stmt(c, "SHOW FILES IN fuzzdb.sales PARTITION (year=2024, region='us')");
          stmt(c, "SHOW FUNCTIONS IN fuzzdb");
        }));
  Write("coordinator_service_fuzz", "ddl_session", Calls<Client>([&](Client& c) {
          stmt(c, "SET SYNC_DDL=1");
          stmt(c, "USE fuzzdb");
          stmt(c, "CREATE TABLE IF NOT EXISTS t2 (a INT COMMENT 'x', b MAP<STRING,ARRAY<INT>>) "
                  "PARTITIONED BY (d STRING) STORED AS PARQUET TBLPROPERTIES ('k'='v')",
               kDb, {{"SYNC_DDL", "1"}});
          stmt(c, "ALTER TABLE sales ADD IF NOT EXISTS PARTITION (year=2025, region='ap')", kDb);
          stmt(c, "DROP STATS sales", kDb);
        }));
}

}  // namespace
}  // namespace ics::fuzz

int main(int argc, char** argv) {
  using namespace ics::fuzz;
  if (argc != 2) {
    std::cerr << "usage: " << argv[0] << " <tests/fuzz directory>\n";
    return 2;
  }
  g_out = argv[1];
  CatalogdStack stack("make_seeds");
  CatalogServiceSeeds();
  HmsSeeds();
  MetastoreServicesSeeds();
  StatestoreSeeds();
  StatestoreHaSeeds();
  SubscriberSeeds(stack);
  CoordinatorSeeds();
  CodecSeeds(stack);
  TextSeeds();
  const std::string gen = ICS_GEN_CPP_DIR;
  WriteMethodDict("catalog_service_fuzz", gen, {{"CatalogService", ""}});
  WriteMethodDict("hms_fuzz", gen, {{"ThriftHiveMetastore", ""}});
  WriteMethodDict("metastore_services_fuzz", gen,
                  {{"PartitionService", "PartitionService:"}, {"TableService", "TableService:"}});
  WriteMethodDict("statestore_service_fuzz", gen, {{"StatestoreService", ""}});
  WriteMethodDict("subscriber_fuzz", gen, {{"StatestoreSubscriber", ""}});
  WriteMethodDict("statestore_ha_fuzz", gen, {{"StatestoreHaService", ""}});
  WriteMethodDict("coordinator_service_fuzz", gen, {{"CoordinatorService", ""}});
  std::cout << "fuzz_make_seeds: wrote " << g_files << " files under " << g_out << "\n";
  return 0;
}
