#include "common/web/web_tls.h"

#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>

#include <cerrno>
#include <cstring>
#include <fstream>

namespace ics::web {

namespace {

// OpenSSL's queued errors as one line; clears the queue.
std::string SslReason() {
  std::string out;
  while (const unsigned long e = ERR_get_error()) {
    char buf[256];
    ERR_error_string_n(e, buf, sizeof(buf));
    if (!out.empty()) out += "; ";
    out += buf;
  }
  return out.empty() ? "no reason given" : out;
}

int NoPassphrase(char*, int, int, void*) { return -1; }

Status Refused(const std::string& what) {
  return Status::InvalidArgument("TLS: " + what);
}

// A file OpenSSL is about to load, checked first so that a missing or
// unreadable one gets the system's reason rather than OpenSSL's.
Status CheckReadable(const std::string& what, const std::string& path) {
  std::ifstream in(path);
  if (!in) return Refused("cannot read the " + what + " " + path + ": " + std::strerror(errno));
  return Status::OK();
}

}  // namespace

Result<std::unique_ptr<boost::asio::ssl::context>> MakeWebTlsContext(
    const WebServerOptions& o) {
  if (o.certificate_file.empty()) {
    return Refused("a private key (" + o.private_key_file +
                   ") without a certificate: set --webserver_certificate_file too");
  }
  if (o.private_key_file.empty()) {
    return Refused("a certificate (" + o.certificate_file +
                   ") without a private key: set --webserver_private_key_file too");
  }
  int min_version = 0;
  if (o.tls_minimum_version == "tlsv1.2") {
    min_version = TLS1_2_VERSION;
  } else if (o.tls_minimum_version == "tlsv1.3") {
    min_version = TLS1_3_VERSION;
  } else {
    return Refused("minimum version '" + o.tls_minimum_version +
                   "' is not supported (tlsv1.2 or tlsv1.3)");
  }
  ICS_RETURN_IF_ERROR(CheckReadable("certificate", o.certificate_file));
  ICS_RETURN_IF_ERROR(CheckReadable("private key", o.private_key_file));

  ERR_clear_error();
  auto ctx = std::make_unique<boost::asio::ssl::context>(boost::asio::ssl::context::tls_server);
  SSL_CTX* const native = ctx->native_handle();
  if (SSL_CTX_set_min_proto_version(native, min_version) != 1) {
    return Refused("cannot set the minimum version " + o.tls_minimum_version + ": " +
                   SslReason());
  }
  if (!o.tls_cipher_list.empty() && SSL_CTX_set_cipher_list(native, o.tls_cipher_list.c_str()) != 1) {
    return Refused("no usable cipher in '" + o.tls_cipher_list + "': " + SslReason());
  }
  // No TLS 1.2 renegotiation; no session resumption state kept.
  SSL_CTX_set_options(native, SSL_OP_NO_RENEGOTIATION | SSL_OP_NO_TICKET);
  SSL_CTX_set_num_tickets(native, 0);
  SSL_CTX_set_session_cache_mode(native, SSL_SESS_CACHE_OFF);
  if (SSL_CTX_use_certificate_chain_file(native, o.certificate_file.c_str()) != 1) {
    return Refused("cannot load the certificate " + o.certificate_file + ": " + SslReason());
  }
  // The key is read on its own so that a mismatch is reported as one (and
  // an encrypted key fails instead of prompting for a pass phrase).
  std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new_file(o.private_key_file.c_str(), "r"),
                                                &BIO_free);
  std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)> key(
      bio == nullptr ? nullptr
                     : PEM_read_bio_PrivateKey(bio.get(), nullptr, &NoPassphrase, nullptr),
      &EVP_PKEY_free);
  if (key == nullptr) {
    return Refused("cannot load the private key " + o.private_key_file +
                   " (an unencrypted PEM key is expected): " + SslReason());
  }
  X509* const cert = SSL_CTX_get0_certificate(native);
  if (cert == nullptr || X509_check_private_key(cert, key.get()) != 1) {
    ERR_clear_error();
    return Refused("the private key " + o.private_key_file + " does not match the certificate " +
                   o.certificate_file);
  }
  if (SSL_CTX_use_PrivateKey(native, key.get()) != 1) {
    return Refused("cannot use the private key " + o.private_key_file + ": " + SslReason());
  }
  return ctx;
}

}  // namespace ics::web
