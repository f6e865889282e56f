// ALTER TABLE / ALTER VIEW: dispatch, column changes, rename, file and row
// format, location, properties and owner. Partition operations live in
// ddl_partitions.cc, statistics in ddl_stats.cc.
#include <glog/logging.h>

#include <algorithm>
#include <iterator>
#include <set>
#include <variant>

#include "catalogd/catalog/catalog_objects.h"
#include "catalogd/ddl/ddl_locations_internal.h"
#include "catalogd/ddl/ddl_operations_internal.h"
#include "catalogd/ddl/ddl_partition_specs_internal.h"
#include "catalogd/ddl/ddl_schema_internal.h"
#include "catalogd/loader/partition_stats_params.h"
#include "common/hive/file_format.h"
#include "common/hive/names.h"
#include "common/hive/partition_name.h"

namespace ics::catalog::ddl {

namespace {

// What a simple ALTER changes; applied by AlterTableDefinition.
struct Edit {
  bool no_op = false;
  bool table_changed = true;
  std::vector<hive::Partition> partitions;  // altered partitions (metastore objects)
  std::vector<hive::Partition> originals;   // their previous objects (SET LOCATION)
  bool reload = false;                      // reload the whole table afterwards (location change)
  std::string create_dir;                   // directory to create (SET LOCATION)
  std::string summary;
};

Status ViewNotAllowed(const char* what, const TableRef& ref) {
  return Status::InvalidArgument("ALTER TABLE " + std::string(what) +
                                 " not allowed on a view: " + ref.full());
}

bool IsStatsKey(const std::string& key) {
  return key.rfind(kStatsChunkParamPrefix, 0) == 0 || key == kStatsNumChunksParam;
}

// Column name sets of a table.
bool HasColumn(const std::vector<hive::FieldSchema>& cols, const std::string& name) {
  for (const auto& f : cols) {
    if (f.name == name) return true;
  }
  return false;
}

// The state of one ALTER: the table as the catalog holds it, its metastore
// object being edited, and the edit being built.
struct Alter {
  CatalogContext* ctx;
  const TableRef& t;
  const TableState& old;
  hive::Table* hms;
  Edit* e;

  // The metastore objects of the partitions a partition set names.
  Status Target(const std::vector<PartitionSpec>& set) {
    ICS_ASSIGN_OR_RETURN(std::vector<PartitionPtr> parts, ResolvePartitionSet(old, set, false));
    ICS_ASSIGN_OR_RETURN(e->partitions, MetastorePartitions(ctx, t, parts));
    e->table_changed = false;
    e->summary = "Updated " + std::to_string(e->partitions.size()) + " partition(s).";
    return Status::OK();
  }

  Status operator()(const alter::AddColumns& p) {
    std::set<std::string> added;
    size_t n = 0;
    for (hive::FieldSchema f : p.columns) {
      ICS_RETURN_IF_ERROR(ValidateColumn(&f, false));
      if (added.count(f.name) != 0) {
        return Status::InvalidArgument("Duplicate column name: " + f.name);
      }
      if (HasColumn(hms->sd.cols, f.name) || HasColumn(hms->partitionKeys, f.name)) {
        if (p.if_not_exists) continue;
        return Status::AlreadyExists("Column already exists: " + f.name);
      }
      added.insert(f.name);
      hms->sd.cols.push_back(std::move(f));
      ++n;
    }
    if (n == 0) {
      if (p.columns.empty()) return Status::InvalidArgument("ADD COLUMNS without columns");
      e->no_op = true;
      e->summary = "No new column(s) have been added to the table.";
      return Status::OK();
    }
    e->summary = "New column(s) have been added to the table.";
    return Status::OK();
  }

  Status operator()(const alter::ReplaceColumns& p) {
    if (p.columns.empty()) {
      return Status::InvalidArgument("Table " + t.full() + " must have at least one column");
    }
    std::vector<hive::FieldSchema> cols = p.columns;
    std::vector<hive::FieldSchema> keys = hms->partitionKeys;
    ICS_RETURN_IF_ERROR(ValidateColumns(&cols, &keys));
    hms->sd.cols = std::move(cols);
    e->summary = "Table columns have been replaced.";
    return Status::OK();
  }

  Status operator()(const alter::ChangeColumn& p) {
    ICS_ASSIGN_OR_RETURN(std::string name, NormalizeColumnName(p.column));
    if (HasColumn(hms->partitionKeys, name)) {
      return Status::InvalidArgument("Cannot modify partition column '" + name + "' of " +
                                     t.full());
    }
    hive::FieldSchema* target = nullptr;
    for (auto& f : hms->sd.cols) {
      if (f.name == name) target = &f;
    }
    if (target == nullptr) {
      return Status::NotFound("Column does not exist: " + name + " in " + t.full());
    }
    hive::FieldSchema f = p.definition;
    ICS_RETURN_IF_ERROR(ValidateColumn(&f, false));
    if (f.name != name &&
        (HasColumn(hms->sd.cols, f.name) || HasColumn(hms->partitionKeys, f.name))) {
      return Status::AlreadyExists("Column already exists: " + f.name);
    }
    if (p.keep_comment) f.comment = target->comment;
    *target = std::move(f);
    e->summary = "Column has been altered.";
    return Status::OK();
  }

  Status operator()(const alter::DropColumn& p) {
    ICS_ASSIGN_OR_RETURN(std::string name, NormalizeColumnName(p.column));
    if (HasColumn(hms->partitionKeys, name)) {
      return Status::InvalidArgument("Cannot drop partition column: " + name);
    }
    auto& cols = hms->sd.cols;
    auto it = std::find_if(cols.begin(), cols.end(), [&](const auto& f) { return f.name == name; });
    if (it == cols.end()) {
      return Status::NotFound("Column does not exist: " + name + " in " + t.full());
    }
    if (cols.size() == 1) {
      return Status::InvalidArgument("Cannot drop column '" + name + "' from " + t.full() +
                                     ": a table must have at least one column");
    }
    cols.erase(it);
    e->summary = "Column has been dropped.";
    return Status::OK();
  }

  Status operator()(const alter::SetFileFormat& p) {
    ICS_RETURN_IF_ERROR(CheckSupportedFormat(p.format));
    if (p.partitions) {
      ICS_RETURN_IF_ERROR(Target(*p.partitions));
      for (hive::Partition& part : e->partitions) SetFileFormat(p.format, &part.sd);
      return Status::OK();
    }
    SetFileFormat(p.format, &hms->sd);
    e->summary = "Updated table.";
    return Status::OK();
  }

  static Status SetRowFormat(const RowFormat& rf, hive::StorageDescriptor* sd,
                             const std::string& what) {
    const impala::THdfsFileFormat::type f = FileFormatOf(*sd);
    if (f != impala::THdfsFileFormat::TEXT && f != impala::THdfsFileFormat::SEQUENCE_FILE) {
      return Status::InvalidArgument(
          "ALTER TABLE SET ROW FORMAT is only supported on TEXTFILE and SEQUENCEFILE; " + what +
          " is " + FileFormatName(f));
    }
    SetDelimiters(rf, &sd->serdeInfo.parameters);
    return Status::OK();
  }

  Status operator()(const alter::SetRowFormat& p) {
    if (p.partitions) {
      ICS_RETURN_IF_ERROR(Target(*p.partitions));
      for (hive::Partition& part : e->partitions) {
        ICS_RETURN_IF_ERROR(SetRowFormat(p.format, &part.sd, "a partition of " + t.full()));
      }
      return Status::OK();
    }
    ICS_RETURN_IF_ERROR(SetRowFormat(p.format, &hms->sd, t.full()));
    e->summary = "Updated table.";
    return Status::OK();
  }

  Status operator()(const alter::SetLocation& p) {
    ICS_ASSIGN_OR_RETURN(std::string loc, NormalizeLocation(p.location));
    e->create_dir = loc;
    e->summary = "New location has been set.";
    if (!p.partition) {
      hms->sd.location = loc;
      e->reload = true;
      return Status::OK();
    }
    ICS_ASSIGN_OR_RETURN(std::vector<std::string> values, PartitionValues(old, *p.partition));
    ICS_ASSIGN_OR_RETURN(std::string name,
                         MakePartitionName(PartitionKeyNames(old.clustering_columns), values));
    PartitionPtr part = old.partitions_by_name.Get(name);
    if (part == nullptr) {
      return Status::NotFound("Partition does not exist: " + PartitionDisplayName(t, name));
    }
    ICS_ASSIGN_OR_RETURN(e->partitions, MetastorePartitions(ctx, t, {part}));
    e->originals = e->partitions;
    e->partitions[0].sd.location = loc;
    e->table_changed = false;
    return Status::OK();
  }

  // Sets or unsets keys of one parameter map.
  static Status EditProperties(const alter::SetProperties* set, const alter::UnsetProperties* unset,
                               std::map<std::string, std::string>* params,
                               const std::string& what) {
    if (set != nullptr) {
      for (const auto& [k, v] : set->properties) {
        if (IsStatsKey(k)) {
          return Status::InvalidArgument("Property '" + k + "' is reserved for statistics");
        }
        (*params)[k] = v;
      }
      return Status::OK();
    }
    for (const std::string& k : unset->keys) {
      if (IsStatsKey(k)) {
        return Status::InvalidArgument("Property '" + k + "' is reserved for statistics");
      }
      if (params->erase(k) == 0 && !unset->if_exists) {
        return Status::NotFound("Property '" + k + "' does not exist on " + what);
      }
    }
    return Status::OK();
  }

  Status Properties(const char* what, bool serde,
                    const std::optional<std::vector<PartitionSpec>>& partitions,
                    const alter::SetProperties* set, const alter::UnsetProperties* unset) {
    if (IsView(*hms) && (serde || partitions)) return ViewNotAllowed(what, t);
    if (partitions) {
      ICS_RETURN_IF_ERROR(Target(*partitions));
      for (hive::Partition& part : e->partitions) {
        ICS_RETURN_IF_ERROR(EditProperties(set, unset,
                                           serde ? &part.sd.serdeInfo.parameters : &part.parameters,
                                           "a partition of " + t.full()));
      }
      return Status::OK();
    }
    ICS_RETURN_IF_ERROR(EditProperties(
        set, unset, serde ? &hms->sd.serdeInfo.parameters : &hms->parameters, t.full()));
    if (!IsView(*hms) && !serde) {
      // EXTERNAL=TRUE/FALSE turns a table external/managed, as in Hive.
      hms->tableType = IsExternal(*hms) ? kExternalTable : kManagedTable;
    }
    e->summary = "Updated " + AsciiLower(ObjectWord(IsView(*hms))) + ".";
    return Status::OK();
  }

  Status operator()(const alter::SetProperties& p) {
    return Properties("SET_TBL_PROPERTIES", p.serde, p.partitions, &p, nullptr);
  }
  Status operator()(const alter::UnsetProperties& p) {
    return Properties("UNSET_TBL_PROPERTIES", p.serde, p.partitions, nullptr, &p);
  }

  // Only the parameters change: the view's text and columns are kept.
  Status operator()(const alter::SetViewProperties& p) {
    ICS_RETURN_IF_ERROR(SetViewProperties(p, t, *hms, &hms->parameters));
    e->summary = "Updated view.";
    return Status::OK();
  }
  Status operator()(const alter::UnsetViewProperties& p) {
    ICS_RETURN_IF_ERROR(UnsetViewProperties(p, t, *hms, &hms->parameters));
    e->summary = "Updated view.";
    return Status::OK();
  }

  Status operator()(const alter::SetOwner& p) {
    if (p.owner.empty()) return Status::InvalidArgument("SET OWNER: the owner name is empty");
    hms->owner = p.owner;
    e->summary = "Updated " + AsciiLower(ObjectWord(IsView(*hms))) + ".";
    return Status::OK();
  }
};

bool ViewMayTake(const TableAlteration& a) {
  return std::holds_alternative<alter::SetProperties>(a) ||
         std::holds_alternative<alter::UnsetProperties>(a) ||
         std::holds_alternative<alter::SetOwner>(a) ||
         std::holds_alternative<alter::SetViewProperties>(a) ||
         std::holds_alternative<alter::UnsetViewProperties>(a);
}

}  // namespace

Result<DdlOutcome> AlterTableDefinition(CatalogContext* ctx, const TableAlterationCommand& c) {
  ICS_ASSIGN_OR_RETURN(TableRef t, NormalizeTableRef(c.db, c.table));
  ScopedLocks locks(ctx->catalog, {{t.db, t.table}});
  ICS_ASSIGN_OR_RETURN(TablePtr old, LoadedTableLocked(ctx, t));
  ICS_ASSIGN_OR_RETURN(hive::Table hms, MetastoreTable(ctx, t));
  if (IsView(hms) && !ViewMayTake(c.change)) return ViewNotAllowed(AlterationName(c.change), t);
  const hive::Table before = hms;
  Edit e;
  ICS_RETURN_IF_ERROR(std::visit(Alter{ctx, t, *old, &hms, &e}, c.change));
  if (e.no_op) return NoOp(ctx, e.summary);

  MetastoreTxn txn;
  if (e.table_changed) {
    hms.parameters[kLastDdlTimeParam] = std::to_string(NowSeconds());
    txn.ops.push_back(AlterTableOp(t, hms));
  }
  for (const hive::Partition& part : e.partitions) txn.ops.push_back(AlterPartitionOp(part));
  ICS_RETURN_IF_ERROR(Commit(ctx, txn));
  if (!e.create_dir.empty()) {
    Status dir = ctx->fs->CreateDirectories(e.create_dir);
    if (!dir.ok()) {
      MetastoreTxn undo;
      if (e.table_changed) undo.ops.push_back(AlterTableOp(t, before));
      for (const hive::Partition& part : e.originals) undo.ops.push_back(AlterPartitionOp(part));
      Compensate(ctx, undo, "ALTER TABLE " + t.full());
      return dir.WithContext("creating " + e.create_dir);
    }
  }
  if (e.reload) {
    return InstallTable(ctx, LoadOrUnloaded(ctx, t.db, t.table, hms), e.summary);
  }
  auto build = [&]() -> Result<std::shared_ptr<TableState>> {
    ICS_ASSIGN_OR_RETURN(std::shared_ptr<TableState> next, DeriveTable(ctx, *old, hms));
    for (const hive::Partition& part : e.partitions) {
      PartitionPtr current = PartitionWithValues(*next, part.values);
      if (current == nullptr) continue;
      ICS_RETURN_IF_ERROR(ReplacePartition(ctx, next.get(), *current, part));
    }
    return next;
  };
  return InstallAfterCommit(ctx, t, build(), e.summary);
}

namespace {

// The new object of a renamed table, from its current one (under the locks).
using RenamedObject = std::function<Result<hive::Table>(const hive::Table& current)>;

// RENAME of `from` to `to`. `renamed_object` (may be empty) builds the whole
// new object a Hive Metastore client sent; else the current one is kept. A
// managed table whose location the caller did not change moves to the
// default location of its new name.
Result<DdlOutcome> Rename(CatalogContext* ctx, const TableRef& from, const TableRef& to,
                          DropTableCommand::Kind kind, const RenamedObject& renamed_object) {
  using Kind = DropTableCommand::Kind;
  ScopedLocks locks(ctx->catalog,
                    {{from.db, ""}, {to.db, ""}, {from.db, from.table}, {to.db, to.table}});
  if (ctx->catalog->GetDatabase(from.db) == nullptr) return DatabaseNotFound(from.db);
  TablePtr current = ctx->catalog->GetTable(from.db, from.table);
  if (current == nullptr) return TableNotFound(from);
  if (ctx->catalog->GetDatabase(to.db) == nullptr) return DatabaseNotFound(to.db);
  if (ctx->catalog->GetTable(to.db, to.table) != nullptr) {
    return Status::AlreadyExists("Table already exists: " + to.full());
  }
  ICS_ASSIGN_OR_RETURN(hive::Table hms, MetastoreTable(ctx, from));
  if (kind == Kind::kView && !IsView(hms)) {
    return Status::InvalidArgument("ALTER VIEW not allowed on a table: " + from.full());
  }
  if (kind == Kind::kTable && IsView(hms)) {
    return Status::InvalidArgument("ALTER TABLE not allowed on a view: " + from.full());
  }
  hive::Table renamed = hms;
  if (renamed_object) {
    ICS_ASSIGN_OR_RETURN(renamed, renamed_object(hms));
  }
  const bool keeps_location = renamed.sd.location == hms.sd.location;
  renamed.dbName = to.db;
  renamed.tableName = to.table;
  renamed.parameters[kLastDdlTimeParam] = std::to_string(NowSeconds());
  MetastoreTxn txn;
  std::string old_loc;
  std::string new_loc;
  std::vector<hive::Partition> moved;  // original partition objects (new table name)
  if (keeps_location && IsManaged(hms) && !hms.sd.location.empty()) {
    ICS_ASSIGN_OR_RETURN(old_loc, NormalizeLocation(hms.sd.location));
    new_loc = DefaultTableLocation(*ctx, to.db, to.table);
    if (new_loc == old_loc) {
      new_loc.clear();
    } else {
      ICS_ASSIGN_OR_RETURN(bool taken, ctx->fs->Exists(new_loc));
      if (taken) {
        return Status::AlreadyExists("Cannot rename " + from.full() + " to " + to.full() +
                                     ": its new location already exists: " + new_loc);
      }
      renamed.sd.location = new_loc;
    }
  }
  txn.ops.push_back(AlterTableOp(from, renamed));
  if (!new_loc.empty() && !hms.partitionKeys.empty()) {
    ICS_ASSIGN_OR_RETURN(std::vector<hive::Partition> parts,
                         ctx->metastore->GetPartitions(from.db, from.table));
    for (hive::Partition& part : parts) {
      Result<std::string> loc = NormalizeLocation(part.sd.location);
      if (part.sd.location.empty() || !loc.ok() || !IsUnder(*loc, old_loc)) continue;
      // The partition is keyed by the new name once the table op ran.
      part.dbName = to.db;
      part.tableName = to.table;
      hive::Partition updated = part;
      updated.sd.location = new_loc + loc->substr(old_loc.size());
      txn.ops.push_back(AlterPartitionOp(std::move(updated)));
      moved.push_back(std::move(part));
    }
  }
  // Undo (if moving the data fails): restore the partition locations while
  // the table still has its new name, then rename it back.
  MetastoreTxn undo;
  for (const hive::Partition& part : moved) undo.ops.push_back(AlterPartitionOp(part));
  undo.ops.push_back(AlterTableOp(to, hms));
  ICS_RETURN_IF_ERROR(Commit(ctx, txn));

  if (!new_loc.empty()) {
    Result<bool> exists = ctx->fs->Exists(old_loc);
    Status moved_ok = exists.ok() ? Status::OK() : exists.status();
    if (moved_ok.ok()) moved_ok = ctx->fs->CreateDirectories(ParentDir(new_loc));
    if (moved_ok.ok()) {
      moved_ok = *exists ? ctx->fs->Rename(old_loc, new_loc) : ctx->fs->CreateDirectories(new_loc);
    }
    if (!moved_ok.ok()) {
      Compensate(ctx, undo, "renaming " + from.full());
      return moved_ok.WithContext("moving the data of " + from.full() + " to " + new_loc);
    }
  }
  std::shared_ptr<TableState> next = LoadOrUnloaded(ctx, to.db, to.table, renamed);
  ChangeSet cs;
  cs.drop_tables.emplace_back(from.db, from.table);
  cs.put_tables.push_back(next);
  DdlOutcome out;
  out.version = ctx->catalog->Install(std::move(cs));
  out.removed_tables.push_back(current);
  out.tables.push_back(next);
  out.summary = "Renaming was successful.";
  return out;
}

}  // namespace

Result<DdlOutcome> RenameTable(CatalogContext* ctx, const RenameTableCommand& c) {
  ICS_ASSIGN_OR_RETURN(TableRef from, NormalizeTableRef(c.db, c.table));
  ICS_ASSIGN_OR_RETURN(TableRef to, NormalizeTableRef(c.new_db, c.new_table));
  if (from.db == to.db && from.table == to.table) {
    return Status::AlreadyExists("Table already exists: " + to.full());
  }
  return Rename(ctx, from, to, c.kind, RenamedObject());
}

Result<DdlOutcome> AlterTable(CatalogContext* ctx, const AlterTableCommand& c) {
  ICS_ASSIGN_OR_RETURN(TableRef t, NormalizeTableRef(c.db, c.table));
  hive::Table def = c.table_def;
  if (def.dbName.empty()) def.dbName = t.db;
  if (def.tableName.empty()) def.tableName = t.table;
  ICS_ASSIGN_OR_RETURN(TableRef to, NormalizeTableRef(def.dbName, def.tableName));
  def.dbName = to.db;
  def.tableName = to.table;
  ICS_RETURN_IF_ERROR(ValidateColumns(&def.sd.cols, &def.partitionKeys));
  // Fields the caller left out keep their values; the rest is the caller's.
  auto complete = [&t](const hive::Table& current, hive::Table* next) -> Status {
    if (next->tableType.empty()) next->tableType = current.tableType;
    if (!IsKnownTableType(next->tableType)) {
      return Status::InvalidArgument("Unsupported table type '" + next->tableType + "' of " +
                                     t.full());
    }
    if (next->sd.location.empty()) next->sd.location = current.sd.location;
    if (next->createTime == 0) next->createTime = current.createTime;
    if (next->owner.empty()) next->owner = current.owner;
    if (PartitionKeyNames(*next) != PartitionKeyNames(current)) {
      return Status::InvalidArgument("The partition keys of " + t.full() + " cannot be changed");
    }
    next->parameters[kLastDdlTimeParam] = std::to_string(NowSeconds());
    return Status::OK();
  };
  if (to.db != t.db || to.table != t.table) {
    return Rename(ctx, t, to, DropTableCommand::Kind::kAny,
                  [&](const hive::Table& current) -> Result<hive::Table> {
                    hive::Table next = def;
                    ICS_RETURN_IF_ERROR(complete(current, &next));
                    return next;
                  });
  }
  TableChange change;
  change.db = t.db;
  change.table = t.table;
  change.summary = "Table has been altered.";
  change.plan = [&](const TableState&, const hive::Table& current) -> Result<TableEdits> {
    TableEdits edits;
    edits.definition = def;
    ICS_RETURN_IF_ERROR(complete(current, &*edits.definition));
    return edits;
  };
  return ChangeTable(ctx, change);
}

}  // namespace ics::catalog::ddl

namespace ics::catalog {

const char* AlterationName(const TableAlteration& a) {
  static constexpr const char* kNames[] = {
      "ADD_COLUMNS",          "REPLACE_COLUMNS",     "ALTER_COLUMN",          "DROP_COLUMN",
      "SET_FILE_FORMAT",      "SET_ROW_FORMAT",      "SET_LOCATION",          "SET_TBL_PROPERTIES",
      "UNSET_TBL_PROPERTIES", "SET_VIEW_PROPERTIES", "UNSET_VIEW_PROPERTIES", "SET_OWNER"};
  static_assert(std::size(kNames) == std::variant_size_v<TableAlteration>);
  return kNames[a.index()];
}

}  // namespace ics::catalog
