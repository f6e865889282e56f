// The TLS server context of an HTTPS web server (internal to common/web;
// http_transport.cc is its user).
//
// MakeWebTlsContext(options) checks options.certificate_file /
// private_key_file (both needed, both readable, the key matching the
// certificate), applies tls_minimum_version and tls_cipher_list, and returns
// an Asio SSL context for the server side of the handshake. Clients are not
// asked for a certificate. Every error is InvalidArgument and names the file
// or setting at fault, with OpenSSL's reason where it gave one.
//
// Thread-safety: the returned context is only read once built and may be
// shared by every session of the server.
#pragma once

#include <memory>

#include <boost/asio/ssl/context.hpp>

#include "common/util/result.h"
#include "common/web/web_server.h"

namespace ics::web {

// Requires options.tls().
[[nodiscard]] Result<std::unique_ptr<boost::asio::ssl::context>> MakeWebTlsContext(
    const WebServerOptions& options);

}  // namespace ics::web
