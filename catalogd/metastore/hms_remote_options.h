// Settings of the remote Hive Metastore backend and the metastore URI that
// selects it: "thrift://host:port[?key=value&...]".
//
// Recognized query keys (all optional, integers):
//   pool_size           most connections open at once (default 8, 1..1024)
//   connect_timeout_ms  TCP connect timeout (default 5000)
//   rpc_timeout_ms      send and receive timeout of one call (default 60000)
//   pool_wait_ms        how long a caller waits for a free connection when
//                       pool_size are busy (default 60000)
//   retries             extra attempts of a call that provably did not reach
//                       the server, or of an idempotent read (default 3)
//   retry_backoff_ms    first backoff; doubles per attempt up to 2000 ms
//                       (default 100)
//   ssl                 true: connect with TLS (the process's TLS context
//                       verifies the server; see common/rpc/tls.h);
//                       false (default): plaintext
// The port defaults to 9083 (the Hive Metastore's). IPv6 literals go in
// brackets ("thrift://[::1]:9083"). Anything else — another scheme, an
// empty host, a bad port, an unknown key, a value out of range — is an
// INVALID_ARGUMENT naming the offending part.
//
// Thread-safety: value types and stateless functions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/rpc/tls.h"
#include "common/util/result.h"

namespace ics::catalog {

inline constexpr std::string_view kThriftMetastoreScheme = "thrift://";
inline constexpr int kDefaultHmsPort = 9083;

struct RemoteMetastoreOptions {
  std::string host;
  int port = kDefaultHmsPort;
  int pool_size = 8;
  int connect_timeout_ms = 5000;
  int rpc_timeout_ms = 60000;
  int pool_wait_ms = 60000;
  int retries = 3;
  int retry_backoff_ms = 100;
  int64_t max_message_bytes = 1ll << 30;
  bool ssl = false;                       // from the URI
  std::shared_ptr<const TlsContext> tls;  // used when ssl; set by the opener

  // "host:port" (brackets around IPv6 literals), for messages.
  std::string Address() const;
};

// True when `uri` starts with "thrift://" (the remote backend's scheme).
bool IsThriftMetastoreUri(std::string_view uri);

// Parses a "thrift://..." URI as described above.
Result<RemoteMetastoreOptions> ParseThriftMetastoreUri(std::string_view uri);

}  // namespace ics::catalog
