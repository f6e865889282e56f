#include "catalogd/mds/partition_convert.h"

#include <set>

#include "common/hive/names.h"
#include "common/hive/table_params.h"
#include "common/types/column_type.h"
#include "common/util/utf8.h"

namespace ics::catalog::mds {

namespace {

using thrift::TMetastorePartition;

size_t MapBytes(const std::map<std::string, std::string>& m) {
  size_t n = 0;
  for (const auto& [k, v] : m) n += k.size() + v.size();
  return n;
}

Status TooLong(const TMetastorePartition& p, const std::string& what, size_t limit,
               const char* unit) {
  return Status::InvalidArgument("partition " + ValuesText(p.values) + ": " + what +
                                 " is longer than " + std::to_string(limit) + " " + unit);
}

Result<std::vector<hive::FieldSchema>> ToFields(const std::vector<thrift::TPartitionFieldSchema>& in) {
  std::vector<hive::FieldSchema> out;
  std::set<std::string> seen;
  for (const thrift::TPartitionFieldSchema& f : in) {
    ICS_ASSIGN_OR_RETURN(std::string name, NormalizeColumnName(f.name));
    if (!seen.insert(name).second) {
      return Status::InvalidArgument("field '" + name + "' is listed more than once");
    }
    ICS_ASSIGN_OR_RETURN(impala::TColumnType type, ParseHiveType(f.type));
    hive::FieldSchema fs;
    fs.name = std::move(name);
    fs.type = TypeToString(type);
    if (f.__isset.comment) fs.comment = f.comment;
    out.push_back(std::move(fs));
  }
  return out;
}

void ApplySerDe(const thrift::TPartitionSerDeInfo& in, hive::SerDeInfo* out) {
  if (in.__isset.name) out->name = in.name;
  if (in.__isset.serialization_library) out->serializationLib = in.serialization_library;
  if (in.__isset.parameters) out->parameters = in.parameters;
}

void ApplyStorage(const thrift::TPartitionStorageDescriptor& sd, hive::StorageDescriptor* out) {
  if (sd.__isset.location_uri && !sd.location_uri.empty()) out->location = sd.location_uri;
  if (sd.__isset.input_format) out->inputFormat = sd.input_format;
  if (sd.__isset.output_format) out->outputFormat = sd.output_format;
  if (sd.__isset.serde_info) ApplySerDe(sd.serde_info, &out->serdeInfo);
}

}  // namespace

std::string ValuesText(const std::vector<std::string>& values) {
  std::string out = "(";
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out += ", ";
    out += values[i].size() > 64 ? "'" + values[i].substr(0, 64) + "...'" : "'" + values[i] + "'";
  }
  return out + ")";
}

Status ValidatePartitionInput(const TMetastorePartition& p) {
  if (p.values.empty()) return Status::InvalidArgument("a partition needs its values");
  for (size_t i = 0; i < p.values.size(); ++i) {
    if (Utf8Length(p.values[i]) > kMaxValueChars) {
      return TooLong(p, "value #" + std::to_string(i + 1), kMaxValueChars, "characters");
    }
  }
  if (p.__isset.parameters && MapBytes(p.parameters) > kMaxParameterBytes) {
    return TooLong(p, "parameters", kMaxParameterBytes, "bytes");
  }
  if (p.__isset.fields) {
    for (const thrift::TPartitionFieldSchema& f : p.fields) {
      if (f.name.empty() || f.type.empty()) {
        return Status::InvalidArgument("partition " + ValuesText(p.values) +
                                       ": a field needs a name and a type");
      }
      if (Utf8Length(f.name) > kMaxFieldNameChars) {
        return TooLong(p, "field name", kMaxFieldNameChars, "characters");
      }
      if (Utf8Length(f.type) > kMaxFieldTypeChars) {
        return TooLong(p, "type of field '" + f.name.substr(0, 64) + "'", kMaxFieldTypeChars,
                       "characters");
      }
    }
    Result<std::vector<hive::FieldSchema>> fields = ToFields(p.fields);
    if (!fields.ok()) return fields.status().WithContext("partition " + ValuesText(p.values));
  }
  if (p.__isset.storage_descriptor) {
    const thrift::TPartitionStorageDescriptor& sd = p.storage_descriptor;
    if (sd.location_uri.size() > kMaxLocationBytes) {
      return TooLong(p, "location", kMaxLocationBytes, "bytes");
    }
    if (Utf8Length(sd.input_format) > kMaxFormatChars) {
      return TooLong(p, "input format", kMaxFormatChars, "characters");
    }
    if (Utf8Length(sd.output_format) > kMaxFormatChars) {
      return TooLong(p, "output format", kMaxFormatChars, "characters");
    }
    if (sd.__isset.serde_info) {
      const thrift::TPartitionSerDeInfo& s = sd.serde_info;
      if (Utf8Length(s.name) > kMaxSerDeChars)
        return TooLong(p, "SerDe name", kMaxSerDeChars, "characters");
      if (Utf8Length(s.serialization_library) > kMaxSerDeChars) {
        return TooLong(p, "SerDe serialization library", kMaxSerDeChars, "characters");
      }
      if (MapBytes(s.parameters) > kMaxParameterBytes) {
        return TooLong(p, "SerDe parameters", kMaxParameterBytes, "bytes");
      }
    }
  }
  return Status::OK();
}

PartitionPatch CreatePatch(const TMetastorePartition& p) {
  return [p](hive::Partition* part) -> Status {
    if (p.__isset.storage_descriptor) ApplyStorage(p.storage_descriptor, &part->sd);
    if (p.__isset.fields) {
      ICS_ASSIGN_OR_RETURN(part->sd.cols, ToFields(p.fields));
    }
    if (p.__isset.parameters) {
      for (const auto& [k, v] : p.parameters) part->parameters[k] = v;
    }
    return Status::OK();
  };
}

Result<PartitionPatch> UpdatePatch(const thrift::TPartitionUpdate& u) {
  static const std::set<std::string> kPaths = {
      "storage_descriptor",        "storage_descriptor.location_uri",
      "storage_descriptor.input_format", "storage_descriptor.output_format",
      "storage_descriptor.serde_info",   "parameters",
      "fields"};
  std::set<std::string> mask;
  if (u.__isset.update_mask) {
    for (const std::string& path : u.update_mask) {
      if (kPaths.count(path) == 0) {
        std::string known;
        for (const std::string& k : kPaths) known += (known.empty() ? "" : ", ") + k;
        return Status::InvalidArgument("unknown update_mask path '" + path + "' (known: " + known +
                                       ")");
      }
      mask.insert(path);
    }
  }
  if (mask.empty()) mask = kPaths;
  const TMetastorePartition p = u.partition;
  return PartitionPatch([p, mask](hive::Partition* part) -> Status {
    auto has = [&](const char* path) { return mask.count(path) != 0; };
    const thrift::TPartitionStorageDescriptor& sd = p.storage_descriptor;
    const bool all_sd = has("storage_descriptor");
    if ((all_sd || has("storage_descriptor.location_uri")) && !sd.location_uri.empty()) {
      part->sd.location = sd.location_uri;
    }
    if (all_sd || has("storage_descriptor.input_format")) part->sd.inputFormat = sd.input_format;
    if (all_sd || has("storage_descriptor.output_format")) part->sd.outputFormat = sd.output_format;
    if (all_sd || has("storage_descriptor.serde_info")) {
      part->sd.serdeInfo = hive::SerDeInfo();
      ApplySerDe(sd.serde_info, &part->sd.serdeInfo);
    }
    if (has("parameters")) {
      const std::string ddl_time =
          part->parameters.count(kLastDdlTimeParam) ? part->parameters[kLastDdlTimeParam] : "";
      part->parameters = p.parameters;
      if (!ddl_time.empty() && p.parameters.count(kLastDdlTimeParam) == 0) {
        part->parameters[kLastDdlTimeParam] = ddl_time;
      }
    }
    if (has("fields")) {
      ICS_ASSIGN_OR_RETURN(part->sd.cols, ToFields(p.fields));
    }
    return Status::OK();
  });
}

TMetastorePartition ToThriftPartition(const hive::Partition& p) {
  TMetastorePartition out;
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

int64_t ApproxBytes(const TMetastorePartition& p) {
  int64_t n = 64;
  for (const std::string& v : p.values) n += static_cast<int64_t>(v.size()) + 16;
  n += static_cast<int64_t>(MapBytes(p.parameters)) + 32 * static_cast<int64_t>(p.parameters.size());
  const thrift::TPartitionStorageDescriptor& sd = p.storage_descriptor;
  n += static_cast<int64_t>(sd.location_uri.size() + sd.input_format.size() + sd.output_format.size() +
                            sd.serde_info.name.size() + sd.serde_info.serialization_library.size() +
                            MapBytes(sd.serde_info.parameters));
  for (const auto& f : p.fields) n += static_cast<int64_t>(f.name.size() + f.type.size() + f.comment.size()) + 32;
  return n;
}

}  // namespace ics::catalog::mds
