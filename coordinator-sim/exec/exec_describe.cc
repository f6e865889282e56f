// DESCRIBE [FORMATTED|EXTENDED] table, DESCRIBE DATABASE and SHOW CREATE
// TABLE/VIEW, in Impala's layouts:
//   DESCRIBE t            name | type | comment (data columns, then partition columns)
//   DESCRIBE FORMATTED t  Hive's formatted layout in the same three columns:
//                         "# col_name" header, columns, "# Partition Information",
//                         "# Detailed Table Information" (Database, Owner,
//                         CreateTime, Location, Table Type, Table Parameters),
//                         "# Storage Information" (SerDe, Input/OutputFormat,
//                         Storage Desc Params) or "# View Information";
//                         empty cells are "NULL"
//   DESCRIBE DATABASE db  name | location | comment (+ owner and parameters
//                         with FORMATTED/EXTENDED)
//   SHOW CREATE TABLE t   one "result" cell: SQL this parser reads back
#include <ctime>
#include <set>

#include "common/hive/table_type.h"
#include "coordinator-sim/exec/exec_context.h"
#include "coordinator-sim/exec/exec_format.h"
#include "coordinator-sim/exec/exec_statements.h"
#include "coordinator-sim/exec/exec_tables.h"

namespace ics::coord::exec {

namespace {

const char* const kNull = "NULL";

// Table parameters that describe state, not definition: left out of SHOW CREATE TABLE.
bool IsStateParameter(const std::string& k) {
  static const std::set<std::string> kHidden = {
      "EXTERNAL", "comment", "transient_lastDdlTime", "numRows", "totalSize", "numFiles",
      "rawDataSize", "COLUMN_STATS_ACCURATE", "STATS_GENERATED", "STATS_GENERATED_VIA_STATS_TASK",
      "impala.lastComputeStatsTime", "last_modified_by", "last_modified_time",
      "numFilesErasureCoded"};
  return kHidden.count(k) > 0 || k.rfind("impala_intermediate_stats_", 0) == 0;
}

std::string FormatTime(int64_t epoch_s) {
  if (epoch_s <= 0) return "UNKNOWN";
  const std::time_t t = static_cast<std::time_t>(epoch_s);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[64];
  std::strftime(buf, sizeof(buf), "%a %b %d %H:%M:%S UTC %Y", &tm);
  return buf;
}

void AddColumnRows(const std::vector<impala::TColumn>& cols, StatementResult* out) {
  out->rows.push_back({"# col_name", "data_type", "comment"});
  out->rows.push_back({"", kNull, kNull});
  for (const impala::TColumn& c : cols) {
    out->rows.push_back({c.columnName, TypeString(c.columnType),
                         c.__isset.comment && !c.comment.empty() ? c.comment : kNull});
  }
  out->rows.push_back({"", kNull, kNull});
}

StatementResult DescribeFormatted(const LocalTable& t) {
  StatementResult out;
  out.columns = {"name", "type", "comment"};
  AddColumnRows(t.columns, &out);
  if (!t.clustering_columns.empty()) {
    out.rows.push_back({"# Partition Information", kNull, kNull});
    AddColumnRows(t.clustering_columns, &out);
  }
  const hive::Table& h = t.hms;
  auto line = [&](const std::string& k, const std::string& v) { out.rows.push_back({k, v, kNull}); };
  out.rows.push_back({"# Detailed Table Information", kNull, kNull});
  line("Database:", t.db);
  line("OwnerType:", "USER");  // HMS tables record no owner type
  line("Owner:", h.owner);
  line("CreateTime:", FormatTime(h.createTime));
  line("LastAccessTime:", h.lastAccessTime > 0 ? FormatTime(h.lastAccessTime) : "UNKNOWN");
  line("Retention:", std::to_string(h.retention));
  if (!t.is_view) line("Location:", h.sd.location);
  line("Table Type:", h.tableType);
  if (!h.parameters.empty()) {
    out.rows.push_back({"Table Parameters:", kNull, kNull});
    for (const auto& [k, v] : h.parameters) out.rows.push_back({"", k, v});
  }
  out.rows.push_back({"", kNull, kNull});
  if (t.is_view) {
    out.rows.push_back({"# View Information", kNull, kNull});
    line("View Original Text:", h.viewOriginalText);
    line("View Expanded Text:", h.viewExpandedText);
    return out;
  }
  out.rows.push_back({"# Storage Information", kNull, kNull});
  line("SerDe Library:", h.sd.serdeInfo.serializationLib);
  line("InputFormat:", h.sd.inputFormat);
  line("OutputFormat:", h.sd.outputFormat);
  line("Compressed:", h.sd.compressed ? "Yes" : "No");
  line("Num Buckets:", std::to_string(h.sd.numBuckets < 0 ? 0 : h.sd.numBuckets));
  line("Bucket Columns:", "[]");
  line("Sort Columns:", "[]");
  if (!h.sd.serdeInfo.parameters.empty()) {
    out.rows.push_back({"Storage Desc Params:", kNull, kNull});
    for (const auto& [k, v] : h.sd.serdeInfo.parameters) out.rows.push_back({"", k, v});
  }
  return out;
}

std::string ColumnListSql(const std::vector<impala::TColumn>& cols) {
  std::string out;
  for (size_t i = 0; i < cols.size(); ++i) {
    out += "  " + QuoteIdent(cols[i].columnName) + " " + TypeSql(cols[i].columnType);
    if (cols[i].__isset.comment && !cols[i].comment.empty()) {
      out += " COMMENT " + QuoteString(cols[i].comment);
    }
    out += i + 1 < cols.size() ? ",\n" : "\n";
  }
  return out;
}

std::string CreateViewSql(const LocalTable& v) {
  const hive::Table& h = v.hms;
  std::string out = "CREATE VIEW " + QuoteIdent(v.db) + "." + QuoteIdent(v.name) + " (";
  for (size_t i = 0; i < v.columns.size(); ++i) {
    out += (i > 0 ? ", " : "") + QuoteIdent(v.columns[i].columnName);
    if (v.columns[i].__isset.comment && !v.columns[i].comment.empty()) {
      out += " COMMENT " + QuoteString(v.columns[i].comment);
    }
  }
  out += ")";
  auto comment = h.parameters.find("comment");
  if (comment != h.parameters.end()) out += " COMMENT " + QuoteString(comment->second);
  out += " AS " + (h.viewExpandedText.empty() ? h.viewOriginalText : h.viewExpandedText);
  return out;
}

std::string CreateTableSql(const LocalTable& t) {
  const hive::Table& h = t.hms;
  const bool external = IsExternal(h);
  std::string out = std::string("CREATE ") + (external ? "EXTERNAL " : "") + "TABLE " +
                    QuoteIdent(t.db) + "." + QuoteIdent(t.name) + " (\n" +
                    ColumnListSql(t.columns) + ")";
  if (!t.clustering_columns.empty()) {
    out += "\nPARTITIONED BY (\n" + ColumnListSql(t.clustering_columns) + ")";
  }
  auto comment = h.parameters.find("comment");
  if (comment != h.parameters.end()) out += "\nCOMMENT " + QuoteString(comment->second);
  const auto& serde = h.sd.serdeInfo.parameters;
  auto field = serde.find("field.delim");
  auto escape = serde.find("escape.delim");
  auto lines = serde.find("line.delim");
  if (field != serde.end() || escape != serde.end() || lines != serde.end()) {
    out += "\nROW FORMAT DELIMITED";
    if (field != serde.end()) out += " FIELDS TERMINATED BY " + QuoteString(field->second);
    if (escape != serde.end()) out += " ESCAPED BY " + QuoteString(escape->second);
    if (lines != serde.end()) out += " LINES TERMINATED BY " + QuoteString(lines->second);
  }
  out += "\nSTORED AS " + FileFormatSqlName(TableFileFormat(t));
  if (!h.sd.location.empty()) out += "\nLOCATION " + QuoteString(h.sd.location);
  std::string props;
  for (const auto& [k, v] : h.parameters) {
    if (IsStateParameter(k)) continue;
    props += (props.empty() ? "" : ", ") + QuoteString(k) + "=" + QuoteString(v);
  }
  if (!props.empty()) out += "\nTBLPROPERTIES (" + props + ")";
  return out;
}

}  // namespace

Result<StatementResult> ExecDescribe(const ExecContext& ctx, const sql::DescribeStmt& s) {
  ICS_ASSIGN_OR_RETURN(TablePtr t, ResolveTable(ctx, s.table));
  if (s.style != sql::DescribeStyle::kMinimal) return DescribeFormatted(*t);
  StatementResult out;
  out.columns = {"name", "type", "comment"};
  for (const impala::TColumn& c : ColumnsInHiveOrder(*t)) {
    out.rows.push_back({c.columnName, TypeString(c.columnType), c.__isset.comment ? c.comment : ""});
  }
  return out;
}

Result<StatementResult> ExecDescribeDatabase(const ExecContext& ctx,
                                             const sql::DescribeDatabaseStmt& s) {
  Result<hive::Database> db = ctx.catalog()->GetDatabase(s.db);
  if (!db.ok()) {
    if (db.status().Is(ErrorCode::kNotFound)) return AnalysisError("Database does not exist: " + s.db);
    return db.status();
  }
  StatementResult out;
  out.columns = {"name", "location", "comment"};
  out.rows.push_back({db->name.empty() ? s.db : db->name, db->locationUri, db->description});
  if (s.style != sql::DescribeStyle::kMinimal) {
    std::string owner_type = "USER";
    if (db->__isset.ownerType && db->ownerType == hive::PrincipalType::ROLE) owner_type = "ROLE";
    out.rows.push_back({"Owner: ", "", ""});
    out.rows.push_back({"", db->__isset.ownerName ? db->ownerName : "", owner_type});
    if (!db->parameters.empty()) {
      out.rows.push_back({"Parameter: ", "", ""});
      for (const auto& [k, v] : db->parameters) out.rows.push_back({"", k, v});
    }
  }
  return out;
}

Result<StatementResult> ExecShowCreate(const ExecContext& ctx, const sql::ShowStmt& s) {
  ICS_ASSIGN_OR_RETURN(TablePtr t, ResolveTable(ctx, s.table));
  if (s.what == sql::ShowKind::kCreateView && !t->is_view) {
    return AnalysisError("SHOW CREATE VIEW not applicable to a table; use SHOW CREATE TABLE: " +
                         FullName(*t));
  }
  StatementResult out;
  out.columns = {"result"};
  out.rows.push_back({t->is_view ? CreateViewSql(*t) : CreateTableSql(*t)});
  return out;
}

}  // namespace ics::coord::exec
