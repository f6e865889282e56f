// CatalogService DDL requests for the benchmarks, built as a coordinator
// builds them, and one way to run them on catalogd.
//
// Thread-safety: stateless functions; a client is used by one thread.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "CatalogService.h"
#include "common/codec/thrift_serde.h"
#include "common/rpc/thrift_client.h"
#include "common/util/status.h"

namespace ics::perf {

using CatalogClient = ThriftClient<impala::CatalogServiceClient>;

// A request of `type` (protocol V2, no SYNC_DDL); with `minimal` the header
// asks for the small result, as an on-demand coordinator does.
inline impala::TDdlExecRequest DdlRequest(impala::TDdlType::type type, bool minimal,
                                          const std::string& client = "bench") {
  impala::TDdlExecRequest r;
  r.protocol_version = impala::CatalogServiceVersion::V2;
  r.ddl_type = type;
  impala::TCatalogServiceRequestHeader h;
  h.__set_requesting_user("bench");
  h.__set_coordinator_hostname(client);
  if (minimal) h.__set_want_minimal_response(true);
  r.__set_header(h);
  r.query_options.sync_ddl = false;
  return r;
}

// One partition's spec: (key, value) pairs in key order.
using PartitionSpec = std::vector<std::pair<std::string, std::string>>;

// ALTER TABLE db.table ADD PARTITION spec1 spec2 ...
inline impala::TDdlExecRequest AddPartitionsRequest(const std::string& db,
                                                    const std::string& table,
                                                    const std::vector<PartitionSpec>& specs,
                                                    bool minimal,
                                                    const std::string& client = "bench") {
  impala::TDdlExecRequest r = DdlRequest(impala::TDdlType::ALTER_TABLE, minimal, client);
  r.__isset.alter_table_params = true;
  r.alter_table_params.alter_type = impala::TAlterTableType::ADD_PARTITION;
  r.alter_table_params.table_name.db_name = db;
  r.alter_table_params.table_name.table_name = table;
  r.alter_table_params.__isset.add_partition_params = true;
  auto& ap = r.alter_table_params.add_partition_params;
  ap.if_not_exists = false;
  for (const PartitionSpec& spec : specs) {
    impala::TPartitionDef def;
    for (const auto& [key, value] : spec) {
      impala::TPartitionKeyValue kv;
      kv.name = key;
      kv.value = value;
      def.partition_spec.push_back(std::move(kv));
    }
    ap.partitions.push_back(std::move(def));
  }
  return r;
}

// Runs one DDL; a failed status in the response becomes an error Status.
// With `response_bytes`, reports the serialized size of the response.
inline Status ExecDdl(CatalogClient* c, const impala::TDdlExecRequest& req,
                      int64_t* response_bytes = nullptr) {
  impala::TDdlExecResponse resp;
  ICS_RETURN_IF_ERROR(
      c->Call("ExecDdl", [&](impala::CatalogServiceClient& cl) { cl.ExecDdl(resp, req); }));
  if (resp.result.status.status_code != impala::TErrorCode::OK) {
    std::string msg;
    for (const auto& m : resp.result.status.error_msgs) msg += m;
    return Status::Internal("ExecDdl failed: " + msg);
  }
  if (response_bytes != nullptr) {
    auto bytes = SerializeThrift(resp);
    *response_bytes = bytes.ok() ? static_cast<int64_t>(bytes->size()) : -1;
  }
  return Status::OK();
}

}  // namespace ics::perf
