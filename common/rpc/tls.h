// TLS for the project's Thrift connections (OpenSSL through Thrift's
// TSSLSocket), one immutable context per process.
//
// A TlsContext holds two OpenSSL contexts built from one TlsOptions:
//   - the server side presents certificate_file / private_key_file and, with
//     require_client_certificate, verifies every client's certificate against
//     ca_certificate_file (mutual TLS): a client without one, or with one no
//     trusted CA signed, fails the handshake;
//   - the client side verifies the server's certificate against
//     ca_certificate_file (the system's trust store when empty) and checks
//     that it names the host connected to (subjectAltName DNS or IP entry,
//     else the common name); it presents the same certificate and key as
//     its own identity when they are set (so daemons authenticate to each
//     other with mTLS).
// Both sides refuse protocol versions below minimum_version and, when
// cipher_list is set, ciphers outside it (TLS 1.2 and older; TLS 1.3 suites
// are OpenSSL's defaults).
//
// A peer's identity is the subject of its verified certificate, in RFC 2253
// form ("CN=catalogd,O=example"); TlsSocket::peer_identity() reports it once
// the handshake is done (empty when the peer sent none).
//
// Thread-safety: a TlsContext is immutable after Create and may be shared by
// every thread; each TlsSocket belongs to one connection.
#pragma once

#include <memory>
#include <string>

#include <thrift/transport/TSSLSocket.h>

#include "common/util/result.h"
#include "common/util/status.h"

namespace ics {

struct TlsOptions {
  std::string certificate_file;     // PEM chain (server identity, and client identity for mTLS)
  std::string private_key_file;     // PEM key of certificate_file
  std::string ca_certificate_file;  // PEM bundle that verifies peers
  bool require_client_certificate = false;
  std::string minimum_version = "tlsv1.2";  // tlsv1.2 or tlsv1.3
  std::string cipher_list;                  // OpenSSL cipher string; empty = defaults
};

// A socket of a TLS connection that can tell who its peer is.
class TlsSocket : public apache::thrift::transport::TSSLSocket {
 public:
  // An accepted connection (server side of the handshake).
  TlsSocket(std::shared_ptr<apache::thrift::transport::SSLContext> ctx, THRIFT_SOCKET fd,
            std::shared_ptr<THRIFT_SOCKET> interrupt_listener,
            std::shared_ptr<apache::thrift::TConfiguration> config);
  // A connection to host:port (client side; the server's name is checked).
  TlsSocket(std::shared_ptr<apache::thrift::transport::SSLContext> ctx, const std::string& host,
            int port, std::shared_ptr<apache::thrift::TConfiguration> config);

  // Runs the handshake now (it otherwise runs on the first read or write),
  // waiting at most the socket's receive timeout for each step. Throws a
  // TTransportException on failure or timeout.
  void Handshake() { initializeHandshake(); }

  // True when decrypted bytes are buffered in OpenSSL (a poll on the
  // descriptor would not see them).
  bool HasBufferedPlaintext() const;

  // The verified peer certificate's subject (RFC 2253), empty without one.
  const std::string& peer_identity() const { return peer_identity_; }

 protected:
  void authorize() override;

 private:
  std::string peer_identity_;
};

class TlsContext {
 public:
  // A context needs a certificate and key (to serve, and to be a client
  // with an identity) or only a CA file (a client that verifies servers).
  // Loads and checks the files (certificate matches key, CA bundle
  // readable); an error names the file and OpenSSL's reason.
  [[nodiscard]] static Result<std::shared_ptr<const TlsContext>> Create(const TlsOptions& options);

  const TlsOptions& options() const { return options_; }
  // False for a client-only context (a CA file and no certificate, e.g. the
  // shell's): it cannot serve.
  bool can_serve() const { return server_ != nullptr; }

  // The server side of an accepted descriptor (takes ownership of fd).
  std::shared_ptr<TlsSocket> AcceptedSocket(
      THRIFT_SOCKET fd, std::shared_ptr<THRIFT_SOCKET> interrupt_listener,
      std::shared_ptr<apache::thrift::TConfiguration> config) const;
  // An unopened client socket to host:port.
  std::shared_ptr<TlsSocket> ClientSocket(
      const std::string& host, int port,
      std::shared_ptr<apache::thrift::TConfiguration> config) const;

 private:
  explicit TlsContext(TlsOptions options) : options_(std::move(options)) {}

  TlsOptions options_;
  std::shared_ptr<apache::thrift::transport::SSLContext> server_;
  std::shared_ptr<apache::thrift::transport::SSLContext> client_;
  std::shared_ptr<apache::thrift::transport::AccessManager> name_check_;
};

// For servers that keep their own OpenSSL context (the Beast web server):
// applies the settings every context of the project shares (minimum
// version, cipher list, no renegotiation, no session tickets or cache) and
// loads `options`' certificate chain and unencrypted private key, checking
// that they match. Client verification is not set up. An error names the
// file and OpenSSL's reason.
[[nodiscard]] Status ConfigureServerSslContext(SSL_CTX* ctx, const TlsOptions& options);

// What a process's RPC endpoints need to know about transport security:
// the TLS context (nullptr = plaintext), whether plaintext ports may bind
// a non-loopback address (an operator's explicit choice), and the token a
// subscriber presents to the statestore.
struct RpcSecurity {
  std::shared_ptr<const TlsContext> tls;
  bool allow_plaintext_remote = false;
  // Presented when registering with the statestore, which may require one
  // to identify subscribers without mutual TLS (common/rpc/auth_token.h,
  // statestore/subscriber_tokens.h). Empty: none.
  std::string statestore_auth_token;
};

}  // namespace ics
