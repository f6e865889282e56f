// Test doubles for statement execution: an in-memory LocalCatalog, a
// CoordinatorBackend that records what would go to catalogd and answers
// with scripted results, and a fixture that runs statements through a
// StatementExecutor.
//
// Thread-safety: single-threaded tests only.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/codec/file_desc.h"
#include "common/hive/file_format.h"
#include "common/types/column_type.h"
#include "coordinator-sim/exec/statement_executor.h"
#include "tests/util/temp_dir.h"

namespace ics::coord::testing {

using ::ics::testing::TempDir;

struct ColSpec {
  ColSpec(std::string n, std::string t, std::string c = "")
      : name(std::move(n)), type(std::move(t)), comment(std::move(c)) {}
  std::string name;
  std::string type;
  std::string comment;
};

// An in-memory catalog: databases, tables, partitions (with file
// descriptors) and functions, as a test sets them up.
class FakeCatalog : public LocalCatalog {
 public:
  TopicProgress OnTopicUpdate(const impala::TTopicDelta&,
                              std::vector<impala::TTopicDelta>*) override {
    return {};
  }
  std::string topic_prefix() const override { return "2:"; }
  void ApplyUpdateResult(const impala::TCatalogUpdateResult&) override { ++applied; }

  Result<std::vector<std::string>> DatabaseNames() override {
    std::vector<std::string> out;
    for (const auto& [name, db] : dbs) out.push_back(name);
    return out;
  }
  Result<hive::Database> GetDatabase(const std::string& db) override {
    auto it = dbs.find(db);
    if (it == dbs.end()) return Status::NotFound("database " + db);
    return it->second;
  }
  Result<std::vector<std::string>> TableNames(const std::string& db) override {
    if (dbs.count(db) == 0) return Status::NotFound("database " + db);
    std::vector<std::string> out;
    for (const auto& [key, t] : tables) {
      if (key.first == db) out.push_back(key.second);
    }
    return out;
  }
  Result<std::shared_ptr<const LocalTable>> GetTable(const std::string& db,
                                                     const std::string& table) override {
    ++get_table_calls;
    auto it = tables.find({db, table});
    if (it == tables.end()) return Status::NotFound("table " + db + "." + table);
    return std::shared_ptr<const LocalTable>(it->second);
  }
  Result<std::vector<std::shared_ptr<const LocalPartition>>> GetPartitions(
      const LocalTable& table, const std::vector<int64_t>& ids, bool want_files,
      bool want_stats) override {
    ++get_partitions_calls;
    if (fail_get_partitions > 0) {
      --fail_get_partitions;
      return Status(ErrorCode::kRecoverableError, "table changed");
    }
    auto& parts = partitions[{table.db, table.name}];
    std::vector<int64_t> wanted = ids;
    if (wanted.empty()) {
      for (const auto& [id, p] : parts) wanted.push_back(id);
    }
    std::vector<std::shared_ptr<const LocalPartition>> out;
    for (int64_t id : wanted) {
      auto it = parts.find(id);
      if (it == parts.end()) return Status::NotFound("partition id " + std::to_string(id));
      auto copy = std::make_shared<LocalPartition>(*it->second);
      if (!want_files) {
        copy->file_descs.clear();
        copy->files_loaded = false;
      } else {
        ++files_fetched;
      }
      if (!want_stats) copy->partition_stats.clear();
      out.push_back(std::move(copy));
    }
    return out;
  }
  Result<std::vector<impala::TFunction>> Functions(const std::string& db) override {
    if (dbs.count(db) == 0) return Status::NotFound("database " + db);
    return functions[db];
  }
  int64_t catalog_version() const override { return 0; }
  std::optional<impala::TUniqueId> service_id() const override { return std::nullopt; }
  Status WaitForCatalogVersion(int64_t, int) override { return Status::OK(); }
  LocalCatalogStats Stats() const override { return {}; }

  // ---- setup ----
  hive::Database& AddDb(const std::string& name, const std::string& comment = "") {
    hive::Database db;
    db.name = name;
    db.description = comment;
    db.locationUri = "/warehouse/" + name + ".db";
    return dbs[name] = db;
  }

  // A table with columns "name type" and partition columns; TEXTFILE unless told.
  LocalTable& AddTable(const std::string& db, const std::string& name,
                       const std::vector<ColSpec>& cols, const std::vector<ColSpec>& part_cols = {},
                       const std::string& location = "",
                       impala::THdfsFileFormat::type format = impala::THdfsFileFormat::TEXT) {
    auto t = std::make_shared<LocalTable>();
    t->db = db;
    t->name = name;
    t->hms.dbName = db;
    t->hms.tableName = name;
    t->hms.owner = "alice";
    t->hms.tableType = "MANAGED_TABLE";
    t->hms.sd.location = location.empty() ? "/warehouse/" + db + ".db/" + name : location;
    const ics::HmsFormat f = ics::HmsFormatOf(format);
    t->hms.sd.inputFormat = f.input_format;
    t->hms.sd.outputFormat = f.output_format;
    t->hms.sd.serdeInfo.serializationLib = f.serde_lib;
    int pos = 0;
    auto add = [&](const ColSpec& c, std::vector<impala::TColumn>* to,
                   std::vector<hive::FieldSchema>* fs) {
      impala::TColumn col;
      col.columnName = c.name;
      col.columnType = ParseHiveType(c.type).value();
      if (!c.comment.empty()) col.__set_comment(c.comment);
      col.__set_position(pos++);
      to->push_back(col);
      hive::FieldSchema f;
      f.name = c.name;
      f.type = c.type;
      f.comment = c.comment;
      fs->push_back(f);
    };
    for (const auto& c : part_cols) add(c, &t->clustering_columns, &t->hms.partitionKeys);
    for (const auto& c : cols) add(c, &t->columns, &t->hms.sd.cols);
    t->partition_names = PartitionList(t->clustering_columns);
    if (part_cols.empty()) {
      // The single partition of an unpartitioned table.
      auto p = std::make_shared<LocalPartition>();
      p->id = next_partition_id++;
      p->location = t->hms.sd.location;
      t->partition_names.Add(p->id, "");
      partitions[{db, name}][p->id] = p;
    }
    tables[{db, name}] = t;
    return *t;
  }

  LocalTable& AddView(const std::string& db, const std::string& name,
                      const std::vector<ColSpec>& cols, const std::string& text) {
    LocalTable& v = AddTable(db, name, cols);
    v.is_view = true;
    v.hms.tableType = "VIRTUAL_VIEW";
    v.hms.viewOriginalText = text;
    v.hms.viewExpandedText = text;
    v.hms.sd = hive::StorageDescriptor();
    partitions.erase({db, name});
    v.partition_names.Clear();
    return v;
  }

  // A partition with values in key order; its files are (name, length).
  LocalPartition& AddPartition(const std::string& db, const std::string& table,
                               const std::string& name, std::vector<std::string> values,
                               const std::string& location,
                               const std::vector<std::pair<std::string, int64_t>>& files = {},
                               int64_t num_rows = -1) {
    auto p = std::make_shared<LocalPartition>();
    p->id = next_partition_id++;
    p->name = name;
    p->values = std::move(values);
    p->location = location;
    p->num_rows = num_rows;
    p->files_loaded = true;
    for (const auto& [fname, len] : files) {
      FileDescInfo info;
      info.relative_path = fname;
      info.length = len;
      p->file_descs.push_back(BuildFileDesc(info));
      p->total_file_bytes += len;
    }
    tables.at({db, table})->partition_names.Add(p->id, name);
    partitions[{db, table}][p->id] = p;
    return *p;
  }

  // The partition of a table by name (the "" partition of an unpartitioned one).
  LocalPartition* FindPartition(const std::string& db, const std::string& table,
                                const std::string& name) {
    for (auto& [id, p] : partitions[{db, table}]) {
      if (p->name == name) return p.get();
    }
    return nullptr;
  }

  std::map<std::string, hive::Database> dbs;
  size_t get_table_calls = 0;  // GetTable calls so far
  std::map<std::pair<std::string, std::string>, std::shared_ptr<LocalTable>> tables;
  std::map<std::pair<std::string, std::string>, std::map<int64_t, std::shared_ptr<LocalPartition>>>
      partitions;
  std::map<std::string, std::vector<impala::TFunction>> functions;
  int64_t next_partition_id = 100;
  int applied = 0;
  int get_partitions_calls = 0;
  int fail_get_partitions = 0;  // this many GetPartitions calls fail RECOVERABLE_ERROR
  int files_fetched = 0;
};

// Records catalog operations; answers with scripted summaries or errors.
class FakeBackend : public CoordinatorBackend {
 public:
  LocalCatalog* catalog() override { return &catalog_; }
  const std::string& coordinator_id() const override { return id_; }

  Result<impala::TDdlExecResponse> ExecDdl(impala::TDdlExecRequest req, bool sync_ddl) override {
    ddl_requests.push_back(req);
    sync_flags.push_back(sync_ddl);
    if (!next_error.ok()) return std::exchange(next_error, Status::OK());
    impala::TDdlExecResponse resp;
    resp.result.version = 7;
    impala::TResultSet rs;
    impala::TResultRow row;
    impala::TColumnValue v;
    v.__set_string_val(summary);
    row.colVals.push_back(v);
    rs.rows.push_back(row);
    resp.__set_result_set(rs);
    return resp;
  }
  Result<impala::TCatalogUpdateResult> UpdateCatalog(impala::TUpdateCatalogRequest req,
                                                     bool sync_ddl) override {
    update_requests.push_back(req);
    sync_flags.push_back(sync_ddl);
    if (!next_error.ok()) return std::exchange(next_error, Status::OK());
    return impala::TCatalogUpdateResult();
  }
  Result<impala::TCatalogUpdateResult> ResetMetadata(impala::TResetMetadataRequest req,
                                                     bool sync_ddl) override {
    reset_requests.push_back(req);
    table_lookups_at_reset.push_back(catalog_.get_table_calls);
    sync_flags.push_back(sync_ddl);
    if (!next_error.ok()) return std::exchange(next_error, Status::OK());
    return impala::TCatalogUpdateResult();
  }

  FakeCatalog& fake() { return catalog_; }

  std::vector<impala::TDdlExecRequest> ddl_requests;
  std::vector<impala::TUpdateCatalogRequest> update_requests;
  std::vector<impala::TResetMetadataRequest> reset_requests;
  // FakeCatalog::get_table_calls when each ResetMetadata arrived.
  std::vector<size_t> table_lookups_at_reset;
  std::vector<bool> sync_flags;
  std::string summary = "Done.";
  Status next_error;

 private:
  FakeCatalog catalog_;
  std::string id_ = "coord-1";
};

class ExecTest : public ::testing::Test {
 protected:
  ExecTest() : executor_(&backend_) {
    cat().AddDb("default", "Default Hive database");
    cat().AddDb("db1", "first");
  }

  FakeCatalog& cat() { return backend_.fake(); }

  Result<StatementResult> Run(const std::string& sql) { return executor_.Execute(sql, &session_); }

  StatementResult MustRun(const std::string& sql) {
    Result<StatementResult> r = Run(sql);
    EXPECT_TRUE(r.ok()) << sql << "\n  " << r.status().ToString();
    return r.ok() ? std::move(r).value() : StatementResult{};
  }

  // The error message of a statement that must fail (before reaching catalogd).
  std::string Error(const std::string& sql) {
    const size_t ddl = backend_.ddl_requests.size(), upd = backend_.update_requests.size();
    Result<StatementResult> r = Run(sql);
    EXPECT_FALSE(r.ok()) << "expected an error: " << sql;
    EXPECT_EQ(backend_.ddl_requests.size(), ddl) << "a failed statement reached catalogd: " << sql;
    EXPECT_EQ(backend_.update_requests.size(), upd) << sql;
    return r.ok() ? "<ok>" : r.status().message();
  }

  // The one DDL request the statement sent.
  impala::TDdlExecRequest Ddl(const std::string& sql) {
    const size_t before = backend_.ddl_requests.size();
    MustRun(sql);
    EXPECT_EQ(backend_.ddl_requests.size(), before + 1) << sql;
    return backend_.ddl_requests.size() > before ? backend_.ddl_requests.back()
                                                 : impala::TDdlExecRequest();
  }

  FakeBackend backend_;
  StatementExecutor executor_;
  SessionState session_;
};

}  // namespace ics::coord::testing
