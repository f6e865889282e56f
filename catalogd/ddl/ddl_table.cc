// CREATE TABLE [LIKE], CREATE / ALTER VIEW, DROP TABLE / VIEW, TRUNCATE.
#include <glog/logging.h>

#include "catalogd/catalog/catalog_objects.h"
#include "catalogd/ddl/ddl_locations_internal.h"
#include "catalogd/ddl/ddl_operations_internal.h"
#include "catalogd/ddl/ddl_schema_internal.h"
#include "catalogd/loader/partition_stats_params.h"
#include "common/hive/file_format.h"
#include "common/hive/names.h"
#include "common/hive/partition_name.h"

namespace ics::catalog::ddl {

namespace {

using FF = impala::THdfsFileFormat;

// SORT BY columns as Impala keeps them in table properties.
Status SetSortColumns(const SortBy& sort_by, const hive::Table& hms,
                      std::map<std::string, std::string>* params) {
  if (sort_by.columns.empty()) return Status::OK();
  std::string joined;
  for (const std::string& c : sort_by.columns) {
    const std::string name = AsciiLower(c);
    bool found = false;
    for (const auto& f : hms.sd.cols) found = found || f.name == name;
    if (!found) return Status::InvalidArgument("Sort column does not exist: " + name);
    if (!joined.empty()) joined += ",";
    joined += name;
  }
  (*params)["sort.columns"] = joined;
  (*params)["sort.order"] = sort_by.zorder ? "ZORDER" : "LEXICAL";
  return Status::OK();
}

// Shared tail of CREATE TABLE / CREATE TABLE LIKE / CREATE VIEW: existence
// checks, metastore, directory, catalog. `hms.sd.location` empty = default.
Result<DdlOutcome> CreateCommon(CatalogContext* ctx, const TableRef& t, hive::Table hms,
                                bool if_not_exists) {
  const bool is_view = IsView(hms);
  const std::string word = ObjectWord(is_view);
  ScopedLocks locks(ctx->catalog, {{t.db, ""}, {t.db, t.table}});
  if (ctx->catalog->GetDatabase(t.db) == nullptr) return DatabaseNotFound(t.db);
  if (ctx->catalog->GetTable(t.db, t.table) != nullptr) {
    if (if_not_exists) return NoOp(ctx, word + " already exists.");
    return Status::AlreadyExists(word + " already exists: " + t.full());
  }
  if (!is_view && hms.sd.location.empty()) {
    if (ctx->warehouse_dir.empty() && ctx->catalog->GetDatabase(t.db)->hms.locationUri.empty()) {
      return Status::InvalidArgument("No warehouse directory is configured; give " + t.full() +
                                     " a LOCATION");
    }
    hms.sd.location = DefaultTableLocation(*ctx, t.db, t.table);
  }
  hms.dbName = t.db;
  hms.tableName = t.table;
  hms.createTime = NowSeconds();
  hms.parameters[kLastDdlTimeParam] = std::to_string(hms.createTime);
  if (hms.owner.empty()) hms.owner = ctx->default_owner;

  MetastoreTxn txn;
  txn.ops.push_back(MetastoreOp::CreateTable(t.db, t.table, hms));
  Status committed = Commit(ctx, txn);
  if (!committed.ok()) {
    if (committed.Is(ErrorCode::kAlreadyExists) && if_not_exists) {
      return NoOp(ctx, word + " already exists.");
    }
    return committed;
  }
  if (!is_view) {
    Status dir = ctx->fs->CreateDirectories(hms.sd.location);
    if (!dir.ok()) {
      MetastoreTxn undo;
      undo.ops.push_back(MetastoreOp::DropTable(t.db, t.table));
      Compensate(ctx, undo, "CREATE TABLE " + t.full());
      return dir.WithContext("creating the directory of " + t.full());
    }
  }
  std::shared_ptr<TableState> state = LoadOrUnloaded(ctx, t.db, t.table, hms);
  DdlOutcome out = InstallTable(ctx, std::move(state), word + " has been created.");
  out.new_table_created = true;
  out.table_location = hms.sd.location;
  return out;
}

// Row count, sizes and other statistics that a copied table must not inherit.
void DropCopiedStats(std::map<std::string, std::string>* params) {
  StripStatsParams(params);
  for (const char* key :
       {"rawDataSize", "numFiles", "numFilesErasureCoded", "COLUMN_STATS_ACCURATE",
        "impala.lastComputeStatsTime", "EXTERNAL", kLastDdlTimeParam}) {
    params->erase(key);
  }
}

}  // namespace

Result<DdlOutcome> CreateTable(CatalogContext* ctx, const CreateTableCommand& c) {
  if (c.file_format) ICS_RETURN_IF_ERROR(CheckSupportedFormat(*c.file_format));
  hive::Table hms = c.table;
  ICS_ASSIGN_OR_RETURN(TableRef t, NormalizeTableRef(hms.dbName, hms.tableName));
  if (hms.tableType.empty()) hms.tableType = IsExternal(hms) ? kExternalTable : kManagedTable;
  if (!IsKnownTableType(hms.tableType)) {
    return Status::InvalidArgument("Unsupported table type '" + hms.tableType + "' of " +
                                   t.full());
  }
  const bool view = IsAnyView(hms);
  if (hms.sd.cols.empty()) {
    return Status::InvalidArgument(ObjectWord(view) + " " + t.full() +
                                   " must have at least one column");
  }
  ICS_RETURN_IF_ERROR(ValidateColumns(&hms.sd.cols, &hms.partitionKeys));
  ICS_RETURN_IF_ERROR(SetSortColumns(c.sort_by, hms, &hms.parameters));
  if (!view) {
    if (c.file_format) SetFileFormat(*c.file_format, &hms.sd);
    // What a Hive client leaves out, the metastore fills in: text storage.
    const HmsFormat text = HmsFormatOf(FF::TEXT);
    if (hms.sd.inputFormat.empty()) hms.sd.inputFormat = text.input_format;
    if (hms.sd.outputFormat.empty()) hms.sd.outputFormat = text.output_format;
    if (hms.sd.serdeInfo.serializationLib.empty()) {
      hms.sd.serdeInfo.serializationLib = text.serde_lib;
    }
    SetDelimiters(c.row_format, &hms.sd.serdeInfo.parameters);
    if (!hms.sd.location.empty()) {
      ICS_ASSIGN_OR_RETURN(hms.sd.location, NormalizeLocation(hms.sd.location));
    }
  }
  return CreateCommon(ctx, t, std::move(hms), c.if_not_exists);
}

Result<DdlOutcome> CreateTableLike(CatalogContext* ctx, const CreateTableLikeCommand& p) {
  ICS_ASSIGN_OR_RETURN(TableRef t, NormalizeTableRef(p.db, p.table));
  ICS_ASSIGN_OR_RETURN(TableRef src, NormalizeTableRef(p.src_db, p.src_table));
  if (p.file_format) ICS_RETURN_IF_ERROR(CheckSupportedFormat(*p.file_format));
  // A snapshot of the source, taken before this DDL's locks.
  if (ctx->catalog->GetDatabase(src.db) == nullptr) return DatabaseNotFound(src.db);
  Result<TablePtr> loaded = ctx->loads->GetLoaded(src.db, src.table);
  if (!loaded.ok()) {
    if (loaded.status().Is(ErrorCode::kNotFound)) return TableNotFound(src);
    return loaded.status();
  }
  const TableState& source = **loaded;
  hive::Table hms = source.hms;
  hms.owner = p.owner;
  hms.lastAccessTime = 0;
  DropCopiedStats(&hms.parameters);
  hms.parameters.erase("comment");
  if (IsView(hms)) {
    hms.viewOriginalText.clear();
    hms.viewExpandedText.clear();
    hms.partitionKeys.clear();
    SetFileFormat(FF::TEXT, &hms.sd);
  }
  hms.sd.location.clear();
  if (!p.location.empty()) {
    ICS_ASSIGN_OR_RETURN(hms.sd.location, NormalizeLocation(p.location));
  }
  if (p.file_format) SetFileFormat(*p.file_format, &hms.sd);
  if (p.comment) hms.parameters["comment"] = *p.comment;
  if (p.external) {
    hms.tableType = kExternalTable;
    hms.parameters["EXTERNAL"] = "TRUE";
  } else {
    hms.tableType = kManagedTable;
  }
  ICS_RETURN_IF_ERROR(SetSortColumns(p.sort_by, hms, &hms.parameters));
  return CreateCommon(ctx, t, std::move(hms), p.if_not_exists);
}

Result<DdlOutcome> AlterView(CatalogContext* ctx, const AlterViewCommand& p) {
  ICS_ASSIGN_OR_RETURN(TableRef t, NormalizeTableRef(p.db, p.view));
  if (p.columns.empty()) {
    return Status::InvalidArgument("View " + t.full() + " must have at least one column");
  }
  std::vector<hive::FieldSchema> cols = p.columns;
  std::vector<hive::FieldSchema> no_keys;
  ICS_RETURN_IF_ERROR(ValidateColumns(&cols, &no_keys));
  ScopedLocks locks(ctx->catalog, {{t.db, t.table}});
  ICS_ASSIGN_OR_RETURN(TablePtr old, LoadedTableLocked(ctx, t));
  ICS_ASSIGN_OR_RETURN(hive::Table hms, MetastoreTable(ctx, t));
  if (!IsView(hms))
    return Status::InvalidArgument("ALTER VIEW not allowed on a table: " + t.full());
  hms.sd.cols = std::move(cols);
  hms.viewOriginalText = p.original_text;
  hms.viewExpandedText = p.expanded_text;
  if (p.comment) hms.parameters["comment"] = *p.comment;
  for (const auto& [k, v] : p.properties) hms.parameters[k] = v;
  hms.parameters[kLastDdlTimeParam] = std::to_string(NowSeconds());
  MetastoreTxn txn;
  txn.ops.push_back(AlterTableOp(t, hms));
  ICS_RETURN_IF_ERROR(Commit(ctx, txn));
  return InstallAfterCommit(ctx, t, DeriveTable(ctx, *old, hms), "View has been altered.");
}

Result<DdlOutcome> DropTable(CatalogContext* ctx, const DropTableCommand& c) {
  using Kind = DropTableCommand::Kind;
  ICS_ASSIGN_OR_RETURN(TableRef t, NormalizeTableRef(c.db, c.table));
  ScopedLocks locks(ctx->catalog, {{t.db, ""}, {t.db, t.table}});
  if (ctx->catalog->GetDatabase(t.db) == nullptr) {
    if (c.if_exists) return NoOp(ctx, "Database does not exist.");
    return DatabaseNotFound(t.db);
  }
  TablePtr current = ctx->catalog->GetTable(t.db, t.table);
  if (current == nullptr) {
    const std::string word = ObjectWord(c.kind == Kind::kView);
    if (c.if_exists) return NoOp(ctx, word + " does not exist.");
    return Status::NotFound(word + " does not exist: " + t.full());
  }
  Result<hive::Table> hms = ctx->metastore->GetTable(t.db, t.table);
  if (!hms.ok() && !hms.status().Is(ErrorCode::kNotFound)) return hms.status();
  // The word of messages: what the caller asked to drop, else what it is.
  const bool is_view = hms.ok() ? IsView(*hms) : c.kind == Kind::kView;
  const std::string word = ObjectWord(c.kind == Kind::kAny ? is_view : c.kind == Kind::kView);
  Status fs_status;
  if (hms.ok()) {
    if (is_view && c.kind == Kind::kTable) {
      return Status::InvalidArgument("DROP TABLE not allowed on a view: " + t.full());
    }
    if (!is_view && c.kind == Kind::kView) {
      return Status::InvalidArgument("DROP VIEW not allowed on a table: " + t.full());
    }
    std::vector<hive::Partition> partitions;
    const bool remove_data = c.delete_data && IsManaged(*hms);
    if (remove_data && !hms->partitionKeys.empty()) {
      ICS_ASSIGN_OR_RETURN(partitions, ctx->metastore->GetPartitions(t.db, t.table));
    }
    MetastoreTxn txn;
    txn.ops.push_back(MetastoreOp::DropTable(t.db, t.table));
    ICS_RETURN_IF_ERROR(Commit(ctx, txn));
    if (remove_data) fs_status = RemoveTableData(ctx, *hms, partitions);
  }
  // (Metastore NOT_FOUND: the table was dropped behind the catalog's back;
  // just forget it.)
  ChangeSet cs;
  cs.drop_tables.emplace_back(t.db, t.table);
  DdlOutcome out;
  out.version = ctx->catalog->Install(std::move(cs));
  out.removed_tables.push_back(current);
  out.summary = word + " has been dropped.";
  if (!fs_status.ok()) {
    return fs_status.WithContext(t.full() + " was dropped but removing its data failed");
  }
  return out;
}

Result<DdlOutcome> TruncateTable(CatalogContext* ctx, const TruncateTableCommand& c) {
  ICS_ASSIGN_OR_RETURN(TableRef t, NormalizeTableRef(c.db, c.table));
  ScopedLocks locks(ctx->catalog, {{t.db, t.table}});
  if (c.if_exists && (ctx->catalog->GetDatabase(t.db) == nullptr ||
                      ctx->catalog->GetTable(t.db, t.table) == nullptr)) {
    return NoOp(ctx, "Table does not exist.");
  }
  ICS_ASSIGN_OR_RETURN(TablePtr old, LoadedTableLocked(ctx, t));
  ICS_ASSIGN_OR_RETURN(hive::Table hms, MetastoreTable(ctx, t));
  if (IsView(hms))
    return Status::InvalidArgument("TRUNCATE TABLE not allowed on a view: " + t.full());
  if (IsExternal(hms)) {
    return Status::InvalidArgument("Cannot truncate external table " + t.full() +
                                   ": its data is not managed by the catalog");
  }
  const bool delete_stats = c.delete_stats;
  MetastoreTxn txn;
  std::map<std::string, hive::Partition> changed;  // partition name -> new hms
  if (delete_stats) {
    StripStatsParams(&hms.parameters);
    hms.parameters.erase("COLUMN_STATS_ACCURATE");
    hms.parameters[kLastDdlTimeParam] = std::to_string(NowSeconds());
    txn.ops.push_back(AlterTableOp(t, hms));
    txn.ops.push_back(MetastoreOp::DeleteColumnStats(t.db, t.table));
    if (old->is_partitioned()) {
      ICS_ASSIGN_OR_RETURN(std::vector<hive::Partition> parts,
                           ctx->metastore->GetPartitions(t.db, t.table));
      const std::vector<std::string> keys = PartitionKeyNames(old->clustering_columns);
      for (hive::Partition& part : parts) {
        if (!StripStatsParams(&part.parameters)) continue;
        Result<std::string> name = MakePartitionName(keys, part.values);
        if (!name.ok()) return name.status();
        changed.emplace(*name, part);
        txn.ops.push_back(AlterPartitionOp(std::move(part)));
      }
    }
  }
  ICS_RETURN_IF_ERROR(Commit(ctx, txn));

  // Remove the files of every partition; keep going on errors so the
  // catalog reflects what is left, then report the first one.
  Status fs_status;
  for (const auto& [id, part] : old->partitions) {
    Result<std::vector<FileStatus>> files = ctx->fs->ListFiles(part->location());
    if (!files.ok()) {
      if (fs_status.ok()) fs_status = files.status();
      continue;
    }
    for (const FileStatus& f : *files) {
      Status s = ctx->fs->RemoveAll(part->location() + "/" + f.name);
      if (!s.ok() && fs_status.ok()) fs_status = s;
    }
  }

  auto build = [&]() -> Result<std::shared_ptr<TableState>> {
    ICS_ASSIGN_OR_RETURN(std::shared_ptr<TableState> next, DeriveTable(ctx, *old, hms));
    if (delete_stats) next->column_stats.clear();
    if (!next->is_partitioned()) return next;
    std::vector<PartitionPtr> parts;
    for (const auto& [id, part] : next->partitions) parts.push_back(part);
    for (const PartitionPtr& part : parts) {
      auto it = changed.find(std::string(part->name()));
      if (it != changed.end()) {
        ICS_RETURN_IF_ERROR(ReplacePartition(ctx, next.get(), *part, it->second));
        continue;
      }
      ICS_ASSIGN_OR_RETURN(PartitionPtr fresh, ctx->loader->RefreshPartition(part));
      if (fresh != part) {
        next->partitions.erase(part->id);
        next->partitions.emplace(fresh->id, fresh);
      }
    }
    return next;
  };
  DdlOutcome out = InstallAfterCommit(ctx, t, build(), "Table has been truncated.");
  if (!fs_status.ok()) {
    return fs_status.WithContext("truncating " + t.full() + " removed only some files");
  }
  return out;
}

}  // namespace ics::catalog::ddl
