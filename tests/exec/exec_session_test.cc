// USE, SET, SYNC_DDL, INVALIDATE METADATA, REFRESH and error reporting
// (ExecSession*, ExecError* suites).
#include "tests/exec/exec_test_util.h"

namespace ics::coord::testing {
namespace {

class ExecSessionTest : public ExecTest {
 protected:
  ExecSessionTest() {
    cat().AddTable("db1", "t", {{"a", "int"}});
    cat().AddTable("db1", "p", {{"a", "int"}}, {{"k", "string"}});
  }
};

TEST_F(ExecSessionTest, UseChangesTheCurrentDatabase) {
  EXPECT_EQ(session_.db, "default");
  StatementResult r = MustRun("USE db1");
  EXPECT_TRUE(r.columns.empty());
  EXPECT_EQ(session_.db, "db1");
  EXPECT_EQ(Error("USE nope"), "Database does not exist: nope");
  EXPECT_EQ(session_.db, "db1");
  // Unqualified names now resolve in db1.
  auto req = Ddl("DROP TABLE t");
  EXPECT_EQ(req.drop_table_or_view_params.table_name.db_name, "db1");
}

TEST_F(ExecSessionTest, SetUpperCasesKeysAndChecksSyncDdl) {
  MustRun("SET sync_ddl=true");
  EXPECT_EQ(session_.options.at("SYNC_DDL"), "1");
  EXPECT_TRUE(session_.sync_ddl());
  MustRun("SET SYNC_DDL = 0");
  EXPECT_EQ(session_.options.at("SYNC_DDL"), "0");
  EXPECT_FALSE(session_.sync_ddl());
  MustRun("set Sync_Ddl='FALSE'");
  EXPECT_FALSE(session_.sync_ddl());
  MustRun("SET SYNC_DDL=1");
  EXPECT_EQ(Error("SET SYNC_DDL=maybe"),
            "Invalid value for query option SYNC_DDL: 'maybe' (expected 0, 1, true or false)");
  EXPECT_TRUE(session_.sync_ddl());  // unchanged
  MustRun("SET mem_limit='2g'");
  EXPECT_EQ(session_.options.at("MEM_LIMIT"), "2g");
  MustRun("SET mem_limit=''");
  EXPECT_EQ(session_.options.count("MEM_LIMIT"), 0u);

  StatementResult all = MustRun("SET");
  EXPECT_EQ(all.columns, (std::vector<std::string>{"option", "value", "level"}));
  ASSERT_EQ(all.rows.size(), 1u);
  EXPECT_EQ(all.rows[0], (std::vector<std::string>{"SYNC_DDL", "1", "REGULAR"}));
}

TEST_F(ExecSessionTest, SyncDdlReachesTheBackend) {
  Ddl("CREATE DATABASE a");
  EXPECT_FALSE(backend_.sync_flags.back());
  MustRun("SET SYNC_DDL=1");
  Ddl("CREATE DATABASE b");
  EXPECT_TRUE(backend_.sync_flags.back());
  MustRun("REFRESH db1.t");
  EXPECT_TRUE(backend_.sync_flags.back());
}

TEST_F(ExecSessionTest, InvalidateAndRefresh) {
  StatementResult r = MustRun("INVALIDATE METADATA");
  ASSERT_EQ(backend_.reset_requests.size(), 1u);
  EXPECT_FALSE(backend_.reset_requests[0].is_refresh);
  EXPECT_FALSE(backend_.reset_requests[0].__isset.table_name);
  EXPECT_EQ(r.messages, std::vector<std::string>{"Catalog metadata has been invalidated."});

  MustRun("USE db1");
  MustRun("INVALIDATE METADATA not_yet_known");  // may exist only in the metastore
  EXPECT_EQ(backend_.reset_requests[1].table_name.db_name, "db1");
  EXPECT_EQ(backend_.reset_requests[1].table_name.table_name, "not_yet_known");
  EXPECT_EQ(Error("INVALIDATE METADATA nodb.x"), "Database does not exist: nodb");

  MustRun("REFRESH t");
  const auto& rf = backend_.reset_requests.back();
  EXPECT_TRUE(rf.is_refresh);
  EXPECT_EQ(rf.table_name.table_name, "t");
  EXPECT_FALSE(rf.__isset.partition_spec);
  EXPECT_FALSE(rf.__isset.partition_spec_list);
  // Partitions travel in partition_spec_list (field 11) only, as from Impala.
  r = MustRun("REFRESH p PARTITION (k='a b')");
  EXPECT_EQ(r.messages, std::vector<std::string>{"Partition has been refreshed."});
  const auto& rp = backend_.reset_requests.back();
  EXPECT_FALSE(rp.__isset.partition_spec);
  ASSERT_EQ(rp.partition_spec_list.size(), 1u);
  ASSERT_EQ(rp.partition_spec_list[0].size(), 1u);
  EXPECT_EQ(rp.partition_spec_list[0][0].name, "k");
  EXPECT_EQ(rp.partition_spec_list[0][0].value, "a b");
  r = MustRun("REFRESH p PARTITION (k='x') PARTITION (k='y')");
  EXPECT_EQ(r.messages, std::vector<std::string>{"Partitions have been refreshed."});
  const auto& r2 = backend_.reset_requests.back();
  EXPECT_FALSE(r2.__isset.partition_spec);
  ASSERT_EQ(r2.partition_spec_list.size(), 2u);
  EXPECT_EQ(r2.partition_spec_list[0][0].value, "x");
  EXPECT_EQ(r2.partition_spec_list[1][0].value, "y");
  EXPECT_EQ(Error("REFRESH nope"), "Table does not exist: db1.nope");
  EXPECT_EQ(Error("REFRESH t PARTITION (k='x')"), "Table is not partitioned: db1.t");
  // As in Impala, a view is refreshed like a table (catalogd re-reads its
  // definition); only a partition REFRESH needs a table.
  cat().AddView("db1", "v", {{"x", "INT"}}, "SELECT 1");
  r = MustRun("REFRESH v");
  EXPECT_EQ(r.messages, std::vector<std::string>{"Table has been refreshed."});
  EXPECT_EQ(backend_.reset_requests.back().table_name.table_name, "v");
  EXPECT_TRUE(backend_.reset_requests.back().is_refresh);
  EXPECT_EQ(Error("REFRESH v PARTITION (k='x')"), "REFRESH not allowed on a view: db1.v");
}

// A whole-table REFRESH of a table catalogd has not loaded asks catalogd
// once: nothing fetches the table before the REFRESH (which would load it)
// or after it (the next statement that needs the table fetches it).
TEST_F(ExecSessionTest, WholeTableRefreshOfUnloadedTableIsOneRequest) {
  cat().tables.at({"db1", "t"})->loaded = false;
  const size_t fetches = cat().get_table_calls;
  const size_t resets = backend_.reset_requests.size();
  ASSERT_TRUE(Run("REFRESH db1.t").ok());
  ASSERT_EQ(backend_.reset_requests.size(), resets + 1);
  EXPECT_EQ(backend_.table_lookups_at_reset.back(), fetches) << "the table was fetched first";
  EXPECT_EQ(cat().get_table_calls, fetches);
}

TEST_F(ExecSessionTest, UnloadedTableIsLoadedWithRefresh) {
  cat().tables.at({"db1", "t"})->loaded = false;
  Result<StatementResult> r = Run("DESCRIBE db1.t");
  // The fake catalog does not change on REFRESH, so the table stays unloaded.
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kRecoverableError);
  // One load attempt per (bounded) retry of the statement.
  ASSERT_EQ(backend_.reset_requests.size(), 3u);
  EXPECT_TRUE(backend_.reset_requests[0].is_refresh);
  EXPECT_EQ(backend_.reset_requests[0].table_name.table_name, "t");
}

TEST_F(ExecSessionTest, RecoverableErrorsBeforeChangesAreRetried) {
  cat().fail_get_partitions = 2;
  StatementResult r = MustRun("SHOW FILES IN db1.t");
  EXPECT_EQ(r.columns.size(), 3u);
  EXPECT_EQ(cat().fail_get_partitions, 0);
  cat().fail_get_partitions = 5;
  Result<StatementResult> failed = Run("SHOW FILES IN db1.t");
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.status().code(), ErrorCode::kRecoverableError);
  EXPECT_EQ(cat().fail_get_partitions, 2);  // three attempts
}

class ExecErrorTest : public ExecTest {};

TEST_F(ExecErrorTest, ParseErrorsKeepLineAndColumn) {
  Result<StatementResult> r = Run("CREATE TABLE t (a INT,\n  b FROM)");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kAnalysisError);
  EXPECT_NE(r.status().message().find("line 2, column"), std::string::npos) << r.status().message();
}

TEST_F(ExecErrorTest, CatalogFreeAnalysisRunsFirst) {
  EXPECT_EQ(Error("CREATE TABLE x (a INT, a STRING)"), "Duplicate column name: a");
}

TEST_F(ExecErrorTest, NullSessionIsRejected) {
  Result<StatementResult> r = executor_.Execute("SHOW DATABASES", nullptr);
  EXPECT_FALSE(r.ok());
}

}  // namespace
}  // namespace ics::coord::testing
