// Translation between TableService's wire messages
// (common/thrift/TableService.thrift) and the table commands' domain values
// (catalogd/ops/table_requests.h). A field the wire leaves unset is absent
// (nullopt) in the domain value; a wire enum value is carried as is (the
// commands refuse one outside the enum); nothing is validated here.
// Per-item failures become the wire's status (service_status.h).
//
// Thread-safety: stateless functions.
#pragma once

#include <vector>

#include "TableService_types.h"
#include "catalogd/ops/table_requests.h"

namespace ics::catalog::mds {

ops::TableInput FromThrift(const thrift::TTableInput& in);
ops::SearchTablesRequest FromThrift(const thrift::TSearchTablesRequest& req);

// A table (current or archived version) as the wire returns it.
thrift::TTableInfo ToTableInfo(const TableVersionRecord& r);
thrift::TTableVersion ToTableVersion(const TableVersionRecord& r);
std::vector<thrift::TTableInfo> ToTableInfos(const std::vector<TableVersionRecord>& rs);

std::vector<thrift::TTableVersionError> ToThrift(const std::vector<ops::TableVersionFailure>& es);
std::vector<thrift::TTableError> ToThrift(const std::vector<ops::TableFailure>& es);
std::vector<thrift::TColumnError> ToThrift(const std::vector<ops::ColumnFailure>& es);

}  // namespace ics::catalog::mds
