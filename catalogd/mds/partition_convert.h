// Conversions between PartitionService messages (TMetastorePartition, ...)
// and the metastore's hive::Partition, and the request limits the service
// enforces (taken from the seed API it is modelled on):
//   a partition value            <= 1024 characters
//   a field name / field type    <= 1024 characters (type must parse)
//   partition parameters          <= 10 KiB (sum of key and value bytes)
//   SerDe name / library          <= 256 characters; SerDe parameters <= 10 KiB
//   input / output format         <= 128 characters
//   location                      <= 4096 bytes
// Violations are INVALID_ARGUMENT naming the partition and the field.
//
// Thread-safety: stateless functions.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "PartitionService_types.h"
#include "catalogd/ddl/ddl_executor.h"
#include "hive_metastore_types.h"
#include "common/util/result.h"

namespace ics::catalog::mds {

inline constexpr size_t kMaxValueChars = 1024;
inline constexpr size_t kMaxFieldNameChars = 1024;
inline constexpr size_t kMaxFieldTypeChars = 1024;
inline constexpr size_t kMaxParameterBytes = 10 * 1024;
inline constexpr size_t kMaxSerDeChars = 256;
inline constexpr size_t kMaxFormatChars = 128;
inline constexpr size_t kMaxLocationBytes = 4096;

// Checks every limit above on one partition of a request.
[[nodiscard]] Status ValidatePartitionInput(const thrift::TMetastorePartition& p);

// The patch a create applies to the default new partition: the given
// storage-descriptor fields, fields (columns) and parameters.
PartitionPatch CreatePatch(const thrift::TMetastorePartition& p);

// The patch an update applies: the fields named by the mask (see
// TPartitionUpdate); INVALID_ARGUMENT for an unknown mask path.
Result<PartitionPatch> UpdatePatch(const thrift::TPartitionUpdate& u);

thrift::TMetastorePartition ToThriftPartition(const hive::Partition& p);

// Rough in-memory size of a partition message (for staging bounds).
int64_t ApproxBytes(const thrift::TMetastorePartition& p);

// "(v1, v2)" for messages.
std::string ValuesText(const std::vector<std::string>& values);

}  // namespace ics::catalog::mds
