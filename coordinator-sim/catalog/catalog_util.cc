#include "coordinator-sim/catalog/catalog_util.h"

#include <chrono>

#include <charconv>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <glog/logging.h>

#include "common/codec/topic_value.h"
#include "common/hive/partition_name.h"
#include "common/hive/table_params.h"
#include "common/hive/table_type.h"
#include "common/types/column_type.h"
#include "common/util/ascii.h"

namespace ics::coord {

namespace {

constexpr int64_t kObjectOverhead = 64;  // allocation headers, pointers, small fields

int64_t Bytes(const std::string& s) { return static_cast<int64_t>(s.capacity()); }

int64_t Bytes(const std::map<std::string, std::string>& m) {
  int64_t b = 0;
  for (const auto& [k, v] : m) b += kObjectOverhead + Bytes(k) + Bytes(v);
  return b;
}

int64_t Bytes(const std::vector<hive::FieldSchema>& fields) {
  int64_t b = 0;
  for (const auto& f : fields)
    b += kObjectOverhead + Bytes(f.name) + Bytes(f.type) + Bytes(f.comment);
  return b;
}

int64_t Bytes(const hive::StorageDescriptor& sd) {
  int64_t b = Bytes(sd.cols) + Bytes(sd.location) + Bytes(sd.inputFormat) + Bytes(sd.outputFormat) +
              Bytes(sd.serdeInfo.name) + Bytes(sd.serdeInfo.serializationLib) +
              Bytes(sd.serdeInfo.parameters) + Bytes(sd.parameters);
  for (const auto& c : sd.bucketCols) b += Bytes(c);
  for (const auto& o : sd.sortCols) b += kObjectOverhead + Bytes(o.col);
  return b;
}

int64_t Bytes(const hive::Table& t) {
  return kObjectOverhead + Bytes(t.tableName) + Bytes(t.dbName) + Bytes(t.owner) + Bytes(t.sd) +
         Bytes(t.partitionKeys) + Bytes(t.parameters) + Bytes(t.viewOriginalText) +
         Bytes(t.viewExpandedText) + Bytes(t.tableType);
}

int64_t Bytes(const impala::TColumnType& type) {
  int64_t b = static_cast<int64_t>(type.types.size() * sizeof(impala::TTypeNode));
  for (const auto& n : type.types) {
    for (const auto& f : n.struct_fields) b += kObjectOverhead + Bytes(f.name) + Bytes(f.comment);
  }
  return b;
}

int64_t Bytes(const std::vector<impala::TColumn>& cols) {
  int64_t b = 0;
  for (const auto& c : cols) {
    b += static_cast<int64_t>(sizeof(impala::TColumn)) + Bytes(c.columnName) + Bytes(c.comment) +
         Bytes(c.columnType);
  }
  return b;
}

}  // namespace

std::string ObjectName(const impala::TCatalogObject& obj) {
  using impala::TCatalogObjectType;
  switch (obj.type) {
    case TCatalogObjectType::CATALOG:
      return "CATALOG";
    case TCatalogObjectType::DATABASE:
      return "DATABASE:" + obj.db.db_name;
    case TCatalogObjectType::TABLE:
    case TCatalogObjectType::VIEW:
      return "TABLE:" + obj.table.db_name + "." + obj.table.tbl_name;
    case TCatalogObjectType::HDFS_PARTITION:
      return "HDFS_PARTITION:" + obj.hdfs_partition.db_name + "." + obj.hdfs_partition.tbl_name +
             ":" + std::to_string(obj.hdfs_partition.id);
    case TCatalogObjectType::FUNCTION:
      return "FUNCTION:" + obj.fn.name.db_name + "." + obj.fn.signature;
    default:
      return "OTHER:" + std::to_string(static_cast<int>(obj.type));
  }
}

LocalPartition PartitionFromThrift(const impala::THdfsPartition& p,
                                   const std::vector<std::string>& prefixes) {
  LocalPartition out;
  out.id = p.id;
  out.name = p.partition_name;
  out.values = PartitionValuesFromName(p.partition_name);
  if (p.__isset.location) {
    const int idx = p.location.prefix_index;
    out.location = (idx >= 0 && static_cast<size_t>(idx) < prefixes.size())
                       ? prefixes[static_cast<size_t>(idx)] + p.location.suffix
                       : p.location.suffix;
  }
  if (p.__isset.file_desc) {
    out.file_descs.reserve(p.file_desc.size());
    for (const auto& fd : p.file_desc) out.file_descs.push_back(fd.file_desc_data);
    out.files_loaded = true;
  }
  if (p.__isset.stats) out.num_rows = p.stats.num_rows;
  if (out.num_rows < 0 && p.__isset.hms_parameters) out.num_rows = NumRowsOf(p.hms_parameters);
  if (p.__isset.total_file_size_bytes) out.total_file_bytes = p.total_file_size_bytes;
  if (p.__isset.partition_stats) out.partition_stats = p.partition_stats;
  if (p.__isset.has_incremental_stats) out.has_incremental_stats = p.has_incremental_stats;
  if (p.__isset.hms_parameters) out.hms_parameters = p.hms_parameters;
  return out;
}

std::shared_ptr<LocalTable> TableFromThrift(const impala::TTable& t, int64_t version) {
  auto out = std::make_shared<LocalTable>();
  out->db = t.db_name;
  out->name = t.tbl_name;
  out->version = version;
  out->loaded = t.__isset.table_type;
  out->hms = t.metastore_table;
  out->is_view = (t.__isset.table_type && t.table_type == impala::TTableType::VIEW) ||
                 IsView(t.metastore_table);
  out->clustering_columns = t.clustering_columns;
  out->columns = t.columns;
  std::vector<std::pair<int64_t, std::string>> names;
  if (t.__isset.hdfs_table) {
    names.reserve(t.hdfs_table.partitions.size());
    for (const auto& [id, p] : t.hdfs_table.partitions) names.emplace_back(id, p.partition_name);
  }
  out->partition_names = PartitionList(out->clustering_columns, std::move(names));
  if (t.__isset.table_stats) {
    out->num_rows = t.table_stats.num_rows;
  } else {
    out->num_rows = NumRowsOf(t.metastore_table.parameters);
  }
  return out;
}

Status ColumnsFromHms(const hive::Table& hms, LocalTable* table) {
  table->clustering_columns.clear();
  table->columns.clear();
  int position = 0;
  auto add = [&](const hive::FieldSchema& f, std::vector<impala::TColumn>* to) -> Status {
    Result<impala::TColumnType> type = ParseHiveType(f.type);
    if (!type.ok()) return type.status().WithContext("column '" + f.name + "'");
    impala::TColumn col;
    col.columnName = f.name;
    col.columnType = std::move(type).value();
    if (!f.comment.empty()) col.__set_comment(f.comment);
    col.__set_position(position++);
    to->push_back(std::move(col));
    return Status::OK();
  };
  for (const auto& f : hms.partitionKeys) ICS_RETURN_IF_ERROR(add(f, &table->clustering_columns));
  for (const auto& f : hms.sd.cols) ICS_RETURN_IF_ERROR(add(f, &table->columns));
  return Status::OK();
}

int64_t EstimateBytes(const LocalTable& t) {
  int64_t b = static_cast<int64_t>(sizeof(LocalTable)) + Bytes(t.db) + Bytes(t.name) +
              Bytes(t.hms) + Bytes(t.clustering_columns) + Bytes(t.columns);
  b += t.partition_names.EstimateBytes();
  for (const auto& [name, cs] : t.column_stats) {
    b += kObjectOverhead + static_cast<int64_t>(sizeof(hive::ColumnStatisticsObj)) + Bytes(name) +
         Bytes(cs.colName) + Bytes(cs.colType);
  }
  return b;
}

int64_t EstimateBytes(const LocalPartition& p) {
  int64_t b = static_cast<int64_t>(sizeof(LocalPartition)) + Bytes(p.name) + Bytes(p.location) +
              Bytes(p.partition_stats) + Bytes(p.hms_parameters);
  for (const auto& v : p.values) b += static_cast<int64_t>(sizeof(std::string)) + Bytes(v);
  for (const auto& fd : p.file_descs) b += static_cast<int64_t>(sizeof(std::string)) + Bytes(fd);
  return b;
}

int64_t EstimateBytes(const hive::Database& db) {
  return kObjectOverhead + static_cast<int64_t>(sizeof(hive::Database)) + Bytes(db.name) +
         Bytes(db.description) + Bytes(db.locationUri) + Bytes(db.parameters) + Bytes(db.ownerName);
}

int64_t EstimateBytes(const impala::TFunction& fn) {
  int64_t b = static_cast<int64_t>(sizeof(impala::TFunction)) + Bytes(fn.name.db_name) +
              Bytes(fn.name.function_name) + Bytes(fn.comment) + Bytes(fn.signature) +
              Bytes(fn.hdfs_location) + Bytes(fn.scalar_fn.symbol) + Bytes(fn.ret_type);
  for (const auto& a : fn.arg_types) b += Bytes(a);
  return b;
}

int64_t EstimateBytes(const std::vector<std::string>& names) {
  int64_t b = kObjectOverhead;
  for (const auto& n : names) b += static_cast<int64_t>(sizeof(std::string)) + Bytes(n);
  return b;
}

Status WaitForVersionLocked(Mutex* mu, CondVar* cv, const int64_t* version,
                            const int64_t* service_changes, int64_t v, int timeout_ms) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  const int64_t changes = *service_changes;
  while (*version < v && *service_changes == changes) {
    if (!cv->WaitUntil(mu, deadline) && *version < v && *service_changes == changes) {
      return Status::TimedOut("catalog version " + std::to_string(v) + " not reached within " +
                              std::to_string(timeout_ms) + " ms (at " + std::to_string(*version) +
                              ")");
    }
  }
  return Status::OK();
}

namespace {

// Whether the entry's key has `key_prefix`.
bool HasPrefix(const impala::TTopicItem& item, std::string_view key_prefix) {
  return std::string_view(item.key).substr(0, key_prefix.size()) == key_prefix;
}

// Decodes the entry's value into `*obj` (freshly constructed); an entry that
// does not decode is logged, and false returned.
bool DecodeEntry(const impala::TTopicItem& item, CatalogTopicFormat format,
                 impala::TCatalogObject* obj) {
  Status s = DecodeCatalogTopicValue(item.value, format, obj);
  if (!s.ok()) LOG(WARNING) << "skipping catalog topic entry " << item.key << ": " << s.ToString();
  return s.ok();
}

// Returns a decoded table to its default-constructed state: the two
// required names are cleared, and only the optional members the decode
// marked as set are reset (an invalidation sets none of them, and building
// a default TTable to assign from costs more than the decode).
void ResetTable(impala::TTable* t) {
  t->db_name.clear();
  t->tbl_name.clear();
  const auto& set = t->__isset;
  if (set.load_status) t->load_status = impala::TStatus();
  if (set.access_level) t->access_level = impala::TAccessLevel::type();
  if (set.columns) t->columns = {};
  if (set.clustering_columns) t->clustering_columns = {};
  if (set.virtual_columns) t->virtual_columns = {};
  if (set.table_stats) t->table_stats = impala::TTableStats();
  if (set.table_type) t->table_type = impala::TTableType::type();
  if (set.hdfs_table) t->hdfs_table = impala::THdfsTable();
  if (set.metastore_table) t->metastore_table = hive::Table();
  if (set.data_source_table) t->data_source_table = impala::TDataSourceTable();
  if (set.storage_metadata_load_time_ns) t->storage_metadata_load_time_ns = 0;
  if (set.tbl_comment) t->tbl_comment.clear();
  if (set.system_table) t->system_table = impala::TSystemTable();
  t->__isset = impala::_TTable__isset();
}

}  // namespace

void ResetDecoded(impala::TCatalogObject* obj, bool decoded) {
  if (!decoded) {
    *obj = impala::TCatalogObject();
    return;
  }
  const auto& set = obj->__isset;
  if (set.catalog) obj->catalog = impala::TCatalog();
  if (set.db) obj->db = impala::TDatabase();
  if (set.table) ResetTable(&obj->table);
  if (set.fn) obj->fn = impala::TFunction();
  if (set.data_source) obj->data_source = impala::TDataSource();
  if (set.principal) obj->principal = impala::TPrincipal();
  if (set.privilege) obj->privilege = impala::TPrivilege();
  if (set.cache_pool) obj->cache_pool = impala::THdfsCachePool();
  if (set.authz_cache_invalidation) {
    obj->authz_cache_invalidation = impala::TAuthzCacheInvalidation();
  }
  if (set.hdfs_partition) obj->hdfs_partition = impala::THdfsPartition();
  obj->type = impala::TCatalogObjectType::type();
  obj->catalog_version = 0;
  obj->last_modified_time_ms = 0;
  obj->base_catalog_version = 0;
  obj->__isset = impala::_TCatalogObject__isset();
}

std::vector<DecodedTopicEntry> DecodeTopicEntries(const impala::TTopicDelta& delta,
                                                  std::string_view key_prefix,
                                                  CatalogTopicFormat format) {
  std::vector<DecodedTopicEntry> entries;
  entries.reserve(delta.topic_entries.size());
  for (const impala::TTopicItem& item : delta.topic_entries) {
    if (!HasPrefix(item, key_prefix)) continue;
    DecodedTopicEntry& e = entries.emplace_back();
    e.deleted = item.deleted;
    if (!DecodeEntry(item, format, &e.obj)) entries.pop_back();
  }
  return entries;
}

void ForEachTopicEntry(const impala::TTopicDelta& delta, std::string_view key_prefix,
                       CatalogTopicFormat format, TopicEntries which,
                       const std::function<void(const impala::TCatalogObject&, bool)>& fn) {
  // One object per thread, reused across calls: a TCatalogObject is
  // kilobytes of nested members, and building and destroying one per topic
  // update cost more than decoding the entries of a typical update. Between
  // uses it is default-constructed state (ResetDecoded), so it holds no
  // entry's memory. A callback that itself iterates gets its own object.
  thread_local impala::TCatalogObject reused;
  thread_local bool in_use = false;
  std::optional<impala::TCatalogObject> nested;
  impala::TCatalogObject* obj = &reused;
  if (in_use) {
    obj = &nested.emplace();
  } else {
    in_use = true;
  }
  // Also if the callback throws: the object is handed back reset.
  struct Release {
    impala::TCatalogObject* obj;
    bool own;
    bool dirty = false;
    ~Release() {
      if (dirty) *obj = impala::TCatalogObject();
      if (own) in_use = false;
    }
  } release{obj, obj == &reused};
  for (const impala::TTopicItem& item : delta.topic_entries) {
    if (!HasPrefix(item, key_prefix)) continue;
    if (IsCatalogServiceEntry(item.key) != (which == TopicEntries::kCatalogService)) continue;
    // DecodeEntry wants a fresh object: `*obj` is one after each turn.
    release.dirty = true;
    const bool decoded = DecodeEntry(item, format, obj);
    if (decoded) fn(*obj, item.deleted);
    ResetDecoded(obj, decoded);
    release.dirty = false;
  }
}

}  // namespace ics::coord
