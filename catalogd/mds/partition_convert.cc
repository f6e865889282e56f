#include "catalogd/mds/partition_convert.h"

namespace ics::catalog::mds {

namespace {

ops::PartitionSerDeInput FromThrift(const thrift::TPartitionSerDeInfo& s) {
  ops::PartitionSerDeInput out;
  if (s.__isset.name) out.name = s.name;
  if (s.__isset.serialization_library) out.serialization_library = s.serialization_library;
  if (s.__isset.parameters) out.parameters = s.parameters;
  return out;
}

ops::PartitionStorageInput FromThrift(const thrift::TPartitionStorageDescriptor& sd) {
  ops::PartitionStorageInput out;
  if (sd.__isset.location_uri) out.location_uri = sd.location_uri;
  if (sd.__isset.input_format) out.input_format = sd.input_format;
  if (sd.__isset.output_format) out.output_format = sd.output_format;
  if (sd.__isset.serde_info) out.serde_info = FromThrift(sd.serde_info);
  return out;
}

thrift::TPartitionIndexState::type ToThrift(ops::IndexState s) {
  switch (s) {
    case ops::IndexState::kCreating:
      return thrift::TPartitionIndexState::CREATING;
    case ops::IndexState::kActive:
      return thrift::TPartitionIndexState::ACTIVE;
    case ops::IndexState::kFailed:
      return thrift::TPartitionIndexState::FAILED;
    case ops::IndexState::kDeleting:
      return thrift::TPartitionIndexState::DELETING;
  }
  return thrift::TPartitionIndexState::FAILED;
}

}  // namespace

ops::PartitionTable FromThrift(const thrift::TPartitionTableName& t) {
  return ops::PartitionTable{t.db_name, t.table_name};
}

ops::PartitionInput FromThrift(const thrift::TMetastorePartition& p) {
  ops::PartitionInput out;
  out.values = p.values;
  if (p.__isset.storage_descriptor) out.storage = FromThrift(p.storage_descriptor);
  if (p.__isset.parameters) out.parameters = p.parameters;
  if (p.__isset.fields) {
    std::vector<hive::FieldSchema> fields;
    fields.reserve(p.fields.size());
    for (const thrift::TPartitionFieldSchema& f : p.fields) {
      hive::FieldSchema fs;
      fs.name = f.name;
      fs.type = f.type;
      if (f.__isset.comment) fs.comment = f.comment;
      fields.push_back(std::move(fs));
    }
    out.fields = std::move(fields);
  }
  return out;
}

ops::PartitionUpdateInput FromThrift(const thrift::TPartitionUpdate& u) {
  ops::PartitionUpdateInput out;
  out.partition = FromThrift(u.partition);
  if (u.__isset.update_mask) out.update_mask = u.update_mask;
  return out;
}

std::vector<ops::PartitionInput> FromThrift(const std::vector<thrift::TMetastorePartition>& ps) {
  std::vector<ops::PartitionInput> out;
  out.reserve(ps.size());
  for (const thrift::TMetastorePartition& p : ps) out.push_back(FromThrift(p));
  return out;
}

thrift::TMetastorePartition ToThriftPartition(const hive::Partition& p) {
  thrift::TMetastorePartition out;
  out.values = p.values;
  out.__set_create_time(p.createTime);
  thrift::TPartitionStorageDescriptor sd;
  sd.__set_location_uri(p.sd.location);
  sd.__set_input_format(p.sd.inputFormat);
  sd.__set_output_format(p.sd.outputFormat);
  thrift::TPartitionSerDeInfo serde;
  serde.__set_name(p.sd.serdeInfo.name);
  serde.__set_serialization_library(p.sd.serdeInfo.serializationLib);
  serde.__set_parameters(p.sd.serdeInfo.parameters);
  sd.__set_serde_info(std::move(serde));
  out.__set_storage_descriptor(std::move(sd));
  out.__set_parameters(p.parameters);
  std::vector<thrift::TPartitionFieldSchema> fields;
  for (const hive::FieldSchema& f : p.sd.cols) {
    thrift::TPartitionFieldSchema fs;
    fs.name = f.name;
    fs.type = f.type;
    if (!f.comment.empty()) fs.__set_comment(f.comment);
    fields.push_back(std::move(fs));
  }
  out.__set_fields(std::move(fields));
  return out;
}

std::vector<thrift::TMetastorePartition> ToThriftPartitions(
    const std::vector<hive::Partition>& ps) {
  std::vector<thrift::TMetastorePartition> out;
  out.reserve(ps.size());
  for (const hive::Partition& p : ps) out.push_back(ToThriftPartition(p));
  return out;
}

thrift::TPartitionIndexDescriptor ToThrift(const ops::PartitionIndexDescription& d) {
  thrift::TPartitionIndexDescriptor out;
  out.index_name = d.index_name;
  for (const ops::PartitionIndexKey& k : d.keys) {
    thrift::TPartitionIndexKey key;
    key.name = k.name;
    key.type = k.type;
    out.keys.push_back(std::move(key));
  }
  out.state = ToThrift(d.state);
  if (!d.backfill_errors.empty()) {
    std::vector<thrift::TPartitionIndexBackfillError> errors;
    for (const ops::BackfillError& e : d.backfill_errors) {
      thrift::TPartitionIndexBackfillError te;
      te.code = e.code;
      // An error without examples (a failure other than backfill) has none on the wire.
      if (!e.partitions.empty()) te.__set_partitions(e.partitions);
      errors.push_back(std::move(te));
    }
    out.__set_backfill_errors(std::move(errors));
  }
  return out;
}

}  // namespace ics::catalog::mds
