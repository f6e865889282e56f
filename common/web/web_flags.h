// The web server flags every daemon shares (Impala's names) and the helper
// that turns them into a running WebServer.
//
//   --enable_webserver     (default true)
//   --webserver_port       statestored 25010, catalogd 25020, coordinators
//                          25000 + i for the i-th coordinator of a
//                          coordinator-sim process; 0 picks a free port
//   --webserver_interface  bind address (default 127.0.0.1: loopback only);
//                          without HTTPS a non-loopback address needs
//                          --insecure_allow_plaintext_remote (bind_policy.h)
//   --webserver_allowed_hosts  extra Host header names (host_check.h)
//   --webserver_certificate_file, --webserver_private_key_file
//                          PEM chain and key: both set = HTTPS only. The TLS
//                          version and ciphers are those of the Thrift
//                          ports, --ssl_minimum_version and --ssl_cipher_list
//                          (read by name when the process defines them,
//                          else tlsv1.2 and OpenSSL's defaults)
//
// Wiring a daemon (statestored_main.cc is the model):
//   int main(argc, argv) {
//     ics::web::SetDefaultWebserverPort(25020);          // before InitDaemon
//     ics::InitDaemon(&argc, &argv, "...");
//     ... start the service, which owns a metrics::MetricRegistry ...
//     auto web = ics::web::StartWebServerFromFlags("catalogd", &registry,
//         [&](ics::web::WebServer* ws) { RegisterCatalogPages(ws, ...); });
//     if (!web.ok()) { LOG(ERROR) << web.status().ToString(); return 1; }
//     port file line: "<existing ports>" + ics::web::PortFileToken(web->get())
//     WaitForShutdownSignal();
//     if (*web) (*web)->Stop();                          // before the service
//   }
// For coordinator-sim pass port_offset = i (the i-th coordinator); each
// coordinator gets its own WebServer and registry.
//
// Thread-safety: call from main() (flags are read, not written, afterwards).
#pragma once

#include <functional>
#include <memory>
#include <string>

#include <gflags/gflags_declare.h>

#include "common/metrics/metrics.h"
#include "common/util/result.h"
#include "common/web/web_server.h"

DECLARE_bool(enable_webserver);
DECLARE_int32(webserver_port);
DECLARE_string(webserver_interface);
DECLARE_string(webserver_certificate_file);
DECLARE_string(webserver_private_key_file);

namespace ics::web {

// Sets this daemon's default for --webserver_port (call before parsing flags).
void SetDefaultWebserverPort(int port);

// Options from the flags: daemon name, bind address, allowed hosts, port
// (+ port_offset unless the port is 0), TLS files and settings, and
// allow_plaintext_remote from --insecure_allow_plaintext_remote.
WebServerOptions WebServerOptionsFromFlags(const std::string& daemon_name, int port_offset = 0);

// Creates, fills (register_pages may be empty) and starts the web server the
// flags describe. Returns nullptr when --enable_webserver=false. If the port
// was left at its default and is taken (e.g. tests running next to a local
// cluster), a free port is used instead and a warning logged; a port given
// explicitly that cannot be bound is an error, and so is a TLS setting that
// does not work (the message names the file) or a plaintext non-loopback
// --webserver_interface without --insecure_allow_plaintext_remote.
Result<std::unique_ptr<WebServer>> StartWebServerFromFlags(
    const std::string& daemon_name, metrics::MetricRegistry* registry,
    const std::function<void(WebServer*)>& register_pages, int port_offset = 0);

// " webserver=<port>" for the --port_file line, or "" for a null server.
std::string PortFileToken(const WebServer* server);

}  // namespace ics::web
