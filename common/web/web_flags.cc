#include "common/web/web_flags.h"

#include <gflags/gflags.h>
#include <glog/logging.h>

#include "common/util/split.h"

DEFINE_bool(enable_webserver, true, "Serve the debug web pages (HTML, JSON and /metrics).");
DEFINE_int32(webserver_port, 25000,
             "Port of the debug web server (statestored 25010, catalogd 25020, coordinators "
             "25000 + i). 0 picks a free port; the bound port is logged and written to "
             "--port_file as webserver=<port>.");
DEFINE_string(webserver_interface, "127.0.0.1",
              "Address the debug web server binds to (loopback by default).");
DEFINE_string(webserver_allowed_hosts, "",
              "Comma-separated host names the debug pages answer to besides loopback names and "
              "--webserver_interface (a request with another Host header gets 421: a defence "
              "against DNS rebinding).");

DEFINE_string(webserver_certificate_file, "",
              "PEM certificate chain of the debug web server. Set (with "
              "--webserver_private_key_file) the web server speaks only HTTPS; TLS version and "
              "ciphers follow --ssl_minimum_version and --ssl_cipher_list.");
DEFINE_string(webserver_private_key_file, "",
              "PEM private key of --webserver_certificate_file (unencrypted).");

namespace ics::web {

namespace {

// The value of a flag another library defines (the transport-security
// flags live with the daemon plumbing, which common/web does not link), or
// `fallback` in a process without it.
std::string FlagOr(const char* name, const std::string& fallback) {
  std::string value;
  return gflags::GetCommandLineOption(name, &value) ? value : fallback;
}

}  // namespace

void SetDefaultWebserverPort(int port) {
  gflags::SetCommandLineOptionWithMode("webserver_port", std::to_string(port).c_str(),
                                       gflags::SET_FLAGS_DEFAULT);
}

WebServerOptions WebServerOptionsFromFlags(const std::string& daemon_name, int port_offset) {
  WebServerOptions o;
  o.daemon_name = daemon_name;
  o.bind_address = FLAGS_webserver_interface;
  o.allowed_hosts = SplitNonEmpty(FLAGS_webserver_allowed_hosts);
  o.port = FLAGS_webserver_port == 0 ? 0 : FLAGS_webserver_port + port_offset;
  o.certificate_file = FLAGS_webserver_certificate_file;
  o.private_key_file = FLAGS_webserver_private_key_file;
  o.tls_minimum_version = FlagOr("ssl_minimum_version", o.tls_minimum_version);
  o.tls_cipher_list = FlagOr("ssl_cipher_list", o.tls_cipher_list);
  o.allow_plaintext_remote = FlagOr("insecure_allow_plaintext_remote", "false") == "true";
  return o;
}

Result<std::unique_ptr<WebServer>> StartWebServerFromFlags(
    const std::string& daemon_name, metrics::MetricRegistry* registry,
    const std::function<void(WebServer*)>& register_pages, int port_offset) {
  if (!FLAGS_enable_webserver) {
    LOG(INFO) << daemon_name << ": web server disabled (--enable_webserver=false)";
    return std::unique_ptr<WebServer>();
  }
  gflags::CommandLineFlagInfo info;
  const bool explicit_port =
      gflags::GetCommandLineFlagInfo("webserver_port", &info) && !info.is_default;
  WebServerOptions opts = WebServerOptionsFromFlags(daemon_name, port_offset);
  auto server = std::make_unique<WebServer>(opts, registry);
  if (register_pages) register_pages(server.get());
  Status s = server->Start();
  if (!s.ok() && !explicit_port && opts.port != 0 && s.code() == ErrorCode::kIoError) {
    LOG(WARNING) << daemon_name << ": " << s.message()
                 << "; using a free port instead (set --webserver_port to choose one)";
    opts.port = 0;
    server = std::make_unique<WebServer>(opts, registry);
    if (register_pages) register_pages(server.get());
    s = server->Start();
  }
  if (!s.ok()) return s.WithContext(daemon_name + " web server");
  return server;
}

std::string PortFileToken(const WebServer* server) {
  if (server == nullptr) return "";
  return " webserver=" + std::to_string(server->port());
}

}  // namespace ics::web
