#include "tests/fuzz/fuzz_stacks.h"

#include <stdlib.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "catalogd/catalog/catalog_objects.h"
#include "catalogd/core/catalog_names.h"
#include "catalogd/service/impala_caller.h"
#include "catalogd/service/impala_commands.h"
#include "common/codec/partition_stats.h"
#include "common/hive/partition_name.h"
#include "common/types/column_type.h"

namespace ics::fuzz {

namespace {

[[noreturn]] void Die(const std::string& what) {
  std::fprintf(stderr, "fuzz stack: %s\n", what.c_str());
  std::abort();
}

void CheckOk(const Status& s, const std::string& what) {
  if (!s.ok()) Die(what + ": " + s.ToString());
}

std::string ScratchBase() {
  std::error_code ec;
  if (std::filesystem::is_directory("/dev/shm", ec) && ::access("/dev/shm", W_OK) == 0) {
    return "/dev/shm";
  }
  const char* tmp = std::getenv("TMPDIR");
  return tmp != nullptr && *tmp != '\0' ? tmp : "/tmp";
}

impala::TPartitionKeyValue Kv(const std::string& k, const std::string& v) {
  impala::TPartitionKeyValue kv;
  kv.name = k;
  kv.value = v;
  return kv;
}

impala::TPartitionStats SeedPartitionStats(int64_t rows) {
  impala::TPartitionStats s;
  s.stats.num_rows = rows;
  s.stats.__set_total_file_bytes(rows * 16);
  impala::TIntermediateColumnStats c;
  c.__set_intermediate_ndv(std::string(64, '\x03'));
  c.__set_is_ndv_encoded(false);
  c.__set_num_nulls(1);
  c.__set_max_width(4);
  c.__set_avg_width(4);
  c.__set_num_rows(rows);
  s.__set_intermediate_col_stats({{"id", c}});
  return s;
}

}  // namespace

std::string MakeScratchDir(const std::string& prefix) {
  std::string tmpl = ScratchBase() + "/ics_fuzz_" + prefix + ".XXXXXX";
  if (::mkdtemp(tmpl.data()) == nullptr) Die("cannot create a scratch directory " + tmpl);
  return tmpl;
}

void RemoveTree(const std::string& dir) {
  std::error_code ec;
  if (!dir.empty()) std::filesystem::remove_all(dir, ec);
}

// ---------------------------------------------------------------- sandbox

SandboxFileSystem::SandboxFileSystem(std::string root)
    : root_(std::filesystem::path(std::move(root)).lexically_normal().string()) {}

bool SandboxFileSystem::Inside(const std::string& path) const {
  if (path.empty() || path[0] != '/') return false;
  const std::string p = std::filesystem::path(path).lexically_normal().string();
  if (p.compare(0, root_.size(), root_) != 0) return false;
  return p.size() == root_.size() || p[root_.size()] == '/';
}

Status SandboxFileSystem::Check(const std::string& path) const {
  if (Inside(path)) return Status::OK();
  return Status::IoError("fuzz sandbox: '" + path + "' is outside " + root_);
}

Result<std::vector<catalog::FileStatus>> SandboxFileSystem::ListFiles(const std::string& dir) {
  ICS_RETURN_IF_ERROR(Check(dir));
  return local_.ListFiles(dir);
}

Result<std::vector<std::string>> SandboxFileSystem::ListSubdirectories(const std::string& dir) {
  ICS_RETURN_IF_ERROR(Check(dir));
  return local_.ListSubdirectories(dir);
}

Status SandboxFileSystem::CreateDirectories(const std::string& path) {
  ICS_RETURN_IF_ERROR(Check(path));
  return local_.CreateDirectories(path);
}

Status SandboxFileSystem::RemoveAll(const std::string& path) {
  ICS_RETURN_IF_ERROR(Check(path));
  return local_.RemoveAll(path);
}

Status SandboxFileSystem::Rename(const std::string& from, const std::string& to) {
  ICS_RETURN_IF_ERROR(Check(from));
  ICS_RETURN_IF_ERROR(Check(to));
  return local_.Rename(from, to);
}

Result<bool> SandboxFileSystem::Exists(const std::string& path) {
  ICS_RETURN_IF_ERROR(Check(path));
  return local_.Exists(path);
}

// ---------------------------------------------------------------- requests

impala::TDdlExecRequest DdlRequest(impala::TDdlType::type type) {
  impala::TDdlExecRequest r;
  r.protocol_version = impala::CatalogServiceVersion::V2;
  r.ddl_type = type;
  return r;
}

impala::TColumn Column(const std::string& name, const std::string& hive_type) {
  impala::TColumn c;
  c.columnName = name;
  Result<impala::TColumnType> t = ParseHiveType(hive_type);
  if (!t.ok()) Die("bad seed type " + hive_type);
  c.columnType = *t;
  return c;
}

impala::TTableName TableName(const std::string& db, const std::string& table) {
  impala::TTableName n;
  n.db_name = db;
  n.table_name = table;
  return n;
}

std::vector<impala::TDdlExecRequest> SeedDdl() {
  using impala::TDdlType;
  std::vector<impala::TDdlExecRequest> out;

  impala::TDdlExecRequest db = DdlRequest(TDdlType::CREATE_DATABASE);
  db.__isset.create_db_params = true;
  db.create_db_params.db = kDb;
  db.create_db_params.owner = "fuzz";
  db.create_db_params.__set_comment("fuzz seed database");
  out.push_back(db);

  impala::TDdlExecRequest sales = DdlRequest(TDdlType::CREATE_TABLE);
  sales.__isset.create_table_params = true;
  auto& sp = sales.create_table_params;
  sp.table_name = TableName(kDb, kPartTable);
  sp.columns = {Column("id", "int"), Column("name", "string"), Column("amount", "double")};
  sp.__set_partition_columns({Column("year", "int"), Column("region", "string")});
  sp.file_format = impala::THdfsFileFormat::TEXT;
  sp.is_external = false;
  sp.if_not_exists = false;
  sp.owner = "fuzz";
  sp.__set_table_properties({{"fuzz.seed", "1"}});
  out.push_back(sales);

  impala::TDdlExecRequest items = DdlRequest(TDdlType::CREATE_TABLE);
  items.__isset.create_table_params = true;
  auto& ip = items.create_table_params;
  ip.table_name = TableName(kDb, kFlatTable);
  ip.columns = {Column("id", "bigint"), Column("label", "string")};
  ip.file_format = impala::THdfsFileFormat::TEXT;
  ip.is_external = false;
  ip.if_not_exists = false;
  ip.owner = "fuzz";
  out.push_back(items);

  impala::TDdlExecRequest parts = DdlRequest(TDdlType::ALTER_TABLE);
  parts.__isset.alter_table_params = true;
  parts.alter_table_params.alter_type = impala::TAlterTableType::ADD_PARTITION;
  parts.alter_table_params.table_name = TableName(kDb, kPartTable);
  parts.alter_table_params.__isset.add_partition_params = true;
  parts.alter_table_params.add_partition_params.if_not_exists = false;
  for (const auto& [year, region] : std::vector<std::pair<std::string, std::string>>{
           {"2023", "eu"}, {"2024", "us"}, {"2024", kDefaultPartitionName}}) {
    impala::TPartitionDef def;
    def.partition_spec = {Kv("year", year), Kv("region", region)};
    parts.alter_table_params.add_partition_params.partitions.push_back(def);
  }
  out.push_back(parts);

  impala::TDdlExecRequest stats = DdlRequest(TDdlType::ALTER_TABLE);
  stats.__isset.alter_table_params = true;
  stats.alter_table_params.alter_type = impala::TAlterTableType::UPDATE_STATS;
  stats.alter_table_params.table_name = TableName(kDb, kPartTable);
  auto& us = stats.alter_table_params.update_stats_params;
  stats.alter_table_params.__isset.update_stats_params = true;
  us.table_name = TableName(kDb, kPartTable);
  impala::TTableStats ts;
  ts.num_rows = 6;
  ts.__set_total_file_bytes(96);
  us.__set_table_stats(ts);
  us.__set_partition_stats(
      {{{"2023", "eu"}, SeedPartitionStats(2)}, {{"2024", "us"}, SeedPartitionStats(4)}});
  impala::TColumnStats cs;
  cs.avg_size = 4;
  cs.max_size = 4;
  cs.num_distinct_values = 6;
  cs.num_nulls = 0;
  cs.num_trues = -1;
  cs.num_falses = -1;
  us.__set_column_stats({{"id", cs}});
  us.__set_is_incremental(true);
  out.push_back(stats);

  impala::TDdlExecRequest view = DdlRequest(TDdlType::CREATE_VIEW);
  view.__isset.create_view_params = true;
  auto& vp = view.create_view_params;
  vp.view_name = TableName(kDb, kView);
  vp.columns = {Column("id", "bigint"), Column("label", "string")};
  vp.owner = "fuzz";
  vp.original_view_def = std::string("SELECT id, label FROM ") + kDb + "." + kFlatTable;
  vp.expanded_view_def = vp.original_view_def;
  out.push_back(view);

  impala::TDdlExecRequest fn = DdlRequest(TDdlType::CREATE_FUNCTION);
  fn.__isset.create_fn_params = true;
  impala::TFunction& f = fn.create_fn_params.fn;
  f.name.__set_db_name(kDb);
  f.name.function_name = kFunction;
  f.__set_binary_type(impala::TFunctionBinaryType::NATIVE);
  f.__set_arg_types({*ParseHiveType("int")});
  f.__set_ret_type(*ParseHiveType("int"));
  f.__set_has_var_args(false);
  impala::TScalarFunction sf;
  sf.symbol = "FuzzFn";
  f.__set_scalar_fn(sf);
  f.__set_hdfs_location("/udfs/fuzz.so");
  out.push_back(fn);
  return out;
}

std::string SeedDataFile(const std::string& table, int rows) {
  std::string out;
  for (int i = 1; i <= rows; ++i) {
    if (table == kPartTable) {
      out += std::to_string(i) + "\x01name" + std::to_string(i) + "\x01" + std::to_string(i) +
             ".5\n";
    } else {
      out += std::to_string(i) + "\x01label" + std::to_string(i) + "\n";
    }
  }
  return out;
}

// ---------------------------------------------------------------- stack

CatalogdStack::CatalogdStack(const std::string& name) {
  root_ = MakeScratchDir(name);
  warehouse_ = root_ + "/warehouse";
  std::filesystem::create_directories(warehouse_);
  auto ms = catalog::OpenSqliteMetastore(root_ + "/metastore.db");
  CheckOk(ms.status(), "opening the metastore");
  metastore_ = std::move(ms).value();
  fs_ = std::make_unique<SandboxFileSystem>(root_);
  catalog_ = std::make_unique<catalog::Catalog>();
  catalog::LoaderOptions lo;
  lo.num_threads = 1;
  loader_ = std::make_unique<catalog::TableLoader>(metastore_.get(), fs_.get(), lo,
                                                   catalog_->partition_id_allocator());
  loads_ = std::make_unique<catalog::TableLoadManager>(catalog_.get(), loader_.get(), 0);
  ctx_.catalog = catalog_.get();
  ctx_.metastore = metastore_.get();
  ctx_.fs = fs_.get();
  ctx_.loader = loader_.get();
  ctx_.loads = loads_.get();
  ctx_.publisher = nullptr;  // SYNC_DDL never waits
  ctx_.warehouse_dir = warehouse_;
  ddl_ = std::make_unique<catalog::DdlExecutor>(&ctx_);
  core_ = std::make_unique<catalog::ops::CommandCore>(&ctx_, ddl_.get());
  queries_ = std::make_unique<catalog::ops::CatalogQueries>(metastore_.get());
  catalog::PartialFetchOptions fo;
  fo.max_file_descs_per_response = 10000;
  fetcher_ = std::make_unique<catalog::PartialFetcher>(&ctx_, fo);
  LoadNames();
  Seed();
}

CatalogdStack::~CatalogdStack() {
  if (loads_) loads_->Shutdown();
  fetcher_.reset();
  queries_.reset();
  core_.reset();
  ddl_.reset();
  loads_.reset();
  loader_.reset();
  catalog_.reset();
  metastore_.reset();
  RemoveTree(root_);
}

void CatalogdStack::LoadNames() {
  // As catalogd's startup: a metastore starts with `default`; the catalog
  // starts with every database and table name (tables unloaded).
  catalog::MetastoreOp op;
  op.kind = catalog::MetastoreOp::Kind::kCreateDatabase;
  op.database.name = "default";
  op.database.description = "Default Hive database";
  op.database.locationUri = warehouse_;
  catalog::MetastoreTxn txn;
  txn.ops.push_back(std::move(op));
  auto committed = metastore_->Commit(txn);
  if (!committed.ok() && !committed.status().Is(ErrorCode::kAlreadyExists)) {
    Die("creating default: " + committed.status().ToString());
  }
  auto names = catalog::CatalogNamesOf(metastore_.get());
  CheckOk(names.status(), "reading the catalog's names");
  catalog_->ResetAll(std::move(names).value());
}

void CatalogdStack::Seed() {
  for (const impala::TDdlExecRequest& req : SeedDdl()) {
    auto r = catalog::ExecImpalaDdl(core_.get(), catalog::ImpalaCaller(req), req);
    CheckOk(r.status(), "seed DDL " + std::to_string(static_cast<int>(req.ddl_type)));
  }
  // One data file per partition (and for the flat table), then a load so
  // the tables are served with their files.
  for (const std::string& table : {std::string(kPartTable), std::string(kFlatTable)}) {
    auto loaded = loads_->GetLoaded(kDb, table);
    CheckOk(loaded.status(), "loading " + table);
    for (const auto& [id, part] : (*loaded)->partitions) {
      std::filesystem::create_directories(part->location());
      std::ofstream(part->location() + "/data_0.txt") << SeedDataFile(table, 2);
    }
    auto reloaded = loads_->Invalidate(kDb, table);
    CheckOk(reloaded.status(), "invalidating " + table);
    CheckOk(loads_->GetLoaded(kDb, table).status(), "reloading " + table);
  }
}

}  // namespace ics::fuzz
