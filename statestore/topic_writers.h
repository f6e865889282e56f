// Who may write which statestore topic (topic ownership).
//
// A publication (entries, deletions or clear_topic_entries in an
// UpdateState response) to an owned topic is applied only when its
// registration may write that topic; otherwise the whole delta is dropped,
// counted and logged, and the topic is untouched.
//   - "catalog-update" is always owned by the catalog daemon: only a
//     registration of subscriber type CATALOGD may write it, and with
//     catalogd_identity set (--statestore_catalogd_identity) only one whose
//     verified certificate subject is exactly that. A CATALOGD registration
//     with another identity is refused at registration.
//   - Other topics are open (any registration writes them, as in Impala)
//     unless `writers` names the one identity that may
//     (--statestore_topic_writers "topic=identity;topic=identity").
// Identities are the RFC 2253 subjects of mutual-TLS client certificates
// (common/rpc/peer.h) or, without them, "token:<name>" from the statestore's
// token table (subscriber_tokens.h); with neither every identity is empty,
// so configure identities only together with one of them.
//
// Thread-safety: immutable value type.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "StatestoreService_types.h"
#include "common/util/result.h"

namespace ics::statestore {

inline constexpr std::string_view kCatalogTopicName = "catalog-update";

struct TopicWriterPolicy {
  std::string catalogd_identity;              // empty: any CATALOGD registration
  std::map<std::string, std::string> writers;  // topic -> the identity that may write it

  // Whether a registration of `type` with `identity` may write `topic`.
  bool MayWrite(const std::string& topic, impala::TStatestoreSubscriberType::type type,
                const std::string& identity) const;
  // OK, or why a registration of `type` with `identity` is refused.
  [[nodiscard]] Status CheckRegistration(const std::string& subscriber_id,
                                         impala::TStatestoreSubscriberType::type type,
                                         const std::string& identity) const;
};

// Parses "topic=identity;topic=identity" (identities may contain ',' and
// '='; the first '=' ends the topic name). Empty text: no rules.
[[nodiscard]] Result<std::map<std::string, std::string>> ParseTopicWriters(std::string_view text);

}  // namespace ics::statestore
