#include "catalogd/ops/partition_input.h"

#include <set>

#include "common/hive/names.h"
#include "common/hive/table_params.h"
#include "common/types/column_type.h"
#include "common/util/utf8.h"

namespace ics::catalog::ops {

namespace {

using StringMap = std::map<std::string, std::string>;

size_t MapBytes(const StringMap& m) {
  size_t n = 0;
  for (const auto& [k, v] : m) n += k.size() + v.size();
  return n;
}

size_t Chars(const std::optional<std::string>& s) { return s ? Utf8Length(*s) : 0; }

Status TooLong(const PartitionInput& p, const std::string& what, size_t limit, const char* unit) {
  return Status::InvalidArgument("partition " + ValuesText(p.values) + ": " + what +
                                 " is longer than " + std::to_string(limit) + " " + unit);
}

Result<std::vector<hive::FieldSchema>> ToFields(const std::vector<hive::FieldSchema>& in) {
  std::vector<hive::FieldSchema> out;
  std::set<std::string> seen;
  for (const hive::FieldSchema& f : in) {
    ICS_ASSIGN_OR_RETURN(std::string name, NormalizeColumnName(f.name));
    if (!seen.insert(name).second) {
      return Status::InvalidArgument("field '" + name + "' is listed more than once");
    }
    ICS_ASSIGN_OR_RETURN(impala::TColumnType type, ParseHiveType(f.type));
    hive::FieldSchema fs;
    fs.name = std::move(name);
    fs.type = TypeToString(type);
    fs.comment = f.comment;
    out.push_back(std::move(fs));
  }
  return out;
}

void ApplySerDe(const PartitionSerDeInput& in, hive::SerDeInfo* out) {
  if (in.name) out->name = *in.name;
  if (in.serialization_library) out->serializationLib = *in.serialization_library;
  if (in.parameters) out->parameters = *in.parameters;
}

void ApplyStorage(const PartitionStorageInput& sd, hive::StorageDescriptor* out) {
  if (sd.location_uri && !sd.location_uri->empty()) out->location = *sd.location_uri;
  if (sd.input_format) out->inputFormat = *sd.input_format;
  if (sd.output_format) out->outputFormat = *sd.output_format;
  if (sd.serde_info) ApplySerDe(*sd.serde_info, &out->serdeInfo);
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

Status ValidatePartitionInput(const PartitionInput& p) {
  if (p.values.empty()) return Status::InvalidArgument("a partition needs its values");
  for (size_t i = 0; i < p.values.size(); ++i) {
    if (Utf8Length(p.values[i]) > kMaxValueChars) {
      return TooLong(p, "value #" + std::to_string(i + 1), kMaxValueChars, "characters");
    }
  }
  if (p.parameters && MapBytes(*p.parameters) > kMaxParameterBytes) {
    return TooLong(p, "parameters", kMaxParameterBytes, "bytes");
  }
  if (p.fields) {
    for (const hive::FieldSchema& f : *p.fields) {
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
    Result<std::vector<hive::FieldSchema>> fields = ToFields(*p.fields);
    if (!fields.ok()) return fields.status().WithContext("partition " + ValuesText(p.values));
  }
  if (p.storage) {
    const PartitionStorageInput& sd = *p.storage;
    if (sd.location_uri && sd.location_uri->size() > kMaxPartitionLocationBytes) {
      return TooLong(p, "location", kMaxPartitionLocationBytes, "bytes");
    }
    if (Chars(sd.input_format) > kMaxFormatChars) {
      return TooLong(p, "input format", kMaxFormatChars, "characters");
    }
    if (Chars(sd.output_format) > kMaxFormatChars) {
      return TooLong(p, "output format", kMaxFormatChars, "characters");
    }
    if (sd.serde_info) {
      const PartitionSerDeInput& s = *sd.serde_info;
      if (Chars(s.name) > kMaxSerDeChars) {
        return TooLong(p, "SerDe name", kMaxSerDeChars, "characters");
      }
      if (Chars(s.serialization_library) > kMaxSerDeChars) {
        return TooLong(p, "SerDe serialization library", kMaxSerDeChars, "characters");
      }
      if (s.parameters && MapBytes(*s.parameters) > kMaxParameterBytes) {
        return TooLong(p, "SerDe parameters", kMaxParameterBytes, "bytes");
      }
    }
  }
  return Status::OK();
}

PartitionPatch CreatePatch(const PartitionInput& p) {
  return [p](hive::Partition* part) -> Status {
    if (p.storage) ApplyStorage(*p.storage, &part->sd);
    if (p.fields) {
      ICS_ASSIGN_OR_RETURN(part->sd.cols, ToFields(*p.fields));
    }
    if (p.parameters) {
      for (const auto& [k, v] : *p.parameters) part->parameters[k] = v;
    }
    return Status::OK();
  };
}

Result<PartitionPatch> UpdatePatch(const PartitionUpdateInput& u) {
  static const std::set<std::string> kPaths = {"storage_descriptor",
                                               "storage_descriptor.location_uri",
                                               "storage_descriptor.input_format",
                                               "storage_descriptor.output_format",
                                               "storage_descriptor.serde_info",
                                               "parameters",
                                               "fields"};
  std::set<std::string> mask;
  for (const std::string& path : u.update_mask) {
    if (kPaths.count(path) == 0) {
      std::string known;
      for (const std::string& k : kPaths) known += (known.empty() ? "" : ", ") + k;
      return Status::InvalidArgument("unknown update_mask path '" + path + "' (known: " + known +
                                     ")");
    }
    mask.insert(path);
  }
  if (mask.empty()) mask = kPaths;
  const PartitionInput p = u.partition;
  return PartitionPatch([p, mask](hive::Partition* part) -> Status {
    auto has = [&](const char* path) { return mask.count(path) != 0; };
    const PartitionStorageInput sd = p.storage.value_or(PartitionStorageInput());
    const bool all_sd = has("storage_descriptor");
    if ((all_sd || has("storage_descriptor.location_uri")) && sd.location_uri &&
        !sd.location_uri->empty()) {
      part->sd.location = *sd.location_uri;
    }
    if (all_sd || has("storage_descriptor.input_format")) {
      part->sd.inputFormat = sd.input_format.value_or("");
    }
    if (all_sd || has("storage_descriptor.output_format")) {
      part->sd.outputFormat = sd.output_format.value_or("");
    }
    if (all_sd || has("storage_descriptor.serde_info")) {
      part->sd.serdeInfo = hive::SerDeInfo();
      if (sd.serde_info) ApplySerDe(*sd.serde_info, &part->sd.serdeInfo);
    }
    if (has("parameters")) {
      const std::string ddl_time =
          part->parameters.count(kLastDdlTimeParam) ? part->parameters[kLastDdlTimeParam] : "";
      part->parameters = p.parameters.value_or(StringMap());
      if (!ddl_time.empty() && part->parameters.count(kLastDdlTimeParam) == 0) {
        part->parameters[kLastDdlTimeParam] = ddl_time;
      }
    }
    if (has("fields")) {
      ICS_ASSIGN_OR_RETURN(part->sd.cols,
                           ToFields(p.fields.value_or(std::vector<hive::FieldSchema>())));
    }
    return Status::OK();
  });
}

int64_t ApproxBytes(const PartitionInput& p) {
  auto size = [](const std::optional<std::string>& s) { return s ? s->size() : 0; };
  int64_t n = 64;
  for (const std::string& v : p.values) n += static_cast<int64_t>(v.size()) + 16;
  if (p.parameters) {
    n += static_cast<int64_t>(MapBytes(*p.parameters)) +
         32 * static_cast<int64_t>(p.parameters->size());
  }
  if (p.storage) {
    const PartitionStorageInput& sd = *p.storage;
    n += static_cast<int64_t>(size(sd.location_uri) + size(sd.input_format) +
                              size(sd.output_format));
    if (sd.serde_info) {
      const PartitionSerDeInput& s = *sd.serde_info;
      n += static_cast<int64_t>(size(s.name) + size(s.serialization_library) +
                                (s.parameters ? MapBytes(*s.parameters) : 0));
    }
  }
  if (p.fields) {
    for (const auto& f : *p.fields) {
      n += static_cast<int64_t>(f.name.size() + f.type.size() + f.comment.size()) + 32;
    }
  }
  return n;
}

}  // namespace ics::catalog::ops
