#include "catalogd/mds/table_convert.h"

#include "catalogd/mds/service_status.h"

namespace ics::catalog::mds {

ops::TableInput FromThrift(const thrift::TTableInput& in) {
  ops::TableInput out;
  out.name = in.name;
  if (in.__isset.description) out.description = in.description;
  if (in.__isset.owner) out.owner = in.owner;
  if (in.__isset.last_access_time) out.last_access_time = in.last_access_time;
  if (in.__isset.retention) out.retention = in.retention;
  if (in.__isset.sd) out.sd = in.sd;
  if (in.__isset.partition_keys) out.partition_keys = in.partition_keys;
  out.view_original_text = in.view_original_text;
  out.view_expanded_text = in.view_expanded_text;
  if (in.__isset.table_type) out.table_type = in.table_type;
  out.parameters = in.parameters;
  return out;
}

ops::SearchTablesRequest FromThrift(const thrift::TSearchTablesRequest& req) {
  ops::SearchTablesRequest out;
  if (req.__isset.next_token) out.next_token = req.next_token;
  for (const thrift::TPropertyPredicate& p : req.filters) {
    ops::PropertyFilter f;
    f.key = p.key;
    f.value = p.value;
    if (p.__isset.comparator) f.comparator = static_cast<ops::PropertyComparator>(p.comparator);
    out.filters.push_back(std::move(f));
  }
  if (req.__isset.search_text) out.search_text = req.search_text;
  for (const thrift::TSortCriterion& c : req.sort_criteria) {
    ops::SortCriterion s;
    s.field_name = c.field_name;
    if (c.__isset.sort) s.direction = static_cast<ops::SortDirection>(c.sort);
    out.sort_criteria.push_back(std::move(s));
  }
  if (req.__isset.max_results) out.max_results = req.max_results;
  if (req.__isset.resource_share_type) {
    out.resource_share_type = static_cast<ops::ResourceShareType>(req.resource_share_type);
  }
  return out;
}

thrift::TTableInfo ToTableInfo(const TableVersionRecord& r) {
  thrift::TTableInfo info;
  info.table = r.table;
  info.version_id = std::to_string(r.version_id);
  info.update_time_ms = r.valid_from_ms;
  return info;
}

thrift::TTableVersion ToTableVersion(const TableVersionRecord& r) {
  thrift::TTableVersion v;
  v.table = ToTableInfo(r);
  v.version_id = std::to_string(r.version_id);
  v.__set_archived_time_ms(r.archived_ms);
  return v;
}

std::vector<thrift::TTableInfo> ToTableInfos(const std::vector<TableVersionRecord>& rs) {
  std::vector<thrift::TTableInfo> out;
  out.reserve(rs.size());
  for (const TableVersionRecord& r : rs) out.push_back(ToTableInfo(r));
  return out;
}

std::vector<thrift::TTableVersionError> ToThrift(const std::vector<ops::TableVersionFailure>& es) {
  std::vector<thrift::TTableVersionError> out;
  for (const ops::TableVersionFailure& e : es) {
    thrift::TTableVersionError t;
    t.table_name = e.table_name;
    t.version_id = e.version_id;
    t.error = ToServiceStatus(e.error);
    out.push_back(std::move(t));
  }
  return out;
}

std::vector<thrift::TTableError> ToThrift(const std::vector<ops::TableFailure>& es) {
  std::vector<thrift::TTableError> out;
  for (const ops::TableFailure& e : es) {
    thrift::TTableError t;
    t.table_name = e.table_name;
    t.error = ToServiceStatus(e.error);
    out.push_back(std::move(t));
  }
  return out;
}

std::vector<thrift::TColumnError> ToThrift(const std::vector<ops::ColumnFailure>& es) {
  std::vector<thrift::TColumnError> out;
  for (const ops::ColumnFailure& e : es) {
    thrift::TColumnError t;
    t.column_name = e.column_name;
    t.error = ToServiceStatus(e.error);
    out.push_back(std::move(t));
  }
  return out;
}

}  // namespace ics::catalog::mds
