// Notification log entries written by the metastore: event type names and
// the JSON message format.
//
// Every operation a Metastore commits appends one hive::NotificationEvent
// whose eventType is one of the names below (as the Hive Metastore names
// them) and whose message is a JSON object:
//   {
//     "db":        "<database>",              always
//     "table":     "<table>",                 always; "" for database and function events
//     "partition": "<k1=v1/k2=v2>",           partition events only
//     "function":  "<signature>",             function events only
//     "old_db":    "<old database>",          ALTER_TABLE that renames only
//     "old_table": "<old table>",             ALTER_TABLE that renames only
//     "object":    "<base64>"                 events that leave a new object
//   }
// "object" is the base64 of the TCompactProtocol bytes of the new object:
// hive::Database (CREATE/ALTER_DATABASE), hive::Table (CREATE/ALTER_TABLE),
// hive::Partition (ADD/ALTER_PARTITION), impala::TFunction (CREATE_FUNCTION),
// hive::ColumnStatistics (UPDATE_*_COLUMN_STAT: the columns of that op only).
// Drops and DELETE_{TABLE,PARTITION}_COLUMN_STAT carry no object (a
// deletion of one column's stats does not name the column: consumers re-read
// the stats of that table or partition). Table version ops (archiving and
// deleting versions, metastore.h) write no event at all; the ALTER_TABLE
// written with an archive is an ordinary ALTER_TABLE event. Names that are not
// valid UTF-8 are written with U+FFFD replacements; the object keeps the
// exact bytes.
//
// Thread-safety: constants and stateless functions; safe from any thread.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "common/util/result.h"

namespace ics::catalog {

inline constexpr std::string_view kEventCreateDatabase = "CREATE_DATABASE";
inline constexpr std::string_view kEventAlterDatabase = "ALTER_DATABASE";
inline constexpr std::string_view kEventDropDatabase = "DROP_DATABASE";
inline constexpr std::string_view kEventCreateTable = "CREATE_TABLE";
inline constexpr std::string_view kEventAlterTable = "ALTER_TABLE";
inline constexpr std::string_view kEventDropTable = "DROP_TABLE";
inline constexpr std::string_view kEventAddPartition = "ADD_PARTITION";
inline constexpr std::string_view kEventAlterPartition = "ALTER_PARTITION";
inline constexpr std::string_view kEventDropPartition = "DROP_PARTITION";
inline constexpr std::string_view kEventCreateFunction = "CREATE_FUNCTION";
inline constexpr std::string_view kEventDropFunction = "DROP_FUNCTION";
inline constexpr std::string_view kEventUpdateTableColumnStat = "UPDATE_TABLE_COLUMN_STAT";
inline constexpr std::string_view kEventUpdatePartitionColumnStat =
    "UPDATE_PARTITION_COLUMN_STAT";
inline constexpr std::string_view kEventDeleteTableColumnStat = "DELETE_TABLE_COLUMN_STAT";
inline constexpr std::string_view kEventDeletePartitionColumnStat =
    "DELETE_PARTITION_COLUMN_STAT";

// The decoded form of a message (see the format above).
struct NotificationMessage {
  std::string db;
  std::string table;
  std::optional<std::string> partition;
  std::optional<std::string> function;
  std::optional<std::string> old_db;
  std::optional<std::string> old_table;
  // Raw TCompactProtocol bytes (base64 only inside the JSON).
  std::optional<std::string> object;

  bool operator==(const NotificationMessage& o) const {
    return db == o.db && table == o.table && partition == o.partition &&
           function == o.function && old_db == o.old_db && old_table == o.old_table &&
           object == o.object;
  }
};

// Renders the JSON message. Never fails.
std::string EncodeNotificationMessage(const NotificationMessage& msg);

// Parses a message. CORRUPTION if it is not a JSON object, "db" or "table"
// is missing, a field has the wrong type, or "object" is not valid base64.
// Unknown fields are ignored (newer writers may add some).
Result<NotificationMessage> DecodeNotificationMessage(std::string_view json);

}  // namespace ics::catalog
