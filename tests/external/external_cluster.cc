#include "tests/external/external_cluster.h"

#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "CoordinatorService.h"
#include "common/rpc/status_convert.h"
#include "common/rpc/thrift_client.h"
#include "tests/external/netns.h"
#include "tests/util/free_port.h"

#ifndef ICS_STATESTORED_BIN
#error "ICS_STATESTORED_BIN must name the statestored binary"
#endif
#ifndef ICS_CATALOGD_BIN
#error "ICS_CATALOGD_BIN must name the catalogd binary"
#endif
#ifndef ICS_COORDINATOR_SIM_BIN
#error "ICS_COORDINATOR_SIM_BIN must name the coordinator-sim binary"
#endif
#ifndef ICS_CATALOG_SHELL_BIN
#error "ICS_CATALOG_SHELL_BIN must name the catalog-shell binary"
#endif

namespace ics::external {

namespace fs = std::filesystem;

namespace {

std::string Join(const std::vector<std::string>& v, const char* sep) {
  std::string out;
  for (size_t i = 0; i < v.size(); ++i) out += (i ? sep : "") + v[i];
  return out;
}

}  // namespace

// ---------------------------------------------------------------------------
// ExecResult

std::vector<std::string> ExecResult::Column(size_t c) const {
  std::vector<std::string> out;
  for (const auto& row : rows) out.push_back(c < row.size() ? row[c] : "");
  return out;
}

std::string ExecResult::ToString() const {
  std::ostringstream out;
  out << status.ToString() << " in " << elapsed.count() << " ms";
  if (!columns.empty()) out << "; columns [" << Join(columns, ", ") << "]";
  for (const auto& row : rows) out << "\n  [" << Join(row, ", ") << "]";
  for (const auto& m : messages) out << "\n  " << m;
  return out.str();
}

// ---------------------------------------------------------------------------
// ExternalCluster

ExternalCluster::ExternalCluster(ExternalClusterOptions options) : opts_(std::move(options)) {
  // A peer closing a socket must not kill the test (children reset this).
  signal(SIGPIPE, SIG_IGN);
  tmp_ = std::make_unique<::ics::testing::TempDir>(opts_.name, opts_.base_dir);
  dir_ = tmp_->path();
  // ICS_EXTERNAL_KEEP_DIRS=1 keeps every cluster's logs, also on success.
  const char* keep = getenv("ICS_EXTERNAL_KEEP_DIRS");
  keep_dir_ = keep != nullptr && std::string(keep) == "1";
  if (!opts_.tls_certs_dir.empty()) {
    TlsOptions t;
    t.ca_certificate_file = opts_.tls_certs_dir + "/ca.pem";
    if (opts_.mutual_tls) {
      t.certificate_file = opts_.tls_certs_dir + "/client.pem";
      t.private_key_file = opts_.tls_certs_dir + "/client.key";
    }
    auto ctx = TlsContext::Create(t);
    if (ctx.ok()) client_tls_ = *ctx;  // else every Exec fails and says why
  }
  // Port-0 processes per role and the global coordinator numbering.
  int first = 0;
  for (const auto& spec : opts_.coordinator_processes) {
    CoordProc cp;
    cp.spec = spec;
    cp.first = first;
    for (int j = 0; j < spec.num_coordinators; ++j) {
      coordinators_.push_back({static_cast<int>(coord_procs_.size()), 0, 0});
    }
    first += spec.num_coordinators;
    coord_procs_.push_back(std::move(cp));
  }
}

ExternalCluster::~ExternalCluster() {
  // Coordinators first, then catalogd, then the statestore.
  for (auto& cp : coord_procs_) {
    if (cp.proc) cp.proc->Kill();
  }
  for (CatalogdProc& c : catalogds_) {
    if (c.proc) c.proc->Kill();
  }
  for (StatestoredProc& ss : statestoreds_) {
    if (ss.proc) ss.proc->Kill();
  }
  // tmp_ removes the directory after this body, once every process is gone.
  if (keep_dir_) tmp_->Keep();
}

std::string ExternalCluster::LogPath(const std::string& role) const {
  return dir_ + "/" + role + ".log";
}

std::string ExternalCluster::DataDir(const std::string& role) const {
  return dir_ + "/" + role + "-data";
}

std::string ExternalCluster::PortFile(const std::string& role, int start) const {
  return dir_ + "/" + role + ".port." + std::to_string(start);
}

Status ExternalCluster::Start() {
  if (dir_.empty()) return Status::IoError("could not create the cluster's temp dir");
  if (opts_.statestored_ha) {
    statestoreds_[0].ha_port = ::ics::testing::UnusedLoopbackPort();
    statestoreds_[1].ha_port = ::ics::testing::UnusedLoopbackPort();
  }
  ICS_RETURN_IF_ERROR(StartStatestored(0, 0));
  if (opts_.statestored_ha) ICS_RETURN_IF_ERROR(StartStatestored(1, 0));
  ICS_RETURN_IF_ERROR(StartCatalogd(0, 0, 0));
  if (opts_.catalogd_ha) ICS_RETURN_IF_ERROR(StartCatalogd(1, 0, 0));
  for (int p = 0; p < num_coordinator_processes(); ++p) {
    ICS_RETURN_IF_ERROR(StartCoordinators(p, 0, 0));
  }
  return WaitForCoordinatorsReady(opts_.start_timeout);
}

Status ExternalCluster::Launch(ExternalProcess* proc, const Placement& placement,
                               std::vector<std::string> argv, const std::string& port_file,
                               size_t lines, std::vector<std::string>* port_lines) {
  std::error_code ec;
  fs::remove(port_file, ec);
  if (!placement.netns.empty()) {
    argv.insert(argv.begin(), {IpTool(), "netns", "exec", placement.netns});
  }
  ICS_RETURN_IF_ERROR(proc->Start(argv));
  bool exited = false;
  const bool up = WaitFor(
      [&] {
        if (ReadLines(port_file).size() >= lines) return true;
        exited = !proc->IsRunning();
        return exited;
      },
      opts_.start_timeout);
  if (!up || exited) {
    const std::string how = exited ? proc->ExitDescription() : "no port file in time";
    proc->Kill();
    return Status::General(proc->name() + " did not come up (" + how + "); log tail:\n" +
                           TailOfFile(proc->log_path(), 15));
  }
  *port_lines = ReadLines(port_file);
  return Status::OK();
}

std::vector<std::string> ExternalCluster::TlsFlags(const std::string& role) const {
  if (opts_.tls_certs_dir.empty()) return {};
  const std::string& d = opts_.tls_certs_dir;
  const bool catalogd = role == kCatalogd || role == kCatalogd2;
  const std::string cert = opts_.mutual_tls && catalogd ? "catalogd" : "server";
  std::vector<std::string> f = {"--ssl_server_certificate=" + d + "/" + cert + ".pem",
                                "--ssl_private_key=" + d + "/" + cert + ".key",
                                "--ssl_client_ca_certificate=" + d + "/ca.pem"};
  if (opts_.mutual_tls) {
    f.push_back("--ssl_require_client_certificate");
    if (role == kStatestored || role == kStatestored2) {
      f.push_back("--statestore_catalogd_identity=CN=catalogd");
    }
  }
  return f;
}

Status ExternalCluster::StartStatestored(int i, int port) {
  const std::string role = StatestoredRole(i);
  StatestoredProc& ss = statestoreds_[i];
  if (!ss.proc) {
    fs::create_directories(DataDir(role));
    ss.proc = std::make_unique<ExternalProcess>(role, LogPath(role), DataDir(role));
  }
  const Placement& pl = opts_.statestored_placement;
  std::vector<std::string> argv = {
      opts_.statestored_bin.empty() ? ICS_STATESTORED_BIN : opts_.statestored_bin,
      "--hostname=" + pl.hostname,
      "--state_store_port=" + std::to_string(port),
      "--port_file=" + PortFile(role, ss.starts),
      "--statestore_heartbeat_frequency_ms=" + std::to_string(opts_.heartbeat_frequency_ms),
      "--statestore_max_missed_heartbeats=" + std::to_string(opts_.max_missed_heartbeats),
      "--statestore_heartbeat_tcp_timeout_ms=" + std::to_string(opts_.heartbeat_tcp_timeout_ms),
      "--statestore_update_frequency_ms=" + std::to_string(opts_.update_frequency_ms)};
  if (opts_.statestored_ha) {
    argv.push_back("--enable_statestored_ha");
    argv.push_back("--state_store_ha_port=" + std::to_string(ss.ha_port));
    argv.push_back("--state_store_peer_host=127.0.0.1");
    argv.push_back("--state_store_peer_ha_port=" + std::to_string(statestoreds_[1 - i].ha_port));
    argv.insert(argv.end(), opts_.statestored_ha_flags.begin(), opts_.statestored_ha_flags.end());
  }
  for (std::string& f : TlsFlags(role)) argv.push_back(std::move(f));
  argv.insert(argv.end(), opts_.statestored_flags.begin(), opts_.statestored_flags.end());
  std::vector<std::string> lines;
  const std::string port_file = PortFile(role, ss.starts++);
  ICS_RETURN_IF_ERROR(Launch(ss.proc.get(), pl, argv, port_file, 1, &lines));
  ss.port_line = lines[0];
  ss.port = std::atoi(lines[0].c_str());
  if (ss.port <= 0) return Status::Corruption("bad statestored port file: " + lines[0]);
  return Status::OK();
}

namespace {
// The value of `key=<port>` in a port file line (0 when absent).
int NamedPort(const std::string& port_line, const std::string& key) {
  std::istringstream in(port_line);
  std::string word;
  while (in >> word) {
    if (word.rfind(key + "=", 0) == 0) return std::atoi(word.c_str() + key.size() + 1);
  }
  return 0;
}
}  // namespace

Status ExternalCluster::StartCatalogd(int i, int port, int subscriber_port) {
  const std::string role = CatalogdRole(i);
  CatalogdProc& cd = catalogds_[i];
  if (!cd.proc) {
    fs::create_directories(DataDir(role));
    cd.proc = std::make_unique<ExternalProcess>(role, LogPath(role), DataDir(role));
  }
  const Placement& pl =
      i == 1 && opts_.catalogd2_placement ? *opts_.catalogd2_placement : opts_.catalogd_placement;
  std::string mode = opts_.catalog_topic_mode;
  if (mode.empty()) mode = opts_.use_local_catalog ? "minimal" : "full";
  std::vector<std::string> argv = {
      opts_.catalogd_bin.empty() ? ICS_CATALOGD_BIN : opts_.catalogd_bin,
      "--hostname=" + pl.hostname,
      "--listen_host=" + pl.listen_host,
      "--catalog_service_port=" + std::to_string(port),
      "--state_store_host=" + pl.statestore_host,
      "--state_store_port=" + std::to_string(statestoreds_[0].port),
      "--state_store_subscriber_port=" + std::to_string(subscriber_port),
      "--statestore_subscriber_timeout_seconds=" + std::to_string(opts_.subscriber_timeout_seconds),
      "--data_dir=" + DataDir(role),
      "--catalog_topic_mode=" + mode,
      "--sync_ddl_timeout_ms=" + std::to_string(opts_.sync_ddl_timeout_ms),
      "--port_file=" + PortFile(role, cd.starts)};
  // The HMS endpoint and the metastore services: free ports at the first
  // start, the same ones at a restart.
  argv.push_back("--hms_port=" + std::to_string(NamedPort(cd.port_line, "hms")));
  argv.push_back("--metastore_service_port=" +
                 std::to_string(NamedPort(cd.port_line, "metastore_service")));
  if (opts_.statestored_ha) {
    argv.push_back("--state_store_2_port=" + std::to_string(statestoreds_[1].port));
  }
  if (opts_.catalogd_ha) {
    // One metastore and one warehouse for both (the HMS endpoint and the
    // metastore services get free ports each).
    fs::create_directories(dir_ + "/shared-warehouse");
    argv.push_back("--enable_catalogd_ha");
    argv.push_back("--metastore=" + (opts_.shared_metastore.empty()
                                         ? "sqlite:" + dir_ + "/shared-metastore.db"
                                         : opts_.shared_metastore));
    argv.push_back("--warehouse_dir=" + dir_ + "/shared-warehouse");
    argv.push_back("--hms_event_polling_interval_ms=100");
  }
  for (std::string& f : TlsFlags(role)) argv.push_back(std::move(f));
  argv.insert(argv.end(), opts_.catalogd_flags.begin(), opts_.catalogd_flags.end());
  if (i == 1) argv.insert(argv.end(), opts_.catalogd2_flags.begin(), opts_.catalogd2_flags.end());
  std::vector<std::string> lines;
  const std::string port_file = PortFile(role, cd.starts++);
  ICS_RETURN_IF_ERROR(Launch(cd.proc.get(), pl, argv, port_file, 1, &lines));
  cd.port_line = lines[0];
  std::istringstream in(lines[0]);
  if (!(in >> cd.port >> cd.subscriber_port) || cd.port <= 0) {
    return Status::Corruption("bad catalogd port file: " + lines[0]);
  }
  return Status::OK();
}

int ExternalCluster::catalogd_named_port(const std::string& key) const {
  return NamedPort(catalogds_[0].port_line, key);
}

int ExternalCluster::web_port(const std::string& role) const {
  if (role == kStatestored || role == kStatestored2) {
    return NamedPort(statestoreds_[role == kStatestored ? 0 : 1].port_line, "webserver");
  }
  if (role == kCatalogd || role == kCatalogd2) {
    return NamedPort(catalogds_[role == kCatalogd ? 0 : 1].port_line, "webserver");
  }
  return 0;
}

Status ExternalCluster::StartCoordinators(int p, int port, int subscriber_port) {
  CoordProc& cp = coord_procs_.at(p);
  const std::string role = CoordinatorProcess(p);
  if (!cp.proc) {
    fs::create_directories(DataDir(role));
    cp.proc = std::make_unique<ExternalProcess>(role, LogPath(role), DataDir(role));
  }
  const Placement& pl = cp.spec.placement;
  std::vector<std::string> argv = {
      opts_.coordinator_bin.empty() ? ICS_COORDINATOR_SIM_BIN : opts_.coordinator_bin,
      "--hostname=" + pl.hostname,
      "--listen_host=" + pl.listen_host,
      "--num_coordinators=" + std::to_string(cp.spec.num_coordinators),
      "--coordinator_port=" + std::to_string(port),
      "--state_store_subscriber_port=" + std::to_string(subscriber_port),
      "--state_store_host=" + pl.statestore_host,
      "--state_store_port=" + std::to_string(statestoreds_[0].port),
      "--statestore_subscriber_timeout_seconds=" + std::to_string(opts_.subscriber_timeout_seconds),
      "--catalog_service_host=" + pl.catalogd_host,
      "--catalog_service_port=" + std::to_string(catalogds_[0].port),
      std::string("--use_local_catalog=") + (opts_.use_local_catalog ? "true" : "false"),
      "--sync_ddl_timeout_ms=" + std::to_string(opts_.sync_ddl_timeout_ms),
      "--id_prefix=" + role,
      "--port_file=" + PortFile(role, cp.starts)};
  if (opts_.catalogd_ha) argv.push_back("--enable_catalogd_ha");
  if (opts_.statestored_ha) {
    argv.push_back("--state_store_2_port=" + std::to_string(statestoreds_[1].port));
  }
  for (std::string& f : TlsFlags(role)) argv.push_back(std::move(f));
  argv.insert(argv.end(), cp.spec.extra_flags.begin(), cp.spec.extra_flags.end());
  std::vector<std::string> lines;
  const std::string port_file = PortFile(role, cp.starts++);
  ICS_RETURN_IF_ERROR(Launch(cp.proc.get(), pl, argv, port_file,
                             static_cast<size_t>(cp.spec.num_coordinators), &lines));
  for (const std::string& line : lines) {
    std::istringstream in(line);
    int i = -1, cport = 0, sport = 0;
    if (!(in >> i >> cport >> sport) || i < 0 || i >= cp.spec.num_coordinators) {
      return Status::Corruption("bad coordinator-sim port file line: " + line);
    }
    coordinators_.at(cp.first + i).port = cport;
    coordinators_.at(cp.first + i).subscriber_port = sport;
    std::string token;
    while (in >> token) {
      if (token.rfind("webserver=", 0) == 0) {
        coordinators_.at(cp.first + i).web_port = std::atoi(token.c_str() + 10);
      }
    }
  }
  return Status::OK();
}

Status ExternalCluster::WaitForCoordinatorsReady(Millis timeout) {
  const auto deadline = Clock::now() + timeout;
  for (int i = 0; i < num_coordinators(); ++i) {
    if (!IsRunning(ProcessOf(i))) continue;
    ExecResult last;
    const bool ready = WaitFor(
        [&] {
          ExecOptions o;
          o.timeout_ms = 5000;
          last = Exec(i, "SHOW DATABASES", o);
          return last.ok();
        },
        std::chrono::duration_cast<Millis>(deadline - Clock::now()));
    if (!ready) {
      return Status::TimedOut("coordinator " + std::to_string(i) +
                              " not ready; last SHOW DATABASES: " + last.ToString());
    }
  }
  return Status::OK();
}

ExternalProcess* ExternalCluster::FindProcess(const std::string& role) const {
  if (role == kStatestored) return statestoreds_[0].proc.get();
  if (role == kStatestored2) return statestoreds_[1].proc.get();
  if (role == kCatalogd) return catalogds_[0].proc.get();
  if (role == kCatalogd2) return catalogds_[1].proc.get();
  const int p = CoordinatorProcessIndex(role);
  return p >= 0 ? coord_procs_[p].proc.get() : nullptr;
}

int ExternalCluster::CoordinatorProcessIndex(const std::string& role) const {
  for (int p = 0; p < num_coordinator_processes(); ++p) {
    if (role == CoordinatorProcess(p)) return p;
  }
  return -1;
}

ExternalProcess* ExternalCluster::process(const std::string& role) { return FindProcess(role); }

std::string ExternalCluster::ProcessOf(int coordinator) const {
  return CoordinatorProcess(coordinators_.at(coordinator).process);
}

bool ExternalCluster::IsRunning(const std::string& role) {
  ExternalProcess* p = FindProcess(role);
  return p != nullptr && p->IsRunning();
}

void ExternalCluster::Kill(const std::string& role) {
  if (ExternalProcess* p = FindProcess(role)) p->Kill();
}

Status ExternalCluster::Stop(const std::string& role, Millis timeout) {
  ExternalProcess* p = FindProcess(role);
  if (p == nullptr) return Status::NotFound("no role " + role);
  return p->Stop(timeout);
}

Status ExternalCluster::Pause(const std::string& role) {
  ExternalProcess* p = FindProcess(role);
  if (p == nullptr) return Status::NotFound("no role " + role);
  return p->Pause();
}

void ExternalCluster::Resume(const std::string& role) {
  if (ExternalProcess* p = FindProcess(role)) p->Resume();
}

Status ExternalCluster::RestartWithRetry(const std::function<Status()>& start) {
  const auto deadline = Clock::now() + opts_.start_timeout;
  Status s;
  while (true) {
    s = start();
    if (s.ok() || Clock::now() >= deadline) return s;
    // Most likely the old port is still held; try again shortly.
    std::this_thread::sleep_for(Millis(200));
  }
}

Status ExternalCluster::Restart(const std::string& role) {
  ExternalProcess* p = FindProcess(role);
  if (p == nullptr) return Status::NotFound("no role " + role);
  p->Kill();
  if (role == kStatestored || role == kStatestored2) {
    const int i = role == kStatestored ? 0 : 1;
    const int port = statestoreds_[i].port;
    return RestartWithRetry([&] { return StartStatestored(i, port); });
  }
  if (role == kCatalogd || role == kCatalogd2) {
    const int i = role == kCatalogd ? 0 : 1;
    const int port = catalogds_[i].port;
    const int sport = catalogds_[i].subscriber_port;
    return RestartWithRetry([&] { return StartCatalogd(i, port, sport); });
  }
  const int idx = CoordinatorProcessIndex(role);
  const CoordProc& cp = coord_procs_[idx];
  // The same ports when they were contiguous (the only layout the flags
  // can express), otherwise fresh ones.
  int port = coordinators_[cp.first].port;
  int sport = coordinators_[cp.first].subscriber_port;
  for (int j = 1; j < cp.spec.num_coordinators; ++j) {
    if (coordinators_[cp.first + j].port != port + j) port = 0;
    if (coordinators_[cp.first + j].subscriber_port != sport + j) sport = 0;
  }
  return RestartWithRetry([&] { return StartCoordinators(idx, port, sport); });
}

ExecResult ExternalCluster::Exec(int coordinator, const std::string& sql, bool sync_ddl) {
  ExecOptions o;
  o.sync_ddl = sync_ddl;
  return Exec(coordinator, sql, o);
}

namespace {

ExecResult ExecOn(const std::string& host, int port, const std::string& sql,
                  const ExecOptions& options, std::shared_ptr<const TlsContext> tls) {
  ExecResult r;
  ThriftClientOptions co;
  co.tls = std::move(tls);
  co.connect_timeout_ms = 5000;
  co.send_timeout_ms = options.timeout_ms;
  co.recv_timeout_ms = options.timeout_ms;
  ThriftClient<ics::thrift::CoordinatorServiceClient> client(host, port, co);
  ics::thrift::TExecuteStatementRequest req;
  req.statement = sql;
  req.__set_default_db(options.db);
  std::map<std::string, std::string> qo = options.query_options;
  if (options.sync_ddl) qo["SYNC_DDL"] = "1";
  req.__set_query_options(qo);
  ics::thrift::TExecuteStatementResponse resp;
  const auto start = Clock::now();
  r.status = client.Call("ExecuteStatement", [&](ics::thrift::CoordinatorServiceClient& c) {
    c.ExecuteStatement(resp, req);
  });
  r.elapsed = std::chrono::duration_cast<Millis>(Clock::now() - start);
  if (!r.status.ok()) return r;
  r.status = FromTStatus(resp.status);
  r.columns = resp.column_names;
  r.rows = resp.rows;
  r.messages = resp.messages;
  return r;
}

}  // namespace

ExecResult ExternalCluster::Exec(int coordinator, const std::string& sql,
                                 const ExecOptions& options) {
  const CoordinatorInfo& info = coordinators_.at(coordinator);
  const Placement& pl = coord_procs_.at(info.process).spec.placement;
  // Inside the coordinator's namespace it listens on its listen_host; from
  // the outside on loopback (the default placement).
  const std::string host =
      pl.listen_host == "0.0.0.0" || pl.listen_host.empty() ? "127.0.0.1" : pl.listen_host;
  if (pl.netns.empty()) return ExecOn(host, info.port, sql, options, client_tls_);
  // A network namespace is per thread: run the RPC on a thread that joined
  // the coordinator's namespace.
  ExecResult r;
  Status entered =
      RunInNetns(pl.netns, [&] { r = ExecOn(host, info.port, sql, options, client_tls_); });
  if (!entered.ok()) r.status = entered;
  return r;
}

CommandResult ExternalCluster::Shell(int coordinator, const std::string& sql) {
  const CoordinatorInfo& info = coordinators_.at(coordinator);
  const Placement& pl = coord_procs_.at(info.process).spec.placement;
  const std::string host =
      pl.listen_host == "0.0.0.0" || pl.listen_host.empty() ? "127.0.0.1" : pl.listen_host;
  std::vector<std::string> argv = {
      opts_.shell_bin.empty() ? ICS_CATALOG_SHELL_BIN : opts_.shell_bin, "-i",
      host + ":" + std::to_string(info.port), "-q", sql};
  if (!opts_.tls_certs_dir.empty()) {
    argv.push_back("--ssl");
    argv.push_back("--ca_cert=" + opts_.tls_certs_dir + "/ca.pem");
    if (opts_.mutual_tls) {
      argv.push_back("--client_cert=" + opts_.tls_certs_dir + "/client.pem");
      argv.push_back("--client_key=" + opts_.tls_certs_dir + "/client.key");
    }
  }
  if (!pl.netns.empty()) argv.insert(argv.begin(), {IpTool(), "netns", "exec", pl.netns});
  return RunCommand(argv);
}

bool ExternalCluster::LogContains(const std::string& role, const std::string& text) const {
  return LogCount(role, text) > 0;
}

int ExternalCluster::LogCount(const std::string& role, const std::string& text) const {
  std::ifstream in(LogPath(role));
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    if (line.find(text) != std::string::npos) ++n;
  }
  return n;
}

void ExternalCluster::DumpLogs(std::ostream& out, size_t lines) const {
  std::vector<std::string> roles = {kStatestored, kCatalogd};
  if (opts_.statestored_ha) roles.insert(roles.begin() + 1, kStatestored2);
  if (opts_.catalogd_ha) roles.push_back(kCatalogd2);
  for (int p = 0; p < static_cast<int>(coord_procs_.size()); ++p) {
    roles.push_back(CoordinatorProcess(p));
  }
  for (const auto& role : roles) {
    ExternalProcess* p = FindProcess(role);
    const std::string state = p == nullptr ? "never started" : p->ExitDescription();
    out << "---- " << role << " (" << state << "), last " << lines << " lines of " << LogPath(role)
        << "\n"
        << TailOfFile(LogPath(role), lines);
  }
  out << "---- cluster dir: " << dir_ << (keep_dir_ ? " (kept)" : "") << "\n";
}

}  // namespace ics::external
