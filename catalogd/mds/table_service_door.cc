#include "catalogd/mds/table_service_door.h"

#include "catalogd/mds/table_convert.h"
#include "catalogd/ops/caller.h"

namespace ics::catalog::mds {

namespace {

ops::Caller Caller() { return ops::CallerOfCurrentRpc("TableService"); }

template <typename T>
std::optional<T> IfSet(bool is_set, const T& value) {
  return is_set ? std::optional<T>(value) : std::nullopt;
}

}  // namespace

Result<thrift::TTableInfo> TableServiceDoor::GetTable(const thrift::TGetTableRequest& req) {
  ops::GetTableRequest g;
  g.db = req.db_name;
  g.table = req.table_name;
  g.as_of_time_ms = IfSet(req.__isset.query_as_of_time_ms, req.query_as_of_time_ms);
  g.version_id = IfSet(req.__isset.version_id, req.version_id);
  ICS_ASSIGN_OR_RETURN(TableVersionRecord r, commands_->GetTable(Caller(), g));
  return ToTableInfo(r);
}

Result<thrift::TUpdateTableResponse> TableServiceDoor::UpdateTable(
    const thrift::TUpdateTableRequest& req) {
  ops::UpdateTableRequest u;
  u.db = req.db_name;
  u.input = FromThrift(req.table_input);
  u.skip_archive = req.__isset.skip_archive && req.skip_archive;
  u.expected_version_id = IfSet(req.__isset.expected_version_id, req.expected_version_id);
  ICS_ASSIGN_OR_RETURN(ops::UpdatedTable r, commands_->UpdateTable(Caller(), u));
  thrift::TUpdateTableResponse resp;
  resp.__set_version_id(std::to_string(r.version_id));
  resp.__set_catalog_version(r.catalog_version);
  return resp;
}

Result<thrift::TTableVersion> TableServiceDoor::GetTableVersion(
    const thrift::TGetTableVersionRequest& req) {
  ops::GetTableVersionRequest g;
  g.db = req.db_name;
  g.table = req.table_name;
  g.version_id = IfSet(req.__isset.version_id, req.version_id);
  ICS_ASSIGN_OR_RETURN(TableVersionRecord r, commands_->GetTableVersion(Caller(), g));
  return ToTableVersion(r);
}

Result<thrift::TGetTableVersionsResponse> TableServiceDoor::GetTableVersions(
    const thrift::TGetTableVersionsRequest& req) {
  ops::ListTableVersionsRequest l;
  l.db = req.db_name;
  l.table = req.table_name;
  l.next_token = IfSet(req.__isset.next_token, req.next_token);
  l.max_results = IfSet(req.__isset.max_results, req.max_results);
  ICS_ASSIGN_OR_RETURN(ops::TableVersionPage page, commands_->GetTableVersions(Caller(), l));
  thrift::TGetTableVersionsResponse resp;
  resp.__isset.table_versions = true;
  for (const TableVersionRecord& r : page.versions) {
    resp.table_versions.push_back(ToTableVersion(r));
  }
  if (page.next_token) resp.__set_next_token(*page.next_token);
  return resp;
}

Status TableServiceDoor::DeleteTableVersion(const thrift::TDeleteTableVersionRequest& req) {
  return commands_->DeleteTableVersion(Caller(), req.db_name, req.table_name, req.version_id);
}

Result<std::vector<thrift::TTableVersionError>> TableServiceDoor::BatchDeleteTableVersion(
    const thrift::TBatchDeleteTableVersionRequest& req) {
  ops::DeleteTableVersionsRequest d;
  d.db = req.db_name;
  d.table = req.table_name;
  d.version_ids = req.version_ids;
  ICS_ASSIGN_OR_RETURN(std::vector<ops::TableVersionFailure> errors,
                       commands_->BatchDeleteTableVersion(Caller(), d));
  return ToThrift(errors);
}

Result<thrift::TGetTablesResponse> TableServiceDoor::GetTables(
    const thrift::TGetTablesRequest& req) {
  ops::ListTablesRequest l;
  l.db = req.db_name;
  l.expression = IfSet(req.__isset.expression, req.expression);
  l.next_token = IfSet(req.__isset.next_token, req.next_token);
  l.max_results = IfSet(req.__isset.max_results, req.max_results);
  l.as_of_time_ms = IfSet(req.__isset.query_as_of_time_ms, req.query_as_of_time_ms);
  ICS_ASSIGN_OR_RETURN(ops::TablePage page, commands_->GetTables(Caller(), l));
  thrift::TGetTablesResponse resp;
  resp.__set_tables(ToTableInfos(page.tables));
  if (page.next_token) resp.__set_next_token(*page.next_token);
  return resp;
}

Result<std::vector<thrift::TTableError>> TableServiceDoor::BatchDeleteTable(
    const thrift::TBatchDeleteTableRequest& req) {
  ops::DeleteTablesRequest d;
  d.db = req.db_name;
  d.tables = req.tables_to_delete;
  ICS_ASSIGN_OR_RETURN(std::vector<ops::TableFailure> errors,
                       commands_->BatchDeleteTable(Caller(), d));
  return ToThrift(errors);
}

Result<thrift::TSearchTablesResponse> TableServiceDoor::SearchTables(
    const thrift::TSearchTablesRequest& req) {
  ICS_ASSIGN_OR_RETURN(ops::TablePage page, commands_->SearchTables(Caller(), FromThrift(req)));
  thrift::TSearchTablesResponse resp;
  resp.__set_tables(ToTableInfos(page.tables));
  if (page.next_token) resp.__set_next_token(*page.next_token);
  return resp;
}

Result<thrift::TGetColumnStatisticsResponse> TableServiceDoor::GetColumnStatistics(
    const thrift::TGetColumnStatisticsRequest& req) {
  ops::GetColumnStatisticsRequest g;
  g.db = req.db_name;
  g.table = req.table_name;
  g.partition_values = IfSet(req.__isset.partition_values, req.partition_values);
  g.column_names = req.column_names;
  ICS_ASSIGN_OR_RETURN(ops::ColumnStatistics stats, commands_->GetColumnStatistics(Caller(), g));
  thrift::TGetColumnStatisticsResponse resp;
  resp.__set_column_statistics(std::move(stats.statistics));
  resp.__set_errors(ToThrift(stats.errors));
  return resp;
}

Result<std::vector<thrift::TColumnError>> TableServiceDoor::UpdateColumnStatistics(
    const thrift::TUpdateColumnStatisticsRequest& req) {
  ops::UpdateColumnStatisticsRequest u;
  u.db = req.db_name;
  u.table = req.table_name;
  u.partition_values = IfSet(req.__isset.partition_values, req.partition_values);
  u.statistics = req.column_statistics;
  ICS_ASSIGN_OR_RETURN(std::vector<ops::ColumnFailure> errors,
                       commands_->UpdateColumnStatistics(Caller(), u));
  return ToThrift(errors);
}

Status TableServiceDoor::DeleteColumnStatistics(const thrift::TDeleteColumnStatisticsRequest& req) {
  ops::DeleteColumnStatisticsRequest d;
  d.db = req.db_name;
  d.table = req.table_name;
  d.partition_values = IfSet(req.__isset.partition_values, req.partition_values);
  d.column_name = req.column_name;
  return commands_->DeleteColumnStatistics(Caller(), d);
}

}  // namespace ics::catalog::mds
