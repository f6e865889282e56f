#include "common/sql/analyzer.h"

#include <set>
#include <string>
#include <vector>

namespace ics::sql {
namespace {

Status Error(std::string msg) { return Status(ErrorCode::kAnalysisError, std::move(msg)); }

Status CheckDuplicateNames(const std::vector<std::string>& names, std::string_view what) {
  std::set<std::string> seen;
  for (const std::string& n : names) {
    if (!seen.insert(n).second) return Error("Duplicate " + std::string(what) + " name: " + n);
  }
  return Status::OK();
}

std::vector<std::string> Names(const std::vector<ColumnDef>& cols) {
  std::vector<std::string> out;
  for (const ColumnDef& c : cols) out.push_back(c.name);
  return out;
}

Status CheckColumnDefs(const std::vector<ColumnDef>& cols, std::string_view context) {
  if (cols.empty()) return Error(std::string(context) + " requires at least one column");
  return CheckDuplicateNames(Names(cols), "column");
}

// "(k=1, s='x')" for messages and duplicate detection.
std::string SpecToString(const PartitionSpec& spec) {
  std::string out = "(";
  for (size_t i = 0; i < spec.size(); ++i) {
    if (i > 0) out += ", ";
    out += spec[i].column;
    if (spec[i].value) out += "=" + spec[i].value->ToSql();
  }
  return out + ")";
}

Status CheckPartitionSpec(const PartitionSpec& spec) {
  std::set<std::string> seen;
  for (const PartitionKeyValue& kv : spec) {
    if (!seen.insert(kv.column).second) {
      return Error("Duplicate partition key name: " + kv.column + " in PARTITION " +
                   SpecToString(spec));
    }
  }
  return Status::OK();
}

// A view's storage handler is not a user property: changing it would break the view.
Status CheckViewPropertyKey(const std::string& key) {
  if (key.empty()) return Error("A view property key must not be empty");
  if (key == "storage_handler") {
    return Error(
        "The 'storage_handler' view property cannot be changed: it protects the "
        "view's metadata");
  }
  return Status::OK();
}

Status CheckOptionalSpec(const std::optional<PartitionSpec>& spec) {
  return spec ? CheckPartitionSpec(*spec) : Status::OK();
}

Status CheckDistinctSpecs(const std::vector<const PartitionSpec*>& specs) {
  std::set<std::string> seen;
  for (const PartitionSpec* spec : specs) {
    ICS_RETURN_IF_ERROR(CheckPartitionSpec(*spec));
    // Key order does not matter: (a=1, b=2) is (b=2, a=1).
    std::set<std::string> parts;
    for (const PartitionKeyValue& kv : *spec) {
      parts.insert(kv.column + "=" + (kv.value ? kv.value->ToSql() : ""));
    }
    std::string key;
    for (const std::string& p : parts) key += p + "\x1f";
    if (!seen.insert(key).second) {
      return Error("Duplicate partition spec: PARTITION " + SpecToString(*spec));
    }
  }
  return Status::OK();
}

Status AnalyzeCreateTable(const CreateTableStmt& s) {
  ICS_RETURN_IF_ERROR(CheckColumnDefs(s.columns, "CREATE TABLE"));
  // PARTITIONED BY () is a syntax error, so an empty list means no clause.
  ICS_RETURN_IF_ERROR(CheckDuplicateNames(Names(s.partition_columns), "partition column"));
  const std::vector<std::string> names = Names(s.columns);
  const std::set<std::string> cols(names.begin(), names.end());
  for (const ColumnDef& p : s.partition_columns) {
    if (cols.count(p.name) > 0) {
      return Error("Duplicate column name: " + p.name +
                   " (a partition column cannot also be a table column)");
    }
    if (p.type.find('<') != std::string::npos) {
      return Error("Partition column " + p.name + " has complex type " + p.type +
                   "; partition columns must have scalar types");
    }
  }
  return Status::OK();
}

Status AnalyzeSelect(const SelectStmt& s) {
  if (s.limit && *s.limit < 0) {
    return Error("LIMIT must be a non-negative integer, not " + std::to_string(*s.limit));
  }
  if (s.offset) {
    if (*s.offset < 0) {
      return Error("OFFSET must be a non-negative integer, not " + std::to_string(*s.offset));
    }
    if (s.order_by.empty()) return Error("OFFSET requires an ORDER BY clause");
  }
  return Status::OK();
}

Status AnalyzeInsert(const InsertStmt& s) {
  ICS_RETURN_IF_ERROR(CheckOptionalSpec(s.partition));
  size_t dynamic_keys = 0;
  if (s.partition) {
    for (const PartitionKeyValue& kv : *s.partition) dynamic_keys += kv.value ? 0 : 1;
  }
  if (s.columns) {
    ICS_RETURN_IF_ERROR(CheckDuplicateNames(*s.columns, "column"));
    if (s.partition) {
      for (const PartitionKeyValue& kv : *s.partition) {
        for (const std::string& c : *s.columns) {
          if (c == kv.column) {
            return Error("Duplicate column " + c + " in the column list and PARTITION clause");
          }
        }
      }
    }
  }
  for (size_t i = 1; i < s.rows.size(); ++i) {
    if (s.rows[i].size() != s.rows[0].size()) {
      return Error("VALUES rows have different numbers of values: row 1 has " +
                   std::to_string(s.rows[0].size()) + ", row " + std::to_string(i + 1) + " has " +
                   std::to_string(s.rows[i].size()));
    }
  }
  if (s.columns && !s.rows.empty()) {
    const size_t expected = s.columns->size() + dynamic_keys;
    if (s.rows[0].size() != expected) {
      return Error("VALUES rows have " + std::to_string(s.rows[0].size()) +
                   " values but the column list" +
                   (dynamic_keys ? " and dynamic partition keys name " : " names ") +
                   std::to_string(expected) + " columns");
    }
  }
  return Status::OK();
}

}  // namespace

Status AnalyzeStatement(const Statement& stmt) {
  switch (stmt.kind) {
    case StatementKind::kCreateTable:
      return AnalyzeCreateTable(*stmt.As<CreateTableStmt>());
    case StatementKind::kCreateView: {
      const auto& s = *stmt.As<CreateViewStmt>();
      if (!s.has_column_list) return Status::OK();
      if (s.columns.empty()) return Error("CREATE VIEW column list requires at least one column");
      std::vector<std::string> names;
      for (const ViewColumn& c : s.columns) names.push_back(c.name);
      return CheckDuplicateNames(names, "column");
    }
    case StatementKind::kAlterTableAddColumns:
      return CheckColumnDefs(stmt.As<AlterTableAddColumnsStmt>()->columns, "ADD COLUMNS");
    case StatementKind::kAlterTableReplaceColumns:
      return CheckColumnDefs(stmt.As<AlterTableReplaceColumnsStmt>()->columns, "REPLACE COLUMNS");
    case StatementKind::kAlterTableAddPartitions: {
      std::vector<const PartitionSpec*> specs;
      for (const PartitionDef& d : stmt.As<AlterTableAddPartitionsStmt>()->partitions) {
        specs.push_back(&d.spec);
      }
      return CheckDistinctSpecs(specs);
    }
    case StatementKind::kAlterTableDropPartitions: {
      std::vector<const PartitionSpec*> specs;
      for (const PartitionSpec& s : stmt.As<AlterTableDropPartitionsStmt>()->partitions) {
        specs.push_back(&s);
      }
      return CheckDistinctSpecs(specs);
    }
    case StatementKind::kAlterTableSetTblProperties:
      return CheckOptionalSpec(stmt.As<AlterTableSetTblPropertiesStmt>()->partition);
    case StatementKind::kAlterTableSetLocation:
      return CheckOptionalSpec(stmt.As<AlterTableSetLocationStmt>()->partition);
    case StatementKind::kAlterViewSetTblProperties: {
      for (const auto& kv : stmt.As<AlterViewSetTblPropertiesStmt>()->properties) {
        ICS_RETURN_IF_ERROR(CheckViewPropertyKey(kv.first));
      }
      return Status::OK();
    }
    case StatementKind::kAlterViewUnsetTblProperties: {
      for (const std::string& k : stmt.As<AlterViewUnsetTblPropertiesStmt>()->keys) {
        ICS_RETURN_IF_ERROR(CheckViewPropertyKey(k));
      }
      return Status::OK();
    }
    case StatementKind::kAlterTableSetFileFormat:
      return CheckOptionalSpec(stmt.As<AlterTableSetFileFormatStmt>()->partition);
    case StatementKind::kComputeStats: {
      const auto& s = *stmt.As<ComputeStatsStmt>();
      if (s.partition && !s.incremental) {
        return Error("COMPUTE STATS with a PARTITION clause requires COMPUTE INCREMENTAL STATS");
      }
      if (s.incremental && !s.columns.empty()) {
        return Error("COMPUTE INCREMENTAL STATS does not take a column list");
      }
      ICS_RETURN_IF_ERROR(CheckDuplicateNames(s.columns, "column"));
      return CheckOptionalSpec(s.partition);
    }
    case StatementKind::kDropStats: {
      const auto& s = *stmt.As<DropStatsStmt>();
      if (s.incremental && !s.partition) {
        return Error("DROP INCREMENTAL STATS requires a PARTITION clause");
      }
      if (!s.incremental && s.partition) {
        return Error("DROP STATS with a PARTITION clause requires DROP INCREMENTAL STATS");
      }
      return CheckOptionalSpec(s.partition);
    }
    case StatementKind::kInsert:
      return AnalyzeInsert(*stmt.As<InsertStmt>());
    case StatementKind::kShow:
      return CheckOptionalSpec(stmt.As<ShowStmt>()->partition);
    case StatementKind::kRefresh: {
      // Repeating a partition is harmless (catalogd refreshes it once).
      for (const PartitionSpec& spec : stmt.As<RefreshStmt>()->partitions) {
        ICS_RETURN_IF_ERROR(CheckPartitionSpec(spec));
      }
      return Status::OK();
    }
    case StatementKind::kSelect:
      return AnalyzeSelect(*stmt.As<SelectStmt>());
    case StatementKind::kExplain:
      return AnalyzeSelect(*stmt.As<ExplainStmt>()->query);
    default:
      return Status::OK();
  }
}

}  // namespace ics::sql
