// INSERT: analysis, grouping into partitions, the files written and the
// UpdateCatalog request (ExecInsert* suites).
#include <filesystem>

#include "coordinator-sim/exec/text_data.h"
#include "tests/exec/exec_test_util.h"

namespace ics::coord::testing {
namespace {

namespace fs = std::filesystem;

class ExecInsertTest : public ExecTest {
 protected:
  ExecInsertTest() {
    root_ = tmp_.path();
    cat().AddTable("db1", "t",
                   {{"id", "int"}, {"s", "string"}, {"d", "decimal(5,2)"}, {"b", "boolean"}}, {},
                   root_ + "/t");
    cat().AddTable("db1", "p", {{"x", "bigint"}, {"name", "string"}},
                   {{"year", "int"}, {"city", "string"}}, "file://" + root_ + "/p");
    // An existing partition living outside the table directory.
    cat().AddPartition("db1", "p", "year=2024/city=rome", {"2024", "rome"}, root_ + "/elsewhere");
    cat().AddView("db1", "v", {{"id", "int"}}, "SELECT id FROM db1.t");
    cat().AddTable("db1", "pq", {{"a", "int"}}, {}, root_ + "/pq", impala::THdfsFileFormat::PARQUET);
    session_.db = "db1";
  }

  // The rows of the single data file in `dir`.
  std::vector<TextRow> ReadOnlyFile(const std::string& dir, std::string* name = nullptr) {
    std::vector<std::string> files;
    for (const auto& e : fs::directory_iterator(dir)) {
      if (e.is_regular_file()) files.push_back(e.path().filename().string());
    }
    EXPECT_EQ(files.size(), 1u) << dir;
    if (files.empty()) return {};
    if (name != nullptr) *name = files[0];
    auto rows = ReadTextDataFile(dir + "/" + files[0], '\x01', 4);
    EXPECT_TRUE(rows.ok()) << rows.status().ToString();
    return rows.ok() ? *rows : std::vector<TextRow>{};
  }

  TempDir tmp_;
  std::string root_;
};

TEST_F(ExecInsertTest, UnpartitionedWritesOneFileAndUpdatesCatalog) {
  StatementResult r =
      MustRun("INSERT INTO t VALUES (1, 'a', 1.5, true), (-2, NULL, 3, false), (3, 'c\\td', NULL, NULL)");
  EXPECT_EQ(r.messages, std::vector<std::string>{"Modified 3 row(s)."});
  std::string name;
  std::vector<TextRow> rows = ReadOnlyFile(root_ + "/t", &name);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0], (TextRow{"1", "a", "1.50", "true"}));
  EXPECT_EQ(rows[1], (TextRow{"-2", std::nullopt, "3.00", "false"}));
  EXPECT_EQ(rows[2], (TextRow{"3", "c\td", std::nullopt, std::nullopt}));
  EXPECT_EQ(name.rfind("coord-1_", 0), 0u) << name;

  ASSERT_EQ(backend_.update_requests.size(), 1u);
  const auto& req = backend_.update_requests[0];
  EXPECT_EQ(req.db_name, "db1");
  EXPECT_EQ(req.target_table, "t");
  EXPECT_FALSE(req.is_overwrite);
  ASSERT_EQ(req.updated_partitions.size(), 1u);
  ASSERT_EQ(req.updated_partitions.count(""), 1u);
  EXPECT_EQ(req.updated_partitions.at("").files, std::vector<std::string>{name});
}

TEST_F(ExecInsertTest, ColumnPermutationFillsTheRestWithNull) {
  MustRun("INSERT INTO t (b, id) VALUES (true, 7)");
  std::vector<TextRow> rows = ReadOnlyFile(root_ + "/t");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0], (TextRow{"7", std::nullopt, std::nullopt, "true"}));
}

TEST_F(ExecInsertTest, DynamicPartitionsGroupRows) {
  MustRun("INSERT OVERWRITE p PARTITION (year, city) VALUES "
          "(1, 'a', 2024, 'rome'), (2, 'b', 2025, 'oslo'), (3, 'c', 2024, 'rome'), "
          "(4, 'd', 2025, NULL)");
  ASSERT_EQ(backend_.update_requests.size(), 1u);
  const auto& req = backend_.update_requests[0];
  EXPECT_TRUE(req.is_overwrite);
  ASSERT_EQ(req.updated_partitions.size(), 3u);
  EXPECT_EQ(req.updated_partitions.count("year=2024/city=rome"), 1u);
  EXPECT_EQ(req.updated_partitions.count("year=2025/city=oslo"), 1u);
  EXPECT_EQ(req.updated_partitions.count("year=2025/city=__HIVE_DEFAULT_PARTITION__"), 1u);
  // The existing partition's own directory; new ones under the table's.
  std::vector<TextRow> rome = ReadOnlyFile(root_ + "/elsewhere");
  ASSERT_EQ(rome.size(), 2u);
  EXPECT_EQ(rome[0][0], "1");
  EXPECT_EQ(rome[1][0], "3");
  EXPECT_EQ(rome[0][2], std::nullopt);  // only data columns are written
  EXPECT_EQ(ReadOnlyFile(root_ + "/p/year=2025/city=oslo").size(), 1u);
  EXPECT_EQ(ReadOnlyFile(root_ + "/p/year=2025/city=__HIVE_DEFAULT_PARTITION__").size(), 1u);
  for (const auto& [name, up] : req.updated_partitions) EXPECT_EQ(up.files.size(), 1u) << name;
}

TEST_F(ExecInsertTest, StaticAndMixedPartitionSpecs) {
  MustRun("INSERT INTO p PARTITION (year=2030, city='new york') VALUES (1, 'x')");
  const auto& req = backend_.update_requests.back();
  ASSERT_EQ(req.updated_partitions.size(), 1u);
  EXPECT_EQ(req.updated_partitions.begin()->first, "year=2030/city=new york");
  EXPECT_EQ(ReadOnlyFile(root_ + "/p/year=2030/city=new york").size(), 1u);

  MustRun("INSERT INTO p PARTITION (city='a/b', year) VALUES (1, 'x', 2031), (2, 'y', 2032)");
  const auto& req2 = backend_.update_requests.back();
  ASSERT_EQ(req2.updated_partitions.size(), 2u);
  EXPECT_EQ(req2.updated_partitions.count("year=2031/city=a%2Fb"), 1u);
  EXPECT_TRUE(fs::exists(root_ + "/p/year=2032/city=a%2Fb"));

  MustRun("INSERT INTO p (name, year, city) VALUES ('z', 2040, 'q')");
  const auto& req3 = backend_.update_requests.back();
  EXPECT_EQ(req3.updated_partitions.count("year=2040/city=q"), 1u);
}

TEST_F(ExecInsertTest, AnalysisErrorsWriteNothing) {
  EXPECT_EQ(Error("INSERT INTO t VALUES (1, 'a', 1.5)"),
            "Target table 'db1.t' has more columns (4) than the VALUES clause returns (3)");
  EXPECT_EQ(Error("INSERT INTO t VALUES (1, 'a', 1.5, true, 5)"),
            "Target table 'db1.t' has fewer columns (4) than the VALUES clause returns (5)");
  EXPECT_EQ(Error("INSERT INTO t VALUES ('x', 'a', 1.5, true)"),
            "Target table 'db1.t' is incompatible with source expressions. Expression ''x'' "
            "(type: STRING) is not compatible with column 'id' (type: INT)");
  EXPECT_EQ(Error("INSERT INTO t VALUES (1, 'a', 1234.5, true)"),
            "Possible loss of precision for target table 'db1.t'. Expression '1234.5' (type: "
            "DECIMAL(5,1)) would need to be cast to DECIMAL(5,2) for column 'd'");
  EXPECT_EQ(Error("INSERT INTO t VALUES (3000000000, 'a', 1, true)"),
            "Possible loss of precision for target table 'db1.t'. Expression '3000000000' (type: "
            "BIGINT) would need to be cast to INT for column 'id'");
  EXPECT_EQ(Error("INSERT INTO v VALUES (1)"), "Impala does not support INSERTing into views: db1.v");
  EXPECT_EQ(Error("INSERT INTO nope VALUES (1)"), "Table does not exist: db1.nope");
  EXPECT_EQ(Error("INSERT INTO t (id, zz) VALUES (1, 2)"), "Column 'zz' not found in db1.t");
  EXPECT_EQ(Error("INSERT INTO p VALUES (1, 'a')"),
            "Not enough partition columns mentioned in query. Missing columns are: year, city");
  EXPECT_EQ(Error("INSERT INTO p PARTITION (year=2024) VALUES (1, 'a')"),
            "Not enough partition columns mentioned in query. Missing columns are: city");
  EXPECT_EQ(Error("INSERT INTO t PARTITION (year=1) VALUES (1, 'a', 1, true)"),
            "PARTITION clause is only valid for INSERT into partitioned table. 'db1.t' is not "
            "partitioned");
  EXPECT_EQ(Error("INSERT INTO p PARTITION (year='x', city='y') VALUES (1, 'a')"),
            "Value of partition spec (column=year) has incompatible type: 'STRING'. Expected "
            "type: 'INT'.");
  EXPECT_EQ(Error("INSERT INTO p PARTITION (year, city) VALUES (1, 'a', 2024, 'ok'), "
                  "(1, 'a', 'bad', 'ok')"),
            "Target table 'db1.p' is incompatible with source expressions. Expression ''bad'' "
            "(type: STRING) is not compatible with column 'year' (type: INT)");
  EXPECT_NE(Error("INSERT INTO t VALUES (1 + 1, 'a', 1, true)").find("Only constant values"),
            std::string::npos);
  EXPECT_NE(Error("INSERT INTO pq VALUES (1)").find("only TEXTFILE"), std::string::npos);
  // Nothing was written anywhere.
  EXPECT_FALSE(fs::exists(root_ + "/t"));
  EXPECT_FALSE(fs::exists(root_ + "/p"));
  EXPECT_TRUE(backend_.update_requests.empty());
}

TEST_F(ExecInsertTest, LiteralConversions) {
  cat().AddTable("db1", "typed",
                 {{"ti", "tinyint"}, {"f", "double"}, {"ts", "timestamp"}, {"dt", "date"},
                  {"c", "char(3)"}, {"vc", "varchar(2)"}, {"big", "bigint"}},
                 {}, root_ + "/typed");
  MustRun("INSERT INTO typed VALUES (-128, 1e3, '2024-01-02 03:04:05', DATE '2024-02-29', 'a', "
          "'xyz', CAST('12' AS INT))");
  auto rows = ReadTextDataFile(
      root_ + "/typed/" + backend_.update_requests.back().updated_partitions.at("").files[0],
      '\x01', 7);
  ASSERT_TRUE(rows.ok());
  EXPECT_EQ((*rows)[0], (TextRow{"-128", "1e3", "2024-01-02 03:04:05", "2024-02-29", "a  ", "xy",
                                 "12"}));
  EXPECT_NE(Error("INSERT INTO typed VALUES (128, 1, NULL, NULL, NULL, NULL, NULL)")
                .find("would need to be cast to TINYINT"),
            std::string::npos);
  EXPECT_NE(Error("INSERT INTO typed VALUES (1, 1, 'yesterday', NULL, NULL, NULL, NULL)")
                .find("Invalid TIMESTAMP value"),
            std::string::npos);
  EXPECT_NE(Error("INSERT INTO typed VALUES (1, 1, NULL, '2023-02-29', NULL, NULL, NULL)")
                .find("Invalid DATE value"),
            std::string::npos);
}

TEST_F(ExecInsertTest, FailedUpdateRemovesTheFiles) {
  backend_.next_error = Status(ErrorCode::kGeneral, "catalogd said no");
  Result<StatementResult> r = Run("INSERT INTO t VALUES (1, 'a', 1, true)");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "catalogd said no");
  size_t files = 0;
  if (fs::exists(root_ + "/t")) {
    for (const auto& e : fs::directory_iterator(root_ + "/t")) files += e.is_regular_file() ? 1 : 0;
  }
  EXPECT_EQ(files, 0u);
}

TEST_F(ExecInsertTest, SyncDdlIsPassedOn) {
  session_.options["SYNC_DDL"] = "1";
  MustRun("INSERT INTO t VALUES (1, 'a', 1, true)");
  EXPECT_TRUE(backend_.sync_flags.back());
  EXPECT_TRUE(backend_.update_requests.back().sync_ddl);
}

}  // namespace
}  // namespace ics::coord::testing
