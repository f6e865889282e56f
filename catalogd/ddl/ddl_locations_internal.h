// Where DDL puts data and what it may remove: locations normalized, the
// default locations of databases and tables, and the removal of a dropped
// table's or partitions' directories, which never removes what another
// table still uses. Private to catalogd/ddl.
//
// Thread-safety: stateless functions; the context objects are thread-safe.
#pragma once

#include <string>
#include <vector>

#include "catalogd/ddl/ddl_steps_internal.h"

namespace ics::catalog::ddl {

// Accepts "/abs/path" or "file:/..." / "file:///..."; returns a plain
// absolute path without a trailing '/'. INVALID_ARGUMENT otherwise.
Result<std::string> NormalizeLocation(const std::string& location);
// <warehouse>/<db>.db
std::string DefaultDatabaseLocation(const CatalogContext& ctx, const std::string& db);
// The db's location (or its default) + "/" + table.
std::string DefaultTableLocation(const CatalogContext& ctx, const std::string& db,
                                 const std::string& table);
// Whether `path` is `dir` or inside it.
bool IsUnder(const std::string& path, const std::string& dir);
std::string ParentDir(const std::string& path);

// Removes the data of a dropped managed table: its directory and the
// directories of partitions that live outside it, except what another table
// still uses (metastore/data_ownership.h; the kept ones are logged).
[[nodiscard]] Status RemoveTableData(CatalogContext* ctx, const hive::Table& table,
                                     const std::vector<hive::Partition>& partitions);

// Removes the directories of partitions dropped from the managed table
// `hms` (whose state before the drop is `old`), except those the table's
// remaining partitions (plus `also_remaining`, e.g. partitions added in the
// same batch), the table directory or another table still use. Appends a
// note about kept directories to `*note`. Returns the first file system
// error.
[[nodiscard]] Status RemoveDroppedPartitionData(CatalogContext* ctx, const TableRef& t,
                                                const hive::Table& hms, const TableState& old,
                                                const std::vector<PartitionPtr>& dropped,
                                                const std::vector<std::string>& also_remaining,
                                                std::string* note);

// The table's normalized location; INVALID_ARGUMENT if it has none.
Result<std::string> TableLocation(const hive::Table& hms, const TableRef& t);

}  // namespace ics::catalog::ddl
