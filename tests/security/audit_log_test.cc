// The audit log: its line format and rotation alone, and end to end through
// an in-process catalogd whose ports speak mutual TLS, one line per write
// operation kind (DDL, ResetMetadata, UpdateCatalog, a metastore-service
// batch, an HMS write) with the peer address and certificate identity.
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "CatalogService.h"
#include "PartitionService.h"
#include "ThriftHiveMetastore.h"
#include "catalogd/service/catalog_server.h"
#include "common/rpc/thrift_client.h"
#include "common/types/column_type.h"
#include "common/util/audit_log.h"
#include "common/util/operation_log_json.h"
#include "tests/security/test_certs.h"
#include "tests/util/temp_dir.h"

namespace ics {
namespace {

using ::ics::testing::TempDir;

namespace fs = std::filesystem;
using Json = nlohmann::json;
using testing::TestCerts;

std::vector<std::string> AuditFiles(const std::string& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string n = e.path().filename().string();
    if (n.find("-audit-") != std::string::npos && n.size() > 6 &&
        n.compare(n.size() - 6, 6, ".jsonl") == 0) {
      out.push_back(e.path().string());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<Json> AuditLines(const std::string& dir) {
  std::vector<Json> out;
  for (const std::string& f : AuditFiles(dir)) {
    std::ifstream in(f);
    std::string line;
    while (std::getline(in, line)) out.push_back(Json::parse(line));
  }
  return out;
}

OperationRecord Record(int64_t id, const std::string& kind) {
  OperationRecord r;
  r.id = id;
  r.kind = kind;
  r.target = "db.t";
  r.detail = "alice@10.0.0.1: CREATE TABLE \"x\"\n";
  r.origin = OperationOrigin{"127.0.0.1:5555", "CN=ics-client", true};
  r.start_time = std::chrono::system_clock::now();
  r.duration_us = 1500;
  r.running = false;
  r.status = "OK";
  r.message = "Table has been created.";
  r.catalog_version = 42;
  return r;
}

TEST(AuditLogTest, OneJsonObjectPerLineWithEveryField) {
  TempDir tmp;
  auto log = AuditLog::Open(AuditLogOptions{tmp.path() + "/audit", "catalogd", 1 << 20, 5});
  ASSERT_TRUE(log.ok()) << log.status().ToString();
  (*log)->Record(Record(1, "CREATE_TABLE"));
  OperationRecord bad = Record(2, "DROP_TABLE");
  bad.status = "NOT_FOUND";
  bad.target = std::string("t\xff\xfe", 3);  // invalid UTF-8 is replaced, not fatal
  (*log)->Record(bad);
  EXPECT_EQ((*log)->lines_written(), 2);
  EXPECT_EQ((*log)->write_errors(), 0);

  struct stat st {};
  ASSERT_EQ(::stat((*log)->current_file().c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);

  const std::vector<Json> lines = AuditLines(tmp.path() + "/audit");
  ASSERT_EQ(lines.size(), 2u);
  const Json& j = lines[0];
  const std::vector<std::string> keys = {"time",   "daemon",   "id",      "peer",
                                         "identity", "tls",    "operation", "target",
                                         "detail", "outcome",  "message", "catalog_version",
                                         "duration_ms"};
  for (const std::string& k : keys) EXPECT_TRUE(j.contains(k)) << k;
  EXPECT_EQ(j["operation"], "CREATE_TABLE");
  EXPECT_EQ(j["peer"], "127.0.0.1:5555");
  EXPECT_EQ(j["identity"], "CN=ics-client");
  EXPECT_EQ(j["tls"], true);
  EXPECT_EQ(j["outcome"], "OK");
  EXPECT_EQ(j["catalog_version"], 42);
  EXPECT_EQ(j["detail"], "alice@10.0.0.1: CREATE TABLE \"x\"\n");
  const std::string time = j["time"];
  ASSERT_EQ(time.size(), 24u) << time;  // 2026-12-01T16:08:44.123Z
  EXPECT_EQ(time[10], 'T');
  EXPECT_EQ(time.back(), 'Z');
  EXPECT_EQ(lines[1]["outcome"], "NOT_FOUND");
}

TEST(AuditLogTest, RotatesAndRemovesOnlyItsOwnOldFiles) {
  TempDir tmp;
  const std::string dir = tmp.path() + "/audit";
  fs::create_directories(dir);
  std::ofstream(dir + "/notes.txt") << "keep me";
  std::ofstream(dir + "/catalogd-audit-mine.jsonl") << "not a rotated name";
  std::ofstream(dir + "/statestored-audit-20200101-000000-1-1.jsonl") << "another daemon";
  auto log = AuditLog::Open(AuditLogOptions{dir, "catalogd", 600, 3});
  ASSERT_TRUE(log.ok()) << log.status().ToString();
  for (int i = 1; i <= 40; ++i) (*log)->Record(Record(i, "ALTER_TABLE"));
  EXPECT_EQ((*log)->lines_written(), 40);
  std::vector<std::string> mine;
  for (const std::string& f : AuditFiles(dir)) {
    if (fs::path(f).filename().string().rfind("catalogd-audit-2", 0) == 0) mine.push_back(f);
    EXPECT_LE(fs::file_size(f), 600u) << f;
  }
  EXPECT_EQ(mine.size(), 3u);
  EXPECT_TRUE(fs::exists(dir + "/notes.txt"));
  EXPECT_TRUE(fs::exists(dir + "/catalogd-audit-mine.jsonl"));
  EXPECT_TRUE(fs::exists(dir + "/statestored-audit-20200101-000000-1-1.jsonl"));
  // The newest lines survive; ids increase across the kept files.
  int64_t last = 0;
  for (const std::string& f : mine) {
    std::ifstream in(f);
    std::string line;
    while (std::getline(in, line)) {
      const int64_t id = Json::parse(line)["id"];
      EXPECT_GT(id, last);
      last = id;
    }
  }
  EXPECT_EQ(last, 40);
}

TEST(AuditLogTest, AWriteErrorIsCountedAndTheLogRecovers) {
  TempDir tmp;
  const std::string dir = tmp.path() + "/audit";
  auto log = AuditLog::Open(AuditLogOptions{dir, "catalogd", 300, 0});
  ASSERT_TRUE(log.ok()) << log.status().ToString();
  (*log)->Record(Record(1, "CREATE_TABLE"));
  fs::remove_all(dir);                                 // e.g. an operator's mistake
  for (int i = 2; i <= 4; ++i) (*log)->Record(Record(i, "CREATE_TABLE"));  // rotation fails
  EXPECT_GT((*log)->write_errors(), 0);
  fs::create_directories(dir);
  (*log)->Record(Record(5, "CREATE_TABLE"));
  const std::vector<Json> lines = AuditLines(dir);
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines.back()["id"], 5);
}

TEST(AuditLogTest, OpenFailsClearlyWhenTheDirectoryCannotBeMade) {
  TempDir tmp;
  std::ofstream(tmp.path() + "/file") << "x";
  auto log = AuditLog::Open(AuditLogOptions{tmp.path() + "/file/audit", "catalogd", 1 << 20, 5});
  ASSERT_FALSE(log.ok());
  EXPECT_NE(log.status().message().find("audit log"), std::string::npos);
}

// ---- end to end: an mTLS catalogd ----

class AuditClusterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(TestCerts::Get().ok()) << "openssl failed";
    auto tls = TlsContext::Create(TestCerts::Get().Options("ca.pem", "catalogd", /*mutual=*/true));
    ASSERT_TRUE(tls.ok()) << tls.status().ToString();
    client_tls_ = TestCerts::Get().Context("ca.pem", "client");
    ASSERT_NE(client_tls_, nullptr);

    catalog::CatalogServerOptions o;
    o.bind_host = "127.0.0.1";
    o.port = 0;
    o.data_dir = tmp_.path() + "/catalogd";
    o.statestore_port = -1;
    o.hms_port = 0;
    o.metastore_service_port = 0;
    o.hms_event_polling_interval_ms = 50;
    o.security.tls = *tls;
    o.audit.dir = audit_dir();
    server_ = std::make_unique<catalog::CatalogServer>(o);
    ASSERT_TRUE(server_->Start().ok());
  }

  std::string audit_dir() const { return tmp_.path() + "/audit"; }

  ThriftClientOptions ClientOptions(const std::string& service = "") const {
    ThriftClientOptions o;
    o.tls = client_tls_;
    o.service_name = service;
    return o;
  }

  impala::TDdlExecResponse Ddl(const impala::TDdlExecRequest& req) {
    ThriftClient<impala::CatalogServiceClient> client("127.0.0.1", server_->port(),
                                                      ClientOptions());
    impala::TDdlExecResponse resp;
    Status s = client.Call("ExecDdl", [&](auto& c) { c.ExecDdl(resp, req); });
    EXPECT_TRUE(s.ok()) << s.ToString();
    return resp;
  }

  static impala::TDdlExecRequest CreateDatabase(const std::string& db) {
    impala::TDdlExecRequest r;
    r.protocol_version = impala::CatalogServiceVersion::V2;
    r.ddl_type = impala::TDdlType::CREATE_DATABASE;
    r.__isset.create_db_params = true;
    r.create_db_params.db = db;
    return r;
  }

  static impala::TDdlExecRequest CreatePartitionedTable(const std::string& db,
                                                        const std::string& table) {
    impala::TDdlExecRequest r;
    r.protocol_version = impala::CatalogServiceVersion::V2;
    r.ddl_type = impala::TDdlType::CREATE_TABLE;
    r.__isset.create_table_params = true;
    auto& p = r.create_table_params;
    p.table_name.db_name = db;
    p.table_name.table_name = table;
    impala::TColumn a, k;
    a.columnName = "a";
    a.columnType = *ParseHiveType("int");
    k.columnName = "k";
    k.columnType = *ParseHiveType("int");
    p.columns = {a};
    p.__set_partition_columns({k});
    p.file_format = impala::THdfsFileFormat::TEXT;
    p.owner = "alice";
    return r;
  }

  // The audit line of the first operation of `kind` (null when none).
  Json Find(const std::vector<Json>& lines, const std::string& kind) {
    for (const Json& j : lines) {
      if (j["operation"] == kind) return j;
    }
    return nullptr;
  }

  TempDir tmp_;
  std::shared_ptr<const TlsContext> client_tls_;
  std::unique_ptr<catalog::CatalogServer> server_;
};

TEST_F(AuditClusterTest, EveryWriteKindIsRecordedWithPeerAndIdentity) {
  // DDL (ok, then failing), ResetMetadata, UpdateCatalog.
  EXPECT_EQ(Ddl(CreateDatabase("audited")).result.status.status_code, impala::TErrorCode::OK);
  EXPECT_NE(Ddl(CreateDatabase("audited")).result.status.status_code, impala::TErrorCode::OK);
  EXPECT_EQ(Ddl(CreatePartitionedTable("audited", "t")).result.status.status_code,
            impala::TErrorCode::OK);
  {
    ThriftClient<impala::CatalogServiceClient> client("127.0.0.1", server_->port(),
                                                      ClientOptions());
    impala::TResetMetadataRequest reset;
    reset.protocol_version = impala::CatalogServiceVersion::V2;
    reset.is_refresh = true;
    reset.__set_table_name(impala::TTableName());
    reset.table_name.db_name = "audited";
    reset.table_name.table_name = "t";
    impala::TResetMetadataResponse rr;
    ASSERT_TRUE(client.Call("ResetMetadata", [&](auto& c) { c.ResetMetadata(rr, reset); }).ok());
    impala::TUpdateCatalogRequest update;
    update.protocol_version = impala::CatalogServiceVersion::V2;
    update.db_name = "audited";
    update.target_table = "t";
    update.updated_partitions["k=7"] = impala::TUpdatedPartition();
    impala::TUpdateCatalogResponse ur;
    ASSERT_TRUE(client.Call("UpdateCatalog", [&](auto& c) { c.UpdateCatalog(ur, update); }).ok());
  }
  // A metastore-service batch.
  {
    ThriftClient<thrift::PartitionServiceClient> client(
        "127.0.0.1", server_->metastore_service_port(), ClientOptions("PartitionService"));
    thrift::TBatchCreatePartitionsRequest create;
    create.table.db_name = "audited";
    create.table.table_name = "t";
    thrift::TMetastorePartition p;
    p.values = {"1"};
    create.partitions = {p};
    thrift::TBatchCreatePartitionsResponse created;
    ASSERT_TRUE(
        client.Call("Create", [&](auto& c) { c.BatchCreatePartitions(created, create); }).ok());
    EXPECT_EQ(created.status.code, thrift::TMetastoreServiceErrorCode::OK)
        << created.status.message;
  }
  // An HMS write.
  {
    ThriftClient<hive::ThriftHiveMetastoreClient> client("127.0.0.1", server_->hms_port(),
                                                         ClientOptions());
    hive::Database db;
    db.name = "from_hive";
    ASSERT_TRUE(client.Call("create_database", [&](auto& c) { c.create_database(db); }).ok());
  }

  const std::vector<Json> lines = AuditLines(audit_dir());
  for (const char* kind :
       {"CREATE_DATABASE", "CREATE_TABLE", "REFRESH", "UPDATE_CATALOG",
        "ALTER_TABLE"}) {
    const Json j = Find(lines, kind);
    ASSERT_FALSE(j.is_null()) << "no audit line for " << kind;
    EXPECT_EQ(j["identity"], "CN=ics-client") << kind;
    EXPECT_EQ(j["tls"], true) << kind;
    EXPECT_EQ(std::string(j["peer"]).rfind("127.0.0.1:", 0), 0u) << j["peer"];
    EXPECT_EQ(j["outcome"], "OK") << kind << ": " << j["message"];
  }
  EXPECT_GT(Find(lines, "CREATE_DATABASE")["catalog_version"].get<int64_t>(), 0);
  // The PartitionService batch is the command Impala's ADD PARTITION is.
  const Json batch = Find(lines, "ALTER_TABLE");
  EXPECT_GT(batch["catalog_version"].get<int64_t>(), 0);
  EXPECT_EQ(batch["target"], "audited.t (ADD_PARTITION)");
  EXPECT_EQ(std::string(batch["detail"]).rfind("[PartitionService]", 0), 0u) << batch["detail"];
  // The HMS write is the same command as Impala's CREATE DATABASE, recorded
  // by the command core alike; only the detail names the door.
  Json from_hive;
  for (const Json& j : lines) {
    if (j["operation"] == "CREATE_DATABASE" && j["target"] == "from_hive") from_hive = j;
  }
  ASSERT_FALSE(from_hive.is_null()) << "no audit line for the HMS create_database";
  EXPECT_EQ(from_hive["outcome"], "OK") << from_hive["message"];
  EXPECT_EQ(from_hive["identity"], "CN=ics-client");
  EXPECT_EQ(from_hive["message"], "Database has been created.");
  EXPECT_GT(from_hive["catalog_version"].get<int64_t>(), 0);
  EXPECT_EQ(std::string(from_hive["detail"]).rfind("[HMS]", 0), 0u) << from_hive["detail"];
  EXPECT_EQ(std::string(Find(lines, "CREATE_DATABASE")["detail"]).rfind("[CatalogService]", 0),
            0u);
  int failed = 0;
  for (const Json& j : lines) {
    if (j["operation"] == "CREATE_DATABASE" && j["outcome"] == "ALREADY_EXISTS") ++failed;
  }
  EXPECT_EQ(failed, 1);

  // /operations shows the identity too.
  const auto page = OperationLogJson(server_->operations()->Get(), 100, 200);
  bool seen = false;
  for (const auto& row : page["recent_operations"]) seen |= row["identity"] == "CN=ics-client";
  EXPECT_TRUE(seen);
  EXPECT_NE(server_->metrics()->ToPrometheusText().find("catalogd_audit_log_write_errors_total 0"),
            std::string::npos);
}

}  // namespace
}  // namespace ics
