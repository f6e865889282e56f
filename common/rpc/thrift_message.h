// One Thrift message whose body is a struct with a single struct field, the
// shape of every generated call and reply: a call's arguments
// (<Service>_<method>_pargs, field 1) and a reply's result
// (<Service>_<method>_result, field 0 "success"). For writers that render
// the field's value themselves instead of through a generated object
// (catalogd's streaming partial fetch reply, the statestore's UpdateState
// call); the bytes around the value are those of the generated code.
//
// Thread-safety: like the protocol, one thread at a time.
#pragma once

#include <cstdint>

#include <thrift/protocol/TProtocol.h>

namespace ics {

// Writes the message, with write_value(out) writing the field's struct
// value, then ends and flushes it. Thrift exceptions propagate.
template <typename WriteValue>
void WriteOneFieldMessage(apache::thrift::protocol::TProtocol* out, const char* method,
                          apache::thrift::protocol::TMessageType type, int32_t seqid,
                          const char* struct_name, const char* field_name, int16_t field_id,
                          WriteValue&& write_value) {
  out->writeMessageBegin(method, type, seqid);
  out->writeStructBegin(struct_name);
  out->writeFieldBegin(field_name, apache::thrift::protocol::T_STRUCT, field_id);
  write_value(out);
  out->writeFieldEnd();
  out->writeFieldStop();
  out->writeStructEnd();
  out->writeMessageEnd();
  out->getTransport()->writeEnd();
  out->getTransport()->flush();
}

}  // namespace ics
