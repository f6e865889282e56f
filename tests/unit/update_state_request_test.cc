// UpdateState calls written from shared encoded deltas must be the bytes the
// generated client writes, and the topic must share one encoding per delta
// only while the topic is unchanged.
#include "statestore/update_state_request.h"

#include <gtest/gtest.h>
#include <thrift/protocol/TBinaryProtocol.h>
#include <thrift/protocol/TCompactProtocol.h>
#include <thrift/protocol/TProtocolException.h>
#include <thrift/transport/TBufferTransports.h>

#include "common/codec/thrift_serde.h"
#include "common/rpc/bounded_protocol.h"
#include "statestore/topic.h"

namespace ics::statestore {
namespace {

using apache::thrift::protocol::TBinaryProtocol;
using apache::thrift::protocol::TCompactProtocol;
using apache::thrift::protocol::TProtocol;
using apache::thrift::protocol::TProtocolException;
using apache::thrift::transport::TMemoryBuffer;
using std::chrono::milliseconds;

const SteadyTime kT0{};

impala::TUniqueId Id(int64_t hi, int64_t lo) {
  impala::TUniqueId id;
  id.hi = hi;
  id.lo = lo;
  return id;
}

struct Wanted {
  const Topic* topic;
  int64_t base;
  std::string prefix;
  bool with_min;
  int64_t min;
};

// What the generated client writes for the request those deltas make.
std::string Generated(const std::vector<Wanted>& want, const impala::TUniqueId& reg,
                      const impala::TUniqueId& ss, bool oneway) {
  impala::TUpdateStateRequest req;
  req.protocol_version = impala::StatestoreServiceVersion::V2;
  for (const Wanted& w : want) {
    impala::TTopicDelta d = w.topic->BuildDelta(w.base, w.prefix);
    if (w.with_min) d.__set_min_subscriber_topic_version(w.min);
    req.topic_deltas.emplace(w.topic->name(), std::move(d));
  }
  req.__set_registration_id(reg);
  req.__set_statestore_id(ss);
  auto buf = std::make_shared<TMemoryBuffer>();
  impala::StatestoreSubscriberClient client(std::make_shared<TBinaryProtocol>(buf));
  if (oneway) {
    client.send_UpdateStateOneway(req);
  } else {
    client.send_UpdateState(req);
  }
  return buf->getBufferAsString();
}

std::string Shared(const std::vector<Wanted>& want, const impala::TUniqueId& reg,
                   const impala::TUniqueId& ss, bool bounded, bool oneway) {
  std::vector<UpdateStatePart> parts;
  for (const Wanted& w : want) {
    auto delta = w.topic->EncodedDeltaFor(w.base, w.prefix);
    EXPECT_TRUE(delta.ok()) << delta.status().ToString();
    parts.push_back(UpdateStatePart{&w.topic->name(), delta.value(), w.with_min, w.min});
  }
  auto buf = std::make_shared<TMemoryBuffer>();
  std::shared_ptr<TProtocol> proto = std::make_shared<TBinaryProtocol>(buf);
  if (bounded) {
    BoundedProtocol::Options o;
    o.binary_inner = true;
    proto = std::make_shared<BoundedProtocol>(proto, o);
  }
  impala::StatestoreSubscriberClient client(proto);
  SendUpdateState(client, parts, reg, ss, oneway);
  return buf->getBufferAsString();
}

TEST(UpdateStateRequestTest, SameBytesAsTheGeneratedClient) {
  Topic catalog("catalog-update");
  Topic membership("impala-membership");
  catalog.Apply({{"TABLE:db.t1", std::string("\0\x01value", 7)}, {"TABLE:db.t2", "v2"}}, "",
                false, kT0);
  catalog.Apply({{"TABLE:db.t1", "", true}, {"DATABASE:db", "d"}}, "", false, kT0);
  membership.Apply({{"coordinator-1", "m1"}}, "reg", true, kT0);
  Topic empty("empty");
  const auto reg = Id(0x0102030405060708, -5);
  const auto ss = Id(-1, 42);
  const std::vector<std::pair<std::string, std::vector<Wanted>>> cases = {
      {"full", {{&catalog, 0, "", false, 0}}},
      {"delta", {{&catalog, 2, "", false, 0}}},
      {"delta with min", {{&catalog, 2, "", true, 3}}},
      {"prefix", {{&catalog, 0, "TABLE:", true, 0}}},
      {"no entries", {{&catalog, 4, "", true, 4}}},
      {"empty topic", {{&empty, 0, "", false, 0}}},
      {"two topics, name order",
       {{&catalog, 1, "", true, 1}, {&membership, 0, "", false, 0}}},
      {"no topics", {}},
  };
  for (const auto& [what, want] : cases) {
    for (const bool oneway : {false, true}) {
      const std::string generated = Generated(want, reg, ss, oneway);
      const std::string how = oneway ? " (oneway)" : "";
      EXPECT_EQ(Shared(want, reg, ss, /*bounded=*/false, oneway), generated) << what << how;
      EXPECT_EQ(Shared(want, reg, ss, /*bounded=*/true, oneway), generated)
          << what << " (bounded)" << how;
    }
    EXPECT_NE(Generated(want, reg, ss, false), Generated(want, reg, ss, true)) << what;
  }
}

TEST(UpdateStateRequestTest, OtherProtocolsAreRefusedBeforeAnythingIsWritten) {
  Topic t("t");
  t.Apply({{"a", "1"}}, "", false, kT0);
  auto delta = t.EncodedDeltaFor(0, "");
  ASSERT_TRUE(delta.ok());
  auto buf = std::make_shared<TMemoryBuffer>();
  impala::StatestoreSubscriberClient client(std::make_shared<TCompactProtocol>(buf));
  EXPECT_THROW(SendUpdateState(client, {{&t.name(), delta.value(), false, 0}}, Id(1, 2), Id(3, 4)),
               TProtocolException);
  EXPECT_EQ(buf->available_read(), 0u);
}

TEST(UpdateStateRequestTest, PerCallFieldsCannotBeEncoded) {
  impala::TTopicDelta d;
  d.topic_name = "t";
  EXPECT_FALSE(EncodeDelta(d).ok());  // no versions
  d.__set_from_version(2);
  d.__set_to_version(5);
  impala::TTopicItem item;
  item.key = "k";
  item.value = std::string("\0v", 2);
  item.deleted = true;
  d.topic_entries.push_back(item);
  d.__set_min_subscriber_topic_version(3);
  EXPECT_FALSE(EncodeDelta(d).ok());
  d.__isset.min_subscriber_topic_version = false;
  d.__set_clear_topic_entries(true);
  EXPECT_FALSE(EncodeDelta(d).ok());
  d.__isset.clear_topic_entries = false;
  auto ok = EncodeDelta(d);
  ASSERT_TRUE(ok.ok());
  // Closing the shared fields yields the struct the generated writer makes.
  EXPECT_EQ(ok.value()->fields + std::string(1, '\0'), SerializeThrift(d).value());
  EXPECT_EQ(ok.value()->num_entries, 1);
  EXPECT_EQ(ok.value()->to_version, 5);
}

TEST(UpdateStateRequestTest, TopicSharesOneEncodingWhileUnchanged) {
  Topic t("t");
  t.Apply({{"a", "1"}, {"b", "2"}}, "", false, kT0);
  auto full1 = t.EncodedDeltaFor(0, "").value();
  auto full2 = t.EncodedDeltaFor(0, "").value();
  EXPECT_EQ(full1.get(), full2.get());
  // Bases that get a full update share the full encoding.
  EXPECT_EQ(t.EncodedDeltaFor(99, "").value().get(), full1.get());
  auto delta = t.EncodedDeltaFor(1, "").value();
  EXPECT_NE(delta.get(), full1.get());
  EXPECT_TRUE(delta->is_delta);
  EXPECT_EQ(delta->num_entries, 1);
  EXPECT_NE(t.EncodedDeltaFor(0, "a").value().get(), full1.get());

  // A write drops every encoding: the next one carries the new version.
  t.Apply({{"c", "3"}}, "", false, kT0);
  auto full3 = t.EncodedDeltaFor(0, "").value();
  EXPECT_NE(full3.get(), full1.get());
  EXPECT_EQ(full3->to_version, 3);
  EXPECT_EQ(full3->num_entries, 3);
  EXPECT_EQ(full1->to_version, 2);  // what a caller still holds is unchanged
}

TEST(UpdateStateRequestTest, MovedHistoryFloorTurnsEncodedDeltaIntoFullUpdate) {
  Topic t("t");
  t.Apply({{"a", "1"}, {"b", "1"}}, "", false, kT0);
  t.Apply({{"a", "", true}}, "", false, kT0);  // version 3
  auto before = t.EncodedDeltaFor(2, "").value();
  EXPECT_TRUE(before->is_delta);
  ASSERT_EQ(t.CollectTombstones(3, milliseconds(0), kT0), 1);
  auto after = t.EncodedDeltaFor(2, "").value();
  EXPECT_FALSE(after->is_delta);
  EXPECT_EQ(after->num_entries, 1);
}

TEST(UpdateStateRequestTest, EncoderRefusesAnotherNumberOfEntriesThanAnnounced) {
  DeltaEncoder fewer("t", true, 1, 2, 2, 0);
  fewer.Add("a", "1", false);
  EXPECT_FALSE(fewer.Finish().ok());
  DeltaEncoder more("t", true, 1, 2, 0, 0);
  more.Add("a", "1", false);
  EXPECT_FALSE(more.Finish().ok());
}

// A full update of a large topic costs its encoding and no more: the
// encoding is reserved once, not grown by doubling.
TEST(UpdateStateRequestTest, EncodingIsSizedOnce) {
  Topic t("t");
  std::vector<TopicWrite> writes;
  for (int i = 0; i < 100; ++i) writes.push_back({"key" + std::to_string(i), std::string(10000, 'v')});
  t.Apply(writes, "", false, kT0);
  auto full = t.EncodedDeltaFor(0, "").value();
  EXPECT_GT(full->fields.size(), 100u * 10000u);
  EXPECT_LE(full->fields.capacity(), full->fields.size() + 64 + 100 * 32 + 8);
}

TEST(UpdateStateRequestTest, EncodingsNobodyHoldsAreNotKept) {
  Topic t("t");
  t.Apply({{"a", std::string(1 << 20, 'x')}}, "", false, kT0);
  std::weak_ptr<const EncodedDelta> weak = t.EncodedDeltaFor(0, "").value();
  EXPECT_TRUE(weak.expired());
  // More distinct deltas than the topic remembers still work.
  std::vector<std::shared_ptr<const EncodedDelta>> held;
  for (int i = 0; i < static_cast<int>(Topic::kMaxEncodedDeltas) + 3; ++i) {
    held.push_back(t.EncodedDeltaFor(0, std::string(static_cast<size_t>(i), 'a')).value());
  }
  EXPECT_EQ(held.back()->num_entries, 0);
  EXPECT_EQ(held.front()->num_entries, 1);
  EXPECT_EQ(t.EncodedDeltaFor(0, std::string(static_cast<size_t>(held.size() - 1), 'a'))
                .value()
                .get(),
            held.back().get());
}

}  // namespace
}  // namespace ics::statestore
