#include "coordinator-sim/web/coordinator_pages.h"

#include <cctype>

#include <nlohmann/json.hpp>

#include "common/util/operation_log_json.h"

namespace ics::coord {

namespace {

using Json = nlohmann::ordered_json;

constexpr int kDefaultRows = 1000;
constexpr int kMaxRows = 100000;

Result<int> ParseLimit(const web::WebRequest& req) {
  if (!req.Has("limit")) return kDefaultRows;
  const std::string v = req.Param("limit");
  const bool digits =
      !v.empty() && v.size() <= 9 && v.find_first_not_of("0123456789") == std::string::npos;
  const int n = digits ? std::stoi(v) : 0;
  if (n < 1 || n > kMaxRows) {
    return Status::InvalidArgument("bad limit '" + v + "' (expected 1.." +
                                   std::to_string(kMaxRows) + ")");
  }
  return n;
}

std::string StateOf(const LocalCatalogContents::Table& t, bool on_demand) {
  if (on_demand) return t.loaded ? "cached" : "name only";
  return t.loaded ? "loaded" : "not loaded";
}

Status CatalogPage(Coordinator* c, const web::WebRequest& req, Json* doc) {
  ICS_ASSIGN_OR_RETURN(int limit, ParseLimit(req));
  const CoordinatorState st = c->State();
  const LocalCatalogStats stats = c->catalog()->Stats();
  const LocalCatalogContents contents = c->catalog()->Contents();
  const bool one_db = req.Has("db");
  std::string only = req.Param("db");
  for (char& ch : only) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));

  Json& d = *doc;
  d["coordinator"] = st.id;
  d["mode"] = st.on_demand ? "on demand (2: invalidations, partial fetches)"
                           : "full replica (1: entries)";
  d["local_catalog_version"] = st.local_catalog_version;
  d["catalog_service_id"] = st.catalog_service_id;
  d["catalog_ready"] = st.catalog_ready;
  d["topic_catalog_version"] = st.topic_catalog_version;
  d["topic_version"] = st.topic_version;
  d["min_subscriber_topic_version"] = st.min_subscriber_topic_version;
  d["registered"] = st.registered;
  d["registrations"] = st.registrations;
  d["registration_id"] = st.registration_id;
  Json cache;
  cache["hits"] = stats.hits;
  cache["misses"] = stats.misses;
  const int64_t lookups = stats.hits + stats.misses;
  cache["hit_ratio"] = lookups == 0 ? Json(nullptr)
                                    : Json(static_cast<double>(stats.hits) /
                                           static_cast<double>(lookups));
  cache["evictions"] = stats.evictions;
  cache["invalidations"] = stats.invalidations;
  cache["fetches"] = stats.fetches;
  cache["partition_list_patches"] = stats.partition_list_patches;
  cache["cached_bytes"] = stats.cached_bytes;
  cache["objects"] = stats.objects;
  d["local_catalog"] = std::move(cache);
  d["contents_complete"] = contents.complete;
  if (!contents.complete) {
    d["note"] = "on-demand mode: only what is cached is listed; other objects are fetched from "
                "catalogd when a statement needs them";
  }
  if (one_db) d["showing_database"] = only;

  Json dbs = Json::array();
  for (const std::string& db : contents.databases) {
    if (one_db && db != only) continue;
    int64_t n = 0;
    for (const auto& t : contents.tables) n += t.db == db ? 1 : 0;
    dbs.push_back({{"database", db}, {"tables_known", n}});
  }
  Json tables = Json::array();
  int64_t shown = 0;
  for (const auto& t : contents.tables) {
    if (one_db && t.db != only) continue;
    if (shown >= limit) {
      d["tables_truncated_at_limit"] = limit;
      break;
    }
    ++shown;
    Json row;
    row["db"] = t.db;
    row["table"] = t.name;
    row["state"] = StateOf(t, st.on_demand);
    row["version"] = t.version;
    row["partitions"] = t.partitions < 0 ? Json(nullptr) : Json(t.partitions);
    row["local_partitions"] = t.local_partitions;
    tables.push_back(std::move(row));
  }
  d["tables_shown"] = shown;
  d["databases"] = std::move(dbs);
  d["tables"] = std::move(tables);
  return Status::OK();
}

Status StatementsPage(Coordinator* c, const web::WebRequest& req, Json* doc) {
  ICS_ASSIGN_OR_RETURN(int limit, ParseLimit(req));
  *doc = OperationLogJson(c->statements()->Get(), limit, c->statements()->capacity());
  return Status::OK();
}

}  // namespace

void RegisterCoordinatorPages(web::WebServer* server, Coordinator* coordinator) {
  // Healthy, like an Impala coordinator, only once it holds the catalog.
  server->SetHealthCheck([coordinator] {
    return coordinator->catalog_ready()
               ? Status::OK()
               : Status::General("Catalog not ready: no catalog topic update received yet");
  });
  web::PageOptions catalog_opts;
  catalog_opts.params = {"db", "limit"};
  catalog_opts.links = {{"database", "/catalog?db={database}"}, {"db", "/catalog?db={db}"}};
  server->RegisterPage(
      "/catalog", "Local catalog",
      [coordinator](const web::WebRequest& req, Json* doc) {
        return CatalogPage(coordinator, req, doc);
      },
      std::move(catalog_opts));
  web::PageOptions stmt_opts;
  stmt_opts.params = {"limit"};
  server->RegisterPage(
      "/statements", "Statements",
      [coordinator](const web::WebRequest& req, Json* doc) {
        return StatementsPage(coordinator, req, doc);
      },
      std::move(stmt_opts));
}

}  // namespace ics::coord
