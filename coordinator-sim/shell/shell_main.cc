// catalog-shell: an impala-shell-like client for a coordinator.
//   catalog-shell -i host:port               interactive (line editing, history)
//   catalog-shell -i host:port -q "SQL"      run statements and exit
//   catalog-shell -i host:port -f file.sql   run a script and exit
//   --ssl [--ca_cert=ca.pem] [--client_cert=c.pem --client_key=k.pem]
//                                            connect with TLS (as impala-shell)
// In batch mode the exit status is 1 as soon as a statement fails.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include <editline/readline.h>
#include <gflags/gflags.h>

#include "CoordinatorService.h"
#include "common/rpc/status_convert.h"
#include "common/rpc/thrift_client.h"
#include "common/rpc/tls.h"
#include "common/sql/splitter.h"
#include "coordinator-sim/shell/table_printer.h"

DEFINE_string(i, "127.0.0.1:21000", "Coordinator to connect to (host:port).");
DEFINE_string(q, "", "Run these statements and exit.");
DEFINE_string(f, "", "Run the statements in this file and exit.");
DEFINE_string(database, "default", "Initial database.");
DEFINE_bool(quiet, false, "Print only results and errors.");
DEFINE_bool(ssl, false, "Connect with TLS; the coordinator's certificate is verified.");
DEFINE_string(ca_cert, "",
              "With --ssl: PEM CA bundle that verifies the coordinator (default: the system's).");
DEFINE_string(client_cert, "",
              "With --ssl: PEM certificate to present (coordinators that require client "
              "certificates).");
DEFINE_string(client_key, "", "With --ssl: the private key of --client_cert.");

namespace {

using ics::thrift::CoordinatorServiceClient;

struct Session {
  std::string db;
  std::map<std::string, std::string> options;
};

// Runs one statement; prints results; returns false on failure.
bool RunOne(ics::ThriftClient<CoordinatorServiceClient>* client, Session* session,
            const std::string& sql) {
  ics::thrift::TExecuteStatementRequest req;
  req.statement = sql;
  req.__set_default_db(session->db);
  req.__set_query_options(session->options);
  ics::thrift::TExecuteStatementResponse resp;
  const auto start = std::chrono::steady_clock::now();
  ics::Status s = client->Call("ExecuteStatement", [&](CoordinatorServiceClient& c) {
    c.ExecuteStatement(resp, req);
  });
  const double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (s.ok()) s = ics::FromTStatus(resp.status);
  if (!s.ok()) {
    std::cerr << "ERROR: " << s.message() << "\n";
    return false;
  }
  if (resp.__isset.default_db) session->db = resp.default_db;
  if (resp.__isset.query_options) session->options = resp.query_options;
  if (resp.__isset.column_names && !resp.column_names.empty()) {
    std::cout << ics::coord::FormatTable(resp.column_names, resp.rows);
  }
  for (const auto& m : resp.messages) std::cout << m << "\n";
  if (!FLAGS_quiet) {
    char buf[64];
    const size_t nrows = resp.__isset.rows ? resp.rows.size() : 0;
    if (resp.__isset.column_names && !resp.column_names.empty()) {
      std::snprintf(buf, sizeof(buf), "Fetched %zu row(s) in %.3fs", nrows, secs);
    } else {
      std::snprintf(buf, sizeof(buf), "Done in %.3fs", secs);
    }
    std::cerr << buf << "\n";
  }
  return true;
}

bool RunScript(ics::ThriftClient<CoordinatorServiceClient>* client, Session* session,
               const std::string& text) {
  auto statements = ics::sql::SplitStatements(text);
  if (!statements.ok()) {
    std::cerr << "ERROR: " << statements.status().message() << "\n";
    return false;
  }
  for (const std::string& sql : *statements) {
    if (!FLAGS_quiet) std::cerr << "> " << sql << "\n";
    if (!RunOne(client, session, sql)) return false;
  }
  return true;
}

int Interactive(ics::ThriftClient<CoordinatorServiceClient>* client, Session* session) {
  const std::string history = std::string(getenv("HOME") ? getenv("HOME") : ".") +
                              "/.catalog_shell_history";
  read_history(history.c_str());
  std::string pending;
  while (true) {
    const std::string prompt = pending.empty() ? "[" + FLAGS_i + ":" + session->db + "] > "
                                               : "                  > ";
    char* line = readline(prompt.c_str());
    if (line == nullptr) break;  // EOF
    std::string text(line);
    free(line);
    if (pending.empty() && (text == "quit" || text == "exit" || text == "quit;" ||
                            text == "exit;")) {
      break;
    }
    pending += (pending.empty() ? "" : "\n") + text;
    if (!ics::sql::IsStatementComplete(pending)) continue;
    add_history(pending.c_str());
    RunScript(client, session, pending);
    pending.clear();
  }
  write_history(history.c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  gflags::SetUsageMessage("catalog-shell -i host:port [-q SQL | -f file.sql]");
  gflags::ParseCommandLineFlags(&argc, &argv, true);
  const auto colon = FLAGS_i.rfind(':');
  if (colon == std::string::npos) {
    std::cerr << "ERROR: -i must be host:port\n";
    return 2;
  }
  const std::string host = FLAGS_i.substr(0, colon);
  int port = 0;
  try {
    port = std::stoi(FLAGS_i.substr(colon + 1));
  } catch (const std::exception&) {
    std::cerr << "ERROR: bad port in -i " << FLAGS_i << "\n";
    return 2;
  }
  ics::ThriftClientOptions copts;
  copts.recv_timeout_ms = 10 * 60 * 1000;
  if (FLAGS_ssl) {
    ics::TlsOptions t;
    t.ca_certificate_file = FLAGS_ca_cert;
    t.certificate_file = FLAGS_client_cert;
    t.private_key_file = FLAGS_client_key;
    if (t.ca_certificate_file.empty() && t.certificate_file.empty()) {
      t.ca_certificate_file = "/etc/ssl/certs/ca-certificates.crt";  // Debian's trust store
    }
    auto tls = ics::TlsContext::Create(t);
    if (!tls.ok()) {
      std::cerr << "ERROR: " << tls.status().message() << "\n";
      return 2;
    }
    copts.tls = *tls;
  } else if (!FLAGS_ca_cert.empty() || !FLAGS_client_cert.empty()) {
    std::cerr << "ERROR: --ca_cert and --client_cert need --ssl\n";
    return 2;
  }
  ics::ThriftClient<CoordinatorServiceClient> client(host, port, copts);
  ics::Status s = client.connection().Open();
  if (!s.ok()) {
    std::cerr << "ERROR: " << s.message() << "\n";
    return 1;
  }
  Session session{FLAGS_database, {}};
  if (!FLAGS_q.empty()) return RunScript(&client, &session, FLAGS_q) ? 0 : 1;
  if (!FLAGS_f.empty()) {
    std::ifstream in(FLAGS_f);
    if (!in) {
      std::cerr << "ERROR: cannot read " << FLAGS_f << "\n";
      return 1;
    }
    std::stringstream ss;
    ss << in.rdbuf();
    return RunScript(&client, &session, ss.str()) ? 0 : 1;
  }
  if (!isatty(STDIN_FILENO)) {
    std::stringstream ss;
    ss << std::cin.rdbuf();
    return RunScript(&client, &session, ss.str()) ? 0 : 1;
  }
  return Interactive(&client, &session);
}
