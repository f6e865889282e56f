#include "catalogd/metastore/data_ownership.h"

#include <algorithm>
#include <filesystem>
#include <set>

#include "catalogd/metastore/metastore.h"

namespace ics::catalog {

std::string ComparableLocation(const std::string& location) {
  std::string path = location;
  if (path.rfind("file://", 0) == 0) {
    path = path.substr(7);
  } else if (path.rfind("file:", 0) == 0) {
    path = path.substr(5);
  }
  if (path.empty() || path[0] != '/') return "";
  std::string norm = std::filesystem::path(path).lexically_normal().string();
  while (norm.size() > 1 && norm.back() == '/') norm.pop_back();
  return norm;
}

bool PathWithin(const std::string& path, const std::string& dir) {
  if (path.empty() || dir.empty()) return false;
  if (path == dir) return true;
  if (dir == "/") return path[0] == '/';
  return path.size() > dir.size() && path.compare(0, dir.size(), dir) == 0 &&
         path[dir.size()] == '/';
}

DataRemovalPlan PlanDataRemoval(const std::vector<std::string>& candidates,
                                const std::vector<std::string>& containers,
                                const std::vector<std::string>& remaining) {
  std::vector<std::string> keep_whole;  // must not be deleted, nor anything around them
  for (const std::string& c : containers) {
    std::string n = ComparableLocation(c);
    if (!n.empty()) keep_whole.push_back(std::move(n));
  }
  std::vector<std::string> others;  // must not overlap at all
  for (const std::string& r : remaining) {
    std::string n = ComparableLocation(r);
    if (!n.empty()) others.push_back(std::move(n));
  }
  DataRemovalPlan plan;
  std::set<std::string> seen;
  for (const std::string& raw : candidates) {
    const std::string c = ComparableLocation(raw);
    if (c.empty()) {
      if (!raw.empty()) plan.kept.push_back(raw);
      continue;
    }
    if (!seen.insert(c).second) continue;
    bool in_use = c == "/";
    for (const std::string& k : keep_whole) {
      if (in_use) break;
      in_use = PathWithin(k, c);  // C is the container or contains it
    }
    for (const std::string& o : others) {
      if (in_use) break;
      in_use = PathWithin(o, c) || PathWithin(c, o);
    }
    (in_use ? plan.kept : plan.deletable).push_back(c);
  }
  return plan;
}

Result<std::vector<std::string>> TableLocations(Metastore* metastore, const std::string& skip_db,
                                                const std::string& skip_table) {
  std::vector<std::string> out;
  ICS_ASSIGN_OR_RETURN(std::vector<std::string> dbs, metastore->GetAllDatabases());
  for (const std::string& db : dbs) {
    ICS_ASSIGN_OR_RETURN(std::vector<std::string> tables, metastore->GetAllTables(db));
    for (const std::string& t : tables) {
      if (db == skip_db && t == skip_table) continue;
      Result<hive::Table> table = metastore->GetTable(db, t);
      if (!table.ok()) {
        if (table.status().Is(ErrorCode::kNotFound)) continue;  // dropped meanwhile
        return table.status();
      }
      if (!table->sd.location.empty()) out.push_back(table->sd.location);
    }
  }
  return out;
}

Result<DataRemovalPlan> PlanPartitionDataRemoval(
    Metastore* metastore, const std::string& db, const std::string& table,
    const std::string& table_location, const std::vector<std::string>& dropped,
    const std::vector<std::string>& remaining_partitions) {
  // The table's own partitions decide most drops (a partition at the table
  // directory, a shared directory); only when something could be deleted
  // are the other tables read. Fewer constraints keep no more, so an empty
  // `deletable` here is the final answer.
  DataRemovalPlan own = PlanDataRemoval(dropped, {table_location}, remaining_partitions);
  if (own.deletable.empty()) return own;
  ICS_ASSIGN_OR_RETURN(std::vector<std::string> remaining, TableLocations(metastore, db, table));
  remaining.insert(remaining.end(), remaining_partitions.begin(), remaining_partitions.end());
  return PlanDataRemoval(dropped, {table_location}, remaining);
}

Result<DataRemovalPlan> PlanTableDataRemoval(Metastore* metastore,
                                             const std::vector<std::string>& candidates) {
  ICS_ASSIGN_OR_RETURN(std::vector<std::string> remaining, TableLocations(metastore, "", ""));
  return PlanDataRemoval(candidates, {}, remaining);
}

std::string KeptDataNote(const DataRemovalPlan& plan) {
  if (plan.kept.empty()) return "";
  std::string note = " Data kept because another object still uses it: ";
  const size_t shown = std::min<size_t>(plan.kept.size(), 5);
  for (size_t i = 0; i < shown; ++i) note += (i == 0 ? "" : ", ") + plan.kept[i];
  if (plan.kept.size() > shown) note += ", ... (" + std::to_string(plan.kept.size()) + " in all)";
  return note + ".";
}

}  // namespace ics::catalog
