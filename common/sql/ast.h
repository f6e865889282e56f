// The typed AST the SQL parser produces (common/sql/parser.h).
//
// Consuming it: every statement derives from Statement and carries a
// StatementKind; switch on `stmt.kind` and down-cast with As<T>() (nullptr on
// a kind mismatch), e.g.
//   switch (stmt->kind) {
//     case StatementKind::kCreateTable: {
//       const auto& ct = *stmt->As<CreateTableStmt>();  ...
// Each concrete struct has exactly one kind (T::kKind).
//
// Normalization done by the parser: identifiers (also `back-quoted` ones) are
// lower-case; string literals are unescaped; column types are canonical
// lower-case Hive type strings ("decimal(10,2)", "array<int>", "map<string,
// struct<a:int>>"), the form ParseHiveType (common/types/column_type.h)
// accepts; file formats are an enum. Statements are plain values owned by the
// caller (std::unique_ptr<Statement>); expression trees own their children.
//
// Thread-safety: plain data; no shared state.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ics::sql {

// [db.]table; `db` is empty when the name was not qualified.
struct TableName {
  std::string db;
  std::string table;

  bool qualified() const { return !db.empty(); }
  std::string ToString() const { return db.empty() ? table : db + "." + table; }
  bool operator==(const TableName& o) const { return db == o.db && table == o.table; }
};

enum class LiteralKind { kNull, kBoolean, kInteger, kDecimal, kString, kDate };

// A constant. `value` holds its text:
//   kNull ""; kBoolean "true"/"false"; kInteger the digits with an optional
//   leading '-' (int_value holds the number); kDecimal the number as written,
//   sign folded in ("-1.50", "2e10"; also integers too large for int64);
//   kString the unescaped text; kDate "yyyy-mm-dd" (zero-padded, validated).
struct Literal {
  LiteralKind kind = LiteralKind::kNull;
  std::string value;
  bool bool_value = false;
  int64_t int_value = 0;

  bool is_null() const { return kind == LiteralKind::kNull; }
  // SQL spelling: NULL, TRUE, 42, -1.5, 'it\'s', DATE '2024-01-31'.
  std::string ToSql() const;
};

enum class ExprKind {
  kLiteral,       // literal
  kColumnRef,     // path = {"col"} or {"t", "col"} or {"db", "t", "col"}
  kFunctionCall,  // path = function name parts; children = args; star for f(*)
  kCast,          // CAST(children[0] AS type)
  kNegate,        // -children[0] (never a numeric literal: those fold into it)
  kArithmetic,    // children[0] op children[1], op in + - * / %
  kComparison,    // children[0] op children[1], op in = != < <= > >=
  kIn,            // children[0] [NOT] IN (children[1..])
  kBetween,       // children[0] [NOT] BETWEEN children[1] AND children[2]
  kIsNull,        // children[0] IS [NOT] NULL (negated = IS NOT NULL)
  kLike,          // children[0] [NOT] LIKE children[1]
  kNot,           // NOT children[0]
  kAnd,           // children[0] AND children[1]
  kOr,            // children[0] OR children[1]
};

enum class BinaryOp { kEq, kNe, kLt, kLe, kGt, kGe, kAdd, kSub, kMul, kDiv, kMod };

std::string_view BinaryOpSql(BinaryOp op);  // "=", "!=", "<", ..., "+"

// Impala's type of an integer literal: the narrowest of TINYINT, SMALLINT,
// INT and BIGINT that holds `v`.
std::string_view IntegerLiteralTypeName(int64_t v);
// The comparison with operands swapped: a < b  <=>  b > a.
BinaryOp SwapComparison(BinaryOp op);

struct Expr {
  ExprKind kind = ExprKind::kLiteral;
  int line = 1;  // where the expression starts
  int column = 1;
  Literal literal;                // kLiteral
  std::vector<std::string> path;  // kColumnRef, kFunctionCall
  BinaryOp op = BinaryOp::kEq;    // kArithmetic, kComparison
  bool negated = false;           // kIn, kBetween, kIsNull, kLike
  bool distinct = false;          // kFunctionCall: f(DISTINCT x)
  bool star = false;              // kFunctionCall: f(*)
  std::string type;               // kCast: canonical type string
  std::vector<std::unique_ptr<Expr>> children;
  // Levels of this subtree: 1 for a leaf, else 1 + the highest child's. The
  // parser keeps it and never returns a tree higher than kMaxExprDepth
  // (parser.h), so recursive walks of a parsed tree have bounded depth.
  int height = 1;

  // The last name part of a column ref ("c" for t.c).
  const std::string& column_name() const { return path.back(); }
  // SQL text with minimal parentheses, e.g. "(a = 1 OR b IN (2, 3)) AND c IS NOT NULL".
  std::string ToSql() const;
};
using ExprPtr = std::unique_ptr<Expr>;

// The operands of a chain of binary `kind` nodes (a AND b AND c for kAnd),
// left to right; {&root} when root is not such a node. Iterative, so a long
// chain costs no stack.
std::vector<const Expr*> FlattenChain(const Expr& root, ExprKind kind);

struct ColumnDef {
  std::string name;
  std::string type;  // canonical Hive type string
  std::optional<std::string> comment;
};

// One k=v of a PARTITION (...) clause. `value` is empty only for a dynamic
// partition key of INSERT (PARTITION (year=2024, month)).
struct PartitionKeyValue {
  std::string column;
  std::optional<Literal> value;
};
using PartitionSpec = std::vector<PartitionKeyValue>;

// TBLPROPERTIES ('k'='v', ...) in written order.
using Properties = std::vector<std::pair<std::string, std::string>>;

enum class FileFormat {
  kText,
  kSequenceFile,
  kRcFile,
  kAvro,
  kParquet,
  kOrc,
  kKudu,
  kIceberg,
  kJson
};
// "TEXTFILE", "PARQUET", ... (the STORED AS spelling).
std::string_view FileFormatName(FileFormat format);

enum class PrincipalType { kUser, kRole };
struct Owner {
  PrincipalType type = PrincipalType::kUser;
  std::string name;  // as written (identifier lower-cased, string verbatim)
};

enum class StatementKind {
  kCreateDatabase,
  kDropDatabase,
  kAlterDatabaseSetOwner,
  kCreateTable,
  kCreateTableLike,
  kCreateView,
  kAlterView,
  kAlterViewSetTblProperties,
  kAlterViewUnsetTblProperties,
  kDropTable,
  kDropView,
  kAlterTableAddPartitions,
  kAlterTableDropPartitions,
  kAlterTableAddColumns,
  kAlterTableReplaceColumns,
  kAlterTableDropColumn,
  kAlterTableChangeColumn,
  kAlterTableRename,
  kAlterTableSetTblProperties,
  kAlterTableUnsetTblProperties,
  kAlterTableSetLocation,
  kAlterTableSetFileFormat,
  kAlterTableSetOwner,
  kAlterTableRecoverPartitions,
  kTruncate,
  kComputeStats,
  kDropStats,
  kInsert,
  kShow,
  kDescribe,
  kDescribeDatabase,
  kSelect,
  kExplain,
  kInvalidateMetadata,
  kRefresh,
  kUse,
  kSet,
  kCommentOn,
};

// "CREATE TABLE", "ALTER TABLE ADD PARTITION", "SHOW", ... for messages.
std::string_view StatementKindName(StatementKind kind);
// True for DDL that changes the catalog (CREATE/DROP/ALTER/TRUNCATE/
// COMPUTE/DROP STATS/COMMENT ON); false for queries, SHOW, USE, SET, ...
bool IsDdl(StatementKind kind);

struct Statement {
  explicit Statement(StatementKind k) : kind(k) {}
  virtual ~Statement() = default;
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  const StatementKind kind;
  std::string text;  // the statement's source text, without the ending ';'
  int line = 1;      // where it starts
  int column = 1;

  template <typename T>
  const T* As() const {
    return kind == T::kKind ? static_cast<const T*>(this) : nullptr;
  }
  template <typename T>
  T* As() {
    return kind == T::kKind ? static_cast<T*>(this) : nullptr;
  }
};

template <StatementKind K>
struct StatementOf : Statement {
  static constexpr StatementKind kKind = K;
  StatementOf() : Statement(K) {}
};

// ---- databases ----
struct CreateDatabaseStmt : StatementOf<StatementKind::kCreateDatabase> {
  std::string db;
  bool if_not_exists = false;
  std::optional<std::string> comment;
  std::optional<std::string> location;
};
struct DropDatabaseStmt : StatementOf<StatementKind::kDropDatabase> {
  std::string db;
  bool if_exists = false;
  bool cascade = false;  // RESTRICT (the default) is false
};
struct AlterDatabaseSetOwnerStmt : StatementOf<StatementKind::kAlterDatabaseSetOwner> {
  std::string db;
  Owner owner;
};

// ---- tables and views ----
struct RowFormat {  // ROW FORMAT DELIMITED ...; each unset if not given
  std::optional<std::string> field_terminator;
  std::optional<std::string> line_terminator;
  std::optional<std::string> escaped_by;
};
struct CreateTableStmt : StatementOf<StatementKind::kCreateTable> {
  TableName table;
  bool external = false;
  bool if_not_exists = false;
  std::vector<ColumnDef> columns;
  std::vector<ColumnDef> partition_columns;  // PARTITIONED BY
  std::optional<std::string> comment;
  std::optional<RowFormat> row_format;
  std::optional<FileFormat> file_format;  // STORED AS; unset means the default
  std::optional<std::string> location;
  Properties tblproperties;
};
struct CreateTableLikeStmt : StatementOf<StatementKind::kCreateTableLike> {
  TableName table;
  TableName source;
  bool external = false;
  bool if_not_exists = false;
  std::optional<std::string> comment;
  std::optional<FileFormat> file_format;
  std::optional<std::string> location;
};
struct ViewColumn {
  std::string name;
  std::optional<std::string> comment;
};
// The query stays text (it may use SQL beyond this parser's SELECT subset);
// ParseStatement(select_text) parses it when it is within the subset.
struct CreateViewStmt : StatementOf<StatementKind::kCreateView> {
  TableName view;
  bool if_not_exists = false;
  std::vector<ViewColumn> columns;  // empty when no column list was given
  bool has_column_list = false;
  std::optional<std::string> comment;
  std::string select_text;  // source text after AS
};
struct AlterViewStmt : StatementOf<StatementKind::kAlterView> {
  TableName view;
  std::string select_text;
};
// ALTER VIEW v SET TBLPROPERTIES ('k'='v', ...): the view's properties only.
struct AlterViewSetTblPropertiesStmt : StatementOf<StatementKind::kAlterViewSetTblProperties> {
  TableName view;
  Properties properties;  // at least one
};
// ALTER VIEW v UNSET TBLPROPERTIES [IF EXISTS] ('k', ...).
struct AlterViewUnsetTblPropertiesStmt : StatementOf<StatementKind::kAlterViewUnsetTblProperties> {
  TableName view;
  bool if_exists = false;
  std::vector<std::string> keys;  // at least one
};
struct DropTableStmt : StatementOf<StatementKind::kDropTable> {
  TableName table;
  bool if_exists = false;
  bool purge = false;
};
struct DropViewStmt : StatementOf<StatementKind::kDropView> {
  TableName view;
  bool if_exists = false;
};

// ---- ALTER TABLE ----
template <StatementKind K>
struct AlterTableStmtOf : StatementOf<K> {
  TableName table;
};
struct PartitionDef {
  PartitionSpec spec;
  std::optional<std::string> location;
};
struct AlterTableAddPartitionsStmt : AlterTableStmtOf<StatementKind::kAlterTableAddPartitions> {
  bool if_not_exists = false;
  std::vector<PartitionDef> partitions;  // at least one
};
struct AlterTableDropPartitionsStmt : AlterTableStmtOf<StatementKind::kAlterTableDropPartitions> {
  bool if_exists = false;
  bool purge = false;
  std::vector<PartitionSpec> partitions;  // at least one
};
struct AlterTableAddColumnsStmt : AlterTableStmtOf<StatementKind::kAlterTableAddColumns> {
  bool if_not_exists = false;
  std::vector<ColumnDef> columns;
};
struct AlterTableReplaceColumnsStmt : AlterTableStmtOf<StatementKind::kAlterTableReplaceColumns> {
  std::vector<ColumnDef> columns;
};
struct AlterTableDropColumnStmt : AlterTableStmtOf<StatementKind::kAlterTableDropColumn> {
  std::string column;
};
struct AlterTableChangeColumnStmt : AlterTableStmtOf<StatementKind::kAlterTableChangeColumn> {
  std::string old_name;
  ColumnDef new_column;
};
struct AlterTableRenameStmt : AlterTableStmtOf<StatementKind::kAlterTableRename> {
  TableName new_name;
};
struct AlterTableSetTblPropertiesStmt
    : AlterTableStmtOf<StatementKind::kAlterTableSetTblProperties> {
  std::optional<PartitionSpec> partition;
  Properties properties;
};
struct AlterTableUnsetTblPropertiesStmt
    : AlterTableStmtOf<StatementKind::kAlterTableUnsetTblProperties> {
  bool if_exists = false;
  std::vector<std::string> keys;
};
struct AlterTableSetLocationStmt : AlterTableStmtOf<StatementKind::kAlterTableSetLocation> {
  std::optional<PartitionSpec> partition;
  std::string location;
};
struct AlterTableSetFileFormatStmt : AlterTableStmtOf<StatementKind::kAlterTableSetFileFormat> {
  std::optional<PartitionSpec> partition;
  FileFormat file_format = FileFormat::kText;
};
struct AlterTableSetOwnerStmt : AlterTableStmtOf<StatementKind::kAlterTableSetOwner> {
  Owner owner;
};
struct AlterTableRecoverPartitionsStmt
    : AlterTableStmtOf<StatementKind::kAlterTableRecoverPartitions> {};

// ---- data and statistics ----
struct TruncateStmt : StatementOf<StatementKind::kTruncate> {
  TableName table;
  bool if_exists = false;
};
struct ComputeStatsStmt : StatementOf<StatementKind::kComputeStats> {
  TableName table;
  bool incremental = false;
  std::optional<PartitionSpec> partition;
  std::vector<std::string> columns;  // COMPUTE STATS t (c1, c2); empty = all
};
struct DropStatsStmt : StatementOf<StatementKind::kDropStats> {
  TableName table;
  bool incremental = false;
  std::optional<PartitionSpec> partition;
};
struct InsertStmt : StatementOf<StatementKind::kInsert> {
  TableName table;
  bool overwrite = false;
  std::optional<std::vector<std::string>> columns;  // the column permutation
  std::optional<PartitionSpec> partition;
  std::vector<std::vector<ExprPtr>> rows;  // VALUES rows, at least one
};

// ---- inspection ----
enum class ShowKind {
  kDatabases,    // SHOW DATABASES|SCHEMAS [[LIKE] 'pat']
  kTables,       // SHOW TABLES [IN db] [[LIKE] 'pat']
  kFunctions,    // SHOW FUNCTIONS [IN db] [[LIKE] 'pat']
  kPartitions,   // SHOW PARTITIONS t
  kFiles,        // SHOW FILES IN t [PARTITION (...)]
  kTableStats,   // SHOW TABLE STATS t
  kColumnStats,  // SHOW COLUMN STATS t
  kCreateTable,  // SHOW CREATE TABLE t
  kCreateView,   // SHOW CREATE VIEW v
};
struct ShowStmt : StatementOf<StatementKind::kShow> {
  ShowKind what = ShowKind::kDatabases;
  std::string db;                          // IN db (TABLES, FUNCTIONS); empty = current
  TableName table;                         // the table of the per-table forms
  std::optional<std::string> pattern;      // LIKE 'pat'
  std::optional<PartitionSpec> partition;  // SHOW FILES ... PARTITION
};
enum class DescribeStyle { kMinimal, kFormatted, kExtended };
struct DescribeStmt : StatementOf<StatementKind::kDescribe> {
  DescribeStyle style = DescribeStyle::kMinimal;
  TableName table;
};
struct DescribeDatabaseStmt : StatementOf<StatementKind::kDescribeDatabase> {
  DescribeStyle style = DescribeStyle::kMinimal;
  std::string db;
};

// ---- queries ----
struct SelectItem {
  ExprPtr expr;  // null for * and t.*
  bool star = false;
  std::string star_qualifier;  // "t" for t.*
  std::string alias;           // empty when none
};
struct OrderByItem {
  ExprPtr expr;
  bool ascending = true;
};
struct TableRef {
  TableName name;
  std::string alias;  // empty when none
};
struct SelectStmt : StatementOf<StatementKind::kSelect> {
  bool distinct = false;
  std::vector<SelectItem> items;
  std::optional<TableRef> from;  // unset for SELECT 1
  ExprPtr where;                 // null when absent
  std::vector<ExprPtr> group_by;
  ExprPtr having;
  std::vector<OrderByItem> order_by;
  std::optional<int64_t> limit;  // may be negative here; the analyzer rejects it
  std::optional<int64_t> offset;
};
struct ExplainStmt : StatementOf<StatementKind::kExplain> {
  std::unique_ptr<SelectStmt> query;  // its `text` is the query without EXPLAIN
};

// ---- metadata and session ----
struct InvalidateMetadataStmt : StatementOf<StatementKind::kInvalidateMetadata> {
  std::optional<TableName> table;  // unset: the whole catalog
};
// REFRESH t [PARTITION (...) [PARTITION (...)] ...]; no partitions: the whole table.
struct RefreshStmt : StatementOf<StatementKind::kRefresh> {
  TableName table;
  std::vector<PartitionSpec> partitions;
};
struct UseStmt : StatementOf<StatementKind::kUse> {
  std::string db;
};
// SET name=value; bare SET (name empty) lists the options, SET ALL all of them.
struct SetStmt : StatementOf<StatementKind::kSet> {
  std::string name;   // lower-case option name
  std::string value;  // identifier/number as written, or the unescaped string
  bool show_all = false;
};
enum class CommentTarget { kDatabase, kTable, kView, kColumn };
struct CommentOnStmt : StatementOf<StatementKind::kCommentOn> {
  CommentTarget target = CommentTarget::kTable;
  std::string db;                      // kDatabase
  TableName table;                     // kTable, kView, kColumn (the column's table)
  std::string column;                  // kColumn
  std::optional<std::string> comment;  // unset for IS NULL
};

}  // namespace ics::sql
