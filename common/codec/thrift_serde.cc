#include "common/codec/thrift_serde.h"

#include <algorithm>
#include <limits>
#include <memory>

#include <thrift/TConfiguration.h>
#include <thrift/protocol/TBinaryProtocol.h>
#include <thrift/protocol/TCompactProtocol.h>
#include <thrift/protocol/TProtocolException.h>
#include <thrift/transport/TBufferTransports.h>

#include "common/rpc/bounded_protocol.h"

namespace ics {

using apache::thrift::TConfiguration;
using apache::thrift::TException;
using apache::thrift::protocol::TBinaryProtocolT;
using apache::thrift::protocol::TCompactProtocolT;
using apache::thrift::transport::TMemoryBuffer;

Result<std::string> SerializeThrift(const apache::thrift::TBase& obj, ThriftProtocol protocol) {
  try {
    auto buffer = std::make_shared<TMemoryBuffer>();
    if (protocol == ThriftProtocol::kBinary) {
      TBinaryProtocolT<TMemoryBuffer> proto(buffer);
      obj.write(&proto);
    } else {
      TCompactProtocolT<TMemoryBuffer> proto(buffer);
      obj.write(&proto);
    }
    return buffer->getBufferAsString();
  } catch (const TException& e) {
    return Status::Internal(std::string("thrift serialization failed: ") + e.what());
  }
}

namespace {

// What decoding `input_bytes` may allocate: 64 bytes per input byte (a
// struct element of one byte on the wire can be hundreds in memory; real
// catalog objects stay far below), and at least 16 MiB. The input is already
// in memory, so only this ratio bounds what hostile bytes can make us
// allocate.
int64_t DecodeMemoryBudget(size_t input_bytes) {
  return std::max<int64_t>(static_cast<int64_t>(input_bytes) * 64, 16ll << 20);
}

}  // namespace

Status DeserializeThrift(std::string_view bytes, apache::thrift::TBase* out,
                         ThriftProtocol protocol, size_t max_bytes) {
  if (bytes.size() > max_bytes) {
    return Status::LimitExceeded("thrift message of " + std::to_string(bytes.size()) +
                                 " bytes exceeds the limit of " + std::to_string(max_bytes));
  }
  // No string or container can be longer than the input itself.
  const int32_t limit = static_cast<int32_t>(
      std::min<size_t>(std::max<size_t>(bytes.size(), 1), std::numeric_limits<int32_t>::max()));
  try {
    auto config = std::make_shared<TConfiguration>(limit, limit);
    // OBSERVE: the buffer reads `bytes` in place and never writes to it.
    auto buffer = std::make_shared<TMemoryBuffer>(
        reinterpret_cast<uint8_t*>(const_cast<char*>(bytes.data())),
        static_cast<uint32_t>(bytes.size()), TMemoryBuffer::OBSERVE, config);
    std::shared_ptr<apache::thrift::protocol::TProtocol> inner;
    if (protocol == ThriftProtocol::kBinary) {
      inner = std::make_shared<TBinaryProtocolT<TMemoryBuffer>>(buffer, limit, limit,
                                                                /*strict_read=*/false,
                                                                /*strict_write=*/true);
    } else {
      inner = std::make_shared<TCompactProtocolT<TMemoryBuffer>>(buffer, limit, limit);
    }
    BoundedProtocol::Options bounds;
    bounds.limits = {static_cast<int64_t>(bytes.size()), DecodeMemoryBudget(bytes.size()),
                     /*process_wide=*/false};
    bounds.binary_inner = protocol == ThriftProtocol::kBinary;
    BoundedProtocol proto(std::move(inner), bounds);
    out->read(&proto);
    const uint32_t left = buffer->available_read();
    if (left != 0) {
      return Status::Corruption("thrift message has " + std::to_string(left) +
                                " trailing bytes after the struct");
    }
    return Status::OK();
  } catch (const apache::thrift::protocol::TProtocolException& e) {
    if (e.getType() == apache::thrift::protocol::TProtocolException::SIZE_LIMIT) {
      return Status::LimitExceeded(std::string("thrift message rejected: ") + e.what());
    }
    return Status::Corruption(std::string("malformed thrift message: ") + e.what());
  } catch (const TException& e) {
    return Status::Corruption(std::string("malformed thrift message: ") + e.what());
  } catch (const std::exception& e) {
    return Status::Corruption(std::string("thrift message could not be decoded: ") + e.what());
  }
}

}  // namespace ics
