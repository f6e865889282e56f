#include "catalogd/catalog/catalog_objects.h"

#include <algorithm>
#include <cctype>

#include "common/hive/column_stats.h"
#include "common/hive/file_format.h"
#include "common/hive/partition_name.h"

namespace ics::catalog {

namespace {

using impala::TCatalogObject;
using impala::TCatalogObjectType;

// A SerDe delimiter parameter: one character, or (as Hive writes e.g.
// serialization.format=1) a decimal byte value.
int8_t DelimOf(const std::map<std::string, std::string>& params, const char* key, char dflt) {
  auto it = params.find(key);
  if (it == params.end() || it->second.empty()) return static_cast<int8_t>(dflt);
  const std::string& v = it->second;
  if (v.size() > 1 || std::isdigit(static_cast<unsigned char>(v[0]))) {
    if (v.size() <= 3 && std::all_of(v.begin(), v.end(), [](char c) {
          return std::isdigit(static_cast<unsigned char>(c));
        })) {
      const int n = std::stoi(v);
      if (n >= 0 && n <= 255) return static_cast<int8_t>(n);
    }
  }
  return static_cast<int8_t>(v[0]);
}

TCatalogObject Header(TCatalogObjectType::type type, int64_t version) {
  TCatalogObject obj;
  obj.type = type;
  obj.catalog_version = version;
  return obj;
}

impala::TTable BaseTable(const TableState& t) {
  impala::TTable tt;
  tt.db_name = t.db;
  tt.tbl_name = t.name;
  return tt;
}

}  // namespace

impala::THdfsStorageDescriptor StorageDescriptorOf(const hive::StorageDescriptor& sd) {
  const auto& p = sd.serdeInfo.parameters;
  impala::THdfsStorageDescriptor out;
  out.lineDelim = DelimOf(p, "line.delim", '\n');
  out.fieldDelim = DelimOf(p, "field.delim", DelimOf(p, "serialization.format", '\x01'));
  out.collectionDelim = DelimOf(p, "collection.delim", '\x02');
  out.mapKeyDelim = DelimOf(p, "mapkey.delim", '\x03');
  out.escapeChar = DelimOf(p, "escape.delim", '\0');
  out.quoteChar = DelimOf(p, "quote.delim", '\0');
  out.fileFormat = FileFormatOf(sd);
  out.blockSize = 0;
  return out;
}

TCatalogObject DatabaseObject(const DatabaseState& db) {
  TCatalogObject obj = Header(TCatalogObjectType::DATABASE, db.version);
  obj.__isset.db = true;
  obj.db.db_name = db.name;
  obj.db.__set_metastore_db(db.hms);
  return obj;
}

TCatalogObject DatabaseInvalidation(const std::string& db, int64_t version) {
  TCatalogObject obj = Header(TCatalogObjectType::DATABASE, version);
  obj.__isset.db = true;
  obj.db.db_name = db;
  return obj;
}

impala::THdfsPartition PartitionToThrift(const TableState& t, const PartitionState& p,
                                         bool with_files) {
  impala::THdfsPartition out;
  out.__set_id(p.id);
  out.__set_prev_id(p.prev_id);
  out.__set_db_name(t.db);
  out.__set_tbl_name(t.name);
  out.__set_partition_name(std::string(p.name()));
  impala::THdfsPartitionLocation loc;
  loc.prefix_index = -1;
  loc.suffix = p.location();
  out.__set_location(loc);
  out.__set_hdfs_storage_descriptor(StorageDescriptorOf(p.sd()));
  if (with_files) {
    std::vector<impala::THdfsFileDesc> fds;
    fds.reserve(p.file_descs.size());
    for (std::string_view fd : p.file_descs) {
      impala::THdfsFileDesc d;
      d.file_desc_data.assign(fd.data(), fd.size());
      fds.push_back(std::move(d));
    }
    out.__set_file_desc(std::move(fds));
  }
  impala::TTableStats stats;
  stats.num_rows = p.num_rows();
  stats.__set_total_file_bytes(p.total_file_bytes());
  out.__set_stats(stats);
  out.__set_num_blocks(p.num_blocks());
  out.__set_total_file_size_bytes(p.total_file_bytes());
  out.__set_hms_parameters(p.hms_parameters().ToMap());
  out.__set_has_incremental_stats(p.has_incremental_stats());
  out.__set_access_level(impala::TAccessLevel::READ_WRITE);
  return out;
}

static impala::THdfsTable HdfsTableOf(const TableState& t, bool full_partitions) {
  impala::THdfsTable h;
  h.hdfsBaseDir = t.hms.sd.location;
  for (const auto& c : t.clustering_columns) h.colNames.push_back(c.columnName);
  for (const auto& c : t.columns) h.colNames.push_back(c.columnName);
  h.nullPartitionKeyValue = kDefaultPartitionName;
  h.nullColumnValue = kNullColumnValue;
  for (const auto& [id, p] : t.partitions) {
    if (full_partitions) {
      h.partitions.emplace(id, PartitionToThrift(t, *p, /*with_files=*/true));
    } else {
      impala::THdfsPartition mini;
      mini.__set_id(id);
      mini.__set_partition_name(std::string(p->name()));
      h.partitions.emplace(id, std::move(mini));
    }
  }
  h.__set_has_full_partitions(full_partitions);
  h.__set_has_partition_names(true);
  h.prototype_partition.__set_id(-1);
  h.prototype_partition.__set_hdfs_storage_descriptor(StorageDescriptorOf(t.hms.sd));
  if (!t.network_addresses.empty()) h.__set_network_addresses(t.network_addresses);
  if (!t.partition_prefixes.empty()) h.__set_partition_prefixes(t.partition_prefixes);
  return h;
}

// Columns with their statistics attached, as Impala ships them.
static std::vector<impala::TColumn> WithStats(const TableState& t,
                                              const std::vector<impala::TColumn>& cols) {
  std::vector<impala::TColumn> out = cols;
  for (impala::TColumn& c : out) {
    auto it = t.column_stats.find(c.columnName);
    if (it != t.column_stats.end()) c.__set_col_stats(ToTColumnStats(it->second, c.columnType));
  }
  return out;
}

static TCatalogObject TableObject(const TableState& t, bool full_partitions) {
  TCatalogObject obj = Header(TCatalogObjectType::TABLE, t.version);
  obj.__isset.table = true;
  impala::TTable& tt = obj.table;
  tt = BaseTable(t);
  tt.__set_metastore_table(t.hms);
  if (!t.loaded) {
    if (!t.load_status.ok()) {
      impala::TStatus st;
      st.status_code = impala::TErrorCode::GENERAL;
      st.__set_error_msgs({t.load_status.message()});
      tt.__set_load_status(st);
    }
    return obj;
  }
  tt.__set_table_type(t.table_type);
  tt.__set_columns(WithStats(t, t.columns));
  tt.__set_clustering_columns(WithStats(t, t.clustering_columns));
  tt.__set_table_stats(t.table_stats);
  tt.__set_access_level(impala::TAccessLevel::READ_WRITE);
  tt.__set_storage_metadata_load_time_ns(t.storage_load_time_ns);
  auto comment = t.hms.parameters.find("comment");
  if (comment != t.hms.parameters.end()) tt.__set_tbl_comment(comment->second);
  if (!t.is_view()) tt.__set_hdfs_table(HdfsTableOf(t, full_partitions));
  return obj;
}

TCatalogObject TableObjectFull(const TableState& t) { return TableObject(t, true); }
TCatalogObject TableObjectV1(const TableState& t) { return TableObject(t, false); }

TCatalogObject TableInvalidation(const TableState& t, int64_t version) {
  TCatalogObject obj = Header(TCatalogObjectType::TABLE, version);
  obj.__isset.table = true;
  obj.table = BaseTable(t);
  return obj;
}

TCatalogObject PartitionObject(const TableState& t, const PartitionState& p) {
  TCatalogObject obj = Header(TCatalogObjectType::HDFS_PARTITION, t.version);
  obj.__set_hdfs_partition(PartitionToThrift(t, p, /*with_files=*/true));
  return obj;
}

TCatalogObject PartitionInvalidation(const std::string& db, const std::string& table,
                                     const std::string& partition_name, int64_t id, int64_t prev_id,
                                     int64_t version) {
  TCatalogObject obj = Header(TCatalogObjectType::HDFS_PARTITION, version);
  impala::THdfsPartition hp;
  hp.__set_db_name(db);
  hp.__set_tbl_name(table);
  hp.__set_partition_name(partition_name);
  hp.__set_id(id);
  hp.__set_prev_id(prev_id);
  obj.__set_hdfs_partition(std::move(hp));
  return obj;
}

TCatalogObject PartitionInvalidation(const TableState& t, const PartitionState& p,
                                     int64_t version) {
  return PartitionInvalidation(t.db, t.name, std::string(p.name()), p.id, p.prev_id, version);
}

TCatalogObject FunctionObject(const FunctionState& f) {
  TCatalogObject obj = Header(TCatalogObjectType::FUNCTION, f.version);
  obj.__set_fn(f.fn);
  return obj;
}

TCatalogObject FunctionInvalidation(const FunctionState& f, int64_t version) {
  TCatalogObject obj = Header(TCatalogObjectType::FUNCTION, version);
  impala::TFunction fn;
  fn.name = f.fn.name;
  fn.__set_signature(f.signature);
  // Peers with fields 2-5 required reject a TFunction without them.
  fn.__set_binary_type(f.fn.binary_type);
  fn.__set_arg_types(f.fn.arg_types);
  fn.__set_ret_type(f.fn.ret_type);
  fn.__set_has_var_args(f.fn.__isset.has_var_args && f.fn.has_var_args);
  obj.__set_fn(std::move(fn));
  return obj;
}

TCatalogObject CatalogServiceObject(const impala::TUniqueId& service_id, int64_t version,
                                    int64_t last_reset_version) {
  TCatalogObject obj = Header(TCatalogObjectType::CATALOG, version);
  impala::TCatalog c;
  c.catalog_service_id = service_id;
  c.last_reset_catalog_version = last_reset_version;
  obj.__set_catalog(c);
  return obj;
}

}  // namespace ics::catalog
