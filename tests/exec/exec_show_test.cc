// SHOW and DESCRIBE output rows (ExecShow*, ExecDescribe* suites).
#include "common/sql/parser.h"
#include "tests/exec/exec_test_util.h"

namespace ics::coord::testing {
namespace {

using Rows = std::vector<std::vector<std::string>>;

class ExecShowTest : public ExecTest {
 protected:
  ExecShowTest() {
    cat().AddDb("sales", "money");
    cat().AddTable("db1", "t", {{"id", "int", "the id"}, {"s", "string"}});
    cat().AddTable("db1", "Other", {{"a", "int"}});
    cat().AddTable("db1", "p", {{"x", "bigint"}, {"name", "string"}}, {{"year", "int"}});
    cat().AddPartition("db1", "p", "year=2025", {"2025"}, "/w/p/year=2025", {{"f1", 2048}}, 10);
    cat().AddPartition("db1", "p", "year=2024", {"2024"}, "/w/p/year=2024",
                       {{"a", 100}, {"b", 300}}, 5);
    cat().AddPartition("db1", "p", "year=__HIVE_DEFAULT_PARTITION__", {kDefaultPartitionName},
                       "/w/p/year=__HIVE_DEFAULT_PARTITION__");
    cat().tables.at({"db1", "p"})->num_rows = 15;
  }
};

TEST_F(ExecShowTest, Databases) {
  StatementResult r = MustRun("SHOW DATABASES");
  EXPECT_EQ(r.columns, (std::vector<std::string>{"name", "comment"}));
  EXPECT_EQ(r.rows, (Rows{{"db1", "first"}, {"default", "Default Hive database"}, {"sales", "money"}}));
  r = MustRun("SHOW DATABASES LIKE 'S*|db*'");
  EXPECT_EQ(r.rows, (Rows{{"db1", "first"}, {"sales", "money"}}));
  r = MustRun("SHOW SCHEMAS 'def*'");
  EXPECT_EQ(r.rows.size(), 1u);
}

TEST_F(ExecShowTest, Tables) {
  session_.db = "db1";
  StatementResult r = MustRun("SHOW TABLES");
  EXPECT_EQ(r.columns, std::vector<std::string>{"name"});
  EXPECT_EQ(r.rows, (Rows{{"Other"}, {"p"}, {"t"}}));
  EXPECT_EQ(MustRun("SHOW TABLES IN db1 LIKE 'o*'").rows, (Rows{{"Other"}}));
  EXPECT_EQ(MustRun("SHOW TABLES LIKE '*T*| p '").rows, (Rows{{"Other"}, {"p"}, {"t"}}));
  EXPECT_EQ(MustRun("SHOW TABLES LIKE 'x*'").rows, Rows{});
  EXPECT_EQ(MustRun("SHOW TABLES IN default").rows, Rows{});
  EXPECT_EQ(Error("SHOW TABLES IN nope"), "Database does not exist: nope");
}

TEST_F(ExecShowTest, PartitionsWithTotal) {
  StatementResult r = MustRun("SHOW PARTITIONS db1.p");
  EXPECT_EQ(r.columns, (std::vector<std::string>{"year", "#Rows", "#Files", "Size", "Bytes Cached",
                                                 "Cache Replication", "Format",
                                                 "Incremental stats", "Location"}));
  ASSERT_EQ(r.rows.size(), 4u);
  EXPECT_EQ(r.rows[0], (std::vector<std::string>{"2024", "5", "2", "400B", "NOT CACHED",
                                                 "NOT CACHED", "TEXTFILE", "false",
                                                 "/w/p/year=2024"}));
  EXPECT_EQ(r.rows[1][0], "2025");
  EXPECT_EQ(r.rows[1][3], "2.00KB");
  EXPECT_EQ(r.rows[2][0], "NULL");
  EXPECT_EQ(r.rows[2][1], "-1");
  EXPECT_EQ(r.rows[3], (std::vector<std::string>{"Total", "15", "3", "2.39KB", "0B", "", "", "",
                                                 ""}));
  EXPECT_EQ(MustRun("SHOW TABLE STATS db1.p").rows, r.rows);
  EXPECT_EQ(Error("SHOW PARTITIONS db1.t"), "Table is not partitioned: db1.t");
}

TEST_F(ExecShowTest, TableStatsOfUnpartitionedTable) {
  cat().tables.at({"db1", "t"})->num_rows = 42;
  LocalPartition* root = cat().FindPartition("db1", "t", "");
  FileDescInfo info;
  info.relative_path = "data.txt";
  info.length = 1536;
  root->file_descs.push_back(BuildFileDesc(info));
  StatementResult r = MustRun("SHOW TABLE STATS db1.t");
  EXPECT_EQ(r.columns.size(), 8u);
  EXPECT_EQ(r.rows, (Rows{{"42", "1", "1.50KB", "NOT CACHED", "NOT CACHED", "TEXTFILE", "false",
                           "/warehouse/db1.db/t"}}));
}

TEST_F(ExecShowTest, Files) {
  StatementResult r = MustRun("SHOW FILES IN db1.p");
  EXPECT_EQ(r.columns, (std::vector<std::string>{"Path", "Size", "Partition"}));
  EXPECT_EQ(r.rows, (Rows{{"/w/p/year=2024/a", "100B", "year=2024"},
                          {"/w/p/year=2024/b", "300B", "year=2024"},
                          {"/w/p/year=2025/f1", "2.00KB", "year=2025"}}));
  r = MustRun("SHOW FILES IN db1.p PARTITION (year=2025)");
  EXPECT_EQ(r.rows, (Rows{{"/w/p/year=2025/f1", "2.00KB", "year=2025"}}));
  EXPECT_EQ(Error("SHOW FILES IN db1.p PARTITION (year=1)"),
            "No matching partition(s) found: (year=1)");
}

TEST_F(ExecShowTest, ColumnStats) {
  hive::ColumnStatisticsObj s;
  s.colName = "name";
  s.colType = "string";
  hive::StringColumnStatsData d;
  d.maxColLen = 9;
  d.avgColLen = 4.5;
  d.numNulls = 2;
  d.numDVs = 7;
  s.statsData.__set_stringStats(d);
  cat().tables.at({"db1", "p"})->column_stats["name"] = s;
  StatementResult r = MustRun("SHOW COLUMN STATS db1.p");
  EXPECT_EQ(r.columns, (std::vector<std::string>{"Column", "Type", "#Distinct Values", "#Nulls",
                                                 "Max Size", "Avg Size", "#Trues", "#Falses"}));
  EXPECT_EQ(r.rows, (Rows{{"x", "BIGINT", "-1", "-1", "8", "8", "-1", "-1"},
                          {"name", "STRING", "7", "2", "9", "4.5", "-1", "-1"},
                          {"year", "INT", "3", "-1", "4", "4", "-1", "-1"}}));
  // With the NULL partition's row count known, #Nulls of the key is that count.
  cat().FindPartition("db1", "p", "year=__HIVE_DEFAULT_PARTITION__")->num_rows = 4;
  EXPECT_EQ(MustRun("SHOW COLUMN STATS db1.p").rows[2],
            (std::vector<std::string>{"year", "INT", "3", "4", "4", "4", "-1", "-1"}));
  cat().tables.at({"db1", "p"})->clustering_columns[0].columnType = ParseHiveType("string").value();
  EXPECT_EQ(MustRun("SHOW COLUMN STATS db1.p").rows[2][4], "-1");  // no fixed size
}

TEST_F(ExecShowTest, Functions) {
  impala::TFunction fn;
  fn.name.db_name = "db1";
  fn.name.function_name = "my_add";
  fn.__set_arg_types({MakeScalarType(impala::TPrimitiveType::INT),
                      MakeScalarType(impala::TPrimitiveType::INT)});
  fn.__set_ret_type(MakeScalarType(impala::TPrimitiveType::BIGINT));
  fn.__set_binary_type(impala::TFunctionBinaryType::NATIVE);
  fn.__set_is_persistent(true);
  cat().functions["db1"].push_back(fn);
  StatementResult r = MustRun("SHOW FUNCTIONS IN db1");
  EXPECT_EQ(r.columns,
            (std::vector<std::string>{"return type", "signature", "binary type", "is persistent"}));
  EXPECT_EQ(r.rows, (Rows{{"BIGINT", "my_add(INT, INT)", "NATIVE", "true"}}));
  EXPECT_EQ(MustRun("SHOW FUNCTIONS IN db1 LIKE 'x*'").rows, Rows{});
}

class ExecDescribeTest : public ExecShowTest {};

TEST_F(ExecDescribeTest, Minimal) {
  StatementResult r = MustRun("DESCRIBE db1.p");
  EXPECT_EQ(r.columns, (std::vector<std::string>{"name", "type", "comment"}));
  EXPECT_EQ(r.rows, (Rows{{"x", "bigint", ""}, {"name", "string", ""}, {"year", "int", ""}}));
  session_.db = "db1";
  EXPECT_EQ(MustRun("DESCRIBE t").rows, (Rows{{"id", "int", "the id"}, {"s", "string", ""}}));
  EXPECT_EQ(Error("DESCRIBE nope"), "Table does not exist: db1.nope");
}

TEST_F(ExecDescribeTest, Formatted) {
  cat().tables.at({"db1", "p"})->hms.parameters["numRows"] = "15";
  StatementResult r = MustRun("DESCRIBE FORMATTED db1.p");
  auto find = [&](const std::string& name) -> std::vector<std::string> {
    for (const auto& row : r.rows) {
      if (row[0] == name) return row;
    }
    return {};
  };
  EXPECT_EQ(r.rows[0], (std::vector<std::string>{"# col_name", "data_type", "comment"}));
  EXPECT_EQ(r.rows[2], (std::vector<std::string>{"x", "bigint", "NULL"}));
  EXPECT_FALSE(find("# Partition Information").empty());
  EXPECT_EQ(find("year"), (std::vector<std::string>{"year", "int", "NULL"}));
  EXPECT_EQ(find("Database:")[1], "db1");
  EXPECT_EQ(find("Owner:")[1], "alice");
  EXPECT_EQ(find("Location:")[1], "/warehouse/db1.db/p");
  EXPECT_EQ(find("Table Type:")[1], "MANAGED_TABLE");
  EXPECT_EQ(find("InputFormat:")[1], "org.apache.hadoop.mapred.TextInputFormat");
  bool param = false;
  for (const auto& row : r.rows) param = param || (row == std::vector<std::string>{"", "numRows", "15"});
  EXPECT_TRUE(param);
}

TEST_F(ExecDescribeTest, Database) {
  StatementResult r = MustRun("DESCRIBE DATABASE sales");
  EXPECT_EQ(r.columns, (std::vector<std::string>{"name", "location", "comment"}));
  EXPECT_EQ(r.rows, (Rows{{"sales", "/warehouse/sales.db", "money"}}));
  r = MustRun("DESCRIBE DATABASE FORMATTED sales");
  EXPECT_GE(r.rows.size(), 3u);
  EXPECT_EQ(r.rows[1][0], "Owner: ");
  EXPECT_EQ(Error("DESCRIBE DATABASE nope"), "Database does not exist: nope");
}

TEST_F(ExecDescribeTest, ShowCreateTableParsesBack) {
  LocalTable& t = *cat().tables.at({"db1", "p"});
  t.hms.parameters = {{"comment", "it's"}, {"k", "v"}, {"numRows", "15"},
                      {"transient_lastDdlTime", "1"}};
  t.hms.sd.serdeInfo.parameters["field.delim"] = ",";
  StatementResult r = MustRun("SHOW CREATE TABLE db1.p");
  EXPECT_EQ(r.columns, std::vector<std::string>{"result"});
  ASSERT_EQ(r.rows.size(), 1u);
  const std::string sql = r.rows[0][0];
  EXPECT_EQ(sql,
            "CREATE TABLE db1.p (\n  x BIGINT,\n  name STRING\n)\nPARTITIONED BY (\n  year INT\n)\n"
            "COMMENT 'it\\'s'\nROW FORMAT DELIMITED FIELDS TERMINATED BY ','\nSTORED AS TEXTFILE\n"
            "LOCATION '/warehouse/db1.db/p'\nTBLPROPERTIES ('k'='v')");
  auto parsed = sql::ParseStatement(sql);
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  const auto* ct = (*parsed)->As<sql::CreateTableStmt>();
  ASSERT_NE(ct, nullptr);
  EXPECT_EQ(ct->columns.size(), 2u);
  EXPECT_EQ(ct->partition_columns.size(), 1u);
  EXPECT_EQ(*ct->comment, "it's");
  EXPECT_EQ(*ct->row_format->field_terminator, ",");
}

TEST_F(ExecDescribeTest, ShowCreateView) {
  cat().AddView("db1", "v", {{"id", "int"}}, "SELECT id FROM db1.t");
  StatementResult r = MustRun("SHOW CREATE VIEW db1.v");
  EXPECT_EQ(r.rows[0][0], "CREATE VIEW db1.v (id) AS SELECT id FROM db1.t");
  EXPECT_TRUE(sql::ParseStatement(r.rows[0][0]).ok());
  EXPECT_NE(Error("SHOW CREATE VIEW db1.t").find("not applicable to a table"), std::string::npos);
}

}  // namespace
}  // namespace ics::coord::testing
