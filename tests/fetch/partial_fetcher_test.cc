// PartialFetcher over catalog states installed directly (no loader):
// protocol and malformed requests, CATALOG, DATABASE and FUNCTION requests,
// and the whole-object reads (GetCatalogObject, GetPartitionStats,
// GetFunctions).
#include <gtest/gtest.h>

#include <set>

#include "catalogd/fetch/partial_fetcher.h"
#include "catalogd/service/catalog_service_handler.h"
#include "common/codec/thrift_serde.h"
#include "tests/fetch/fetcher_fixture.h"

namespace ics::catalog {
namespace {

using impala::CatalogLookupStatus;
using impala::TCatalogObjectType;
using impala::TErrorCode;
using impala::TGetPartialCatalogObjectRequest;
using impala::TGetPartialCatalogObjectResponse;
using impala::TTableInfoSelector;
using testing::DbReq;
using testing::FnReq;
using testing::IdsOf;
using testing::MakeDb;
using testing::MakeFunction;
using testing::MakeTable;
using testing::MakeUnloaded;
using testing::MakeView;
using testing::TableReq;
using testing::TableSpec;

class PartialFetcherTest : public testing::FetcherTestBase {};

// --- protocol, service id, malformed requests -----------------------------

// The CatalogService adapter checks the protocol before the fetcher runs.
TEST_F(PartialFetcherTest, OldProtocolIsRefused) {
  auto f = NewFetcher();
  auto handler = MakeCatalogServiceHandler(HandlerDeps{&ctx_, nullptr, f.get(), 1000});
  auto fetch = [&](const impala::TGetPartialCatalogObjectRequest& q) {
    impala::TGetPartialCatalogObjectResponse resp;
    handler->GetPartialCatalogObject(resp, q);
    return resp;
  };
  TTableInfoSelector sel;
  sel.want_hms_table = true;
  auto req = TableReq("sales", "orders", sel);
  req.protocol_version = impala::CatalogServiceVersion::V1;
  auto r = fetch(req);
  EXPECT_EQ(r.status.status_code, static_cast<TErrorCode::type>(157));
  EXPECT_FALSE(r.status.error_msgs.empty());
  EXPECT_EQ(r.catalog_service_id, catalog_.service_id());
  EXPECT_FALSE(r.__isset.table_info);

  // Thrift does not validate enums: any i32 may arrive.
  req.protocol_version = static_cast<impala::CatalogServiceVersion::type>(-1);
  r = fetch(req);
  EXPECT_EQ(r.status.status_code, static_cast<TErrorCode::type>(157));
  req.protocol_version = static_cast<impala::CatalogServiceVersion::type>(7);  // newer: served
  r = fetch(req);
  ExpectOk(r);
}

// The request and response survive TBinaryProtocol as the RPC layer uses it.
TEST_F(PartialFetcherTest, WireRoundTrip) {
  auto f = NewFetcher();
  TTableInfoSelector sel;
  sel.want_partition_files = true;
  sel.want_partition_names = true;
  sel.__set_partition_ids({101});
  auto wire_req = SerializeThrift(TableReq("sales", "orders", sel));
  ASSERT_TRUE(wire_req.ok());
  auto req = DeserializeThriftAs<TGetPartialCatalogObjectRequest>(*wire_req);
  ASSERT_TRUE(req.ok()) << req.status().ToString();
  auto wire_resp = SerializeThrift(f->GetPartialCatalogObject(*req));
  ASSERT_TRUE(wire_resp.ok());
  auto resp = DeserializeThriftAs<TGetPartialCatalogObjectResponse>(*wire_resp);
  ASSERT_TRUE(resp.ok()) << resp.status().ToString();
  ExpectOk(*resp);
  ASSERT_EQ(resp->table_info.partitions.size(), 1u);
  EXPECT_EQ(resp->table_info.partitions[0].name, "day=1");
  EXPECT_EQ(resp->table_info.partitions[0].file_descriptors.size(), 3u);
  EXPECT_EQ(resp->object_version_number, install_version_);
}

TEST_F(PartialFetcherTest, ServiceIdAndStatusOnEveryAnswer) {
  auto f = NewFetcher();
  TTableInfoSelector sel;
  impala::TDbInfoSelector dsel;
  std::vector<TGetPartialCatalogObjectRequest> reqs = {TableReq("sales", "orders", sel),
                                                       TableReq("sales", "nope", sel),
                                                       TableReq("nodb", "x", sel),
                                                       DbReq("sales", dsel),
                                                       DbReq("nodb", dsel),
                                                       FnReq("sales", "f"),
                                                       FnReq("sales", "nope")};
  for (const auto& req : reqs) {
    auto r = f->GetPartialCatalogObject(req);
    ExpectOk(r);
  }
}

TEST_F(PartialFetcherTest, MissingSelectorsAreMalformed) {
  auto f = NewFetcher();
  for (auto type : {TCatalogObjectType::CATALOG, TCatalogObjectType::DATABASE,
                    TCatalogObjectType::TABLE, TCatalogObjectType::VIEW}) {
    TGetPartialCatalogObjectRequest req;
    req.object_desc.type = type;
    req.object_desc.db.db_name = "sales";
    req.object_desc.table.db_name = "sales";
    req.object_desc.table.tbl_name = "orders";
    auto r = f->GetPartialCatalogObject(req);
    EXPECT_EQ(r.status.status_code, TErrorCode::GENERAL) << type;
    ASSERT_EQ(r.status.error_msgs.size(), 1u);
    EXPECT_NE(r.status.error_msgs[0].find("selector"), std::string::npos);
    EXPECT_EQ(r.catalog_service_id, catalog_.service_id());
    EXPECT_FALSE(r.__isset.table_info);
    EXPECT_FALSE(r.__isset.db_info);
  }
}

TEST_F(PartialFetcherTest, UnsupportedTypesGetAClearError) {
  auto f = NewFetcher();
  for (int type : {0, 6, 7, 8, 9, 10, 11, 99, -1}) {
    TGetPartialCatalogObjectRequest req;
    req.object_desc.type = static_cast<TCatalogObjectType::type>(type);
    auto r = f->GetPartialCatalogObject(req);
    EXPECT_EQ(r.status.status_code, TErrorCode::NOT_IMPLEMENTED_ERROR) << type;
    ASSERT_EQ(r.status.error_msgs.size(), 1u);
    EXPECT_NE(r.status.error_msgs[0].find("does not support"), std::string::npos);
    EXPECT_EQ(r.catalog_service_id, catalog_.service_id());
  }
  TGetPartialCatalogObjectRequest req;
  req.object_desc.type = TCatalogObjectType::HDFS_PARTITION;
  auto r = f->GetPartialCatalogObject(req);
  EXPECT_NE(r.status.error_msgs[0].find("HDFS_PARTITION"), std::string::npos);
}

TEST_F(PartialFetcherTest, EmptyNamesAreLookupFailures) {
  auto f = NewFetcher();
  TTableInfoSelector sel;
  sel.want_hms_table = true;
  auto r = f->GetPartialCatalogObject(TableReq("", "", sel));
  ExpectOk(r);
  EXPECT_EQ(r.lookup_status, CatalogLookupStatus::DB_NOT_FOUND);
  r = f->GetPartialCatalogObject(TableReq("sales", "", sel));
  EXPECT_EQ(r.lookup_status, CatalogLookupStatus::TABLE_NOT_FOUND);
  r = f->GetPartialCatalogObject(DbReq("", impala::TDbInfoSelector()));
  EXPECT_EQ(r.lookup_status, CatalogLookupStatus::DB_NOT_FOUND);
  r = f->GetPartialCatalogObject(FnReq("sales", ""));
  EXPECT_EQ(r.lookup_status, CatalogLookupStatus::FUNCTION_NOT_FOUND);
  r = f->GetPartialCatalogObject(FnReq("", "f"));
  EXPECT_EQ(r.lookup_status, CatalogLookupStatus::DB_NOT_FOUND);
  // A FUNCTION request without any fn at all.
  TGetPartialCatalogObjectRequest bare;
  bare.object_desc.type = TCatalogObjectType::FUNCTION;
  r = f->GetPartialCatalogObject(bare);
  ExpectOk(r);
  EXPECT_EQ(r.lookup_status, CatalogLookupStatus::DB_NOT_FOUND);
}

// --- CATALOG ----------------------------------------------------------------

TEST_F(PartialFetcherTest, CatalogDbNames) {
  auto f = NewFetcher();
  TGetPartialCatalogObjectRequest req;
  req.object_desc.type = TCatalogObjectType::CATALOG;
  impala::TCatalogInfoSelector sel;
  sel.want_db_names = true;
  req.__set_catalog_info_selector(sel);
  auto r = f->GetPartialCatalogObject(req);
  ExpectOk(r);
  EXPECT_EQ(r.catalog_info.db_names, (std::vector<std::string>{"empty", "sales"}));
  EXPECT_EQ(r.object_version_number, catalog_.version());

  sel.want_db_names = false;
  req.__set_catalog_info_selector(sel);
  r = f->GetPartialCatalogObject(req);
  ExpectOk(r);
  EXPECT_TRUE(r.__isset.catalog_info);
  EXPECT_TRUE(r.catalog_info.db_names.empty());
}

// --- DATABASE ---------------------------------------------------------------

TEST_F(PartialFetcherTest, DatabaseSelectors) {
  auto f = NewFetcher();
  impala::TDbInfoSelector sel;
  sel.want_hms_database = true;
  sel.want_brief_meta_of_tables = true;
  sel.want_function_names = true;
  auto r = f->GetPartialCatalogObject(DbReq("sales", sel));
  ExpectOk(r);
  EXPECT_EQ(r.lookup_status, CatalogLookupStatus::OK);
  EXPECT_EQ(r.object_version_number, catalog_.GetDatabase("sales")->version);
  ASSERT_TRUE(r.db_info.__isset.hms_database);
  EXPECT_EQ(r.db_info.hms_database.name, "sales");
  EXPECT_EQ(r.db_info.hms_database.description, "database sales");

  const auto& metas = r.db_info.brief_meta_of_tables;
  ASSERT_EQ(metas.size(), 4u);
  EXPECT_EQ(metas[0].name, "bare");  // unloaded, type unknown: name only
  EXPECT_FALSE(metas[0].__isset.msType);
  EXPECT_FALSE(metas[0].__isset.tblType);
  EXPECT_FALSE(metas[0].__isset.comment);
  EXPECT_EQ(metas[1].name, "lazy");  // unloaded with a known HMS type
  EXPECT_EQ(metas[1].msType, "EXTERNAL_TABLE");
  EXPECT_EQ(metas[1].tblType, impala::TImpalaTableType::TABLE);
  EXPECT_EQ(metas[2].name, "orders");
  EXPECT_EQ(metas[2].msType, "MANAGED_TABLE");
  EXPECT_EQ(metas[2].comment, "orders table");
  EXPECT_EQ(metas[2].tblType, impala::TImpalaTableType::TABLE);
  EXPECT_EQ(metas[3].name, "v");
  EXPECT_EQ(metas[3].msType, "VIRTUAL_VIEW");
  EXPECT_EQ(metas[3].tblType, impala::TImpalaTableType::VIEW);
  EXPECT_FALSE(metas[3].__isset.comment);

  EXPECT_EQ(r.db_info.function_names, (std::vector<std::string>{"f", "g"}));
}

TEST_F(PartialFetcherTest, DatabaseNothingWanted) {
  auto f = NewFetcher();
  auto r = f->GetPartialCatalogObject(DbReq("SALES", impala::TDbInfoSelector()));
  ExpectOk(r);
  EXPECT_TRUE(r.__isset.db_info);
  EXPECT_FALSE(r.db_info.__isset.hms_database);
  EXPECT_FALSE(r.db_info.__isset.brief_meta_of_tables);
  EXPECT_FALSE(r.db_info.__isset.function_names);
}

TEST_F(PartialFetcherTest, EmptyDatabase) {
  auto f = NewFetcher();
  impala::TDbInfoSelector sel;
  sel.want_brief_meta_of_tables = true;
  sel.want_function_names = true;
  auto r = f->GetPartialCatalogObject(DbReq("empty", sel));
  ExpectOk(r);
  EXPECT_TRUE(r.db_info.__isset.brief_meta_of_tables);
  EXPECT_TRUE(r.db_info.brief_meta_of_tables.empty());
  EXPECT_TRUE(r.db_info.function_names.empty());
}

TEST_F(PartialFetcherTest, DatabaseNotFound) {
  auto f = NewFetcher();
  impala::TDbInfoSelector sel;
  sel.want_hms_database = true;
  auto r = f->GetPartialCatalogObject(DbReq("nodb", sel));
  ExpectOk(r);
  EXPECT_EQ(r.lookup_status, CatalogLookupStatus::DB_NOT_FOUND);
  EXPECT_FALSE(r.__isset.db_info);
}

// --- FUNCTION -----------------------------------------------------------------

TEST_F(PartialFetcherTest, FunctionOverloads) {
  auto f = NewFetcher();
  auto r = f->GetPartialCatalogObject(FnReq("SALES", "F"));
  ExpectOk(r);
  EXPECT_EQ(r.lookup_status, CatalogLookupStatus::OK);
  ASSERT_EQ(r.functions.size(), 2u);
  std::set<std::string> sigs;
  for (const auto& fn : r.functions) sigs.insert(fn.signature);
  EXPECT_EQ(sigs, (std::set<std::string>{"f(INT)", "f(STRING)"}));
  EXPECT_EQ(r.object_version_number, install_version_);

  r = f->GetPartialCatalogObject(FnReq("sales", "nope"));
  EXPECT_EQ(r.lookup_status, CatalogLookupStatus::FUNCTION_NOT_FOUND);
  EXPECT_FALSE(r.__isset.functions);
  r = f->GetPartialCatalogObject(FnReq("nodb", "f"));
  EXPECT_EQ(r.lookup_status, CatalogLookupStatus::DB_NOT_FOUND);
}

// --- GetCatalogObject / GetPartitionStats / GetFunctions ----------------------

TEST_F(PartialFetcherTest, GetCatalogObject) {
  auto f = NewFetcher();
  impala::TCatalogObject desc;
  desc.type = TCatalogObjectType::DATABASE;
  desc.db.db_name = "sales";
  auto db = f->GetCatalogObject(desc);
  ASSERT_TRUE(db.ok()) << db.status().ToString();
  EXPECT_EQ(db->db.db_name, "sales");
  EXPECT_EQ(db->catalog_version, catalog_.GetDatabase("sales")->version);
  desc.db.db_name = "nodb";
  EXPECT_TRUE(f->GetCatalogObject(desc).status().Is(ErrorCode::kNotFound));

  desc = impala::TCatalogObject();
  desc.type = TCatalogObjectType::TABLE;
  desc.table.db_name = "sales";
  desc.table.tbl_name = "orders";
  auto t = f->GetCatalogObject(desc);
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_EQ(t->catalog_version, install_version_);
  ASSERT_EQ(t->table.hdfs_table.partitions.size(), 4u);
  EXPECT_EQ(t->table.hdfs_table.partitions.at(100).file_desc.size(), 3u);
  desc.table.tbl_name = "nope";
  EXPECT_TRUE(f->GetCatalogObject(desc).status().Is(ErrorCode::kNotFound));
  desc.table.tbl_name = "lazy";  // no load manager
  auto lazy = f->GetCatalogObject(desc);
  EXPECT_FALSE(lazy.ok());
  EXPECT_FALSE(lazy.status().Is(ErrorCode::kNotFound));

  desc = impala::TCatalogObject();
  desc.type = TCatalogObjectType::HDFS_PARTITION;
  desc.hdfs_partition.db_name = "sales";
  desc.hdfs_partition.tbl_name = "orders";
  desc.hdfs_partition.partition_name = "day=2";
  auto p = f->GetCatalogObject(desc);
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  EXPECT_EQ(p->hdfs_partition.id, 102);
  desc.hdfs_partition.partition_name = "day=9";
  EXPECT_TRUE(f->GetCatalogObject(desc).status().Is(ErrorCode::kNotFound));

  desc = impala::TCatalogObject();
  desc.type = TCatalogObjectType::FUNCTION;
  desc.fn.name.db_name = "sales";
  desc.fn.name.function_name = "f";
  desc.fn.__set_signature("f(STRING)");
  auto fn = f->GetCatalogObject(desc);
  ASSERT_TRUE(fn.ok()) << fn.status().ToString();
  EXPECT_EQ(fn->fn.signature, "f(STRING)");
  desc.fn.__isset.signature = false;
  EXPECT_TRUE(f->GetCatalogObject(desc).status().Is(ErrorCode::kInvalidArgument));  // 2 overloads
  desc.fn.name.function_name = "g";
  ASSERT_TRUE(f->GetCatalogObject(desc).ok());
  desc.fn.name.function_name = "nope";
  EXPECT_TRUE(f->GetCatalogObject(desc).status().Is(ErrorCode::kNotFound));

  desc = impala::TCatalogObject();
  desc.type = TCatalogObjectType::CATALOG;
  auto c = f->GetCatalogObject(desc);
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->catalog.catalog_service_id, catalog_.service_id());
  EXPECT_EQ(c->catalog_version, catalog_.version());

  desc.type = TCatalogObjectType::PRINCIPAL;
  EXPECT_TRUE(f->GetCatalogObject(desc).status().Is(ErrorCode::kNotImplemented));
}

TEST_F(PartialFetcherTest, GetPartitionStats) {
  auto f = NewFetcher();
  impala::TTableName name;
  name.db_name = "sales";
  name.table_name = "orders";
  auto stats = f->GetPartitionStats(name);
  ASSERT_TRUE(stats.ok()) << stats.status().ToString();
  TablePtr t = catalog_.GetTable("sales", "orders");
  ASSERT_EQ(stats->size(), 2u);
  EXPECT_EQ(stats->at("day=0"), t->partitions.at(100)->partition_stats());
  EXPECT_EQ(stats->at("day=2"), t->partitions.at(102)->partition_stats());
  name.table_name = "nope";
  EXPECT_TRUE(f->GetPartitionStats(name).status().Is(ErrorCode::kNotFound));
  name.db_name = "nodb";
  EXPECT_TRUE(f->GetPartitionStats(name).status().Is(ErrorCode::kNotFound));
}

TEST_F(PartialFetcherTest, GetFunctions) {
  auto f = NewFetcher();
  auto fns = f->GetFunctions("sales");
  ASSERT_TRUE(fns.ok());
  EXPECT_EQ(fns->size(), 3u);
  auto none = f->GetFunctions("empty");
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty());
  EXPECT_TRUE(f->GetFunctions("nodb").status().Is(ErrorCode::kNotFound));
  EXPECT_TRUE(f->GetFunctions("").status().Is(ErrorCode::kInvalidArgument));
}

}  // namespace
}  // namespace ics::catalog
