#include "common/rpc/tls.h"

#include <signal.h>

#include <memory>
#include <mutex>

#include <glog/logging.h>
#include <thrift/TOutput.h>

#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

namespace ics {

using apache::thrift::TConfiguration;
using apache::thrift::transport::DefaultClientAccessManager;
using apache::thrift::transport::SSLContext;
using apache::thrift::transport::TSSLSocket;

namespace {

// OpenSSL's queued errors, oldest first, as one line (and clears the queue).
std::string OpenSslErrors() {
  std::string out;
  while (const unsigned long e = ERR_get_error()) {
    char buf[256];
    ERR_error_string_n(e, buf, sizeof(buf));
    if (!out.empty()) out += "; ";
    out += buf;
  }
  return out.empty() ? "unknown OpenSSL error" : out;
}

Status Failed(const std::string& what) {
  return Status::InvalidArgument("TLS: " + what + ": " + OpenSslErrors());
}

Result<int> ParseMinimumVersion(const std::string& v) {
  if (v == "tlsv1.2") return TLS1_2_VERSION;
  if (v == "tlsv1.3") return TLS1_3_VERSION;
  return Status::InvalidArgument("TLS: minimum version '" + v +
                                 "' is not supported (use tlsv1.2 or tlsv1.3)");
}

// Settings both sides share.
Status ConfigureCommon(SSL_CTX* ctx, const TlsOptions& o) {
  ICS_ASSIGN_OR_RETURN(const int min_version, ParseMinimumVersion(o.minimum_version));
  if (SSL_CTX_set_min_proto_version(ctx, min_version) != 1) {
    return Failed("cannot set the minimum version " + o.minimum_version);
  }
  if (!o.cipher_list.empty() && SSL_CTX_set_cipher_list(ctx, o.cipher_list.c_str()) != 1) {
    return Failed("no usable cipher in '" + o.cipher_list + "'");
  }
  // No renegotiation (TLS 1.2): a peer must not restart the handshake
  // mid-connection; no session tickets kept across daemons.
  SSL_CTX_set_options(ctx, SSL_OP_NO_RENEGOTIATION | SSL_OP_NO_TICKET);
  // No TLS 1.3 session tickets either: a server sends them after the
  // handshake, and bytes arriving on an idle pooled client connection would
  // read as a broken connection to the pools that poll for that.
  SSL_CTX_set_num_tickets(ctx, 0);
  SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_OFF);
  return Status::OK();
}

int NoPassphrase(char*, int, int, void*) { return -1; }

Status LoadIdentity(SSL_CTX* ctx, const TlsOptions& o) {
  if (SSL_CTX_use_certificate_chain_file(ctx, o.certificate_file.c_str()) != 1) {
    return Failed("cannot load the certificate " + o.certificate_file);
  }
  // The key is read on its own, without a pass-phrase callback, so that an
  // encrypted key fails instead of prompting on a terminal, and a mismatch
  // is reported as one.
  std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new_file(o.private_key_file.c_str(), "r"),
                                                &BIO_free);
  std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)> key(
      bio == nullptr ? nullptr
                     : PEM_read_bio_PrivateKey(bio.get(), nullptr, &NoPassphrase, nullptr),
      &EVP_PKEY_free);
  if (key == nullptr) {
    return Failed("cannot load the private key " + o.private_key_file +
                  " (an unencrypted PEM key is expected)");
  }
  X509* const cert = SSL_CTX_get0_certificate(ctx);
  if (cert == nullptr || X509_check_private_key(cert, key.get()) != 1) {
    ERR_clear_error();
    return Status::InvalidArgument("TLS: the private key " + o.private_key_file +
                                   " does not match the certificate " + o.certificate_file);
  }
  if (SSL_CTX_use_PrivateKey(ctx, key.get()) != 1) {
    return Failed("cannot use the private key " + o.private_key_file);
  }
  return Status::OK();
}

Status LoadTrust(SSL_CTX* ctx, const TlsOptions& o) {
  if (o.ca_certificate_file.empty()) {
    if (SSL_CTX_set_default_verify_paths(ctx) != 1) return Failed("cannot load the system CAs");
    return Status::OK();
  }
  if (SSL_CTX_load_verify_locations(ctx, o.ca_certificate_file.c_str(), nullptr) != 1) {
    return Failed("cannot load the CA certificates " + o.ca_certificate_file);
  }
  return Status::OK();
}

// Fills the extension cache (flags, key identifiers) of every certificate a
// context holds: its trust store's, its own and its chain's. OpenSSL fills
// it on first use, during a handshake, under the certificate's lock, and
// publishes it with atomics inside libcrypto; later handshakes read it
// without the lock. Debian's libcrypto is not built with ThreadSanitizer,
// which therefore sees the first handshake's write and a concurrent
// handshake's read of a shared CA certificate's key identifier as a race
// (ASN1_STRING_set against ASN1_STRING_cmp in X509_check_akid). Filled here,
// before any thread shares the context, the cache is written once, ahead of
// every handshake. Certificates loaded lazily from a CA directory (no
// CA file: the system's) cannot be filled ahead.
void FillCertificateCaches(SSL_CTX* ctx) {
  STACK_OF(X509_OBJECT)* objects = X509_STORE_get0_objects(SSL_CTX_get_cert_store(ctx));
  for (int i = 0; i < sk_X509_OBJECT_num(objects); ++i) {
    if (X509* x = X509_OBJECT_get0_X509(sk_X509_OBJECT_value(objects, i))) {
      (void)X509_get_extension_flags(x);
    }
  }
  if (X509* own = SSL_CTX_get0_certificate(ctx)) (void)X509_get_extension_flags(own);
  STACK_OF(X509)* chain = nullptr;
  if (SSL_CTX_get0_chain_certs(ctx, &chain) == 1 && chain != nullptr) {
    for (int i = 0; i < sk_X509_num(chain); ++i) {
      (void)X509_get_extension_flags(sk_X509_value(chain, i));
    }
  }
  ERR_clear_error();
}

void InitOpenSsl() {
  static std::once_flag once;
  std::call_once(once, [] {
    apache::thrift::transport::initializeOpenSSL();
    // OpenSSL writes to sockets with write(2): a peer that closed the
    // connection would raise SIGPIPE and kill the process (plain TSocket
    // sends with MSG_NOSIGNAL). The write then fails with EPIPE instead.
    ::signal(SIGPIPE, SIG_IGN);
    // Thrift prints TLS teardown notes ("SSL_shutdown: shutdown while in
    // init" after every refused handshake) to stderr; they are log detail.
    apache::thrift::GlobalOutput.setOutputFunction(
        [](const char* message) { VLOG(1) << "thrift: " << message; });
  });
}

}  // namespace

Status ConfigureServerSslContext(SSL_CTX* ctx, const TlsOptions& options) {
  ERR_clear_error();
  ICS_RETURN_IF_ERROR(ConfigureCommon(ctx, options));
  ICS_RETURN_IF_ERROR(LoadIdentity(ctx, options));
  FillCertificateCaches(ctx);
  return Status::OK();
}

TlsSocket::TlsSocket(std::shared_ptr<SSLContext> ctx, THRIFT_SOCKET fd,
                     std::shared_ptr<THRIFT_SOCKET> interrupt_listener,
                     std::shared_ptr<TConfiguration> config)
    : TSSLSocket(std::move(ctx), fd, std::move(interrupt_listener), std::move(config)) {
  server(true);
}

TlsSocket::TlsSocket(std::shared_ptr<SSLContext> ctx, const std::string& host, int port,
                     std::shared_ptr<TConfiguration> config)
    : TSSLSocket(std::move(ctx), host, port, std::move(config)) {
  server(false);
}

bool TlsSocket::HasBufferedPlaintext() const { return ssl_ != nullptr && SSL_pending(ssl_) > 0; }

void TlsSocket::authorize() {
  TSSLSocket::authorize();  // verification result, and the host name on the client side
  X509* cert = SSL_get1_peer_certificate(ssl_);
  if (cert == nullptr) return;
  BIO* bio = BIO_new(BIO_s_mem());
  if (bio != nullptr) {
    if (X509_NAME_print_ex(bio, X509_get_subject_name(cert), 0, XN_FLAG_RFC2253) >= 0) {
      char* data = nullptr;
      const long n = BIO_get_mem_data(bio, &data);
      if (n > 0 && data != nullptr) peer_identity_.assign(data, static_cast<size_t>(n));
    }
    BIO_free(bio);
  }
  X509_free(cert);
}

Result<std::shared_ptr<const TlsContext>> TlsContext::Create(const TlsOptions& options) {
  if (options.certificate_file.empty() != options.private_key_file.empty()) {
    return Status::InvalidArgument("TLS: a certificate needs its private key, and a key its "
                                   "certificate");
  }
  if (options.certificate_file.empty() && options.ca_certificate_file.empty()) {
    return Status::InvalidArgument("TLS: neither a certificate nor a CA certificate is set");
  }
  if (options.require_client_certificate && options.ca_certificate_file.empty()) {
    return Status::InvalidArgument(
        "TLS: verifying client certificates needs a CA certificate file to verify them with");
  }
  InitOpenSsl();
  ERR_clear_error();
  std::shared_ptr<TlsContext> c(new TlsContext(options));
  const bool has_identity = !options.certificate_file.empty();
  try {
    if (has_identity) c->server_ = std::make_shared<SSLContext>(apache::thrift::transport::SSLTLS);
    c->client_ = std::make_shared<SSLContext>(apache::thrift::transport::SSLTLS);
  } catch (const std::exception& e) {
    return Status::Internal(std::string("TLS: cannot create an OpenSSL context: ") + e.what());
  }
  if (has_identity) {
    SSL_CTX* server = c->server_->get();
    ICS_RETURN_IF_ERROR(ConfigureCommon(server, options));
    ICS_RETURN_IF_ERROR(LoadIdentity(server, options));
    if (options.require_client_certificate) {
      ICS_RETURN_IF_ERROR(LoadTrust(server, options));
      STACK_OF(X509_NAME)* names = SSL_load_client_CA_file(options.ca_certificate_file.c_str());
      if (names == nullptr) {
        return Failed("cannot read CA names from " + options.ca_certificate_file);
      }
      SSL_CTX_set_client_CA_list(server, names);
      SSL_CTX_set_verify(server, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT, nullptr);
    } else {
      SSL_CTX_set_verify(server, SSL_VERIFY_NONE, nullptr);
    }
    FillCertificateCaches(server);
  }

  SSL_CTX* client = c->client_->get();
  ICS_RETURN_IF_ERROR(ConfigureCommon(client, options));
  ICS_RETURN_IF_ERROR(LoadTrust(client, options));
  if (has_identity) ICS_RETURN_IF_ERROR(LoadIdentity(client, options));
  SSL_CTX_set_verify(client, SSL_VERIFY_PEER, nullptr);
  FillCertificateCaches(client);
  c->name_check_ = std::make_shared<DefaultClientAccessManager>();
  return std::shared_ptr<const TlsContext>(std::move(c));
}

std::shared_ptr<TlsSocket> TlsContext::AcceptedSocket(
    THRIFT_SOCKET fd, std::shared_ptr<THRIFT_SOCKET> interrupt_listener,
    std::shared_ptr<TConfiguration> config) const {
  return std::make_shared<TlsSocket>(server_, fd, std::move(interrupt_listener),
                                     std::move(config));
}

std::shared_ptr<TlsSocket> TlsContext::ClientSocket(const std::string& host, int port,
                                                    std::shared_ptr<TConfiguration> config) const {
  auto s = std::make_shared<TlsSocket>(client_, host, port, std::move(config));
  s->access(name_check_);
  return s;
}

}  // namespace ics
