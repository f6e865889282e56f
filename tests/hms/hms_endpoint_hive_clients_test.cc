// What Hive 3/4 clients (Impala's catalogd, Spark, Trino, Hive) send beyond
// the older calls: catalog names ("@<catalog>#<db>" in every database-name
// argument, "@<catalog>#" for "every database" in listings, catName /
// catalogName fields, metastore.catalog.default; the endpoint serves one
// catalog, another is NoSuchObjectException where the call declares it), and
// the request-object calls (get_table_req, get_database_req, ...).
#include "tests/hms/hms_test_util.h"

#include "catalogd/hms/hms_part.h"

namespace ics::catalog::hms::testing {
namespace {

using hive::InvalidObjectException;
using hive::MetaException;
using hive::NoSuchObjectException;

TEST(CatalogDbNameTest, ParsesHiveCatalogPrefixes) {
  auto parse = [](const std::string& s) { return ParseCatalogDbName(s, "hive"); };
  Result<CatalogDbName> plain = parse("sales");
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(plain->catalog, "hive");
  EXPECT_EQ(plain->db, "sales");
  Result<CatalogDbName> prefixed = parse("@Spark#sales");
  ASSERT_TRUE(prefixed.ok());
  EXPECT_EQ(prefixed->catalog, "spark");
  EXPECT_EQ(prefixed->db, "sales");
  Result<CatalogDbName> all = parse("@hive#");
  ASSERT_TRUE(all.ok());
  EXPECT_FALSE(all->db.has_value());
  Result<CatalogDbName> empty = parse("@hive#!");
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(empty->db, "");
  EXPECT_TRUE(parse("@hive").status().Is(ErrorCode::kInvalidArgument));
  EXPECT_TRUE(parse("@#db").status().Is(ErrorCode::kInvalidArgument));
}

TEST_F(HmsEndpointTest, CatalogPrefixedNamesReachTheServedCatalog) {
  hms().create_database(Db("sales"));
  hms().create_database(Db("hr"));
  hms().create_table(Table("sales", "orders"));

  std::vector<std::string> names;
  hms().get_databases(names, "@hive#");
  EXPECT_EQ(names, (std::vector<std::string>{"hr", "sales"}));
  hms().get_databases(names, "@HIVE#sal*");
  EXPECT_EQ(names, std::vector<std::string>{"sales"});

  hive::Database db;
  hms().get_database(db, "@hive#sales");
  EXPECT_EQ(db.name, "sales");
  hms().get_tables(names, "@hive#sales", "*");
  EXPECT_EQ(names, std::vector<std::string>{"orders"});
  hive::Table t;
  hms().get_table(t, "@hive#sales", "orders");
  EXPECT_EQ(t.tableName, "orders");

  std::vector<hive::TableMeta> meta;
  hms().get_table_meta(meta, "@hive#sal*", "*", {});
  ASSERT_EQ(meta.size(), 1u);
  EXPECT_EQ(meta[0].tableName, "orders");

  // Another catalog holds nothing here; a malformed name says why.
  EXPECT_HMS_ERROR(hms().get_database(db, "@spark#sales"), NoSuchObjectException,
                   "No such catalog spark");
  EXPECT_HMS_ERROR(hms().get_databases(names, "@spark#"), MetaException, "No such catalog");
  EXPECT_HMS_ERROR(hms().get_database(db, "@hive"), MetaException, "names no catalog");
  EXPECT_HMS_ERROR(hms().get_database(db, "@hive#"), MetaException, "names no database");
}

TEST_F(HmsEndpointTest, ObjectsNamingAnotherCatalogAreRefused) {
  hive::Database d = Db("elsewhere");
  d.__set_catalogName("spark");
  EXPECT_HMS_ERROR(hms().create_database(d), MetaException, "No such catalog spark");
  d.__set_catalogName("hive");
  hms().create_database(d);

  hive::Table t = Table("elsewhere", "t");
  t.__set_catName("spark");
  EXPECT_HMS_ERROR(hms().create_table(t), NoSuchObjectException, "No such catalog spark");
  t.__set_catName("hive");
  hms().create_table(t);
  hive::Table got;
  hms().get_table(got, "elsewhere", "t");
  EXPECT_EQ(got.tableName, "t");
}

TEST_F(HmsEndpointTest, DefaultCatalogIsAConfigValue) {
  std::string v;
  hms().get_config_value(v, "metastore.catalog.default", "x");
  EXPECT_EQ(v, "hive");
  hms().getMetaConf(v, "metastore.catalog.default");
  EXPECT_EQ(v, "hive");
}

TEST_F(HmsEndpointTest, RequestObjectCallsAnswerAsTheOlderCalls) {
  hms().create_database(Db("r"));
  hive::Table table = Table("r", "t", {"p"});
  hms().create_table(table);
  hive::Partition added;
  hms().add_partition(added, Part("r", "t", {"a"}));
  hms().add_partition(added, Part("r", "t", {"b"}));

  hive::Database db;
  hive::GetDatabaseRequest dbreq;
  dbreq.__set_name("r");
  dbreq.__set_catalogName("hive");
  hms().get_database_req(db, dbreq);
  EXPECT_EQ(db.name, "r");
  dbreq.__set_catalogName("spark");
  EXPECT_HMS_ERROR(hms().get_database_req(db, dbreq), NoSuchObjectException, "No such catalog");

  hive::GetTableRequest treq;
  treq.dbName = "r";
  treq.tblName = "t";
  treq.__set_catName("hive");
  treq.__set_getColumnStats(true);
  treq.__set_engine("impala");
  hive::GetTableResult tres;
  hms().get_table_req(tres, treq);
  EXPECT_EQ(tres.table.tableName, "t");
  ASSERT_TRUE(tres.table.__isset.colStats);
  EXPECT_TRUE(tres.table.colStats.statsDesc.isTblLevel);
  EXPECT_TRUE(tres.table.colStats.statsObj.empty());  // none computed yet
  treq.tblName = "nope";
  EXPECT_HMS_ERROR(hms().get_table_req(tres, treq), NoSuchObjectException, "nope");

  hms().create_table(Table("r", "u"));
  hive::GetTablesRequest tsreq;
  tsreq.dbName = "r";
  hive::GetTablesResult tsres;
  hms().get_table_objects_by_name_req(tsres, tsreq);
  EXPECT_EQ(tsres.tables.size(), 2u);
  tsreq.__set_tblNames({"u"});
  hms().get_table_objects_by_name_req(tsres, tsreq);
  ASSERT_EQ(tsres.tables.size(), 1u);
  EXPECT_EQ(tsres.tables[0].tableName, "u");
  tsreq.dbName = "nodb";
  EXPECT_HMS_ERROR(hms().get_table_objects_by_name_req(tsres, tsreq), hive::UnknownDBException,
                   "nodb");

  std::vector<hive::FieldSchema> fields;
  hms().get_fields(fields, "r", "t");
  EXPECT_EQ(fields.size(), 2u);  // id, name
  hms().get_schema(fields, "@hive#r", "t");
  ASSERT_EQ(fields.size(), 3u);  // and the key
  EXPECT_EQ(fields[2].name, "p");
  EXPECT_HMS_ERROR(hms().get_fields(fields, "r", "nope"), hive::UnknownTableException, "nope");
  EXPECT_HMS_ERROR(hms().get_fields(fields, "nodb", "t"), hive::UnknownDBException, "nodb");
  hive::GetSchemaRequest sreq;
  sreq.dbName = "r";
  sreq.tblName = "t";
  hive::GetSchemaResponse sres;
  hms().get_schema_req(sres, sreq);
  EXPECT_EQ(sres.fields.size(), 3u);

  hive::GetPartitionNamesPsRequest nreq;
  nreq.dbName = "r";
  nreq.tblName = "t";
  nreq.__set_partValues({"b"});
  hive::GetPartitionNamesPsResponse nres;
  hms().get_partition_names_ps_req(nres, nreq);
  EXPECT_EQ(nres.names, std::vector<std::string>{"p=b"});
  hive::GetPartitionsPsWithAuthRequest preq;
  preq.dbName = "r";
  preq.tblName = "t";
  hive::GetPartitionsPsWithAuthResponse pres;
  hms().get_partitions_ps_with_auth_req(pres, preq);
  EXPECT_EQ(pres.partitions.size(), 2u);

  hive::GetPartitionsByNamesRequest breq;
  breq.db_name = "@hive#r";
  breq.tbl_name = "t";
  breq.__set_names({"p=a"});
  breq.__set_get_col_stats(true);
  hive::GetPartitionsByNamesResult bres;
  hms().get_partitions_by_names_req(bres, breq);
  ASSERT_EQ(bres.partitions.size(), 1u);
  EXPECT_EQ(bres.partitions[0].values, std::vector<std::string>{"a"});
  ASSERT_TRUE(bres.partitions[0].__isset.colStats);
  EXPECT_EQ(bres.partitions[0].colStats.statsDesc.partName, "p=a");
  breq.db_name = "@spark#r";
  EXPECT_HMS_ERROR(hms().get_partitions_by_names_req(bres, breq), NoSuchObjectException,
                   "No such catalog");

  // Spark's alter of partitions.
  std::vector<hive::Partition> parts = pres.partitions;
  for (hive::Partition& p : parts) p.parameters["touched"] = "yes";
  hms().alter_partitions_with_environment_context("r", "t", parts, hive::EnvironmentContext());
  hive::Partition got;
  hms().get_partition(got, "r", "t", {"a"});
  EXPECT_EQ(got.parameters["touched"], "yes");

  hive::GetCatalogsResponse cats;
  hms().get_catalogs(cats);
  EXPECT_EQ(cats.names, std::vector<std::string>{"hive"});
  hive::GetCatalogRequest creq;
  creq.name = "HIVE";
  hive::GetCatalogResponse cres;
  hms().get_catalog(cres, creq);
  EXPECT_EQ(cres.catalog.name, "hive");
  EXPECT_EQ(cres.catalog.locationUri, warehouse_);
  creq.name = "spark";
  EXPECT_HMS_ERROR(hms().get_catalog(cres, creq), NoSuchObjectException, "spark");

  std::vector<std::string> groups;
  hms().set_ugi(groups, "alice", {"analysts"});
  EXPECT_EQ(groups, std::vector<std::string>{"analysts"});
}

}  // namespace
}  // namespace ics::catalog::hms::testing
