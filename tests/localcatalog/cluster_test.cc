// Both local-catalog modes in an in-process cluster: a MiniCluster's
// StatestoreServer and real CatalogServer publishing mixed ("1:" and "2:")
// topic entries, and one bare local-catalog subscription per mode. DDL goes through the raw
// CatalogService ExecDdl RPC; the local catalogs learn about it only from the topic (and, on
// demand, from catalogd fetches).
#include <stdlib.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <functional>
#include <set>
#include <thread>

#include <gtest/gtest.h>

#include "CatalogService.h"
#include "catalogd/service/catalog_server.h"
#include "common/rpc/status_convert.h"
#include "common/rpc/thrift_client.h"
#include "common/types/column_type.h"
#include "coordinator-sim/catalog/local_catalog.h"
#include "statestore/statestore_server.h"
#include "statestore/subscriber.h"
#include "tests/util/eventually.h"
#include "tests/util/mini_cluster.h"

namespace ics::lctest {
namespace {

using ::ics::testing::Eventually;

using coord::LocalCatalog;

impala::TColumn Column(const std::string& name, const std::string& type) {
  impala::TColumn c;
  c.columnName = name;
  c.columnType = *ParseHiveType(type);
  return c;
}

impala::TTableName Name(const std::string& db, const std::string& table) {
  impala::TTableName n;
  n.db_name = db;
  n.table_name = table;
  return n;
}

impala::TPartitionDef PartitionDef(const std::string& value) {
  impala::TPartitionKeyValue kv;
  kv.name = "p";
  kv.value = value;
  impala::TPartitionDef d;
  d.partition_spec = {kv};
  return d;
}

class LocalCatalogClusterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ::ics::testing::MiniClusterOptions mo;
    mo.num_coordinators = 0;  // the local catalogs below subscribe by themselves
    mo.update_frequency_ms = 200;
    cluster_ = std::make_unique<::ics::testing::MiniCluster>(mo);
    Status s = cluster_->Start();
    ASSERT_TRUE(s.ok()) << s.ToString();
    catalogd_ = cluster_->catalogd();
    statestore_ = cluster_->statestore();

    full_ = coord::MakeFullReplicaCatalog();
    coord::OnDemandOptions oo;
    oo.catalogd_port = catalogd_->port();
    oo.retry_backoff_initial_ms = 5;
    on_demand_ = coord::MakeOnDemandCatalog(oo);
    Subscribe("lc-full", full_.get());
    Subscribe("lc-on-demand", on_demand_.get());
    for (auto& sub : subs_) {
      ASSERT_TRUE(sub->WaitForRegistration(std::chrono::seconds(10)).ok());
    }
    client_ = std::make_unique<ThriftClient<impala::CatalogServiceClient>>("127.0.0.1",
                                                                           catalogd_->port());
  }

  void TearDown() override {
    for (auto& sub : subs_) sub->Stop();
    cluster_.reset();
  }

  void Subscribe(const std::string& id, LocalCatalog* cat) {
    statestore::StatestoreSubscriberOptions o;
    o.subscriber_id = id;
    o.statestore_port = statestore_->port();
    o.port = 0;
    auto sub = std::make_unique<statestore::StatestoreSubscriber>(o);
    statestore::TopicSubscription t;
    t.topic = "catalog-update";
    t.is_transient = true;
    t.populate_min_subscriber_topic_version = true;
    t.filter_prefix = cat->topic_prefix();
    t.callback = [cat](const impala::TTopicDelta& d, std::vector<impala::TTopicDelta>* pubs) {
      cat->OnTopicUpdate(d, pubs);
    };
    ASSERT_TRUE(sub->AddTopic(std::move(t)).ok());
    ASSERT_TRUE(sub->Start().ok());
    subs_.push_back(std::move(sub));
  }

  // Runs one DDL; returns the catalog version of the change.
  int64_t Ddl(impala::TDdlExecRequest req) {
    req.protocol_version = impala::CatalogServiceVersion::V2;
    impala::TDdlExecResponse resp;
    Status s =
        client_->Call("ExecDdl", [&](impala::CatalogServiceClient& c) { c.ExecDdl(resp, req); });
    EXPECT_TRUE(s.ok()) << s.ToString();
    Status rs = FromTStatus(resp.result.status);
    EXPECT_TRUE(rs.ok()) << rs.ToString();
    return resp.result.version;
  }

  std::unique_ptr<::ics::testing::MiniCluster> cluster_;
  catalog::CatalogServer* catalogd_ = nullptr;
  statestore::StatestoreServer* statestore_ = nullptr;
  std::unique_ptr<LocalCatalog> full_;
  std::unique_ptr<LocalCatalog> on_demand_;
  std::vector<std::unique_ptr<statestore::StatestoreSubscriber>> subs_;
  std::unique_ptr<ThriftClient<impala::CatalogServiceClient>> client_;
};

TEST_F(LocalCatalogClusterTest, BothModesSeeDdlThroughTheTopic) {
  ASSERT_TRUE(Eventually([&] { return full_->service_id().has_value(); }));
  ASSERT_TRUE(Eventually([&] { return on_demand_->service_id().has_value(); }));
  EXPECT_EQ(*full_->service_id(), *on_demand_->service_id());

  impala::TDdlExecRequest db;
  db.ddl_type = impala::TDdlType::CREATE_DATABASE;
  db.__isset.create_db_params = true;
  db.create_db_params.db = "itest";
  db.create_db_params.owner = "alice";
  const int64_t v_db = Ddl(db);
  ASSERT_GT(v_db, 0);

  impala::TDdlExecRequest tbl;
  tbl.ddl_type = impala::TDdlType::CREATE_TABLE;
  tbl.__isset.create_table_params = true;
  auto& p = tbl.create_table_params;
  p.table_name = Name("itest", "events");
  p.columns = {Column("id", "int"), Column("name", "string")};
  p.__set_partition_columns({Column("p", "string")});
  p.file_format = impala::THdfsFileFormat::TEXT;
  p.owner = "alice";
  const int64_t v_tbl = Ddl(tbl);

  impala::TDdlExecRequest add;
  add.ddl_type = impala::TDdlType::ALTER_TABLE;
  add.__isset.alter_table_params = true;
  add.alter_table_params.alter_type = impala::TAlterTableType::ADD_PARTITION;
  add.alter_table_params.table_name = Name("itest", "events");
  add.alter_table_params.__isset.add_partition_params = true;
  add.alter_table_params.add_partition_params.partitions = {PartitionDef("a"),
                                                            PartitionDef("b c/d")};
  const int64_t v_add = Ddl(add);
  ASSERT_GT(v_add, v_tbl);

  // On demand: the topic's invalidations arrive, fetches answer.
  ASSERT_TRUE(Eventually([&] { return on_demand_->catalog_version() >= v_add; }));
  ASSERT_TRUE(Eventually([&] {
    auto dbs = on_demand_->DatabaseNames();
    return dbs.ok() && std::count(dbs->begin(), dbs->end(), "itest") == 1;
  }));
  auto od_table = on_demand_->GetTable("itest", "events");
  ASSERT_TRUE(od_table.ok()) << od_table.status().ToString();
  EXPECT_EQ((*od_table)->partition_names.size(), 2u);
  auto od_parts = on_demand_->GetPartitions(**od_table, {}, true, false);
  ASSERT_TRUE(od_parts.ok()) << od_parts.status().ToString();
  ASSERT_EQ(od_parts->size(), 2u);
  std::set<std::string> values;
  for (const auto& part : *od_parts) values.insert(part->values.at(0));
  EXPECT_EQ(values, (std::set<std::string>{"a", "b c/d"}));

  // Full replica: the loaded table with both partitions arrives in "1:" entries.
  ASSERT_TRUE(Eventually([&] {
    auto t = full_->GetTable("itest", "events");
    return t.ok() && (*t)->loaded && (*t)->partition_names.size() == 2;
  }));
  auto full_table = *full_->GetTable("itest", "events");
  EXPECT_EQ(full_table->clustering_columns.size(), 1u);
  EXPECT_EQ(full_table->columns.size(), 2u);
  auto full_parts = full_->GetPartitions(*full_table, {}, true, false);
  ASSERT_TRUE(full_parts.ok()) << full_parts.status().ToString();
  ASSERT_EQ(full_parts->size(), 2u);
  values.clear();
  for (const auto& part : *full_parts) values.insert(part->values.at(0));
  EXPECT_EQ(values, (std::set<std::string>{"a", "b c/d"}));
  EXPECT_TRUE(full_->GetDatabase("itest").ok());

  // DROP TABLE: gone from both.
  impala::TDdlExecRequest drop;
  drop.ddl_type = impala::TDdlType::DROP_TABLE;
  drop.__isset.drop_table_or_view_params = true;
  drop.drop_table_or_view_params.table_name = Name("itest", "events");
  const int64_t v_drop = Ddl(drop);
  ASSERT_TRUE(Eventually(
      [&] { return full_->GetTable("itest", "events").status().Is(ErrorCode::kNotFound); }));
  ASSERT_TRUE(Eventually([&] { return on_demand_->catalog_version() >= v_drop; }));
  EXPECT_TRUE(on_demand_->GetTable("itest", "events").status().Is(ErrorCode::kNotFound));
  EXPECT_TRUE(on_demand_->TableNames("itest")->empty());
  EXPECT_TRUE(full_->TableNames("itest")->empty());
}

}  // namespace
}  // namespace ics::lctest
