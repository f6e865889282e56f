// TableCommands: GetTable, UpdateTable and table versions.
#include <ctime>
#include <set>

#include "catalogd/loader/partition_stats_params.h"
#include "catalogd/ops/table_commands.h"
#include "catalogd/ops/table_limits.h"
#include "common/hive/table_params.h"
#include "common/hive/table_type.h"

namespace ics::catalog::ops {

namespace {

bool IsViewType(const std::string& type) { return type == kVirtualView; }

// Statistics kept by the catalog in table parameters; UpdateTable carries
// them over unless the input sets them.
bool IsStatsParam(const std::string& key) {
  return key == kNumRowsParam || key == kTotalSizeParam || key == kStatsNumChunksParam ||
         key.rfind(kStatsChunkParamPrefix, 0) == 0;
}

// Checks the input's limits and lower-cases its column names.
Status CheckInput(TableInput* in) {
  if (in->description) {
    ICS_RETURN_IF_ERROR(
        CheckField("Description", *in->description, 0, kMaxDescriptionBytes, false));
  }
  if (in->owner) ICS_RETURN_IF_ERROR(CheckField("Owner", *in->owner, 1, kMaxNameBytes, true));
  if (in->retention && *in->retention < 0) {
    return Status::InvalidArgument("Retention must not be negative, got " +
                                   std::to_string(*in->retention));
  }
  if (in->last_access_time && *in->last_access_time < 0) {
    return Status::InvalidArgument("LastAccessTime must not be negative");
  }
  if (in->sd) ICS_RETURN_IF_ERROR(CheckStorageDescriptor(&*in->sd));
  if (in->partition_keys) {
    ICS_RETURN_IF_ERROR(CheckColumns("partition key", &*in->partition_keys));
  }
  ICS_RETURN_IF_ERROR(
      CheckField("ViewOriginalText", in->view_original_text, 0, kMaxViewTextBytes, false));
  ICS_RETURN_IF_ERROR(
      CheckField("ViewExpandedText", in->view_expanded_text, 0, kMaxViewTextBytes, false));
  if (in->table_type) {
    ICS_RETURN_IF_ERROR(CheckField("TableType", *in->table_type, 1, kMaxTableTypeBytes, true));
  }
  return CheckParameters("parameter", in->parameters);
}

// The new metastore object: `in` replacing the definition of `cur`.
Result<hive::Table> ApplyInput(const TableInput& in, const hive::Table& cur) {
  const std::string full = cur.dbName + "." + cur.tableName;
  hive::Table next = cur;
  next.owner = in.owner.value_or("");
  next.lastAccessTime = in.last_access_time.value_or(0);
  next.retention = in.retention.value_or(0);
  if (in.sd) next.sd = *in.sd;
  if (in.partition_keys) {
    const std::vector<hive::FieldSchema>& keys = *in.partition_keys;
    bool same = keys.size() == cur.partitionKeys.size();
    for (size_t i = 0; same && i < cur.partitionKeys.size(); ++i) {
      same = keys[i].name == cur.partitionKeys[i].name && keys[i].type == cur.partitionKeys[i].type;
    }
    if (!same) {
      return Status::InvalidArgument("the partition keys of " + full +
                                     " cannot be changed by UpdateTable");
    }
    next.partitionKeys = keys;  // same keys; new comments
  }
  if (in.table_type) {
    if (IsViewType(*in.table_type) != IsViewType(cur.tableType)) {
      return Status::InvalidArgument("UpdateTable cannot turn " + full + " from " + cur.tableType +
                                     " into " + *in.table_type);
    }
    next.tableType = *in.table_type;
  }
  next.viewOriginalText = in.view_original_text;
  next.viewExpandedText = in.view_expanded_text;
  next.parameters = in.parameters;
  for (const auto& [k, v] : cur.parameters) {
    if (IsStatsParam(k) && next.parameters.count(k) == 0) next.parameters[k] = v;
  }
  if (in.description) {
    next.parameters[kDescriptionParam] = *in.description;
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

}  // namespace

Result<TableVersionRecord> TableCommands::GetTable(const Caller& caller,
                                                   const GetTableRequest& req) {
  ICS_ASSIGN_OR_RETURN(NormalizedTable n, NormalizeTableName(req.db, req.table));
  if (req.as_of_time_ms && req.version_id) {
    return Status::InvalidArgument("QueryAsOfTime and VersionId cannot be given together");
  }
  if (req.as_of_time_ms) {
    if (*req.as_of_time_ms < 0) {
      return Status::InvalidArgument("QueryAsOfTime must not be negative");
    }
    return queries_->TableVersionAsOf(caller, n.db, n.table, *req.as_of_time_ms);
  }
  return GetTableVersion(caller, GetTableVersionRequest{n.db, n.table, req.version_id});
}

Result<UpdatedTable> TableCommands::UpdateTable(const Caller& caller,
                                                const UpdateTableRequest& req) {
  TableInput in = req.input;
  ICS_ASSIGN_OR_RETURN(NormalizedTable n, NormalizeTableName(req.db, in.name));
  ICS_RETURN_IF_ERROR(CheckInput(&in));
  int64_t expected = 0;
  if (req.expected_version_id) {
    ICS_ASSIGN_OR_RETURN(expected, ParseVersionId(*req.expected_version_id));
  }
  const bool archive = !req.skip_archive;
  int64_t new_version = 0;
  TableChange change;
  change.db = n.db;
  change.table = n.table;
  change.summary = "Table has been updated.";
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
  ICS_ASSIGN_OR_RETURN(DdlOutcome out, commands_->ChangeTable(caller, "UPDATE_TABLE", change));
  return UpdatedTable{new_version, out.version};
}

Result<TableVersionRecord> TableCommands::GetTableVersion(const Caller& caller,
                                                          const GetTableVersionRequest& req) {
  ICS_ASSIGN_OR_RETURN(NormalizedTable n, NormalizeTableName(req.db, req.table));
  int64_t id = 0;
  if (req.version_id) {
    ICS_ASSIGN_OR_RETURN(id, ParseVersionId(*req.version_id));
  }
  return queries_->TableVersion(caller, n.db, n.table, id);
}

Result<TableVersionPage> TableCommands::GetTableVersions(const Caller& caller,
                                                         const ListTableVersionsRequest& req) {
  ICS_ASSIGN_OR_RETURN(NormalizedTable n, NormalizeTableName(req.db, req.table));
  ICS_ASSIGN_OR_RETURN(int max,
                       CheckMaxResults(req.max_results.has_value(), req.max_results.value_or(0),
                                       kMaxTableVersionsResults, kMaxTableVersionsResults));
  int64_t below = 0;
  if (req.next_token) {
    Result<int64_t> token = ParseVersionId(*req.next_token);
    if (!token.ok()) return Status::InvalidArgument("invalid NextToken '" + *req.next_token + "'");
    below = *token;
  }
  TableVersionPage page;
  if (below == 0) {
    ICS_ASSIGN_OR_RETURN(TableVersionRecord cur,
                         queries_->CurrentTableVersion(caller, n.db, n.table));
    page.versions.push_back(std::move(cur));
  }
  const int remaining = max - static_cast<int>(page.versions.size());
  ICS_ASSIGN_OR_RETURN(
      std::vector<TableVersionRecord> archived,
      queries_->ArchivedTableVersions(caller, n.db, n.table, below, remaining + 1));
  const bool more = static_cast<int>(archived.size()) > remaining;
  for (int i = 0; i < remaining && i < static_cast<int>(archived.size()); ++i) {
    page.versions.push_back(std::move(archived[i]));
  }
  if (more) page.next_token = std::to_string(page.versions.back().version_id);
  return page;
}

Status TableCommands::DeleteTableVersion(const Caller& caller, const std::string& db,
                                         const std::string& table, const std::string& version_id) {
  DeleteTableVersionsRequest batch;
  batch.db = db;
  batch.table = table;
  batch.version_ids = {version_id};
  ICS_ASSIGN_OR_RETURN(std::vector<TableVersionFailure> errors,
                       BatchDeleteTableVersion(caller, batch));
  if (errors.empty()) return Status::OK();
  return errors[0].error;
}

Result<std::vector<TableVersionFailure>> TableCommands::BatchDeleteTableVersion(
    const Caller& caller, const DeleteTableVersionsRequest& req) {
  ICS_ASSIGN_OR_RETURN(NormalizedTable n, NormalizeTableName(req.db, req.table));
  ICS_RETURN_IF_ERROR(CheckListSize("VersionIds", req.version_ids.size(), kMaxBatchDeleteVersions));
  std::vector<TableVersionFailure> errors;
  auto fail = [&](const std::string& id, const Status& s) {
    errors.push_back(TableVersionFailure{n.table, id, s});
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
  ICS_ASSIGN_OR_RETURN(DdlOutcome out,
                       commands_->ChangeTable(caller, "DELETE_TABLE_VERSION", change));
  (void)out;
  return errors;
}

}  // namespace ics::catalog::ops
