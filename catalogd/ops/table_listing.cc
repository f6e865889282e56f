// TableCommands: GetTables and BatchDeleteTable.
#include <algorithm>
#include <optional>
#include <set>

#include "catalogd/ops/table_commands.h"
#include "catalogd/ops/table_limits.h"
#include "common/hive/table_type.h"

namespace ics::catalog::ops {

TableCommands::TableCommands(CatalogContext* ctx, CommandCore* commands, CatalogQueries* queries)
    : ctx_(ctx), commands_(commands), queries_(queries), directory_(queries) {}

Result<TablePage> TableCommands::GetTables(const Caller& caller, const ListTablesRequest& req) {
  ICS_ASSIGN_OR_RETURN(std::string db, NormalizeDb(req.db));
  ICS_ASSIGN_OR_RETURN(int max,
                       CheckMaxResults(req.max_results.has_value(), req.max_results.value_or(0),
                                       kMaxGetTablesResults, kMaxGetTablesResults));
  std::optional<NamePattern> pattern;
  if (req.expression && !req.expression->empty()) {
    ICS_ASSIGN_OR_RETURN(NamePattern p, NamePattern::Parse(*req.expression));
    pattern = std::move(p);
  }
  std::string after;
  if (req.next_token) {
    Result<std::string> token = NormalizeTable(*req.next_token);
    if (!token.ok()) return Status::InvalidArgument("invalid NextToken '" + *req.next_token + "'");
    after = *token;
  }
  if (req.as_of_time_ms && *req.as_of_time_ms < 0) {
    return Status::InvalidArgument("QueryAsOfTime must not be negative");
  }
  if (ctx_->catalog->GetDatabase(db) == nullptr) {
    return Status::NotFound("Database does not exist: " + db);
  }
  std::vector<TablePtr> tables = ctx_->catalog->TablesOf(db);
  std::sort(tables.begin(), tables.end(),
            [](const TablePtr& a, const TablePtr& b) { return a->name < b->name; });
  TablePage page;
  for (const TablePtr& t : tables) {
    if (!after.empty() && t->name <= after) continue;
    if (pattern && !pattern->Matches(t->name)) continue;
    if (static_cast<int>(page.tables.size()) == max) {
      page.next_token = page.tables.back().table.tableName;
      break;
    }
    if (req.as_of_time_ms) {
      Result<TableVersionRecord> then =
          queries_->TableVersionAsOf(caller, db, t->name, *req.as_of_time_ms);
      if (!then.ok()) {
        if (then.status().Is(ErrorCode::kNotFound)) continue;  // no version at that time
        return then.status();
      }
      page.tables.push_back(std::move(then).value());
      continue;
    }
    Result<TableInfoPtr> info = directory_.Get(caller, *t);
    if (!info.ok()) {
      if (info.status().Is(ErrorCode::kNotFound)) continue;  // dropped meanwhile
      return info.status();
    }
    page.tables.push_back(**info);
  }
  return page;
}

Result<std::vector<TableFailure>> TableCommands::BatchDeleteTable(const Caller& caller,
                                                                  const DeleteTablesRequest& req) {
  ICS_ASSIGN_OR_RETURN(std::string db, NormalizeDb(req.db));
  ICS_RETURN_IF_ERROR(CheckListSize("TablesToDelete", req.tables.size(), kMaxBatchDeleteTables));
  if (ctx_->catalog->GetDatabase(db) == nullptr) {
    return Status::NotFound("Database does not exist: " + db);
  }
  std::vector<TableFailure> errors;
  std::set<std::string> done;
  for (const std::string& raw : req.tables) {
    Result<std::string> name = NormalizeTable(raw);
    if (!name.ok()) {
      errors.push_back(TableFailure{raw, name.status()});
      continue;
    }
    if (!done.insert(*name).second) continue;  // listed twice: dropped once
    // Views and tables are dropped alike.
    DropTableCommand drop;
    drop.db = db;
    drop.table = *name;
    Result<DdlOutcome> out = commands_->DropTable(caller, drop);
    if (!out.ok()) errors.push_back(TableFailure{*name, out.status()});
  }
  return errors;
}

}  // namespace ics::catalog::ops
