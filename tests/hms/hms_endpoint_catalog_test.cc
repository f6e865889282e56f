// Catalog names as Hive 3/4 clients send them (Impala's catalogd among
// them): "@<catalog>#<db>" in every database-name argument, "@<catalog>#"
// for "every database" in listings, catName / catalogName fields in
// objects, and metastore.catalog.default. The endpoint serves one catalog
// ("hive"); another is NoSuchObjectException where the call declares it.
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

}  // namespace
}  // namespace ics::catalog::hms::testing
