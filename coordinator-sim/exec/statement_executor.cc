// StatementExecutor: parse, catalog-free analysis, then dispatch to the
// per-area executors (see exec_context.h and exec_statements.h).
#include "coordinator-sim/exec/statement_executor.h"

#include <cctype>

#include "common/sql/analyzer.h"
#include "common/sql/parser.h"
#include "coordinator-sim/exec/exec_context.h"
#include "coordinator-sim/exec/exec_statements.h"

namespace ics::coord {

bool SessionState::sync_ddl() const {
  auto it = options.find("SYNC_DDL");
  return it != options.end() && (it->second == "1" || it->second == "true" || it->second == "TRUE");
}

namespace {

using K = sql::StatementKind;

Result<StatementResult> Dispatch(const exec::ExecContext& ctx, const sql::Statement& stmt) {
  switch (stmt.kind) {
    case K::kCreateDatabase: return exec::ExecCreateDatabase(ctx, *stmt.As<sql::CreateDatabaseStmt>());
    case K::kDropDatabase: return exec::ExecDropDatabase(ctx, *stmt.As<sql::DropDatabaseStmt>());
    case K::kAlterDatabaseSetOwner:
      return exec::ExecAlterDatabaseSetOwner(ctx, *stmt.As<sql::AlterDatabaseSetOwnerStmt>());
    case K::kCreateTable: return exec::ExecCreateTable(ctx, *stmt.As<sql::CreateTableStmt>());
    case K::kCreateTableLike:
      return exec::ExecCreateTableLike(ctx, *stmt.As<sql::CreateTableLikeStmt>());
    case K::kCreateView: return exec::ExecCreateView(ctx, *stmt.As<sql::CreateViewStmt>());
    case K::kAlterView: return exec::ExecAlterView(ctx, *stmt.As<sql::AlterViewStmt>());
    case K::kAlterViewSetTblProperties:
      return exec::ExecAlterViewSetTblProperties(ctx, *stmt.As<sql::AlterViewSetTblPropertiesStmt>());
    case K::kAlterViewUnsetTblProperties:
      return exec::ExecAlterViewUnsetTblProperties(ctx,
                                                   *stmt.As<sql::AlterViewUnsetTblPropertiesStmt>());
    case K::kDropTable: return exec::ExecDropTable(ctx, *stmt.As<sql::DropTableStmt>());
    case K::kDropView: return exec::ExecDropView(ctx, *stmt.As<sql::DropViewStmt>());
    case K::kAlterTableAddPartitions:
    case K::kAlterTableDropPartitions:
    case K::kAlterTableAddColumns:
    case K::kAlterTableReplaceColumns:
    case K::kAlterTableDropColumn:
    case K::kAlterTableChangeColumn:
    case K::kAlterTableRename:
    case K::kAlterTableSetTblProperties:
    case K::kAlterTableUnsetTblProperties:
    case K::kAlterTableSetLocation:
    case K::kAlterTableSetFileFormat:
    case K::kAlterTableSetOwner:
    case K::kAlterTableRecoverPartitions:
      return exec::ExecAlterTable(ctx, stmt);
    case K::kTruncate: return exec::ExecTruncate(ctx, *stmt.As<sql::TruncateStmt>());
    case K::kComputeStats: return exec::ExecComputeStats(ctx, *stmt.As<sql::ComputeStatsStmt>());
    case K::kDropStats: return exec::ExecDropStats(ctx, *stmt.As<sql::DropStatsStmt>());
    case K::kInsert: return exec::ExecInsert(ctx, *stmt.As<sql::InsertStmt>());
    case K::kShow: return exec::ExecShow(ctx, *stmt.As<sql::ShowStmt>());
    case K::kDescribe: return exec::ExecDescribe(ctx, *stmt.As<sql::DescribeStmt>());
    case K::kDescribeDatabase:
      return exec::ExecDescribeDatabase(ctx, *stmt.As<sql::DescribeDatabaseStmt>());
    case K::kSelect:
      return Status(ErrorCode::kNotImplemented,
                    "only EXPLAIN SELECT is supported by the simulated coordinator");
    case K::kExplain: return exec::ExecExplain(ctx, *stmt.As<sql::ExplainStmt>());
    case K::kInvalidateMetadata:
      return exec::ExecInvalidate(ctx, *stmt.As<sql::InvalidateMetadataStmt>());
    case K::kRefresh: return exec::ExecRefresh(ctx, *stmt.As<sql::RefreshStmt>());
    case K::kUse: return exec::ExecUse(ctx, *stmt.As<sql::UseStmt>());
    case K::kSet: return exec::ExecSet(ctx, *stmt.As<sql::SetStmt>());
    case K::kCommentOn: return exec::ExecCommentOn(ctx, *stmt.As<sql::CommentOnStmt>());
  }
  return Status::NotImplemented("unsupported statement: " +
                                std::string(sql::StatementKindName(stmt.kind)));
}

// The statement's first word, upper-cased ("CREATE", "SHOW", ...), for the log.
std::string FirstKeyword(std::string_view sql) {
  size_t b = 0;
  while (b < sql.size() && std::isspace(static_cast<unsigned char>(sql[b]))) ++b;
  size_t e = b;
  while (e < sql.size() && std::isalpha(static_cast<unsigned char>(sql[e])) && e - b < 32) ++e;
  std::string word(sql.substr(b, e - b));
  for (char& c : word) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return word.empty() ? "?" : word;
}

}  // namespace

Result<StatementResult> StatementExecutor::Execute(std::string_view sql, SessionState* session) {
  if (session == nullptr) return Status::InvalidArgument("Execute needs a session");
  ScopedOperation op(statements_, FirstKeyword(sql), std::string(sql), "db=" + session->db);
  Result<StatementResult> r = Run(sql, session);
  if (r.ok()) {
    op.End(Status::OK(), r->rows.empty() ? "" : std::to_string(r->rows.size()) + " row(s)");
  } else {
    op.End(r.status());
  }
  return r;
}

Result<StatementResult> StatementExecutor::Run(std::string_view sql, SessionState* session) {
  ICS_ASSIGN_OR_RETURN(std::unique_ptr<sql::Statement> stmt, sql::ParseStatement(sql));
  ICS_RETURN_IF_ERROR(sql::AnalyzeStatement(*stmt));
  // Like an Impala coordinator, serve nothing before the catalog has arrived.
  ICS_RETURN_IF_ERROR(backend_->WaitForCatalogReady());
  // A RECOVERABLE_ERROR before any change (the table changed under the
  // statement, e.g. partitions it resolved were replaced) is retried with
  // fresh metadata, a bounded number of times.
  constexpr int kMaxAttempts = 3;
  for (int attempt = 1;; ++attempt) {
    exec::ExecContext ctx;
    ctx.backend = backend_;
    ctx.session = session;
    Result<StatementResult> r = Dispatch(ctx, *stmt);
    if (r.ok() || !r.status().Is(ErrorCode::kRecoverableError) || ctx.side_effects ||
        attempt == kMaxAttempts) {
      return r;
    }
  }
}

}  // namespace ics::coord
