// TableServiceDoor: TableService's wire calls translated onto the table
// commands (catalogd/ops/table_commands.h). Each method translates the
// Thrift request into the commands' domain request (table_convert.h), runs
// it as the caller of the RPC being served ("TableService"), and
// translates the result back into the Thrift response payload, without its
// status: a failed Result is the commands' Status, which the handler
// (table_service_handler.h) maps to the wire's, as it checks the protocol
// version first. It decides nothing itself.
//
// Ownership: shares the commands.
// Thread-safety: thread-safe (the commands are).
#pragma once

#include <memory>
#include <vector>

#include "TableService_types.h"
#include "catalogd/ops/table_commands.h"

namespace ics::catalog::mds {

class TableServiceDoor {
 public:
  explicit TableServiceDoor(std::shared_ptr<ops::TableCommands> commands)
      : commands_(std::move(commands)) {}

  ops::TableCommands* commands() const { return commands_.get(); }

  Result<thrift::TTableInfo> GetTable(const thrift::TGetTableRequest& req);
  Result<thrift::TUpdateTableResponse> UpdateTable(const thrift::TUpdateTableRequest& req);
  Result<thrift::TTableVersion> GetTableVersion(const thrift::TGetTableVersionRequest& req);
  Result<thrift::TGetTableVersionsResponse> GetTableVersions(
      const thrift::TGetTableVersionsRequest& req);
  [[nodiscard]] Status DeleteTableVersion(const thrift::TDeleteTableVersionRequest& req);
  Result<std::vector<thrift::TTableVersionError>> BatchDeleteTableVersion(
      const thrift::TBatchDeleteTableVersionRequest& req);

  Result<thrift::TGetTablesResponse> GetTables(const thrift::TGetTablesRequest& req);
  Result<std::vector<thrift::TTableError>> BatchDeleteTable(
      const thrift::TBatchDeleteTableRequest& req);
  Result<thrift::TSearchTablesResponse> SearchTables(const thrift::TSearchTablesRequest& req);

  Result<thrift::TGetColumnStatisticsResponse> GetColumnStatistics(
      const thrift::TGetColumnStatisticsRequest& req);
  Result<std::vector<thrift::TColumnError>> UpdateColumnStatistics(
      const thrift::TUpdateColumnStatisticsRequest& req);
  [[nodiscard]] Status DeleteColumnStatistics(const thrift::TDeleteColumnStatisticsRequest& req);

 private:
  const std::shared_ptr<ops::TableCommands> commands_;
};

}  // namespace ics::catalog::mds
