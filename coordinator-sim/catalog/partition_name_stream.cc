#include "coordinator-sim/catalog/partition_name_stream.h"

#include "common/rpc/decode_budget.h"

namespace ics::coord {

using apache::thrift::protocol::TProtocol;
using apache::thrift::protocol::TType;

namespace {

// Field ids on the path to the partition list (CatalogService.thrift):
// the reply's success field, TGetPartialCatalogObjectResponse.table_info
// and TPartialTableInfo.partitions.
constexpr int16_t kSuccessField = 0;
constexpr int16_t kTableInfoField = 4;
constexpr int16_t kPartitionsField = 2;

}  // namespace

PartitionNameStream::PartitionNameStream(std::shared_ptr<TProtocol> in, PartitionNames* names)
    : TProtocolDecorator(in), in_(std::move(in)), names_(names) {}

uint32_t PartitionNameStream::readStructBegin_virt(std::string& name) {
  fields_.push_back(-1);
  return in_->readStructBegin(name);
}

uint32_t PartitionNameStream::readStructEnd_virt() {
  if (!fields_.empty()) fields_.pop_back();
  return in_->readStructEnd();
}

uint32_t PartitionNameStream::readFieldBegin_virt(std::string& name, TType& type, int16_t& id) {
  const uint32_t n = in_->readFieldBegin(name, type, id);
  if (!fields_.empty()) fields_.back() = id;
  return n;
}

bool PartitionNameStream::AtPartitionList() const {
  return fields_.size() == 3 && fields_[0] == kSuccessField && fields_[1] == kTableInfoField &&
         fields_[2] == kPartitionsField;
}

uint32_t PartitionNameStream::readListBegin_virt(TType& elem_type, uint32_t& size) {
  uint32_t n = in_->readListBegin(elem_type, size);
  // The element type is not checked: the generated reader does not check it
  // either, it reads each element as a struct.
  if (!AtPartitionList()) return n;
  // What the generated reader charges before its resize, for the pairs kept
  // instead: against the decode budget of the connection's bounded protocol
  // (which checked the header against the bytes that can still arrive), or
  // capped without one. Each element is then read, bounded, before it is kept.
  ChargeThriftList(size, sizeof(PartitionNames::value_type));
  names_->clear();  // a list sent twice: the last one holds, as in the generated reader
  names_->reserve(size);
  impala::TPartialPartitionInfo p;
  for (uint32_t i = 0; i < size; ++i) {
    p = impala::TPartialPartitionInfo();
    n += p.read(in_.get());
    names_->emplace_back(p.id, std::move(p.name));
  }
  size = 0;  // the generated reader sees an empty list
  return n;
}

uint32_t PartitionNameStream::skip_virt(TType type) { return in_->skip(type); }

void RecvWithPartitionNames(impala::CatalogServiceClient& client,
                            impala::TGetPartialCatalogObjectResponse* resp,
                            PartitionNames* names) {
  names->clear();
  auto in = std::make_shared<PartitionNameStream>(client.getInputProtocol(), names);
  impala::CatalogServiceClient streaming(in, client.getOutputProtocol());
  streaming.recv_GetPartialCatalogObject(*resp);
}

}  // namespace ics::coord
