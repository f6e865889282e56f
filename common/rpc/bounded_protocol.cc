#include "common/rpc/bounded_protocol.h"

#include <algorithm>

#include <thrift/protocol/TBinaryProtocol.h>
#include <thrift/protocol/TProtocolException.h>

namespace ics {

using apache::thrift::protocol::TMessageType;
using apache::thrift::protocol::TProtocol;
using apache::thrift::protocol::TProtocolDecorator;
using apache::thrift::protocol::TProtocolException;
using apache::thrift::protocol::TType;

namespace {

// What one map or set node costs beyond its key and value (the tree node and
// its allocation header), charged when the header is read.
constexpr int64_t kContainerNodeBytes = 64;
// Strings are read in chunks of this size as their bytes arrive.
constexpr uint32_t kStringChunkBytes = 1u << 20;

}  // namespace

BoundedProtocol::BoundedProtocol(std::shared_ptr<TProtocol> inner, Options options)
    : TProtocolDecorator(inner),
      inner_(std::move(inner)),
      options_(options),
      budget_(options.limits) {}

int64_t BoundedProtocol::MinBytes(TType type) const {
  // Thrift counts a struct (and void) as 0 bytes; every value takes at least one.
  return std::max<int64_t>(1, inner_->getMinSerializedSize(type));
}

uint32_t BoundedProtocol::readMessageBegin_virt(std::string& name, TMessageType& type,
                                                int32_t& seqid) {
  budget_.Reset();
  message_name_.clear();
  message_seqid_ = 0;
  reading_message_ = false;
  const uint32_t n = Count(TProtocolDecorator::readMessageBegin_virt(name, type, seqid));
  message_name_ = name;
  message_seqid_ = seqid;
  reading_message_ = true;
  return n;
}

uint32_t BoundedProtocol::readMessageEnd_virt() {
  const uint32_t n = TProtocolDecorator::readMessageEnd_virt();
  reading_message_ = false;
  if (!options_.hold_until_reset) budget_.Reset();
  return n;
}

uint32_t BoundedProtocol::readStructBegin_virt(std::string& name) {
  return Count(TProtocolDecorator::readStructBegin_virt(name));
}
uint32_t BoundedProtocol::readStructEnd_virt() {
  return Count(TProtocolDecorator::readStructEnd_virt());
}
uint32_t BoundedProtocol::readFieldBegin_virt(std::string& name, TType& type, int16_t& id) {
  return Count(TProtocolDecorator::readFieldBegin_virt(name, type, id));
}
uint32_t BoundedProtocol::readFieldEnd_virt() {
  return Count(TProtocolDecorator::readFieldEnd_virt());
}

uint32_t BoundedProtocol::ReadBinaryType(TType& type) {
  int8_t t = 0;
  const uint32_t n = Count(TProtocolDecorator::readByte_virt(t));
  type = static_cast<TType>(t);
  return n;
}

uint32_t BoundedProtocol::ReadBinarySize(uint32_t& size, const char* what) {
  int32_t s = 0;
  const uint32_t n = Count(TProtocolDecorator::readI32_virt(s));
  if (s < 0) {
    throw TProtocolException(TProtocolException::NEGATIVE_SIZE,
                             std::string("negative ") + what + " size " + std::to_string(s));
  }
  size = static_cast<uint32_t>(s);
  return n;
}

uint32_t BoundedProtocol::readMapBegin_virt(TType& key_type, TType& value_type, uint32_t& size) {
  uint32_t n = 0;
  if (options_.binary_inner) {
    n = ReadBinaryType(key_type);
    n += ReadBinaryType(value_type);
    n += ReadBinarySize(size, "map");
  } else {
    n = Count(TProtocolDecorator::readMapBegin_virt(key_type, value_type, size));
  }
  budget_.CheckWire(size, MinBytes(key_type) + MinBytes(value_type), "map");
  budget_.ChargeMemory(static_cast<int64_t>(size) * kContainerNodeBytes, "map");
  return n;
}
uint32_t BoundedProtocol::readMapEnd_virt() { return Count(TProtocolDecorator::readMapEnd_virt()); }

uint32_t BoundedProtocol::readListBegin_virt(TType& elem_type, uint32_t& size) {
  uint32_t n = 0;
  if (options_.binary_inner) {
    n = ReadBinaryType(elem_type);
    n += ReadBinarySize(size, "list");
  } else {
    n = Count(TProtocolDecorator::readListBegin_virt(elem_type, size));
  }
  budget_.CheckWire(size, MinBytes(elem_type), "list");
  NoteThriftListHeader(&budget_, size);
  return n;
}
uint32_t BoundedProtocol::readListEnd_virt() {
  return Count(TProtocolDecorator::readListEnd_virt());
}

uint32_t BoundedProtocol::readSetBegin_virt(TType& elem_type, uint32_t& size) {
  uint32_t n = 0;
  if (options_.binary_inner) {
    n = ReadBinaryType(elem_type);
    n += ReadBinarySize(size, "set");
  } else {
    n = Count(TProtocolDecorator::readSetBegin_virt(elem_type, size));
  }
  budget_.CheckWire(size, MinBytes(elem_type), "set");
  budget_.ChargeMemory(static_cast<int64_t>(size) * kContainerNodeBytes, "set");
  return n;
}
uint32_t BoundedProtocol::readSetEnd_virt() { return Count(TProtocolDecorator::readSetEnd_virt()); }

uint32_t BoundedProtocol::readBool_virt(bool& value) {
  return Count(TProtocolDecorator::readBool_virt(value));
}
uint32_t BoundedProtocol::readBool_virt(std::vector<bool>::reference value) {
  return Count(TProtocolDecorator::readBool_virt(value));
}
uint32_t BoundedProtocol::readByte_virt(int8_t& value) {
  return Count(TProtocolDecorator::readByte_virt(value));
}
uint32_t BoundedProtocol::readI16_virt(int16_t& value) {
  return Count(TProtocolDecorator::readI16_virt(value));
}
uint32_t BoundedProtocol::readI32_virt(int32_t& value) {
  return Count(TProtocolDecorator::readI32_virt(value));
}
uint32_t BoundedProtocol::readI64_virt(int64_t& value) {
  return Count(TProtocolDecorator::readI64_virt(value));
}
uint32_t BoundedProtocol::readDouble_virt(double& value) {
  return Count(TProtocolDecorator::readDouble_virt(value));
}

uint32_t BoundedProtocol::readString_virt(std::string& str) { return ReadBytes(str); }
uint32_t BoundedProtocol::readBinary_virt(std::string& str) { return ReadBytes(str); }

uint32_t BoundedProtocol::ReadBytes(std::string& str) {
  if (options_.binary_inner) return ReadStreamedBytes(str);
  const uint32_t n = Count(TProtocolDecorator::readBinary_virt(str));
  budget_.ChargeMemory(static_cast<int64_t>(str.size()), "string");
  return n;
}

uint32_t BoundedProtocol::ReadStreamedBytes(std::string& str) {
  int32_t size = 0;
  const uint32_t header = Count(TProtocolDecorator::readI32_virt(size));
  if (size < 0) {
    throw TProtocolException(TProtocolException::NEGATIVE_SIZE,
                             "negative string length " + std::to_string(size));
  }
  budget_.CheckWire(size, 1, "string");
  budget_.ChargeMemory(size, "string");
  str.clear();
  const uint32_t total = static_cast<uint32_t>(size);
  str.reserve(std::min(total, kStringChunkBytes));
  uint32_t got = 0;
  while (got < total) {
    const uint32_t chunk = std::min(total - got, kStringChunkBytes);
    str.resize(got + chunk);
    ptrans_->readAll(reinterpret_cast<uint8_t*>(&str[got]), chunk);
    got += chunk;
  }
  return header + Count(total);
}

uint32_t BoundedProtocol::skip_virt(TType type) {
  // Through this object, so everything skipped is bounded and counted.
  return apache::thrift::protocol::skip(*this, type);
}

bool SpeaksBinary(apache::thrift::protocol::TProtocol* p) {
  if (dynamic_cast<apache::thrift::protocol::TBinaryProtocol*>(p) != nullptr) return true;
  auto* bounded = dynamic_cast<BoundedProtocol*>(p);
  return bounded != nullptr && bounded->binary_inner();
}

}  // namespace ics
