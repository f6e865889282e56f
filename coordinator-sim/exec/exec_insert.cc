// INSERT INTO/OVERWRITE t [(cols)] [PARTITION (k=v | k, ...)] VALUES ...
//
// Every value is checked and converted before anything is written. Rows
// are grouped by target partition; each partition gets one new text data
// file in its directory (an existing partition's location, or
// <table location>/<escaped partition name> for a new one, which is where
// catalogd creates it); then one UpdateCatalog names the new files per
// partition ("" for an unpartitioned table). With OVERWRITE the listed files
// are the only ones catalogd keeps in those partitions.
//
// Value order in a row: the column permutation (or all data columns), then
// the dynamic partition keys in PARTITION-clause order.
#include <filesystem>
#include <map>
#include <set>

#include "coordinator-sim/exec/exec_context.h"
#include "coordinator-sim/exec/exec_statements.h"
#include "coordinator-sim/exec/exec_tables.h"
#include "coordinator-sim/exec/exec_values.h"
#include "coordinator-sim/exec/text_data.h"

namespace ics::coord::exec {

namespace {

// Where the i-th value of a VALUES row goes.
struct Slot {
  bool partition = false;
  size_t index = 0;  // into columns or clustering_columns
};

struct InsertPlan {
  std::vector<Slot> slots;
  // Static partition values (canonical), by key position; unset for dynamic keys.
  std::vector<std::optional<std::string>> static_values;
};

std::string JoinNames(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

Result<InsertPlan> PlanInsert(const LocalTable& t, const sql::InsertStmt& s) {
  const std::string full = FullName(t);
  InsertPlan plan;
  plan.static_values.resize(t.clustering_columns.size());
  auto key_pos = [&](const std::string& name) -> std::optional<size_t> {
    for (size_t i = 0; i < t.clustering_columns.size(); ++i) {
      if (t.clustering_columns[i].columnName == name) return i;
    }
    return std::nullopt;
  };
  std::vector<bool> covered(t.clustering_columns.size(), false);
  std::vector<size_t> dynamic;
  if (s.partition) {
    if (t.clustering_columns.empty()) {
      return AnalysisError("PARTITION clause is only valid for INSERT into partitioned table. '" +
                           full + "' is not partitioned");
    }
    for (const sql::PartitionKeyValue& kv : *s.partition) {
      std::optional<size_t> pos = key_pos(kv.column);
      if (!pos) {
        if (FindColumn(t, kv.column) != nullptr) {
          return AnalysisError("Column '" + kv.column + "' is not a partition column of " + full);
        }
        return AnalysisError("Partition column '" + kv.column + "' not found in " + full);
      }
      covered[*pos] = true;
      if (kv.value) {
        CoercionTarget target{full, kv.column, true};
        ICS_ASSIGN_OR_RETURN(std::string v, PartitionValue(*kv.value,
                                                           t.clustering_columns[*pos].columnType,
                                                           target));
        plan.static_values[*pos] = std::move(v);
      } else {
        dynamic.push_back(*pos);
      }
    }
  }
  if (s.columns) {
    for (const std::string& c : *s.columns) {
      if (std::optional<size_t> pos = key_pos(c)) {
        covered[*pos] = true;
        plan.slots.push_back({true, *pos});
        continue;
      }
      bool found = false;
      for (size_t i = 0; i < t.columns.size() && !found; ++i) {
        if (t.columns[i].columnName == c) {
          plan.slots.push_back({false, i});
          found = true;
        }
      }
      if (!found) return ColumnNotFound(c, t);
    }
  } else {
    for (size_t i = 0; i < t.columns.size(); ++i) plan.slots.push_back({false, i});
  }
  for (size_t pos : dynamic) plan.slots.push_back({true, pos});
  std::vector<std::string> missing;
  for (size_t i = 0; i < covered.size(); ++i) {
    if (!covered[i]) missing.push_back(t.clustering_columns[i].columnName);
  }
  if (!missing.empty()) {
    return AnalysisError("Not enough partition columns mentioned in query. Missing columns are: " +
                         JoinNames(missing));
  }
  const size_t got = s.rows.empty() ? 0 : s.rows[0].size();
  if (got != plan.slots.size()) {
    const std::string what = s.columns ? "Column permutation mentions" : "Target table '" + full + "' has";
    return AnalysisError(what + (plan.slots.size() > got ? " more" : " fewer") + " columns (" +
                         std::to_string(plan.slots.size()) +
                         ") than the VALUES clause returns (" + std::to_string(got) + ")");
  }
  return plan;
}

// A file name prefix from the coordinator id (text_data.h's rules).
std::string FilePrefix(const std::string& coordinator_id) {
  std::string out;
  for (char c : coordinator_id) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '-' || c == '_';
    out += ok ? c : '-';
  }
  while (!out.empty() && (out[0] == '_' || out[0] == '-')) out.erase(0, 1);
  return out.empty() ? "insert" : out;
}

bool KeepFilesAfter(const Status& s) {
  // The request may have been applied: the files must stay.
  return s.Is(ErrorCode::kNetworkError) || s.Is(ErrorCode::kTimedOut) ||
         s.Is(ErrorCode::kRpcRecvTimeout);
}

}  // namespace

Result<StatementResult> ExecInsert(const ExecContext& ctx, const sql::InsertStmt& s) {
  ICS_ASSIGN_OR_RETURN(TablePtr t, ResolveTable(ctx, s.table));
  const std::string full = FullName(*t);
  if (t->is_view) return AnalysisError("Impala does not support INSERTing into views: " + full);
  const impala::THdfsFileFormat::type format = TableFileFormat(*t);
  if (format != impala::THdfsFileFormat::TEXT) {
    return AnalysisError("INSERT into " + full + " is not supported: its file format is " +
                         FileFormatSqlName(format) +
                         "; the simulated coordinator writes only TEXTFILE tables");
  }
  const char delim = FieldDelimiter(*t);
  if (delim == '\\' || delim == '\n' || delim == '\r' || delim == 'n' || delim == 'r' || delim == 'N') {
    return AnalysisError("INSERT into " + full + " is not supported: its field delimiter '" +
                         std::string(1, delim) + "' cannot be written unambiguously");
  }
  ICS_ASSIGN_OR_RETURN(InsertPlan plan, PlanInsert(*t, s));

  // Convert every value, grouping rows by partition values.
  std::map<std::vector<std::string>, std::vector<TextRow>> groups;
  for (const auto& values : s.rows) {
    TextRow row(t->columns.size());
    std::vector<std::string> keys(t->clustering_columns.size());
    for (size_t k = 0; k < keys.size(); ++k) {
      if (plan.static_values[k]) keys[k] = *plan.static_values[k];
    }
    for (size_t i = 0; i < values.size(); ++i) {
      const Slot& slot = plan.slots[i];
      const impala::TColumn& col =
          slot.partition ? t->clustering_columns[slot.index] : t->columns[slot.index];
      CoercionTarget target{full, col.columnName, false};
      ICS_ASSIGN_OR_RETURN(std::optional<std::string> v,
                           CoerceValue(*values[i], col.columnType, target));
      if (slot.partition) {
        keys[slot.index] = PartitionValueOrNull(v);
      } else {
        row[slot.index] = std::move(v);
      }
    }
    groups[keys].push_back(std::move(row));
  }

  // Resolve each partition's name and directory.
  struct Target {
    std::string name;
    std::string dir;
    const std::vector<TextRow>* rows;
  };
  std::map<std::string, int64_t> ids_by_name;
  for (const auto& [id, name] : t->partition_names) ids_by_name.emplace(name, id);
  std::vector<Target> targets;
  std::vector<int64_t> existing_ids;
  for (const auto& [keys, rows] : groups) {
    Target tg;
    tg.rows = &rows;
    if (!keys.empty()) {
      ICS_ASSIGN_OR_RETURN(tg.name, PartitionNameOf(*t, keys));
    }
    auto it = ids_by_name.find(tg.name);
    if (it != ids_by_name.end()) existing_ids.push_back(it->second);
    targets.push_back(std::move(tg));
  }
  std::map<std::string, std::string> existing_dirs;
  if (!existing_ids.empty()) {
    ICS_ASSIGN_OR_RETURN(std::vector<PartitionPtr> parts,
                         ctx.catalog()->GetPartitions(*t, existing_ids, false, false));
    for (const PartitionPtr& p : parts) {
      if (!p->location.empty()) existing_dirs[p->name] = LocalPath(p->location);
    }
  }
  const std::string table_dir = LocalPath(t->hms.sd.location);
  for (Target& tg : targets) {
    auto it = existing_dirs.find(tg.name);
    if (it != existing_dirs.end()) {
      tg.dir = it->second;
    } else if (table_dir.empty()) {
      return AnalysisError("Table " + full + " has no location to write to");
    } else {
      tg.dir = tg.name.empty() ? table_dir : table_dir + "/" + tg.name;
    }
  }

  // Write the files; on a failure remove what this statement wrote.
  const std::string prefix = FilePrefix(ctx.backend->coordinator_id());
  std::vector<std::string> written;
  auto remove_written = [&]() {
    std::error_code ec;
    for (const std::string& path : written) std::filesystem::remove(path, ec);
  };
  impala::TUpdateCatalogRequest req;
  req.target_table = t->name;
  req.db_name = t->db;
  req.is_overwrite = s.overwrite;
  req.sync_ddl = ctx.sync_ddl();
  ctx.side_effects = true;
  for (const Target& tg : targets) {
    Result<std::string> file = WriteTextDataFile(tg.dir, prefix, *tg.rows, delim);
    if (!file.ok()) {
      remove_written();
      return file.status().WithContext("INSERT into " + full);
    }
    written.push_back(tg.dir + "/" + *file);
    req.updated_partitions[tg.name].files.push_back(*file);
  }
  Result<impala::TCatalogUpdateResult> r = ctx.backend->UpdateCatalog(std::move(req), ctx.sync_ddl());
  if (!r.ok()) {
    if (!KeepFilesAfter(r.status())) remove_written();
    return r.status();
  }
  StatementResult out;
  out.messages.push_back("Modified " + std::to_string(s.rows.size()) + " row(s).");
  return out;
}

}  // namespace ics::coord::exec
