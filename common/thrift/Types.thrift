// Basic shared types: ids, addresses, the column type tree and function descriptors.
// Field ids and enum values match Apache Impala's Types.thrift for wire compatibility.

namespace cpp impala

// Scalar type kinds.
enum TPrimitiveType {
  INVALID_TYPE = 0
  NULL_TYPE = 1
  BOOLEAN = 2
  TINYINT = 3
  SMALLINT = 4
  INT = 5
  BIGINT = 6
  FLOAT = 7
  DOUBLE = 8
  DATE = 9
  DATETIME = 10
  TIMESTAMP = 11
  STRING = 12
  BINARY = 13
  DECIMAL = 14
  CHAR = 15
  VARCHAR = 16
  FIXED_UDA_INTERMEDIATE = 17
}

// Kind of a node in a flattened type tree.
enum TTypeNodeType {
  SCALAR = 0
  ARRAY = 1
  MAP = 2
  STRUCT = 3
}

// A scalar type; len is used by CHAR/VARCHAR, precision/scale by DECIMAL.
struct TScalarType {
  1: required TPrimitiveType type
  2: optional i32 len
  3: optional i32 precision
  4: optional i32 scale
}

// Named member of a STRUCT type.
struct TStructField {
  1: required string name
  2: optional string comment
  3: optional i32 field_id
}

// One node of a type tree; scalar_type for SCALAR, struct_fields for STRUCT.
struct TTypeNode {
  1: required TTypeNodeType type
  2: optional TScalarType scalar_type
  3: optional list<TStructField> struct_fields
}

// A complete column type: the type tree as a pre-order (depth-first) node list.
struct TColumnType {
  1: list<TTypeNode> types
}

// host:port of a service, optionally with a Unix domain socket address.
struct TNetworkAddress {
  1: required string hostname
  2: required i32 port
  3: optional string uds_address
}

// 128-bit id (query ids, catalog service id, registration ids, ...).
struct TUniqueId {
  1: required i64 hi
  2: required i64 lo
}

// How a function is implemented.
enum TFunctionBinaryType {
  BUILTIN = 0
  JAVA = 1
  NATIVE = 2
  IR = 3
}

// Function name, optionally qualified by database.
struct TFunctionName {
  1: optional string db_name
  2: required string function_name
}

// Entry points of a scalar UDF.
struct TScalarFunction {
  1: required string symbol;
  2: optional string prepare_fn_symbol
  3: optional string close_fn_symbol
}

// Entry points and intermediate type of an aggregate UDF.
struct TAggregateFunction {
  1: required TColumnType intermediate_type
  2: required bool is_analytic_only_fn
  3: required string update_fn_symbol
  4: required string init_fn_symbol
  5: optional string serialize_fn_symbol
  6: optional string merge_fn_symbol
  7: optional string finalize_fn_symbol
  8: optional string get_value_fn_symbol
  9: optional string remove_fn_symbol
  10: optional bool ignores_distinct
}

// A function as stored in the catalog. Fields 2-5 are declared optional so that
// name-only TFunctions (lookup keys sent by coordinators) are accepted, as current
// Impala does; peers built from older IDL declare them required, so everything this
// project sends sets all four (invalidations copy them from the full function).
struct TFunction {
  1: required TFunctionName name
  2: optional TFunctionBinaryType binary_type
  3: optional list<TColumnType> arg_types
  4: optional TColumnType ret_type
  5: optional bool has_var_args
  6: optional string comment
  7: optional string signature
  8: optional string hdfs_location
  9: optional TScalarFunction scalar_fn
  10: optional TAggregateFunction aggregate_fn
  11: optional bool is_persistent
  12: optional i64 last_modified_time
}

// Ordering used for a table's SORT BY columns.
enum TSortingOrder {
  LEXICAL = 0
  ZORDER = 1
}
