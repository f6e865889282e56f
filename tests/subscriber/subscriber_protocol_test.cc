// StatestoreSubscriber against a scripted fake statestore and a raw
// StatestoreSubscriber client: exact control over what the subscriber is
// sent (registration ids, from_version mismatches, concurrent updates,
// missing heartbeats, failing registrations).
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <stdexcept>

#include <gtest/gtest.h>

#include "StatestoreService.h"
#include "StatestoreSubscriber.h"
#include "common/rpc/thrift_client.h"
#include "common/rpc/thrift_server.h"
#include "common/util/unique_id.h"
#include "statestore/subscriber.h"
#include "tests/util/eventually.h"
#include "tests/util/free_port.h"

namespace ics::statestore {
namespace {

using ::ics::testing::Eventually;

using std::chrono::milliseconds;
using Clock = std::chrono::steady_clock;

// A StatestoreService that hands out registration ids, can fail or hold
// registrations, and counts RequestTopicUpdate calls (which it can hold).
class FakeStatestore : public impala::StatestoreServiceIf {
 public:
  void RegisterSubscriber(impala::TRegisterSubscriberResponse& resp,
                          const impala::TRegisterSubscriberRequest& req) override {
    std::unique_lock<std::mutex> l(mu_);
    ++register_calls_;
    last_request_ = req;
    cv_.wait(l, [&] { return !hold_registration_; });
    if (fail_registrations_ > 0) {
      --fail_registrations_;
      resp.status.status_code = impala::TErrorCode::GENERAL;
      resp.status.__set_error_msgs({"scripted failure"});
      return;
    }
    resp.status.status_code = impala::TErrorCode::OK;
    last_registration_id_ = GenerateUniqueId();
    resp.__set_registration_id(last_registration_id_);
    resp.__set_statestore_id(statestore_id_);
    resp.__set_protocol_version(impala::StatestoreServiceVersion::V2);
  }
  void GetProtocolVersion(impala::TGetProtocolVersionResponse& resp,
                          const impala::TGetProtocolVersionRequest&) override {
    resp.status.status_code = impala::TErrorCode::OK;
    resp.protocol_version = impala::StatestoreServiceVersion::V2;
  }
  void RequestTopicUpdate(impala::TRequestTopicUpdateResponse& resp,
                          const impala::TRequestTopicUpdateRequest& req) override {
    std::unique_lock<std::mutex> l(mu_);
    ++update_requests_;
    last_update_request_ = req;
    cv_.wait(l, [&] { return !hold_update_requests_; });
    resp.status.status_code = req.registration_id == last_registration_id_
                                  ? impala::TErrorCode::OK
                                  : impala::TErrorCode::GENERAL;
  }

  void set_fail_registrations(int n) {
    With([&] { fail_registrations_ = n; });
  }
  void set_hold_registration(bool v) {
    With([&] { hold_registration_ = v; });
  }
  void set_hold_update_requests(bool v) {
    With([&] { hold_update_requests_ = v; });
  }
  int register_calls() { return Get(register_calls_); }
  int update_requests() { return Get(update_requests_); }
  impala::TRequestTopicUpdateRequest last_update_request() { return Get(last_update_request_); }
  impala::TRegisterSubscriberRequest last_request() { return Get(last_request_); }
  impala::TUniqueId last_registration_id() { return Get(last_registration_id_); }
  const impala::TUniqueId statestore_id_ = GenerateUniqueId();

 private:
  void With(const std::function<void()>& fn) {
    std::lock_guard<std::mutex> l(mu_);
    fn();
    cv_.notify_all();
  }
  template <typename T>
  T Get(const T& field) {
    std::lock_guard<std::mutex> l(mu_);
    return field;
  }

  std::mutex mu_;
  std::condition_variable cv_;
  int fail_registrations_ = 0;
  bool hold_registration_ = false;
  bool hold_update_requests_ = false;
  int register_calls_ = 0;
  int update_requests_ = 0;
  impala::TRegisterSubscriberRequest last_request_;
  impala::TRequestTopicUpdateRequest last_update_request_;
  impala::TUniqueId last_registration_id_;
};

// Records what a topic callback saw; can block inside the callback and
// publish scripted deltas.
class Recorder {
 public:
  TopicUpdateCallback Callback() {
    return [this](const impala::TTopicDelta& delta, std::vector<impala::TTopicDelta>* pubs) {
      std::unique_lock<std::mutex> l(mu_);
      deltas_.push_back(delta);
      ++in_callback_;
      cv_.notify_all();
      cv_.wait(l, [&] { return !block_; });
      --in_callback_;
      if (throw_next_ > 0) {
        --throw_next_;
        throw std::runtime_error("callback failed on purpose");
      }
      for (auto& p : publish_next_) pubs->push_back(p);
      publish_next_.clear();
    };
  }
  void set_block(bool v) {
    std::lock_guard<std::mutex> l(mu_);
    block_ = v;
    cv_.notify_all();
  }
  // The next n callbacks throw after recording their delta.
  void ThrowNext(int n) {
    std::lock_guard<std::mutex> l(mu_);
    throw_next_ = n;
  }
  void PublishNext(impala::TTopicDelta pub) {
    std::lock_guard<std::mutex> l(mu_);
    publish_next_.push_back(std::move(pub));
  }
  int in_callback() {
    std::lock_guard<std::mutex> l(mu_);
    return in_callback_;
  }
  std::vector<impala::TTopicDelta> deltas() {
    std::lock_guard<std::mutex> l(mu_);
    return deltas_;
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  bool block_ = false;
  int in_callback_ = 0;
  int throw_next_ = 0;
  std::vector<impala::TTopicDelta> deltas_;
  std::vector<impala::TTopicDelta> publish_next_;
};

using SubscriberClient = ThriftClient<impala::StatestoreSubscriberClient>;

class SubscriberProtocolTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ThriftServerOptions so;
    so.name = "fake-statestore";
    so.bind_host = "127.0.0.1";
    fake_ = std::make_shared<FakeStatestore>();
    fake_server_ = std::make_unique<ThriftServer>(
        std::make_shared<impala::StatestoreServiceProcessor>(fake_), so);
    ASSERT_TRUE(fake_server_->Start().ok());
  }
  void TearDown() override {
    // Release anything a test left held so the servers can stop.
    fake_->set_hold_registration(false);
    fake_->set_hold_update_requests(false);
    recorder_.set_block(false);
    if (sub_) sub_->Stop();
    fake_server_->Stop();
  }

  StatestoreSubscriberOptions Options(const std::string& id) {
    StatestoreSubscriberOptions o;
    o.subscriber_id = id;
    o.statestore_port = fake_server_->port();
    o.statestore_timeout_ms = 60000;  // the fake sends no heartbeats
    o.register_backoff_initial_ms = 20;
    o.register_backoff_max_ms = 100;
    return o;
  }
  // Starts sub_ with topic "t" (callback: recorder_).
  void StartSubscriber(StatestoreSubscriberOptions o) {
    sub_ = std::make_unique<StatestoreSubscriber>(std::move(o));
    TopicSubscription t;
    t.topic = "t";
    t.is_transient = true;
    t.populate_min_subscriber_topic_version = true;
    t.filter_prefix = "p/";
    t.callback = recorder_.Callback();
    ASSERT_TRUE(sub_->AddTopic(std::move(t)).ok());
    ASSERT_TRUE(sub_->Start().ok());
    client_ = std::make_unique<SubscriberClient>("127.0.0.1", sub_->port());
  }

  static impala::TTopicDelta Delta(bool is_delta, int64_t from, int64_t to) {
    impala::TTopicDelta d;
    d.topic_name = "t";
    d.is_delta = is_delta;
    d.__set_from_version(from);
    d.__set_to_version(to);
    return d;
  }
  // A publication of one entry that also asks for base `from` (topic_name
  // left empty: it means the callback's topic).
  static impala::TTopicDelta EntryAndBase(const std::string& key, const std::string& value,
                                          int64_t from) {
    impala::TTopicDelta pub;
    pub.is_delta = true;
    impala::TTopicItem item;
    item.key = key;
    item.value = value;
    pub.topic_entries.push_back(item);
    pub.__set_from_version(from);
    return pub;
  }
  impala::TUpdateStateRequest Request(const impala::TTopicDelta& d) {
    impala::TUpdateStateRequest req;
    req.protocol_version = impala::StatestoreServiceVersion::V2;
    req.topic_deltas["t"] = d;
    req.__set_registration_id(fake_->last_registration_id());
    req.__set_statestore_id(fake_->statestore_id_);
    return req;
  }
  impala::TUpdateStateResponse Send(SubscriberClient* client,
                                    const impala::TUpdateStateRequest& req) {
    impala::TUpdateStateResponse resp;
    EXPECT_TRUE(client
                    ->Call("UpdateState",
                           [&](impala::StatestoreSubscriberClient& c) { c.UpdateState(resp, req); })
                    .ok());
    return resp;
  }
  // Sends `req` as UpdateStateOneway, then a heartbeat on the same
  // connection: its reply comes after the oneway update was handled.
  void SendOneway(const impala::TUpdateStateRequest& req) {
    EXPECT_TRUE(client_
                    ->Call("UpdateStateOneway",
                           [&](impala::StatestoreSubscriberClient& c) { c.UpdateStateOneway(req); })
                    .ok());
    SendHeartbeat(fake_->last_registration_id(), fake_->statestore_id_);
  }
  impala::THeartbeatResponse SendHeartbeat(const impala::TUniqueId& reg,
                                           const impala::TUniqueId& ss) {
    impala::THeartbeatRequest req;
    req.__set_registration_id(reg);
    req.__set_statestore_id(ss);
    impala::THeartbeatResponse resp;
    EXPECT_TRUE(client_
                    ->Call("Heartbeat",
                           [&](impala::StatestoreSubscriberClient& c) { c.Heartbeat(resp, req); })
                    .ok());
    return resp;
  }

  std::shared_ptr<FakeStatestore> fake_;
  std::unique_ptr<ThriftServer> fake_server_;
  Recorder recorder_;
  std::unique_ptr<StatestoreSubscriber> sub_;
  std::unique_ptr<SubscriberClient> client_;
};

TEST_F(SubscriberProtocolTest, RegistrationRequestCarriesOptionsAndTopics) {
  auto o = Options("coord-1");
  o.subscriber_type = impala::TStatestoreSubscriberType::EXECUTOR;
  StartSubscriber(o);
  ASSERT_TRUE(sub_->WaitForRegistration(milliseconds(5000)).ok());
  EXPECT_EQ(sub_->num_registrations(), 1);
  EXPECT_EQ(*sub_->registration_id(), fake_->last_registration_id());
  EXPECT_EQ(*sub_->statestore_id(), fake_->statestore_id_);
  const auto req = fake_->last_request();
  EXPECT_EQ(req.protocol_version, impala::StatestoreServiceVersion::V2);
  EXPECT_EQ(req.subscriber_id, "coord-1");
  EXPECT_EQ(req.subscriber_location.hostname, "127.0.0.1");
  EXPECT_EQ(req.subscriber_location.port, sub_->port());
  EXPECT_EQ(req.subscriber_type, impala::TStatestoreSubscriberType::EXECUTOR);
  ASSERT_EQ(req.topic_registrations.size(), 1u);
  EXPECT_EQ(req.topic_registrations[0].topic_name, "t");
  EXPECT_TRUE(req.topic_registrations[0].is_transient);
  EXPECT_TRUE(req.topic_registrations[0].populate_min_subscriber_topic_version);
  EXPECT_EQ(req.topic_registrations[0].filter_prefix, "p/");
}

TEST_F(SubscriberProtocolTest, AddTopicValidatesAndIsRefusedAfterStart) {
  StatestoreSubscriber sub(Options("s"));
  EXPECT_FALSE(sub.AddTopic(TopicSubscription{"", false, false, "", recorder_.Callback(), nullptr}).ok());
  EXPECT_FALSE(sub.AddTopic(TopicSubscription{"x", false, false, "", nullptr, nullptr}).ok());
  EXPECT_TRUE(sub.AddTopic(TopicSubscription{"x", false, false, "", recorder_.Callback(), nullptr}).ok());
  EXPECT_FALSE(sub.AddTopic(TopicSubscription{"x", false, false, "", recorder_.Callback(), nullptr}).ok());
  ASSERT_TRUE(sub.Start().ok());
  EXPECT_FALSE(sub.Start().ok());
  EXPECT_FALSE(sub.AddTopic(TopicSubscription{"y", false, false, "", recorder_.Callback(), nullptr}).ok());
  EXPECT_FALSE(StatestoreSubscriber(StatestoreSubscriberOptions{}).Start().ok());  // no id
  sub.Stop();
  sub.Stop();
  EXPECT_FALSE(sub.Start().ok());
}

TEST_F(SubscriberProtocolTest, RetriesFailedRegistrationsWithBackoff) {
  fake_->set_fail_registrations(3);
  StartSubscriber(Options("s"));
  ASSERT_TRUE(sub_->WaitForRegistration(milliseconds(5000)).ok());
  EXPECT_EQ(fake_->register_calls(), 4);
  EXPECT_EQ(sub_->num_registrations(), 1);
}

TEST_F(SubscriberProtocolTest, DeltaFromWrongVersionAsksForNewBase) {
  StartSubscriber(Options("s"));
  ASSERT_TRUE(sub_->WaitForRegistration(milliseconds(5000)).ok());

  // Full update to version 5: processed.
  auto resp = Send(client_.get(), Request(Delta(false, 0, 5)));
  EXPECT_EQ(resp.status.status_code, impala::TErrorCode::OK);
  EXPECT_TRUE(resp.topic_updates.empty());
  EXPECT_EQ(sub_->last_topic_version("t"), 5);
  ASSERT_EQ(recorder_.deltas().size(), 1u);

  // A delta from 3: not given to the callback; the reply asks for base 5.
  resp = Send(client_.get(), Request(Delta(true, 3, 7)));
  EXPECT_EQ(resp.status.status_code, impala::TErrorCode::OK);
  ASSERT_EQ(resp.topic_updates.size(), 1u);
  EXPECT_EQ(resp.topic_updates[0].topic_name, "t");
  EXPECT_FALSE(resp.topic_updates[0].is_delta);
  EXPECT_TRUE(resp.topic_updates[0].topic_entries.empty());
  ASSERT_TRUE(resp.topic_updates[0].__isset.from_version);
  EXPECT_EQ(resp.topic_updates[0].from_version, 5);
  EXPECT_EQ(sub_->last_topic_version("t"), 5);
  EXPECT_EQ(recorder_.deltas().size(), 1u);

  // The delta from 5: processed.
  resp = Send(client_.get(), Request(Delta(true, 5, 7)));
  EXPECT_TRUE(resp.topic_updates.empty());
  EXPECT_EQ(sub_->last_topic_version("t"), 7);
  ASSERT_EQ(recorder_.deltas().size(), 2u);
  EXPECT_EQ(recorder_.deltas()[1].to_version, 7);
}

TEST_F(SubscriberProtocolTest, ThrowingCallbackFailsOnlyThatUpdate) {
  StartSubscriber(Options("s"));
  ASSERT_TRUE(sub_->WaitForRegistration(milliseconds(5000)).ok());
  recorder_.ThrowNext(1);
  auto resp = Send(client_.get(), Request(Delta(false, 0, 5)));
  EXPECT_NE(resp.status.status_code, impala::TErrorCode::OK);
  ASSERT_FALSE(resp.status.error_msgs.empty());
  EXPECT_NE(resp.status.error_msgs[0].find("callback failed on purpose"), std::string::npos);
  EXPECT_FALSE(resp.__isset.skipped && resp.skipped);
  EXPECT_EQ(sub_->last_topic_version("t"), 0);  // nothing processed
  EXPECT_EQ(sub_->num_failed_updates(), 1);
  // The update lock was released: the statestore's retry is processed.
  resp = Send(client_.get(), Request(Delta(false, 0, 5)));
  EXPECT_EQ(resp.status.status_code, impala::TErrorCode::OK);
  EXPECT_FALSE(resp.__isset.skipped && resp.skipped);
  EXPECT_EQ(sub_->last_topic_version("t"), 5);
  EXPECT_EQ(recorder_.deltas().size(), 2u);
}

TEST_F(SubscriberProtocolTest, PublicationsAreReturnedAndFromVersionAdopted) {
  StartSubscriber(Options("s"));
  ASSERT_TRUE(sub_->WaitForRegistration(milliseconds(5000)).ok());
  recorder_.PublishNext(EntryAndBase("p/k", "v", 2));
  auto d = Delta(false, 0, 9);
  d.__set_min_subscriber_topic_version(4);
  auto resp = Send(client_.get(), Request(d));
  ASSERT_EQ(resp.topic_updates.size(), 1u);
  EXPECT_EQ(resp.topic_updates[0].topic_name, "t");
  ASSERT_EQ(resp.topic_updates[0].topic_entries.size(), 1u);
  EXPECT_EQ(resp.topic_updates[0].topic_entries[0].key, "p/k");
  EXPECT_EQ(sub_->last_topic_version("t"), 2);  // the publication's from_version wins
  EXPECT_EQ(sub_->min_subscriber_topic_version("t"), 4);
  EXPECT_TRUE(sub_->WaitForMinSubscriberTopicVersion("t", 4, milliseconds(0)).ok());
  EXPECT_TRUE(sub_->WaitForTopicVersion("t", 2, milliseconds(0)).ok());
  EXPECT_TRUE(sub_->WaitForTopicVersion("t", 3, milliseconds(50)).Is(ErrorCode::kTimedOut));
  EXPECT_TRUE(sub_->WaitForTopicVersion("nope", 1, milliseconds(0)).Is(ErrorCode::kNotFound));
}

TEST_F(SubscriberProtocolTest, OnewayUpdatesAreAnsweredOnlyWithSomethingToSay) {
  StartSubscriber(Options("s"));
  ASSERT_TRUE(sub_->WaitForRegistration(milliseconds(5000)).ok());
  EXPECT_TRUE(fake_->last_request().accepts_oneway_updates);
  SendOneway(Request(Delta(false, 0, 5)));  // applied: nothing to say
  EXPECT_EQ(sub_->last_topic_version("t"), 5);
  EXPECT_EQ(fake_->update_requests(), 0);
  const auto resend_of = [&](int64_t from, int64_t rejected) {
    const impala::TRequestTopicUpdateRequest r = fake_->last_update_request();
    return r.__isset.resend_from && r.resend_from.size() == 1 &&
           r.resend_from[0].topic_name == "t" && r.resend_from[0].from_version == from &&
           r.resend_from[0].rejected_to_version == rejected && !r.__isset.topic_updates &&
           r.registration_id == fake_->last_registration_id();
  };

  // A delta that does not start at our version: resend from ours.
  SendOneway(Request(Delta(true, 3, 7)));
  ASSERT_EQ(fake_->update_requests(), 1);
  EXPECT_TRUE(resend_of(5, 7));
  EXPECT_EQ(recorder_.deltas().size(), 1u);

  // A callback that fails: resend from the version it left.
  recorder_.ThrowNext(1);
  SendOneway(Request(Delta(true, 5, 8)));
  ASSERT_EQ(fake_->update_requests(), 2);
  EXPECT_TRUE(resend_of(5, 8));
  EXPECT_EQ(sub_->num_failed_updates(), 1);

  // A publication is pushed (field 5); its from_version becomes a resend.
  recorder_.PublishNext(EntryAndBase("p/k", "v", 2));
  SendOneway(Request(Delta(true, 5, 9)));
  ASSERT_EQ(fake_->update_requests(), 3);
  const impala::TRequestTopicUpdateRequest r = fake_->last_update_request();
  ASSERT_EQ(r.topic_updates.size(), 1u);
  EXPECT_EQ(r.topic_updates[0].topic_name, "t");
  EXPECT_FALSE(r.topic_updates[0].__isset.from_version);
  ASSERT_EQ(r.topic_updates[0].topic_entries.size(), 1u);
  EXPECT_EQ(r.topic_updates[0].topic_entries[0].key, "p/k");
  ASSERT_EQ(r.resend_from.size(), 1u);
  EXPECT_EQ(r.resend_from[0].from_version, 2);
  EXPECT_EQ(r.resend_from[0].rejected_to_version, 9);
  EXPECT_EQ(sub_->last_topic_version("t"), 2);

  // Applied in full: nothing to say again. For another registration:
  // nothing applied, nothing said.
  SendOneway(Request(Delta(true, 2, 10)));
  EXPECT_EQ(sub_->last_topic_version("t"), 10);
  auto foreign = Request(Delta(true, 3, 11));
  foreign.__set_registration_id(GenerateUniqueId());
  SendOneway(foreign);
  EXPECT_EQ(sub_->last_topic_version("t"), 10);
  EXPECT_EQ(fake_->update_requests(), 3);
}

TEST_F(SubscriberProtocolTest, WaitHelpersWakeOnUpdate) {
  StartSubscriber(Options("s"));
  ASSERT_TRUE(sub_->WaitForRegistration(milliseconds(5000)).ok());
  std::thread sender([&] {
    SubscriberClient c("127.0.0.1", sub_->port());
    auto d = Delta(false, 0, 12);
    d.__set_min_subscriber_topic_version(11);
    Send(&c, Request(d));
  });
  EXPECT_TRUE(sub_->WaitForTopicVersion("t", 12, milliseconds(5000)).ok());
  EXPECT_TRUE(sub_->WaitForMinSubscriberTopicVersion("t", 11, milliseconds(5000)).ok());
  sender.join();
}

TEST_F(SubscriberProtocolTest, RejectsUnknownRegistrationId) {
  StartSubscriber(Options("s"));
  ASSERT_TRUE(sub_->WaitForRegistration(milliseconds(5000)).ok());
  auto req = Request(Delta(false, 0, 5));
  req.__set_registration_id(GenerateUniqueId());
  auto resp = Send(client_.get(), req);
  EXPECT_EQ(resp.status.status_code, impala::TErrorCode::GENERAL);
  ASSERT_FALSE(resp.status.error_msgs.empty());
  EXPECT_NE(resp.status.error_msgs[0].find("unknown registration"), std::string::npos)
      << resp.status.error_msgs[0];
  EXPECT_TRUE(recorder_.deltas().empty());
  EXPECT_EQ(sub_->last_topic_version("t"), 0);

  auto hb = SendHeartbeat(GenerateUniqueId(), fake_->statestore_id_);
  EXPECT_EQ(hb.status.status_code, impala::TErrorCode::GENERAL);
  hb = SendHeartbeat(fake_->last_registration_id(), fake_->statestore_id_);
  EXPECT_EQ(hb.status.status_code, impala::TErrorCode::OK);
}

TEST_F(SubscriberProtocolTest, ConcurrentUpdateIsSkipped) {
  StartSubscriber(Options("s"));
  ASSERT_TRUE(sub_->WaitForRegistration(milliseconds(5000)).ok());
  recorder_.set_block(true);
  impala::TUpdateStateResponse first;
  std::thread t([&] {
    SubscriberClient c("127.0.0.1", sub_->port());
    first = Send(&c, Request(Delta(false, 0, 3)));
  });
  ASSERT_EVENTUALLY_TRUE(recorder_.in_callback() == 1);
  const auto start = Clock::now();
  auto second = Send(client_.get(), Request(Delta(false, 0, 4)));
  EXPECT_LT(Clock::now() - start, milliseconds(1000));
  EXPECT_EQ(second.status.status_code, impala::TErrorCode::OK);
  EXPECT_TRUE(second.__isset.skipped && second.skipped);
  recorder_.set_block(false);
  t.join();
  EXPECT_EQ(first.status.status_code, impala::TErrorCode::OK);
  EXPECT_FALSE(first.__isset.skipped && first.skipped);
  EXPECT_EQ(sub_->last_topic_version("t"), 3);
}

TEST_F(SubscriberProtocolTest, UpdateDuringRegistrationIsSkipped) {
  fake_->set_hold_registration(true);
  StartSubscriber(Options("s"));
  ASSERT_EVENTUALLY_TRUE(fake_->register_calls() == 1);
  auto resp = Send(client_.get(), Request(Delta(false, 0, 3)));
  EXPECT_TRUE(resp.__isset.skipped && resp.skipped);
  fake_->set_hold_registration(false);
  ASSERT_TRUE(sub_->WaitForRegistration(milliseconds(5000)).ok());
  resp = Send(client_.get(), Request(Delta(false, 0, 3)));
  EXPECT_FALSE(resp.__isset.skipped && resp.skipped);
  EXPECT_EQ(sub_->last_topic_version("t"), 3);
}

TEST_F(SubscriberProtocolTest, ReRegistersWhenHeartbeatsStop) {
  auto o = Options("s");
  o.statestore_timeout_ms = 400;
  StartSubscriber(o);
  ASSERT_TRUE(sub_->WaitForRegistration(milliseconds(5000)).ok());
  const auto first_id = *sub_->registration_id();
  // Heartbeats keep the registration for several timeouts.
  const auto until = Clock::now() + milliseconds(1000);
  while (Clock::now() < until) {
    auto hb = SendHeartbeat(first_id, fake_->statestore_id_);
    EXPECT_EQ(hb.status.status_code, impala::TErrorCode::OK);
    std::this_thread::sleep_for(milliseconds(50));
  }
  EXPECT_EQ(sub_->num_registrations(), 1);
  // Without them it registers again, with a fresh id and versions reset.
  Send(client_.get(), Request(Delta(false, 0, 8)));
  EXPECT_EQ(sub_->last_topic_version("t"), 8);
  ASSERT_EVENTUALLY_TRUE(sub_->num_registrations() == 2);
  ASSERT_TRUE(sub_->WaitForRegistration(milliseconds(5000)).ok());
  EXPECT_NE(*sub_->registration_id(), first_id);
  EXPECT_EQ(sub_->last_topic_version("t"), 0);
  // The old registration is refused now.
  EXPECT_EQ(SendHeartbeat(first_id, fake_->statestore_id_).status.status_code,
            impala::TErrorCode::GENERAL);
}

TEST_F(SubscriberProtocolTest, ReRegistersWhenStatestoreIdChanges) {
  StartSubscriber(Options("s"));
  ASSERT_TRUE(sub_->WaitForRegistration(milliseconds(5000)).ok());
  auto hb = SendHeartbeat(fake_->last_registration_id(), GenerateUniqueId());
  EXPECT_EQ(hb.status.status_code, impala::TErrorCode::GENERAL);
  ASSERT_EVENTUALLY_TRUE(sub_->num_registrations() == 2);
  EXPECT_EQ(fake_->register_calls(), 2);
}

TEST_F(SubscriberProtocolTest, RequestTopicUpdateIsAsyncAndCoalesced) {
  StartSubscriber(Options("s"));
  sub_->RequestTopicUpdate();  // before registration: a no-op
  ASSERT_TRUE(sub_->WaitForRegistration(milliseconds(5000)).ok());
  EXPECT_EQ(fake_->update_requests(), 0);

  fake_->set_hold_update_requests(true);
  sub_->RequestTopicUpdate();
  ASSERT_EVENTUALLY_TRUE(fake_->update_requests() == 1);
  const auto start = Clock::now();
  for (int i = 0; i < 20; ++i) sub_->RequestTopicUpdate();
  EXPECT_LT(Clock::now() - start, milliseconds(200));  // never waits for the statestore
  fake_->set_hold_update_requests(false);
  ASSERT_EVENTUALLY_TRUE(fake_->update_requests() == 2);  // the 20 calls merged into one
  // Nothing else is pending: a request now makes exactly one more call.
  sub_->RequestTopicUpdate();
  ASSERT_EVENTUALLY_TRUE(fake_->update_requests() == 3);
}

TEST_F(SubscriberProtocolTest, StopIsPromptWhileRegistrationHangsOrStatestoreIsDown) {
  fake_->set_hold_registration(true);
  StartSubscriber(Options("hung"));
  ASSERT_EVENTUALLY_TRUE(fake_->register_calls() == 1);
  auto start = Clock::now();
  sub_->Stop();
  EXPECT_LT(Clock::now() - start, milliseconds(2000));
  EXPECT_TRUE(sub_->WaitForRegistration(milliseconds(1000)).Is(ErrorCode::kShutdown));
  fake_->set_hold_registration(false);

  // A statestore port nobody listens on (and nobody can take meanwhile):
  // retrying, and still stops at once.
  auto o = Options("down");
  ::ics::testing::RefusingLoopbackPort refusing;
  ASSERT_GT(refusing.port(), 0);
  o.statestore_port = refusing.port();
  StatestoreSubscriber down(o);
  ASSERT_TRUE(down.Start().ok());
  EXPECT_TRUE(down.WaitForRegistration(milliseconds(200)).Is(ErrorCode::kTimedOut));
  start = Clock::now();
  down.Stop();
  EXPECT_LT(Clock::now() - start, milliseconds(1000));
}

}  // namespace
}  // namespace ics::statestore
