// CoordinatorService (the coordinator's endpoint the shell talks to) fed raw
// request bytes: every ExecuteStatement runs the SQL front end and the
// statement executor for the session the request carries.
//
// Processor: the REAL one (MakeCoordinatorServiceProcessor) over the REAL
// StatementExecutor and a REAL full-replica local catalog, filled once per
// epoch from the full catalog topic of an in-process catalogd stack (so
// tables, partitions, files, statistics, a view and a function are the ones
// catalogd publishes). The backend's catalog operations (DDL, UpdateCatalog,
// ResetMetadata) are answered here without calling catalogd and without
// changing the local catalog: catalogd's side of them is fuzzed by
// catalog_service_fuzz, and applying fuzzed LOCATIONs locally would let
// INSERT (which writes data files with plain file I/O) write outside the
// scratch directory. So INSERT and COMPUTE STATS only ever touch the seeded
// tables' directories, and SYNC_DDL never waits.
#include <memory>

#include "CoordinatorService.h"
#include "catalogd/topic/catalog_topic_publisher.h"
#include "coordinator-sim/catalog/local_catalog.h"
#include "coordinator-sim/coordinator_service.h"
#include "coordinator-sim/exec/backend.h"
#include "coordinator-sim/exec/statement_executor.h"
#include "tests/fuzz/fuzz_stacks.h"

namespace ics::fuzz {
namespace {

class LocalOnlyBackend : public coord::CoordinatorBackend {
 public:
  explicit LocalOnlyBackend(std::unique_ptr<coord::LocalCatalog> catalog)
      : catalog_(std::move(catalog)) {}

  coord::LocalCatalog* catalog() override { return catalog_.get(); }
  const std::string& coordinator_id() const override { return id_; }

  Result<impala::TDdlExecResponse> ExecDdl(impala::TDdlExecRequest, bool) override {
    impala::TDdlExecResponse resp;
    resp.result = Answer();
    impala::TResultSet rs;
    impala::TResultRow row;
    impala::TColumnValue v;
    v.__set_string_val("Done (fuzz backend).");
    row.colVals.push_back(v);
    rs.rows.push_back(row);
    resp.__set_result_set(rs);
    return resp;
  }
  Result<impala::TCatalogUpdateResult> UpdateCatalog(impala::TUpdateCatalogRequest,
                                                     bool) override {
    return Answer();
  }
  Result<impala::TCatalogUpdateResult> ResetMetadata(impala::TResetMetadataRequest,
                                                     bool) override {
    return Answer();
  }

 private:
  impala::TCatalogUpdateResult Answer() const {
    impala::TCatalogUpdateResult r;
    r.version = catalog_->catalog_version();
    if (auto id = catalog_->service_id()) r.catalog_service_id = *id;
    r.is_invalidate = false;
    return r;
  }

  std::unique_ptr<coord::LocalCatalog> catalog_;
  const std::string id_ = "fuzz-coordinator";
};

std::unique_ptr<coord::LocalCatalog> CatalogFrom(CatalogdStack& stack) {
  catalog::PublisherOptions po;
  po.mode = catalog::TopicMode::kFull;
  catalog::CatalogTopicPublisher publisher(stack.catalog(), po);
  impala::TTopicDelta topic = publisher.BuildFullTopic();
  topic.topic_name = ics::kCatalogTopic;
  topic.is_delta = false;
  std::unique_ptr<coord::LocalCatalog> local = coord::MakeFullReplicaCatalog();
  std::vector<impala::TTopicDelta> ignored;
  local->OnTopicUpdate(topic, &ignored);
  return local;
}

struct CoordinatorStack {
  CatalogdStack stack{"coordinator_service"};  // owns the data files' directory
  LocalOnlyBackend backend{CatalogFrom(stack)};
  coord::StatementExecutor executor{&backend};
  std::shared_ptr<apache::thrift::TProcessor> processor =
      coord::MakeCoordinatorServiceProcessor(&executor);
};

}  // namespace
}  // namespace ics::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using ics::fuzz::CoordinatorStack;
  static ics::fuzz::Recycled<CoordinatorStack> stacks(
      [] { return std::make_unique<CoordinatorStack>(); });
  ics::fuzz::FeedProcessor(*stacks.Next().processor, data, size);
  return 0;
}
