#include "statestore/update_state_request.h"

#include <thrift/protocol/TBinaryProtocol.h>
#include <thrift/protocol/TProtocolException.h>

#include "common/codec/thrift_serde.h"
#include "common/rpc/bounded_protocol.h"
#include "common/rpc/thrift_message.h"

namespace ics::statestore {

using apache::thrift::protocol::T_CALL;
using apache::thrift::protocol::T_I32;
using apache::thrift::protocol::T_I64;
using apache::thrift::protocol::T_MAP;
using apache::thrift::protocol::T_STRING;
using apache::thrift::protocol::T_STRUCT;
using apache::thrift::protocol::TProtocol;
using apache::thrift::protocol::TProtocolException;

Result<std::shared_ptr<const EncodedDelta>> EncodeDelta(const impala::TTopicDelta& delta) {
  if (delta.__isset.min_subscriber_topic_version || delta.__isset.clear_topic_entries) {
    return Status::InvalidArgument("an encoded topic delta leaves fields 6 and 7 to each call");
  }
  Result<std::string> bytes = SerializeThrift(delta, ThriftProtocol::kBinary);
  if (!bytes.ok()) return bytes.status();
  auto out = std::make_shared<EncodedDelta>();
  out->fields = std::move(bytes).value();
  // The binary protocol closes a struct with one T_STOP byte.
  if (out->fields.empty() || out->fields.back() != '\0') {
    return Status::Internal("encoded topic delta does not end in a field stop");
  }
  out->fields.pop_back();
  out->to_version = delta.to_version;
  out->is_delta = delta.is_delta;
  out->num_entries = static_cast<int64_t>(delta.topic_entries.size());
  return std::shared_ptr<const EncodedDelta>(std::move(out));
}

namespace {

bool SpeaksBinary(TProtocol* p) {
  if (dynamic_cast<apache::thrift::protocol::TBinaryProtocol*>(p) != nullptr) return true;
  auto* bounded = dynamic_cast<BoundedProtocol*>(p);
  return bounded != nullptr && bounded->binary_inner();
}

// The same calls, in the same order, as TTopicDelta::write for fields 6 and
// the stop, after the shared fields went out as bytes.
uint32_t WritePart(TProtocol* out, const UpdateStatePart& part) {
  uint32_t n = out->writeString(*part.topic_name);
  out->getTransport()->write(reinterpret_cast<const uint8_t*>(part.delta->fields.data()),
                             static_cast<uint32_t>(part.delta->fields.size()));
  n += static_cast<uint32_t>(part.delta->fields.size());
  if (part.with_min) {
    n += out->writeFieldBegin("min_subscriber_topic_version", T_I64, 6);
    n += out->writeI64(part.min_version);
    n += out->writeFieldEnd();
  }
  n += out->writeFieldStop();
  return n + out->writeStructEnd();
}

uint32_t WriteRequest(TProtocol* out, const std::vector<UpdateStatePart>& parts,
                      const impala::TUniqueId& registration_id,
                      const impala::TUniqueId& statestore_id) {
  uint32_t n = out->writeStructBegin("TUpdateStateRequest");
  n += out->writeFieldBegin("protocol_version", T_I32, 1);
  n += out->writeI32(static_cast<int32_t>(impala::StatestoreServiceVersion::V2));
  n += out->writeFieldEnd();
  n += out->writeFieldBegin("topic_deltas", T_MAP, 2);
  n += out->writeMapBegin(T_STRING, T_STRUCT, static_cast<uint32_t>(parts.size()));
  for (const UpdateStatePart& part : parts) n += WritePart(out, part);
  n += out->writeMapEnd();
  n += out->writeFieldEnd();
  n += out->writeFieldBegin("registration_id", T_STRUCT, 3);
  n += registration_id.write(out);
  n += out->writeFieldEnd();
  n += out->writeFieldBegin("statestore_id", T_STRUCT, 4);
  n += statestore_id.write(out);
  n += out->writeFieldEnd();
  n += out->writeFieldStop();
  return n + out->writeStructEnd();
}

}  // namespace

void SendUpdateState(impala::StatestoreSubscriberClient& client,
                     const std::vector<UpdateStatePart>& parts,
                     const impala::TUniqueId& registration_id,
                     const impala::TUniqueId& statestore_id) {
  TProtocol* out = client.getOutputProtocol().get();
  if (!SpeaksBinary(out)) {
    throw TProtocolException(TProtocolException::NOT_IMPLEMENTED,
                             "UpdateState from encoded deltas needs the binary protocol");
  }
  // What the generated send_UpdateState writes around the request: the
  // call message (sequence id 0) and its argument struct.
  WriteOneFieldMessage(out, "UpdateState", T_CALL, 0, "StatestoreSubscriber_UpdateState_pargs",
                       "params", 1, [&](TProtocol* o) {
                         WriteRequest(o, parts, registration_id, statestore_id);
                       });
}

}  // namespace ics::statestore
