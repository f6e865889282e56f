#include "catalogd/fetch/table_fetch.h"

#include <cctype>
#include <memory>
#include <unordered_set>
#include <utility>
#include <vector>

#include "common/util/ascii.h"

namespace ics::catalog {

// Large fields are moved in and their __isset flag set by hand: the
// generated __set_x(const T&) would copy them.

namespace {

using impala::CatalogLookupStatus;
using impala::TTableInfoSelector;

const hive::ColumnStatisticsObj* FindColumnStats(const TableState& t, const std::string& name) {
  auto it = t.column_stats.find(name);
  if (it == t.column_stats.end()) it = t.column_stats.find(AsciiLower(name));
  return it == t.column_stats.end() ? nullptr : &it->second;
}

std::vector<hive::ColumnStatisticsObj> ColumnStats(const TableState& t,
                                                   const TTableInfoSelector& sel) {
  std::vector<hive::ColumnStatisticsObj> out;
  // A column named several times (in any case) is answered once, so the
  // answer is bounded by the table's columns, not by the request.
  std::unordered_set<const hive::ColumnStatisticsObj*> seen;
  auto add = [&](const std::string& name) {
    const auto* s = FindColumnStats(t, name);
    if (s != nullptr && seen.insert(s).second) out.push_back(*s);
  };
  if (sel.__isset.want_stats_for_all_columns && sel.want_stats_for_all_columns) {
    for (const auto& c : t.clustering_columns) add(c.columnName);
    for (const auto& c : t.columns) add(c.columnName);
  } else {
    for (const auto& name : sel.want_stats_for_column_names) add(name);
  }
  return out;
}

bool WantsPartitionInfo(const TTableInfoSelector& sel) {
  return sel.want_partition_names || sel.want_partition_metadata || sel.want_partition_files ||
         sel.want_partition_stats || sel.want_hms_partition;
}

}  // namespace

TableFetchResult BuildPartialTableInfo(const TableState& t, const TTableInfoSelector& sel,
                                       int64_t max_file_descs) {
  TableFetchResult r;
  impala::TPartialTableInfo& info = r.info;
  info.__set_storage_metadata_load_time_ns(t.storage_load_time_ns);
  if (sel.want_hms_table) info.__set_hms_table(t.hms);
  if (sel.__isset.want_stats_for_column_names ||
      (sel.__isset.want_stats_for_all_columns && sel.want_stats_for_all_columns)) {
    info.__set_column_stats(ColumnStats(t, sel));
  }

  // The selection, resolved before anything is copied so that an unknown id
  // fails the request whatever the cap would have cut.
  std::vector<const PartitionState*> selected;
  if (sel.__isset.partition_ids) {
    // Each id once, in first-seen order: the selection (and the answer) is
    // bounded by the table's partitions however often the request repeats
    // an id. The set never grows beyond the table either: an id is only
    // inserted once it is known to be one of the table's partitions.
    std::unordered_set<int64_t> seen;
    for (int64_t id : sel.partition_ids) {
      if (seen.count(id) != 0) continue;
      auto it = t.partitions.find(id);
      if (it == t.partitions.end() || it->second == nullptr) {
        r.lookup_status = CatalogLookupStatus::PARTITION_NOT_FOUND;
        r.info = impala::TPartialTableInfo();
        return r;
      }
      seen.insert(id);
      selected.push_back(it->second.get());
    }
  } else if (WantsPartitionInfo(sel)) {
    selected.reserve(t.partitions.size());
    for (const auto& [id, p] : t.partitions) {
      if (p != nullptr) selected.push_back(p.get());
    }
  }
  r.num_partitions_selected = static_cast<int64_t>(selected.size());

  if (sel.__isset.partition_ids || WantsPartitionInfo(sel)) {
    r.has_partitions = true;
    size_t answered = 0;
    for (const PartitionState* p : selected) {
      const auto n = sel.want_partition_files ? static_cast<int64_t>(p->file_descs.size()) : 0;
      if (max_file_descs > 0 && answered > 0 && r.num_file_descs + n > max_file_descs) {
        r.truncated = true;
        break;
      }
      r.num_file_descs += n;
      ++answered;
    }
    selected.resize(answered);
    r.selected = std::move(selected);
  }

  if (sel.want_partition_files) {
    info.__set_network_addresses(t.network_addresses);
    info.__set_partition_prefixes(t.partition_prefixes);
  }
  return r;
}

}  // namespace ics::catalog
