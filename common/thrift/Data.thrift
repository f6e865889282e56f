// Single values and result rows (minimal subset). Field ids match Apache Impala's
// Data.thrift for wire compatibility.

namespace cpp impala

// A nullable value of any type; at most one member is set (none means NULL).
// Note the ids are not in declaration order on purpose: they follow the peer.
struct TColumnValue {
  1: optional bool bool_val
  6: optional i8 byte_val
  7: optional i16 short_val
  2: optional i32 int_val
  3: optional i64 long_val
  4: optional double double_val
  5: optional string string_val
  8: optional binary binary_val
  9: optional binary timestamp_val
  10: optional binary decimal_val
  11: optional i32 date_val
}

// One row of a result set.
struct TResultRow {
  1: list<TColumnValue> colVals
}
