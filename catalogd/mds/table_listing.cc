// TableService: GetTables and BatchDeleteTable.
#include <algorithm>
#include <optional>
#include <set>

#include "catalogd/mds/service_status.h"
#include "catalogd/mds/table_limits.h"
#include "catalogd/mds/table_service.h"
#include "common/hive/table_type.h"

namespace ics::catalog::mds {

TableService::TableService(CatalogContext* ctx, ops::CommandCore* commands,
                           ops::CatalogQueries* queries)
    : ctx_(ctx), commands_(commands), queries_(queries), directory_(queries) {}

ops::Caller TableService::Caller() { return ops::CallerOfCurrentRpc("TableService"); }

Result<DdlOutcome> TableService::Change(const char* what, const TableChange& change) {
  return commands_->ChangeTable(Caller(), what, change);
}

Result<thrift::TGetTablesResponse> TableService::GetTables(const thrift::TGetTablesRequest& req) {
  ICS_ASSIGN_OR_RETURN(std::string db, NormalizeDb(req.db_name));
  ICS_ASSIGN_OR_RETURN(int max, CheckMaxResults(req.__isset.max_results, req.max_results,
                                                kMaxGetTablesResults, kMaxGetTablesResults));
  std::optional<NamePattern> pattern;
  if (req.__isset.expression && !req.expression.empty()) {
    ICS_ASSIGN_OR_RETURN(NamePattern p, NamePattern::Parse(req.expression));
    pattern = std::move(p);
  }
  std::string after;
  if (req.__isset.next_token) {
    Result<std::string> token = NormalizeTable(req.next_token);
    if (!token.ok()) return Status::InvalidArgument("invalid NextToken '" + req.next_token + "'");
    after = *token;
  }
  if (req.__isset.query_as_of_time_ms && req.query_as_of_time_ms < 0) {
    return Status::InvalidArgument("QueryAsOfTime must not be negative");
  }
  if (ctx_->catalog->GetDatabase(db) == nullptr) {
    return Status::NotFound("Database does not exist: " + db);
  }
  std::vector<TablePtr> tables = ctx_->catalog->TablesOf(db);
  std::sort(tables.begin(), tables.end(),
            [](const TablePtr& a, const TablePtr& b) { return a->name < b->name; });
  const ops::Caller caller = Caller();
  thrift::TGetTablesResponse resp;
  resp.__isset.tables = true;
  for (const TablePtr& t : tables) {
    if (!after.empty() && t->name <= after) continue;
    if (pattern && !pattern->Matches(t->name)) continue;
    if (static_cast<int>(resp.tables.size()) == max) {
      resp.__set_next_token(resp.tables.back().table.tableName);
      break;
    }
    if (req.__isset.query_as_of_time_ms) {
      Result<TableVersionRecord> then =
          queries_->TableVersionAsOf(caller, db, t->name, req.query_as_of_time_ms);
      if (!then.ok()) {
        if (then.status().Is(ErrorCode::kNotFound)) continue;  // no version at that time
        return then.status();
      }
      resp.tables.push_back(ToTableInfo(*then));
      continue;
    }
    Result<TableInfoPtr> info = directory_.Get(caller, *t);
    if (!info.ok()) {
      if (info.status().Is(ErrorCode::kNotFound)) continue;  // dropped meanwhile
      return info.status();
    }
    resp.tables.push_back(**info);
  }
  return resp;
}

Result<std::vector<thrift::TTableError>> TableService::BatchDeleteTable(
    const thrift::TBatchDeleteTableRequest& req) {
  ICS_ASSIGN_OR_RETURN(std::string db, NormalizeDb(req.db_name));
  ICS_RETURN_IF_ERROR(
      CheckListSize("TablesToDelete", req.tables_to_delete.size(), kMaxBatchDeleteTables));
  if (ctx_->catalog->GetDatabase(db) == nullptr) {
    return Status::NotFound("Database does not exist: " + db);
  }
  std::vector<thrift::TTableError> errors;
  auto fail = [&](const std::string& name, const Status& s) {
    thrift::TTableError e;
    e.table_name = name;
    e.error = ToServiceStatus(s);
    errors.push_back(std::move(e));
  };
  std::set<std::string> done;
  for (const std::string& raw : req.tables_to_delete) {
    Result<std::string> name = NormalizeTable(raw);
    if (!name.ok()) {
      fail(raw, name.status());
      continue;
    }
    if (!done.insert(*name).second) continue;  // listed twice: dropped once
    // Views and tables are dropped alike.
    DropTableCommand drop;
    drop.db = db;
    drop.table = *name;
    Result<DdlOutcome> out = commands_->DropTable(ops::CallerOfCurrentRpc("TableService"), drop);
    if (!out.ok()) fail(*name, out.status());
  }
  return errors;
}

}  // namespace ics::catalog::mds
