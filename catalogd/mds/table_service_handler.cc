#include "catalogd/mds/table_service_handler.h"

#include "TableService.h"
#include "catalogd/mds/table_service_door.h"
#include "catalogd/ops/command_core.h"
#include "catalogd/ops/table_limits.h"
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

// Runs `call` (the door call filling `out`) unless the protocol is wrong.
template <typename Resp, typename Req, typename Call>
void Serve(Resp& out, const Req& req, Call&& call) {
  Status p = CheckProtocol(req.protocol_version);
  if (!p.ok()) {
    out.status = ToServiceStatus(p);
    return;
  }
  call();
}

// Serve() for a call that becomes commands of the command core
// (catalogd/ops), which records them (operation log, audit line) as it does
// from every door; a call refused here first (protocol, names, limits) is
// recorded as "TableService.<rpc>" on `target` (ops::DoorCall). `call` fills
// `out` and returns the status.
template <typename Resp, typename Req, typename Call>
void ServeCommand(ops::CommandCore* commands, const char* rpc, std::string target, Resp& out,
                  const Req& req, Call&& call) {
  ops::DoorCall door(commands, ops::CallerOfCurrentRpc("TableService"),
                     {std::string("TableService.") + rpc, std::move(target)});
  Status p = CheckProtocol(req.protocol_version);
  if (!p.ok()) {
    out.status = ToServiceStatus(p);
    door.Failed(p);
    return;
  }
  const Status s = call();
  if (!s.ok()) door.Failed(s);
}

class Handler : public thrift::TableServiceIf {
 public:
  explicit Handler(std::shared_ptr<ops::TableCommands> commands) : door_(std::move(commands)) {}

  void GetTable(thrift::TGetTableResponse& out, const thrift::TGetTableRequest& req) override {
    Serve(out, req, [&] {
      auto r = door_.GetTable(req);
      out.status = ToServiceStatus(r.status());
      if (r.ok()) out.__set_table(std::move(r).value());
    });
  }

  void UpdateTable(thrift::TUpdateTableResponse& out,
                   const thrift::TUpdateTableRequest& req) override {
    ServeCommand(door_.commands()->commands(), "UpdateTable",
                 req.db_name + "." + req.table_input.name, out, req, [&] {
                   auto r = door_.UpdateTable(req);
                   if (r.ok()) out = std::move(r).value();
                   out.status = ToServiceStatus(r.status());
                   return r.status();
                 });
  }

  void GetTableVersion(thrift::TGetTableVersionResponse& out,
                       const thrift::TGetTableVersionRequest& req) override {
    Serve(out, req, [&] {
      auto r = door_.GetTableVersion(req);
      out.status = ToServiceStatus(r.status());
      if (r.ok()) out.__set_table_version(std::move(r).value());
    });
  }

  void GetTableVersions(thrift::TGetTableVersionsResponse& out,
                        const thrift::TGetTableVersionsRequest& req) override {
    Serve(out, req, [&] {
      auto r = door_.GetTableVersions(req);
      if (r.ok()) out = std::move(r).value();
      out.status = ToServiceStatus(r.status());
    });
  }

  void DeleteTableVersion(thrift::TDeleteTableVersionResponse& out,
                          const thrift::TDeleteTableVersionRequest& req) override {
    ServeCommand(door_.commands()->commands(), "DeleteTableVersion",
                 req.db_name + "." + req.table_name + " version " + req.version_id, out, req, [&] {
                   Status s = door_.DeleteTableVersion(req);
                   out.status = ToServiceStatus(s);
                   return s;
                 });
  }

  void BatchDeleteTableVersion(thrift::TBatchDeleteTableVersionResponse& out,
                               const thrift::TBatchDeleteTableVersionRequest& req) override {
    ServeCommand(door_.commands()->commands(), "BatchDeleteTableVersion",
                 req.db_name + "." + req.table_name + " (" +
                     std::to_string(req.version_ids.size()) + " version(s))",
                 out, req, [&] {
                   auto r = door_.BatchDeleteTableVersion(req);
                   out.status =
                       ToServiceStatusWithBatchLimit(r.status(), ops::kMaxBatchDeleteVersions);
                   if (r.ok()) out.__set_errors(std::move(r).value());
                   return r.status();
                 });
  }

  void GetTables(thrift::TGetTablesResponse& out, const thrift::TGetTablesRequest& req) override {
    Serve(out, req, [&] {
      auto r = door_.GetTables(req);
      if (r.ok()) out = std::move(r).value();
      out.status = ToServiceStatus(r.status());
    });
  }

  void BatchDeleteTable(thrift::TBatchDeleteTableResponse& out,
                        const thrift::TBatchDeleteTableRequest& req) override {
    ServeCommand(door_.commands()->commands(), "BatchDeleteTable",
                 req.db_name + " (" + std::to_string(req.tables_to_delete.size()) + " table(s))",
                 out, req, [&] {
                   auto r = door_.BatchDeleteTable(req);
                   out.status =
                       ToServiceStatusWithBatchLimit(r.status(), ops::kMaxBatchDeleteTables);
                   if (r.ok()) out.__set_errors(std::move(r).value());
                   return r.status();
                 });
  }

  void SearchTables(thrift::TSearchTablesResponse& out,
                    const thrift::TSearchTablesRequest& req) override {
    Serve(out, req, [&] {
      auto r = door_.SearchTables(req);
      if (r.ok()) out = std::move(r).value();
      out.status = ToServiceStatusWithBatchLimit(r.status(), ops::kMaxSortCriteria);
    });
  }

  void GetColumnStatistics(thrift::TGetColumnStatisticsResponse& out,
                           const thrift::TGetColumnStatisticsRequest& req) override {
    Serve(out, req, [&] {
      auto r = door_.GetColumnStatistics(req);
      if (r.ok()) out = std::move(r).value();
      out.status = ToServiceStatusWithBatchLimit(r.status(), ops::kMaxStatsColumnsGet);
    });
  }

  void UpdateColumnStatistics(thrift::TUpdateColumnStatisticsResponse& out,
                              const thrift::TUpdateColumnStatisticsRequest& req) override {
    ServeCommand(door_.commands()->commands(), "UpdateColumnStatistics",
                 req.db_name + "." + req.table_name, out, req, [&] {
                   auto r = door_.UpdateColumnStatistics(req);
                   out.status =
                       ToServiceStatusWithBatchLimit(r.status(), ops::kMaxStatsColumnsUpdate);
                   if (r.ok()) out.__set_errors(std::move(r).value());
                   return r.status();
                 });
  }

  void DeleteColumnStatistics(thrift::TDeleteColumnStatisticsResponse& out,
                              const thrift::TDeleteColumnStatisticsRequest& req) override {
    ServeCommand(door_.commands()->commands(), "DeleteColumnStatistics",
                 req.db_name + "." + req.table_name + " column " + req.column_name, out, req, [&] {
                   Status s = door_.DeleteColumnStatistics(req);
                   out.status = ToServiceStatus(s);
                   return s;
                 });
  }

 private:
  TableServiceDoor door_;
};

}  // namespace

std::shared_ptr<apache::thrift::TProcessor> MakeTableServiceProcessor(
    std::shared_ptr<ops::TableCommands> commands) {
  return std::make_shared<thrift::TableServiceProcessor>(
      std::make_shared<Handler>(std::move(commands)));
}

}  // namespace ics::catalog::mds
