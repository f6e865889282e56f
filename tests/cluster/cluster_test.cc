// In-process cluster tests: statestore + catalogd + coordinators in one
// process on free ports, driven through the coordinators' SQL executor.
// Each test runs with both local-catalog modes.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>

#include "tests/util/mini_cluster.h"

namespace ics::testing {
namespace {

using coord::StatementResult;

// Changes are pushed as they are installed unless a publication made in a
// reply is still unconfirmed (then the reply path carries them); over a few
// statements some are pushed, and every coordinator gets them.
// SYNC_DDL statements on coordinator 0 reach the others, the changes pushed
// by catalogd (`pushes`) or carried in its update replies.
void ClusterPush(const MiniClusterOptions& o, bool pushes) {
  MiniCluster cluster(o);
  ASSERT_TRUE(cluster.Start().ok());
  auto exec = [&](int coord, const std::string& sql) {
    auto r = cluster.Exec(coord, sql);
    EXPECT_TRUE(r.ok()) << sql << ": " << r.status().ToString();
    return r.ok() ? std::move(r).value() : coord::StatementResult{};
  };
  exec(0, "SET SYNC_DDL=1");
  const int64_t before = cluster.catalogd()->publisher()->Stats().pushed_publications;
  for (int i = 0; i < 5; ++i) exec(0, "CREATE DATABASE pushed_" + std::to_string(i));
  if (pushes) {
    EXPECT_GT(cluster.catalogd()->publisher()->Stats().pushed_publications, before);
  } else {
    EXPECT_EQ(cluster.catalogd()->publisher()->Stats().pushed_publications, before);
  }
  for (int c = 1; c < 3; ++c) {
    bool found = false;
    for (const auto& row : exec(c, "SHOW DATABASES").rows) found |= !row.empty() && row[0] == "pushed_4";
    EXPECT_TRUE(found) << "coordinator " << c;
  }
}

class ClusterTest : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    MiniClusterOptions o;
    o.num_coordinators = 3;
    o.full_replica = GetParam();
    cluster_ = std::make_unique<MiniCluster>(o);
    ASSERT_TRUE(cluster_->Start().ok());
  }

  StatementResult Ok(int coord, const std::string& sql) {
    auto r = cluster_->Exec(coord, sql);
    EXPECT_TRUE(r.ok()) << "[" << coord << "] " << sql << ": " << r.status().ToString();
    return r.ok() ? std::move(r).value() : StatementResult{};
  }

  // First column of every row.
  std::vector<std::string> Column0(int coord, const std::string& sql) {
    std::vector<std::string> out;
    for (const auto& row : Ok(coord, sql).rows) out.push_back(row.empty() ? "" : row[0]);
    return out;
  }

  static bool Contains(const std::vector<std::string>& v, const std::string& s) {
    return std::find(v.begin(), v.end(), s) != v.end();
  }

  // catalogd's own state of db.table has parameter key=value.
  void ExpectCatalogdParam(const std::string& db, const std::string& table, const std::string& key,
                     const std::string& value) {
    auto t = cluster_->catalogd()->catalog()->GetTable(db, table);
    ASSERT_NE(t, nullptr);
    auto it = t->hms.parameters.find(key);
    ASSERT_NE(it, t->hms.parameters.end()) << key;
    EXPECT_EQ(it->second, value);
  }

  std::unique_ptr<MiniCluster> cluster_;
};

TEST_P(ClusterTest, SyncDdlMakesChangesVisibleEverywhereOnReturn) {
  Ok(0, "SET SYNC_DDL=1");
  Ok(0, "CREATE DATABASE sync_db");
  Ok(0, "CREATE TABLE sync_db.t (a INT) PARTITIONED BY (p STRING)");
  // No waiting: SYNC_DDL returned only after every coordinator had it.
  EXPECT_TRUE(Contains(Column0(1, "SHOW TABLES IN sync_db"), "t"));
  EXPECT_TRUE(Contains(Column0(2, "SHOW TABLES IN sync_db"), "t"));
  Ok(0, "ALTER TABLE sync_db.t ADD PARTITION (p='x')");
  EXPECT_EQ(Ok(2, "SHOW PARTITIONS sync_db.t").rows.size(), 2u);  // p=x + Total
}

TEST(ClusterPushTest, CatalogdPushesChangesOrPublishesThemInReplies) {
  for (bool push : {true, false}) {
    for (bool full_replica : {false, true}) {
      MiniClusterOptions o;
      o.num_coordinators = 3;
      o.full_replica = full_replica;
      o.tune_catalogd = [push](catalog::CatalogServerOptions* c) { c->push_topic_updates = push; };
      ClusterPush(o, push);
    }
  }
}

TEST_P(ClusterTest, DropsStayDropped) {
  Ok(0, "SET SYNC_DDL=1");
  Ok(0, "CREATE DATABASE d");
  Ok(0, "CREATE TABLE d.gone (a INT)");
  EXPECT_TRUE(Contains(Column0(1, "SHOW TABLES IN d"), "gone"));
  Ok(1, "SET SYNC_DDL=1");
  Ok(1, "DROP TABLE d.gone");
  for (int c = 0; c < 3; ++c) {
    EXPECT_FALSE(Contains(Column0(c, "SHOW TABLES IN d"), "gone")) << c;
    EXPECT_FALSE(cluster_->Exec(c, "DESCRIBE d.gone").ok()) << c;
  }
  // Later topic updates must not bring it back.
  Ok(0, "CREATE TABLE d.other (a INT)");
  EXPECT_TRUE(Eventually([&] { return Contains(Column0(1, "SHOW TABLES IN d"), "other"); }));
  EXPECT_FALSE(Contains(Column0(1, "SHOW TABLES IN d"), "gone"));
}

TEST_P(ClusterTest, InsertWritesFilesThatEveryCoordinatorSees) {
  Ok(0, "SET SYNC_DDL=1");
  Ok(0, "CREATE DATABASE ins");
  Ok(0, "CREATE TABLE ins.t (a INT, b STRING) PARTITIONED BY (p INT)");
  Ok(0, "INSERT INTO ins.t PARTITION (p=1) VALUES (1, 'x'), (2, NULL)");
  Ok(0, "INSERT INTO ins.t PARTITION (p=2) VALUES (3, 'y')");
  auto files = Ok(2, "SHOW FILES IN ins.t");
  ASSERT_EQ(files.rows.size(), 2u);
  for (const auto& row : files.rows) {
    EXPECT_NE(row[0].find("/ins.db/t/p="), std::string::npos) << row[0];
  }
  // The data is really on disk.
  auto scan = Ok(1, "COMPUTE STATS ins.t");
  auto stats = Ok(1, "SHOW TABLE STATS ins.t");
  ASSERT_FALSE(stats.rows.empty());
  EXPECT_EQ(stats.rows.back()[1], "3");  // Total #Rows
}

TEST_P(ClusterTest, ComputeStatsFiguresMatchTheData) {
  Ok(0, "SET SYNC_DDL=1");
  Ok(0, "CREATE DATABASE st");
  Ok(0, "CREATE TABLE st.t (id INT, name STRING)");
  Ok(0, "INSERT INTO st.t VALUES (1, 'aa'), (2, 'bbbb'), (3, NULL), (3, 'aa')");
  Ok(0, "COMPUTE STATS st.t");
  auto cols = Ok(2, "SHOW COLUMN STATS st.t");
  ASSERT_EQ(cols.rows.size(), 2u);
  // Column, Type, #Distinct Values, #Nulls, Max Size, Avg Size
  EXPECT_EQ(cols.rows[0][0], "id");
  EXPECT_EQ(cols.rows[0][2], "3");
  EXPECT_EQ(cols.rows[0][3], "0");
  EXPECT_EQ(cols.rows[1][0], "name");
  EXPECT_EQ(cols.rows[1][2], "2");
  EXPECT_EQ(cols.rows[1][3], "1");
  EXPECT_EQ(cols.rows[1][4], "4");
}

TEST_P(ClusterTest, ExplainPrunesPartitions) {
  Ok(0, "SET SYNC_DDL=1");
  Ok(0, "CREATE DATABASE ex");
  Ok(0, "CREATE TABLE ex.t (v INT) PARTITIONED BY (y INT, m STRING)");
  for (int y = 2020; y <= 2023; ++y) {
    for (const char* m : {"a", "b", "c"}) {
      Ok(0, "INSERT INTO ex.t PARTITION (y=" + std::to_string(y) + ", m='" + m + "') VALUES (1)");
    }
  }
  auto plan = Ok(1, "EXPLAIN SELECT v FROM ex.t WHERE y >= 2022 AND m IN ('a', 'c') AND v > 0");
  std::string text;
  for (const auto& m : plan.messages) text += m + "\n";
  EXPECT_NE(text.find("partitions=4/12"), std::string::npos) << text;
  EXPECT_NE(text.find("files=4"), std::string::npos) << text;
  auto none = Ok(2, "EXPLAIN SELECT v FROM ex.t WHERE y IS NULL");
  text.clear();
  for (const auto& m : none.messages) text += m + "\n";
  EXPECT_NE(text.find("partitions=0/12"), std::string::npos) << text;
}

TEST_P(ClusterTest, GlobalInvalidateResetsCaches) {
  Ok(0, "SET SYNC_DDL=1");
  Ok(0, "CREATE DATABASE inv");
  Ok(0, "CREATE TABLE inv.t (a INT)");
  EXPECT_TRUE(Contains(Column0(2, "SHOW TABLES IN inv"), "t"));
  Ok(1, "INVALIDATE METADATA");
  // Every coordinator still answers from the (reloaded) catalog.
  for (int c = 0; c < 3; ++c) {
    EXPECT_TRUE(Eventually([&] {
      auto r = cluster_->Exec(c, "SHOW TABLES IN inv");
      return r.ok() && !r->rows.empty() && r->rows[0][0] == "t";
    })) << c;
  }
}

TEST_P(ClusterTest, CatalogdRestartChangesServiceIdAndCoordinatorsReset) {
  Ok(0, "SET SYNC_DDL=1");
  Ok(0, "CREATE DATABASE rs");
  Ok(0, "CREATE TABLE rs.before_restart (a INT)");
  ASSERT_TRUE(cluster_->RestartCatalogd().ok());
  // Coordinators learn the new service id and serve the restarted catalog,
  // which reloaded everything from the durable metastore.
  for (int c = 0; c < 3; ++c) {
    EXPECT_TRUE(Eventually([&] {
      auto r = cluster_->Exec(c, "SHOW TABLES IN rs");
      return r.ok() && !r->rows.empty() && r->rows[0][0] == "before_restart";
    }, std::chrono::seconds(20))) << c;
  }
  EXPECT_TRUE(Eventually([&] {
    return cluster_->Exec(1, "CREATE TABLE rs.after_restart (a INT)").ok();
  }, std::chrono::seconds(20)));
  EXPECT_TRUE(Eventually([&] { return Contains(Column0(2, "SHOW TABLES IN rs"), "after_restart"); },
                         std::chrono::seconds(20)));
}

TEST_P(ClusterTest, BadSqlIsAClearErrorAndChangesNothing) {
  auto r = cluster_->Exec(0, "CREATE TABLE (a INT)");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("line 1"), std::string::npos) << r.status().message();
  auto missing = cluster_->Exec(0, "ALTER TABLE nodb.t ADD PARTITION (p=1)");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("nodb"), std::string::npos);
  const int64_t v = cluster_->catalogd()->catalog()->version();
  EXPECT_FALSE(cluster_->Exec(0, "CREATE TABLE default.bad (a NOTATYPE)").ok());
  EXPECT_EQ(cluster_->catalogd()->catalog()->version(), v);
}

// ALTER VIEW SET/UNSET TBLPROPERTIES from SQL to catalogd and back to every
// coordinator: the properties change, the definition does not.
TEST_P(ClusterTest, AlterViewProperties) {
  Ok(0, "SET SYNC_DDL=1");
  Ok(0, "CREATE DATABASE vp");
  Ok(0, "CREATE TABLE vp.t (a INT)");
  Ok(0, "CREATE VIEW vp.v AS SELECT a FROM vp.t");
  const auto before = Ok(1, "SHOW CREATE VIEW vp.v").rows;
  auto set = Ok(0, "ALTER VIEW vp.v SET TBLPROPERTIES ('team'='core', 'k'='1')");
  EXPECT_EQ(set.messages, std::vector<std::string>{"Updated view."});
  auto params = [&](int coord) {
    std::map<std::string, std::string> out;
    bool in = false;
    for (const auto& row : Ok(coord, "DESCRIBE FORMATTED vp.v").rows) {
      if (!row.empty() && row[0].rfind("Table Parameters", 0) == 0) {
        in = true;
      } else if (in && row.size() >= 3 && row[0].empty()) {
        out[row[1]] = row[2];
      } else {
        in = false;
      }
    }
    return out;
  };
  EXPECT_EQ(params(1)["team"], "core");
  EXPECT_EQ(params(2)["k"], "1");
  EXPECT_EQ(Ok(2, "SHOW CREATE VIEW vp.v").rows, before) << "the definition is unchanged";
  ExpectCatalogdParam("vp", "v", "team", "core");

  // Without IF EXISTS every key must exist, and then nothing is removed.
  auto bad = cluster_->Exec(0, "ALTER VIEW vp.v UNSET TBLPROPERTIES ('k', 'missing')");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("missing"), std::string::npos) << bad.status().message();
  EXPECT_EQ(params(0).count("k"), 1u);
  Ok(0, "ALTER VIEW vp.v UNSET TBLPROPERTIES IF EXISTS ('k', 'missing')");
  EXPECT_EQ(params(2).count("k"), 0u);
  EXPECT_EQ(params(2)["team"], "core");
  EXPECT_EQ(Ok(1, "SHOW CREATE VIEW vp.v").rows, before);

  auto on_table = cluster_->Exec(0, "ALTER VIEW vp.t SET TBLPROPERTIES ('a'='b')");
  ASSERT_FALSE(on_table.ok());
  EXPECT_EQ(on_table.status().message(), "ALTER VIEW not allowed on a table: vp.t");
  EXPECT_FALSE(cluster_->Exec(0, "ALTER VIEW vp.v SET TBLPROPERTIES ('storage_handler'='x')").ok());
}

// REFRESH t PARTITION (...) PARTITION (...) sends partition_spec_list and
// reloads only those partitions.
TEST_P(ClusterTest, RefreshListedPartitionsOnly) {
  Ok(0, "SET SYNC_DDL=1");
  Ok(0, "CREATE DATABASE rf");
  Ok(0, "CREATE TABLE rf.t (a INT) PARTITIONED BY (p INT)");
  for (int p = 1; p <= 3; ++p) {
    Ok(0, "INSERT INTO rf.t PARTITION (p=" + std::to_string(p) + ") VALUES (" + std::to_string(p) + ")");
  }
  std::string root = cluster_->catalogd()->catalog()->GetTable("rf", "t")->hms.sd.location;
  if (root.rfind("file:", 0) == 0) root = root.substr(5);
  for (int p = 1; p <= 3; ++p) {
    std::ofstream(root + "/p=" + std::to_string(p) + "/extra.txt") << "9\n";
  }
  auto files = [&](int coord, int p) {
    return Ok(coord, "SHOW FILES IN rf.t PARTITION (p=" + std::to_string(p) + ")").rows.size();
  };
  auto r = Ok(0, "REFRESH rf.t PARTITION (p=1) PARTITION (p=3)");
  EXPECT_EQ(r.messages, std::vector<std::string>{"Partitions have been refreshed."});
  EXPECT_EQ(files(1, 1), 2u);
  EXPECT_EQ(files(2, 3), 2u);
  EXPECT_EQ(files(1, 2), 1u) << "p=2 was not listed";
  Ok(0, "REFRESH rf.t PARTITION (p=2)");
  EXPECT_EQ(files(2, 2), 2u);
}

INSTANTIATE_TEST_SUITE_P(Modes, ClusterTest, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& i) {
                           return i.param ? "FullReplica" : "OnDemand";
                         });

}  // namespace
}  // namespace ics::testing
