#include "statestore/subscriber_rpc.h"

#include <algorithm>

#include "StatestoreService.h"
#include "common/rpc/status_convert.h"
#include "statestore/subscriber_session.h"

namespace ics::statestore {

std::unique_ptr<StatestoreClient> MakeStatestoreClient(const StatestoreSubscriberOptions& options) {
  ThriftClientOptions co;
  co.connect_timeout_ms = options.rpc_connect_timeout_ms;
  co.send_timeout_ms = std::max(options.register_timeout_ms, options.request_update_timeout_ms);
  co.recv_timeout_ms = options.register_timeout_ms;
  co.max_message_bytes = options.max_message_bytes;
  co.tls = options.security.tls;
  return std::make_unique<StatestoreClient>(options.statestore_host, options.statestore_port, co);
}

Status SendRequestTopicUpdate(const StatestoreSubscriberOptions& options,
                              SubscriberSession* session, StatestoreClient* client,
                              impala::TRequestTopicUpdateRequest req,
                              impala::TRequestTopicUpdateResponse* resp, int timeout_ms) {
  req.protocol_version = impala::StatestoreServiceVersion::V2;
  impala::TRequestTopicUpdateResponse local;
  impala::TRequestTopicUpdateResponse& out = resp != nullptr ? *resp : local;
  Status s = CallStatestore(
      client, "RequestTopicUpdate", timeout_ms > 0 ? timeout_ms : options.request_update_timeout_ms,
      [&](impala::StatestoreServiceClient& c) { c.RequestTopicUpdate(out, req); });
  if (s.ok()) s = FromTStatus(out.status);
  if (s.ok() || !out.__isset.registration_unknown || !out.registration_unknown) return s;
  // The statestore does not know the registration (it restarted): register
  // again, unless that happened meanwhile.
  session->DropUnknownRegistration(req.registration_id);
  return s;
}

}  // namespace ics::statestore
