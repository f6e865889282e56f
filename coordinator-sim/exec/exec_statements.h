// The statements StatementExecutor runs, one function each (exec_*.cc), and
// the catalogd calls they share.
//
// Thread-safety: stateless functions; the ExecContext belongs to one
// statement.
#pragma once

#include "CatalogService_types.h"
#include "common/sql/ast.h"
#include "coordinator-sim/exec/exec_context.h"

namespace ics::coord::exec {

// ---- catalogd calls ----
// Sends a DDL and returns its summary line as the message.
Result<StatementResult> RunDdl(const ExecContext& ctx, impala::TDdlExecRequest req);
// An ALTER_TABLE request for `t` with the given alter type (params left to the caller).
impala::TDdlExecRequest AlterTableRequest(const LocalTable& t, impala::TAlterTableType::type type);

// ---- statements ----
Result<StatementResult> ExecCreateDatabase(const ExecContext& ctx,
                                           const sql::CreateDatabaseStmt& s);
Result<StatementResult> ExecDropDatabase(const ExecContext& ctx, const sql::DropDatabaseStmt& s);
Result<StatementResult> ExecAlterDatabaseSetOwner(const ExecContext& ctx,
                                                  const sql::AlterDatabaseSetOwnerStmt& s);
Result<StatementResult> ExecCreateTable(const ExecContext& ctx, const sql::CreateTableStmt& s);
Result<StatementResult> ExecCreateTableLike(const ExecContext& ctx,
                                            const sql::CreateTableLikeStmt& s);
Result<StatementResult> ExecCreateView(const ExecContext& ctx, const sql::CreateViewStmt& s);
Result<StatementResult> ExecAlterView(const ExecContext& ctx, const sql::AlterViewStmt& s);
Result<StatementResult> ExecAlterViewSetTblProperties(const ExecContext& ctx,
                                                      const sql::AlterViewSetTblPropertiesStmt& s);
Result<StatementResult> ExecAlterViewUnsetTblProperties(
    const ExecContext& ctx, const sql::AlterViewUnsetTblPropertiesStmt& s);
Result<StatementResult> ExecDropTable(const ExecContext& ctx, const sql::DropTableStmt& s);
Result<StatementResult> ExecDropView(const ExecContext& ctx, const sql::DropViewStmt& s);
Result<StatementResult> ExecTruncate(const ExecContext& ctx, const sql::TruncateStmt& s);
Result<StatementResult> ExecDropStats(const ExecContext& ctx, const sql::DropStatsStmt& s);
Result<StatementResult> ExecCommentOn(const ExecContext& ctx, const sql::CommentOnStmt& s);
// Every ALTER TABLE form.
Result<StatementResult> ExecAlterTable(const ExecContext& ctx, const sql::Statement& s);
Result<StatementResult> ExecShow(const ExecContext& ctx, const sql::ShowStmt& s);
Result<StatementResult> ExecShowCreate(const ExecContext& ctx, const sql::ShowStmt& s);
Result<StatementResult> ExecDescribe(const ExecContext& ctx, const sql::DescribeStmt& s);
Result<StatementResult> ExecDescribeDatabase(const ExecContext& ctx,
                                             const sql::DescribeDatabaseStmt& s);
Result<StatementResult> ExecInsert(const ExecContext& ctx, const sql::InsertStmt& s);
Result<StatementResult> ExecComputeStats(const ExecContext& ctx, const sql::ComputeStatsStmt& s);
Result<StatementResult> ExecExplain(const ExecContext& ctx, const sql::ExplainStmt& s);
Result<StatementResult> ExecUse(const ExecContext& ctx, const sql::UseStmt& s);
Result<StatementResult> ExecSet(const ExecContext& ctx, const sql::SetStmt& s);
Result<StatementResult> ExecInvalidate(const ExecContext& ctx,
                                       const sql::InvalidateMetadataStmt& s);
Result<StatementResult> ExecRefresh(const ExecContext& ctx, const sql::RefreshStmt& s);

}  // namespace ics::coord::exec
