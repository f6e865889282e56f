#include "common/codec/thrift_serde.h"

#include <limits>
#include <memory>

#include <thrift/TConfiguration.h>
#include <thrift/protocol/TBinaryProtocol.h>
#include <thrift/protocol/TCompactProtocol.h>
#include <thrift/transport/TBufferTransports.h>

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

Status DeserializeThrift(std::string_view bytes, apache::thrift::TBase* out,
                         ThriftProtocol protocol, size_t max_bytes) {
  if (bytes.size() > max_bytes) {
    return Status::LimitExceeded("thrift message of " + std::to_string(bytes.size()) +
                                 " bytes exceeds the limit of " + std::to_string(max_bytes));
  }
  const int32_t limit = static_cast<int32_t>(
      std::min<size_t>(max_bytes, std::numeric_limits<int32_t>::max()));
  try {
    auto config = std::make_shared<TConfiguration>(limit, limit);
    // OBSERVE: the buffer reads `bytes` in place and never writes to it.
    auto buffer = std::make_shared<TMemoryBuffer>(
        reinterpret_cast<uint8_t*>(const_cast<char*>(bytes.data())),
        static_cast<uint32_t>(bytes.size()), TMemoryBuffer::OBSERVE, config);
    if (protocol == ThriftProtocol::kBinary) {
      TBinaryProtocolT<TMemoryBuffer> proto(buffer, limit, limit, /*strict_read=*/false,
                                            /*strict_write=*/true);
      out->read(&proto);
    } else {
      TCompactProtocolT<TMemoryBuffer> proto(buffer, limit, limit);
      out->read(&proto);
    }
    const uint32_t left = buffer->available_read();
    if (left != 0) {
      return Status::Corruption("thrift message has " + std::to_string(left) +
                                " trailing bytes after the struct");
    }
    return Status::OK();
  } catch (const TException& e) {
    return Status::Corruption(std::string("malformed thrift message: ") + e.what());
  }
}

}  // namespace ics
