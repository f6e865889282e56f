// Runtime profiles that catalogd attaches to DDL/DML responses (minimal subset).
// Field ids and enum values match Apache Impala's RuntimeProfile.thrift and
// Metrics.thrift for wire compatibility.

namespace cpp impala

// Unit of a counter value (Impala defines this in Metrics.thrift; same values).
enum TUnit {
  UNIT = 0
  UNIT_PER_SECOND = 1
  CPU_TICKS = 2
  BYTES = 3
  BYTES_PER_SECOND = 4
  TIME_NS = 5
  DOUBLE_VALUE = 6
  NONE = 7
  TIME_MS = 8
  TIME_S = 9
  TIME_US = 10
  BASIS_POINTS = 11
}

// A named counter.
struct TCounter {
  1: required string name
  2: required TUnit unit
  3: required i64 value
}

// A timeline: labels with the timestamps (ns) at which they happened.
struct TEventSequence {
  1: required string name
  2: required list<i64> timestamps
  3: required list<string> labels
}

// Periodic samples of a counter.
struct TTimeSeriesCounter {
  1: required string name
  2: required TUnit unit
  3: required i32 period_ms
  4: required list<i64> values
  5: optional i64 start_index
}

// Running sum/count/min/max of a value.
struct TSummaryStatsCounter {
  1: required string name
  2: required TUnit unit
  3: required i64 sum
  4: required i64 total_num_values
  5: required i64 min_value
  6: required i64 max_value
}

// One profile node; children follow in pre-order (see num_children).
// Omitted optional fields: 12 node_metadata, 13 aggregated.
struct TRuntimeProfileNode {
  1: required string name
  2: required i32 num_children
  3: required list<TCounter> counters
  4: required i64 metadata
  5: required bool indent
  6: required map<string, string> info_strings
  7: required list<string> info_strings_display_order
  8: required map<string, set<string>> child_counters_map
  9: optional list<TEventSequence> event_sequences
  10: optional list<TTimeSeriesCounter> time_series_counters
  11: optional list<TSummaryStatsCounter> summary_stats_counters
}

// A whole profile as a pre-order list of nodes. Omitted optional field: 2 exec_summary.
struct TRuntimeProfileTree {
  1: required list<TRuntimeProfileNode> nodes
  3: optional i32 profile_version
}
