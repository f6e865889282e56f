// Tabular results returned by DDL operations (minimal subset). Field ids match
// Apache Impala's Results.thrift for wire compatibility.

namespace cpp impala

include "Data.thrift"
include "CatalogObjects.thrift"

// Column descriptions of a result set.
struct TResultSetMetadata {
  1: required list<CatalogObjects.TColumn> columns
}

// Rows plus their schema.
struct TResultSet {
  1: required list<Data.TResultRow> rows
  2: required TResultSetMetadata schema
}
