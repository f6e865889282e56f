// A Thrift protocol decorator that decodes every message under a DecodeBudget
// (see decode_budget.h), so that no size prefix a peer sends is allocated
// before it is checked against the bytes that can still arrive and the
// memory budget.
//
// It wraps the real protocol (TBinaryProtocol or TCompactProtocol) and
// forwards everything; on the read side it
//   - counts the bytes each read consumes (the wire budget of the message);
//   - checks every list/set/map header against the wire budget, notes list
//     headers for ResizeThriftList, and charges map/set nodes to memory;
//   - with binary_inner (the inner protocol is TBinaryProtocol), reads
//     container headers itself, so the checks above run (with a message that
//     names the sizes) before any check of the inner protocol; checks a
//     string's declared length against the wire budget, charges it, and reads
//     its bytes in chunks as they arrive instead of allocating the declared
//     length first. Otherwise (compact protocol, used on in-memory input
//     only) the inner protocol's limits — the input size — bound the
//     allocation and the string is charged once read;
//   - skips unknown fields through itself, so skipped containers and strings
//     are bounded too, and the recursion limit of the transport's
//     TConfiguration (64 by default) bounds struct nesting, skipped or not.
// Writes are forwarded untouched.
//
// The budget restarts at every readMessageBegin. With hold_until_reset the
// memory charged stays charged (counted against the process-wide cap) until
// the owner calls budget().Reset() — a server does that once the request is
// handled, so the decoded request is paid for while it lives; otherwise it is
// released at readMessageEnd.
//
// Thread-safety: like any Thrift protocol, one thread at a time.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include <thrift/protocol/TProtocolDecorator.h>

#include "common/rpc/decode_budget.h"

namespace ics {

// The longest message (method) name a bounded stream accepts; set it as the
// string limit of the inner TBinaryProtocol, which reads message names itself.
inline constexpr int32_t kMaxMessageNameBytes = 4096;

class BoundedProtocol : public apache::thrift::protocol::TProtocolDecorator {
 public:
  struct Options {
    DecodeBudget::Limits limits;
    bool binary_inner = false;  // inner is TBinaryProtocol
    bool hold_until_reset = false;
  };

  BoundedProtocol(std::shared_ptr<apache::thrift::protocol::TProtocol> inner, Options options);

  DecodeBudget& budget() { return budget_; }
  // Whether the inner protocol is TBinaryProtocol (as the options say).
  bool binary_inner() const { return options_.binary_inner; }
  // The last message begun: its name and sequence id, and whether its
  // readMessageEnd has not been reached yet (the request is still being read).
  const std::string& message_name() const { return message_name_; }
  int32_t message_seqid() const { return message_seqid_; }
  bool reading_message() const { return reading_message_; }

  using TType = apache::thrift::protocol::TType;
  using TMessageType = apache::thrift::protocol::TMessageType;

  uint32_t readMessageBegin_virt(std::string& name, TMessageType& type, int32_t& seqid) override;
  uint32_t readMessageEnd_virt() override;
  uint32_t readStructBegin_virt(std::string& name) override;
  uint32_t readStructEnd_virt() override;
  uint32_t readFieldBegin_virt(std::string& name, TType& type, int16_t& id) override;
  uint32_t readFieldEnd_virt() override;
  uint32_t readMapBegin_virt(TType& key_type, TType& value_type, uint32_t& size) override;
  uint32_t readMapEnd_virt() override;
  uint32_t readListBegin_virt(TType& elem_type, uint32_t& size) override;
  uint32_t readListEnd_virt() override;
  uint32_t readSetBegin_virt(TType& elem_type, uint32_t& size) override;
  uint32_t readSetEnd_virt() override;
  uint32_t readBool_virt(bool& value) override;
  uint32_t readBool_virt(std::vector<bool>::reference value) override;
  uint32_t readByte_virt(int8_t& value) override;
  uint32_t readI16_virt(int16_t& value) override;
  uint32_t readI32_virt(int32_t& value) override;
  uint32_t readI64_virt(int64_t& value) override;
  uint32_t readDouble_virt(double& value) override;
  uint32_t readString_virt(std::string& str) override;
  uint32_t readBinary_virt(std::string& str) override;
  uint32_t skip_virt(TType type) override;

 private:
  uint32_t Count(uint32_t n) {
    budget_.ConsumeWire(n);
    return n;
  }
  int64_t MinBytes(TType type) const;
  uint32_t ReadBytes(std::string& str);
  // A container size read by the binary encoding (i32, must be >= 0).
  uint32_t ReadBinarySize(uint32_t& size, const char* what);
  uint32_t ReadBinaryType(TType& type);
  uint32_t ReadStreamedBytes(std::string& str);

  const std::shared_ptr<apache::thrift::protocol::TProtocol> inner_;
  const Options options_;
  DecodeBudget budget_;
  std::string message_name_;
  int32_t message_seqid_ = 0;
  bool reading_message_ = false;
};

// Whether `p` writes the binary encoding: a TBinaryProtocol, or a
// BoundedProtocol over one. Writers that emit pre-encoded binary bytes
// straight to the transport ask this first.
bool SpeaksBinary(apache::thrift::protocol::TProtocol* p);

}  // namespace ics
