// Internals of statement execution (StatementExecutor), shared by the
// per-area files: exec_ddl.cc (databases, tables, DROP/TRUNCATE/COMMENT),
// exec_alter.cc (ALTER TABLE), exec_view.cc (CREATE/ALTER VIEW),
// exec_show.cc (SHOW ...), exec_describe.cc (DESCRIBE, SHOW CREATE),
// exec_insert.cc (INSERT), exec_compute_stats.cc (COMPUTE STATS),
// exec_explain.cc (EXPLAIN), exec_session.cc (USE, SET, INVALIDATE,
// REFRESH); helpers in exec_common.cc and exec_values.cc.
//
// Every Exec* function analyzes its statement against the local catalog
// first and calls catalogd (or writes files) only when that succeeded, so a
// rejected statement changes nothing. Analysis errors are kAnalysisError
// statuses with Impala's wording where Impala has one ("Database does not
// exist: x", "Table does not exist: db.t", ...).
//
// Thread-safety: stateless functions; the ExecContext belongs to one
// statement.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "CatalogService_types.h"
#include "common/util/result.h"
#include "coordinator-sim/exec/statement_executor.h"
#include "coordinator-sim/sql/ast.h"

namespace ics::coord::exec {

using TablePtr = std::shared_ptr<const LocalTable>;
using PartitionPtr = std::shared_ptr<const LocalPartition>;

// What one statement runs with.
struct ExecContext {
  CoordinatorBackend* backend = nullptr;
  SessionState* session = nullptr;
  LocalCatalog* catalog() const { return backend->catalog(); }
  bool sync_ddl() const { return session->sync_ddl(); }
  // Set once the statement changed something (a catalogd call, a file
  // written): from then on a RECOVERABLE_ERROR is not retried.
  mutable bool side_effects = false;
};

// ---- errors ----
Status AnalysisError(std::string msg);

// ---- names and resolution (exec_common.cc) ----
// The database a name refers to: its own, or the session's.
std::string DbOf(const sql::TableName& name, const ExecContext& ctx);
impala::TTableName ToTTableName(const sql::TableName& name, const ExecContext& ctx);
std::string FullName(const LocalTable& t);  // "db.t"

// OK if the database exists; "Database does not exist: x" otherwise.
[[nodiscard]] Status CheckDbExists(const ExecContext& ctx, const std::string& db);
// Whether db.table exists (the database must exist).
Result<bool> TableExists(const ExecContext& ctx, const std::string& db, const std::string& table);
// Resolves a table or view: "Database does not exist: x" /
// "Table does not exist: db.t". With `need_loaded`, a table whose metadata
// catalogd has not loaded yet (full-replica mode) is loaded first with a
// REFRESH, as a coordinator asks catalogd to load tables it needs.
Result<TablePtr> ResolveTable(const ExecContext& ctx, const sql::TableName& name,
                              bool need_loaded = true);
// ResolveTable that rejects views: "<what> not allowed on a view: db.v".
Result<TablePtr> ResolveNonView(const ExecContext& ctx, const sql::TableName& name,
                                const std::string& what);

// ---- columns ----
// A data or partition column by (lower-case) name; nullptr if none.
const impala::TColumn* FindColumn(const LocalTable& t, const std::string& name);
bool IsPartitionColumn(const LocalTable& t, const std::string& name);
// Data columns then partition columns, as Hive and Impala list them.
std::vector<impala::TColumn> ColumnsInHiveOrder(const LocalTable& t);
// "Column 'c' not found in db.t".
Status ColumnNotFound(const std::string& column, const LocalTable& t);
// ColumnDefs of the AST as TColumns (types parsed; a bad type is an error).
Result<std::vector<impala::TColumn>> ToTColumns(const std::vector<sql::ColumnDef>& defs);

// ---- partitions ----
std::vector<std::string> PartitionKeys(const LocalTable& t);
// A PARTITION (...) clause as key/values in the table's key order, values
// coerced to the key types (NULL -> kNullPartitionValue). With
// `require_full`, every partition key must be given.
Result<std::vector<impala::TPartitionKeyValue>> ToPartitionKeyValues(
    const LocalTable& t, const sql::PartitionSpec& spec, bool require_full);
// Ids of the partitions whose values match every key/value of `spec`.
std::vector<int64_t> MatchingPartitionIds(const LocalTable& t,
                                          const std::vector<impala::TPartitionKeyValue>& spec);
// "(k1=v1, k2=v2)" for messages.
std::string SpecToString(const std::vector<impala::TPartitionKeyValue>& spec);
// The Hive partition name of full values in key order ("k1=v1/k2=v2").
Result<std::string> PartitionNameOf(const LocalTable& t, const std::vector<std::string>& values);

// One data file of a partition.
struct DataFile {
  std::string path;  // absolute local path
  std::string name;  // relative path inside the partition directory
  int64_t length = 0;
};
// The files of a partition fetched with want_files.
Result<std::vector<DataFile>> FilesOf(const LocalPartition& p);

// ---- storage ----
// A local path from a location ("file:/x", "file:///x" or "/x").
std::string LocalPath(const std::string& location);
// THdfsFileFormat of a table (from its storage descriptor).
impala::THdfsFileFormat::type TableFileFormat(const LocalTable& t);
std::string FileFormatSqlName(impala::THdfsFileFormat::type f);  // "TEXTFILE", ...
impala::THdfsFileFormat::type ToThriftFormat(sql::FileFormat f);
// The text field delimiter (serde field.delim; Hive's numeric form too); \x01 default.
char FieldDelimiter(const LocalTable& t);

// ---- formatting ----
// Impala's PrintUtils.printBytes: "512B", "1.50KB", "2.00MB", ...
std::string PrintBytes(int64_t bytes);
// Impala's SQL spelling of a type: upper-case keywords ("DECIMAL(10,2)",
// "ARRAY<INT>", "STRUCT<a:INT>").
std::string TypeSql(const impala::TColumnType& type);
std::string TypeString(const impala::TColumnType& type);  // Hive's lower-case form
// Impala's SHOW pattern: '*' matches any run, '|' separates alternatives,
// case-insensitive, whole-name match.
bool MatchesPattern(const std::string& name, const std::string& pattern);
// A name, back-quoted when it is not a plain identifier (reserved word, odd characters).
std::string QuoteIdent(const std::string& name);
// 'text' with backslash escapes for ' \ and control characters.
std::string QuoteString(const std::string& s);
std::string FormatDouble(double d);

// ---- catalogd calls ----
// Sends a DDL and returns its summary line as the message.
Result<StatementResult> RunDdl(const ExecContext& ctx, impala::TDdlExecRequest req);
// An ALTER_TABLE request for `t` with the given alter type (params left to the caller).
impala::TDdlExecRequest AlterTableRequest(const LocalTable& t, impala::TAlterTableType::type type);

// ---- constants of INSERT VALUES and PARTITION clauses (exec_values.cc) ----
// Where a constant goes, for error messages.
struct CoercionTarget {
  std::string table;   // "db.t"
  std::string column;
  bool partition_spec = false;  // a PARTITION (k=v) value rather than an INSERT value
};
// Folds `e` (a literal, -literal or CAST of one) and converts it to `type`
// as Impala's implicit casts allow; the text form written to a text file
// (nullopt for NULL).
Result<std::optional<std::string>> CoerceValue(const sql::Expr& e, const impala::TColumnType& type,
                                               const CoercionTarget& target);
Result<std::optional<std::string>> CoerceLiteral(const sql::Literal& lit,
                                                 const impala::TColumnType& type,
                                                 const CoercionTarget& target);
// A partition key value in catalogd's canonical form (NULL and "" ->
// kNullPartitionValue).
Result<std::string> PartitionValue(const sql::Literal& lit, const impala::TColumnType& type,
                                   const CoercionTarget& target);
std::string CanonicalPartitionValue(const std::optional<std::string>& v);
// Whether a stored partition value equals a canonical value of `type`
// (numerically for floating point and decimal keys).
bool PartitionValuesEqual(const impala::TColumnType& type, const std::string& stored,
                          const std::string& wanted);

// ---- statements ----
Result<StatementResult> ExecCreateDatabase(const ExecContext& ctx, const sql::CreateDatabaseStmt& s);
Result<StatementResult> ExecDropDatabase(const ExecContext& ctx, const sql::DropDatabaseStmt& s);
Result<StatementResult> ExecAlterDatabaseSetOwner(const ExecContext& ctx,
                                                  const sql::AlterDatabaseSetOwnerStmt& s);
Result<StatementResult> ExecCreateTable(const ExecContext& ctx, const sql::CreateTableStmt& s);
Result<StatementResult> ExecCreateTableLike(const ExecContext& ctx, const sql::CreateTableLikeStmt& s);
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
Result<StatementResult> ExecInvalidate(const ExecContext& ctx, const sql::InvalidateMetadataStmt& s);
Result<StatementResult> ExecRefresh(const ExecContext& ctx, const sql::RefreshStmt& s);

// ---- SELECT analysis shared by CREATE VIEW and EXPLAIN (exec_view.cc) ----
// The table a SELECT reads, resolved, with the names its columns may be
// qualified with.
struct SelectSource {
  TablePtr table;        // null for SELECT without FROM
  std::string alias;     // empty when none
};
// Checks every column reference of `expr` against the source:
// "Column 'c' not found in db.t".
[[nodiscard]] Status CheckColumnRefs(const sql::Expr& expr, const SelectSource& src);
// The SELECT's column references all resolve (items, WHERE, GROUP BY, HAVING, ORDER BY).
[[nodiscard]] Status CheckSelectColumns(const sql::SelectStmt& q, const SelectSource& src);
// The SELECT re-printed with its table fully qualified (a view's expanded text).
std::string SelectToSql(const sql::SelectStmt& q, const SelectSource& src);

}  // namespace ics::coord::exec
