// The transport-security flags every daemon shares, in one place:
//   --ssl_server_certificate, --ssl_private_key   this process's certificate
//                                                 chain and key (PEM); both
//                                                 set = every port speaks TLS
//   --ssl_client_ca_certificate                   CA bundle that verifies peers
//   --ssl_require_client_certificate             mutual TLS: servers require
//                                                 a client certificate signed
//                                                 by that CA
//   --ssl_minimum_version (tlsv1.2), --ssl_cipher_list
//   --insecure_allow_plaintext_remote            let plaintext ports bind
//                                                 non-loopback addresses
// Names follow Apache Impala where Impala has the flag.
#pragma once

#include <string>

#include "common/rpc/tls.h"
#include "common/util/result.h"

namespace ics {

// The process's RpcSecurity from the flags; an error names the bad flag or
// file. TLS is off when neither certificate nor key is set.
[[nodiscard]] Result<RpcSecurity> RpcSecurityFromFlags();

// `flag_value` when set, else DefaultBindHost(TLS on?) (bind_policy.h).
std::string ListenHostOrDefault(const std::string& flag_value, const RpcSecurity& security);

}  // namespace ics
