// Hive table types and what they mean for a table's data.
//
// A hive::Table's tableType is one of the four names below (Hive's
// TableType enum). A table is external when its type is EXTERNAL_TABLE or
// its parameters carry EXTERNAL=true (any case), as Hive decides it. Views,
// virtual or materialized, are stored here as queries without a directory
// of their own (the HMS endpoint creates no directory for either), so
// neither owns data. Every other table is managed: dropping it with its
// data removes its directory (subject to the data-ownership rule).
//
// Thread-safety: stateless functions.
#pragma once

#include <string_view>

#include "hive_metastore_types.h"

namespace ics {

inline constexpr char kManagedTable[] = "MANAGED_TABLE";
inline constexpr char kExternalTable[] = "EXTERNAL_TABLE";
inline constexpr char kVirtualView[] = "VIRTUAL_VIEW";
inline constexpr char kMaterializedView[] = "MATERIALIZED_VIEW";

// One of the four names above.
bool IsKnownTableType(std::string_view type);

// tableType is VIRTUAL_VIEW (a stored query, no data).
bool IsView(const hive::Table& t);
// tableType is MATERIALIZED_VIEW.
bool IsMaterializedView(const hive::Table& t);
// A virtual or a materialized view.
inline bool IsAnyView(const hive::Table& t) { return IsView(t) || IsMaterializedView(t); }
// EXTERNAL_TABLE, or the EXTERNAL=true parameter.
bool IsExternal(const hive::Table& t);
// Owns its data: neither a view (of either kind) nor external.
inline bool IsManaged(const hive::Table& t) { return !IsAnyView(t) && !IsExternal(t); }

}  // namespace ics
