// PartitionInput: a partition as a door hands it to the partition commands
// (partition_commands.h) — its values and the parts of its definition the
// caller gives — and the limits every partition a request carries is
// checked against (taken from the seed API the partition commands are
// modelled on):
//   a partition value            <= 1024 characters
//   a field name / field type    <= 1024 characters (type must parse)
//   partition parameters          <= 10 KiB (sum of key and value bytes)
//   SerDe name / library          <= 256 characters; SerDe parameters <= 10 KiB
//   input / output format         <= 128 characters
//   location                      <= 4096 bytes
// Violations are INVALID_ARGUMENT naming the partition and the field.
//
// An absent (nullopt) part is one the caller did not give: on create it is
// taken from the table (storage) or the default (columns = the table's data
// columns); on update the mask decides (PartitionUpdateInput).
//
// Thread-safety: value types and stateless functions.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "catalogd/ddl/ddl_executor.h"
#include "common/util/result.h"
#include "hive_metastore_types.h"

namespace ics::catalog::ops {

inline constexpr size_t kMaxValueChars = 1024;
inline constexpr size_t kMaxFieldNameChars = 1024;
inline constexpr size_t kMaxFieldTypeChars = 1024;
inline constexpr size_t kMaxParameterBytes = 10 * 1024;
inline constexpr size_t kMaxSerDeChars = 256;
inline constexpr size_t kMaxFormatChars = 128;
inline constexpr size_t kMaxPartitionLocationBytes = 4096;

struct PartitionSerDeInput {
  std::optional<std::string> name;
  std::optional<std::string> serialization_library;
  std::optional<std::map<std::string, std::string>> parameters;
};

struct PartitionStorageInput {
  // Absolute directory ("/path" or "file:/path"); empty counts as absent.
  // Default on create: <table location>/<k1=v1/k2=v2>.
  std::optional<std::string> location_uri;
  std::optional<std::string> input_format;
  std::optional<std::string> output_format;
  std::optional<PartitionSerDeInput> serde_info;
};

struct PartitionInput {
  // One per partition key, in key order: the partition's identity.
  std::vector<std::string> values;
  std::optional<PartitionStorageInput> storage;
  std::optional<std::map<std::string, std::string>> parameters;
  // The partition's columns (name, Hive type, comment; "" = no comment).
  std::optional<std::vector<hive::FieldSchema>> fields;
};

// An update of one partition: the fields named by `update_mask` are
// replaced by `partition`'s: "storage_descriptor" (all of it),
// "storage_descriptor.location_uri", "storage_descriptor.input_format",
// "storage_descriptor.output_format", "storage_descriptor.serde_info",
// "parameters", "fields". Empty: every one of them. An absent part of
// `partition` that the mask names is replaced by empty.
struct PartitionUpdateInput {
  PartitionInput partition;
  std::vector<std::string> update_mask;
};

// Checks every limit above on one partition of a request.
[[nodiscard]] Status ValidatePartitionInput(const PartitionInput& p);

// The patch a create applies to the default new partition: the given
// storage fields, fields (columns) and parameters.
PartitionPatch CreatePatch(const PartitionInput& p);

// The patch an update applies: the fields named by the mask;
// INVALID_ARGUMENT for an unknown mask path.
Result<PartitionPatch> UpdatePatch(const PartitionUpdateInput& u);

// Rough in-memory size of a partition input (for staging bounds).
int64_t ApproxBytes(const PartitionInput& p);

// "(v1, v2)" for messages.
std::string ValuesText(const std::vector<std::string>& values);

}  // namespace ics::catalog::ops
