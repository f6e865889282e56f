// Table primary/foreign key constraints. Field ids match Apache Impala's
// SqlConstraints.thrift for wire compatibility.

namespace cpp impala

include "hive_metastore.thrift"

// Key constraints of one table, in metastore form.
struct TSqlConstraints {
  1: required list<hive_metastore.SQLPrimaryKey> primary_keys,
  2: required list<hive_metastore.SQLForeignKey> foreign_keys
}
