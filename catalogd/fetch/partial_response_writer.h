// Serializes a GetPartialCatalogObject answer whose table partitions were
// selected but not rendered (TableFetchResult::selected in table_fetch.h):
// each partition is written straight from its state while the answer is
// written (no TPartialPartitionInfo is built; on the binary protocol its
// strings and file descriptors go to the transport as they are), instead of
// as a list built first and copied out. This is the one place that renders
// a partition by the selector's per-partition rules (table_fetch.h); an
// answer needed in memory is this writer's output decoded
// (MaterializeAnswer). The bytes are what the generated
// TGetPartialCatalogObjectResponse writer writes for that decoded answer,
// on any protocol (partial_response_writer_test).
//
// Thread-safety: stateless; the partitions must stay alive while writing.
#pragma once

#include <cstdint>
#include <vector>

#include <thrift/protocol/TProtocol.h>

#include "CatalogService_types.h"
#include "catalogd/catalog/table_state.h"

namespace ics::catalog {

// The partitions of resp.table_info that are written from the state.
struct DeferredPartitions {
  const std::vector<const PartitionState*>* partitions = nullptr;
  const impala::TTableInfoSelector* selector = nullptr;
};

// Writes `resp` with table_info.partitions taken from `deferred` (resp's own
// table_info.partitions is ignored). Returns the bytes written, as the
// generated writers do.
uint32_t WritePartialObjectResponse(apache::thrift::protocol::TProtocol* out,
                                    const impala::TGetPartialCatalogObjectResponse& resp,
                                    const DeferredPartitions& deferred);

// The answer a reader decodes from WritePartialObjectResponse(resp,
// deferred): resp with table_info.partitions rendered from `deferred`.
// Thrift and allocation exceptions propagate.
impala::TGetPartialCatalogObjectResponse MaterializeAnswer(
    const impala::TGetPartialCatalogObjectResponse& resp, const DeferredPartitions& deferred);

// One partition as the writer renders it, decoded.
impala::TPartialPartitionInfo RenderPartitionInfo(const PartitionState& partition,
                                                  const impala::TTableInfoSelector& selector);

}  // namespace ics::catalog
