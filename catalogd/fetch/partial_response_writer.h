// Serializes a GetPartialCatalogObject answer whose table partitions were
// left unrendered (PartitionRendering::kDeferred in table_fetch.h): each
// partition is written straight from its state while the answer is
// written (no TPartialPartitionInfo is built; on the binary protocol its
// strings and file descriptors go to the transport as they are), instead
// of as a list built first and copied out. The
// bytes are exactly those of the generated TGetPartialCatalogObjectResponse
// writer over the fully rendered answer, on any protocol.
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

}  // namespace ics::catalog
