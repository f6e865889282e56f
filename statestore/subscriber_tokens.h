// Subscriber identity without mutual TLS: shared-secret tokens.
//
// With mutual TLS a subscriber's identity is its verified certificate
// subject. Where client certificates are not used (plaintext loopback, or
// TLS that only authenticates the server), statestored can instead be given
// a token table (--statestore_subscriber_tokens_file), one entry per line:
//
//   # name    secret
//   catalogd  3f9c...e1
//   coord     77aa...02
//
// Every registration must then carry one of the secrets
// (TRegisterSubscriberRequest.auth_token, sent by subscribers started with
// --statestore_auth_token_file); its identity is "token:<name>" (so
// --statestore_catalogd_identity=token:catalogd makes only the holder of
// that secret the catalog-update writer). A registration with a missing or
// unknown token is refused. A verified certificate subject, when present,
// takes precedence over any token. Without a table, identities stay as
// they were (certificate subject or empty) and tokens are ignored.
//
// Secrets are compared in constant time; they are never logged. Sent over
// plaintext they are only as safe as the network: use them on loopback or
// over TLS.
//
// Thread-safety: immutable value type.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/util/result.h"

namespace ics::statestore {

struct SubscriberTokens {
  struct Entry {
    std::string name;
    std::string secret;
  };
  std::vector<Entry> entries;  // empty: no token table

  // The identity of a registration whose peer presented `peer_identity`
  // (certificate subject, may be empty) and `token` (may be empty), or
  // why it is refused.
  [[nodiscard]] Result<std::string> Identify(const std::string& subscriber_id,
                                             const std::string& peer_identity,
                                             const std::string& token) const;
};

// Parses the table (see above): '#' comments, blank lines; names are
// [A-Za-z0-9_.-]{1,64}, secrets valid tokens (common/rpc/auth_token.h);
// names and secrets must be unique; at most 1 MiB.
[[nodiscard]] Result<SubscriberTokens> ParseSubscriberTokens(std::string_view text);

// Reads and parses the table file `path` (at most 1 MiB + 1 byte is read, so
// a larger file fails the size check); an error names the file.
[[nodiscard]] Result<SubscriberTokens> ReadSubscriberTokensFile(const std::string& path);

}  // namespace ics::statestore
