// Fixture and request builders for the DDL executor tests.
//
// DdlTest wires a real stack in a temp directory: a metastore (see
// DdlTestBackend), the local filesystem (wrapped by TestFileSystem for fault
// injection and pausing), a TableLoader, a Catalog, a TableLoadManager and a
// DdlExecutor.
//
// The same test cases run on two metastore backends: ddl_test links
// ddl_backend_sqlite.cc (the embedded SQLite file) and ddl_remote_test links
// ddl_backend_remote.cc (the remote Hive Metastore backend, talking to an
// in-process HMS endpoint that serves its own SQLite file).
//
// Thread-safety: the fixture is used by one test thread; TestFileSystem is
// thread-safe (the concurrency tests call it from several threads).
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "catalogd/catalog/catalog.h"
#include "catalogd/core/catalog_context.h"
#include "catalogd/ddl/ddl_executor.h"
#include "catalogd/loader/file_system.h"
#include "catalogd/loader/table_load_manager.h"
#include "catalogd/loader/table_loader.h"
#include "catalogd/metastore/metastore.h"
#include "catalogd/ops/command_core.h"
#include "catalogd/service/catalog_service_handler.h"
#include "catalogd/service/impala_caller.h"
#include "catalogd/service/impala_commands.h"
#include "catalogd/service/outcome_objects.h"
#include "common/types/column_type.h"
#include "tests/util/temp_dir.h"

namespace ics::catalog::testing {

// The wire objects of an outcome, as the CatalogService reply carries them
// for a full-replica caller.
inline std::vector<impala::TCatalogObject> Updated(const DdlOutcome& o) {
  return RenderOutcome(o, /*minimal=*/false).updated;
}
inline std::vector<impala::TCatalogObject> Removed(const DdlOutcome& o) {
  return RenderOutcome(o, /*minimal=*/false).removed;
}

// The metastore of one test and whatever serves it; destroyed after the
// stack that uses it.
class DdlTestBackend {
 public:
  virtual ~DdlTestBackend() = default;
  virtual Metastore* metastore() = 0;
  // Another handle on the same store, as a second process would open it
  // (the external writer of the events tests). NOT_IMPLEMENTED by default.
  virtual Result<std::unique_ptr<Metastore>> OpenAnother() {
    return Status::NotImplemented("this test backend has no second handle");
  }
  // Runs statements on the store's SQL database directly, as a writer that
  // bypasses the metastore might. NOT_IMPLEMENTED by default.
  [[nodiscard]] virtual Status RawSql(const std::string& sql) {
    return Status::NotImplemented("this test backend has no SQL database");
  }
};

// Opens the backend this test binary was linked with, keeping its files
// under `dir` (the test's temp dir).
Result<std::unique_ptr<DdlTestBackend>> OpenDdlTestBackend(const std::string& dir);

// LocalFileSystem plus test hooks:
//  - FailCreate(substr): CreateDirectories of a path containing substr fails.
//  - FailList(substr): ListFiles of a path containing substr fails.
//  - FailRename(): every Rename fails.
//  - PauseCreate(substr): CreateDirectories of a matching path blocks until
//    Release(); WaitPaused() waits until some call is blocked there.
class TestFileSystem final : public FileSystem {
 public:
  Result<std::vector<FileStatus>> ListFiles(const std::string& dir) override {
    {
      std::lock_guard<std::mutex> l(mu_);
      if (!fail_list_.empty() && dir.find(fail_list_) != std::string::npos) {
        return Status::IoError("injected failure listing " + dir);
      }
    }
    return local_.ListFiles(dir);
  }
  Result<std::vector<std::string>> ListSubdirectories(const std::string& dir) override {
    return local_.ListSubdirectories(dir);
  }
  Status CreateDirectories(const std::string& path) override {
    {
      std::unique_lock<std::mutex> l(mu_);
      if (!fail_create_.empty() && path.find(fail_create_) != std::string::npos) {
        return Status::IoError("injected failure creating " + path);
      }
      if (!pause_create_.empty() && path.find(pause_create_) != std::string::npos) {
        ++paused_;
        cv_.notify_all();
        cv_.wait(l, [&] { return released_; });
      }
    }
    return local_.CreateDirectories(path);
  }
  Status RemoveAll(const std::string& path) override { return local_.RemoveAll(path); }
  Status Rename(const std::string& from, const std::string& to) override {
    {
      std::lock_guard<std::mutex> l(mu_);
      if (fail_rename_) return Status::IoError("injected failure renaming " + from);
    }
    return local_.Rename(from, to);
  }
  Result<bool> Exists(const std::string& path) override { return local_.Exists(path); }

  void FailCreate(std::string substr) {
    std::lock_guard<std::mutex> l(mu_);
    fail_create_ = std::move(substr);
  }
  void FailList(std::string substr) {
    std::lock_guard<std::mutex> l(mu_);
    fail_list_ = std::move(substr);
  }
  void FailRename(bool fail) {
    std::lock_guard<std::mutex> l(mu_);
    fail_rename_ = fail;
  }
  void PauseCreate(std::string substr) {
    std::lock_guard<std::mutex> l(mu_);
    pause_create_ = std::move(substr);
    released_ = false;
  }
  bool WaitPaused(std::chrono::milliseconds timeout) {
    std::unique_lock<std::mutex> l(mu_);
    return cv_.wait_for(l, timeout, [&] { return paused_ > 0; });
  }
  void Release() {
    std::lock_guard<std::mutex> l(mu_);
    released_ = true;
    pause_create_.clear();
    cv_.notify_all();
  }

 private:
  LocalFileSystem local_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::string fail_create_;
  std::string fail_list_;
  bool fail_rename_ = false;
  std::string pause_create_;
  int paused_ = 0;
  bool released_ = true;
};

// ---- request builders ----

inline impala::TColumn Col(const std::string& name, const std::string& type,
                           const std::string& comment = "") {
  impala::TColumn c;
  c.columnName = name;
  Result<impala::TColumnType> t = ParseHiveType(type);
  EXPECT_TRUE(t.ok()) << type;
  if (t.ok()) c.columnType = *t;
  if (!comment.empty()) c.__set_comment(comment);
  return c;
}

inline impala::TTableName Name(const std::string& db, const std::string& table) {
  impala::TTableName n;
  n.db_name = db;
  n.table_name = table;
  return n;
}

inline impala::TPartitionKeyValue Kv(const std::string& k, const std::string& v) {
  impala::TPartitionKeyValue kv;
  kv.name = k;
  kv.value = v;
  return kv;
}

using Spec = std::vector<impala::TPartitionKeyValue>;

inline impala::TDdlExecRequest Req(impala::TDdlType::type type) {
  impala::TDdlExecRequest r;
  r.protocol_version = impala::CatalogServiceVersion::V2;
  r.ddl_type = type;
  return r;
}

inline impala::TDdlExecRequest AlterReq(const std::string& db, const std::string& table,
                                        impala::TAlterTableType::type type) {
  impala::TDdlExecRequest r = Req(impala::TDdlType::ALTER_TABLE);
  r.__isset.alter_table_params = true;
  r.alter_table_params.alter_type = type;
  r.alter_table_params.table_name = Name(db, table);
  return r;
}

struct TableOptions {
  std::vector<impala::TColumn> columns = {Col("id", "int"), Col("name", "string")};
  std::vector<impala::TColumn> partition_columns;
  bool external = false;
  bool if_not_exists = false;
  std::string location;
  impala::THdfsFileFormat::type format = impala::THdfsFileFormat::TEXT;
  std::map<std::string, std::string> properties;
};

inline std::string ReadAll(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

class DdlTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = tmp_.path();
    ASSERT_FALSE(root_.empty());
    warehouse_ = root_ + "/warehouse";
    auto backend = OpenDdlTestBackend(root_);
    ASSERT_TRUE(backend.ok()) << backend.status().ToString();
    backend_ = std::move(backend).value();
    metastore_ = backend_->metastore();
    catalog_ = std::make_unique<Catalog>();
    LoaderOptions lo;
    lo.num_threads = 2;
    loader_ = std::make_unique<TableLoader>(metastore_, &fs_, lo,
                                            catalog_->partition_id_allocator());
    loads_ = std::make_unique<TableLoadManager>(catalog_.get(), loader_.get(), 0);
    ctx_.catalog = catalog_.get();
    ctx_.metastore = metastore_;
    ctx_.fs = &fs_;
    ctx_.loader = loader_.get();
    ctx_.loads = loads_.get();
    ctx_.warehouse_dir = warehouse_;
    ddl_ = std::make_unique<DdlExecutor>(&ctx_);
    core_ = std::make_unique<ops::CommandCore>(&ctx_, ddl_.get());
  }

  void TearDown() override {
    fs_.Release();
    if (loads_) loads_->Shutdown();
    core_.reset();
    ddl_.reset();
    loads_.reset();
    loader_.reset();
    catalog_.reset();
    metastore_ = nullptr;
    backend_.reset();
  }

  // As Impala's door runs it: through the command core, with the caller
  // (and request id) of the request's header.
  Result<DdlOutcome> Exec(const impala::TDdlExecRequest& r) {
    return ExecImpalaDdl(core_.get(), ImpalaCaller(r), r);
  }

  Result<DdlOutcome> CreateDb(const std::string& db, bool if_not_exists = false,
                              const std::string& location = "") {
    impala::TDdlExecRequest r = Req(impala::TDdlType::CREATE_DATABASE);
    r.__isset.create_db_params = true;
    r.create_db_params.db = db;
    r.create_db_params.owner = "alice";
    if (if_not_exists) r.create_db_params.__set_if_not_exists(true);
    if (!location.empty()) r.create_db_params.__set_location(location);
    return Exec(r);
  }

  impala::TDdlExecRequest CreateTableReq(const std::string& db, const std::string& table,
                                         const TableOptions& o = {}) {
    impala::TDdlExecRequest r = Req(impala::TDdlType::CREATE_TABLE);
    r.__isset.create_table_params = true;
    auto& p = r.create_table_params;
    p.table_name = Name(db, table);
    p.columns = o.columns;
    if (!o.partition_columns.empty()) p.__set_partition_columns(o.partition_columns);
    p.file_format = o.format;
    p.is_external = o.external;
    p.if_not_exists = o.if_not_exists;
    p.owner = "alice";
    if (!o.location.empty()) p.__set_location(o.location);
    if (!o.properties.empty()) p.__set_table_properties(o.properties);
    return r;
  }

  Result<DdlOutcome> CreateTable(const std::string& db, const std::string& table,
                                 const TableOptions& o = {}) {
    return Exec(CreateTableReq(db, table, o));
  }

  // db.t partitioned by (year int, month string).
  void MakePartitionedTable(const std::string& db, const std::string& table, bool external = false,
                            const std::string& location = "") {
    TableOptions o;
    o.partition_columns = {Col("year", "int"), Col("month", "string")};
    o.external = external;
    o.location = location;
    auto r = CreateTable(db, table, o);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
  }

  Result<DdlOutcome> AddPartitions(const std::string& db, const std::string& table,
                                   const std::vector<Spec>& specs, bool if_not_exists = false,
                                   const std::vector<std::string>& locations = {}) {
    impala::TDdlExecRequest r = AlterReq(db, table, impala::TAlterTableType::ADD_PARTITION);
    auto& p = r.alter_table_params;
    p.__isset.add_partition_params = true;
    p.add_partition_params.if_not_exists = if_not_exists;
    for (size_t i = 0; i < specs.size(); ++i) {
      impala::TPartitionDef def;
      def.partition_spec = specs[i];
      if (i < locations.size() && !locations[i].empty()) def.__set_location(locations[i]);
      p.add_partition_params.partitions.push_back(def);
    }
    return Exec(r);
  }

  impala::TDdlExecRequest CreateFnReq(const std::string& db, const std::string& name,
                                      const std::vector<std::string>& arg_types,
                                      bool if_not_exists = false) {
    impala::TDdlExecRequest r = Req(impala::TDdlType::CREATE_FUNCTION);
    r.__isset.create_fn_params = true;
    impala::TFunction& fn = r.create_fn_params.fn;
    fn.name.__set_db_name(db);
    fn.name.function_name = name;
    fn.__set_binary_type(impala::TFunctionBinaryType::NATIVE);
    std::vector<impala::TColumnType> args;
    for (const std::string& a : arg_types) args.push_back(*ParseHiveType(a));
    fn.__set_arg_types(args);
    fn.__set_ret_type(*ParseHiveType("int"));
    fn.__set_has_var_args(false);
    impala::TScalarFunction sf;
    sf.symbol = "Fn";
    fn.__set_scalar_fn(sf);
    fn.__set_hdfs_location("/udfs/lib.so");
    if (if_not_exists) r.create_fn_params.__set_if_not_exists(true);
    return r;
  }

  impala::TDdlExecRequest DropTableReq(const std::string& db, const std::string& table,
                                       bool if_exists = false, bool view = false) {
    impala::TDdlExecRequest r =
        Req(view ? impala::TDdlType::DROP_VIEW : impala::TDdlType::DROP_TABLE);
    r.__isset.drop_table_or_view_params = true;
    r.drop_table_or_view_params.table_name = Name(db, table);
    r.drop_table_or_view_params.if_exists = if_exists;
    r.drop_table_or_view_params.purge = false;
    return r;
  }

  TablePtr Loaded(const std::string& db, const std::string& table) {
    auto r = loads_->GetLoaded(db, table);
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    return r.ok() ? *r : nullptr;
  }

  std::string TableDir(const std::string& db, const std::string& table) {
    return warehouse_ + "/" + db + ".db/" + table;
  }

  static void WriteFile(const std::string& path, const std::string& content = "data\n") {
    std::filesystem::create_directories(std::filesystem::path(path).parent_path());
    std::ofstream out(path);
    out << content;
  }

  static bool Exists(const std::string& path) { return std::filesystem::exists(path); }

  ::ics::testing::TempDir tmp_{"ics_ddl_test"};
  std::string root_;
  std::string warehouse_;
  TestFileSystem fs_;
  std::unique_ptr<DdlTestBackend> backend_;
  Metastore* metastore_ = nullptr;  // backend_->metastore()
  std::unique_ptr<Catalog> catalog_;
  std::unique_ptr<TableLoader> loader_;
  std::unique_ptr<TableLoadManager> loads_;
  // An UpdateCatalog request as Impala sends it, translated as the
  // CatalogService door translates it, on this fixture's executor.
  Result<DdlOutcome> UpdateCatalog(const impala::TUpdateCatalogRequest& req) {
    return ddl_->Insert(InsertCommandOf(req));
  }

  // A REFRESH / INVALIDATE METADATA request as Impala sends it, translated
  // as the CatalogService door translates it, on this fixture's executor.
  Result<DdlOutcome> ResetMetadata(const impala::TResetMetadataRequest& req) {
    return ddl_->Reset(ResetCommandOf(req));
  }

  // The CatalogService adapter over this fixture's executor (it checks the
  // protocol version and renders replies).
  std::shared_ptr<impala::CatalogServiceIf> Handler() {
    return MakeCatalogServiceHandler(HandlerDeps{&ctx_, core_.get(), nullptr, 1000});
  }

  CatalogContext ctx_;
  std::unique_ptr<DdlExecutor> ddl_;
  std::unique_ptr<ops::CommandCore> core_;
};

// Asserts that `expr` (a Result<DdlOutcome>) succeeded; `var` names its value.
#define ASSERT_DDL_OK(var, expr)                                      \
  auto var##_result = (expr);                                         \
  ASSERT_TRUE(var##_result.ok()) << var##_result.status().ToString(); \
  const DdlOutcome& var = *var##_result;                              \
  (void)var

// Expects `expr` to fail with `expected_code` and to leave the catalog
// version as it was.
#define EXPECT_DDL_FAILS(expr, expected_code)                                             \
  do {                                                                                    \
    const int64_t _v_before = catalog_->version();                                        \
    auto _r = (expr);                                                                     \
    EXPECT_FALSE(_r.ok()) << "expected " #expected_code;                                  \
    if (!_r.ok()) EXPECT_EQ(_r.status().code(), expected_code) << _r.status().ToString(); \
    EXPECT_EQ(catalog_->version(), _v_before) << "a failed DDL changed the catalog";      \
  } while (false)

}  // namespace ics::catalog::testing
