// PartitionNameStream: reads a GetPartialCatalogObject reply whose
// table_info.partitions carry only ids and names (a table fetched with
// want_partition_names and no partition metadata), keeping each partition's
// (id, name) as it is read instead of materialising the whole list.
//
// The generated reader sizes a vector of TPartialPartitionInfo (several
// hundred bytes each, before strings) from the list header and fills it:
// for a table of 10^5 partitions that is tens of MB of fresh memory zeroed
// and faulted in for two fields per element, on the statement that first
// needs the table. This protocol sits between the generated reply reader
// and the connection's protocol: when the reader opens the list at
// reply.success(0).table_info(4).partitions(2), it reads the elements one
// at a time into one reused object, hands (id, name) to the sink and tells
// the generated reader the list is empty. Every other byte passes through
// unchanged, with the connection protocol's bounds and depth limits; the
// kept pairs are charged to its decode budget as the list would have been.
//
// Thread-safety: one reply at a time, like the protocol it wraps.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <thrift/protocol/TProtocolDecorator.h>

#include "CatalogService.h"

namespace ics::coord {

using PartitionNames = std::vector<std::pair<int64_t, std::string>>;

class PartitionNameStream : public apache::thrift::protocol::TProtocolDecorator {
 public:
  // `names` receives the partitions in wire order; it must outlive the read.
  PartitionNameStream(std::shared_ptr<apache::thrift::protocol::TProtocol> in,
                      PartitionNames* names);

  uint32_t readStructBegin_virt(std::string& name) override;
  uint32_t readStructEnd_virt() override;
  uint32_t readFieldBegin_virt(std::string& name, apache::thrift::protocol::TType& type,
                               int16_t& id) override;
  uint32_t readListBegin_virt(apache::thrift::protocol::TType& elem_type,
                              uint32_t& size) override;
  // Skipped values go to the wrapped protocol's own (bounded) skip, never
  // through the overrides above: a skipped struct is not the reply's.
  uint32_t skip_virt(apache::thrift::protocol::TType type) override;

 private:
  // Whether the reader is at reply.success.table_info.partitions.
  bool AtPartitionList() const;

  const std::shared_ptr<apache::thrift::protocol::TProtocol> in_;
  PartitionNames* const names_;
  std::vector<int16_t> fields_;  // per open struct: the id of its current field
};

// Receives one GetPartialCatalogObject reply on `client`'s connection (the
// request was sent with send_GetPartialCatalogObject), streaming the table's
// partitions into `names` (cleared first) as above; resp.table_info.partitions
// stays empty. Thrift exceptions propagate as from recv_GetPartialCatalogObject.
void RecvWithPartitionNames(impala::CatalogServiceClient& client,
                            impala::TGetPartialCatalogObjectResponse* resp, PartitionNames* names);

}  // namespace ics::coord
