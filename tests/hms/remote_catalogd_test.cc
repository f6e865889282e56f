// catalogd on the remote metastore backend, end to end with real processes:
// catalogd "hms" serves the HMS endpoint (--hms_port=0, its own SQLite
// file); catalogd "client" runs with --metastore=thrift://127.0.0.1:<that
// port> and no metastore of its own. DDL sent to the client's
// CatalogService lands in the HMS catalogd's store; a restarted client
// reloads everything from the remote store, including a change made
// directly through the HMS endpoint; with the HMS catalogd down the client
// answers DDL with a clear error and serves again once it is back. And two
// catalogd processes sharing one PostgreSQL metastore, writing at once, each
// following the other's changes through the notification log.
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include <gtest/gtest.h>

#include "CatalogService.h"
#include "catalogd/metastore/hms_remote_metastore.h"
#include "catalogd/metastore/pg_metastore.h"
#include "common/rpc/status_convert.h"
#include "common/rpc/thrift_client.h"
#include "common/types/column_type.h"
#include "tests/external/external_process.h"
#include "tests/external/metastore_backends.h"
#include "tests/metastore/metastore_test_util.h"
#include "tests/util/eventually.h"
#include "tests/util/temp_dir.h"

namespace ics::catalog {
namespace {

using namespace ::ics::catalog::testing;  // NOLINT(google-build-using-namespace)
using external::ExternalProcess;
using external::Millis;
using CatalogClient = ThriftClient<impala::CatalogServiceClient>;

// "26000 23020 hms=9083 x=1" -> the first token (catalog port) or a named one.
int PortFrom(const std::string& line, const std::string& name) {
  std::istringstream in(line);
  std::string tok;
  bool first = true;
  while (in >> tok) {
    if (name.empty() && first) return std::stoi(tok);
    first = false;
    if (tok.rfind(name + "=", 0) == 0 && !name.empty()) return std::stoi(tok.substr(name.size() + 1));
  }
  return -1;
}

impala::TDdlExecRequest Req(impala::TDdlType::type type) {
  impala::TDdlExecRequest r;
  r.protocol_version = impala::CatalogServiceVersion::V2;
  r.ddl_type = type;
  r.query_options.sync_ddl = false;
  return r;
}

impala::TColumn Col(const std::string& name, const std::string& type) {
  impala::TColumn c;
  c.columnName = name;
  c.columnType = ParseHiveType(type).value();
  return c;
}

class RemoteCatalogdTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = tmp_.path();
    ASSERT_FALSE(dir_.empty()) << tmp_.error();
  }
  void TearDown() override {
    client_.reset();
    hms_.reset();
    if (HasFailure()) {
      tmp_.Keep();
      std::cerr << "logs kept in " << dir_ << "\n";
    }
  }

  // Starts catalogd `name` with `flags` and returns its port-file line.
  std::string Start(std::unique_ptr<ExternalProcess>* proc, const std::string& name,
                    std::vector<std::string> flags) {
    const std::string data = dir_ + "/" + name;
    std::filesystem::create_directories(data);
    const std::string port_file = data + "/ports";
    std::filesystem::remove(port_file);
    *proc = std::make_unique<ExternalProcess>(name, data + "/log.txt", data);
    std::vector<std::string> argv = {ICS_CATALOGD_BIN,
                                     "--catalog_service_port=0",
                                     "--state_store_port=-1",
                                     "--metastore_service_port=-1",
                                     "--data_dir=" + data,
                                     // One warehouse for both, as in a real deployment: each
                                     // catalogd changes data only under its data roots.
                                     "--warehouse_dir=" + dir_ + "/warehouse",
                                     "--port_file=" + port_file,
                                     "--logtostderr"};
    argv.insert(argv.end(), flags.begin(), flags.end());
    Status s = (*proc)->Start(argv);
    EXPECT_TRUE(s.ok()) << s.ToString();
    const bool up = external::WaitFor(
        [&] { return !external::ReadLines(port_file).empty() || !(*proc)->IsRunning(); },
        Millis(30000));
    auto lines = external::ReadLines(port_file);
    EXPECT_TRUE(up && !lines.empty()) << name << " did not start ("
                                      << (*proc)->ExitDescription() << "):\n"
                                      << external::TailOfFile(data + "/log.txt", 30);
    return lines.empty() ? "" : lines[0];
  }

  std::string StartHms(int hms_port = 0) {
    std::string line = Start(&hms_, "hms", {"--hms_port=" + std::to_string(hms_port)});
    return line;
  }
  std::string StartClient(int hms_port) {
    return Start(&client_, "client",
                 {"--hms_port=-1",
                  "--metastore=thrift://127.0.0.1:" + std::to_string(hms_port) +
                      "?retries=2&retry_backoff_ms=20&rpc_timeout_ms=20000"});
  }

  // Runs a DDL on the client catalogd; the statement's status.
  Status Ddl(int port, const impala::TDdlExecRequest& req) {
    CatalogClient c("127.0.0.1", port);
    impala::TDdlExecResponse resp;
    Status s = c.Call("ExecDdl", [&](impala::CatalogServiceClient& cl) { cl.ExecDdl(resp, req); });
    if (!s.ok()) return s;
    return FromTStatus(resp.result.status);
  }

  Status CreateDb(int port, const std::string& db) {
    impala::TDdlExecRequest r = Req(impala::TDdlType::CREATE_DATABASE);
    r.__isset.create_db_params = true;
    r.create_db_params.db = db;
    r.create_db_params.owner = "alice";
    return Ddl(port, r);
  }

  Status CreateTable(int port, const std::string& db, const std::string& table) {
    impala::TDdlExecRequest r = Req(impala::TDdlType::CREATE_TABLE);
    r.__isset.create_table_params = true;
    auto& p = r.create_table_params;
    p.table_name.db_name = db;
    p.table_name.table_name = table;
    p.columns = {Col("id", "int"), Col("name", "string")};
    p.__set_partition_columns({Col("day", "string")});
    p.file_format = impala::THdfsFileFormat::TEXT;
    p.owner = "alice";
    return Ddl(port, r);
  }

  Status AddPartition(int port, const std::string& db, const std::string& table,
                      const std::string& day) {
    impala::TDdlExecRequest r = Req(impala::TDdlType::ALTER_TABLE);
    r.__isset.alter_table_params = true;
    auto& a = r.alter_table_params;
    a.alter_type = impala::TAlterTableType::ADD_PARTITION;
    a.table_name.db_name = db;
    a.table_name.table_name = table;
    a.__isset.add_partition_params = true;
    impala::TPartitionDef def;
    impala::TPartitionKeyValue kv;
    kv.name = "day";
    kv.value = day;
    def.partition_spec = {kv};
    a.add_partition_params.partitions = {def};
    return Ddl(port, r);
  }

  // Whether the client catalogd's catalog has table db.t.
  Status GetTable(int port, const std::string& db, const std::string& table) {
    CatalogClient c("127.0.0.1", port);
    impala::TGetCatalogObjectRequest req;
    req.object_desc.type = impala::TCatalogObjectType::TABLE;
    req.object_desc.__isset.table = true;
    req.object_desc.table.db_name = db;
    req.object_desc.table.tbl_name = table;
    impala::TGetCatalogObjectResponse resp;
    Status s = c.Call("GetCatalogObject",
                      [&](impala::CatalogServiceClient& cl) { cl.GetCatalogObject(resp, req); });
    if (!s.ok()) return s;
    return FromTStatus(resp.status);
  }

  std::unique_ptr<HmsRemoteMetastore> HmsClient(int hms_port) {
    RemoteMetastoreOptions o;
    o.host = "127.0.0.1";
    o.port = hms_port;
    auto ms = OpenRemoteMetastore(o);
    EXPECT_TRUE(ms.ok()) << ms.status().ToString();
    return ms.ok() ? std::move(ms).value() : nullptr;
  }

  ::ics::testing::TempDir tmp_{"ics_remote_catalogd"};
  std::string dir_;
  std::unique_ptr<ExternalProcess> hms_;
  std::unique_ptr<ExternalProcess> client_;
};

TEST_F(RemoteCatalogdTest, CatalogdRunsOnAnotherCatalogdsHmsEndpoint) {
  const int hms_port = PortFrom(StartHms(), "hms");
  ASSERT_GT(hms_port, 0) << "no hms=<port> in the port file";
  const int port = PortFrom(StartClient(hms_port), "");
  ASSERT_GT(port, 0);

  ASSERT_TRUE(CreateDb(port, "sales").ok());
  Status s = CreateTable(port, "sales", "orders");
  ASSERT_TRUE(s.ok()) << s.ToString();
  s = AddPartition(port, "sales", "orders", "2024-01-01");
  ASSERT_TRUE(s.ok()) << s.ToString();
  s = CreateDb(port, "sales");
  EXPECT_EQ(s.code(), ErrorCode::kGeneral) << "a failed DDL travels as GENERAL: " << s.ToString();
  EXPECT_NE(s.message().find("sales"), std::string::npos) << s.ToString();

  // The DDL landed in the HMS catalogd's store.
  auto hms = HmsClient(hms_port);
  ASSERT_NE(hms, nullptr);
  ASSERT_OK(hms->GetTable("sales", "orders"));
  auto parts = hms->GetPartitions("sales", "orders");
  ASSERT_OK(parts);
  ASSERT_EQ(parts->size(), 1u);
  EXPECT_EQ((*parts)[0].values, std::vector<std::string>{"2024-01-01"});

  // A change made directly through the HMS endpoint.
  // (In the shared warehouse: a catalogd creates table directories only
  // under its data roots, and MakeTable's default location is not one.)
  hive::Table returns = MakeTable("sales", "returns");
  returns.sd.location = dir_ + "/warehouse/sales.db/returns";
  ASSERT_OK(hms->Commit(Txn({CreateTableOp(returns)})));

  // A restarted client loads everything from the remote store.
  client_->Kill();
  const int port2 = PortFrom(StartClient(hms_port), "");
  ASSERT_GT(port2, 0);
  s = GetTable(port2, "sales", "orders");
  EXPECT_TRUE(s.ok()) << s.ToString();
  s = GetTable(port2, "sales", "returns");
  EXPECT_TRUE(s.ok()) << s.ToString();

  // The HMS catalogd gone: a clear error, no hang, the client keeps serving.
  hms_->Kill();
  s = CreateDb(port2, "later");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("127.0.0.1:" + std::to_string(hms_port)), std::string::npos)
      << s.ToString();
  EXPECT_TRUE(client_->IsRunning());
  // Back on the same port: DDL works again.
  ASSERT_GT(PortFrom(StartHms(hms_port), "hms"), 0);
  ASSERT_EVENTUALLY(Millis(20000), { ASSERT_TRUE(CreateDb(port2, "later").ok()); });
  ASSERT_OK(hms->GetDatabase("later"));
}

TEST_F(RemoteCatalogdTest, InvalidMetastoreUriIsAClearStartupError) {
  std::unique_ptr<ExternalProcess> proc;
  const std::string data = dir_ + "/bad";
  std::filesystem::create_directories(data);
  proc = std::make_unique<ExternalProcess>("bad", data + "/log.txt", data);
  ASSERT_TRUE(proc->Start({ICS_CATALOGD_BIN, "--catalog_service_port=0", "--state_store_port=-1",
                           "--hms_port=-1", "--metastore_service_port=-1", "--data_dir=" + data,
                           "--logtostderr", "--metastore=thrift://127.0.0.1:0"})
                  .ok());
  ASSERT_TRUE(external::WaitFor([&] { return !proc->IsRunning(); }, Millis(30000)));
  EXPECT_EQ(proc->ExitDescription(), "exit status 1");
  EXPECT_NE(external::TailOfFile(data + "/log.txt", 20).find("invalid metastore URI"),
            std::string::npos)
      << external::TailOfFile(data + "/log.txt", 20);
}

// Two catalogd processes on one PostgreSQL database, DDL through both at
// once: every acknowledged DDL is in the store, and each catalogd's event
// processor brings the other's tables into its own catalog.
TEST_F(RemoteCatalogdTest, TwoCatalogdsShareOnePostgresMetastore) {
  auto uri = external::FreshPostgresDatabase();
  ASSERT_OK(uri);
  const std::vector<std::string> common = {"--hms_port=-1", "--metastore=" + *uri,
                                           "--hms_event_polling_interval_ms=100"};
  const int a = PortFrom(Start(&hms_, "a", common), "");
  const int b = PortFrom(Start(&client_, "b", common), "");
  ASSERT_GT(a, 0);
  ASSERT_GT(b, 0);
  ASSERT_OK(CreateDb(a, "shared"));
  constexpr int kPerWriter = 15;
  std::atomic<int> failures{0};
  auto writer = [&](int port, const std::string& prefix) {
    for (int i = 0; i < kPerWriter; ++i) {
      Status s;
      // b may not know the database yet: its event processor brings it in.
      for (int attempt = 0; attempt < 100; ++attempt) {
        s = CreateTable(port, "shared", prefix + std::to_string(i));
        if (s.ok() || s.message().find("does not exist") == std::string::npos) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
      }
      if (!s.ok()) {
        ++failures;
        ADD_FAILURE() << prefix << i << ": " << s.ToString();
      }
    }
  };
  std::thread ta(writer, a, "from_a_");
  std::thread tb(writer, b, "from_b_");
  ta.join();
  tb.join();
  ASSERT_EQ(failures, 0);
  auto store = OpenPostgresMetastore(*uri);
  ASSERT_OK(store);
  EXPECT_EQ((*store)->GetAllTables("shared")->size(), 2u * kPerWriter);
  for (const char* prefix : {"from_a_", "from_b_"}) {
    for (int i = 0; i < kPerWriter; ++i) {
      const std::string t = prefix + std::to_string(i);
      for (int port : {a, b}) {
        EXPECT_TRUE(::ics::testing::Eventually([&] { return GetTable(port, "shared", t).ok(); }))
            << "catalogd on port " << port << " never learned shared." << t;
      }
    }
  }
}

}  // namespace
}  // namespace ics::catalog
