// The wire form of an UpdateState call, built from topic deltas encoded once
// and shared by every subscriber that needs the same delta.
//
// After a publication most subscribers of a topic stand at the same version
// and get the same delta; after a statestore restart all of them get the
// same full topic. Building a TTopicDelta per subscriber copied every value
// once per subscriber (memory and CPU growing with the number of
// subscribers, held until each reply came back). Instead the topic encodes
// a delta once (Topic::EncodedDeltaFor) and each call writes those bytes as
// they are, with only what differs per subscriber around them: the
// registration, and min_subscriber_topic_version where it was asked for.
//
// The bytes written are exactly what the generated
// StatestoreSubscriberClient::send_UpdateState writes for the equivalent
// TUpdateStateRequest (tests/unit/update_state_request_test.cc holds the two
// equal). Binary protocol only: the encoded fields are binary-protocol
// bytes, and the statestore's client connections always speak it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <thrift/protocol/TProtocol.h>

#include "StatestoreService_types.h"
#include "StatestoreSubscriber.h"
#include "common/util/result.h"

namespace ics::statestore {

// One topic delta in encoded form: TTopicDelta fields 1 to 5 (topic_name,
// topic_entries, is_delta, from_version, to_version) in the binary protocol,
// without the closing field stop, so that a caller can add field 6
// (min_subscriber_topic_version) before closing it. Immutable once built.
struct EncodedDelta {
  int64_t to_version = 0;
  bool is_delta = false;
  int64_t num_entries = 0;
  std::string fields;
};

// Builds an EncodedDelta straight into its bytes, one entry at a time, so
// that encoding a topic costs the encoding and no copy of every value first.
// Add() must be called exactly `num_entries` times, then Finish() once.
class DeltaEncoder {
 public:
  // `bytes_hint`: about how many key and value bytes the entries hold (the
  // encoding is reserved once from it).
  DeltaEncoder(const std::string& topic_name, bool is_delta, int64_t from_version,
               int64_t to_version, int64_t num_entries, size_t bytes_hint);
  void Add(const std::string& key, const std::string& value, bool deleted);
  // Errors if Add() was called another number of times than announced.
  [[nodiscard]] Result<std::shared_ptr<const EncodedDelta>> Finish();

 private:
  std::shared_ptr<EncodedDelta> out_;
  // The binary protocol over a transport appending to out_->fields.
  std::shared_ptr<apache::thrift::protocol::TProtocol> proto_;
  const bool is_delta_;
  const int64_t from_version_;
  int64_t added_ = 0;
};

// Encodes `delta`, which must have from_version and to_version set and
// fields 6 and 7 unset (they are per call).
[[nodiscard]] Result<std::shared_ptr<const EncodedDelta>> EncodeDelta(
    const impala::TTopicDelta& delta);

// One entry of the call's topic_deltas map.
struct UpdateStatePart {
  const std::string* topic_name = nullptr;
  std::shared_ptr<const EncodedDelta> delta;
  bool with_min = false;  // writes min_subscriber_topic_version = min_version
  int64_t min_version = 0;
};

// Writes and flushes one UpdateState call on the client's output protocol
// (UpdateStateOneway with `oneway`: the same request in a oneway message):
// protocol_version V2, `parts` as topic_deltas (sorted by topic name, no
// name twice), then the registration and statestore ids, and (when > 0)
// `active_statestored_version` as field 100. Thrift exceptions
// propagate (the caller's channel turns them into a Status); an output
// protocol that is not binary throws TProtocolException(NOT_IMPLEMENTED)
// before anything is written.
void SendUpdateState(impala::StatestoreSubscriberClient& client,
                                     const std::vector<UpdateStatePart>& parts,
                                     const impala::TUniqueId& registration_id,
                                     const impala::TUniqueId& statestore_id, bool oneway = false,
                                     int64_t active_statestored_version = 0);

}  // namespace ics::statestore
