// OnDemandCatalog: lookups — cache first, then GetPartialCatalogObject with
// the narrowest selector that answers the question, with bounded retries.
#include <glog/logging.h>

#include <algorithm>
#include <limits>
#include <set>
#include <thread>

#include "common/codec/file_desc.h"
#include "common/hive/table_params.h"
#include "common/hive/table_type.h"
#include "common/rpc/status_convert.h"
#include "coordinator-sim/catalog/catalog_util.h"
#include "coordinator-sim/catalog/on_demand_catalog.h"

namespace ics::coord {

using impala::CatalogLookupStatus;
using impala::TCatalogObjectType;

namespace {

impala::TGetPartialCatalogObjectRequest NewRequest(TCatalogObjectType::type type) {
  impala::TGetPartialCatalogObjectRequest req;
  req.protocol_version = impala::CatalogServiceVersion::V2;
  req.object_desc.type = type;
  req.object_desc.catalog_version = 0;
  return req;
}

impala::TGetPartialCatalogObjectRequest TableRequest(const std::string& db,
                                                     const std::string& tbl) {
  impala::TGetPartialCatalogObjectRequest req = NewRequest(TCatalogObjectType::TABLE);
  req.object_desc.__isset.table = true;
  req.object_desc.table.db_name = db;
  req.object_desc.table.tbl_name = tbl;
  return req;
}

impala::TGetPartialCatalogObjectRequest DbRequest(const std::string& db) {
  impala::TGetPartialCatalogObjectRequest req = NewRequest(TCatalogObjectType::DATABASE);
  req.object_desc.__isset.db = true;
  req.object_desc.db.db_name = db;
  return req;
}

std::string LookupName(CatalogLookupStatus::type s) {
  auto it = impala::_CatalogLookupStatus_VALUES_TO_NAMES.find(s);
  return it == impala::_CatalogLookupStatus_VALUES_TO_NAMES.end() ? std::to_string(s) : it->second;
}

Status Retry(const std::string& why) { return Status(ErrorCode::kRecoverableError, why); }

// A partition of a GetPartialCatalogObject answer as a LocalPartition.
LocalPartition PartitionFromPartial(const impala::TPartialPartitionInfo& pp,
                                    const std::string& name,
                                    const std::vector<std::string>& prefixes, bool files,
                                    bool stats) {
  LocalPartition out;
  out.id = pp.id;
  out.name = name;
  out.values = PartitionValuesFromName(name);
  if (pp.__isset.location) {
    const int idx = pp.location.prefix_index;
    out.location = (idx >= 0 && static_cast<size_t>(idx) < prefixes.size())
                       ? prefixes[static_cast<size_t>(idx)] + pp.location.suffix
                       : pp.location.suffix;
  }
  if (pp.__isset.hms_parameters) out.hms_parameters = pp.hms_parameters;
  out.num_rows = NumRowsOf(out.hms_parameters);
  if (files) {
    out.files_loaded = true;
    out.file_descs.reserve(pp.file_descriptors.size());
    for (const auto& fd : pp.file_descriptors) {
      Result<const fb::FbFileDesc*> d = ReadFileDesc(fd.file_desc_data);
      if (d.ok()) out.total_file_bytes += (*d)->length();
      out.file_descs.push_back(fd.file_desc_data);
    }
  } else {
    auto it = out.hms_parameters.find(kTotalSizeParam);
    if (it != out.hms_parameters.end()) out.total_file_bytes = std::atoll(it->second.c_str());
  }
  if (stats && pp.__isset.partition_stats) out.partition_stats = pp.partition_stats;
  if (pp.__isset.has_incremental_stats) out.has_incremental_stats = pp.has_incremental_stats;
  return out;
}

}  // namespace

// ---------------------------------------------------------------------------
// Machinery

template <typename T>
std::optional<T> OnDemandCatalog::Lookup(const std::string& key) {
  MutexLock l(&mu_);
  const CacheValue* v = cache_.Get(key, Now());
  const T* t = v == nullptr ? nullptr : std::get_if<T>(v);
  if (t == nullptr) {
    ++misses_;
    return std::nullopt;
  }
  ++hits_;
  return *t;
}

template <typename T, typename Fn>
Result<T> OnDemandCatalog::Retrying(const std::string& what, Fn&& attempt) {
  Status last;
  int backoff_ms = std::max(1, opts_.retry_backoff_initial_ms);
  for (int i = 0; i <= opts_.max_retries; ++i) {
    if (i > 0) {
      std::this_thread::sleep_for(std::chrono::milliseconds(backoff_ms));
      backoff_ms = std::min(backoff_ms * 2, std::max(1, opts_.retry_backoff_max_ms));
    }
    Status retry;
    Result<T> r = attempt(&retry);
    if (retry.ok()) return r;
    VLOG(1) << what << ": retrying: " << retry.ToString();
    last = std::move(retry);
  }
  return Status(ErrorCode::kRecoverableError, what + ": gave up after " +
                                                  std::to_string(opts_.max_retries) +
                                                  " retries; last: " + last.message());
}

Result<OnDemandCatalog::Response> OnDemandCatalog::Call(const Request& req, Status* retry,
                                                        PartitionNames* partition_names) {
  {
    MutexLock l(&mu_);
    ++fetches_;
  }
  Result<Response> r = catalogd_->GetPartialCatalogObject(req, partition_names);
  if (!r.ok()) {
    if (r.status().Is(ErrorCode::kNetworkError)) *retry = r.status();
    return r.status();
  }
  Response& resp = *r;
  if (resp.__isset.catalog_service_id) {
    MutexLock l(&mu_);
    if (ObserveServiceIdLocked(resp.catalog_service_id)) {
      catalog_version_ = 0;
      version_cv_.Broadcast();
      *retry = Retry("catalogd answered with another catalog service id");
      return *retry;
    }
  }
  if (resp.__isset.lookup_status &&
      resp.lookup_status == CatalogLookupStatus::CATALOG_SERVICE_CHANGED) {
    {
      MutexLock l(&mu_);
      ClearCacheLocked("catalogd reported CATALOG_SERVICE_CHANGED");
    }
    *retry = Retry("CATALOG_SERVICE_CHANGED");
    return *retry;
  }
  if (resp.__isset.status && resp.status.status_code != impala::TErrorCode::OK) {
    return FromTStatus(resp.status);
  }
  return r;
}

Status OnDemandCatalog::NotFoundAfterInvalidate(const std::string& db, const std::string& tbl,
                                                CatalogLookupStatus::type lookup) {
  MutexLock l(&mu_);
  if (lookup == CatalogLookupStatus::DB_NOT_FOUND) {
    InvalidateDbLocked(db, std::numeric_limits<int64_t>::max(), /*deleted=*/true);
    return Status::NotFound("database " + db + " does not exist");
  }
  InvalidateTableLocked(db, tbl, std::numeric_limits<int64_t>::max(), /*deleted=*/true);
  return Status::NotFound("table " + db + "." + tbl + " does not exist");
}

// ---------------------------------------------------------------------------
// Databases and functions

Result<std::vector<std::string>> OnDemandCatalog::DatabaseNames() {
  int64_t gen = 0;
  if (auto hit = Lookup<std::vector<std::string>>(DbListKey())) return *hit;
  auto r = Retrying<std::vector<std::string>>(
      "database names", [&](Status* retry) -> Result<std::vector<std::string>> {
        gen = Generation();
        Request req = NewRequest(TCatalogObjectType::CATALOG);
        req.__isset.catalog_info_selector = true;
        req.catalog_info_selector.want_db_names = true;
        ICS_ASSIGN_OR_RETURN(Response resp, Call(req, retry));
        std::vector<std::string> names = resp.catalog_info.db_names;
        std::sort(names.begin(), names.end());
        return names;
      });
  if (r.ok()) Store(DbListKey(), *r, EstimateBytes(*r), 0, gen);
  return r;
}

Result<hive::Database> OnDemandCatalog::GetDatabase(const std::string& db_in) {
  const std::string db = AsciiLower(db_in);
  int64_t gen = 0;
  if (auto hit = Lookup<hive::Database>(DbKey(db))) return *hit;
  int64_t version = 0;
  auto r = Retrying<hive::Database>("database " + db, [&](Status* retry) -> Result<hive::Database> {
    gen = Generation();
    Request req = DbRequest(db);
    req.__isset.db_info_selector = true;
    req.db_info_selector.want_hms_database = true;
    ICS_ASSIGN_OR_RETURN(Response resp, Call(req, retry));
    if (resp.lookup_status == CatalogLookupStatus::DB_NOT_FOUND) {
      return NotFoundAfterInvalidate(db, "", resp.lookup_status);
    }
    version = resp.object_version_number;
    return resp.db_info.hms_database;
  });
  if (r.ok()) Store(DbKey(db), *r, EstimateBytes(*r), version, gen);
  return r;
}

Result<std::vector<std::string>> OnDemandCatalog::TableNames(const std::string& db_in) {
  const std::string db = AsciiLower(db_in);
  int64_t gen = 0;
  if (auto hit = Lookup<std::vector<std::string>>(TableListKey(db))) return *hit;
  auto r = Retrying<std::vector<std::string>>(
      "tables of " + db, [&](Status* retry) -> Result<std::vector<std::string>> {
        gen = Generation();
        Request req = DbRequest(db);
        req.__isset.db_info_selector = true;
        req.db_info_selector.want_brief_meta_of_tables = true;
        ICS_ASSIGN_OR_RETURN(Response resp, Call(req, retry));
        if (resp.lookup_status == CatalogLookupStatus::DB_NOT_FOUND) {
          return NotFoundAfterInvalidate(db, "", resp.lookup_status);
        }
        std::vector<std::string> names;
        for (const auto& m : resp.db_info.brief_meta_of_tables) names.push_back(m.name);
        std::sort(names.begin(), names.end());
        return names;
      });
  if (r.ok()) Store(TableListKey(db), *r, EstimateBytes(*r), 0, gen);
  return r;
}

Result<std::vector<impala::TFunction>> OnDemandCatalog::Functions(const std::string& db_in) {
  using Fns = std::vector<impala::TFunction>;
  const std::string db = AsciiLower(db_in);
  int64_t gen = 0;
  if (auto hit = Lookup<Fns>(FunctionsKey(db))) return *hit;
  auto r = Retrying<Fns>("functions of " + db, [&](Status* retry) -> Result<Fns> {
    gen = Generation();
    Request req = DbRequest(db);
    req.__isset.db_info_selector = true;
    req.db_info_selector.want_function_names = true;
    ICS_ASSIGN_OR_RETURN(Response resp, Call(req, retry));
    if (resp.lookup_status == CatalogLookupStatus::DB_NOT_FOUND) {
      return NotFoundAfterInvalidate(db, "", resp.lookup_status);
    }
    Fns fns;
    for (const std::string& name : resp.db_info.function_names) {
      Request freq = NewRequest(TCatalogObjectType::FUNCTION);
      freq.object_desc.__isset.fn = true;
      freq.object_desc.fn.name.__set_db_name(db);
      freq.object_desc.fn.name.function_name = name;
      ICS_ASSIGN_OR_RETURN(Response fresp, Call(freq, retry));
      if (fresp.lookup_status == CatalogLookupStatus::FUNCTION_NOT_FOUND) continue;  // just dropped
      if (fresp.lookup_status == CatalogLookupStatus::DB_NOT_FOUND) {
        return NotFoundAfterInvalidate(db, "", fresp.lookup_status);
      }
      fns.insert(fns.end(), fresp.functions.begin(), fresp.functions.end());
    }
    return fns;
  });
  if (r.ok()) {
    int64_t bytes = 0;
    for (const auto& f : *r) bytes += EstimateBytes(f);
    Store(FunctionsKey(db), *r, bytes, 0, gen);
  }
  return r;
}

// ---------------------------------------------------------------------------
// Tables and partitions

Result<std::shared_ptr<const LocalTable>> OnDemandCatalog::GetTable(const std::string& db_in,
                                                                    const std::string& tbl_in) {
  const std::string db = AsciiLower(db_in);
  const std::string tbl = AsciiLower(tbl_in);
  int64_t gen = 0;
  if (auto hit = Lookup<std::shared_ptr<const LocalTable>>(TableKey(db, tbl))) return *hit;
  auto r = FetchTable(db, tbl, &gen);
  if (r.ok()) Store(TableKey(db, tbl), *r, EstimateBytes(**r), (*r)->version, gen);
  return r;
}

Result<std::shared_ptr<const LocalTable>> OnDemandCatalog::FetchTable(const std::string& db,
                                                                      const std::string& tbl,
                                                                      int64_t* gen) {
  using TablePtr = std::shared_ptr<const LocalTable>;
  return Retrying<TablePtr>("table " + db + "." + tbl, [&](Status* retry) -> Result<TablePtr> {
    *gen = Generation();
    Request req = TableRequest(db, tbl);
    req.__isset.table_info_selector = true;
    impala::TTableInfoSelector& sel = req.table_info_selector;
    sel.want_hms_table = true;
    sel.want_partition_names = true;
    sel.__set_want_stats_for_all_columns(true);
    // Only ids and names: read as they arrive (partition_name_stream.h).
    PartitionNames names;
    ICS_ASSIGN_OR_RETURN(Response resp, Call(req, retry, &names));
    switch (resp.lookup_status) {
      case CatalogLookupStatus::OK:
        break;
      case CatalogLookupStatus::DB_NOT_FOUND:
      case CatalogLookupStatus::TABLE_NOT_FOUND:
        return NotFoundAfterInvalidate(db, tbl, resp.lookup_status);
      case CatalogLookupStatus::TABLE_NOT_LOADED:
        *retry = Retry("table " + db + "." + tbl + " is not loaded yet");
        return *retry;
      default:
        return Status::General("catalogd answered " + LookupName(resp.lookup_status) +
                               " for table " + db + "." + tbl);
    }
    const impala::TPartialTableInfo& info = resp.table_info;
    auto t = std::make_shared<LocalTable>();
    t->db = db;
    t->name = tbl;
    t->version = resp.object_version_number;
    t->hms = info.hms_table;
    t->is_view = IsView(info.hms_table);
    ICS_RETURN_IF_ERROR(
        ColumnsFromHms(info.hms_table, t.get()).WithContext("table " + db + "." + tbl));
    t->partition_names = PartitionList(t->clustering_columns, std::move(names));
    for (const auto& cs : info.column_stats) t->column_stats.emplace(cs.colName, cs);
    t->num_rows = NumRowsOf(info.hms_table.parameters);
    return TablePtr(std::move(t));
  });
}

Result<std::vector<std::shared_ptr<const LocalPartition>>> OnDemandCatalog::GetPartitions(
    const LocalTable& table, const std::vector<int64_t>& ids, bool want_files, bool want_stats) {
  const std::string db = AsciiLower(table.db);
  const std::string tbl = AsciiLower(table.name);
  std::vector<int64_t> wanted = ids;
  if (wanted.empty()) {
    for (const auto& [id, name] : table.partition_names) wanted.push_back(id);
  }
  for (int64_t id : wanted) {
    if (table.partition_names.count(id) == 0) {
      return Status::NotFound("partition id " + std::to_string(id) + " is not a partition of " +
                              db + "." + tbl);
    }
  }
  std::map<int64_t, std::shared_ptr<const LocalPartition>> found;
  std::vector<int64_t> missing;
  bool fetch_files = want_files;
  bool fetch_stats = want_stats;
  {
    MutexLock l(&mu_);
    const auto now = Now();
    for (int64_t id : std::set<int64_t>(wanted.begin(), wanted.end())) {
      const CacheValue* v = cache_.Get(PartitionKey(db, tbl, id), now);
      const PartitionSlot* slot = v == nullptr ? nullptr : std::get_if<PartitionSlot>(v);
      if (slot != nullptr && (!want_files || slot->has_files) && (!want_stats || slot->has_stats)) {
        ++hits_;
        found.emplace(id, slot->part);
        continue;
      }
      ++misses_;
      missing.push_back(id);
      if (slot != nullptr) {  // keep what the cached copy already had
        fetch_files |= slot->has_files;
        fetch_stats |= slot->has_stats;
      }
    }
  }
  if (!missing.empty()) {
    ICS_RETURN_IF_ERROR(
        FetchPartitions(table, std::move(missing), fetch_files, fetch_stats, &found));
  }
  std::vector<std::shared_ptr<const LocalPartition>> out;
  out.reserve(wanted.size());
  for (int64_t id : wanted) out.push_back(found.at(id));
  return out;
}

Status OnDemandCatalog::FetchPartitions(
    const LocalTable& table, std::vector<int64_t> ids, bool files, bool stats,
    std::map<int64_t, std::shared_ptr<const LocalPartition>>* out) {
  const std::string db = AsciiLower(table.db);
  const std::string tbl = AsciiLower(table.name);
  const std::string what = "partitions of " + db + "." + tbl;
  int64_t expected_version = table.version;
  PartitionList names = table.partition_names;
  std::set<int64_t> remaining(ids.begin(), ids.end());

  // The table changed under the caller: refetch it; the request stands if
  // the new version still has every id still to fetch (partition ids are
  // never reused, so their contents are the same).
  auto revalidate = [&](const std::string& why, Status* retry) -> Status {
    {
      MutexLock l(&mu_);
      const std::string scope = TableScope(db, tbl);
      // catalogd has moved past the caller's version: no fetch in flight
      // of that version or an older one may be cached.
      BumpGenerationLocked(scope, expected_version + 1);
      EraseLocked(TableKey(db, tbl));
    }
    Result<std::shared_ptr<const LocalTable>> t = GetTable(db, tbl);
    if (!t.ok()) return t.status();
    for (int64_t id : remaining) {
      if ((*t)->partition_names.count(id) == 0) {
        return Status(ErrorCode::kRecoverableError,
                      "table " + db + "." + tbl + " changed (version " +
                          std::to_string(table.version) + " -> " + std::to_string((*t)->version) +
                          "): partition id " + std::to_string(id) + " no longer exists");
      }
    }
    expected_version = (*t)->version;
    names = (*t)->partition_names;
    *retry = Retry(why);
    return *retry;
  };

  auto r = Retrying<bool>(what, [&](Status* retry) -> Result<bool> {
    while (!remaining.empty()) {
      Request req = TableRequest(db, tbl);
      req.__isset.table_info_selector = true;
      impala::TTableInfoSelector& sel = req.table_info_selector;
      sel.__set_partition_ids(std::vector<int64_t>(remaining.begin(), remaining.end()));
      sel.want_partition_metadata = true;
      sel.want_partition_files = files;
      sel.want_partition_stats = stats;
      int64_t gen = 0;
      {
        MutexLock l(&mu_);
        gen = generation_;
      }
      ICS_ASSIGN_OR_RETURN(Response resp, Call(req, retry));
      switch (resp.lookup_status) {
        case CatalogLookupStatus::OK:
          break;
        case CatalogLookupStatus::DB_NOT_FOUND:
        case CatalogLookupStatus::TABLE_NOT_FOUND:
          return NotFoundAfterInvalidate(db, tbl, resp.lookup_status);
        case CatalogLookupStatus::TABLE_NOT_LOADED:
          *retry = Retry("table " + db + "." + tbl + " is not loaded yet");
          return *retry;
        case CatalogLookupStatus::PARTITION_NOT_FOUND:
          return revalidate("PARTITION_NOT_FOUND", retry);
        default:
          return Status::General("catalogd answered " + LookupName(resp.lookup_status) + " for " +
                                 what);
      }
      if (resp.object_version_number != expected_version) {
        return revalidate("VERSION_MISMATCH: cached version " + std::to_string(expected_version) +
                              ", catalogd has " + std::to_string(resp.object_version_number),
                          retry);
      }
      const impala::TPartialTableInfo& info = resp.table_info;
      size_t progress = 0;
      for (const impala::TPartialPartitionInfo& pp : info.partitions) {
        if (remaining.erase(pp.id) == 0) continue;  // not asked for (or a duplicate)
        ++progress;
        const std::string* listed = names.Name(pp.id);
        const std::string& name = listed != nullptr ? *listed : pp.name;
        auto part = std::make_shared<const LocalPartition>(
            PartitionFromPartial(pp, name, info.partition_prefixes, files, stats));
        (*out)[pp.id] = part;
        const int64_t bytes = EstimateBytes(*part);
        Store(PartitionKey(db, tbl, pp.id), PartitionSlot{std::move(part), files, stats}, bytes,
              expected_version, gen);
      }
      if (progress == 0) {
        return Status::Corruption("catalogd returned none of the " +
                                  std::to_string(remaining.size()) + " requested " + what);
      }
      // Fewer than asked: the response was capped; ask again for the rest.
    }
    return true;
  });
  return r.ok() ? Status::OK() : r.status();
}

}  // namespace ics::coord
