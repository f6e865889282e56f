// FakeSubscriber: a statestore subscriber built from the Thrift IDL alone.
//
// It uses only the generated code (impala::StatestoreSubscriberProcessor,
// impala::StatestoreServiceClient and the structs) and plain Apache Thrift
// (TThreadedServer, TServerSocket, TSocket, TBufferedTransport,
// TBinaryProtocol): deliberately none of the project's subscriber library or
// RPC helpers, so the broker is checked against the wire contract and not
// against code that shares its assumptions.
//
// What it does:
//  * serves StatestoreSubscriber on 127.0.0.1, port 0 (a free port);
//  * registers with RegisterSubscriber (again on demand, or automatically
//    when no heartbeat arrived for reregister_after_ms);
//  * records every UpdateState (one RecordedUpdate per topic delta) and every
//    Heartbeat;
//  * keeps a model of each topic (key -> value, last processed version, and a
//    snapshot per processed version), applying deltas like a real subscriber:
//    a full update replaces the model, a delta that does not chain onto the
//    processed version is not applied and is answered with from_version =
//    current version (auto_rebase);
//  * answers as scripted by the test: queued publications, from_version
//    requests, rewinds to an older snapshot, skipped=true, an error status,
//    delayed or hung updates and heartbeats.
//
// Waiting: every recorded event bumps a generation counter and wakes
// WaitUntil(), so tests wait on conditions with deadlines, never on sleeps.
//
// Thread-safety: all public methods are thread-safe. Handlers run on the
// Thrift server's connection threads. Stop() releases hung handlers and joins
// every thread; it is idempotent and run by the destructor.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <thrift/protocol/TBinaryProtocol.h>
#include <thrift/transport/TBufferTransports.h>
#include <thrift/transport/TSocket.h>

#include "StatestoreService.h"
#include "StatestoreService_types.h"
#include "StatestoreSubscriber.h"
#include "tests/util/eventually.h"

namespace apache::thrift::server {
class TThreadedServer;
}

namespace ics::sstest {

using ::ics::testing::Eventually;

using Clock = std::chrono::steady_clock;
using Millis = std::chrono::milliseconds;

inline double SecondsSince(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// One topic delta of one UpdateState call.
struct RecordedUpdate {
  Clock::time_point at;
  int64_t call_seq = 0;                              // index of the UpdateState call (0-based)
  int registration_seq = 0;                          // how many registrations had completed then
  std::optional<impala::TUniqueId> registration_id;  // as sent by the statestore
  std::optional<impala::TUniqueId> statestore_id;
  impala::TTopicDelta delta;
};

// One UpdateCatalogd or UpdateStatestoredRole call (catalogd HA).
struct RecordedCatalogdUpdate {
  Clock::time_point at;
  bool statestored_role = false;  // UpdateStatestoredRole (else UpdateCatalogd)
  std::optional<impala::TUniqueId> registration_id;
  int64_t catalogd_version = 0;  // 0 when the request carried none
  std::optional<impala::TCatalogRegistration> catalogd;
};

struct RecordedHeartbeat {
  Clock::time_point at;
  std::optional<impala::TUniqueId> registration_id;
};

enum class UpdateReply { kNormal, kSkip, kError };

struct FakeSubscriberOptions {
  std::string id;
  std::vector<impala::TTopicRegistration> topics;
  std::string statestore_host = "127.0.0.1";
  int statestore_port = 0;
  // Re-register when no heartbeat arrived for this long (0 = never).
  int reregister_after_ms = 0;
  // Answer a delta that does not chain onto the processed version with
  // from_version = processed version (what a real subscriber does).
  bool auto_rebase = true;
  // Answer an UpdateState whose registration_id is not ours with an error.
  bool reject_foreign_registration = true;
  int rpc_timeout_ms = 5000;
  // Sent in the registration when set (only CATALOGD may write catalog-update).
  std::optional<impala::TStatestoreSubscriberType::type> subscriber_type;
  // catalogd HA: sent in the registration when set.
  bool subscribe_catalogd_change = false;
  std::optional<impala::TCatalogRegistration> catalogd_registration;
};

// A topic registration for the common cases.
impala::TTopicRegistration TopicReg(const std::string& name, bool transient = false,
                                    const std::string& filter_prefix = "",
                                    bool want_min_version = false);
impala::TTopicItem Item(const std::string& key, const std::string& value);
impala::TTopicItem Tombstone(const std::string& key);
std::string IdToString(const impala::TUniqueId& id);

// Calls the StatestoreService on host:port with a fresh connection. Returns
// false (and the error in *error) on a transport failure.
bool CallStatestore(const std::string& host, int port,
                    const std::function<void(impala::StatestoreServiceClient&)>& call,
                    std::string* error = nullptr, int timeout_ms = 5000);

class FakeSubscriber {
 public:
  explicit FakeSubscriber(FakeSubscriberOptions options);
  ~FakeSubscriber();
  FakeSubscriber(const FakeSubscriber&) = delete;
  FakeSubscriber& operator=(const FakeSubscriber&) = delete;

  // Binds 127.0.0.1:0 and serves. Returns false on failure.
  bool Start(std::string* error = nullptr);
  // Stops serving (connections are closed, so the statestore sees refused
  // connections from now on, like a killed process). Idempotent.
  void Stop();
  int port() const { return port_.load(); }
  const std::string& id() const { return options_.id; }

  // Registers (again). Local topic versions restart at 0 and publications
  // marked sticky are queued again. Returns the response; a transport failure
  // yields status GENERAL with the error message.
  impala::TRegisterSubscriberResponse Register();
  // Register() and true iff the status is OK.
  bool RegisterOk(std::string* error = nullptr);
  std::optional<impala::TUniqueId> registration_id() const;
  int registration_count() const;

  // ---- scripting the replies ----
  // Queues a publication sent in the next normally answered UpdateState.
  void Publish(const std::string& topic, std::vector<impala::TTopicItem> items,
               bool clear_topic_entries = false);
  // Like Publish, and queued again after every (re-)registration.
  void PublishSticky(const std::string& topic, std::vector<impala::TTopicItem> items);
  // Queues a request for a new base: from_version = version (no entries).
  // The local model's version becomes `version` (entries kept).
  void RequestFromVersion(const std::string& topic, int64_t version);
  // Restores the model to its snapshot at `version` and asks the statestore
  // for deltas from there. Returns false if no snapshot of that version.
  bool RewindTo(const std::string& topic, int64_t version);
  // kSkip answers skipped=true, kError an error status; both also carry the
  // queued publications (kept queued), which the statestore must ignore.
  void SetUpdateReply(UpdateReply reply);
  void SetUpdateDelay(Millis delay);
  void SetHangUpdates(bool hang);
  // The next `count` heartbeats each take `delay` before answering.
  void DelayNextHeartbeats(int count, Millis delay);
  void SetHangHeartbeats(bool hang);

  // ---- what was received ----
  std::vector<RecordedUpdate> Updates(const std::string& topic) const;
  size_t UpdateCount(const std::string& topic) const;
  int64_t UpdateCalls() const;
  std::vector<RecordedHeartbeat> Heartbeats() const;
  // UpdateCatalogd / UpdateStatestoredRole calls, and the catalogd fields of
  // the last registration reply.
  std::vector<RecordedCatalogdUpdate> CatalogdUpdates() const;
  impala::TRegisterSubscriberResponse LastRegistration() const;
  size_t HeartbeatCount() const;
  // Last processed version of the topic (local model).
  int64_t TopicVersion(const std::string& topic) const;
  std::map<std::string, std::string> Entries(const std::string& topic) const;
  bool HasKey(const std::string& topic, const std::string& key) const;
  // Last min_subscriber_topic_version received for the topic (-1 if none).
  int64_t LastMinVersion(const std::string& topic) const;
  // Deltas that did not chain onto the processed version.
  int64_t ChainErrors(const std::string& topic) const;
  // UpdateState calls carrying another registration's id.
  int64_t ForeignRegistrationUpdates() const;
  // Protocol violations seen so far (empty if none): a delta for a topic not
  // registered, a key outside the registration's filter_prefix, a missing
  // to_version / from_version, a tombstone in a full update, to_version <
  // from_version, two UpdateState calls in flight at once, or a delta that
  // does not chain onto the processed version. The last two are only
  // reported while the test has not scripted slow/hung updates or rewinds
  // (those make overlaps and re-bases legitimate).
  std::vector<std::string> Violations() const;
  // Largest number of UpdateState calls seen in flight at once.
  int MaxConcurrentUpdates() const;
  // Time of the last response that carried publications.
  std::optional<Clock::time_point> LastPublishTime() const;

  // Waits until pred() holds, re-checking on every recorded event; false on
  // timeout. pred must not call Stop().
  bool WaitUntil(const std::function<bool()>& pred, Millis timeout) const;
  bool WaitForUpdates(const std::string& topic, size_t count, Millis timeout) const;
  bool WaitForHeartbeats(size_t count, Millis timeout) const;
  bool WaitForKey(const std::string& topic, const std::string& key, Millis timeout) const;
  bool WaitForKeyGone(const std::string& topic, const std::string& key, Millis timeout) const;
  bool WaitForVersion(const std::string& topic, int64_t version, Millis timeout) const;

  // A one-line summary for failure messages.
  std::string Describe() const;

 private:
  class Handler;
  friend class Handler;

  struct TopicModel {
    int64_t version = 0;
    std::map<std::string, std::string> entries;
    std::map<int64_t, std::map<std::string, std::string>> snapshots;
    int64_t last_min_version = -1;
    int64_t chain_errors = 0;
    std::vector<RecordedUpdate> updates;
  };

  void OnUnexpectedOneway();
  void OnUpdateState(impala::TUpdateStateResponse& resp, const impala::TUpdateStateRequest& req);
  void OnHeartbeat(impala::THeartbeatResponse& resp, const impala::THeartbeatRequest& req);
  void OnCatalogdUpdate(RecordedCatalogdUpdate update);
  // Sleeps for `d` unless stopping; returns false if interrupted by Stop().
  bool SleepInterruptibly(std::unique_lock<std::mutex>& l, Millis d);
  void WaitWhileRegistering(std::unique_lock<std::mutex>& l);
  void BumpLocked();
  void CheckDeltaLocked(const std::string& name, const impala::TTopicDelta& delta, int64_t seq);
  void MonitorLoop();

  const FakeSubscriberOptions options_;
  std::atomic<int> port_{0};

  mutable std::mutex mu_;
  mutable std::condition_variable cv_;
  uint64_t generation_ = 0;
  bool stopping_ = false;
  bool registering_ = false;
  std::optional<impala::TUniqueId> registration_id_;
  int registration_count_ = 0;
  std::map<std::string, TopicModel> topics_;
  std::vector<RecordedHeartbeat> heartbeats_;
  std::vector<RecordedCatalogdUpdate> catalogd_updates_;
  impala::TRegisterSubscriberResponse last_registration_;
  int64_t update_calls_ = 0;
  int updates_in_flight_ = 0;
  int max_updates_in_flight_ = 0;
  std::vector<std::string> violations_;
  // Set once the script makes overlapping updates or re-bases legitimate.
  bool timing_scripted_ = false;
  bool versions_scripted_ = false;
  int64_t foreign_updates_ = 0;
  Clock::time_point last_contact_;
  std::optional<Clock::time_point> last_publish_time_;

  // Script.
  struct PendingPublication {
    impala::TTopicDelta delta;
    bool rewind = false;  // restore the snapshot at delta.from_version when sent
  };
  std::deque<PendingPublication> pending_;
  std::vector<impala::TTopicDelta> sticky_;
  UpdateReply reply_ = UpdateReply::kNormal;
  Millis update_delay_{0};
  bool hang_updates_ = false;
  int slow_heartbeats_ = 0;
  Millis heartbeat_delay_{0};
  bool hang_heartbeats_ = false;

  std::mutex register_mu_;  // serialises Register (test thread vs. monitor)
  std::mutex server_mu_;    // serialises Start/Stop
  std::shared_ptr<apache::thrift::server::TThreadedServer> server_;
  std::thread serve_thread_;
  std::thread monitor_thread_;
};

}  // namespace ics::sstest
