#include "common/web/web_tls.h"

#include "common/rpc/tls.h"

#include <cerrno>
#include <cstring>
#include <fstream>

namespace ics::web {

namespace {

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
  ICS_RETURN_IF_ERROR(CheckReadable("certificate", o.certificate_file));
  ICS_RETURN_IF_ERROR(CheckReadable("private key", o.private_key_file));
  TlsOptions t;
  t.certificate_file = o.certificate_file;
  t.private_key_file = o.private_key_file;
  t.minimum_version = o.tls_minimum_version;
  t.cipher_list = o.tls_cipher_list;
  auto ctx = std::make_unique<boost::asio::ssl::context>(boost::asio::ssl::context::tls_server);
  ICS_RETURN_IF_ERROR(ConfigureServerSslContext(ctx->native_handle(), t));
  return ctx;
}

}  // namespace ics::web
