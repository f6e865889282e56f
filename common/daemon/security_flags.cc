#include "common/daemon/security_flags.h"

#include <gflags/gflags.h>

#include "common/rpc/auth_token.h"
#include "common/rpc/bind_policy.h"

DEFINE_string(ssl_server_certificate, "",
              "PEM certificate chain of this process. With --ssl_private_key, every RPC port "
              "speaks TLS, and outgoing connections present it when the peer asks for one.");
DEFINE_string(ssl_private_key, "", "PEM private key of --ssl_server_certificate.");
DEFINE_string(ssl_client_ca_certificate, "",
              "PEM CA bundle that verifies the certificates of the servers this process connects "
              "to (and of its clients with --ssl_require_client_certificate). Empty: the system's "
              "trust store.");
DEFINE_bool(ssl_require_client_certificate, false,
            "Mutual TLS: servers refuse clients without a certificate signed by "
            "--ssl_client_ca_certificate; the certificate's subject is the peer's identity.");
DEFINE_string(ssl_minimum_version, "tlsv1.2", "Lowest TLS version accepted: tlsv1.2 or tlsv1.3.");
DEFINE_string(ssl_cipher_list, "",
              "OpenSSL cipher list for TLS 1.2 connections; empty: OpenSSL's defaults.");
DEFINE_bool(insecure_allow_plaintext_remote, false,
            "Without TLS, let RPC ports listen on non-loopback addresses (unencrypted and "
            "unauthenticated: anyone who reaches them can read and change the catalog).");

DEFINE_string(statestore_auth_token_file, "",
              "File whose first line is the token this daemon presents when it registers with "
              "the statestore (for statestores started with --statestore_subscriber_tokens_file).");

namespace ics {

Result<RpcSecurity> RpcSecurityFromFlags() {
  RpcSecurity security;
  security.allow_plaintext_remote = FLAGS_insecure_allow_plaintext_remote;
  if (!FLAGS_statestore_auth_token_file.empty()) {
    ICS_ASSIGN_OR_RETURN(security.statestore_auth_token,
                         ReadAuthTokenFile(FLAGS_statestore_auth_token_file));
  }
  const bool tls = !FLAGS_ssl_server_certificate.empty() || !FLAGS_ssl_private_key.empty();
  if (!tls) {
    if (FLAGS_ssl_require_client_certificate) {
      return Status::InvalidArgument(
          "--ssl_require_client_certificate needs --ssl_server_certificate and --ssl_private_key");
    }
    return security;
  }
  TlsOptions o;
  o.certificate_file = FLAGS_ssl_server_certificate;
  o.private_key_file = FLAGS_ssl_private_key;
  o.ca_certificate_file = FLAGS_ssl_client_ca_certificate;
  o.require_client_certificate = FLAGS_ssl_require_client_certificate;
  o.minimum_version = FLAGS_ssl_minimum_version;
  o.cipher_list = FLAGS_ssl_cipher_list;
  ICS_ASSIGN_OR_RETURN(security.tls, TlsContext::Create(o));
  return security;
}

std::string ListenHostOrDefault(const std::string& flag_value, const RpcSecurity& security) {
  return flag_value.empty() ? DefaultBindHost(security.tls != nullptr) : flag_value;
}

}  // namespace ics
