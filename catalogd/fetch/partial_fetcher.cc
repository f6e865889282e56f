#include "catalogd/fetch/partial_fetcher.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <set>
#include <utility>

#include "catalogd/catalog/catalog_objects.h"
#include "catalogd/fetch/partial_response_writer.h"
#include "catalogd/fetch/table_fetch.h"
#include "common/hive/table_type.h"
#include "common/rpc/status_convert.h"
#include "common/util/ascii.h"

namespace ics::catalog {

// Large fields are moved in and their __isset flag set by hand: the
// generated __set_x(const T&) would copy them.

namespace {

using impala::CatalogLookupStatus;
using impala::TCatalogObjectType;
using impala::TGetPartialCatalogObjectRequest;
using impala::TGetPartialCatalogObjectResponse;

// Thrift does not validate enums on the wire, so a request may carry any
// i32 in an enum field. Such fields are read as integers: loading an
// out-of-range value through the enum type is undefined behaviour.
template <typename E>
int32_t RawEnum(const E& e) {
  static_assert(sizeof(E) == sizeof(int32_t), "Thrift enums are i32");
  int32_t v;
  std::memcpy(&v, &e, sizeof(v));
  return v;
}

constexpr int32_t Raw(TCatalogObjectType::type t) { return static_cast<int32_t>(t); }

std::string TypeName(int32_t type) {
  auto it = impala::_TCatalogObjectType_VALUES_TO_NAMES.find(type);
  if (it != impala::_TCatalogObjectType_VALUES_TO_NAMES.end()) return it->second;
  return "type " + std::to_string(type);
}

TGetPartialCatalogObjectResponse WithStatus(TGetPartialCatalogObjectResponse resp,
                                            const Status& status) {
  resp.__set_status(ToTStatus(status));
  return resp;
}

TGetPartialCatalogObjectResponse WithLookup(TGetPartialCatalogObjectResponse resp,
                                            CatalogLookupStatus::type lookup) {
  resp.__set_lookup_status(lookup);
  return resp;
}

TGetPartialCatalogObjectResponse Malformed(TGetPartialCatalogObjectResponse resp,
                                           const std::string& what) {
  return WithStatus(std::move(resp),
                    Status::General("malformed GetPartialCatalogObject request: " + what));
}

impala::TBriefTableMeta BriefMeta(const TableState& t) {
  impala::TBriefTableMeta m;
  m.name = t.name;
  const std::string& type = t.hms.tableType;
  if (!t.loaded && type.empty()) return m;  // nothing known beyond the name
  if (!type.empty()) m.__set_msType(type);
  auto comment = t.hms.parameters.find("comment");
  if (comment != t.hms.parameters.end()) m.__set_comment(comment->second);
  if (t.is_view() || type == kVirtualView) {
    m.__set_tblType(impala::TImpalaTableType::VIEW);
  } else if (type == kMaterializedView) {
    m.__set_tblType(impala::TImpalaTableType::MATERIALIZED_VIEW);
  } else {
    m.__set_tblType(impala::TImpalaTableType::TABLE);
  }
  return m;
}

}  // namespace

// ---------------------------------------------------------------------------
// Concurrency gate

class PartialFetcher::Slot {
 public:
  explicit Slot(PartialFetcher* f) : f_(f) {
    f_->Acquire();
    if (f_->opts_.on_admitted_for_testing) f_->opts_.on_admitted_for_testing();
  }
  ~Slot() { f_->Release(); }
  Slot(const Slot&) = delete;
  Slot& operator=(const Slot&) = delete;

 private:
  PartialFetcher* const f_;
};

PartialFetcher::PartialFetcher(CatalogContext* ctx, PartialFetchOptions options)
    : ctx_(ctx), opts_(std::move(options)) {}

void PartialFetcher::Acquire() {
  MutexLock l(&mu_);
  const int limit = opts_.max_concurrent_fetches;
  if (limit > 0 && in_flight_ >= limit) {
    ++waiting_;
    while (in_flight_ >= limit) cv_.Wait(&mu_);
    --waiting_;
  }
  ++in_flight_;
  peak_in_flight_ = std::max(peak_in_flight_, in_flight_);
}

void PartialFetcher::Release() {
  MutexLock l(&mu_);
  --in_flight_;
  cv_.Signal();  // one slot freed: one waiter can proceed
}

int PartialFetcher::in_flight() const {
  MutexLock l(&mu_);
  return in_flight_;
}

int PartialFetcher::waiting() const {
  MutexLock l(&mu_);
  return waiting_;
}

int PartialFetcher::peak_in_flight() const {
  MutexLock l(&mu_);
  return peak_in_flight_;
}

// ---------------------------------------------------------------------------
// Lookups

PartialFetcher::TableLookup PartialFetcher::LookupLoadedTable(const std::string& db,
                                                              const std::string& table) {
  TableLookup out;
  Catalog* catalog = ctx_->catalog;
  if (catalog->GetDatabase(db) == nullptr) {
    out.lookup = CatalogLookupStatus::DB_NOT_FOUND;
    return out;
  }
  TablePtr t = catalog->GetTable(db, table);
  if (t == nullptr) {
    out.lookup = CatalogLookupStatus::TABLE_NOT_FOUND;
    return out;
  }
  if (!t->loaded) {
    if (ctx_->loads == nullptr) {
      out.lookup = CatalogLookupStatus::TABLE_NOT_LOADED;
      if (!t->load_status.ok()) {
        out.error = t->load_status.WithContext("loading " + db + "." + table);
      }
      return out;
    }
    Result<TablePtr> loaded = ctx_->loads->GetLoaded(db, table);
    if (!loaded.ok()) {
      // Dropped while we were loading it, or a real load failure?
      if (catalog->GetDatabase(db) == nullptr) {
        out.lookup = CatalogLookupStatus::DB_NOT_FOUND;
      } else if (catalog->GetTable(db, table) == nullptr) {
        out.lookup = CatalogLookupStatus::TABLE_NOT_FOUND;
      } else {
        out.lookup = CatalogLookupStatus::TABLE_NOT_LOADED;
        out.error = loaded.status();
      }
      return out;
    }
    t = std::move(loaded).value();
    if (t == nullptr || !t->loaded) {
      out.lookup = CatalogLookupStatus::TABLE_NOT_LOADED;
      return out;
    }
  }
  out.table = std::move(t);
  return out;
}

Result<TablePtr> PartialFetcher::LoadedTableOrStatus(const std::string& db,
                                                     const std::string& table) {
  TableLookup l = LookupLoadedTable(db, table);
  switch (l.lookup) {
    case CatalogLookupStatus::OK:
      return std::move(l.table);
    case CatalogLookupStatus::DB_NOT_FOUND:
      return Status::NotFound("database " + db + " does not exist");
    case CatalogLookupStatus::TABLE_NOT_FOUND:
      return Status::NotFound("table " + db + "." + table + " does not exist");
    default:
      if (!l.error.ok()) return l.error;
      return Status::General("table " + db + "." + table + " is not loaded");
  }
}

// ---------------------------------------------------------------------------
// GetPartialCatalogObject

TGetPartialCatalogObjectResponse PartialFetcher::NewResponse() const {
  TGetPartialCatalogObjectResponse resp;
  resp.__set_status(ToTStatus(Status::OK()));
  resp.__set_lookup_status(CatalogLookupStatus::OK);
  resp.__set_catalog_service_id(ctx_->catalog->service_id());
  return resp;
}

TGetPartialCatalogObjectResponse PartialFetcher::GetPartialCatalogObject(
    const TGetPartialCatalogObjectRequest& req) {
  Slot slot(this);
  PartialFetchAnswer answer;
  answer.resp = FetchAdmitted(req, &answer);
  if (!answer.deferred) return std::move(answer.resp);
  // The partitions as the answer's writer renders them (the one place that
  // does), decoded.
  return MaterializeAnswer(answer.resp,
                           DeferredPartitions{&answer.partitions, &req.table_info_selector});
}

PartialFetchAnswer PartialFetcher::GetPartialCatalogObjectDeferred(
    const TGetPartialCatalogObjectRequest& req) {
  Slot slot(this);
  PartialFetchAnswer answer;
  answer.resp = FetchAdmitted(req, &answer);
  return answer;
}

TGetPartialCatalogObjectResponse PartialFetcher::FetchAdmitted(
    const TGetPartialCatalogObjectRequest& req, PartialFetchAnswer* deferred) {
  const int32_t type = RawEnum(req.object_desc.type);
  switch (type) {
    case Raw(TCatalogObjectType::CATALOG):
      return FetchCatalog(req);
    case Raw(TCatalogObjectType::DATABASE):
      return FetchDatabase(req);
    case Raw(TCatalogObjectType::TABLE):
    case Raw(TCatalogObjectType::VIEW):
      return FetchTable(req, deferred);
    case Raw(TCatalogObjectType::FUNCTION):
      return FetchFunction(req);
    default:
      return WithStatus(NewResponse(),
                        Status::NotImplemented("GetPartialCatalogObject does not support " +
                                               TypeName(type) + " objects"));
  }
}

TGetPartialCatalogObjectResponse PartialFetcher::FetchCatalog(
    const TGetPartialCatalogObjectRequest& req) {
  TGetPartialCatalogObjectResponse resp = NewResponse();
  if (!req.__isset.catalog_info_selector) {
    return Malformed(std::move(resp), "CATALOG request without catalog_info_selector");
  }
  resp.__set_object_version_number(ctx_->catalog->version());
  impala::TPartialCatalogInfo info;
  if (req.catalog_info_selector.want_db_names) info.db_names = ctx_->catalog->DatabaseNames();
  resp.catalog_info = std::move(info);
  resp.__isset.catalog_info = true;
  return resp;
}

TGetPartialCatalogObjectResponse PartialFetcher::FetchDatabase(
    const TGetPartialCatalogObjectRequest& req) {
  TGetPartialCatalogObjectResponse resp = NewResponse();
  if (!req.__isset.db_info_selector) {
    return Malformed(std::move(resp), "DATABASE request without db_info_selector");
  }
  const impala::TDbInfoSelector& sel = req.db_info_selector;
  const std::string name = AsciiLower(req.object_desc.db.db_name);
  DatabasePtr db = ctx_->catalog->GetDatabase(name);
  if (db == nullptr) return WithLookup(std::move(resp), CatalogLookupStatus::DB_NOT_FOUND);

  resp.__set_object_version_number(db->version);
  impala::TPartialDbInfo info;
  if (sel.want_hms_database) info.__set_hms_database(db->hms);
  if (sel.want_brief_meta_of_tables) {
    std::vector<impala::TBriefTableMeta> metas;
    for (const TablePtr& t : ctx_->catalog->TablesOf(name)) {
      if (t != nullptr) metas.push_back(BriefMeta(*t));
    }
    info.brief_meta_of_tables = std::move(metas);
    info.__isset.brief_meta_of_tables = true;
  }
  if (sel.want_function_names) {
    std::set<std::string> names;
    for (const FunctionPtr& f : ctx_->catalog->FunctionsOf(name)) {
      if (f != nullptr) names.insert(f->fn.name.function_name);
    }
    info.__set_function_names(std::vector<std::string>(names.begin(), names.end()));
  }
  resp.db_info = std::move(info);
  resp.__isset.db_info = true;
  return resp;
}

TGetPartialCatalogObjectResponse PartialFetcher::FetchTable(
    const TGetPartialCatalogObjectRequest& req, PartialFetchAnswer* deferred) {
  TGetPartialCatalogObjectResponse resp = NewResponse();
  if (!req.__isset.table_info_selector) {
    return Malformed(std::move(resp), "TABLE request without table_info_selector");
  }
  const std::string db = AsciiLower(req.object_desc.table.db_name);
  const std::string name = AsciiLower(req.object_desc.table.tbl_name);
  TableLookup lookup = LookupLoadedTable(db, name);
  if (lookup.lookup != CatalogLookupStatus::OK) {
    resp = WithLookup(std::move(resp), lookup.lookup);
    // The load error already names the table (TableLoadManager adds it).
    if (!lookup.error.ok()) resp = WithStatus(std::move(resp), lookup.error);
    return resp;
  }
  const TableState& t = *lookup.table;
  TableFetchResult r =
      BuildPartialTableInfo(t, req.table_info_selector, opts_.max_file_descs_per_response);
  if (r.lookup_status != CatalogLookupStatus::OK) {
    return WithLookup(std::move(resp), r.lookup_status);
  }
  if (r.has_partitions) {
    deferred->deferred = true;
    deferred->table = lookup.table;
    deferred->partitions = std::move(r.selected);
  }
  resp.__set_object_version_number(t.version);
  resp.__set_object_loaded_time_ms(t.load_time_ms);
  resp.table_info = std::move(r.info);
  resp.__isset.table_info = true;
  return resp;
}

TGetPartialCatalogObjectResponse PartialFetcher::FetchFunction(
    const TGetPartialCatalogObjectRequest& req) {
  TGetPartialCatalogObjectResponse resp = NewResponse();
  const std::string db = AsciiLower(req.object_desc.fn.name.db_name);
  const std::string name = AsciiLower(req.object_desc.fn.name.function_name);
  if (ctx_->catalog->GetDatabase(db) == nullptr) {
    return WithLookup(std::move(resp), CatalogLookupStatus::DB_NOT_FOUND);
  }
  std::vector<impala::TFunction> fns;
  int64_t version = 0;
  for (const FunctionPtr& f : ctx_->catalog->FunctionsOf(db)) {
    if (f == nullptr || AsciiLower(f->fn.name.function_name) != name) continue;
    fns.push_back(f->fn);
    version = std::max(version, f->version);
  }
  if (fns.empty()) return WithLookup(std::move(resp), CatalogLookupStatus::FUNCTION_NOT_FOUND);
  resp.__set_object_version_number(version);
  resp.functions = std::move(fns);
  resp.__isset.functions = true;
  return resp;
}

// ---------------------------------------------------------------------------
// Whole-object reads

Result<impala::TCatalogObject> PartialFetcher::GetCatalogObject(
    const impala::TCatalogObject& desc) {
  Slot slot(this);
  Catalog* catalog = ctx_->catalog;
  const int32_t type = RawEnum(desc.type);
  switch (type) {
    case Raw(TCatalogObjectType::CATALOG):
      return CatalogServiceObject(catalog->service_id(), catalog->version(),
                                  catalog->last_reset_version());
    case Raw(TCatalogObjectType::DATABASE): {
      const std::string name = AsciiLower(desc.db.db_name);
      DatabasePtr db = catalog->GetDatabase(name);
      if (db == nullptr) return Status::NotFound("database " + name + " does not exist");
      return DatabaseObject(*db);
    }
    case Raw(TCatalogObjectType::TABLE):
    case Raw(TCatalogObjectType::VIEW): {
      ICS_ASSIGN_OR_RETURN(TablePtr t, LoadedTableOrStatus(AsciiLower(desc.table.db_name),
                                                           AsciiLower(desc.table.tbl_name)));
      return TableObjectFull(*t);
    }
    case Raw(TCatalogObjectType::HDFS_PARTITION): {
      const auto& hp = desc.hdfs_partition;
      ICS_ASSIGN_OR_RETURN(TablePtr t,
                           LoadedTableOrStatus(AsciiLower(hp.db_name), AsciiLower(hp.tbl_name)));
      const PartitionState* p = t->partitions_by_name.Find(hp.partition_name);
      if (p == nullptr) {
        return Status::NotFound("partition " + hp.partition_name + " of " + t->db + "." + t->name +
                                " does not exist");
      }
      return PartitionObject(*t, *p);
    }
    case Raw(TCatalogObjectType::FUNCTION): {
      const std::string db = AsciiLower(desc.fn.name.db_name);
      if (catalog->GetDatabase(db) == nullptr) {
        return Status::NotFound("database " + db + " does not exist");
      }
      if (desc.fn.__isset.signature && !desc.fn.signature.empty()) {
        FunctionPtr f = catalog->GetFunction(db, desc.fn.signature);
        if (f == nullptr) {
          return Status::NotFound("function " + db + "." + desc.fn.signature + " does not exist");
        }
        return FunctionObject(*f);
      }
      const std::string name = AsciiLower(desc.fn.name.function_name);
      FunctionPtr match;
      int matches = 0;
      for (const FunctionPtr& f : catalog->FunctionsOf(db)) {
        if (f != nullptr && AsciiLower(f->fn.name.function_name) == name) {
          match = f;
          ++matches;
        }
      }
      if (matches == 0) return Status::NotFound("function " + db + "." + name + " does not exist");
      if (matches > 1) {
        return Status::InvalidArgument("function " + db + "." + name + " has " +
                                       std::to_string(matches) + " overloads; give its signature");
      }
      return FunctionObject(*match);
    }
    default:
      return Status::NotImplemented("GetCatalogObject does not support " + TypeName(type) +
                                    " objects");
  }
}

Result<std::map<std::string, std::string>> PartialFetcher::GetPartitionStats(
    const impala::TTableName& table) {
  Slot slot(this);
  ICS_ASSIGN_OR_RETURN(
      TablePtr t, LoadedTableOrStatus(AsciiLower(table.db_name), AsciiLower(table.table_name)));
  std::map<std::string, std::string> out;
  for (const auto& [id, p] : t->partitions) {
    if (p != nullptr && !p->partition_stats().empty()) out.emplace(std::string(p->name()), p->partition_stats());
  }
  return out;
}

Result<std::vector<impala::TFunction>> PartialFetcher::GetFunctions(const std::string& db_name) {
  Slot slot(this);
  if (db_name.empty()) return Status::InvalidArgument("GetFunctions needs a database name");
  const std::string db = AsciiLower(db_name);
  if (ctx_->catalog->GetDatabase(db) == nullptr) {
    return Status::NotFound("database " + db + " does not exist");
  }
  std::vector<impala::TFunction> out;
  for (const FunctionPtr& f : ctx_->catalog->FunctionsOf(db)) {
    if (f != nullptr) out.push_back(f->fn);
  }
  return out;
}

}  // namespace ics::catalog
