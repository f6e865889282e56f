#include "tests/external/postgres_server.h"

#include <libpq-fe.h>
#include <pwd.h>
#include <signal.h>
#include <unistd.h>

#include <filesystem>

#include "tests/util/free_port.h"

namespace ics::external {
namespace {

namespace fs = std::filesystem;

// Changes the owner of `path` and everything below it.
bool ChownTree(const std::string& path, uid_t uid, gid_t gid) {
  std::error_code ec;
  if (::chown(path.c_str(), uid, gid) != 0) return false;
  for (auto it = fs::recursive_directory_iterator(path, ec); !ec && it != fs::end(it);
       it.increment(ec)) {
    if (::lchown(it->path().c_str(), uid, gid) != 0) return false;
  }
  return !ec;
}

}  // namespace

std::string PostgresServer::BinDir() {
  CommandResult r = RunCommand({"/usr/bin/pg_config", "--bindir"});
  if (r.ok()) {
    std::string dir = r.output;
    while (!dir.empty() && (dir.back() == '\n' || dir.back() == ' ')) dir.pop_back();
    if (fs::exists(dir + "/initdb") && fs::exists(dir + "/postgres")) return dir;
  }
  // The newest installed major version.
  std::string best;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator("/usr/lib/postgresql", ec)) {
    const std::string dir = e.path().string() + "/bin";
    if (fs::exists(dir + "/initdb") && dir > best) best = dir;
  }
  return best;
}

PostgresServer::PostgresServer(bool durable)
    : dir_(tmp_.path()), bin_(BinDir()), durable_(durable) {}

PostgresServer::~PostgresServer() {
  if (process_ != nullptr && process_->IsRunning()) (void)Stop();
  process_.reset();
}

std::vector<std::string> PostgresServer::AsServerUser() const {
  if (::geteuid() != 0) return {};
  return {"/usr/bin/setpriv", "--reuid=postgres", "--regid=postgres", "--init-groups", "--"};
}

Status PostgresServer::EnableTls(const std::string& cert_pem, const std::string& key_pem) {
  if (!tmp_.ok()) return Status::IoError(tmp_.error());
  std::error_code ec;
  fs::copy_file(cert_pem, dir_ + "/server.crt", fs::copy_options::overwrite_existing, ec);
  if (!ec) fs::copy_file(key_pem, dir_ + "/server.key", fs::copy_options::overwrite_existing, ec);
  if (ec) return Status::IoError("cannot copy the TLS certificate: " + ec.message());
  // The server refuses a key others can read.
  fs::permissions(dir_ + "/server.key", fs::perms::owner_read | fs::perms::owner_write,
                  fs::perm_options::replace, ec);
  tls_ = true;
  return Status::OK();
}

Status PostgresServer::Start() {
  if (!tmp_.ok()) return Status::IoError(tmp_.error());
  if (bin_.empty()) {
    return Status::NotFound("PostgreSQL is not installed (scripts/setup.sh installs postgresql)");
  }
  if (!initialized_) {
    if (::geteuid() == 0) {
      const passwd* pw = ::getpwnam("postgres");
      if (pw == nullptr) return Status::NotFound("no 'postgres' user to run the server as");
      if (!ChownTree(dir_, pw->pw_uid, pw->pw_gid)) {
        return Status::IoError("cannot give " + dir_ + " to the postgres user");
      }
    }
    std::vector<std::string> argv = AsServerUser();
    argv.insert(argv.end(), {bin_ + "/initdb", "-D", dir_ + "/data", "-U", "ics", "--auth=trust",
                             "-E", "UTF8", "--locale=C", "--no-sync"});
    CommandResult r = RunCommand(argv);
    if (!r.ok()) return Status::IoError("initdb failed: " + r.output);
    initialized_ = true;
  }
  if (port_ == 0) port_ = ics::testing::UnusedLoopbackPort();
  if (port_ == 0) return Status::IoError("no free loopback port for PostgreSQL");
  std::vector<std::string> argv = AsServerUser();
  argv.insert(argv.end(), {bin_ + "/postgres", "-D", dir_ + "/data", "-p", std::to_string(port_),
                           "-k", dir_, "-c", "listen_addresses=127.0.0.1", "-c",
                           std::string("fsync=") + (durable_ ? "on" : "off"), "-c",
                           "max_connections=300", "-c", "shared_buffers=32MB"});
  if (tls_) {
    argv.insert(argv.end(), {"-c", "ssl=on", "-c", "ssl_cert_file=" + dir_ + "/server.crt", "-c",
                             "ssl_key_file=" + dir_ + "/server.key"});
  }
  process_ = std::make_unique<ExternalProcess>("postgres", log_path(), dir_);
  ICS_RETURN_IF_ERROR(process_->Start(argv));
  const std::string ping = "host=127.0.0.1 port=" + std::to_string(port_) +
                           " dbname=postgres user=ics connect_timeout=2";
  const bool up = WaitFor(
      [&] { return !process_->IsRunning() || PQping(ping.c_str()) == PQPING_OK; }, Millis(60000));
  if (!up || !process_->IsRunning()) {
    return Status::IoError("PostgreSQL did not start (" + process_->ExitDescription() + "):\n" +
                           TailOfFile(log_path(), 20));
  }
  return Status::OK();
}

bool PostgresServer::running() { return process_ != nullptr && process_->IsRunning(); }

Status PostgresServer::Stop() {
  if (!running()) return Status::OK();
  ::kill(process_->pid(), SIGINT);
  if (!WaitFor([&] { return !process_->IsRunning(); }, Millis(30000))) {
    process_->Kill();
    return Status::TimedOut("PostgreSQL did not stop within 30 s; killed");
  }
  return Status::OK();
}

void PostgresServer::Kill() {
  if (process_ != nullptr) process_->Kill();
}

std::string PostgresServer::Uri(const std::string& dbname) const {
  return "postgresql://ics@127.0.0.1:" + std::to_string(port_) + "/" + dbname;
}

Status ExecPostgres(const std::string& uri, const std::string& sql) {
  PGconn* conn = PQconnectdb(uri.c_str());
  Status s;
  if (PQstatus(conn) != CONNECTION_OK) {
    s = Status::IoError(std::string("cannot connect to PostgreSQL: ") + PQerrorMessage(conn));
  } else {
    PGresult* res = PQexec(conn, sql.c_str());
    const ExecStatusType st = PQresultStatus(res);
    if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) {
      s = Status::IoError("'" + sql.substr(0, 80) + "': " + PQresultErrorMessage(res));
    }
    PQclear(res);
  }
  PQfinish(conn);
  return s;
}

Status CreatePostgresDatabase(const std::string& admin_uri, const std::string& name) {
  for (char c : name) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) {
      return Status::InvalidArgument("database name '" + name + "' is not [a-z0-9_]+");
    }
  }
  return ExecPostgres(admin_uri, "CREATE DATABASE " + name);
}

Result<std::string> PostgresServer::CreateDatabase(const std::string& name) {
  ICS_RETURN_IF_ERROR(CreatePostgresDatabase(Uri("postgres"), name));
  return Uri(name);
}

}  // namespace ics::external
