// /catalog, /catalog/table and /catalog/partition (see catalog_pages.h).
#include "catalogd/web/catalog_pages.h"

#include <cstdio>
#include <ctime>
#include <map>

#include "catalogd/web/catalog_metrics.h"
#include "common/codec/file_desc.h"
#include "common/hive/names.h"
#include "common/util/unique_id.h"

namespace ics::catalog {

namespace {

using Json = nlohmann::ordered_json;
using web::WebRequest;

std::string LoadState(const TableState& t) {
  if (t.loaded) return "loaded";
  if (!t.load_status.ok()) return "load failed";
  return "not loaded";
}

std::string KindOf(const TableState& t) { return t.is_view() ? "view" : "table"; }

// Values that only a loaded table has are null otherwise.
Json IfLoaded(const TableState& t, int64_t v) { return t.loaded ? Json(v) : Json(nullptr); }

// Impala's /catalog names a table by fqtn and name, with has_metrics (whether
// a per-table metrics page exists: not here); then this catalog's own facts.
Json TableRow(const TableState& t) {
  Json row;
  row["fqtn"] = t.db + "." + t.name;
  row["name"] = t.name;
  row["has_metrics"] = false;
  row["db"] = t.db;
  row["table"] = t.name;
  row["kind"] = KindOf(t);
  row["state"] = LoadState(t);
  row["version"] = t.version;
  row["partitions"] = IfLoaded(t, static_cast<int64_t>(t.partitions.size()));
  row["files"] = IfLoaded(t, t.NumFiles());
  row["bytes"] = IfLoaded(t, t.table_stats.total_file_bytes);
  row["rows"] = IfLoaded(t, t.table_stats.num_rows);
  return row;
}

Json TopicStatus(const CatalogTopicPublisher& pub) {
  const PublisherStats s = pub.Stats();
  Json j;
  j["last_published_version"] = s.last_published_version;
  j["publications"] = s.publications;
  j["full_publications"] = s.full_publications;
  j["pushed_publications"] = s.pushed_publications;
  j["entries_published"] = s.entries_published;
  j["bytes_published"] = s.bytes_published;
  j["last_build_ms"] = s.last_build_ms;
  return j;
}

// The table named by ?db=&table= (both required), or a 400/404 status.
Result<TablePtr> RequestedTable(const Catalog& catalog, const WebRequest& req) {
  if (!req.Has("db") || !req.Has("table")) {
    return Status::InvalidArgument("this page needs ?db=<database>&table=<table>");
  }
  ICS_ASSIGN_OR_RETURN(const std::string db, NormalizeDatabaseName(req.Param("db")));
  ICS_ASSIGN_OR_RETURN(const std::string table, NormalizeTableName(req.Param("table")));
  if (catalog.GetDatabase(db) == nullptr) return Status::NotFound("no database '" + db + "'");
  TablePtr t = catalog.GetTable(db, table);
  if (t == nullptr) return Status::NotFound("no table '" + table + "' in database '" + db + "'");
  return t;
}

Json FileRows(const PartitionState& p, int limit, int64_t* shown) {
  Json files = Json::array();
  *shown = 0;
  for (std::string_view buf : p.file_descs) {
    if (*shown >= limit) break;
    ++*shown;
    auto fd = ReadFileDesc(buf);
    Json row;
    if (!fd.ok()) {
      row["file"] = "(unreadable descriptor: " + fd.status().message() + ")";
      files.push_back(std::move(row));
      continue;
    }
    const FileDescInfo info = ToFileDescInfo(**fd);
    row["file"] = info.absolute_path.empty() ? info.relative_path : info.absolute_path;
    row["bytes"] = info.length;
    row["modified"] = web_internal::FormatUtcMillis(info.mtime_ms);
    row["compression"] = fb::EnumNameFbCompression(info.compression);
    row["blocks"] = static_cast<int64_t>(info.blocks.size());
    files.push_back(std::move(row));
  }
  return files;
}

// ---- /catalog ----

Status CatalogPage(const CatalogPagesDeps& deps, const WebRequest& req, Json* doc) {
  ICS_ASSIGN_OR_RETURN(int limit, web_internal::ParseLimit(req));
  const Catalog& catalog = *deps.catalog;
  const bool one_db = req.Has("db");
  std::string only;
  if (one_db) {
    ICS_ASSIGN_OR_RETURN(only, NormalizeDatabaseName(req.Param("db")));
  }
  if (one_db && catalog.GetDatabase(only) == nullptr) {
    return Status::NotFound("no database '" + only + "'");
  }
  const TableCounts counts = CountTables(catalog);
  Json& d = *doc;
  const int64_t version = catalog.version();
  d["version"] = version;  // Impala's name
  d["catalog_service_id"] = PrintId(catalog.service_id());
  d["catalog_version"] = version;
  d["last_reset_version"] = catalog.last_reset_version();
  d["databases_total"] = counts.databases;
  d["tables_loaded"] = counts.loaded;
  d["tables_not_loaded"] = counts.unloaded;
  d["tables_load_failed"] = counts.failed;
  d["functions_total"] = counts.functions;
  d["delete_log_entries"] = static_cast<int64_t>(catalog.delete_log_size());
  if (one_db) d["showing_database"] = only;

  // Impala's nesting: every database row holds its tables.
  Json dbs = Json::array();
  int64_t shown = 0;
  bool truncated = false;
  for (const std::string& name : catalog.DatabaseNames()) {
    if (one_db && name != only) continue;
    DatabasePtr db = catalog.GetDatabase(name);
    if (db == nullptr) continue;  // dropped meanwhile
    const std::vector<TablePtr> ts = catalog.TablesOf(name);
    Json tables = Json::array();
    for (const TablePtr& t : ts) {
      if (shown >= limit) {
        truncated = true;
        break;
      }
      tables.push_back(TableRow(*t));
      ++shown;
    }
    Json row;
    row["name"] = name;
    row["num_tables"] = static_cast<int64_t>(ts.size());
    row["has_metrics"] = false;
    row["database"] = name;  // linked to the database's own listing
    row["version"] = db->version;
    row["functions"] = static_cast<int64_t>(catalog.FunctionsOf(name).size());
    row["location"] = db->hms.locationUri;
    row["comment"] = db->hms.description;
    row["tables"] = std::move(tables);  // rows past ?limit are left out
    dbs.push_back(std::move(row));
  }
  d["tables_shown"] = shown;
  if (truncated) d["tables_truncated_at_limit"] = limit;
  // Sections render in this order: the lists first, then the subsystems.
  d["databases"] = std::move(dbs);
  if (deps.publisher != nullptr) d["topic"] = TopicStatus(*deps.publisher);
  if (deps.event_processor_status) d["hms_event_processor"] = deps.event_processor_status();
  if (deps.ha_status) d["catalogd_ha"] = deps.ha_status();
  return Status::OK();
}

// ---- /catalog/table ----

Status TablePage(const CatalogPagesDeps& deps, const WebRequest& req, Json* doc) {
  ICS_ASSIGN_OR_RETURN(int limit, web_internal::ParseLimit(req));
  ICS_ASSIGN_OR_RETURN(TablePtr tp, RequestedTable(*deps.catalog, req));
  const TableState& t = *tp;
  Json& d = *doc;
  d["db"] = t.db;
  d["table"] = t.name;
  d["kind"] = KindOf(t);
  d["state"] = LoadState(t);
  if (!t.load_status.ok()) d["load_error"] = t.load_status.ToString();
  d["version"] = t.version;
  d["owner"] = t.hms.owner;
  d["table_type"] = t.hms.tableType;
  d["location"] = t.hms.sd.location;
  d["input_format"] = t.hms.sd.inputFormat;
  if (t.is_view()) d["view_definition"] = t.hms.viewOriginalText;
  if (t.loaded) {
    d["partitions_total"] = static_cast<int64_t>(t.partitions.size());
    d["files_total"] = t.NumFiles();
    d["bytes_total"] = t.table_stats.total_file_bytes;
    d["rows"] = t.table_stats.num_rows;
    d["estimated_memory_bytes"] = t.EstimateBytes();
    if (t.load_time_ms > 0) d["loaded_at"] = web_internal::FormatUtcMillis(t.load_time_ms);
  } else {
    d["note"] = "catalogd has only the name of this table; it loads it when a coordinator "
                "first needs it (or with --load_catalog_in_background)";
  }
  Json cols = Json::array();
  for (const auto& c : t.hms.sd.cols) {
    cols.push_back({{"column", c.name}, {"type", c.type}, {"comment", c.comment}});
  }
  d["columns"] = std::move(cols);
  Json keys = Json::array();
  for (const auto& c : t.hms.partitionKeys) {
    keys.push_back({{"column", c.name}, {"type", c.type}, {"comment", c.comment}});
  }
  d["partition_keys"] = std::move(keys);
  Json stats = Json::array();
  for (const auto& [name, cs] : t.column_stats) {
    stats.push_back({{"column", name}, {"type", cs.colType}});
  }
  if (!stats.empty()) d["column_stats"] = std::move(stats);
  if (!t.loaded) return Status::OK();

  if (!t.is_partitioned()) {
    if (!t.partitions.empty()) {
      int64_t shown = 0;
      d["files"] = FileRows(*t.partitions.begin()->second, limit, &shown);
      if (shown < static_cast<int64_t>(t.partitions.begin()->second->file_descs.size())) {
        d["files_truncated_at_limit"] = limit;
      }
    }
    return Status::OK();
  }
  // Partitions in name order (ids follow creation order, names read better).
  std::map<std::string, const PartitionState*> by_name;
  for (const auto& [id, p] : t.partitions) by_name.emplace(std::string(p->name()), p.get());
  Json parts = Json::array();
  int64_t shown = 0;
  for (const auto& [name, p] : by_name) {
    if (shown >= limit) {
      d["partitions_truncated_at_limit"] = limit;
      break;
    }
    ++shown;
    Json row;
    row["partition"] = std::string(p->name());
    row["id"] = p->id;
    row["files"] = static_cast<int64_t>(p->file_descs.size());
    row["bytes"] = p->total_file_bytes();
    row["rows"] = p->num_rows();
    row["added_version"] = p->added_version;
    row["location"] = p->location();
    parts.push_back(std::move(row));
  }
  d["partitions"] = std::move(parts);
  return Status::OK();
}

// Links of the table page: partitions to their page (db and table are
// fixed per page, so the template is built from the document).
std::string RenderTablePage(const Json& doc) {
  std::vector<web::LinkRule> links;
  if (doc.contains("db") && doc.contains("table")) {
    const std::string base = "/catalog/partition?db=" + web::UrlEncode(doc["db"].get<std::string>()) +
                             "&table=" + web::UrlEncode(doc["table"].get<std::string>());
    links.push_back({"partition", base + "&partition={partition}"});
    const std::string back = "/catalog?db=" + web::UrlEncode(doc["db"].get<std::string>());
    return "<p><a href=\"" + web::HtmlEscape(back) + "\">&larr; database " +
           web::HtmlEscape(doc["db"].get<std::string>()) + "</a> &middot; <a href=\"" +
           web::HtmlEscape("/catalog_object?type=TABLE&name=" +
                           web::UrlEncode(doc["db"].get<std::string>() + "." +
                                          doc["table"].get<std::string>())) +
           "\">as catalog object</a></p>\n" + web::RenderJsonHtml(doc, links);
  }
  return web::RenderJsonHtml(doc, links);
}

// ---- /catalog/partition ----

Status PartitionPage(const CatalogPagesDeps& deps, const WebRequest& req, Json* doc) {
  ICS_ASSIGN_OR_RETURN(int limit, web_internal::ParseLimit(req));
  ICS_ASSIGN_OR_RETURN(TablePtr tp, RequestedTable(*deps.catalog, req));
  const TableState& t = *tp;
  if (!req.Has("partition")) {
    return Status::InvalidArgument("this page needs ?db=&table=&partition=<name, e.g. year=2024>");
  }
  if (!t.loaded) {
    return Status::NotFound("table " + t.db + "." + t.name +
                            " is not loaded; its partitions are not known yet");
  }
  const std::string name = req.Param("partition");
  const PartitionState* p = t.FindPartition(name);
  if (p == nullptr && !t.is_partitioned() && name.empty() && !t.partitions.empty()) {
    p = t.partitions.begin()->second.get();
  }
  if (p == nullptr) {
    return Status::NotFound("no partition '" + name + "' in table " + t.db + "." + t.name);
  }
  Json& d = *doc;
  d["db"] = t.db;
  d["table"] = t.name;
  d["partition"] = std::string(p->name());
  d["id"] = p->id;
  d["table_version"] = t.version;
  d["added_version"] = p->added_version;
  d["location"] = p->location();
  d["files_total"] = static_cast<int64_t>(p->file_descs.size());
  d["bytes_total"] = p->total_file_bytes();
  d["blocks_total"] = p->num_blocks();
  d["rows"] = p->num_rows();
  d["has_incremental_stats"] = p->has_incremental_stats();
  if (p->listed_at_s > 0) {
    d["listed_at"] = web_internal::FormatUtcMillis(int64_t{p->listed_at_s} * 1000);
  }
  int64_t shown = 0;
  d["files"] = FileRows(*p, limit, &shown);
  if (shown < static_cast<int64_t>(p->file_descs.size())) d["files_truncated_at_limit"] = limit;
  return Status::OK();
}

std::string RenderPartitionPage(const Json& doc) {
  std::string head;
  if (doc.contains("db") && doc.contains("table")) {
    const std::string db = doc["db"].get<std::string>();
    const std::string table = doc["table"].get<std::string>();
    head = "<p><a href=\"" +
           web::HtmlEscape("/catalog/table?db=" + web::UrlEncode(db) +
                           "&table=" + web::UrlEncode(table)) +
           "\">&larr; table " + web::HtmlEscape(db + "." + table) + "</a></p>\n";
  }
  return head + web::RenderJsonHtml(doc);
}

}  // namespace

namespace web_internal {

Result<int> ParseLimit(const WebRequest& req) {
  if (!req.Has("limit")) return kDefaultPageRows;
  const std::string v = req.Param("limit");
  if (v.empty() || v.size() > 9 || v.find_first_not_of("0123456789") != std::string::npos) {
    return Status::InvalidArgument("bad limit '" + v + "' (expected 1.." +
                                   std::to_string(kMaxPageRows) + ")");
  }
  const int n = std::stoi(v);
  if (n < 1 || n > kMaxPageRows) {
    return Status::InvalidArgument("bad limit '" + v + "' (expected 1.." +
                                   std::to_string(kMaxPageRows) + ")");
  }
  return n;
}

std::string FormatUtcMillis(int64_t ms) {
  const std::time_t secs = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[40];
  const size_t n = std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%S", &tm);
  char frac[8];
  std::snprintf(frac, sizeof(frac), ".%03dZ", static_cast<int>(((ms % 1000) + 1000) % 1000));
  return std::string(buf, n) + frac;
}

}  // namespace web_internal

void RegisterCatalogPages(web::WebServer* server, const CatalogPagesDeps& deps) {
  web::PageOptions catalog_opts;
  catalog_opts.params = {"db", "limit"};
  catalog_opts.links = {{"database", "/catalog?db={database}"},
                        {"table", "/catalog/table?db={db}&table={table}"},
                        {"db", "/catalog?db={db}"}};
  server->RegisterPage(
      "/catalog", "Catalog",
      [deps](const WebRequest& req, Json* doc) { return CatalogPage(deps, req, doc); },
      std::move(catalog_opts));

  web::PageOptions table_opts;
  table_opts.params = {"db", "table", "limit"};
  table_opts.renderer = RenderTablePage;
  table_opts.in_menu = false;
  server->RegisterPage(
      "/catalog/table", "Table",
      [deps](const WebRequest& req, Json* doc) { return TablePage(deps, req, doc); },
      std::move(table_opts));

  web::PageOptions part_opts;
  part_opts.params = {"db", "table", "partition", "limit"};
  part_opts.renderer = RenderPartitionPage;
  part_opts.in_menu = false;
  server->RegisterPage(
      "/catalog/partition", "Partition",
      [deps](const WebRequest& req, Json* doc) { return PartitionPage(deps, req, doc); },
      std::move(part_opts));

  web_internal::RegisterCatalogObjectPage(server, deps);
  web_internal::RegisterOperationsPage(server, deps);
  web_internal::RegisterJsonMetricsPage(server, deps);
}

}  // namespace ics::catalog
