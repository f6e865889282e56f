// PostgresServer: a private PostgreSQL server for tests and benchmarks —
// initdb into a temp dir, the server on a free loopback port with its Unix
// socket in that dir, trust authentication for the role "ics" only over
// loopback, no fsync unless asked for (tests survive process deaths, not power loss). The
// server refuses to run as root, so as root it runs as the `postgres` user
// (created by Debian's postgresql package) through setpriv.
//
// The process is an ExternalProcess (external_process.h): it dies with the
// test, and the destructor stops it and removes the directory.
//
// Thread-safety: not thread-safe; start and stop from the main thread.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "common/util/result.h"
#include "tests/external/external_process.h"
#include "tests/util/temp_dir.h"

namespace ics::external {

// Runs `sql` (one or more statements) on a new session to `uri`;
// IO_ERROR with the server's message if it cannot connect or a statement
// fails.
[[nodiscard]] Status ExecPostgres(const std::string& uri, const std::string& sql);

// Creates database `name` ([a-z0-9_]+) through the server `admin_uri`
// points at (a database that exists, e.g. .../postgres).
[[nodiscard]] Status CreatePostgresDatabase(const std::string& admin_uri, const std::string& name);

class PostgresServer {
 public:
  // The directory of initdb and postgres; "" when PostgreSQL is not installed.
  static std::string BinDir();

  // `durable`: fsync on (for benchmarks that compare commit costs); tests
  // run without it.
  explicit PostgresServer(bool durable = false);
  ~PostgresServer();
  PostgresServer(const PostgresServer&) = delete;
  PostgresServer& operator=(const PostgresServer&) = delete;

  // Serve TLS as well (ssl=on) with this certificate and key (PEM); call
  // before the first Start.
  [[nodiscard]] Status EnableTls(const std::string& cert_pem, const std::string& key_pem);

  // initdb on the first start; then the server, on the same port and data
  // after a Stop or Kill. Returns when it accepts connections (or fails,
  // with the tail of its log).
  [[nodiscard]] Status Start();
  // Fast shutdown (SIGINT: clients are disconnected, the data is kept),
  // waiting until the server has exited.
  [[nodiscard]] Status Stop();
  // SIGKILL: the server recovers from its WAL at the next Start.
  void Kill();
  bool running();

  // Creates database `name` (lower-case letters, digits, '_') and returns
  // its URI postgresql://ics@127.0.0.1:<port>/<name>.
  Result<std::string> CreateDatabase(const std::string& name);
  std::string Uri(const std::string& dbname) const;

  int port() const { return port_; }
  const std::string& dir() const { return dir_; }
  std::string log_path() const { return dir_ + "/postgres.log"; }

 private:
  // argv prefix that runs a server binary as the postgres user when we are root.
  std::vector<std::string> AsServerUser() const;

  ics::testing::TempDir tmp_{"ics-postgres"};
  std::string dir_;
  std::string bin_;
  int port_ = 0;
  bool initialized_ = false;
  bool durable_ = false;
  bool tls_ = false;
  std::unique_ptr<ExternalProcess> process_;
};

}  // namespace ics::external
