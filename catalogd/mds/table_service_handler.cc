#include "catalogd/mds/table_service_handler.h"

#include "TableService.h"
#include "catalogd/mds/table_limits.h"
#include "common/rpc/peer.h"

namespace ics::catalog::mds {

namespace {

using thrift::TMetastoreServiceErrorCode;

Status CheckProtocol(thrift::TTableServiceVersion::type v) {
  if (v == thrift::TTableServiceVersion::V1) return Status::OK();
  return Status::InvalidArgument("TableService protocol version " +
                                 std::to_string(static_cast<int>(v)) +
                                 " is not supported; this catalogd speaks V1");
}

// Runs `call` (the core call filling `out`) unless the protocol is wrong.
template <typename Resp, typename Req, typename Call>
void Serve(Resp& out, const Req& req, Call&& call) {
  Status p = CheckProtocol(req.protocol_version);
  if (!p.ok()) {
    out.status = ToServiceStatus(p);
    return;
  }
  call();
}

// Serve() for a call that changes the catalog: `call` fills `out` and
// returns the core's status; the call is recorded in the operation log (and
// so the audit log) with the peer, the outcome and `*version`.
template <typename Resp, typename Req, typename Call>
void ServeWrite(OperationLog* log, const char* rpc, std::string target, Resp& out,
                const Req& req, Call&& call) {
  ScopedOperation op(log, std::string("TableService.") + rpc, std::move(target), "",
                     CurrentOrigin());
  Status p = CheckProtocol(req.protocol_version);
  if (!p.ok()) {
    out.status = ToServiceStatus(p);
    op.End(p);
    return;
  }
  int64_t version = 0;
  const Status s = call(&version);
  op.End(s, "", version);
}

class Handler : public thrift::TableServiceIf {
 public:
  explicit Handler(std::shared_ptr<TableService> core) : core_(std::move(core)) {}

  void GetTable(thrift::TGetTableResponse& out, const thrift::TGetTableRequest& req) override {
    Serve(out, req, [&] {
      auto r = core_->GetTable(req);
      out.status = ToServiceStatus(r.status());
      if (r.ok()) out.__set_table(std::move(r).value());
    });
  }

  void UpdateTable(thrift::TUpdateTableResponse& out,
                   const thrift::TUpdateTableRequest& req) override {
    ServeWrite(core_->operations(), "UpdateTable", req.db_name + "." + req.table_input.name, out,
               req, [&](int64_t* version) {
                 auto r = core_->UpdateTable(req);
                 if (r.ok()) out = std::move(r).value();
                 out.status = ToServiceStatus(r.status());
                 if (out.__isset.catalog_version) *version = out.catalog_version;
                 return r.status();
               });
  }

  void GetTableVersion(thrift::TGetTableVersionResponse& out,
                       const thrift::TGetTableVersionRequest& req) override {
    Serve(out, req, [&] {
      auto r = core_->GetTableVersion(req);
      out.status = ToServiceStatus(r.status());
      if (r.ok()) out.__set_table_version(std::move(r).value());
    });
  }

  void GetTableVersions(thrift::TGetTableVersionsResponse& out,
                        const thrift::TGetTableVersionsRequest& req) override {
    Serve(out, req, [&] {
      auto r = core_->GetTableVersions(req);
      if (r.ok()) out = std::move(r).value();
      out.status = ToServiceStatus(r.status());
    });
  }

  void DeleteTableVersion(thrift::TDeleteTableVersionResponse& out,
                          const thrift::TDeleteTableVersionRequest& req) override {
    ServeWrite(core_->operations(), "DeleteTableVersion",
               req.db_name + "." + req.table_name + " version " + req.version_id, out, req,
               [&](int64_t*) {
                 Status s = core_->DeleteTableVersion(req);
                 out.status = ToServiceStatus(s);
                 return s;
               });
  }

  void BatchDeleteTableVersion(thrift::TBatchDeleteTableVersionResponse& out,
                               const thrift::TBatchDeleteTableVersionRequest& req) override {
    ServeWrite(core_->operations(), "BatchDeleteTableVersion",
               req.db_name + "." + req.table_name + " (" + std::to_string(req.version_ids.size()) +
                   " version(s))",
               out, req, [&](int64_t*) {
                 auto r = core_->BatchDeleteTableVersion(req);
                 out.status = ToServiceStatusWithBatchLimit(r.status(), kMaxBatchDeleteVersions);
                 if (r.ok()) out.__set_errors(std::move(r).value());
                 return r.status();
               });
  }

  void GetTables(thrift::TGetTablesResponse& out, const thrift::TGetTablesRequest& req) override {
    Serve(out, req, [&] {
      auto r = core_->GetTables(req);
      if (r.ok()) out = std::move(r).value();
      out.status = ToServiceStatus(r.status());
    });
  }

  void BatchDeleteTable(thrift::TBatchDeleteTableResponse& out,
                        const thrift::TBatchDeleteTableRequest& req) override {
    ServeWrite(core_->operations(), "BatchDeleteTable",
               req.db_name + " (" + std::to_string(req.tables_to_delete.size()) + " table(s))",
               out, req, [&](int64_t*) {
                 auto r = core_->BatchDeleteTable(req);
                 out.status = ToServiceStatusWithBatchLimit(r.status(), kMaxBatchDeleteTables);
                 if (r.ok()) out.__set_errors(std::move(r).value());
                 return r.status();
               });
  }

  void SearchTables(thrift::TSearchTablesResponse& out,
                    const thrift::TSearchTablesRequest& req) override {
    Serve(out, req, [&] {
      auto r = core_->SearchTables(req);
      if (r.ok()) out = std::move(r).value();
      out.status = ToServiceStatusWithBatchLimit(r.status(), kMaxSortCriteria);
    });
  }

  void GetColumnStatistics(thrift::TGetColumnStatisticsResponse& out,
                           const thrift::TGetColumnStatisticsRequest& req) override {
    Serve(out, req, [&] {
      auto r = core_->GetColumnStatistics(req);
      if (r.ok()) out = std::move(r).value();
      out.status = ToServiceStatusWithBatchLimit(r.status(), kMaxStatsColumnsGet);
    });
  }

  void UpdateColumnStatistics(thrift::TUpdateColumnStatisticsResponse& out,
                              const thrift::TUpdateColumnStatisticsRequest& req) override {
    ServeWrite(core_->operations(), "UpdateColumnStatistics", req.db_name + "." + req.table_name,
               out, req, [&](int64_t*) {
                 auto r = core_->UpdateColumnStatistics(req);
                 out.status = ToServiceStatusWithBatchLimit(r.status(), kMaxStatsColumnsUpdate);
                 if (r.ok()) out.__set_errors(std::move(r).value());
                 return r.status();
               });
  }

  void DeleteColumnStatistics(thrift::TDeleteColumnStatisticsResponse& out,
                              const thrift::TDeleteColumnStatisticsRequest& req) override {
    ServeWrite(core_->operations(), "DeleteColumnStatistics",
               req.db_name + "." + req.table_name + " column " + req.column_name, out, req,
               [&](int64_t*) {
                 Status s = core_->DeleteColumnStatistics(req);
                 out.status = ToServiceStatus(s);
                 return s;
               });
  }

 private:
  const std::shared_ptr<TableService> core_;
};

}  // namespace

std::shared_ptr<apache::thrift::TProcessor> MakeTableServiceProcessor(
    std::shared_ptr<TableService> core) {
  return std::make_shared<thrift::TableServiceProcessor>(std::make_shared<Handler>(std::move(core)));
}

}  // namespace ics::catalog::mds
