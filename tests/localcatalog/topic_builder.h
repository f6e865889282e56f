// Test helpers: catalog states built by hand and turned into catalog-update
// topic entries with catalogd's own converters (catalogd/catalog/
// catalog_objects.h) and value codec (common/codec/topic_value.h), so the
// local catalog is fed exactly the forms catalogd publishes.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "catalogd/catalog/catalog_objects.h"
#include "common/codec/catalog_topic.h"
#include "common/codec/file_desc.h"
#include "common/codec/topic_value.h"
#include "common/types/column_type.h"

namespace ics::lctest {

inline impala::TUniqueId Id(int64_t hi, int64_t lo = 7) {
  impala::TUniqueId id;
  id.hi = hi;
  id.lo = lo;
  return id;
}

inline impala::TColumn Col(const std::string& name, impala::TPrimitiveType::type type, int pos) {
  impala::TColumn c;
  c.columnName = name;
  c.columnType = MakeScalarType(type);
  c.__set_position(pos);
  return c;
}

struct PartSpec {
  int64_t id;
  std::string name;  // "year=2020"
  int64_t prev_id = -1;
  int files = 1;
  int64_t num_rows = -1;
};

inline catalog::PartitionPtr MakePartition(const std::string& table_dir, const PartSpec& s,
                                           int64_t version) {
  auto p = catalog::NewPartition();
  p->id = s.id;
  p->prev_id = s.prev_id;
  p->added_version = version;
  p->set_name(s.name);
  catalog::FileDescList::Builder descs;
  for (int f = 0; f < s.files; ++f) {
    FileDescInfo info;
    info.relative_path = "f" + std::to_string(f) + ".txt";
    info.length = 1000 + f;
    descs.Add(BuildFileDesc(info), info.length, 0);
  }
  p->file_descs = descs.Finish();
  hive::Partition hms;
  hms.parameters["numRows"] = std::to_string(s.num_rows);
  p->SetHms(std::move(hms), table_dir + "/" + s.name, table_dir);
  return p;
}

// A loaded table db.name (columns a int, b string), partitioned by year
// when `parts` is non-empty, at catalog version `version`.
inline catalog::TableState MakeTable(const std::string& db, const std::string& name,
                                     int64_t version, const std::vector<PartSpec>& parts) {
  catalog::TableState t;
  t.db = db;
  t.name = name;
  t.version = version;
  t.loaded = true;
  t.hms.dbName = db;
  t.hms.tableName = name;
  t.hms.tableType = "MANAGED_TABLE";
  t.hms.sd.location = "/wh/" + db + ".db/" + name;
  t.table_type = impala::TTableType::HDFS_TABLE;
  if (!parts.empty()) t.clustering_columns.push_back(Col("year", impala::TPrimitiveType::INT, 0));
  const int base = static_cast<int>(t.clustering_columns.size());
  t.columns = {Col("a", impala::TPrimitiveType::INT, base),
               Col("b", impala::TPrimitiveType::STRING, base + 1)};
  for (const PartSpec& s : parts) {
    catalog::PartitionPtr p = MakePartition(t.hms.sd.location, s, version);
    t.partitions_by_name.Put(p);
    t.partitions[s.id] = std::move(p);
  }
  t.table_stats.num_rows = 99;
  return t;
}

inline catalog::DatabaseState MakeDb(const std::string& name, int64_t version) {
  catalog::DatabaseState d;
  d.name = name;
  d.version = version;
  d.hms.name = name;
  d.hms.locationUri = "/wh/" + name + ".db";
  return d;
}

inline catalog::FunctionState MakeFn(const std::string& db, const std::string& name,
                                     int64_t version) {
  catalog::FunctionState f;
  f.db = db;
  f.signature = name + "(INT)";
  f.version = version;
  f.fn.name.__set_db_name(db);
  f.fn.name.function_name = name;
  f.fn.__set_binary_type(impala::TFunctionBinaryType::NATIVE);
  f.fn.__set_arg_types({MakeScalarType(impala::TPrimitiveType::INT)});
  f.fn.__set_ret_type(MakeScalarType(impala::TPrimitiveType::INT));
  f.fn.__set_has_var_args(false);
  f.fn.__set_signature(f.signature);
  return f;
}

// One topic entry: prefix + catalogd's key, value encoded as catalogd does.
inline impala::TTopicItem Item(const std::string& prefix, const impala::TCatalogObject& obj,
                               bool deleted = false, bool compact = true) {
  impala::TTopicItem item;
  item.key = prefix + CatalogTopicKey(obj);
  item.deleted = deleted;
  auto value = EncodeCatalogTopicValue(obj, CatalogTopicFormat{compact});
  EXPECT_TRUE(value.ok()) << value.status().ToString();
  if (value.ok()) item.value = *value;
  return item;
}

// A catalog-update delta: `items`, then the CATALOG object (as catalogd
// always ends a delta) unless catalog_version < 0.
inline impala::TTopicDelta Delta(const std::string& prefix, std::vector<impala::TTopicItem> items,
                                 const impala::TUniqueId& service_id, int64_t catalog_version,
                                 bool is_delta = true, int64_t last_reset = 0,
                                 bool compact = true) {
  impala::TTopicDelta d;
  d.topic_name = "catalog-update";
  d.is_delta = is_delta;
  d.topic_entries = std::move(items);
  if (catalog_version >= 0) {
    d.topic_entries.push_back(
        Item(prefix, catalog::CatalogServiceObject(service_id, catalog_version, last_reset),
             /*deleted=*/false, compact));
  }
  return d;
}

// Every v1 entry of a table: the TABLE object and one HDFS_PARTITION each.
inline std::vector<impala::TTopicItem> TableItemsV1(const catalog::TableState& t) {
  std::vector<impala::TTopicItem> items;
  items.push_back(Item("1:", catalog::TableObjectV1(t)));
  for (const auto& [id, p] : t.partitions)
    items.push_back(Item("1:", catalog::PartitionObject(t, *p)));
  return items;
}

}  // namespace ics::lctest
