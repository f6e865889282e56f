#include "catalogd/hms/hms_handler.h"

#include <glog/logging.h>
#include <thrift/TApplicationException.h>

#include <exception>
#include <type_traits>

#include "catalogd/metastore/partition_name.h"
#include "common/rpc/peer.h"

namespace ics::catalog::hms {

namespace {

// The exception a failed call raises.
enum class Ex {
  kMeta,
  kNoSuchObject,
  kAlreadyExists,
  kInvalidObject,
  kInvalidOperation,
  kInvalidInput,
  kUnknownDB,
  kConfigSecurity,
  kApp,  // no declared exception: a Thrift application error
};

// Which exception each Status category becomes for one call.
struct Errs {
  Ex not_found = Ex::kMeta;
  Ex exists = Ex::kMeta;
  Ex invalid = Ex::kMeta;
  Ex other = Ex::kMeta;
};

template <typename E>
[[noreturn]] void ThrowWith(const std::string& msg) {
  E e;
  e.__set_message(msg);
  throw e;
}

[[noreturn]] void Raise(Ex ex, const std::string& msg) {
  switch (ex) {
    case Ex::kNoSuchObject: ThrowWith<hive::NoSuchObjectException>(msg);
    case Ex::kAlreadyExists: ThrowWith<hive::AlreadyExistsException>(msg);
    case Ex::kInvalidObject: ThrowWith<hive::InvalidObjectException>(msg);
    case Ex::kInvalidOperation: ThrowWith<hive::InvalidOperationException>(msg);
    case Ex::kInvalidInput: ThrowWith<hive::InvalidInputException>(msg);
    case Ex::kUnknownDB: ThrowWith<hive::UnknownDBException>(msg);
    case Ex::kConfigSecurity: ThrowWith<hive::ConfigValSecurityException>(msg);
    case Ex::kApp: throw apache::thrift::TApplicationException(msg);
    case Ex::kMeta: break;
  }
  ThrowWith<hive::MetaException>(msg);
}

void Check(const Status& s, const Errs& e) {
  if (s.ok()) return;
  switch (s.code()) {
    case ErrorCode::kNotFound: Raise(e.not_found, s.message());
    case ErrorCode::kAlreadyExists: Raise(e.exists, s.message());
    case ErrorCode::kInvalidArgument: Raise(e.invalid, s.message());
    default: Raise(e.other, s.ToString());
  }
}

template <typename T>
T Get(Result<T> r, const Errs& e) {
  Check(r.status(), e);
  return std::move(r).value();
}

// Runs one call; an unexpected C++ exception becomes `fallback` (declared
// exceptions and Thrift errors pass through unchanged).
template <typename Fn>
auto Guard(const char* call, Ex fallback, Fn&& fn) -> decltype(fn()) {
  try {
    return fn();
  } catch (const apache::thrift::TException&) {
    throw;
  } catch (const std::exception& e) {
    LOG(WARNING) << "HMS endpoint: " << call << " failed unexpectedly: " << e.what();
    Raise(fallback, std::string("internal error in ") + call + ": " + e.what());
  }
}

std::string PartitionsTarget(const std::vector<hive::Partition>& parts) {
  if (parts.empty()) return "(no partitions)";
  std::string t = parts[0].dbName + "." + parts[0].tableName;
  if (parts.size() > 1) t += " (" + std::to_string(parts.size()) + " partitions)";
  return t;
}

std::string StatsTarget(const hive::ColumnStatistics& stats) {
  std::string t = stats.statsDesc.dbName + "." + stats.statsDesc.tableName;
  if (stats.statsDesc.__isset.partName) t += "/" + stats.statsDesc.partName;
  return t;
}

// The status a raised HMS exception stands for (for the operation log).
Status StatusOfRaised(const std::exception_ptr& raised) {
  try {
    std::rethrow_exception(raised);
  } catch (const hive::NoSuchObjectException& e) {
    return Status::NotFound(e.message);
  } catch (const hive::AlreadyExistsException& e) {
    return Status::AlreadyExists(e.message);
  } catch (const hive::InvalidObjectException& e) {
    return Status::InvalidArgument(e.message);
  } catch (const hive::InvalidOperationException& e) {
    return Status::InvalidArgument(e.message);
  } catch (const hive::InvalidInputException& e) {
    return Status::InvalidArgument(e.message);
  } catch (const hive::MetaException& e) {
    return Status(ErrorCode::kGeneral, e.message);
  } catch (const std::exception& e) {
    return Status(ErrorCode::kInternalError, e.what());
  } catch (...) {
    return Status(ErrorCode::kInternalError, "unknown exception");
  }
}

// Runs a successful write's after_write hook; a failure (or exception) is a
// warning only, never the call's outcome: the write is committed.
template <typename Hooks>
void AfterWrite(const Hooks& h, const char* call) {
  if (h.after_write == nullptr || !*h.after_write) return;
  Status s = Status::OK();
  try {
    s = (*h.after_write)();
  } catch (const std::exception& e) {
    s = Status(ErrorCode::kInternalError, e.what());
  } catch (...) {
    s = Status(ErrorCode::kInternalError, "unknown exception");
  }
  if (!s.ok()) {
    h.sync_failures->fetch_add(1);
    LOG(WARNING) << "HMS endpoint: " << call
                 << " committed, but catalogd has not applied it yet: " << s.ToString();
  }
}

// Guard() for a call that writes: recorded in the operation log (and so the
// audit log) with the peer and the outcome, then the after_write hook. A
// write's catalog version is not known here: the event processor applies it
// from the notification log.
template <typename Hooks, typename Fn>
auto Audited(const Hooks& h, const char* call, std::string target, Fn&& fn) -> decltype(fn()) {
  ScopedOperation op(h.log, std::string("HMS ") + call, std::move(target), "", CurrentOrigin());
  try {
    if constexpr (std::is_void_v<decltype(fn())>) {
      Guard(call, Ex::kMeta, std::forward<Fn>(fn));
      op.End(Status::OK());
      AfterWrite(h, call);
    } else {
      auto r = Guard(call, Ex::kMeta, std::forward<Fn>(fn));
      op.End(Status::OK());
      AfterWrite(h, call);
      return r;
    }
  } catch (...) {
    op.End(StatusOfRaised(std::current_exception()));
    throw;
  }
}

// Per-call mappings (named after the HMS calls that use them).
constexpr Errs kPlain{};                                               // MetaException only
constexpr Errs kLookup{Ex::kNoSuchObject, Ex::kMeta, Ex::kMeta};       // get_*, drop_table
constexpr Errs kCreate{Ex::kNoSuchObject, Ex::kAlreadyExists, Ex::kInvalidObject};
constexpr Errs kAddPart{Ex::kInvalidObject, Ex::kAlreadyExists, Ex::kInvalidObject};
constexpr Errs kAlter{Ex::kInvalidOperation, Ex::kInvalidOperation, Ex::kInvalidOperation};
constexpr Errs kStats{Ex::kNoSuchObject, Ex::kMeta, Ex::kInvalidInput};
constexpr Errs kApp{Ex::kApp, Ex::kApp, Ex::kApp, Ex::kApp};

HmsCore::PartitionQuery Query(int16_t max_parts) {
  HmsCore::PartitionQuery q;
  q.max_parts = max_parts;
  return q;
}

}  // namespace

// ---- configuration ----

void HmsHandler::getMetaConf(std::string& _return, const std::string& key) {
  Guard("getMetaConf", Ex::kMeta, [&] { _return = Get(core_->GetMetaConf(key), kPlain); });
}

void HmsHandler::get_config_value(std::string& _return, const std::string& name,
                                  const std::string& defaultValue) {
  Guard("get_config_value", Ex::kApp, [&] {
    _return = Get(core_->GetConfigValue(name, defaultValue),
                  Errs{Ex::kApp, Ex::kApp, Ex::kConfigSecurity, Ex::kApp});
  });
}

// ---- databases ----

void HmsHandler::create_database(const hive::Database& database) {
  Audited(hooks(), "create_database", database.name, [&] {
    Check(core_->CreateDatabase(database), Errs{Ex::kMeta, Ex::kAlreadyExists, Ex::kInvalidObject});
  });
}

void HmsHandler::get_database(hive::Database& _return, const std::string& name) {
  Guard("get_database", Ex::kMeta, [&] { _return = Get(core_->GetDatabase(name), kLookup); });
}

void HmsHandler::drop_database(const std::string& name, bool deleteData, bool cascade) {
  Audited(hooks(), "drop_database", name, [&] {
    Check(core_->DropDatabase(name, deleteData, cascade),
          Errs{Ex::kNoSuchObject, Ex::kMeta, Ex::kInvalidOperation});
  });
}

void HmsHandler::get_databases(std::vector<std::string>& _return, const std::string& pattern) {
  Guard("get_databases", Ex::kMeta, [&] { _return = Get(core_->GetDatabases(pattern), kPlain); });
}

void HmsHandler::get_all_databases(std::vector<std::string>& _return) {
  Guard("get_all_databases", Ex::kMeta, [&] { _return = Get(core_->GetDatabases(""), kPlain); });
}

void HmsHandler::alter_database(const std::string& dbname, const hive::Database& db) {
  Audited(hooks(), "alter_database", dbname, [&] { Check(core_->AlterDatabase(dbname, db), kLookup); });
}

// ---- tables ----

void HmsHandler::create_table(const hive::Table& tbl) {
  Audited(hooks(), "create_table", tbl.dbName + "." + tbl.tableName, [&] { Check(core_->CreateTable(tbl), kCreate); });
}

void HmsHandler::create_table_with_environment_context(const hive::Table& tbl,
                                                       const hive::EnvironmentContext&) {
  Audited(hooks(), "create_table_with_environment_context", tbl.dbName + "." + tbl.tableName,
        [&] { Check(core_->CreateTable(tbl), kCreate); });
}

void HmsHandler::drop_table(const std::string& dbname, const std::string& name, bool deleteData) {
  Audited(hooks(), "drop_table", dbname + "." + name,
        [&] { Check(core_->DropTable(dbname, name, deleteData), kLookup); });
}

void HmsHandler::drop_table_with_environment_context(const std::string& dbname,
                                                     const std::string& name, bool deleteData,
                                                     const hive::EnvironmentContext&) {
  Audited(hooks(), "drop_table_with_environment_context", dbname + "." + name,
        [&] { Check(core_->DropTable(dbname, name, deleteData), kLookup); });
}

void HmsHandler::get_tables(std::vector<std::string>& _return, const std::string& db_name,
                            const std::string& pattern) {
  Guard("get_tables", Ex::kMeta, [&] { _return = Get(core_->GetTables(db_name, pattern), kPlain); });
}

void HmsHandler::get_table_meta(std::vector<hive::TableMeta>& _return,
                                const std::string& db_patterns, const std::string& tbl_patterns,
                                const std::vector<std::string>& tbl_types) {
  Guard("get_table_meta", Ex::kMeta, [&] {
    _return = Get(core_->GetTableMeta(db_patterns, tbl_patterns, tbl_types), kPlain);
  });
}

void HmsHandler::get_all_tables(std::vector<std::string>& _return, const std::string& db_name) {
  Guard("get_all_tables", Ex::kMeta, [&] { _return = Get(core_->GetTables(db_name, ""), kPlain); });
}

void HmsHandler::get_table(hive::Table& _return, const std::string& dbname,
                           const std::string& tbl_name) {
  Guard("get_table", Ex::kMeta, [&] { _return = Get(core_->GetTable(dbname, tbl_name), kLookup); });
}

void HmsHandler::get_table_objects_by_name(std::vector<hive::Table>& _return,
                                           const std::string& dbname,
                                           const std::vector<std::string>& tbl_names) {
  Guard("get_table_objects_by_name", Ex::kMeta, [&] {
    _return = Get(core_->GetTablesByName(dbname, tbl_names),
                  Errs{Ex::kUnknownDB, Ex::kMeta, Ex::kInvalidOperation});
  });
}

void HmsHandler::alter_table(const std::string& dbname, const std::string& tbl_name,
                             const hive::Table& new_tbl) {
  Audited(hooks(), "alter_table", dbname + "." + tbl_name,
        [&] { Check(core_->AlterTable(dbname, tbl_name, new_tbl), kAlter); });
}

void HmsHandler::alter_table_with_environment_context(const std::string& dbname,
                                                      const std::string& tbl_name,
                                                      const hive::Table& new_tbl,
                                                      const hive::EnvironmentContext&) {
  Audited(hooks(), "alter_table_with_environment_context", dbname + "." + tbl_name,
        [&] { Check(core_->AlterTable(dbname, tbl_name, new_tbl), kAlter); });
}

// ---- partitions: writes ----

void HmsHandler::add_partition(hive::Partition& _return, const hive::Partition& new_part) {
  Audited(hooks(), "add_partition", PartitionsTarget({new_part}),
        [&] { _return = Get(core_->AddPartitionObjects({new_part}), kAddPart).at(0); });
}

int32_t HmsHandler::add_partitions(const std::vector<hive::Partition>& new_parts) {
  return Audited(hooks(), "add_partitions", PartitionsTarget(new_parts), [&] {
    return static_cast<int32_t>(Get(core_->AddPartitionObjects(new_parts), kAddPart).size());
  });
}

void HmsHandler::append_partition(hive::Partition& _return, const std::string& db_name,
                                  const std::string& tbl_name,
                                  const std::vector<std::string>& part_vals) {
  Audited(hooks(), "append_partition", db_name + "." + tbl_name, [&] {
    _return = Get(core_->AppendPartition(db_name, tbl_name, part_vals), kAddPart);
  });
}

void HmsHandler::add_partitions_req(hive::AddPartitionsResult& _return,
                                    const hive::AddPartitionsRequest& request) {
  Audited(hooks(), "add_partitions_req", request.dbName + "." + request.tblName, [&] {
    auto added = Get(core_->AddPartitions(request.dbName, request.tblName, request.parts,
                                          request.ifNotExists),
                     kAddPart);
    if (!request.__isset.needResult || request.needResult) _return.__set_partitions(added);
  });
}

void HmsHandler::append_partition_by_name(hive::Partition& _return, const std::string& db_name,
                                          const std::string& tbl_name,
                                          const std::string& part_name) {
  Audited(hooks(), "append_partition_by_name", db_name + "." + tbl_name + "/" + part_name, [&] {
    _return = Get(core_->AppendPartitionByName(db_name, tbl_name, part_name), kAddPart);
  });
}

bool HmsHandler::drop_partition(const std::string& db_name, const std::string& tbl_name,
                                const std::vector<std::string>& part_vals, bool deleteData) {
  return Audited(hooks(), "drop_partition", db_name + "." + tbl_name, [&] {
    std::string name = Get(core_->PartitionNameOf(db_name, tbl_name, part_vals), kLookup);
    Get(core_->DropPartitions(db_name, tbl_name, {name}, false, deleteData), kLookup);
    return true;
  });
}

bool HmsHandler::drop_partition_by_name(const std::string& db_name, const std::string& tbl_name,
                                        const std::string& part_name, bool deleteData) {
  return Audited(hooks(), "drop_partition_by_name", db_name + "." + tbl_name + "/" + part_name, [&] {
    Check(ParsePartitionName(part_name).status(), kLookup);
    Get(core_->DropPartitions(db_name, tbl_name, {part_name}, false, deleteData), kLookup);
    return true;
  });
}

void HmsHandler::drop_partitions_req(hive::DropPartitionsResult& _return,
                                     const hive::DropPartitionsRequest& req) {
  Audited(hooks(), "drop_partitions_req", req.dbName + "." + req.tblName, [&] {
    if (!req.parts.__isset.names) {
      Raise(Ex::kMeta,
            "drop_partitions_req: only partitions given by name are supported (serialized Hive "
            "expressions are not)");
    }
    for (const std::string& n : req.parts.names) Check(ParsePartitionName(n).status(), kLookup);
    const bool if_exists = !req.__isset.ifExists || req.ifExists;
    const bool delete_data = req.__isset.deleteData && req.deleteData;
    auto dropped = Get(
        core_->DropPartitions(req.dbName, req.tblName, req.parts.names, if_exists, delete_data),
        kLookup);
    if (!req.__isset.needResult || req.needResult) _return.__set_partitions(dropped);
  });
}

void HmsHandler::alter_partition(const std::string& db_name, const std::string& tbl_name,
                                 const hive::Partition& new_part) {
  Audited(hooks(), "alter_partition", db_name + "." + tbl_name,
        [&] { Check(core_->AlterPartitions(db_name, tbl_name, {new_part}), kAlter); });
}

void HmsHandler::alter_partitions(const std::string& db_name, const std::string& tbl_name,
                                  const std::vector<hive::Partition>& new_parts) {
  Audited(hooks(), "alter_partitions", db_name + "." + tbl_name,
        [&] { Check(core_->AlterPartitions(db_name, tbl_name, new_parts), kAlter); });
}

void HmsHandler::rename_partition(const std::string& db_name, const std::string& tbl_name,
                                  const std::vector<std::string>& part_vals,
                                  const hive::Partition& new_part) {
  Audited(hooks(), "rename_partition", db_name + "." + tbl_name, [&] {
    Check(core_->RenamePartition(db_name, tbl_name, part_vals, new_part), kAlter);
  });
}

// ---- partitions: reads ----

void HmsHandler::get_partition(hive::Partition& _return, const std::string& db_name,
                               const std::string& tbl_name,
                               const std::vector<std::string>& part_vals) {
  Guard("get_partition", Ex::kMeta, [&] {
    std::string name = Get(core_->PartitionNameOf(db_name, tbl_name, part_vals), kLookup);
    _return = Get(core_->GetPartitionByName(db_name, tbl_name, name), kLookup);
  });
}

void HmsHandler::get_partition_by_name(hive::Partition& _return, const std::string& db_name,
                                       const std::string& tbl_name,
                                       const std::string& part_name) {
  Guard("get_partition_by_name", Ex::kMeta, [&] {
    _return = Get(core_->GetPartitionByName(db_name, tbl_name, part_name), kLookup);
  });
}

void HmsHandler::get_partitions(std::vector<hive::Partition>& _return,
                                const std::string& db_name, const std::string& tbl_name,
                                int16_t max_parts) {
  Guard("get_partitions", Ex::kMeta, [&] {
    _return = Get(core_->ListPartitions(db_name, tbl_name, Query(max_parts)), kLookup);
  });
}

void HmsHandler::get_partition_names(std::vector<std::string>& _return,
                                     const std::string& db_name, const std::string& tbl_name,
                                     int16_t max_parts) {
  Guard("get_partition_names", Ex::kMeta, [&] {
    _return = Get(core_->ListPartitionNames(db_name, tbl_name, Query(max_parts)), kPlain);
  });
}

void HmsHandler::get_partitions_ps(std::vector<hive::Partition>& _return,
                                   const std::string& db_name, const std::string& tbl_name,
                                   const std::vector<std::string>& part_vals, int16_t max_parts) {
  Guard("get_partitions_ps", Ex::kMeta, [&] {
    HmsCore::PartitionQuery q = Query(max_parts);
    q.by_values = true;
    q.values = part_vals;
    _return = Get(core_->ListPartitions(db_name, tbl_name, q), kLookup);
  });
}

void HmsHandler::get_partition_names_ps(std::vector<std::string>& _return,
                                        const std::string& db_name, const std::string& tbl_name,
                                        const std::vector<std::string>& part_vals,
                                        int16_t max_parts) {
  Guard("get_partition_names_ps", Ex::kMeta, [&] {
    HmsCore::PartitionQuery q = Query(max_parts);
    q.by_values = true;
    q.values = part_vals;
    _return = Get(core_->ListPartitionNames(db_name, tbl_name, q), kLookup);
  });
}

void HmsHandler::get_partitions_by_filter(std::vector<hive::Partition>& _return,
                                          const std::string& db_name,
                                          const std::string& tbl_name, const std::string& filter,
                                          int16_t max_parts) {
  Guard("get_partitions_by_filter", Ex::kMeta, [&] {
    HmsCore::PartitionQuery q = Query(max_parts);
    q.by_filter = true;
    q.filter = filter;
    _return = Get(core_->ListPartitions(db_name, tbl_name, q), kLookup);
  });
}

void HmsHandler::get_partitions_by_names(std::vector<hive::Partition>& _return,
                                         const std::string& db_name,
                                         const std::string& tbl_name,
                                         const std::vector<std::string>& names) {
  Guard("get_partitions_by_names", Ex::kMeta, [&] {
    _return = Get(core_->GetPartitionsByNames(db_name, tbl_name, names), kLookup);
  });
}

void HmsHandler::partition_name_to_vals(std::vector<std::string>& _return,
                                        const std::string& part_name) {
  Guard("partition_name_to_vals", Ex::kMeta, [&] {
    PartitionSpec spec = Get(ParsePartitionName(part_name), kPlain);
    _return.clear();
    for (auto& kv : spec) _return.push_back(std::move(kv.second));
  });
}

void HmsHandler::partition_name_to_spec(std::map<std::string, std::string>& _return,
                                        const std::string& part_name) {
  Guard("partition_name_to_spec", Ex::kMeta, [&] {
    PartitionSpec spec = Get(ParsePartitionName(part_name), kPlain);
    _return.clear();
    for (auto& kv : spec) _return[kv.first] = std::move(kv.second);
  });
}

// ---- column statistics ----

bool HmsHandler::update_table_column_statistics(const hive::ColumnStatistics& stats_obj) {
  return Audited(hooks(), "update_table_column_statistics", StatsTarget(stats_obj), [&] {
    Check(core_->UpdateColumnStatistics(stats_obj, /*partition_level=*/false), kStats);
    return true;
  });
}

bool HmsHandler::update_partition_column_statistics(const hive::ColumnStatistics& stats_obj) {
  return Audited(hooks(), "update_partition_column_statistics", StatsTarget(stats_obj), [&] {
    Check(core_->UpdateColumnStatistics(stats_obj, /*partition_level=*/true), kStats);
    return true;
  });
}

void HmsHandler::get_table_column_statistics(hive::ColumnStatistics& _return,
                                             const std::string& db_name,
                                             const std::string& tbl_name,
                                             const std::string& col_name) {
  Guard("get_table_column_statistics", Ex::kMeta, [&] {
    hive::Table t = Get(core_->GetTable(db_name, tbl_name), kStats);
    auto objs = Get(core_->GetTableColumnStats(db_name, tbl_name, {col_name}), kStats);
    if (objs.empty()) {
      Raise(Ex::kNoSuchObject, "No statistics for column '" + col_name + "' of table " +
                                   t.dbName + "." + t.tableName);
    }
    _return = hive::ColumnStatistics();
    _return.statsDesc.isTblLevel = true;
    _return.statsDesc.dbName = t.dbName;
    _return.statsDesc.tableName = t.tableName;
    _return.statsObj = std::move(objs);
  });
}

void HmsHandler::get_partition_column_statistics(hive::ColumnStatistics& _return,
                                                 const std::string& db_name,
                                                 const std::string& tbl_name,
                                                 const std::string& part_name,
                                                 const std::string& col_name) {
  Guard("get_partition_column_statistics", Ex::kMeta, [&] {
    hive::Table t = Get(core_->GetTable(db_name, tbl_name), kStats);
    Check(ParsePartitionName(part_name).status(), kStats);
    auto per_part =
        Get(core_->GetPartitionsColumnStats(db_name, tbl_name, {col_name}, {part_name}), kStats);
    auto it = per_part.find(part_name);
    if (it == per_part.end()) {
      Raise(Ex::kNoSuchObject, "No statistics for column '" + col_name + "' of partition " +
                                   part_name + " of " + t.dbName + "." + t.tableName);
    }
    _return = hive::ColumnStatistics();
    _return.statsDesc.isTblLevel = false;
    _return.statsDesc.dbName = t.dbName;
    _return.statsDesc.tableName = t.tableName;
    _return.statsDesc.__set_partName(part_name);
    _return.statsObj = std::move(it->second);
  });
}

void HmsHandler::get_table_statistics_req(hive::TableStatsResult& _return,
                                          const hive::TableStatsRequest& request) {
  Guard("get_table_statistics_req", Ex::kMeta, [&] {
    _return.tableStats =
        Get(core_->GetTableColumnStats(request.dbName, request.tblName, request.colNames),
            kLookup);
  });
}

void HmsHandler::get_partitions_statistics_req(hive::PartitionsStatsResult& _return,
                                               const hive::PartitionsStatsRequest& request) {
  Guard("get_partitions_statistics_req", Ex::kMeta, [&] {
    _return.partStats = Get(core_->GetPartitionsColumnStats(request.dbName, request.tblName,
                                                            request.colNames, request.partNames),
                            kLookup);
  });
}

void HmsHandler::get_aggr_stats_for(hive::AggrStats& _return,
                                    const hive::PartitionsStatsRequest& request) {
  Guard("get_aggr_stats_for", Ex::kMeta, [&] {
    _return = Get(core_->GetAggrStats(request.dbName, request.tblName, request.colNames,
                                      request.partNames),
                  kLookup);
  });
}

bool HmsHandler::set_aggr_stats_for(const hive::SetPartitionsStatsRequest& request) {
  std::string target = request.colStats.empty() ? "(no statistics)"
                                                : StatsTarget(request.colStats[0]);
  if (request.colStats.size() > 1) {
    target += " (" + std::to_string(request.colStats.size()) + " statistics objects)";
  }
  return Audited(hooks(), "set_aggr_stats_for", std::move(target), [&] {
    Check(core_->SetStatistics(request, HmsCore::StatsLevel::kAny), kStats);
    return true;
  });
}

void HmsHandler::update_table_column_statistics_req(hive::SetPartitionsStatsResponse& _return,
                                                    const hive::SetPartitionsStatsRequest& req) {
  std::string target = req.colStats.empty() ? "(no statistics)" : StatsTarget(req.colStats[0]);
  Audited(hooks(), "update_table_column_statistics_req", std::move(target), [&] {
    Check(core_->SetStatistics(req, HmsCore::StatsLevel::kTable), kStats);
    _return.result = true;
  });
}

void HmsHandler::update_partition_column_statistics_req(
    hive::SetPartitionsStatsResponse& _return, const hive::SetPartitionsStatsRequest& req) {
  std::string target = req.colStats.empty() ? "(no statistics)" : StatsTarget(req.colStats[0]);
  Audited(hooks(), "update_partition_column_statistics_req", std::move(target), [&] {
    Check(core_->SetStatistics(req, HmsCore::StatsLevel::kPartition), kStats);
    _return.result = true;
  });
}

bool HmsHandler::delete_partition_column_statistics(const std::string& db_name,
                                                    const std::string& tbl_name,
                                                    const std::string& part_name,
                                                    const std::string& col_name,
                                                    const std::string& /*engine*/) {
  return Audited(hooks(), "delete_partition_column_statistics", db_name + "." + tbl_name + "/" + part_name + " column " + col_name, [&] {
    if (part_name.empty()) Raise(Ex::kInvalidInput, "part_name must not be empty");
    Check(core_->DeleteColumnStats(db_name, tbl_name, part_name, col_name), kStats);
    return true;
  });
}

bool HmsHandler::delete_table_column_statistics(const std::string& db_name,
                                                const std::string& tbl_name,
                                                const std::string& col_name,
                                                const std::string& /*engine*/) {
  return Audited(hooks(), "delete_table_column_statistics", db_name + "." + tbl_name + " column " + col_name, [&] {
    Check(core_->DeleteColumnStats(db_name, tbl_name, "", col_name), kStats);
    return true;
  });
}

// ---- functions ----

void HmsHandler::create_function(const hive::Function& func) {
  Audited(hooks(), "create_function", func.dbName + "." + func.functionName, [&] { Check(core_->CreateFunction(func), kCreate); });
}

void HmsHandler::drop_function(const std::string& dbName, const std::string& funcName) {
  Audited(hooks(), "drop_function", dbName + "." + funcName, [&] { Check(core_->DropFunction(dbName, funcName), kLookup); });
}

void HmsHandler::get_functions(std::vector<std::string>& _return, const std::string& dbName,
                               const std::string& pattern) {
  Guard("get_functions", Ex::kMeta,
        [&] { _return = Get(core_->GetFunctionNames(dbName, pattern), kPlain); });
}

void HmsHandler::get_function(hive::Function& _return, const std::string& dbName,
                              const std::string& funcName) {
  Guard("get_function", Ex::kMeta,
        [&] { _return = Get(core_->GetFunction(dbName, funcName), kLookup); });
}

void HmsHandler::get_all_functions(hive::GetAllFunctionsResponse& _return) {
  Guard("get_all_functions", Ex::kMeta,
        [&] { _return.__set_functions(Get(core_->GetAllFunctions(), kPlain)); });
}

// ---- notification log ----

void HmsHandler::get_next_notification(hive::NotificationEventResponse& _return,
                                       const hive::NotificationEventRequest& rqst) {
  Guard("get_next_notification", Ex::kApp, [&] {
    _return.events = Get(core_->GetNextNotifications(
                             rqst.lastEvent, rqst.__isset.maxEvents ? rqst.maxEvents : 0),
                         kApp);
  });
}

void HmsHandler::get_current_notificationEventId(hive::CurrentNotificationEventId& _return) {
  Guard("get_current_notificationEventId", Ex::kApp,
        [&] { _return.eventId = Get(core_->CurrentNotificationEventId(), kApp); });
}

}  // namespace ics::catalog::hms
