#include "tests/localcatalog/fake_catalog_service.h"

#include <algorithm>
#include <set>

#include "common/codec/file_desc.h"

namespace ics::lctest {

using impala::CatalogLookupStatus;
using impala::TCatalogObjectType;

FakeTable MakeFakeTable(const std::string& db, const std::string& name, int64_t version,
                        const std::vector<int64_t>& partition_ids, int files_per_partition) {
  FakeTable t;
  t.version = version;
  t.hms.dbName = db;
  t.hms.tableName = name;
  t.hms.tableType = "MANAGED_TABLE";
  t.hms.sd.location = "/warehouse/" + db + ".db/" + name;
  hive::FieldSchema a, b;
  a.name = "a";
  a.type = "int";
  b.name = "b";
  b.type = "string";
  t.hms.sd.cols = {a, b};
  t.hms.parameters["numRows"] = "42";
  if (!partition_ids.empty()) {
    hive::FieldSchema y;
    y.name = "year";
    y.type = "int";
    t.hms.partitionKeys = {y};
  }
  for (int64_t id : partition_ids) {
    FakePartition p;
    p.id = id;
    p.name = "year=" + std::to_string(id);
    p.location = t.hms.sd.location + "/" + p.name;
    for (int f = 0; f < files_per_partition; ++f) {
      FileDescInfo info;
      info.relative_path = "part-" + std::to_string(f) + ".txt";
      info.length = 100 + f;
      info.mtime_ms = 1000;
      p.file_descs.push_back(BuildFileDesc(info));
    }
    p.params["numRows"] = std::to_string(id * 10);
    p.partition_stats = "stats-" + std::to_string(id);
    t.partitions.push_back(std::move(p));
  }
  hive::ColumnStatisticsObj cs;
  cs.colName = "a";
  cs.colType = "int";
  t.column_stats.push_back(cs);
  return t;
}

FakeCatalogService::FakeCatalogService() {
  service_id_.hi = 1;
  service_id_.lo = 1;
}

void FakeCatalogService::GetPartialCatalogObject(
    impala::TGetPartialCatalogObjectResponse& resp,
    const impala::TGetPartialCatalogObjectRequest& req) {
  std::function<void()> during;
  {
    MutexLock l(&mu_);
    during.swap(during_next_);
  }
  if (during) during();
  MutexLock l(&mu_);
  requests_.push_back(req);
  resp.__set_status(impala::TStatus());
  resp.status.status_code = impala::TErrorCode::OK;
  resp.__set_lookup_status(CatalogLookupStatus::OK);
  if (!scripted_ids_.empty()) {
    resp.__set_catalog_service_id(scripted_ids_.front());
    scripted_ids_.pop_front();
  } else {
    resp.__set_catalog_service_id(service_id_);
  }
  if (!scripted_.empty()) {
    resp.__set_lookup_status(scripted_.front());
    scripted_.pop_front();
    return;
  }
  switch (req.object_desc.type) {
    case TCatalogObjectType::CATALOG: {
      resp.__isset.catalog_info = true;
      for (const auto& [name, v] : dbs_) resp.catalog_info.db_names.push_back(name);
      return;
    }
    case TCatalogObjectType::DATABASE: {
      const std::string& db = req.object_desc.db.db_name;
      auto it = dbs_.find(db);
      if (it == dbs_.end()) {
        resp.__set_lookup_status(CatalogLookupStatus::DB_NOT_FOUND);
        return;
      }
      resp.__set_object_version_number(it->second);
      resp.__isset.db_info = true;
      if (req.db_info_selector.want_hms_database) {
        hive::Database d;
        d.name = db;
        d.locationUri = "/warehouse/" + db + ".db";
        resp.db_info.__set_hms_database(d);
      }
      if (req.db_info_selector.want_brief_meta_of_tables) {
        resp.db_info.__isset.brief_meta_of_tables = true;
        for (const auto& [key, t] : tables_) {
          if (key.first != db) continue;
          impala::TBriefTableMeta m;
          m.name = key.second;
          resp.db_info.brief_meta_of_tables.push_back(m);
        }
      }
      if (req.db_info_selector.want_function_names) {
        std::set<std::string> names;
        for (const auto& fn : functions_[db]) names.insert(fn.name.function_name);
        resp.db_info.__set_function_names(std::vector<std::string>(names.begin(), names.end()));
      }
      return;
    }
    case TCatalogObjectType::TABLE:
    case TCatalogObjectType::VIEW:
      AnswerTable(resp, req);
      return;
    case TCatalogObjectType::FUNCTION: {
      const std::string& db = req.object_desc.fn.name.db_name;
      if (dbs_.count(db) == 0) {
        resp.__set_lookup_status(CatalogLookupStatus::DB_NOT_FOUND);
        return;
      }
      std::vector<impala::TFunction> fns;
      for (const auto& fn : functions_[db]) {
        if (fn.name.function_name == req.object_desc.fn.name.function_name) fns.push_back(fn);
      }
      if (fns.empty()) {
        resp.__set_lookup_status(CatalogLookupStatus::FUNCTION_NOT_FOUND);
        return;
      }
      resp.__set_functions(fns);
      return;
    }
    default:
      resp.status.status_code = impala::TErrorCode::NOT_IMPLEMENTED_ERROR;
      resp.status.__set_error_msgs({"unsupported object type"});
  }
}

void FakeCatalogService::AnswerTable(impala::TGetPartialCatalogObjectResponse& resp,
                                     const impala::TGetPartialCatalogObjectRequest& req) {
  const std::string& db = req.object_desc.table.db_name;
  const std::string& tbl = req.object_desc.table.tbl_name;
  if (dbs_.count(db) == 0) {
    resp.__set_lookup_status(CatalogLookupStatus::DB_NOT_FOUND);
    return;
  }
  auto it = tables_.find(Key(db, tbl));
  if (it == tables_.end()) {
    resp.__set_lookup_status(CatalogLookupStatus::TABLE_NOT_FOUND);
    return;
  }
  const FakeTable& t = it->second;
  if (!t.load_error.empty()) {
    resp.__set_lookup_status(CatalogLookupStatus::TABLE_NOT_LOADED);
    resp.status.status_code = impala::TErrorCode::GENERAL;
    resp.status.__set_error_msgs({t.load_error});
    return;
  }
  const impala::TTableInfoSelector& sel = req.table_info_selector;
  impala::TPartialTableInfo info;
  if (sel.want_hms_table) info.__set_hms_table(t.hms);
  if (sel.__isset.want_stats_for_all_columns && sel.want_stats_for_all_columns) {
    info.__set_column_stats(t.column_stats);
  }
  const bool any = sel.want_partition_names || sel.want_partition_metadata ||
                   sel.want_partition_files || sel.want_partition_stats;
  std::vector<const FakePartition*> selected;
  if (sel.__isset.partition_ids) {
    for (int64_t id : sel.partition_ids) {
      auto p = std::find_if(t.partitions.begin(), t.partitions.end(),
                            [&](const FakePartition& fp) { return fp.id == id; });
      if (p == t.partitions.end()) {
        resp.__set_lookup_status(CatalogLookupStatus::PARTITION_NOT_FOUND);
        return;
      }
      selected.push_back(&*p);
    }
  } else if (any) {
    for (const auto& p : t.partitions) selected.push_back(&p);
  }
  // Like catalogd, only answers with file descriptors are capped.
  if (sel.want_partition_files && max_partitions_ > 0 &&
      selected.size() > static_cast<size_t>(max_partitions_)) {
    selected.resize(static_cast<size_t>(max_partitions_));
  }
  if (sel.__isset.partition_ids || any) {
    info.__isset.partitions = true;
    for (const FakePartition* p : selected) {
      impala::TPartialPartitionInfo pp;
      pp.id = p->id;
      if (sel.want_partition_names) pp.__set_name(p->name);
      if (sel.want_partition_metadata) {
        pp.__set_hms_parameters(p->params);
        impala::THdfsPartitionLocation loc;
        loc.prefix_index = -1;
        loc.suffix = p->location;
        pp.__set_location(loc);
        pp.__set_has_incremental_stats(!p->partition_stats.empty());
      }
      if (sel.want_partition_files) {
        std::vector<impala::THdfsFileDesc> fds;
        for (const auto& f : p->file_descs) {
          impala::THdfsFileDesc d;
          d.file_desc_data = f;
          fds.push_back(d);
        }
        pp.__set_file_descriptors(fds);
      }
      if (sel.want_partition_stats && !p->partition_stats.empty()) {
        pp.__set_partition_stats(p->partition_stats);
      }
      info.partitions.push_back(std::move(pp));
    }
  }
  resp.__set_object_version_number(t.version);
  resp.__set_table_info(info);
}

void FakeCatalogService::SetServiceId(const impala::TUniqueId& id) {
  MutexLock l(&mu_);
  service_id_ = id;
}

impala::TUniqueId FakeCatalogService::service_id() const {
  MutexLock l(&mu_);
  return service_id_;
}

void FakeCatalogService::AddDatabase(const std::string& db, int64_t version) {
  MutexLock l(&mu_);
  dbs_[db] = version;
}

void FakeCatalogService::DropDatabase(const std::string& db) {
  MutexLock l(&mu_);
  dbs_.erase(db);
}

void FakeCatalogService::PutTable(FakeTable t) {
  MutexLock l(&mu_);
  Key key(t.hms.dbName, t.hms.tableName);
  tables_[key] = std::move(t);
}

void FakeCatalogService::DropTable(const std::string& db, const std::string& tbl) {
  MutexLock l(&mu_);
  tables_.erase(Key(db, tbl));
}

void FakeCatalogService::SetTableVersion(const std::string& db, const std::string& tbl,
                                         int64_t version) {
  MutexLock l(&mu_);
  tables_[Key(db, tbl)].version = version;
}

void FakeCatalogService::AddFunction(const std::string& db, const impala::TFunction& fn) {
  MutexLock l(&mu_);
  functions_[db].push_back(fn);
}

void FakeCatalogService::ScriptLookup(CatalogLookupStatus::type status, int times) {
  MutexLock l(&mu_);
  for (int i = 0; i < times; ++i) scripted_.push_back(status);
}

void FakeCatalogService::ScriptServiceId(const impala::TUniqueId& id, int times) {
  MutexLock l(&mu_);
  for (int i = 0; i < times; ++i) scripted_ids_.push_back(id);
}

void FakeCatalogService::SetMaxPartitionsPerResponse(int n) {
  MutexLock l(&mu_);
  max_partitions_ = n;
}

int FakeCatalogService::calls() const {
  MutexLock l(&mu_);
  return static_cast<int>(requests_.size());
}

std::vector<impala::TGetPartialCatalogObjectRequest> FakeCatalogService::requests() const {
  MutexLock l(&mu_);
  return requests_;
}

void FakeCatalogService::ClearRequests() {
  MutexLock l(&mu_);
  requests_.clear();
}

FakeCatalogServer::FakeCatalogServer() : service_(std::make_shared<FakeCatalogService>()) {}

FakeCatalogServer::~FakeCatalogServer() {
  if (server_) server_->Stop();
}

Status FakeCatalogServer::Start() {
  ThriftServerOptions opts;
  opts.name = "fake-catalogd";
  opts.bind_host = "127.0.0.1";
  opts.port = 0;
  server_ = std::make_unique<ThriftServer>(
      std::make_shared<impala::CatalogServiceProcessor>(service_), opts);
  return server_->Start();
}

int FakeCatalogServer::port() const { return server_ ? server_->port() : 0; }

void FakeCatalogService::DuringNextRequest(std::function<void()> fn) {
  MutexLock l(&mu_);
  during_next_ = std::move(fn);
}

}  // namespace ics::lctest
