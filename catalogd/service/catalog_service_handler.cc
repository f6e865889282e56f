#include "catalogd/service/catalog_service_handler.h"

#include <chrono>
#include <functional>

#include "catalogd/catalog/catalog_objects.h"
#include "catalogd/core/catalog_context.h"
#include "catalogd/ddl/ddl_executor.h"
#include "catalogd/events/event_rpc.h"
#include "catalogd/fetch/partial_fetcher.h"
#include "catalogd/ops/command_core.h"
#include "catalogd/service/catalog_service_processor.h"
#include "catalogd/service/catalogd_role.h"
#include "catalogd/service/impala_caller.h"
#include "catalogd/service/impala_commands.h"
#include "catalogd/service/outcome_objects.h"
#include "common/hive/partition_name.h"
#include "common/rpc/status_convert.h"

namespace ics::catalog {

namespace {

using impala::CatalogServiceVersion;

// The one protocol check of every CatalogService call: V2 and newer are
// served (Thrift does not validate enums, so any i32 may arrive).
Status CheckProtocol(CatalogServiceVersion::type v) {
  if (static_cast<int32_t>(v) < static_cast<int32_t>(CatalogServiceVersion::V2)) {
    auto it = impala::_CatalogServiceVersion_VALUES_TO_NAMES.find(static_cast<int>(v));
    const std::string name = it != impala::_CatalogServiceVersion_VALUES_TO_NAMES.end()
                                 ? std::string(it->second)
                                 : std::to_string(static_cast<int32_t>(v));
    return Status(
        ErrorCode::kCatalogIncompatibleProtocol,
        "incompatible CatalogService protocol version " + name + "; catalogd requires V2");
  }
  return Status::OK();
}

// Whether the caller asked for the small form of the result (invalidations
// instead of whole objects): Impala's local-catalog coordinators set it in
// the header of every request (ExecDdl, UpdateCatalog, ResetMetadata).
template <typename Req>
bool WantsMinimal(const Req& req) {
  return req.__isset.header && req.header.__isset.want_minimal_response &&
         req.header.want_minimal_response;
}

class Handler : public impala::CatalogServiceIf {
 public:
  explicit Handler(HandlerDeps d) : d_(d) {}

  // Every call's admission: the protocol check, then (catalogd HA) whether
  // this catalogd is the active one.
  Status Admit(CatalogServiceVersion::type v) const {
    ICS_RETURN_IF_ERROR(CheckProtocol(v));
    return d_.role != nullptr ? d_.role->CheckActive() : Status::OK();
  }

  // Builds the TCatalogUpdateResult of a finished (or failed) operation,
  // waiting for topic publication first when SYNC_DDL is requested.
  impala::TCatalogUpdateResult MakeResult(const Result<DdlOutcome>& r, bool sync_ddl,
                                          bool minimal) {
    impala::TCatalogUpdateResult res;
    res.catalog_service_id = d_.ctx->catalog->service_id();
    res.is_invalidate = false;
    res.version = d_.ctx->catalog->version();
    if (!r.ok()) {
      res.status = ToTStatus(r.status());
      return res;
    }
    const DdlOutcome& o = *r;
    res.version = o.version;
    res.is_invalidate = o.is_invalidate;
    Status st;
    if (sync_ddl && d_.ctx->publisher != nullptr && !o.is_invalidate) {
      auto published = d_.ctx->publisher->WaitForPublication(
          o.version, std::chrono::milliseconds(d_.sync_ddl_timeout_ms));
      if (published.ok()) {
        res.version = *published;
      } else {
        st = published.status().WithContext("SYNC_DDL");
      }
    }
    res.status = ToTStatus(st);
    OutcomeObjects objects = RenderOutcome(o, minimal);
    res.__set_updated_catalog_objects(std::move(objects.updated));
    res.__set_removed_catalog_objects(std::move(objects.removed));
    return res;
  }

  static impala::TResultSet SummaryResultSet(const std::string& summary) {
    impala::TResultSet rs;
    impala::TColumn col;
    col.columnName = "summary";
    impala::TTypeNode node;
    node.type = impala::TTypeNodeType::SCALAR;
    impala::TScalarType scalar;
    scalar.type = impala::TPrimitiveType::STRING;
    node.__set_scalar_type(scalar);
    col.columnType.types.push_back(node);
    rs.schema.columns.push_back(col);
    impala::TResultRow row;
    impala::TColumnValue v;
    v.__set_string_val(summary);
    row.colVals.push_back(v);
    rs.rows.push_back(row);
    return rs;
  }

  // A change: the protocol check and a core to run it here, then `run`
  // (the command core's).
  Result<DdlOutcome> Change(CatalogServiceVersion::type v,
                            const std::function<Result<DdlOutcome>()>& run) {
    Status proto = CheckProtocol(v);
    if (!proto.ok()) return proto;
    if (d_.core == nullptr) return Status::NotImplemented("this CatalogService serves no changes");
    return run();
  }

  void ExecDdl(impala::TDdlExecResponse& resp, const impala::TDdlExecRequest& req) override {
    Result<DdlOutcome> r = Change(req.protocol_version,
                                  [&] { return ExecImpalaDdl(d_.core, ImpalaCaller(req), req); });
    resp.result = MakeResult(r, req.query_options.sync_ddl, WantsMinimal(req));
    if (r.ok()) {
      resp.__set_result_set(SummaryResultSet(r->summary));
      if (r->new_table_created) resp.__set_new_table_created(true);
      if (!r->table_location.empty()) resp.__set_table_location(r->table_location);
    }
  }

  void UpdateCatalog(impala::TUpdateCatalogResponse& resp,
                     const impala::TUpdateCatalogRequest& req) override {
    Result<DdlOutcome> r = Change(req.protocol_version, [&] {
      return d_.core->Insert(ImpalaCaller(req), InsertCommandOf(req));
    });
    resp.result = MakeResult(r, req.sync_ddl, WantsMinimal(req));
  }

  void ResetMetadata(impala::TResetMetadataResponse& resp,
                     const impala::TResetMetadataRequest& req) override {
    Result<DdlOutcome> r = Change(req.protocol_version, [&] {
      return d_.core->Reset(ImpalaCaller(req), ResetCommandOf(req));
    });
    resp.result = MakeResult(r, req.sync_ddl, WantsMinimal(req));
  }

  void GetCatalogObject(impala::TGetCatalogObjectResponse& resp,
                        const impala::TGetCatalogObjectRequest& req) override {
    Status proto = Admit(req.protocol_version);
    if (!proto.ok()) {
      resp.status = ToTStatus(proto);
      return;
    }
    auto r = d_.fetcher->GetCatalogObject(req.object_desc);
    resp.status = ToTStatus(r.status());
    if (r.ok()) {
      resp.catalog_object = std::move(r).value();
    } else {
      resp.catalog_object = req.object_desc;  // required field: echo the request
    }
  }

  void GetPartitionStats(impala::TGetPartitionStatsResponse& resp,
                         const impala::TGetPartitionStatsRequest& req) override {
    Status proto = Admit(req.protocol_version);
    if (!proto.ok()) {
      resp.__set_status(ToTStatus(proto));
      return;
    }
    auto r = d_.fetcher->GetPartitionStats(req.table_name);
    resp.__set_status(ToTStatus(r.status()));
    if (r.ok()) resp.__set_partition_stats(std::move(r).value());
  }

  void GetFunctions(impala::TGetFunctionsResponse& resp,
                    const impala::TGetFunctionsRequest& req) override {
    Status proto = Admit(req.protocol_version);
    if (!proto.ok() || !req.__isset.db_name) {
      resp.__set_status(ToTStatus(proto.ok() ? Status::InvalidArgument("db_name is required")
                                             : proto));
      return;
    }
    auto r = d_.fetcher->GetFunctions(req.db_name);
    resp.__set_status(ToTStatus(r.status()));
    if (r.ok()) resp.__set_functions(std::move(r).value());
  }

  void PrioritizeLoad(impala::TPrioritizeLoadResponse& resp,
                      const impala::TPrioritizeLoadRequest& req) override {
    Status s = Admit(req.protocol_version);
    if (s.ok()) {
      std::vector<std::pair<std::string, std::string>> tables;
      for (const auto& o : req.object_descs) {
        if (o.__isset.table) tables.emplace_back(o.table.db_name, o.table.tbl_name);
      }
      d_.ctx->loads->Prioritize(tables);
    }
    resp.status = ToTStatus(s);
  }

  void GetPartialCatalogObject(impala::TGetPartialCatalogObjectResponse& resp,
                               const impala::TGetPartialCatalogObjectRequest& req) override {
    resp = PartialAnswer(req, /*defer_partitions=*/false).resp;
  }

  // GetPartialCatalogObject, with a table's partitions left to the writer
  // when `defer_partitions` (StreamingCatalogServiceProcessor).
  PartialFetchAnswer PartialAnswer(const impala::TGetPartialCatalogObjectRequest& req,
                                   bool defer_partitions) {
    Status proto = Admit(req.protocol_version);
    if (!proto.ok()) {
      PartialFetchAnswer refused;
      refused.resp = d_.fetcher->NewResponse();
      refused.resp.__set_status(ToTStatus(proto));
      return refused;
    }
    if (defer_partitions) return d_.fetcher->GetPartialCatalogObjectDeferred(req);
    PartialFetchAnswer whole;
    whole.resp = d_.fetcher->GetPartialCatalogObject(req);
    return whole;
  }

  void UpdateTableUsage(impala::TUpdateTableUsageResponse& resp,
                        const impala::TUpdateTableUsageRequest& req) override {
    // Usage counters only steer the peer's cache eviction, which this
    // catalogd does not do; accept and ignore.
    resp.__set_status(ToTStatus(Admit(req.protocol_version)));
  }

  void GetNullPartitionName(impala::TGetNullPartitionNameResponse& resp,
                            const impala::TGetNullPartitionNameRequest& req) override {
    resp.status = ToTStatus(Admit(req.protocol_version));
    resp.partition_value = kDefaultPartitionName;
  }

  void GetLatestCompactions(impala::TGetLatestCompactionsResponse& resp,
                            const impala::TGetLatestCompactionsRequest& req) override {
    resp.status = ToTStatus(Status::NotImplemented(
        "GetLatestCompactions: this catalog has no ACID tables, so no compactions"));
  }

  void SetEventProcessorStatus(impala::TSetEventProcessorStatusResponse& resp,
                               const impala::TSetEventProcessorStatusRequest& req) override {
    Status proto = Admit(req.protocol_version);
    if (!proto.ok()) {
      resp.status = ToTStatus(proto);
      return;
    }
    resp = SetEventProcessorStatusRpc(d_.events, req);
  }

  void WaitForHmsEvent(impala::TWaitForHmsEventResponse& resp,
                       const impala::TWaitForHmsEventRequest& req) override {
    Status proto = Admit(req.protocol_version);
    if (!proto.ok()) {
      resp.status = ToTStatus(proto);
      return;
    }
    resp = WaitForHmsEventRpc(d_.events, d_.ctx->catalog, req);
  }

 private:
  const HandlerDeps d_;
};

}  // namespace

std::shared_ptr<impala::CatalogServiceIf> MakeCatalogServiceHandler(HandlerDeps deps) {
  return std::make_shared<Handler>(deps);
}

std::shared_ptr<impala::CatalogServiceProcessor> MakeCatalogServiceProcessor(HandlerDeps deps) {
  auto handler = std::make_shared<Handler>(deps);
  Handler* h = handler.get();  // owned by the processor
  return std::make_shared<StreamingCatalogServiceProcessor>(
      std::move(handler), [h](const impala::TGetPartialCatalogObjectRequest& req) {
        return h->PartialAnswer(req, /*defer_partitions=*/true);
      });
}

}  // namespace ics::catalog
