// Partition specs (ddl_partition_specs_internal.h).
#include "catalogd/ddl/ddl_partition_specs_internal.h"

#include <set>

#include "catalogd/catalog/catalog_objects.h"
#include "common/hive/names.h"
#include "common/hive/partition_name.h"

namespace ics::catalog::ddl {

std::string PartitionDisplayName(const TableRef& t, const std::string& part_name) {
  return t.full() + " partition (" + part_name + ")";
}

Result<std::vector<std::string>> PartitionValues(const TableState& t, const PartitionSpec& spec) {
  const std::string table = t.db + "." + t.name;
  if (!t.is_partitioned()) return Status::InvalidArgument("Table is not partitioned: " + table);
  std::map<std::string, std::string> given;
  for (const auto& [name, value] : spec) {
    const std::string key = AsciiLower(name);
    if (!given.emplace(key, value).second) {
      return Status::InvalidArgument("Partition key '" + key + "' is given more than once");
    }
  }
  std::vector<std::string> values;
  values.reserve(t.clustering_columns.size());
  for (const impala::TColumn& c : t.clustering_columns) {
    auto it = given.find(c.columnName);
    if (it == given.end()) {
      return Status::InvalidArgument("Missing value for partition key '" + c.columnName +
                                     "' of table " + table);
    }
    ICS_ASSIGN_OR_RETURN(std::string v,
                         CanonicalPartitionValue(c.columnType, c.columnName, it->second));
    values.push_back(std::move(v));
    given.erase(it);
  }
  if (!given.empty()) {
    return Status::InvalidArgument("'" + given.begin()->first +
                                   "' is not a partition key of table " + table);
  }
  return values;
}

Result<std::vector<PartitionPtr>> ResolvePartitionSet(const TableState& t,
                                                      const std::vector<PartitionSpec>& set,
                                                      bool if_exists) {
  const std::string table = t.db + "." + t.name;
  if (!t.is_partitioned()) return Status::InvalidArgument("Table is not partitioned: " + table);
  std::map<int64_t, PartitionPtr> found;
  for (const auto& spec : set) {
    if (spec.empty()) return Status::InvalidArgument("Empty partition spec for table " + table);
    // Key position -> canonical value.
    std::map<size_t, std::string> want;
    std::string text;
    for (const auto& [name, value] : spec) {
      const std::string key = AsciiLower(name);
      size_t pos = t.clustering_columns.size();
      for (size_t i = 0; i < t.clustering_columns.size(); ++i) {
        if (t.clustering_columns[i].columnName == key) pos = i;
      }
      if (pos == t.clustering_columns.size()) {
        return Status::InvalidArgument("'" + key + "' is not a partition key of table " + table);
      }
      ICS_ASSIGN_OR_RETURN(
          std::string v, CanonicalPartitionValue(t.clustering_columns[pos].columnType, key, value));
      if (!want.emplace(pos, v).second) {
        return Status::InvalidArgument("Partition key '" + key + "' is given more than once");
      }
      if (!text.empty()) text += ",";
      text += key + "=" + value;
    }
    bool any = false;
    for (const auto& [id, p] : t.partitions) {
      const std::vector<std::string> values = p->values();
      bool match = values.size() == t.clustering_columns.size();
      for (auto it = want.begin(); match && it != want.end(); ++it) {
        match = values[it->first] == it->second;
      }
      if (match) {
        found.emplace(id, p);
        any = true;
      }
    }
    if (!any && !if_exists) {
      return Status::NotFound("Partition does not exist: " + table + " (" + text + ")");
    }
  }
  std::vector<PartitionPtr> out;
  out.reserve(found.size());
  for (auto& [id, p] : found) out.push_back(std::move(p));
  return out;
}

PartitionPtr PartitionWithValues(const TableState& t, const std::vector<std::string>& values) {
  Result<std::string> name = MakePartitionName(PartitionKeyNames(t.clustering_columns), values);
  if (!name.ok()) return nullptr;
  PartitionPtr p = t.partitions_by_name.Get(*name);
  return p != nullptr && p->values() == values ? p : nullptr;
}

Result<std::vector<hive::Partition>> MetastorePartitions(CatalogContext* ctx, const TableRef& t,
                                                         const std::vector<PartitionPtr>& parts) {
  std::vector<std::string> names;
  names.reserve(parts.size());
  for (const PartitionPtr& p : parts) names.push_back(std::string(p->name()));
  ICS_ASSIGN_OR_RETURN(std::vector<hive::Partition> got,
                       ctx->metastore->GetPartitionsByNames(t.db, t.table, names));
  std::map<std::vector<std::string>, hive::Partition*> by_values;
  for (hive::Partition& p : got) by_values[p.values] = &p;
  std::vector<hive::Partition> out;
  out.reserve(parts.size());
  for (const PartitionPtr& p : parts) {
    auto it = by_values.find(p->values());
    if (it == by_values.end()) {
      return Status::Internal("partition " + std::string(p->name()) + " of " + t.full() +
                              " is in the catalog but not in the metastore; run REFRESH or "
                              "INVALIDATE METADATA on the table");
    }
    out.push_back(*it->second);
  }
  return out;
}

// The loaded, partitioned, non-view table an ALTER ... PARTITION works on.
Result<TablePtr> PartitionedTable(CatalogContext* ctx, const TableRef& t) {
  ICS_ASSIGN_OR_RETURN(TablePtr old, LoadedTableLocked(ctx, t));
  if (old->is_view()) {
    return Status::InvalidArgument("Partition operations are not allowed on a view: " + t.full());
  }
  if (!old->is_partitioned())
    return Status::InvalidArgument("Table is not partitioned: " + t.full());
  return old;
}

// A new partition of `hms` with `values`, at `location`.
hive::Partition NewPartition(const hive::Table& hms, std::vector<std::string> values,
                             const std::string& location) {
  hive::Partition part;
  part.values = std::move(values);
  part.dbName = hms.dbName;
  part.tableName = hms.tableName;
  part.createTime = NowSeconds();
  part.sd = hms.sd;
  part.sd.location = location;
  part.parameters[kLastDdlTimeParam] = std::to_string(part.createTime);
  return part;
}

}  // namespace ics::catalog::ddl
