// A table's schema as DDL writes it: storage formats, columns and partition
// keys (the one column rule set, ValidateColumns, for objects from any door),
// and column statistics checked against the columns. Private to
// catalogd/ddl.
//
// Thread-safety: stateless functions.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "catalogd/ddl/ddl_executor.h"

namespace ics::catalog::ddl {

// ---- storage formats ----

// NOT_IMPLEMENTED for formats this service cannot store (Kudu, Iceberg, ...).
[[nodiscard]] Status CheckSupportedFormat(impala::THdfsFileFormat::type format);
// Sets the input/output format and SerDe of `sd` for `format`.
void SetFileFormat(impala::THdfsFileFormat::type format, hive::StorageDescriptor* sd);
// Sets the delimiters `rf` gives in `serde` (the SerDe's parameters).
void SetDelimiters(const RowFormat& rf, std::map<std::string, std::string>* serde);

// ---- columns ----

// One column of the rule set below (a partition key when `partition_key`):
// name validated and lower-cased, Hive type string parsed, a key's scalar.
[[nodiscard]] Status ValidateColumn(hive::FieldSchema* f, bool partition_key);
// The one column rule set, for metastore objects from any door: names
// validated and lower-cased, Hive type strings parsed, partition keys
// scalar, no name twice across the columns and the keys ("Duplicate column
// name: x").
[[nodiscard]] Status ValidateColumns(std::vector<hive::FieldSchema>* cols,
                                     std::vector<hive::FieldSchema>* partition_keys);

// ---- column statistics ----

// Every column of `edits` through CheckColumnStats (ddl_executor.h) against
// `table`, each replaced by its stored form; the first error.
[[nodiscard]] Status CheckColumnStatsEdits(const hive::Table& table,
                                           std::vector<ColumnStatsEdit>* edits);

}  // namespace ics::catalog::ddl
