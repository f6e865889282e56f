// RegistrationLoop: the subscriber's background thread, which keeps it
// registered with its statestore and makes the calls nobody should wait for.
//
//  * Registers (RegisterSubscriber with the subscriptions, the callback
//    server's address and the options' role fields), retrying with capped
//    exponential backoff (register_backoff_initial_ms doubling up to
//    register_backoff_max_ms, +-20% jitter) while the statestore is
//    unreachable or refuses. The reply's designation and activation go to
//    the RoleFollower.
//  * Watches heartbeats: registers again when none came for
//    statestore_timeout_ms (SubscriberSession::NextWork decides), and with
//    statestore_probe_after_ms probes a silent statestore with an empty
//    RequestTopicUpdate, which drops the registration when the statestore
//    does not know it.
//  * Sends the RequestTopicUpdate calls asked for: update requests (merged
//    while one is pending) and the minimum wishes with the "on request"
//    choice.
// Its connection is opened per registration attempt and closed after it;
// for RequestTopicUpdate calls it is kept open kKeepRequestConnection after
// the last one, so quiet subscribers hold no connection to the statestore.
//
// Owns: the thread and its client.
//
// Thread-safety: CreateClient, StartThread, Join and Close are called by the owner's Start/Stop
// only (serialised by its stop lock). InterruptRpc is called from Stop,
// through SubscriberSession::Stop, while the thread is inside an RPC. The
// thread takes RoleFollower's lock (at the end of a registration) and the
// session's, in that order, and holds neither during an RPC.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <thread>

#include "common/util/status.h"
#include "statestore/subscriber_options.h"
#include "statestore/subscriber_rpc.h"

namespace ics::statestore {

class RoleFollower;
class SubscriberSession;

class RegistrationLoop {
 public:
  using Subscriptions = std::map<std::string, TopicSubscription>;

  // Every argument must outlive the loop.
  RegistrationLoop(const StatestoreSubscriberOptions* options, const Subscriptions* subscriptions,
                   SubscriberSession* session, RoleFollower* roles);
  ~RegistrationLoop();

  // Creates the client; the thread will register with `callback_port` as
  // the subscriber's port.
  void CreateClient(int callback_port);
  // Starts the thread, once the session is marked started (Stop waits for
  // the thread only then).
  void StartThread();
  // Interrupts the thread's RPC in progress.
  void InterruptRpc();
  // Waits for the thread to exit (after SubscriberSession::Stop).
  void Join();
  // Closes the connection (after the RPC server stopped).
  void Close();

 private:
  void Loop();
  [[nodiscard]] Status Register();
  std::string AdvertisedHost() const;

  const StatestoreSubscriberOptions& options_;
  const Subscriptions& subscriptions_;
  SubscriberSession* const session_;
  RoleFollower* const roles_;

  int callback_port_ = 0;
  // Used by the thread only, and by InterruptRpc (see above).
  std::unique_ptr<StatestoreClient> client_;
  std::thread thread_;
};

}  // namespace ics::statestore
