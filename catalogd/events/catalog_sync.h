// Catalog synchronization steps the HMS event processor applies for each
// kind of notification event. Private to catalogd/events.
//
// Principle: an event says WHAT changed (a database, a table, some
// partitions, a function); the step then reads the metastore's CURRENT
// state of that object, under the same catalog locks DDL takes, and makes
// the catalog match it with one new catalog version. Reading the current
// state instead of the event's embedded object makes every step idempotent
// and makes the catalog converge even when external events and catalogd's
// own DDL interleave (an older event can never overwrite a newer DDL). When
// the object is gone from the metastore, creation/alteration steps do
// nothing: the drop or rename event that removed it is later in the log.
// Drops remove the object from the catalog unconditionally.
//
// Loaded tables are updated precisely: the table object rebuilt from the
// new metastore table (sharing partitions), touched partitions added,
// replaced (directory re-listed) or removed, column statistics re-read.
// Unloaded tables stay unloaded (their metastore object refreshed). When a
// step cannot be applied precisely (the metastore read or a directory
// listing fails, a column type does not parse), the table is invalidated:
// replaced by a names-only state that the next use reloads.
//
// Lock order (as DDL, catalogd/ddl/ddl_steps_internal.h): database lock -> table locks ->
// catalog internals. Callers hold no table lock.
//
// Thread-safety: stateless functions over a thread-safe context.
#pragma once

#include <set>
#include <string>

#include "catalogd/core/catalog_context.h"
#include "catalogd/core/catalog_writer.h"
#include "common/util/status.h"

namespace ics::catalog::events {

// What a step did.
struct SyncEffect {
  int64_t version = 0;       // catalog version installed; 0 = nothing changed
  bool invalidated = false;  // the table was invalidated instead of updated
  Status error;              // why (logged and counted by the caller)
};

// Content changes of one table gathered from consecutive events.
struct TableWork {
  std::string db;
  std::string table;
  bool table_changed = false;         // ALTER_TABLE (not a rename)
  bool column_stats_changed = false;  // table column stat events
  std::set<std::string> partitions;   // names of added/altered/dropped partitions
  int num_events = 0;
};

// CREATE_DATABASE / ALTER_DATABASE: the database as the metastore has it.
SyncEffect SyncDatabase(CatalogContext* ctx, const std::string& db);
// DROP_DATABASE: removes it with its tables and functions.
SyncEffect DropDatabase(CatalogContext* ctx, const std::string& db);

// CREATE_TABLE: adds the table unloaded (replaces a different one).
SyncEffect CreateTable(CatalogContext* ctx, const std::string& db, const std::string& table);
// DROP_TABLE.
SyncEffect DropTable(CatalogContext* ctx, const std::string& db, const std::string& table);
// ALTER_TABLE that renames: drops the old name, adds the new one unloaded.
SyncEffect RenameTable(CatalogContext* ctx, const std::string& old_db,
                       const std::string& old_table, const std::string& db,
                       const std::string& table);
// ALTER_TABLE, partition and column-stat events of one table, together.
SyncEffect SyncTableContent(CatalogContext* ctx, const TableWork& work);
// An event this processor does not understand: invalidates the table.
SyncEffect InvalidateTable(CatalogContext* ctx, const std::string& db, const std::string& table,
                           const Status& why);

// CREATE_FUNCTION: the function as the metastore has it.
SyncEffect SyncFunction(CatalogContext* ctx, const std::string& db, const std::string& signature);
// DROP_FUNCTION.
SyncEffect DropFunction(CatalogContext* ctx, const std::string& db, const std::string& signature);

}  // namespace ics::catalog::events
