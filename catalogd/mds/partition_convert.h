// Translation between PartitionService's wire messages
// (common/thrift/PartitionService.thrift: TMetastorePartition, ...) and the
// partition commands' domain values (catalogd/ops/partition_input.h,
// partition_requests.h). A field the wire leaves unset is absent (nullopt)
// in the domain value; nothing is validated here (the commands do).
//
// Thread-safety: stateless functions.
#pragma once

#include "PartitionService_types.h"
#include "catalogd/ops/partition_requests.h"
#include "hive_metastore_types.h"

namespace ics::catalog::mds {

ops::PartitionTable FromThrift(const thrift::TPartitionTableName& t);
ops::PartitionInput FromThrift(const thrift::TMetastorePartition& p);
ops::PartitionUpdateInput FromThrift(const thrift::TPartitionUpdate& u);
std::vector<ops::PartitionInput> FromThrift(const std::vector<thrift::TMetastorePartition>& ps);

// A stored partition as the wire returns it (every field set).
thrift::TMetastorePartition ToThriftPartition(const hive::Partition& p);
std::vector<thrift::TMetastorePartition> ToThriftPartitions(const std::vector<hive::Partition>& ps);

thrift::TPartitionIndexDescriptor ToThrift(const ops::PartitionIndexDescription& d);

}  // namespace ics::catalog::mds
