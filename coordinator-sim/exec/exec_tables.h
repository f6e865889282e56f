// Statement helpers over the local catalog (exec_common.cc): name
// resolution, columns, partition specs and files, storage formats.
//
// Thread-safety: stateless functions.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "CatalogObjects_types.h"
#include "common/sql/ast.h"
#include "coordinator-sim/exec/exec_context.h"

namespace ics::coord::exec {

// ---- names and resolution (exec_common.cc) ----
// The database a name refers to: its own, or the session's.
std::string DbOf(const sql::TableName& name, const ExecContext& ctx);
impala::TTableName ToTTableName(const sql::TableName& name, const ExecContext& ctx);
std::string FullName(const LocalTable& t);  // "db.t"

// OK if the database exists; "Database does not exist: x" otherwise.
[[nodiscard]] Status CheckDbExists(const ExecContext& ctx, const std::string& db);
// Whether db.table exists (the database must exist).
Result<bool> TableExists(const ExecContext& ctx, const std::string& db, const std::string& table);
// Whether db.table is in the database's table list (NOT_FOUND-free: an
// unknown database is ANALYSIS_ERROR as CheckDbExists says). Unlike
// TableExists it never fetches the table itself, so catalogd does not load it.
[[nodiscard]] Result<bool> TableListed(const ExecContext& ctx, const std::string& db,
                                       const std::string& table);
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

// A PARTITION (...) clause as key/values in the table's key order, values
// coerced to the key types (NULL -> kDefaultPartitionName). With
// `require_full`, every partition key must be given.
Result<std::vector<impala::TPartitionKeyValue>> ToPartitionKeyValues(const LocalTable& t,
                                                                     const sql::PartitionSpec& spec,
                                                                     bool require_full);
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

}  // namespace ics::coord::exec
