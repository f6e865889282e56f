// The subscriber's calls to its statestore: the client type, how a client is
// set up from the subscriber's options, one call with the retry of a stale
// kept connection, and RequestTopicUpdate with what its answer means for the
// registration. Used by RegistrationLoop (RegisterSubscriber, plain and
// probing RequestTopicUpdate calls, the minimum wishes) and PublishChannel
// (pushed publications, answers to oneway updates), each on a client of its
// own.
//
// Thread-safety: a client serves one call at a time; each of its users
// serialises its own calls (the background thread; PublishChannel's lock).
// Interrupting a client's connection from another thread is safe. These
// functions take no lock except the session's, through
// SubscriberSession::DropUnknownRegistration.
#pragma once

#include <memory>

#include "StatestoreService_types.h"
#include "common/rpc/thrift_client.h"
#include "common/util/status.h"
#include "statestore/subscriber_options.h"

namespace impala {
class StatestoreServiceClient;
}

namespace ics::statestore {

class SubscriberSession;

using StatestoreClient = ThriftClient<impala::StatestoreServiceClient>;

// A client of the statestore named in `options`, with its connect, send and
// receive timeouts, message bound and TLS.
std::unique_ptr<StatestoreClient> MakeStatestoreClient(const StatestoreSubscriberOptions& options);

// Runs one RPC on `client`; retries once when a kept connection was stale.
// Instantiated where the service's client type is complete.
template <typename Fn>
[[nodiscard]] Status CallStatestore(StatestoreClient* client, const char* rpc, int timeout_ms,
                                    Fn&& fn) {
  ThriftConnection& conn = client->connection();
  conn.SetRecvTimeout(timeout_ms);
  const bool was_open = conn.is_open();
  Status s = client->Call(rpc, fn);
  // A kept connection may have been closed by the statestore meanwhile.
  if (!s.ok() && was_open && s.Is(ErrorCode::kNetworkError)) s = client->Call(rpc, fn);
  return s;
}

// RequestTopicUpdate on `client`: a plain one (send an update now), with the
// on-request choice and the minimum versions waited for, or with
// publications. OK when the statestore answered OK; `resp` (optional)
// receives its answer. When the statestore does not know the registration,
// `session` drops it (the background thread registers again). `timeout_ms`
// 0: options.request_update_timeout_ms.
[[nodiscard]] Status SendRequestTopicUpdate(const StatestoreSubscriberOptions& options,
                                            SubscriberSession* session, StatestoreClient* client,
                                            impala::TRequestTopicUpdateRequest req,
                                            impala::TRequestTopicUpdateResponse* resp = nullptr,
                                            int timeout_ms = 0);

}  // namespace ics::statestore
