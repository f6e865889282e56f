// HMS endpoint over a raw client: every partition call and its errors.
#include <filesystem>

#include "tests/hms/hms_test_util.h"

namespace ics::catalog::hms::testing {
namespace {

using hive::AlreadyExistsException;
using hive::InvalidObjectException;
using hive::InvalidOperationException;
using hive::MetaException;
using hive::NoSuchObjectException;

std::vector<std::string> Names(const std::vector<hive::Partition>& parts) {
  std::vector<std::string> out;
  for (const auto& p : parts) {
    std::string n;
    for (const auto& v : p.values) n += (n.empty() ? "" : "/") + v;
    out.push_back(n);
  }
  return out;
}

class HmsPartitionTest : public HmsEndpointTest {
 protected:
  void SetUp() override {
    HmsEndpointTest::SetUp();
    if (HasFatalFailure()) return;
    hms().create_database(Db("db"));
    hms().create_table(Table("db", "t", {"year", "region"}));
    hms().create_table(Table("db", "flat"));
  }
};

TEST_F(HmsPartitionTest, AddAppendAndGet) {
  hive::Partition added;
  hms().add_partition(added, Part("db", "t", {"2020", "eu"}));
  EXPECT_EQ(added.sd.location, warehouse_ + "/db.db/t/year=2020/region=eu");
  EXPECT_TRUE(std::filesystem::is_directory(added.sd.location));
  EXPECT_EQ(added.sd.cols.size(), 2u);  // the table's storage descriptor
  EXPECT_EQ(hms().add_partitions({Part("db", "t", {"2021", "eu"}), Part("db", "t", {"2021", "us"})}),
            2);
  EXPECT_EQ(hms().add_partitions({}), 0);
  hive::Partition p;
  hms().append_partition(p, "db", "t", {"2022", "us"});
  EXPECT_EQ(p.values, (std::vector<std::string>{"2022", "us"}));
  hms().append_partition_by_name(p, "db", "t", "year=2023/region=a%2Fb");
  EXPECT_EQ(p.values, (std::vector<std::string>{"2023", "a/b"}));

  hive::AddPartitionsRequest req;
  req.dbName = "db";
  req.tblName = "t";
  req.parts = {Part("db", "t", {"2020", "eu"}), Part("", "", {"2024", "eu"})};
  req.ifNotExists = true;
  hive::AddPartitionsResult res;
  hms().add_partitions_req(res, req);
  EXPECT_EQ(Names(res.partitions), (std::vector<std::string>{"2024/eu"}));  // existing skipped
  req.parts = {Part("db", "t", {"2025", "eu"})};
  req.__set_needResult(false);
  hms().add_partitions_req(res, req);

  hms().get_partition(p, "db", "t", {"2021", "us"});
  EXPECT_EQ(p.values, (std::vector<std::string>{"2021", "us"}));
  hms().get_partition_by_name(p, "db", "t", "year=2023/region=a%2Fb");
  EXPECT_EQ(p.values[1], "a/b");

  // Errors.
  EXPECT_HMS_ERROR(hms().add_partition(p, Part("db", "t", {"2020", "eu"})), AlreadyExistsException,
                   "year=2020/region=eu");
  EXPECT_HMS_ERROR(hms().add_partition(p, Part("db", "t", {"2020"})), InvalidObjectException,
                   "has 1 value(s); the table has 2 partition key(s)");
  EXPECT_HMS_ERROR(hms().add_partition(p, Part("db", "missing", {"1"})), InvalidObjectException,
                   "missing");
  EXPECT_HMS_ERROR(hms().add_partition(p, Part("db", "flat", {"1"})), InvalidObjectException,
                   "not partitioned");
  EXPECT_HMS_ERROR(hms().add_partitions({Part("db", "t", {"1", "a"}), Part("db", "flat", {"1"})}),
                   InvalidObjectException, "one table");
  EXPECT_HMS_ERROR(
      hms().add_partitions({Part("db", "t", {"7", "a"}), Part("db", "t", {"7", "a"})}),
      InvalidObjectException, "appears twice");
  // A failing batch adds nothing.
  EXPECT_HMS_ERROR(
      hms().add_partitions({Part("db", "t", {"8", "a"}), Part("db", "t", {"2020", "eu"})}),
      AlreadyExistsException, "year=2020/region=eu");
  EXPECT_HMS_ERROR(hms().get_partition(p, "db", "t", {"8", "a"}), NoSuchObjectException, "");
  req.parts = {Part("db", "t", {"2020", "eu"})};
  req.ifNotExists = false;
  EXPECT_HMS_ERROR(hms().add_partitions_req(res, req), AlreadyExistsException, "2020");
  req.parts = {Part("other", "t", {"9", "x"})};
  EXPECT_HMS_ERROR(hms().add_partitions_req(res, req), InvalidObjectException, "database 'other'");
  EXPECT_HMS_ERROR(hms().append_partition(p, "db", "t", {"2020", "eu"}), AlreadyExistsException,
                   "2020");
  EXPECT_HMS_ERROR(hms().append_partition(p, "db", "nope", {"1"}), InvalidObjectException, "nope");
  EXPECT_HMS_ERROR(hms().append_partition_by_name(p, "db", "t", "region=eu/year=1"),
                   InvalidObjectException, "key 'region' where 'year' was expected");
  EXPECT_HMS_ERROR(hms().append_partition_by_name(p, "db", "t", "year=1"), InvalidObjectException,
                   "1 component(s)");
  EXPECT_HMS_ERROR(hms().append_partition_by_name(p, "db", "t", "garbage"),
                   InvalidObjectException, "garbage");
  EXPECT_HMS_ERROR(hms().get_partition(p, "db", "t", {"1999", "eu"}), NoSuchObjectException,
                   "year=1999/region=eu");
  EXPECT_HMS_ERROR(hms().get_partition(p, "db", "t", {"1999"}), MetaException, "1 partition value");
  EXPECT_HMS_ERROR(hms().get_partition(p, "db", "nope", {"1"}), NoSuchObjectException, "nope");
  EXPECT_HMS_ERROR(hms().get_partition_by_name(p, "db", "t", "year=1/region=x"),
                   NoSuchObjectException, "year=1/region=x");
  EXPECT_HMS_ERROR(hms().get_partition_by_name(p, "db", "t", "year"), MetaException, "year");
}

TEST_F(HmsPartitionTest, ListingsPsFilterNamesAndLimits) {
  for (const char* y : {"2019", "2020", "2021", "100"}) {
    for (const char* r : {"eu", "us"}) {
      hive::Partition p;
      hms().append_partition(p, "db", "t", {y, r});
    }
  }
  std::vector<hive::Partition> parts;
  hms().get_partitions(parts, "db", "t", -1);
  EXPECT_EQ(parts.size(), 8u);
  hms().get_partitions(parts, "db", "t", 3);
  EXPECT_EQ(parts.size(), 3u);
  hms().get_partitions(parts, "db", "t", 0);
  EXPECT_TRUE(parts.empty());
  std::vector<std::string> names;
  hms().get_partition_names(names, "db", "t", -1);
  ASSERT_EQ(names.size(), 8u);
  EXPECT_EQ(names[0], "year=100/region=eu");
  hms().get_partition_names(names, "db", "t", 2);
  EXPECT_EQ(names.size(), 2u);

  hms().get_partitions_ps(parts, "db", "t", {"2020"}, -1);
  EXPECT_EQ(Names(parts), (std::vector<std::string>{"2020/eu", "2020/us"}));
  hms().get_partitions_ps(parts, "db", "t", {"", "us"}, -1);
  EXPECT_EQ(parts.size(), 4u);
  hms().get_partition_names_ps(names, "db", "t", {"2021", "eu"}, -1);
  EXPECT_EQ(names, (std::vector<std::string>{"year=2021/region=eu"}));
  hms().get_partition_names_ps(names, "db", "t", {}, 1);
  EXPECT_EQ(names.size(), 1u);

  // Filters: numeric comparison on the int key (100 < 2019), LIKE, AND/OR.
  hms().get_partitions_by_filter(parts, "db", "t", "year < 2020", -1);
  EXPECT_EQ(Names(parts), (std::vector<std::string>{"100/eu", "100/us", "2019/eu", "2019/us"}));
  hms().get_partitions_by_filter(parts, "db", "t",
                                 "(year >= 2020 and region = \"eu\") or region like 'u.*' and year = 100", -1);
  EXPECT_EQ(Names(parts), (std::vector<std::string>{"100/us", "2020/eu", "2021/eu"}));
  hms().get_partitions_by_filter(parts, "db", "t", "region <> 'eu'", 2);
  EXPECT_EQ(parts.size(), 2u);
  hms().get_partitions_by_filter(parts, "db", "t", "", -1);
  EXPECT_EQ(parts.size(), 8u);

  hms().get_partitions_by_names(parts, "db", "t",
                                {"year=2021/region=us", "year=5/region=zz", "year=100/region=eu"});
  EXPECT_EQ(Names(parts), (std::vector<std::string>{"100/eu", "2021/us"}));

  // Errors.
  EXPECT_HMS_ERROR(hms().get_partitions(parts, "db", "nope", -1), NoSuchObjectException, "nope");
  EXPECT_HMS_ERROR(hms().get_partition_names(names, "db", "nope", -1), MetaException, "nope");
  EXPECT_HMS_ERROR(hms().get_partitions_ps(parts, "db", "t", {"1", "2", "3"}, -1), MetaException,
                   "Got 3 partition values");
  EXPECT_HMS_ERROR(hms().get_partitions_ps(parts, "db", "nope", {}, -1), NoSuchObjectException,
                   "nope");
  EXPECT_HMS_ERROR(hms().get_partition_names_ps(names, "db", "nope", {}, -1),
                   NoSuchObjectException, "nope");
  EXPECT_HMS_ERROR(hms().get_partitions_by_filter(parts, "db", "t", "year = 1 and (", -1),
                   MetaException, "at position 14, found the end");
  EXPECT_HMS_ERROR(hms().get_partitions_by_filter(parts, "db", "t", "month = 1", -1),
                   MetaException, "unknown partition key 'month' at position 0");
  EXPECT_HMS_ERROR(hms().get_partitions_by_filter(parts, "db", "nope", "", -1),
                   NoSuchObjectException, "nope");
  EXPECT_HMS_ERROR(hms().get_partitions_by_names(parts, "db", "nope", {}), NoSuchObjectException,
                   "nope");

  // More partitions than the per-request limit (50): "all" fails, max_parts works.
  std::vector<hive::Partition> batch;
  for (int i = 0; i < 39; ++i) batch.push_back(Part("db", "t", {"3000", "r" + std::to_string(i)}));
  EXPECT_EQ(hms().add_partitions(batch), 39);
  batch.clear();
  for (int i = 39; i < 45; ++i) batch.push_back(Part("db", "t", {"3000", "r" + std::to_string(i)}));
  EXPECT_EQ(hms().add_partitions(batch), 6);
  EXPECT_HMS_ERROR(hms().get_partitions(parts, "db", "t", -1), MetaException,
                   "more than 50 matching partitions");
  hms().get_partitions(parts, "db", "t", 50);
  EXPECT_EQ(parts.size(), 50u);
  hms().get_partitions_by_filter(parts, "db", "t", "year < 3000", -1);
  EXPECT_EQ(parts.size(), 8u);
  std::vector<hive::Partition> too_many(41, Part("db", "t", {"1", "x"}));
  EXPECT_HMS_ERROR(hms().add_partitions(too_many), MetaException, "exceeds the limit of 40");
}

TEST_F(HmsPartitionTest, DropAlterRenameAndNames) {
  hive::Partition p;
  for (const char* r : {"a", "b", "c", "d"}) hms().append_partition(p, "db", "t", {"1", r});
  const std::string a_dir = warehouse_ + "/db.db/t/year=1/region=a";
  ASSERT_TRUE(std::filesystem::is_directory(a_dir));
  EXPECT_TRUE(hms().drop_partition("db", "t", {"1", "a"}, true));
  EXPECT_FALSE(std::filesystem::exists(a_dir));  // managed table: data deleted
  EXPECT_TRUE(hms().drop_partition_by_name("db", "t", "year=1/region=b", false));
  EXPECT_TRUE(std::filesystem::exists(warehouse_ + "/db.db/t/year=1/region=b"));
  EXPECT_HMS_ERROR(hms().drop_partition("db", "t", {"1", "a"}, false), NoSuchObjectException,
                   "year=1/region=a");
  EXPECT_HMS_ERROR(hms().drop_partition("db", "nope", {"1"}, false), NoSuchObjectException, "nope");
  EXPECT_HMS_ERROR(hms().drop_partition_by_name("db", "t", "year=9/region=z", false),
                   NoSuchObjectException, "year=9/region=z");
  EXPECT_HMS_ERROR(hms().drop_partition_by_name("db", "t", "=x", false), MetaException, "=x");

  hive::DropPartitionsRequest req;
  req.dbName = "db";
  req.tblName = "t";
  req.parts.__set_names({"year=1/region=c", "year=7/region=q"});
  hive::DropPartitionsResult res;
  hms().drop_partitions_req(res, req);  // ifExists defaults to true
  EXPECT_EQ(Names(res.partitions), (std::vector<std::string>{"1/c"}));
  req.__set_ifExists(false);
  req.parts.__set_names({"year=1/region=d", "year=7/region=q"});
  EXPECT_HMS_ERROR(hms().drop_partitions_req(res, req), NoSuchObjectException, "year=7/region=q");
  hms().get_partition(p, "db", "t", {"1", "d"});  // untouched by the failed request
  hive::DropPartitionsRequest expr_req;
  expr_req.dbName = "db";
  expr_req.tblName = "t";
  hive::DropPartitionsExpr e;
  e.expr = "\x01\x02";
  expr_req.parts.__set_exprs({e});
  EXPECT_HMS_ERROR(hms().drop_partitions_req(res, expr_req), MetaException,
                   "only partitions given by name");
  req.tblName = "nope";
  EXPECT_HMS_ERROR(hms().drop_partitions_req(res, req), NoSuchObjectException, "nope");

  // alter_partition(s)
  hms().get_partition(p, "db", "t", {"1", "d"});
  p.parameters["numRows"] = "42";
  hms().alter_partition("db", "t", p);
  hive::Partition got;
  hms().get_partition(got, "db", "t", {"1", "d"});
  EXPECT_EQ(got.parameters.at("numRows"), "42");
  EXPECT_EQ(got.sd.location, p.sd.location);
  hive::Partition e1;
  hms().append_partition(e1, "db", "t", {"2", "x"});
  e1.parameters["k"] = "1";
  got.parameters["k"] = "2";
  hms().alter_partitions("db", "t", {e1, got});
  hms().get_partition(got, "db", "t", {"2", "x"});
  EXPECT_EQ(got.parameters.at("k"), "1");
  hive::Partition missing = Part("db", "t", {"9", "9"});
  EXPECT_HMS_ERROR(hms().alter_partition("db", "t", missing), InvalidOperationException, "");
  EXPECT_HMS_ERROR(hms().alter_partitions("db", "t", {e1, missing}), InvalidOperationException, "");
  hms().get_partition(got, "db", "t", {"2", "x"});
  EXPECT_EQ(got.parameters.at("k"), "1");
  EXPECT_HMS_ERROR(hms().alter_partition("db", "nope", e1), InvalidOperationException, "nope");
  EXPECT_HMS_ERROR(hms().alter_partition("db", "t", Part("db", "t", {"1"})),
                   InvalidOperationException, "1 value(s)");

  // rename_partition keeps the data location and moves statistics.
  hive::ColumnStatistics cs;
  cs.statsDesc.isTblLevel = false;
  cs.statsDesc.dbName = "db";
  cs.statsDesc.tableName = "t";
  cs.statsDesc.__set_partName("year=2/region=x");
  hive::ColumnStatisticsObj obj;
  obj.colName = "id";
  obj.colType = "bigint";
  hive::LongColumnStatsData ld;
  ld.numNulls = 1;
  ld.numDVs = 5;
  obj.statsData.__set_longStats(ld);
  cs.statsObj = {obj};
  hms().update_partition_column_statistics(cs);
  hive::Partition renamed = Part("db", "t", {"2", "y"});
  hms().rename_partition("db", "t", {"2", "x"}, renamed);
  EXPECT_HMS_ERROR(hms().get_partition(got, "db", "t", {"2", "x"}), NoSuchObjectException, "");
  hms().get_partition(got, "db", "t", {"2", "y"});
  EXPECT_EQ(got.sd.location, warehouse_ + "/db.db/t/year=2/region=x");
  hive::ColumnStatistics moved;
  hms().get_partition_column_statistics(moved, "db", "t", "year=2/region=y", "id");
  EXPECT_EQ(moved.statsObj.at(0).statsData.longStats.numDVs, 5);
  EXPECT_HMS_ERROR(hms().rename_partition("db", "t", {"2", "x"}, renamed),
                   InvalidOperationException, "year=2/region=x");
  EXPECT_HMS_ERROR(hms().rename_partition("db", "t", {"2", "y"}, Part("db", "t", {"1", "d"})),
                   InvalidOperationException, "year=1/region=d");
  EXPECT_HMS_ERROR(hms().rename_partition("db", "t", {"2", "y"}, Part("db", "t", {"2", "y"})),
                   InvalidOperationException, "to itself");

  // partition_name_to_vals / _spec
  std::vector<std::string> vals;
  hms().partition_name_to_vals(vals, "year=2020/region=a%2Fb");
  EXPECT_EQ(vals, (std::vector<std::string>{"2020", "a/b"}));
  std::map<std::string, std::string> spec;
  hms().partition_name_to_spec(spec, "year=2020/region=eu");
  EXPECT_EQ(spec, (std::map<std::string, std::string>{{"region", "eu"}, {"year", "2020"}}));
  EXPECT_HMS_ERROR(hms().partition_name_to_vals(vals, "year"), MetaException, "year");
  EXPECT_HMS_ERROR(hms().partition_name_to_spec(spec, "a=1/a=2"), MetaException, "a");
  EXPECT_HMS_ERROR(hms().partition_name_to_vals(vals, ""), MetaException, "");
}

}  // namespace
}  // namespace ics::catalog::hms::testing
