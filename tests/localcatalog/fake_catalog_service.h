// A fake catalogd for the on-demand local catalog tests: a CatalogService
// that answers GetPartialCatalogObject from a small in-memory model the test
// edits, with scripted lookup statuses and a partition cap, and that records
// every request it receives. Served on 127.0.0.1, port 0.
//
// Model semantics follow catalogd (catalogd/fetch/partial_fetcher.h):
// catalog_service_id is always set; partition_ids unset + want_partition_*
// => all partitions; listed ids in request order, any unknown id =>
// PARTITION_NOT_FOUND; object_version_number = the object's version; a cap
// of N partitions per answer with files returns a prefix of the selection.
//
// Thread-safety: thread-safe (RPC threads and the test thread).
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "CatalogService.h"
#include "common/rpc/thrift_server.h"
#include "common/util/mutex.h"

namespace ics::lctest {

struct FakePartition {
  int64_t id = 0;
  std::string name;  // "k=v"; "" for an unpartitioned table
  std::string location;
  std::vector<std::string> file_descs;  // FbFileDesc buffers
  std::string partition_stats;          // compressed bytes; empty = none
  std::map<std::string, std::string> params;
};

struct FakeTable {
  int64_t version = 1;
  hive::Table hms;                        // dbName/tableName name the table
  std::vector<FakePartition> partitions;  // ascending id
  std::vector<hive::ColumnStatisticsObj> column_stats;
  std::string load_error;  // non-empty: TABLE_NOT_LOADED with this error status
};

// A table "db.name" with columns (a int, b string), partitioned by
// year int when `partitions` is non-empty (names "year=<id>").
FakeTable MakeFakeTable(const std::string& db, const std::string& name, int64_t version,
                        const std::vector<int64_t>& partition_ids, int files_per_partition = 1);

class FakeCatalogService : public impala::CatalogServiceNull {
 public:
  FakeCatalogService();

  void GetPartialCatalogObject(impala::TGetPartialCatalogObjectResponse& resp,
                               const impala::TGetPartialCatalogObjectRequest& req) override
      EXCLUDES(mu_);

  // Model edits.
  void SetServiceId(const impala::TUniqueId& id) EXCLUDES(mu_);
  impala::TUniqueId service_id() const EXCLUDES(mu_);
  void AddDatabase(const std::string& db, int64_t version) EXCLUDES(mu_);
  void DropDatabase(const std::string& db) EXCLUDES(mu_);
  void PutTable(FakeTable t) EXCLUDES(mu_);
  void DropTable(const std::string& db, const std::string& tbl) EXCLUDES(mu_);
  void SetTableVersion(const std::string& db, const std::string& tbl, int64_t version)
      EXCLUDES(mu_);
  void AddFunction(const std::string& db, const impala::TFunction& fn) EXCLUDES(mu_);

  // Scripting: the next `times` answers carry `status` as lookup_status
  // (and nothing else but the service id).
  void ScriptLookup(impala::CatalogLookupStatus::type status, int times) EXCLUDES(mu_);
  // The next `times` answers carry this service id instead of the model's.
  void ScriptServiceId(const impala::TUniqueId& id, int times) EXCLUDES(mu_);
  // At most n partitions per answer with files (0 = no cap).
  void SetMaxPartitionsPerResponse(int n) EXCLUDES(mu_);

  // Observation.
  int calls() const EXCLUDES(mu_);
  std::vector<impala::TGetPartialCatalogObjectRequest> requests() const EXCLUDES(mu_);
  void ClearRequests() EXCLUDES(mu_);
  // Runs `fn` (once) while serving the next request, before answering it:
  // something that happens while a fetch is in flight.
  void DuringNextRequest(std::function<void()> fn) EXCLUDES(mu_);

 private:
  using Key = std::pair<std::string, std::string>;
  void AnswerTable(impala::TGetPartialCatalogObjectResponse& resp,
                   const impala::TGetPartialCatalogObjectRequest& req) REQUIRES(mu_);

  mutable Mutex mu_;
  impala::TUniqueId service_id_ GUARDED_BY(mu_);
  std::map<std::string, int64_t> dbs_ GUARDED_BY(mu_);  // name -> version
  std::map<Key, FakeTable> tables_ GUARDED_BY(mu_);
  std::map<std::string, std::vector<impala::TFunction>> functions_ GUARDED_BY(mu_);
  std::deque<impala::CatalogLookupStatus::type> scripted_ GUARDED_BY(mu_);
  std::deque<impala::TUniqueId> scripted_ids_ GUARDED_BY(mu_);
  int max_partitions_ GUARDED_BY(mu_) = 0;
  std::vector<impala::TGetPartialCatalogObjectRequest> requests_ GUARDED_BY(mu_);
  std::function<void()> during_next_ GUARDED_BY(mu_);
};

// The fake served over Thrift.
class FakeCatalogServer {
 public:
  FakeCatalogServer();
  ~FakeCatalogServer();
  [[nodiscard]] Status Start();
  int port() const;
  FakeCatalogService* service() { return service_.get(); }

 private:
  std::shared_ptr<FakeCatalogService> service_;
  std::unique_ptr<ThriftServer> server_;
};

}  // namespace ics::lctest
