#include "catalogd/loader/table_loader.h"

#include <glog/logging.h>

#include <charconv>
#include <chrono>
#include <limits>
#include <optional>
#include <string_view>
#include <unordered_set>
#include <utility>

#include "catalogd/loader/partition_stats_params.h"
#include "common/codec/file_desc.h"
#include "common/codec/partition_stats.h"
#include "common/hive/partition_name.h"
#include "common/hive/table_params.h"
#include "common/hive/table_type.h"
#include "common/types/column_type.h"
#include "common/util/checked_math.h"
#include "common/util/exception_barrier.h"
#include "common/util/path_join.h"
#include "common/util/wall_clock.h"

namespace ics::catalog {

namespace {

Result<impala::TColumn> MakeColumn(const hive::FieldSchema& field, int position) {
  Result<impala::TColumnType> type = ParseHiveType(field.type);
  if (!type.ok()) return type.status().WithContext("column '" + field.name + "'");
  impala::TColumn col;
  col.columnName = field.name;
  col.columnType = std::move(type).value();
  if (!field.comment.empty()) col.__set_comment(field.comment);
  col.__set_position(position);
  return col;
}

LoaderOptions Sanitized(LoaderOptions o) {
  if (o.block_size <= 0) o.block_size = LoaderOptions().block_size;
  if (o.num_threads < 0) o.num_threads = 0;
  return o;
}

// list() (a listing of `dir`) behind an exception barrier: a file system
// that throws gives a load error, not a dead thread.
template <typename List>
Result<std::vector<FileStatus>> ListGuarded(const std::string& dir, List list) {
  try {
    return list();
  } catch (...) {
    return StatusFromCurrentException("listing '" + dir + "'");
  }
}

}  // namespace

// Lists partition directories; those below the table directory through a
// FileSystem::Base held on it for the whole load. Every listing is behind
// an exception barrier: a file system that throws gives a load error, not
// a dead thread.
class PartitionDirs {
 public:
  // `table_dir` empty: every listing by its full path.
  PartitionDirs(FileSystem* fs, const std::string& table_dir) : fs_(fs), table_dir_(table_dir) {
    while (table_dir_.size() > 1 && table_dir_.back() == '/') table_dir_.pop_back();
    if (!table_dir_.empty()) base_ = Guarded(table_dir_, [&] { return fs_->OpenBase(table_dir_); });
  }

  Result<std::vector<FileStatus>> List(const std::string& dir) const {
    const std::string_view rest = Below(dir);
    if (base_ == nullptr || rest.empty()) {
      return ListGuarded(dir, [&] { return fs_->ListFiles(dir); });
    }
    return ListGuarded(dir, [&] { return base_->ListFiles(std::string(rest)); });
  }

 private:
  template <typename Open>
  static std::unique_ptr<FileSystem::Base> Guarded(const std::string& dir, Open open) {
    try {
      return open();
    } catch (...) {
      LOG(WARNING) << "listing below '" << dir << "' by full paths: "
                   << StatusFromCurrentException("opening it").ToString();
      return nullptr;
    }
  }
  // What follows "<table dir>/" in `dir`; empty if `dir` is not below it.
  std::string_view Below(std::string_view dir) const {
    if (table_dir_.empty() || dir.size() <= table_dir_.size() + 1 ||
        dir.compare(0, table_dir_.size(), table_dir_) != 0) {
      return {};
    }
    if (table_dir_ != "/" && dir[table_dir_.size()] != '/') return {};
    std::string_view rest = dir.substr(table_dir_ == "/" ? 1 : table_dir_.size() + 1);
    return rest.empty() || rest.front() == '/' ? std::string_view() : rest;
  }

  FileSystem* const fs_;
  std::string table_dir_;
  std::unique_ptr<FileSystem::Base> base_;
};

namespace {

// Whether `listing` describes exactly the files of `descs`.
bool SameFiles(const FileDescList& descs, const std::vector<FileStatus>& listing) {
  if (descs.size() != listing.size()) return false;
  size_t i = 0;
  for (auto it = descs.begin(); it != descs.end(); ++it, ++i) {
    Result<const fb::FbFileDesc*> fd = ReadFileDesc(*it);  // a view into `it`
    if (!fd.ok()) return false;
    const fb::FbFileDesc& d = **fd;
    const std::string_view path =
        d.relative_path() ? d.relative_path()->string_view() : std::string_view();
    if (path != listing[i].name || d.length() != listing[i].length ||
        d.last_modification_time() != listing[i].mtime_ms) {
      return false;
    }
  }
  return true;
}

// CORRUPTION if two of `parts` have the same name. The metastore returns
// partitions in name order, so this is usually one pass over neighbours;
// names out of order are checked with a set.
Status CheckDistinctNames(const std::vector<PartitionPtr>& parts) {
  auto duplicate = [](std::string_view name) {
    return Status::Corruption("duplicate partition '" + std::string(name) + "'");
  };
  bool ordered = true;
  for (size_t i = 1; i < parts.size() && ordered; ++i) {
    const int c = parts[i - 1]->name().compare(parts[i]->name());
    if (c == 0) return duplicate(parts[i]->name());
    ordered = c < 0;
  }
  if (ordered) return Status::OK();
  std::unordered_set<std::string_view> names;
  names.reserve(parts.size());
  for (const PartitionPtr& p : parts) {
    if (!names.insert(p->name()).second) return duplicate(p->name());
  }
  return Status::OK();
}

// Whether a partition state built for `a` holds what one built for `b`
// would from the same stored partition: the same partition keys (names)
// and table location (the base of derived partition directories).
bool SameKeysAndLocation(const TableState& a, const TableState& b) {
  if (a.hms.sd.location != b.hms.sd.location) return false;
  if (a.clustering_columns.size() != b.clustering_columns.size()) return false;
  for (size_t i = 0; i < a.clustering_columns.size(); ++i) {
    if (a.clustering_columns[i].columnName != b.clustering_columns[i].columnName) return false;
  }
  return true;
}

}  // namespace

hive::Partition SynthesizePartition(const hive::Table& table) {
  hive::Partition p;
  p.dbName = table.dbName;
  p.tableName = table.tableName;
  p.createTime = table.createTime;
  p.lastAccessTime = table.lastAccessTime;
  p.sd = table.sd;
  p.parameters = table.parameters;
  return p;
}

Result<hive::Partition> PartitionForMetastore(const PartitionState& p) {
  hive::Partition out = p.Hms();
  RemoveStatsParams(&out.parameters);
  if (!p.partition_stats().empty()) {
    Result<impala::TPartitionStats> stats = DecodePartitionStats(p.partition_stats());
    if (!stats.ok()) return stats.status().WithContext("partition '" + std::string(p.name()) + "' stats");
    ICS_RETURN_IF_ERROR(SetStatsParams(*stats, &out.parameters));
  }
  return out;
}

Status BuildColumns(const hive::Table& hms, std::vector<impala::TColumn>* clustering,
                    std::vector<impala::TColumn>* columns) {
  clustering->clear();
  columns->clear();
  int position = 0;
  for (const hive::FieldSchema& f : hms.partitionKeys) {
    ICS_ASSIGN_OR_RETURN(impala::TColumn col, MakeColumn(f, position++));
    clustering->push_back(std::move(col));
  }
  for (const hive::FieldSchema& f : hms.sd.cols) {
    ICS_ASSIGN_OR_RETURN(impala::TColumn col, MakeColumn(f, position++));
    columns->push_back(std::move(col));
  }
  return Status::OK();
}

TableLoader::TableLoader(Metastore* metastore, FileSystem* fs, LoaderOptions options,
                         std::atomic<int64_t>* next_partition_id)
    : metastore_(metastore),
      fs_(fs),
      options_(Sanitized(std::move(options))),
      next_partition_id_(next_partition_id),
      pool_(options_.num_threads) {}

Result<std::shared_ptr<TableState>> TableLoader::Load(const std::string& db,
                                                      const std::string& table,
                                                      const TableState* previous) {
  if (previous != nullptr && !previous->loaded) previous = nullptr;
  ICS_ASSIGN_OR_RETURN(hive::Table hms, metastore_->GetTable(db, table));
  auto t = std::make_shared<TableState>();
  t->db = db;
  t->name = table;
  ICS_RETURN_IF_ERROR(BuildColumns(hms, &t->clustering_columns, &t->columns));
  t->table_stats.num_rows = NumRowsOf(hms.parameters);

  if (hms.tableType == kVirtualView) {
    t->table_type = impala::TTableType::VIEW;
    t->hms = std::move(hms);
    t->loaded = true;
    t->load_time_ms = NowMs();
    return t;
  }
  t->table_type = impala::TTableType::HDFS_TABLE;
  if (hms.sd.location.empty()) return Status::InvalidArgument("table has no location");

  ICS_ASSIGN_OR_RETURN(std::vector<hive::ColumnStatisticsObj> col_stats,
                       metastore_->GetTableColumnStats(db, table));
  for (hive::ColumnStatisticsObj& s : col_stats) {
    std::string name = s.colName;
    t->column_stats.emplace(std::move(name), std::move(s));
  }

  // Decoded in the listing tasks, in parallel, each partition's stored form
  // released as it is decoded.
  std::unique_ptr<PartitionReader> parts;
  if (t->is_partitioned()) {
    ICS_ASSIGN_OR_RETURN(parts, metastore_->ReadPartitions(db, table));
  } else {
    parts = ReaderOf({SynthesizePartition(hms)});
  }
  // The table's own copy does not keep the stats chunks either (they live,
  // compressed, in the synthesized partition of an unpartitioned table).
  RemoveStatsParams(&hms.parameters);
  t->hms = std::move(hms);

  const auto listing_start = std::chrono::steady_clock::now();
  const size_t n = parts->size();
  const int64_t first_id = next_partition_id_->fetch_add(static_cast<int64_t>(n));
  std::vector<PartitionPtr> built(n);
  std::vector<Status> errors(n);
  const TableState& table_ref = *t;
  // Partitions share their table's storage descriptor unless they differ.
  PartitionShapes shapes(previous != nullptr ? *previous : *t);
  // A partition whose stored form has the digest its previous state was
  // built from is that state again, or a copy with a new listing: what a
  // state holds beyond the stored form comes from the table's partition
  // keys and location, so those must not have changed.
  const bool reuse_by_digest = previous != nullptr && SameKeysAndLocation(*previous, *t);
  const PartitionDirs dirs(fs_, t->hms.sd.location);
  // Partitions kept with their id whose state is a copy (it gained its
  // digest): they replace the previous state's entry below.
  std::vector<char> adopted(n, 0);
  const Status listed = pool_.ParallelFor(n, [&](size_t i) {
    const int64_t id = first_id + static_cast<int64_t>(i);
    const std::optional<PartitionReader::Stored> stored = parts->Peek(i);
    if (reuse_by_digest && stored.has_value()) {
      PartitionPtr old = previous->partitions_by_name.Get(stored->name);
      if (old && old->source_digest() == stored->digest) {
        parts->Skip(i);
        Result<PartitionPtr> again = Relist(old, id, dirs);
        if (!again.ok()) {
          errors[i] = again.status();
          return;
        }
        built[i] = std::move(again).value();
        return;
      }
    }
    Result<hive::Partition> decoded = parts->Take(i);
    if (!decoded.ok()) {
      errors[i] = decoded.status();
      return;
    }
    Result<MutablePartitionPtr> p =
        BuildPartition(table_ref, std::move(decoded).value(), id, -1, &shapes, dirs);
    if (!p.ok()) {
      errors[i] = p.status();
      return;
    }
    MutablePartitionPtr fresh = std::move(p).value();
    if (stored.has_value()) fresh->set_source_digest(stored->digest);
    if (previous != nullptr) {
      if (PartitionPtr old = previous->partitions_by_name.Get(fresh->name())) {
        if (SameContent(*old, *fresh)) {
          if (old->source_digest() == fresh->source_digest()) {
            built[i] = old;
            return;
          }
          // The same partition, first seen with its digest (it was added
          // by a DDL): keep its id and version, remember the digest.
          MutablePartitionPtr copy = NewPartition(*old);
          copy->set_source_digest(fresh->source_digest());
          built[i] = std::move(copy);
          adopted[i] = 1;
          return;
        }
        fresh->prev_id = old->id;
      }
    }
    built[i] = std::move(fresh);
  });
  // A task that threw (the file system, an allocation): the load fails with
  // that error; the caller adds the table name.
  if (!listed.ok()) return listed.WithContext("building partitions");
  for (const Status& s : errors) ICS_RETURN_IF_ERROR(s);
  t->storage_load_time_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                                std::chrono::steady_clock::now() - listing_start)
                                .count();

  ICS_RETURN_IF_ERROR(CheckDistinctNames(built));
  if (previous != nullptr) {
    // Start from the previous maps (shared chunks) and apply what differs:
    // an unchanged table allocates nothing new for its partitions.
    t->partitions = previous->partitions;
    std::unordered_set<int64_t> kept;
    kept.reserve(built.size());
    for (const PartitionPtr& p : built) kept.insert(p->id);
    std::vector<int64_t> gone;
    for (const auto& [id, p] : previous->partitions) {
      if (kept.count(id) == 0) gone.push_back(id);
    }
    for (int64_t id : gone) t->partitions.erase(id);
    for (size_t i = 0; i < n; ++i) {
      PartitionPtr& p = built[i];
      if (p->added_version == 0) {
        t->partitions.emplace(p->id, std::move(p));
      } else if (adopted[i] != 0) {
        t->partitions.insert_or_assign(p->id, std::move(p));
      }
    }
  } else {
    for (PartitionPtr& p : built) t->partitions.emplace(p->id, std::move(p));
  }
  FinishTableState(t.get(), previous);
  t->loaded = true;
  t->load_time_ms = NowMs();
  return t;
}

Result<MutablePartitionPtr> TableLoader::LoadPartition(const TableState& table,
                                                                   const hive::Partition& partition,
                                                                   int64_t prev_id) {
  PartitionShapes shapes(table);
  return BuildPartition(table, partition, next_partition_id_->fetch_add(1), prev_id, &shapes,
                        PartitionDirs(fs_, ""));
}

Result<MutablePartitionPtr> TableLoader::BuildPartition(const TableState& table,
                                                        hive::Partition partition, int64_t id,
                                                        int64_t prev_id, PartitionShapes* shapes,
                                                        const PartitionDirs& dirs) {
  auto p = NewPartition();
  p->id = id;
  p->prev_id = prev_id;
  if (table.clustering_columns.empty()) {
    if (!partition.values.empty()) {
      return Status::InvalidArgument("partition values given for an unpartitioned table");
    }
  } else {
    std::vector<std::string> keys;
    keys.reserve(table.clustering_columns.size());
    for (const impala::TColumn& c : table.clustering_columns) keys.push_back(c.columnName);
    Result<std::string> name = MakePartitionName(keys, partition.values);
    if (!name.ok()) return name.status().WithContext("partition");
    p->set_name(std::move(name).value());
  }
  p->set_values(partition.values);
  std::string location = partition.sd.location.empty()
                             ? JoinPath(table.hms.sd.location, p->name())
                             : partition.sd.location;
  if (location.empty()) return Status::InvalidArgument("partition '" + std::string(p->name()) + "' has no location");

  Result<std::optional<impala::TPartitionStats>> stats = GetStatsFromParams(partition.parameters);
  if (!stats.ok()) {
    // As Impala: unreadable incremental stats are dropped, not fatal.
    LOG(WARNING) << "ignoring incremental stats of " << table.db << "." << table.name
                 << " partition '" << p->name() << "': " << stats.status().ToString();
  } else if (stats->has_value()) {
    Result<std::string> compressed = EncodePartitionStats(**stats);
    if (!compressed.ok()) return compressed.status().WithContext("partition '" + std::string(p->name()) + "' stats");
    p->set_partition_stats(*compressed);
    p->set_has_incremental_stats((*stats)->__isset.intermediate_col_stats);
  }
  RemoveStatsParams(&partition.parameters);
  p->SetHms(std::move(partition), location, table.hms.sd.location, shapes);

  Result<std::vector<FileStatus>> files = dirs.List(p->location());
  if (!files.ok()) return files.status().WithContext("listing partition '" + std::string(p->name()) + "'");
  ICS_RETURN_IF_ERROR(FillFiles(*files, shapes, FileDescList::Reference(), p.get())
                          .WithContext("partition '" + std::string(p->name()) + "'"));
  return p;
}

Status TableLoader::FillFiles(const std::vector<FileStatus>& files, PartitionShapes* shapes,
                              const FileDescList::Reference& reference,
                              PartitionState* part) const {
  std::optional<FileDescList::Builder> descs;
  FileDescInfo info;
  for (const FileStatus& f : files) {
    if (f.length < 0) {
      return Status::Corruption("the file system reports a negative length (" +
                                std::to_string(f.length) + ") for file '" + f.name + "'");
    }
    info.relative_path = f.name;
    info.length = f.length;
    info.mtime_ms = f.mtime_ms;
    info.compression = CompressionFromFileName(f.name);
    if (fs_->HasBlockLocations()) info.blocks = SplitIntoBlocks(f.length, options_.block_size, 0);
    const std::string desc = BuildFileDesc(info);
    if (!descs.has_value()) {
      descs.emplace(shapes != nullptr ? shapes->DescReference(desc) : reference);
    }
    // The list's sums saturate: a listing cannot overflow them, however
    // large its files.
    descs->Add(desc, f.length, static_cast<int64_t>(info.blocks.size()));
  }
  part->file_descs = descs.has_value() ? descs->Finish() : FileDescList();
  part->listed_at_s = static_cast<uint32_t>(NowMs() / 1000);
  return Status::OK();
}

Result<PartitionPtr> TableLoader::RefreshPartition(const PartitionPtr& old) {
  return Relist(old, -1, PartitionDirs(fs_, ""));
}

Result<PartitionPtr> TableLoader::Relist(const PartitionPtr& old, int64_t id,
                                         const PartitionDirs& dirs) {
  Result<std::vector<FileStatus>> files = dirs.List(old->location());
  if (!files.ok()) return files.status().WithContext("listing partition '" + std::string(old->name()) + "'");
  if (SameFiles(old->file_descs, *files)) return old;
  auto p = NewPartition(*old);
  p->id = id >= 0 ? id : next_partition_id_->fetch_add(1);
  p->prev_id = old->id;
  p->set_source_digest(old->source_digest());  // only the files differ
  p->added_version = 0;
  ICS_RETURN_IF_ERROR(FillFiles(*files, nullptr, old->file_descs.reference(), p.get())
                          .WithContext("partition '" + std::string(p->name()) + "'"));
  return PartitionPtr(std::move(p));
}

namespace {

void SetNetworkAddresses(TableState* table, const std::string& host) {
  table->network_addresses.clear();
  if (table->num_blocks > 0) {
    impala::TNetworkAddress addr;
    addr.hostname = host;
    addr.port = 0;
    table->network_addresses.push_back(std::move(addr));
  }
}

}  // namespace

void TableLoader::FinishTableState(TableState* table, const TableState* base) const {
  const size_t k = table->clustering_columns.size();
  const int64_t kMax = std::numeric_limits<int64_t>::max();
  // Incremental from base unless its sums saturated (they cannot be undone).
  const bool incremental = base != nullptr && base->loaded && !base->is_view() &&
                           base->clustering_columns.size() == k &&
                           base->table_stats.total_file_bytes < kMax && base->num_blocks < kMax;
  if (incremental) {
    table->partitions_by_name = base->partitions_by_name;
    table->partition_prefixes = base->partition_prefixes;
    int64_t total_bytes = base->table_stats.total_file_bytes;
    int64_t total_blocks = base->num_blocks;
    PrefixCollector prefixes(k, &table->partition_prefixes);
    bool saturated = false;
    PersistentMap<int64_t, PartitionPtr>::ForEachDifference(
        base->partitions, table->partitions,
        [&](int64_t /*id*/, const PartitionPtr* before, const PartitionPtr* after) {
          if (before != nullptr) {
            const PartitionState& p = **before;
            const PartitionState* named = table->partitions_by_name.Find(p.name());
            if (named != nullptr && named->id == p.id) table->partitions_by_name.Erase(p.name());
            total_bytes -= p.total_file_bytes();
            total_blocks -= p.num_blocks();
          }
          if (after != nullptr) {
            const PartitionState& p = **after;
            table->partitions_by_name.Put(*after);
            total_bytes = SaturatingAdd(total_bytes, p.total_file_bytes());
            total_blocks = SaturatingAdd(total_blocks, p.num_blocks());
            saturated = saturated || total_bytes == kMax || total_blocks == kMax;
            prefixes.Add(p);
          }
        });
    if (!saturated) {
      table->table_stats.__set_total_file_bytes(total_bytes);
      table->num_blocks = total_blocks;
      SetNetworkAddresses(table, options_.host);
      return;
    }
  }
  table->partitions_by_name.Clear();
  table->partition_prefixes.clear();
  int64_t total_bytes = 0;
  int64_t total_blocks = 0;
  PrefixCollector prefixes(k, &table->partition_prefixes);
  for (const auto& [id, p] : table->partitions) {
    table->partitions_by_name.Put(p);
    total_bytes = SaturatingAdd(total_bytes, p->total_file_bytes());
    total_blocks = SaturatingAdd(total_blocks, p->num_blocks());
    prefixes.Add(*p);
  }
  if (!table->is_view()) table->table_stats.__set_total_file_bytes(total_bytes);
  table->num_blocks = total_blocks;
  SetNetworkAddresses(table, options_.host);
}

}  // namespace ics::catalog
