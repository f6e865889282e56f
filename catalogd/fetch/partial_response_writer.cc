#include "catalogd/fetch/partial_response_writer.h"

#include <memory>
#include <string>
#include <string_view>

#include <thrift/protocol/TBinaryProtocol.h>
#include <thrift/protocol/TProtocolException.h>
#include <thrift/transport/TBufferTransports.h>

#include "catalogd/catalog/catalog_objects.h"
#include "catalogd/catalog/compact_string_map.h"
#include "catalogd/fetch/table_fetch.h"
#include "common/codec/thrift_serde.h"
#include "common/rpc/bounded_protocol.h"

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

// Writes binary fields from views of the state. On the binary protocol the
// bytes go to the transport as they are (a 4-byte length, then the bytes:
// what TBinaryProtocol::writeBinary writes); on any other protocol they pass
// through a reused string and the protocol's own writeBinary.
class BytesWriter {
 public:
  explicit BytesWriter(TProtocol* out)
      : out_(out),
        raw_(SpeaksBinary(out) ? out->getTransport() : nullptr) {}

  // Whether bytes go to the transport as they are (the binary protocol).
  bool raw() const { return raw_ != nullptr; }

  // Bytes already in the protocol's encoding (raw() only), as they are.
  uint32_t WriteEncoded(std::string_view encoded) {
    raw_->write(reinterpret_cast<const uint8_t*>(encoded.data()),
                static_cast<uint32_t>(encoded.size()));
    return static_cast<uint32_t>(encoded.size());
  }

  uint32_t Write(std::string_view bytes) {
    if (raw_ == nullptr) {
      scratch_.assign(bytes.data(), bytes.size());
      return out_->writeBinary(scratch_);
    }
    if (bytes.size() > static_cast<size_t>(INT32_MAX)) {
      throw apache::thrift::protocol::TProtocolException(
          apache::thrift::protocol::TProtocolException::SIZE_LIMIT);
    }
    const uint32_t n = out_->writeI32(static_cast<int32_t>(bytes.size()));
    if (!bytes.empty()) {
      raw_->write(reinterpret_cast<const uint8_t*>(bytes.data()),
                  static_cast<uint32_t>(bytes.size()));
    }
    return n + static_cast<uint32_t>(bytes.size());
  }

 private:
  TProtocol* const out_;
  const std::shared_ptr<apache::thrift::transport::TTransport> raw_;  // binary protocol only
  std::string scratch_;
};

// What the partitions of one answer share while they are written: the
// bytes writer and the storage descriptor of the last partition's shape
// (partitions share a handful of shapes, so it is rarely converted again),
// on the binary protocol also encoded.
struct PartitionWriteContext {
  explicit PartitionWriteContext(TProtocol* out) : bytes(out) {}
  BytesWriter bytes;
  const hive::StorageDescriptor* sd_of = nullptr;
  impala::THdfsStorageDescriptor sd;
  std::string sd_encoded;  // sd in the binary protocol; empty: write sd itself
};

uint32_t WriteStorageDescriptor(TProtocol* out, const PartitionState& p,
                                PartitionWriteContext& ctx) {
  if (ctx.sd_of != &p.sd()) {
    ctx.sd = StorageDescriptorOf(p.sd());
    ctx.sd_of = &p.sd();
    ctx.sd_encoded.clear();
    if (ctx.bytes.raw()) {
      Result<std::string> encoded = SerializeThrift(ctx.sd, ThriftProtocol::kBinary);
      if (encoded.ok()) ctx.sd_encoded = std::move(encoded).value();
    }
  }
  if (ctx.sd_encoded.empty()) return WriteStructField(out, "hdfs_storage_descriptor", 12, ctx.sd);
  uint32_t n = out->writeFieldBegin("hdfs_storage_descriptor", T_STRUCT, 12);
  n += ctx.bytes.WriteEncoded(ctx.sd_encoded);
  return n + out->writeFieldEnd();
}

uint32_t WriteBytesField(TProtocol* out, BytesWriter& bytes, const char* name, int16_t id,
                         std::string_view value) {
  uint32_t n = out->writeFieldBegin(name, T_STRING, id);
  n += bytes.Write(value);
  return n + out->writeFieldEnd();
}

uint32_t WriteBoolField(TProtocol* out, const char* name, int16_t id, bool v) {
  uint32_t n = out->writeFieldBegin(name, T_BOOL, id);
  n += out->writeBool(v);
  return n + out->writeFieldEnd();
}

// One THdfsFileDesc holding `desc` (file_metadata unset).
uint32_t WriteFileDesc(TProtocol* out, BytesWriter& bytes, std::string_view desc) {
  uint32_t n = out->writeStructBegin("THdfsFileDesc");
  n += WriteBytesField(out, bytes, "file_desc_data", 1, desc);
  n += out->writeFieldStop();
  return n + out->writeStructEnd();
}

// The THdfsPartitionLocation of a partition: its whole directory as the
// suffix, no prefix (index -1).
uint32_t WriteLocation(TProtocol* out, BytesWriter& bytes, std::string_view dir) {
  uint32_t n = out->writeStructBegin("THdfsPartitionLocation");
  n += out->writeFieldBegin("prefix_index", T_I32, 1);
  n += out->writeI32(-1);
  n += out->writeFieldEnd();
  n += WriteBytesField(out, bytes, "suffix", 2, dir);
  n += out->writeFieldStop();
  return n + out->writeStructEnd();
}

// The HMS parameters as a Thrift map<string, string>, in key order (the
// order of the std::map a reader decodes them into).
uint32_t WriteParameters(TProtocol* out, BytesWriter& bytes, const CompactStringMap& params) {
  uint32_t count = 0;
  params.ForEach([&](std::string_view, std::string_view) { ++count; });
  uint32_t n = out->writeFieldBegin("hms_parameters", apache::thrift::protocol::T_MAP, 10);
  n += out->writeMapBegin(T_STRING, T_STRING, count);
  params.ForEach([&](std::string_view k, std::string_view v) {
    n += bytes.Write(k);
    n += bytes.Write(v);
  });
  n += out->writeMapEnd();
  return n + out->writeFieldEnd();
}

// Partition p by the per-partition rules of table_fetch.h, written from the
// state as a TPartialPartitionInfo without building one. Fields in id order,
// as the generated writer writes them.
uint32_t WritePartition(TProtocol* out, const PartitionState& p, const impala::TTableInfoSelector& sel,
                        PartitionWriteContext& ctx) {
  TOutputRecursionTracker tracker(*out);
  uint32_t n = out->writeStructBegin("TPartialPartitionInfo");
  n += WriteI64Field(out, "id", 1, p.id);
  if (sel.want_partition_names) n += WriteBytesField(out, ctx.bytes, "name", 2, p.name());
  if (sel.want_hms_partition) n += WriteStructField(out, "hms_partition", 3, p.Hms());
  if (sel.want_partition_files) {
    n += out->writeFieldBegin("file_descriptors", T_LIST, 4);
    n += out->writeListBegin(T_STRUCT, static_cast<uint32_t>(p.file_descs.size()));
    for (std::string_view fd : p.file_descs) n += WriteFileDesc(out, ctx.bytes, fd);
    n += out->writeListEnd();
    n += out->writeFieldEnd();
  }
  if (sel.want_partition_stats && !p.partition_stats().empty()) {
    n += WriteBytesField(out, ctx.bytes, "partition_stats", 5, p.partition_stats());
  }
  if (sel.want_partition_metadata || sel.want_partition_stats) {
    n += WriteBoolField(out, "has_incremental_stats", 6, p.has_incremental_stats());
  }
  if (sel.want_partition_metadata) {
    n += WriteParameters(out, ctx.bytes, p.hms_parameters());
    n += WriteStorageDescriptor(out, p, ctx);
    n += out->writeFieldBegin("location", T_STRUCT, 13);
    n += WriteLocation(out, ctx.bytes, p.location());
    n += out->writeFieldEnd();
  }
  n += out->writeFieldStop();
  return n + out->writeStructEnd();
}

uint32_t WriteDeferredPartitions(TProtocol* out, const DeferredPartitions& deferred) {
  const std::vector<const PartitionState*>& parts = *deferred.partitions;
  uint32_t n = out->writeFieldBegin("partitions", T_LIST, 2);
  n += out->writeListBegin(T_STRUCT, static_cast<uint32_t>(parts.size()));
  PartitionWriteContext ctx(out);
  for (const PartitionState* p : parts) n += WritePartition(out, *p, *deferred.selector, ctx);
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
    n += WriteBoolField(out, "is_marked_cached", 11, t.is_marked_cached);
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

namespace {

// Decodes what `write` writes on the binary protocol into a T.
template <typename T, typename Write>
T Decoded(Write&& write) {
  auto buf = std::make_shared<apache::thrift::transport::TMemoryBuffer>();
  apache::thrift::protocol::TBinaryProtocol proto(buf);
  write(&proto);
  T out;
  out.read(&proto);
  return out;
}

}  // namespace

impala::TGetPartialCatalogObjectResponse MaterializeAnswer(
    const impala::TGetPartialCatalogObjectResponse& resp, const DeferredPartitions& deferred) {
  return Decoded<impala::TGetPartialCatalogObjectResponse>(
      [&](TProtocol* out) { WritePartialObjectResponse(out, resp, deferred); });
}

impala::TPartialPartitionInfo RenderPartitionInfo(const PartitionState& partition,
                                                  const impala::TTableInfoSelector& selector) {
  return Decoded<impala::TPartialPartitionInfo>([&](TProtocol* out) {
    PartitionWriteContext ctx(out);
    WritePartition(out, partition, selector, ctx);
  });
}

}  // namespace ics::catalog
