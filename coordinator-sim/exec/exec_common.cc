// Helpers shared by the statement executors: name resolution against the
// local catalog, columns, partition specs, storage details and formatting.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>

#include "common/codec/file_desc.h"
#include "common/hive/file_format.h"
#include "common/hive/partition_name.h"
#include "common/hive/scalar_text.h"
#include "common/sql/lexer.h"
#include "common/types/column_type.h"
#include "coordinator-sim/catalog/catalog_util.h"
#include "coordinator-sim/exec/exec_context.h"
#include "coordinator-sim/exec/exec_format.h"
#include "coordinator-sim/exec/exec_statements.h"
#include "coordinator-sim/exec/exec_tables.h"
#include "coordinator-sim/exec/exec_values.h"

namespace ics::coord::exec {

Status AnalysisError(std::string msg) { return Status(ErrorCode::kAnalysisError, std::move(msg)); }

// ---- names and resolution ----

std::string DbOf(const sql::TableName& name, const ExecContext& ctx) {
  return name.qualified() ? name.db : ctx.session->db;
}

impala::TTableName ToTTableName(const sql::TableName& name, const ExecContext& ctx) {
  impala::TTableName out;
  out.db_name = DbOf(name, ctx);
  out.table_name = name.table;
  return out;
}

std::string FullName(const LocalTable& t) { return t.db + "." + t.name; }

Status CheckDbExists(const ExecContext& ctx, const std::string& db) {
  Result<hive::Database> d = ctx.catalog()->GetDatabase(db);
  if (d.ok()) return Status::OK();
  if (d.status().Is(ErrorCode::kNotFound)) return AnalysisError("Database does not exist: " + db);
  return d.status();
}

Result<bool> TableListed(const ExecContext& ctx, const std::string& db, const std::string& table) {
  Result<std::vector<std::string>> names = ctx.catalog()->TableNames(db);
  if (!names.ok()) {
    if (names.status().Is(ErrorCode::kNotFound)) return AnalysisError("Database does not exist: " + db);
    return names.status();
  }
  const std::string want = AsciiLower(table);
  for (const std::string& n : *names) {
    if (AsciiLower(n) == want) return true;
  }
  return false;
}

Result<bool> TableExists(const ExecContext& ctx, const std::string& db, const std::string& table) {
  Result<TablePtr> t = ctx.catalog()->GetTable(db, table);
  if (t.ok()) return true;
  if (t.status().Is(ErrorCode::kNotFound)) return false;
  return t.status();
}

Result<TablePtr> ResolveTable(const ExecContext& ctx, const sql::TableName& name,
                              bool need_loaded) {
  const std::string db = DbOf(name, ctx);
  Result<TablePtr> t = ctx.catalog()->GetTable(db, name.table);
  if (!t.ok()) {
    if (!t.status().Is(ErrorCode::kNotFound)) return t.status();
    ICS_RETURN_IF_ERROR(CheckDbExists(ctx, db));
    return AnalysisError("Table does not exist: " + db + "." + name.table);
  }
  if (!need_loaded || (*t)->loaded) return t;
  // catalogd has not loaded the table yet: ask it to (a REFRESH loads it),
  // which also brings the loaded table into the local catalog.
  impala::TResetMetadataRequest req;
  req.is_refresh = true;
  req.__set_table_name(ToTTableName(name, ctx));
  Result<impala::TCatalogUpdateResult> r = ctx.backend->ResetMetadata(req, false);
  if (!r.ok()) return r.status().WithContext("loading the metadata of " + db + "." + name.table);
  Result<TablePtr> again = ctx.catalog()->GetTable(db, name.table);
  if (!again.ok()) {
    if (again.status().Is(ErrorCode::kNotFound)) {
      return AnalysisError("Table does not exist: " + db + "." + name.table);
    }
    return again.status();
  }
  if (!(*again)->loaded) {
    return Status(ErrorCode::kRecoverableError,
                  "The metadata of table " + db + "." + name.table + " is not loaded yet");
  }
  return again;
}

Result<TablePtr> ResolveNonView(const ExecContext& ctx, const sql::TableName& name,
                                const std::string& what) {
  ICS_ASSIGN_OR_RETURN(TablePtr t, ResolveTable(ctx, name));
  if (t->is_view) return AnalysisError(what + " not allowed on a view: " + FullName(*t));
  return t;
}

// ---- columns ----

const impala::TColumn* FindColumn(const LocalTable& t, const std::string& name) {
  for (const auto& c : t.columns) {
    if (c.columnName == name) return &c;
  }
  for (const auto& c : t.clustering_columns) {
    if (c.columnName == name) return &c;
  }
  return nullptr;
}

bool IsPartitionColumn(const LocalTable& t, const std::string& name) {
  for (const auto& c : t.clustering_columns) {
    if (c.columnName == name) return true;
  }
  return false;
}

std::vector<impala::TColumn> ColumnsInHiveOrder(const LocalTable& t) {
  std::vector<impala::TColumn> out = t.columns;
  out.insert(out.end(), t.clustering_columns.begin(), t.clustering_columns.end());
  return out;
}

Status ColumnNotFound(const std::string& column, const LocalTable& t) {
  return AnalysisError("Column '" + column + "' not found in " + FullName(t));
}

Result<std::vector<impala::TColumn>> ToTColumns(const std::vector<sql::ColumnDef>& defs) {
  std::vector<impala::TColumn> out;
  for (const sql::ColumnDef& d : defs) {
    Result<impala::TColumnType> type = ParseHiveType(d.type);
    if (!type.ok()) {
      return AnalysisError("Invalid type of column '" + d.name + "': " + type.status().message());
    }
    impala::TColumn c;
    c.columnName = d.name;
    c.columnType = std::move(type).value();
    if (d.comment) c.__set_comment(*d.comment);
    out.push_back(std::move(c));
  }
  return out;
}

// ---- partitions ----

Result<std::vector<impala::TPartitionKeyValue>> ToPartitionKeyValues(
    const LocalTable& t, const sql::PartitionSpec& spec, bool require_full) {
  if (t.clustering_columns.empty()) return AnalysisError("Table is not partitioned: " + FullName(t));
  std::map<std::string, const sql::PartitionKeyValue*> given;
  for (const sql::PartitionKeyValue& kv : spec) {
    if (!IsPartitionColumn(t, kv.column)) {
      if (FindColumn(t, kv.column) != nullptr) {
        return AnalysisError("Column '" + kv.column + "' is not a partition column of " +
                             FullName(t));
      }
      return AnalysisError("Partition column '" + kv.column + "' not found in " + FullName(t));
    }
    if (!kv.value) return AnalysisError("Partition key '" + kv.column + "' needs a value here");
    given[kv.column] = &kv;
  }
  if (require_full && given.size() != t.clustering_columns.size()) {
    return AnalysisError(
        "Items in partition spec must exactly match the partition columns in the table "
        "definition: " + FullName(t) + " (" + std::to_string(given.size()) + " vs " +
        std::to_string(t.clustering_columns.size()) + ")");
  }
  std::vector<impala::TPartitionKeyValue> out;
  for (const impala::TColumn& c : t.clustering_columns) {
    auto it = given.find(c.columnName);
    if (it == given.end()) continue;
    CoercionTarget target{FullName(t), c.columnName, true};
    ICS_ASSIGN_OR_RETURN(std::string v, PartitionValue(*it->second->value, c.columnType, target));
    impala::TPartitionKeyValue kv;
    kv.name = c.columnName;
    kv.value = std::move(v);
    out.push_back(std::move(kv));
  }
  return out;
}

std::vector<int64_t> MatchingPartitionIds(const LocalTable& t,
                                          const std::vector<impala::TPartitionKeyValue>& spec) {
  std::vector<std::pair<size_t, const impala::TPartitionKeyValue*>> want;
  for (const auto& kv : spec) {
    for (size_t i = 0; i < t.clustering_columns.size(); ++i) {
      if (t.clustering_columns[i].columnName == kv.name) want.emplace_back(i, &kv);
    }
  }
  // Every key given once: the value index answers.
  std::vector<const impala::TPartitionKeyValue*> by_key(t.clustering_columns.size(), nullptr);
  bool full = t.partition_names.indexed() && want.size() == by_key.size();
  for (const auto& [pos, kv] : want) {
    full = full && by_key[pos] == nullptr;
    by_key[pos] = kv;
  }
  if (full) {
    std::vector<std::string> values;
    values.reserve(by_key.size());
    for (const impala::TPartitionKeyValue* kv : by_key) values.push_back(kv->value);
    return t.partition_names.FindByValues(values);
  }
  std::vector<int64_t> ids;
  for (const auto& [id, name] : t.partition_names) {
    const std::vector<std::string> values = PartitionValuesFromName(name);
    if (values.size() != t.clustering_columns.size()) continue;
    bool match = true;
    for (const auto& [pos, kv] : want) {
      match = match && PartitionValuesEqual(t.clustering_columns[pos].columnType, values[pos],
                                            kv->value);
    }
    if (match) ids.push_back(id);
  }
  return ids;
}

std::string SpecToString(const std::vector<impala::TPartitionKeyValue>& spec) {
  std::string out = "(";
  for (size_t i = 0; i < spec.size(); ++i) {
    if (i > 0) out += ", ";
    out += spec[i].name + "=" + spec[i].value;
  }
  return out + ")";
}

Result<std::string> PartitionNameOf(const LocalTable& t, const std::vector<std::string>& values) {
  return ics::MakePartitionName(PartitionKeyNames(t.clustering_columns), values);
}

Result<std::vector<DataFile>> FilesOf(const LocalPartition& p) {
  std::vector<DataFile> out;
  const std::string dir = LocalPath(p.location);
  for (const std::string& bytes : p.file_descs) {
    Result<const fb::FbFileDesc*> fd = ReadFileDesc(bytes);
    if (!fd.ok()) return fd.status().WithContext("file descriptor of partition '" + p.name + "'");
    const fb::FbFileDesc& d = **fd;
    DataFile f;
    f.name = d.relative_path() ? d.relative_path()->str() : "";
    const std::string abs = d.absolute_path() ? d.absolute_path()->str() : "";
    f.path = !abs.empty() ? LocalPath(abs) : dir + "/" + f.name;
    f.length = d.length();
    out.push_back(std::move(f));
  }
  return out;
}

// ---- storage ----

std::string LocalPath(const std::string& location) {
  if (location.rfind("file://", 0) == 0) return location.substr(7);
  if (location.rfind("file:", 0) == 0) return location.substr(5);
  return location;
}

impala::THdfsFileFormat::type TableFileFormat(const LocalTable& t) {
  return ics::FileFormatOf(t.hms.sd);
}

std::string FileFormatSqlName(impala::THdfsFileFormat::type f) {
  switch (f) {
    case impala::THdfsFileFormat::KUDU: return "KUDU";
    case impala::THdfsFileFormat::ICEBERG: return "ICEBERG";
    default:
      return ics::FileFormatName(f);
  }
}

impala::THdfsFileFormat::type ToThriftFormat(sql::FileFormat f) {
  using F = impala::THdfsFileFormat;
  switch (f) {
    case sql::FileFormat::kText: return F::TEXT;
    case sql::FileFormat::kSequenceFile: return F::SEQUENCE_FILE;
    case sql::FileFormat::kRcFile: return F::RC_FILE;
    case sql::FileFormat::kAvro: return F::AVRO;
    case sql::FileFormat::kParquet: return F::PARQUET;
    case sql::FileFormat::kOrc: return F::ORC;
    case sql::FileFormat::kKudu: return F::KUDU;
    case sql::FileFormat::kIceberg: return F::ICEBERG;
    case sql::FileFormat::kJson: return F::JSON;
  }
  return F::TEXT;
}

char FieldDelimiter(const LocalTable& t) {
  const auto& params = t.hms.sd.serdeInfo.parameters;
  auto it = params.find("field.delim");
  if (it == params.end()) it = params.find("serialization.format");
  if (it == params.end() || it->second.empty()) return '\x01';
  const std::string& v = it->second;
  // Hive (LazySerDeParameters.getByte): a number is a byte value, else the first character.
  char* end = nullptr;
  const long n = std::strtol(v.c_str(), &end, 10);
  const bool numeric = end == v.c_str() + v.size() && !std::isspace(static_cast<unsigned char>(v[0]));
  if (numeric && n >= -128 && n <= 127) return static_cast<char>(n);
  return v[0];
}

// ---- formatting ----

std::string PrintBytes(int64_t bytes) {
  static const struct {
    int64_t unit;
    const char* suffix;
  } kUnits[] = {{1ll << 50, "PB"}, {1ll << 40, "TB"}, {1ll << 30, "GB"}, {1ll << 20, "MB"},
                {1ll << 10, "KB"}};
  for (const auto& u : kUnits) {
    if (bytes >= u.unit) {
      char buf[64];
      std::snprintf(buf, sizeof(buf), "%.2f%s", static_cast<double>(bytes) / u.unit, u.suffix);
      return buf;
    }
  }
  return std::to_string(bytes) + "B";
}

std::string TypeString(const impala::TColumnType& type) { return TypeToString(type); }

std::string TypeSql(const impala::TColumnType& type) {
  const std::string s = TypeToString(type);
  std::string out;
  size_t i = 0;
  while (i < s.size()) {
    const auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
    if (!word(s[i])) {
      out += s[i++];
      continue;
    }
    size_t j = i;
    while (j < s.size() && word(s[j])) ++j;
    std::string w = s.substr(i, j - i);
    if (j >= s.size() || s[j] != ':') {  // a struct field name keeps its case
      for (char& c : w) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    }
    out += w;
    i = j;
  }
  return out;
}

namespace {

bool GlobMatch(const std::string& s, size_t si, const std::string& p, size_t pi) {
  // Iterative '*' matching with backtracking to the last star.
  size_t star = std::string::npos, mark = 0;
  while (si < s.size()) {
    if (pi < p.size() && p[pi] == '*') {
      star = pi++;
      mark = si;
    } else if (pi < p.size() && p[pi] == s[si]) {
      ++pi;
      ++si;
    } else if (star != std::string::npos) {
      pi = star + 1;
      si = ++mark;
    } else {
      return false;
    }
  }
  while (pi < p.size() && p[pi] == '*') ++pi;
  return pi == p.size();
}

std::string Trim(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

}  // namespace

bool MatchesPattern(const std::string& name, const std::string& pattern) {
  const std::string lname = AsciiLower(name);
  const std::string lpat = AsciiLower(pattern);
  size_t start = 0;
  while (true) {
    const size_t bar = lpat.find('|', start);
    const std::string alt = Trim(lpat.substr(start, bar == std::string::npos ? bar : bar - start));
    if (GlobMatch(lname, 0, alt, 0)) return true;
    if (bar == std::string::npos) return false;
    start = bar + 1;
  }
}

std::string QuoteIdent(const std::string& name) {
  bool plain = !name.empty() && !sql::IsReservedWord(name);
  bool has_letter = false;
  for (char c : name) {
    const bool lower = c >= 'a' && c <= 'z';
    plain = plain && (lower || (c >= '0' && c <= '9') || c == '_');
    has_letter = has_letter || lower || c == '_';
  }
  if (plain && has_letter && !(name[0] >= '0' && name[0] <= '9')) return name;
  std::string out = "`";
  for (char c : name) {
    if (c == '`') out += '`';
    out += c;
  }
  return out + "`";
}

std::string QuoteString(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    switch (c) {
      case '\'': out += "\\'"; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default: out += c;  // other bytes as they are: the lexer reads them back verbatim
    }
  }
  return out + "'";
}

std::string FormatDouble(double d) {
  if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 1e15) {
    return std::to_string(static_cast<int64_t>(d));
  }
  char buf[64];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof(buf), "%.*g", precision, d);
    if (std::strtod(buf, nullptr) == d) break;
  }
  return buf;
}

// ---- catalogd calls ----

Result<StatementResult> RunDdl(const ExecContext& ctx, impala::TDdlExecRequest req) {
  ctx.side_effects = true;
  ICS_ASSIGN_OR_RETURN(impala::TDdlExecResponse resp,
                       ctx.backend->ExecDdl(std::move(req), ctx.sync_ddl()));
  StatementResult out;
  if (resp.__isset.result_set) {
    for (const impala::TResultRow& row : resp.result_set.rows) {
      for (const impala::TColumnValue& v : row.colVals) {
        if (v.__isset.string_val) out.messages.push_back(v.string_val);
      }
    }
  }
  return out;
}

impala::TDdlExecRequest AlterTableRequest(const LocalTable& t, impala::TAlterTableType::type type) {
  impala::TDdlExecRequest req;
  req.ddl_type = impala::TDdlType::ALTER_TABLE;
  impala::TAlterTableParams p;
  p.alter_type = type;
  p.table_name.db_name = t.db;
  p.table_name.table_name = t.name;
  req.__set_alter_table_params(p);
  return req;
}

}  // namespace ics::coord::exec
