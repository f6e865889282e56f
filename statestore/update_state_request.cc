#include "statestore/update_state_request.h"

#include <algorithm>

#include <thrift/protocol/TBinaryProtocol.h>
#include <thrift/protocol/TProtocolException.h>
#include <thrift/transport/TVirtualTransport.h>

#include "common/rpc/bounded_protocol.h"
#include "common/rpc/thrift_message.h"

namespace ics::statestore {

using apache::thrift::protocol::T_CALL;
using apache::thrift::protocol::T_ONEWAY;
using apache::thrift::protocol::T_I32;
using apache::thrift::protocol::T_I64;
using apache::thrift::protocol::T_MAP;
using apache::thrift::protocol::T_STRING;
using apache::thrift::protocol::T_STRUCT;
using apache::thrift::protocol::TProtocol;
using apache::thrift::protocol::TProtocolException;

namespace {

// A transport that appends what is written to a string.
class StringSink : public apache::thrift::transport::TVirtualTransport<StringSink> {
 public:
  explicit StringSink(std::string* out) : out_(out) {}
  bool isOpen() const override { return true; }
  void write(const uint8_t* buf, uint32_t len) {
    out_->append(reinterpret_cast<const char*>(buf), len);
  }

 private:
  std::string* const out_;
};

using SinkProtocol = apache::thrift::protocol::TBinaryProtocolT<StringSink>;

// Each entry: a struct header, three field headers, two length prefixes, a
// bool and a stop: at most this many bytes besides the key and the value.
constexpr size_t kItemOverhead = 32;

}  // namespace

// The same calls, in the same order, as the generated TTopicDelta::write
// (fields 1 and 2 here, 3 to 5 in Finish) and TTopicItem::write (Add).
DeltaEncoder::DeltaEncoder(const std::string& topic_name, bool is_delta, int64_t from_version,
                           int64_t to_version, int64_t num_entries, size_t bytes_hint)
    : out_(std::make_shared<EncodedDelta>()),
      proto_(std::make_shared<SinkProtocol>(std::make_shared<StringSink>(&out_->fields))),
      is_delta_(is_delta),
      from_version_(from_version) {
  out_->to_version = to_version;
  out_->is_delta = is_delta;
  out_->num_entries = num_entries;
  out_->fields.reserve(64 + topic_name.size() + bytes_hint +
                       kItemOverhead * static_cast<size_t>(std::max<int64_t>(num_entries, 0)));
  TProtocol& p = *proto_;
  p.writeStructBegin("TTopicDelta");
  p.writeFieldBegin("topic_name", T_STRING, 1);
  p.writeString(topic_name);
  p.writeFieldEnd();
  p.writeFieldBegin("topic_entries", apache::thrift::protocol::T_LIST, 2);
  p.writeListBegin(T_STRUCT, static_cast<uint32_t>(num_entries));
}

void DeltaEncoder::Add(const std::string& key, const std::string& value, bool deleted) {
  ++added_;
  TProtocol& p = *proto_;
  p.writeStructBegin("TTopicItem");
  p.writeFieldBegin("key", T_STRING, 1);
  p.writeString(key);
  p.writeFieldEnd();
  p.writeFieldBegin("value", T_STRING, 2);
  p.writeBinary(value);
  p.writeFieldEnd();
  p.writeFieldBegin("deleted", apache::thrift::protocol::T_BOOL, 3);
  p.writeBool(deleted);
  p.writeFieldEnd();
  p.writeFieldStop();
  p.writeStructEnd();
}

Result<std::shared_ptr<const EncodedDelta>> DeltaEncoder::Finish() {
  if (added_ != out_->num_entries) {
    return Status::Internal("topic delta announced " + std::to_string(out_->num_entries) +
                            " entries but got " + std::to_string(added_));
  }
  TProtocol& p = *proto_;
  p.writeListEnd();
  p.writeFieldEnd();
  p.writeFieldBegin("is_delta", apache::thrift::protocol::T_BOOL, 3);
  p.writeBool(is_delta_);
  p.writeFieldEnd();
  p.writeFieldBegin("from_version", T_I64, 4);
  p.writeI64(from_version_);
  p.writeFieldEnd();
  p.writeFieldBegin("to_version", T_I64, 5);
  p.writeI64(out_->to_version);
  p.writeFieldEnd();
  // No field stop: the caller closes the struct (WritePart).
  proto_.reset();
  return std::shared_ptr<const EncodedDelta>(std::move(out_));
}

Result<std::shared_ptr<const EncodedDelta>> EncodeDelta(const impala::TTopicDelta& delta) {
  if (delta.__isset.min_subscriber_topic_version || delta.__isset.clear_topic_entries) {
    return Status::InvalidArgument("an encoded topic delta leaves fields 6 and 7 to each call");
  }
  if (!delta.__isset.from_version || !delta.__isset.to_version) {
    return Status::InvalidArgument("an encoded topic delta needs from_version and to_version");
  }
  size_t bytes = 0;
  for (const impala::TTopicItem& item : delta.topic_entries) {
    bytes += item.key.size() + item.value.size();
  }
  DeltaEncoder enc(delta.topic_name, delta.is_delta, delta.from_version, delta.to_version,
                   static_cast<int64_t>(delta.topic_entries.size()), bytes);
  for (const impala::TTopicItem& item : delta.topic_entries) {
    enc.Add(item.key, item.value, item.deleted);
  }
  return enc.Finish();
}

namespace {

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
                      const impala::TUniqueId& statestore_id, int64_t active_statestored_version) {
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
  if (active_statestored_version > 0) {
    n += out->writeFieldBegin("active_statestored_version", T_I64, 100);
    n += out->writeI64(active_statestored_version);
    n += out->writeFieldEnd();
  }
  n += out->writeFieldStop();
  return n + out->writeStructEnd();
}

}  // namespace

void SendUpdateState(impala::StatestoreSubscriberClient& client,
                     const std::vector<UpdateStatePart>& parts,
                     const impala::TUniqueId& registration_id,
                     const impala::TUniqueId& statestore_id, bool oneway,
                     int64_t active_statestored_version) {
  TProtocol* out = client.getOutputProtocol().get();
  if (!SpeaksBinary(out)) {
    throw TProtocolException(TProtocolException::NOT_IMPLEMENTED,
                             "UpdateState from encoded deltas needs the binary protocol");
  }
  // What the generated send_UpdateState (send_UpdateStateOneway) writes
  // around the request: the call message (sequence id 0) and its argument
  // struct.
  WriteOneFieldMessage(out, oneway ? "UpdateStateOneway" : "UpdateState",
                       oneway ? T_ONEWAY : T_CALL, 0,
                       oneway ? "StatestoreSubscriber_UpdateStateOneway_pargs"
                              : "StatestoreSubscriber_UpdateState_pargs",
                       "params", 1, [&](TProtocol* o) {
                         WriteRequest(o, parts, registration_id, statestore_id,
                                      active_statestored_version);
                       });
}

}  // namespace ics::statestore
