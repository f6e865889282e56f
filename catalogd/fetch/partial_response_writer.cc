#include "catalogd/fetch/partial_response_writer.h"

#include "catalogd/fetch/table_fetch.h"

namespace ics::catalog {

namespace {

using apache::thrift::protocol::T_BOOL;
using apache::thrift::protocol::T_I32;
using apache::thrift::protocol::T_I64;
using apache::thrift::protocol::T_LIST;
using apache::thrift::protocol::T_STRING;
using apache::thrift::protocol::T_STRUCT;
using apache::thrift::protocol::TOutputRecursionTracker;
using apache::thrift::protocol::TProtocol;

// The field order, types and ids below follow the IDL (CatalogService.thrift)
// and the generated writers; partial_response_writer_test compares the bytes.

template <typename T>
uint32_t WriteStructField(TProtocol* out, const char* name, int16_t id, const T& value) {
  uint32_t n = out->writeFieldBegin(name, T_STRUCT, id);
  n += value.write(out);
  return n + out->writeFieldEnd();
}

template <typename T>
uint32_t WriteStructListField(TProtocol* out, const char* name, int16_t id,
                              const std::vector<T>& values) {
  uint32_t n = out->writeFieldBegin(name, T_LIST, id);
  n += out->writeListBegin(T_STRUCT, static_cast<uint32_t>(values.size()));
  for (const T& v : values) n += v.write(out);
  n += out->writeListEnd();
  return n + out->writeFieldEnd();
}

uint32_t WriteI64Field(TProtocol* out, const char* name, int16_t id, int64_t v) {
  uint32_t n = out->writeFieldBegin(name, T_I64, id);
  n += out->writeI64(v);
  return n + out->writeFieldEnd();
}

uint32_t WriteDeferredPartitions(TProtocol* out, const DeferredPartitions& deferred) {
  const std::vector<const PartitionState*>& parts = *deferred.partitions;
  uint32_t n = out->writeFieldBegin("partitions", T_LIST, 2);
  n += out->writeListBegin(T_STRUCT, static_cast<uint32_t>(parts.size()));
  impala::TPartialPartitionInfo info;  // one object, reused for every partition
  for (const PartitionState* p : parts) {
    FillPartitionInfo(*p, *deferred.selector, &info);
    n += info.write(out);
  }
  n += out->writeListEnd();
  return n + out->writeFieldEnd();
}

uint32_t WriteTableInfo(TProtocol* out, const impala::TPartialTableInfo& t,
                        const DeferredPartitions& deferred) {
  TOutputRecursionTracker tracker(*out);
  uint32_t n = out->writeStructBegin("TPartialTableInfo");
  if (t.__isset.hms_table) n += WriteStructField(out, "hms_table", 1, t.hms_table);
  if (deferred.partitions != nullptr) {
    n += WriteDeferredPartitions(out, deferred);
  } else if (t.__isset.partitions) {
    n += WriteStructListField(out, "partitions", 2, t.partitions);
  }
  if (t.__isset.column_stats) n += WriteStructListField(out, "column_stats", 3, t.column_stats);
  if (t.__isset.virtual_columns) {
    n += WriteStructListField(out, "virtual_columns", 4, t.virtual_columns);
  }
  if (t.__isset.storage_metadata_load_time_ns) {
    n += WriteI64Field(out, "storage_metadata_load_time_ns", 5, t.storage_metadata_load_time_ns);
  }
  if (t.__isset.network_addresses) {
    n += WriteStructListField(out, "network_addresses", 8, t.network_addresses);
  }
  if (t.__isset.sql_constraints) {
    n += WriteStructField(out, "sql_constraints", 9, t.sql_constraints);
  }
  if (t.__isset.valid_write_ids) {
    n += WriteStructField(out, "valid_write_ids", 10, t.valid_write_ids);
  }
  if (t.__isset.is_marked_cached) {
    n += out->writeFieldBegin("is_marked_cached", T_BOOL, 11);
    n += out->writeBool(t.is_marked_cached);
    n += out->writeFieldEnd();
  }
  if (t.__isset.partition_prefixes) {
    n += out->writeFieldBegin("partition_prefixes", T_LIST, 12);
    n += out->writeListBegin(T_STRING, static_cast<uint32_t>(t.partition_prefixes.size()));
    for (const std::string& s : t.partition_prefixes) n += out->writeString(s);
    n += out->writeListEnd();
    n += out->writeFieldEnd();
  }
  n += out->writeFieldStop();
  return n + out->writeStructEnd();
}

}  // namespace

uint32_t WritePartialObjectResponse(TProtocol* out,
                                    const impala::TGetPartialCatalogObjectResponse& r,
                                    const DeferredPartitions& deferred) {
  TOutputRecursionTracker tracker(*out);
  uint32_t n = out->writeStructBegin("TGetPartialCatalogObjectResponse");
  if (r.__isset.status) n += WriteStructField(out, "status", 1, r.status);
  if (r.__isset.lookup_status) {
    n += out->writeFieldBegin("lookup_status", T_I32, 2);
    n += out->writeI32(static_cast<int32_t>(r.lookup_status));
    n += out->writeFieldEnd();
  }
  if (r.__isset.object_version_number) {
    n += WriteI64Field(out, "object_version_number", 3, r.object_version_number);
  }
  if (r.__isset.table_info) {
    n += out->writeFieldBegin("table_info", T_STRUCT, 4);
    n += WriteTableInfo(out, r.table_info, deferred);
    n += out->writeFieldEnd();
  }
  if (r.__isset.db_info) n += WriteStructField(out, "db_info", 5, r.db_info);
  if (r.__isset.catalog_info) n += WriteStructField(out, "catalog_info", 6, r.catalog_info);
  if (r.__isset.functions) n += WriteStructListField(out, "functions", 7, r.functions);
  if (r.__isset.data_srcs) n += WriteStructListField(out, "data_srcs", 8, r.data_srcs);
  if (r.__isset.object_loaded_time_ms) {
    n += WriteI64Field(out, "object_loaded_time_ms", 9, r.object_loaded_time_ms);
  }
  if (r.__isset.catalog_service_id) {
    n += WriteStructField(out, "catalog_service_id", 10, r.catalog_service_id);
  }
  n += out->writeFieldStop();
  return n + out->writeStructEnd();
}

}  // namespace ics::catalog
