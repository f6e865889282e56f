// TableService: GetTable, UpdateTable and table versions.
#include <ctime>
#include <set>

#include "catalogd/loader/partition_stats_params.h"
#include "catalogd/mds/service_status.h"
#include "catalogd/mds/table_limits.h"
#include "catalogd/mds/table_service.h"
#include "common/hive/table_params.h"
#include "common/hive/table_type.h"

namespace ics::catalog::mds {

namespace {

bool IsViewType(const std::string& type) { return type == kVirtualView; }

// Statistics kept by the catalog in table parameters; UpdateTable carries
// them over unless the input sets them.
bool IsStatsParam(const std::string& key) {
  return key == kNumRowsParam || key == kTotalSizeParam || key == kStatsNumChunksParam ||
         key.rfind(kStatsChunkParamPrefix, 0) == 0;
}

// Checks the input's limits and lower-cases its column names.
Status CheckInput(thrift::TTableInput* in) {
  if (in->__isset.description) {
    ICS_RETURN_IF_ERROR(
        CheckField("Description", in->description, 0, kMaxDescriptionBytes, false));
  }
  if (in->__isset.owner) ICS_RETURN_IF_ERROR(CheckField("Owner", in->owner, 1, kMaxNameBytes, true));
  if (in->__isset.retention && in->retention < 0) {
    return Status::InvalidArgument("Retention must not be negative, got " +
                                   std::to_string(in->retention));
  }
  if (in->__isset.last_access_time && in->last_access_time < 0) {
    return Status::InvalidArgument("LastAccessTime must not be negative");
  }
  if (in->__isset.sd) ICS_RETURN_IF_ERROR(CheckStorageDescriptor(&in->sd));
  if (in->__isset.partition_keys) {
    ICS_RETURN_IF_ERROR(CheckColumns("partition key", &in->partition_keys));
  }
  ICS_RETURN_IF_ERROR(
      CheckField("ViewOriginalText", in->view_original_text, 0, kMaxViewTextBytes, false));
  ICS_RETURN_IF_ERROR(
      CheckField("ViewExpandedText", in->view_expanded_text, 0, kMaxViewTextBytes, false));
  if (in->__isset.table_type) {
    ICS_RETURN_IF_ERROR(CheckField("TableType", in->table_type, 1, kMaxTableTypeBytes, true));
  }
  return CheckParameters("parameter", in->parameters);
}

// The new metastore object: `in` replacing the definition of `cur`.
Result<hive::Table> ApplyInput(const thrift::TTableInput& in, const hive::Table& cur) {
  const std::string full = cur.dbName + "." + cur.tableName;
  hive::Table next = cur;
  next.owner = in.__isset.owner ? in.owner : "";
  next.lastAccessTime = in.__isset.last_access_time ? in.last_access_time : 0;
  next.retention = in.__isset.retention ? in.retention : 0;
  if (in.__isset.sd) next.sd = in.sd;
  if (in.__isset.partition_keys) {
    bool same = in.partition_keys.size() == cur.partitionKeys.size();
    for (size_t i = 0; same && i < cur.partitionKeys.size(); ++i) {
      same = in.partition_keys[i].name == cur.partitionKeys[i].name &&
             in.partition_keys[i].type == cur.partitionKeys[i].type;
    }
    if (!same) {
      return Status::InvalidArgument("the partition keys of " + full +
                                     " cannot be changed by UpdateTable");
    }
    next.partitionKeys = in.partition_keys;  // same keys; new comments
  }
  if (in.__isset.table_type) {
    if (IsViewType(in.table_type) != IsViewType(cur.tableType)) {
      return Status::InvalidArgument("UpdateTable cannot turn " + full + " from " +
                                     cur.tableType + " into " + in.table_type);
    }
    next.tableType = in.table_type;
  }
  next.viewOriginalText = in.view_original_text;
  next.viewExpandedText = in.view_expanded_text;
  next.parameters = in.parameters;
  for (const auto& [k, v] : cur.parameters) {
    if (IsStatsParam(k) && next.parameters.count(k) == 0) next.parameters[k] = v;
  }
  if (in.__isset.description) {
    next.parameters[kDescriptionParam] = in.description;
  }
  if (IsViewType(next.tableType) && next.viewExpandedText.empty()) {
    return Status::InvalidArgument("view " + full + " needs ViewExpandedText");
  }
  for (const hive::FieldSchema& c : next.sd.cols) {
    for (const hive::FieldSchema& k : next.partitionKeys) {
      if (c.name == k.name) {
        return Status::InvalidArgument("column '" + c.name + "' of " + full +
                                       " is also a partition key");
      }
    }
  }
  next.parameters[kLastDdlTimeParam] = std::to_string(std::time(nullptr));
  return next;
}

thrift::TTableVersion ToVersion(const TableVersionRecord& r) {
  thrift::TTableVersion v;
  v.table = ToTableInfo(r);
  v.version_id = std::to_string(r.version_id);
  v.__set_archived_time_ms(r.archived_ms);
  return v;
}

struct TableName {
  std::string db;
  std::string table;
};

Result<TableName> Names(const std::string& db, const std::string& table) {
  TableName n;
  ICS_ASSIGN_OR_RETURN(n.db, NormalizeDb(db));
  ICS_ASSIGN_OR_RETURN(n.table, NormalizeTable(table));
  return n;
}

}  // namespace

Result<thrift::TTableInfo> TableService::GetTable(const thrift::TGetTableRequest& req) {
  ICS_ASSIGN_OR_RETURN(TableName n, Names(req.db_name, req.table_name));
  if (req.__isset.query_as_of_time_ms && req.__isset.version_id) {
    return Status::InvalidArgument("QueryAsOfTime and VersionId cannot be given together");
  }
  const ops::Caller caller = Caller();
  if (req.__isset.query_as_of_time_ms) {
    if (req.query_as_of_time_ms < 0) {
      return Status::InvalidArgument("QueryAsOfTime must not be negative");
    }
    ICS_ASSIGN_OR_RETURN(TableVersionRecord r, queries_->TableVersionAsOf(caller, n.db, n.table,
                                                                          req.query_as_of_time_ms));
    return ToTableInfo(r);
  }
  int64_t id = 0;
  if (req.__isset.version_id) {
    ICS_ASSIGN_OR_RETURN(id, ParseVersionId(req.version_id));
  }
  ICS_ASSIGN_OR_RETURN(TableVersionRecord r, queries_->TableVersion(caller, n.db, n.table, id));
  return ToTableInfo(r);
}

Result<thrift::TUpdateTableResponse> TableService::UpdateTable(
    const thrift::TUpdateTableRequest& req) {
  thrift::TTableInput in = req.table_input;
  ICS_ASSIGN_OR_RETURN(TableName n, Names(req.db_name, in.name));
  ICS_RETURN_IF_ERROR(CheckInput(&in));
  int64_t expected = 0;
  if (req.__isset.expected_version_id) {
    ICS_ASSIGN_OR_RETURN(expected, ParseVersionId(req.expected_version_id));
  }
  const bool archive = !(req.__isset.skip_archive && req.skip_archive);
  int64_t new_version = 0;
  TableChange change;
  change.db = n.db;
  change.table = n.table;
  change.summary = "Table has been updated.";
  const ops::Caller caller = Caller();
  change.plan = [&](const TableState&, const hive::Table& hms) -> Result<TableEdits> {
    ICS_ASSIGN_OR_RETURN(TableVersionRecord cur,
                         queries_->CurrentTableVersion(caller, n.db, n.table));
    if (expected != 0 && expected != cur.version_id) {
      return Status(ErrorCode::kRecoverableError,
                    "table " + n.db + "." + n.table + " is at version " +
                        std::to_string(cur.version_id) + ", not the expected version " +
                        std::to_string(expected) + "; re-read it and retry");
    }
    TableEdits edits;
    ICS_ASSIGN_OR_RETURN(edits.definition, ApplyInput(in, hms));
    edits.new_version = true;
    edits.archive_replaced = archive;
    new_version = cur.version_id + 1;
    return edits;
  };
  ICS_ASSIGN_OR_RETURN(DdlOutcome out, Change("UPDATE_TABLE", change));
  thrift::TUpdateTableResponse resp;
  resp.__set_version_id(std::to_string(new_version));
  resp.__set_catalog_version(out.version);
  return resp;
}

Result<thrift::TTableVersion> TableService::GetTableVersion(
    const thrift::TGetTableVersionRequest& req) {
  ICS_ASSIGN_OR_RETURN(TableName n, Names(req.db_name, req.table_name));
  int64_t id = 0;
  if (req.__isset.version_id) {
    ICS_ASSIGN_OR_RETURN(id, ParseVersionId(req.version_id));
  }
  ICS_ASSIGN_OR_RETURN(TableVersionRecord r, queries_->TableVersion(Caller(), n.db, n.table, id));
  return ToVersion(r);
}

Result<thrift::TGetTableVersionsResponse> TableService::GetTableVersions(
    const thrift::TGetTableVersionsRequest& req) {
  ICS_ASSIGN_OR_RETURN(TableName n, Names(req.db_name, req.table_name));
  ICS_ASSIGN_OR_RETURN(int max, CheckMaxResults(req.__isset.max_results, req.max_results,
                                                kMaxTableVersionsResults,
                                                kMaxTableVersionsResults));
  int64_t below = 0;
  if (req.__isset.next_token) {
    Result<int64_t> token = ParseVersionId(req.next_token);
    if (!token.ok()) return Status::InvalidArgument("invalid NextToken '" + req.next_token + "'");
    below = *token;
  }
  const ops::Caller caller = Caller();
  std::vector<TableVersionRecord> items;
  if (below == 0) {
    ICS_ASSIGN_OR_RETURN(TableVersionRecord cur,
                         queries_->CurrentTableVersion(caller, n.db, n.table));
    items.push_back(std::move(cur));
  }
  const int remaining = max - static_cast<int>(items.size());
  ICS_ASSIGN_OR_RETURN(
      std::vector<TableVersionRecord> archived,
      queries_->ArchivedTableVersions(caller, n.db, n.table, below, remaining + 1));
  const bool more = static_cast<int>(archived.size()) > remaining;
  for (int i = 0; i < remaining && i < static_cast<int>(archived.size()); ++i) {
    items.push_back(std::move(archived[i]));
  }
  thrift::TGetTableVersionsResponse resp;
  resp.__isset.table_versions = true;
  for (const TableVersionRecord& r : items) resp.table_versions.push_back(ToVersion(r));
  if (more) resp.__set_next_token(std::to_string(items.back().version_id));
  return resp;
}

Status TableService::DeleteTableVersion(const thrift::TDeleteTableVersionRequest& req) {
  thrift::TBatchDeleteTableVersionRequest batch;
  batch.db_name = req.db_name;
  batch.table_name = req.table_name;
  batch.version_ids = {req.version_id};
  ICS_ASSIGN_OR_RETURN(std::vector<thrift::TTableVersionError> errors,
                       BatchDeleteTableVersion(batch));
  if (errors.empty()) return Status::OK();
  const thrift::TMetastoreServiceStatus& e = errors[0].error;
  const std::string msg = e.__isset.message ? e.message : "cannot delete the version";
  return e.code == thrift::TMetastoreServiceErrorCode::NOT_FOUND ? Status::NotFound(msg)
                                                                 : Status::InvalidArgument(msg);
}

Result<std::vector<thrift::TTableVersionError>> TableService::BatchDeleteTableVersion(
    const thrift::TBatchDeleteTableVersionRequest& req) {
  ICS_ASSIGN_OR_RETURN(TableName n, Names(req.db_name, req.table_name));
  ICS_RETURN_IF_ERROR(CheckListSize("VersionIds", req.version_ids.size(),
                                    kMaxBatchDeleteVersions));
  std::vector<thrift::TTableVersionError> errors;
  auto fail = [&](const std::string& id, const Status& s) {
    thrift::TTableVersionError e;
    e.table_name = n.table;
    e.version_id = id;
    e.error = ToServiceStatus(s);
    errors.push_back(std::move(e));
  };
  std::vector<std::pair<std::string, int64_t>> ids;
  for (const std::string& id : req.version_ids) {
    Result<int64_t> v = ParseVersionId(id);
    if (!v.ok()) {
      fail(id, v.status());
    } else {
      ids.emplace_back(id, *v);
    }
  }
  TableChange change;
  change.db = n.db;
  change.table = n.table;
  change.summary = "Table versions have been deleted.";
  const ops::Caller caller = Caller();
  change.plan = [&](const TableState&, const hive::Table&) -> Result<TableEdits> {
    ICS_ASSIGN_OR_RETURN(TableVersionRecord cur,
                         queries_->CurrentTableVersion(caller, n.db, n.table));
    TableEdits edits;
    std::set<int64_t> seen;
    for (const auto& [text, id] : ids) {
      if (!seen.insert(id).second) continue;
      if (id == cur.version_id) {
        fail(text, Status::InvalidArgument("version " + text + " of " + n.db + "." + n.table +
                                           " is the current version and cannot be deleted"));
        continue;
      }
      Result<TableVersionRecord> r = queries_->ArchivedTableVersion(caller, n.db, n.table, id);
      if (!r.ok()) {
        if (!r.status().Is(ErrorCode::kNotFound)) return r.status();
        fail(text, r.status());
        continue;
      }
      edits.deleted_versions.push_back(id);
    }
    return edits;
  };
  ICS_ASSIGN_OR_RETURN(DdlOutcome out, Change("DELETE_TABLE_VERSION", change));
  (void)out;
  return errors;
}

}  // namespace ics::catalog::mds
