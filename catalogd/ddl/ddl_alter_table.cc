// ALTER TABLE / ALTER VIEW: dispatch, column changes, rename, file and row
// format, location, properties and owner. Partition operations live in
// ddl_partitions.cc, statistics in ddl_stats.cc.
#include <glog/logging.h>

#include <algorithm>

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

using A = impala::TAlterTableType;

// What a simple ALTER changes; applied by ApplyEdit.
struct Edit {
  bool no_op = false;
  bool table_changed = true;
  std::vector<hive::Partition> partitions;  // altered partitions (metastore objects)
  std::vector<hive::Partition> originals;   // their previous objects (SET LOCATION)
  bool reload = false;                      // reload the whole table afterwards (location change)
  std::string create_dir;                   // directory to create (SET LOCATION)
  std::string summary;
};

std::string OpName(A::type t) { return impala::to_string(t); }

Status ViewNotAllowed(A::type t, const TableRef& ref) {
  return Status::InvalidArgument("ALTER TABLE " + OpName(t) +
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

Status AddColumns(const impala::TAlterTableAddColsParams& p, hive::Table* hms, Edit* e) {
  std::set<std::string> added;
  size_t n = 0;
  for (const impala::TColumn& c : p.columns) {
    ICS_ASSIGN_OR_RETURN(hive::FieldSchema f, ToFieldSchema(c, false));
    if (added.count(f.name) != 0)
      return Status::InvalidArgument("Duplicate column name: " + f.name);
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

Status ReplaceColumns(const impala::TAlterTableReplaceColsParams& p, const TableRef& t,
                      hive::Table* hms, Edit* e) {
  if (p.columns.empty())
    return Status::InvalidArgument("Table " + t.full() + " must have at least one column");
  std::set<std::string> seen;
  for (const auto& k : hms->partitionKeys) seen.insert(k.name);
  ICS_ASSIGN_OR_RETURN(hms->sd.cols, ToFieldSchemas(p.columns, false, &seen));
  e->summary = "Table columns have been replaced.";
  return Status::OK();
}

Status AlterColumn(const impala::TAlterTableAlterColParams& p, const TableRef& t, hive::Table* hms,
                   Edit* e) {
  ICS_ASSIGN_OR_RETURN(std::string name, NormalizeColumnName(p.col_name));
  if (HasColumn(hms->partitionKeys, name)) {
    return Status::InvalidArgument("Cannot modify partition column '" + name + "' of " + t.full());
  }
  hive::FieldSchema* target = nullptr;
  for (auto& f : hms->sd.cols) {
    if (f.name == name) target = &f;
  }
  if (target == nullptr)
    return Status::NotFound("Column does not exist: " + name + " in " + t.full());
  ICS_ASSIGN_OR_RETURN(hive::FieldSchema f, ToFieldSchema(p.new_col_def, false));
  if (f.name != name &&
      (HasColumn(hms->sd.cols, f.name) || HasColumn(hms->partitionKeys, f.name))) {
    return Status::AlreadyExists("Column already exists: " + f.name);
  }
  if (!p.new_col_def.__isset.comment) f.comment = target->comment;
  *target = std::move(f);
  e->summary = "Column has been altered.";
  return Status::OK();
}

Status DropColumn(const impala::TAlterTableDropColParams& p, const TableRef& t, hive::Table* hms,
                  Edit* e) {
  ICS_ASSIGN_OR_RETURN(std::string name, NormalizeColumnName(p.col_name));
  if (HasColumn(hms->partitionKeys, name)) {
    return Status::InvalidArgument("Cannot drop partition column: " + name);
  }
  auto& cols = hms->sd.cols;
  auto it = std::find_if(cols.begin(), cols.end(), [&](const auto& f) { return f.name == name; });
  if (it == cols.end())
    return Status::NotFound("Column does not exist: " + name + " in " + t.full());
  if (cols.size() == 1) {
    return Status::InvalidArgument("Cannot drop column '" + name + "' from " + t.full() +
                                   ": a table must have at least one column");
  }
  cols.erase(it);
  e->summary = "Column has been dropped.";
  return Status::OK();
}

// The metastore objects of the partitions a partition_set names.
Result<std::vector<hive::Partition>> TargetPartitions(
    CatalogContext* ctx, const TableRef& t, const TableState& old,
    const std::vector<std::vector<impala::TPartitionKeyValue>>& set) {
  ICS_ASSIGN_OR_RETURN(std::vector<PartitionPtr> parts, ResolvePartitionSet(old, set, false));
  return MetastorePartitions(ctx, t, parts);
}

std::string PartitionsSummary(size_t n) {
  return "Updated " + std::to_string(n) + " partition(s).";
}

Status SetRowFormat(const impala::TTableRowFormat& rf, hive::StorageDescriptor* sd,
                    const std::string& what) {
  const impala::THdfsFileFormat::type f = FileFormatOf(*sd);
  if (f != impala::THdfsFileFormat::TEXT && f != impala::THdfsFileFormat::SEQUENCE_FILE) {
    return Status::InvalidArgument(
        "ALTER TABLE SET ROW FORMAT is only supported on TEXTFILE and "
        "SEQUENCEFILE; " +
        what + " is " + FileFormatName(f));
  }
  auto& serde = sd->serdeInfo.parameters;
  if (rf.__isset.field_terminator) {
    serde["field.delim"] = rf.field_terminator;
    serde["serialization.format"] = rf.field_terminator;
  }
  if (rf.__isset.line_terminator) serde["line.delim"] = rf.line_terminator;
  if (rf.__isset.escaped_by) serde["escape.delim"] = rf.escaped_by;
  return Status::OK();
}

// Sets or unsets properties of one parameter map.
Status EditProperties(const impala::TAlterTableParams& p,
                      std::map<std::string, std::string>* params, const std::string& what) {
  if (p.alter_type == A::SET_TBL_PROPERTIES) {
    for (const auto& [k, v] : p.set_tbl_properties_params.properties) {
      if (IsStatsKey(k))
        return Status::InvalidArgument("Property '" + k + "' is reserved for statistics");
      (*params)[k] = v;
    }
    return Status::OK();
  }
  const auto& u = p.unset_tbl_properties_params;
  for (const std::string& k : u.property_keys) {
    if (IsStatsKey(k))
      return Status::InvalidArgument("Property '" + k + "' is reserved for statistics");
    if (params->erase(k) == 0 && !u.if_exists) {
      return Status::NotFound("Property '" + k + "' does not exist on " + what);
    }
  }
  return Status::OK();
}

Status SetOrUnsetProperties(CatalogContext* ctx, const impala::TAlterTableParams& p,
                            const TableRef& t, const TableState& old, hive::Table* hms, Edit* e) {
  const bool set = p.alter_type == A::SET_TBL_PROPERTIES;
  const impala::TTablePropertyType::type target =
      set ? p.set_tbl_properties_params.target : p.unset_tbl_properties_params.target;
  const bool has_parts = set ? p.set_tbl_properties_params.__isset.partition_set
                             : p.unset_tbl_properties_params.__isset.partition_set;
  const bool serde = target == impala::TTablePropertyType::SERDE_PROPERTY;
  if (IsView(*hms) && (serde || has_parts)) return ViewNotAllowed(p.alter_type, t);
  if (has_parts) {
    const auto& set_spec = set ? p.set_tbl_properties_params.partition_set
                               : p.unset_tbl_properties_params.partition_set;
    ICS_ASSIGN_OR_RETURN(e->partitions, TargetPartitions(ctx, t, old, set_spec));
    for (hive::Partition& part : e->partitions) {
      ICS_RETURN_IF_ERROR(EditProperties(p,
                                         serde ? &part.sd.serdeInfo.parameters : &part.parameters,
                                         "a partition of " + t.full()));
    }
    e->table_changed = false;
    e->summary = PartitionsSummary(e->partitions.size());
    return Status::OK();
  }
  ICS_RETURN_IF_ERROR(
      EditProperties(p, serde ? &hms->sd.serdeInfo.parameters : &hms->parameters, t.full()));
  if (!IsView(*hms) && !serde) {
    // EXTERNAL=TRUE/FALSE turns a table external/managed, as in Hive.
    hms->tableType = IsExternal(*hms) ? kExternalTable : kManagedTable;
  }
  e->summary = "Updated " + AsciiLower(ObjectWord(IsView(*hms))) + ".";
  return Status::OK();
}

// Fills `e` (and edits `hms`) for the simple ALTER kinds.
Status BuildEdit(CatalogContext* ctx, const impala::TAlterTableParams& p, const TableRef& t,
                 const TableState& old, hive::Table* hms, Edit* e) {
  const A::type type = p.alter_type;
  const bool view_ok = type == A::SET_TBL_PROPERTIES || type == A::UNSET_TBL_PROPERTIES ||
                       type == A::SET_OWNER || type == A::SET_VIEW_PROPERTIES ||
                       type == A::UNSET_VIEW_PROPERTIES;
  if (IsView(*hms) && !view_ok) return ViewNotAllowed(type, t);
  auto missing = [&](const char* field) {
    return Status::InvalidArgument("ALTER TABLE " + OpName(type) + " request without " + field);
  };
  switch (type) {
    case A::ADD_COLUMNS:
      if (!p.__isset.add_cols_params) return missing("add_cols_params");
      return AddColumns(p.add_cols_params, hms, e);
    case A::REPLACE_COLUMNS:
      if (!p.__isset.replace_cols_params) return missing("replace_cols_params");
      return ReplaceColumns(p.replace_cols_params, t, hms, e);
    case A::ALTER_COLUMN:
      if (!p.__isset.alter_col_params) return missing("alter_col_params");
      return AlterColumn(p.alter_col_params, t, hms, e);
    case A::DROP_COLUMN:
      if (!p.__isset.drop_col_params) return missing("drop_col_params");
      return DropColumn(p.drop_col_params, t, hms, e);
    case A::SET_FILE_FORMAT: {
      if (!p.__isset.set_file_format_params) return missing("set_file_format_params");
      const auto& f = p.set_file_format_params;
      ICS_RETURN_IF_ERROR(CheckSupportedFormat(f.file_format));
      if (f.__isset.partition_set) {
        ICS_ASSIGN_OR_RETURN(e->partitions, TargetPartitions(ctx, t, old, f.partition_set));
        for (hive::Partition& part : e->partitions) SetFileFormat(f.file_format, &part.sd);
        e->table_changed = false;
        e->summary = PartitionsSummary(e->partitions.size());
      } else {
        SetFileFormat(f.file_format, &hms->sd);
        e->summary = "Updated table.";
      }
      return Status::OK();
    }
    case A::SET_ROW_FORMAT: {
      if (!p.__isset.set_row_format_params) return missing("set_row_format_params");
      const auto& f = p.set_row_format_params;
      if (f.__isset.partition_set) {
        ICS_ASSIGN_OR_RETURN(e->partitions, TargetPartitions(ctx, t, old, f.partition_set));
        for (hive::Partition& part : e->partitions) {
          ICS_RETURN_IF_ERROR(SetRowFormat(f.row_format, &part.sd, "a partition of " + t.full()));
        }
        e->table_changed = false;
        e->summary = PartitionsSummary(e->partitions.size());
      } else {
        ICS_RETURN_IF_ERROR(SetRowFormat(f.row_format, &hms->sd, t.full()));
        e->summary = "Updated table.";
      }
      return Status::OK();
    }
    case A::SET_LOCATION: {
      if (!p.__isset.set_location_params) return missing("set_location_params");
      const auto& f = p.set_location_params;
      ICS_ASSIGN_OR_RETURN(std::string loc, NormalizeLocation(f.location));
      e->create_dir = loc;
      e->summary = "New location has been set.";
      if (f.__isset.partition_spec) {
        ICS_ASSIGN_OR_RETURN(std::vector<std::string> values,
                             PartitionValues(old, f.partition_spec));
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
      } else {
        hms->sd.location = loc;
        e->reload = true;
      }
      return Status::OK();
    }
    case A::SET_TBL_PROPERTIES:
      if (!p.__isset.set_tbl_properties_params) return missing("set_tbl_properties_params");
      return SetOrUnsetProperties(ctx, p, t, old, hms, e);
    case A::UNSET_TBL_PROPERTIES:
      if (!p.__isset.unset_tbl_properties_params) return missing("unset_tbl_properties_params");
      return SetOrUnsetProperties(ctx, p, t, old, hms, e);
    case A::SET_VIEW_PROPERTIES:
    case A::UNSET_VIEW_PROPERTIES: {
      // Only the parameters change: the view's text and columns are kept as they are.
      const hive::Table original = *hms;
      ICS_RETURN_IF_ERROR(EditViewProperties(p, t, original, &hms->parameters));
      e->summary = "Updated view.";
      return Status::OK();
    }
    case A::SET_OWNER:
      if (!p.__isset.set_owner_params) return missing("set_owner_params");
      if (p.set_owner_params.owner_name.empty()) {
        return Status::InvalidArgument("SET OWNER: the owner name is empty");
      }
      hms->owner = p.set_owner_params.owner_name;
      e->summary = "Updated " + AsciiLower(ObjectWord(IsView(*hms))) + ".";
      return Status::OK();
    default:
      return Status::NotImplemented("ALTER TABLE type " + OpName(type) + " is not supported");
  }
}

Result<DdlOutcome> SimpleAlter(CatalogContext* ctx, const impala::TAlterTableParams& p,
                               const TableRef& t) {
  ScopedLocks locks(ctx->catalog, {{t.db, t.table}});
  ICS_ASSIGN_OR_RETURN(TablePtr old, LoadedTableLocked(ctx, t));
  ICS_ASSIGN_OR_RETURN(hive::Table hms, MetastoreTable(ctx, t));
  const hive::Table before = hms;
  Edit e;
  ICS_RETURN_IF_ERROR(BuildEdit(ctx, p, t, *old, &hms, &e));
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

}  // namespace

Result<DdlOutcome> AlterTable(CatalogContext* ctx, const impala::TAlterTableParams& p) {
  ICS_ASSIGN_OR_RETURN(TableRef t, NormalizeTableRef(p.table_name));
  switch (p.alter_type) {
    case A::RENAME_TABLE:
    case A::RENAME_VIEW:
      return RenameTable(ctx, p);
    case A::ADD_PARTITION:
      if (!p.__isset.add_partition_params) {
        return Status::InvalidArgument(
            "ALTER TABLE ADD_PARTITION request without add_partition_params");
      }
      return AddPartitions(ctx, t, p.add_partition_params);
    case A::DROP_PARTITION:
      if (!p.__isset.drop_partition_params) {
        return Status::InvalidArgument(
            "ALTER TABLE DROP_PARTITION request without drop_partition_params");
      }
      return DropPartitions(ctx, t, p.drop_partition_params);
    case A::RECOVER_PARTITIONS:
      return RecoverPartitions(ctx, t);
    case A::UPDATE_STATS:
      if (!p.__isset.update_stats_params) {
        return Status::InvalidArgument(
            "ALTER TABLE UPDATE_STATS request without update_stats_params");
      }
      return UpdateStats(ctx, t, p.update_stats_params);
    case A::SET_CACHED:
      return Status::NotImplemented(
          "ALTER TABLE SET CACHED / UNCACHED is not supported: this "
          "catalog service has no HDFS cache");
    case A::ADD_DROP_RANGE_PARTITION:
      return Status::NotImplemented("ALTER TABLE ADD/DROP RANGE PARTITION (Kudu) is not supported");
    default:
      return SimpleAlter(ctx, p, t);
  }
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

Result<DdlOutcome> RenameTable(CatalogContext* ctx, const impala::TAlterTableParams& p) {
  ICS_ASSIGN_OR_RETURN(TableRef from, NormalizeTableRef(p.table_name));
  if (!p.__isset.rename_params) {
    return Status::InvalidArgument("ALTER TABLE " + OpName(p.alter_type) +
                                   " request without rename_params");
  }
  ICS_ASSIGN_OR_RETURN(TableRef to, NormalizeTableRef(p.rename_params.new_table_name));
  if (from.db == to.db && from.table == to.table) {
    return Status::AlreadyExists("Table already exists: " + to.full());
  }
  return Rename(ctx, from, to,
                p.alter_type == A::RENAME_VIEW ? DropTableCommand::Kind::kView
                                               : DropTableCommand::Kind::kTable,
                RenamedObject());
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
