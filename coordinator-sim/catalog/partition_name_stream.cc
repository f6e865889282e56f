#include "coordinator-sim/catalog/partition_name_stream.h"

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
  if (!AtPartitionList() || elem_type != apache::thrift::protocol::T_STRUCT) return n;
  // The list header's size is only trusted as far as elements arrive: each
  // one is read (bounded by the connection protocol) before it is kept.
  impala::TPartialPartitionInfo p;
  for (uint32_t i = 0; i < size; ++i) {
    p = impala::TPartialPartitionInfo();
    n += p.read(in_.get());
    names_->emplace_back(p.id, std::move(p.name));
  }
  size = 0;  // the generated reader sees an empty list
  return n;
}

void RecvWithPartitionNames(impala::CatalogServiceClient& client,
                            impala::TGetPartialCatalogObjectResponse* resp,
                            PartitionNames* names) {
  names->clear();
  auto in = std::make_shared<PartitionNameStream>(client.getInputProtocol(), names);
  impala::CatalogServiceClient streaming(in, client.getOutputProtocol());
  streaming.recv_GetPartialCatalogObject(*resp);
}

}  // namespace ics::coord
