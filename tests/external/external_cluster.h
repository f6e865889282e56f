// ExternalCluster: a multi-process test cluster of the real binaries
// (statestored, catalogd, one or more coordinator-sim processes) on free
// loopback ports, for failure tests that kill, restart and pause processes.
//
// Every process is started with port 0 and --port_file; the cluster reads
// the bound ports back and wires the roles together (catalogd and the
// coordinators get statestored's port, the coordinators catalogd's). Each
// role has its own log file (stdout+stderr, appended across restarts, with a
// banner per start) and its own data dir (also its working directory) under
// a per-cluster temp dir.
//
// catalogd HA (catalogd_ha): a second catalogd, "catalogd2", runs beside
// "catalogd"; both get --enable_catalogd_ha and share one SQLite metastore
// file and one warehouse under the cluster dir, and the coordinators get
// --enable_catalogd_ha (they start at catalogd's address and follow the
// statestore's designation).
//
// Roles are named: "statestored", "catalogd", and "coordinators-<p>" for
// the p-th coordinator-sim process. Coordinators are numbered globally in
// process order (process 0 runs coordinators 0..n0-1, process 1 the next,
// ...); Exec(i, ...) talks to coordinator i over its CoordinatorService port.
//
// Process control: Kill (SIGKILL, reaped), Stop (SIGTERM, waits), Restart
// (same ports and data dir: statestored and catalogd are given the ports
// they bound before explicitly; coordinators too when their ports are
// contiguous), Pause (SIGSTOP, waits until the kernel reports it stopped),
// Resume (SIGCONT).
//
// Cleanup: the destructor SIGKILLs (paused ones too) every process it started and
// reaps it. Children also get PR_SET_PDEATHSIG(SIGKILL), so they die with
// the test binary even when it crashes. PDEATHSIG fires when the *thread*
// that forked exits: start and restart processes only from the test's main
// thread. The temp dir is removed by the destructor unless set_keep_dir()
// was called (tests do on failure, so the logs stay around) or the
// environment has ICS_EXTERNAL_KEEP_DIRS=1.
//
// Network namespaces: a role may run under `ip netns exec <ns>` (see
// Placement); Exec() into a coordinator in a namespace runs the RPC on a
// helper thread that has entered that namespace with setns().
//
// Thread-safety: process control (Start/Kill/Stop/Restart/Pause/Resume) is
// not thread-safe and belongs to the main thread. Exec() and the accessors
// may be called from any thread concurrently with each other (each Exec
// uses its own connection), but not concurrently with Restart() of the
// process that serves that coordinator.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "common/rpc/tls.h"
#include "common/util/status.h"
#include "tests/external/external_process.h"
#include "tests/util/temp_dir.h"

namespace ics::external {

// Where a role runs and how it reaches the others.
struct Placement {
  std::string netns;                          // "" = the test's own namespace
  std::string hostname = "127.0.0.1";         // --hostname (advertised; statestored: bind)
  std::string listen_host = "127.0.0.1";      // --listen_host (catalogd, coordinator-sim)
  std::string statestore_host = "127.0.0.1";  // how this role reaches statestored
  std::string catalogd_host = "127.0.0.1";    // how this role reaches catalogd
};

struct CoordinatorProcessSpec {
  int num_coordinators = 1;
  Placement placement;
  std::vector<std::string> extra_flags;
};

struct ExternalClusterOptions {
  // One coordinator-sim process per entry.
  std::vector<CoordinatorProcessSpec> coordinator_processes = {CoordinatorProcessSpec{2, {}, {}}};
  // Coordinators' local catalog: on-demand (true, the default) or full
  // replica (false). catalogd's topic mode follows unless set explicitly.
  bool use_local_catalog = true;
  std::string catalog_topic_mode;  // "" = minimal for on-demand, full for full replica

  // Short timings (the statestore's failure detection and the
  // subscribers' re-registration).
  int heartbeat_frequency_ms = 200;
  int max_missed_heartbeats = 5;
  int heartbeat_tcp_timeout_ms = 300;
  int update_frequency_ms = 500;
  int subscriber_timeout_seconds = 3;
  int sync_ddl_timeout_ms = 20000;  // coordinators and catalogd

  // TLS on every Thrift port: a directory of certificates made by
  // scripts/make_certs.sh ("" = plaintext). Every role presents server.pem
  // (catalogd: catalogd.pem) and trusts ca.pem; with mutual_tls clients must
  // present a certificate too, and the statestore takes catalog-update only
  // from CN=catalogd. Exec() and Shell() then speak TLS (as client.pem).
  std::string tls_certs_dir;
  bool mutual_tls = false;

  Placement statestored_placement;
  // Two catalogds, active and standby (see the file comment).
  bool catalogd_ha = false;
  // Two statestoreds ("statestored", "statestored2") in an HA pair on
  // loopback HA ports chosen here; catalogds and coordinators register with
  // both (--state_store_2_port).
  bool statestored_ha = false;
  // The statestored pair's failure-detection flags (short by default;
  // empty = the daemons' defaults).
  std::vector<std::string> statestored_ha_flags = {
      "--statestore_peer_timeout_ms=1000", "--statestore_ha_heartbeat_monitoring_frequency_ms=100"};
  // catalogd_ha: the --metastore both catalogds share ("" = one SQLite file
  // under the cluster dir).
  std::string shared_metastore;
  std::vector<std::string> catalogd2_flags;  // extra flags of catalogd2 only
  std::optional<Placement> catalogd2_placement;  // default: catalogd_placement

  Placement catalogd_placement;
  std::vector<std::string> statestored_flags;  // extra flags per role
  std::vector<std::string> catalogd_flags;

  // Binaries (defaults: the build's, from compile definitions).
  std::string statestored_bin;
  std::string catalogd_bin;
  std::string coordinator_bin;
  std::string shell_bin;

  // Parent of the per-cluster temp dir ("" = $TMPDIR or /tmp); the name
  // starts with `name`.
  std::string base_dir;
  std::string name = "ics-external";
  // How long one role may take to come up.
  Millis start_timeout{20000};

  // The statestore's failure-detection bound for a hung (SIGSTOPped)
  // subscriber: max missed heartbeats, each waiting out the interval and
  // the RPC timeout. Tests add their own slack.
  Millis FailureDetectionTime() const {
    return Millis(int64_t{max_missed_heartbeats} *
                  (heartbeat_frequency_ms + heartbeat_tcp_timeout_ms));
  }
};

// The outcome of one statement on a coordinator.
struct ExecResult {
  Status status;  // transport error or the statement's error
  std::vector<std::string> columns;
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> messages;
  Millis elapsed{0};  // wall time seen by the client

  bool ok() const { return status.ok(); }
  // Values of column `c` of every row.
  std::vector<std::string> Column(size_t c = 0) const;
  std::string ToString() const;
};

struct ExecOptions {
  bool sync_ddl = false;
  std::string db = "default";
  std::map<std::string, std::string> query_options;  // more session options
  int timeout_ms = 60000;                            // client receive timeout
};

class ExternalCluster {
 public:
  static constexpr const char* kStatestored = "statestored";
  static constexpr const char* kStatestored2 = "statestored2";  // with statestored_ha
  static constexpr const char* kCatalogd = "catalogd";
  static constexpr const char* kCatalogd2 = "catalogd2";  // with catalogd_ha
  static std::string CoordinatorProcess(int p) { return "coordinators-" + std::to_string(p); }

  explicit ExternalCluster(ExternalClusterOptions options);
  ~ExternalCluster();
  ExternalCluster(const ExternalCluster&) = delete;
  ExternalCluster& operator=(const ExternalCluster&) = delete;

  // Starts statestored, catalogd and the coordinator processes, in that
  // order, each on free ports; then WaitForCoordinatorsReady().
  [[nodiscard]] Status Start();
  // Waits until every live coordinator answers SHOW DATABASES. (Each
  // coordinator registered with the statestore before coordinator-sim
  // wrote its port file; whether it has received the topic yet is for the
  // test to wait for.)
  [[nodiscard]] Status WaitForCoordinatorsReady(Millis timeout);

  // Process control by role name (see the file comment).
  void Kill(const std::string& role);
  [[nodiscard]] Status Stop(const std::string& role, Millis timeout = Millis(10000));
  // Starts the role again (killing it first if it still runs) on the ports
  // it had, with the same data dir. Retries while the old port is busy.
  [[nodiscard]] Status Restart(const std::string& role);
  [[nodiscard]] Status Pause(const std::string& role);
  void Resume(const std::string& role);
  bool IsRunning(const std::string& role);
  ExternalProcess* process(const std::string& role);

  // Runs one statement on coordinator i through its CoordinatorService.
  ExecResult Exec(int coordinator, const std::string& sql, const ExecOptions& options);
  ExecResult Exec(int coordinator, const std::string& sql, bool sync_ddl = false);
  // Runs catalog-shell -i <coordinator> -q <sql> (under `ip netns exec` when
  // the coordinator runs in a namespace).
  CommandResult Shell(int coordinator, const std::string& sql);

  int num_coordinators() const { return static_cast<int>(coordinators_.size()); }
  int num_coordinator_processes() const { return static_cast<int>(coord_procs_.size()); }
  // Role name of the process that runs coordinator i.
  std::string ProcessOf(int coordinator) const;
  int coordinator_port(int i) const { return coordinators_.at(i).port; }
  int statestore_port() const { return statestoreds_[0].port; }
  int statestore_port(int i) const { return statestoreds_[i].port; }
  static const char* StatestoredRole(int i) { return i == 0 ? kStatestored : kStatestored2; }
  int catalogd_port() const { return catalogds_[0].port; }
  int catalogd_subscriber_port() const { return catalogds_[0].subscriber_port; }
  // catalogd i (0: "catalogd", 1: "catalogd2").
  int catalogd_port(int i) const { return catalogds_[i].port; }
  static const char* CatalogdRole(int i) { return i == 0 ? kCatalogd : kCatalogd2; }
  // A port catalogd reported as `key=<port>` in its port file (e.g. "hms",
  // "metastore_service", "webserver"); 0 when it reported none.
  int catalogd_named_port(const std::string& key) const;
  // The web server port statestored or catalogd role `role` reported at its
  // last start (0 when it runs none).
  int web_port(const std::string& role) const;
  int coordinator_subscriber_port(int i) const { return coordinators_.at(i).subscriber_port; }
  // Coordinator i's web server port (0 when it runs none).
  int coordinator_web_port(int i) const { return coordinators_.at(i).web_port; }
  const ExternalClusterOptions& options() const { return opts_; }
  // The client context Exec() uses (nullptr without TLS).
  const std::shared_ptr<const TlsContext>& client_tls() const { return client_tls_; }
  const std::string& dir() const { return dir_; }
  std::string LogPath(const std::string& role) const;
  std::string DataDir(const std::string& role) const;
  // Whether the role's log (all starts so far) contains `text`.
  bool LogContains(const std::string& role, const std::string& text) const;
  // How many lines of the role's log contain `text`.
  int LogCount(const std::string& role, const std::string& text) const;
  // How many times the HA catalogd / statestored `role` logged taking the
  // active role (catalogd/service/catalogd_role.cc, statestore/statestore_ha.cc).
  int CatalogdTakeovers(const std::string& role) const {
    return LogCount(role, "is the active catalogd (designation");
  }
  int StatestoredActivations(const std::string& role) const {
    return LogCount(role, "becoming the active statestore");
  }
  // Appends the tail of every role's log, and the temp dir, to `out`.
  void DumpLogs(std::ostream& out, size_t lines = 40) const;
  // Keep the temp dir at destruction (for post-mortems).
  void set_keep_dir(bool keep) { keep_dir_ = keep; }

 private:
  struct CoordinatorInfo {
    int process = 0;
    int port = 0;
    int subscriber_port = 0;
    int web_port = 0;
  };
  struct CoordProc {
    CoordinatorProcessSpec spec;
    std::unique_ptr<ExternalProcess> proc;
    int first = 0;  // global index of its first coordinator
    int starts = 0;
  };

  [[nodiscard]] Status StartStatestored(int i, int port);
  [[nodiscard]] Status StartCatalogd(int i, int port, int subscriber_port);
  [[nodiscard]] Status StartCoordinators(int p, int port, int subscriber_port);
  // Starts `proc` with argv and waits for `port_file` to hold `lines` lines.
  [[nodiscard]] Status Launch(ExternalProcess* proc, const Placement& placement,
                              std::vector<std::string> argv, const std::string& port_file,
                              size_t lines, std::vector<std::string>* port_lines);
  // Retries `start` while the process exits right away (port still busy).
  [[nodiscard]] Status RestartWithRetry(const std::function<Status()>& start);
  ExternalProcess* FindProcess(const std::string& role) const;
  int CoordinatorProcessIndex(const std::string& role) const;
  std::string PortFile(const std::string& role, int start) const;

  const ExternalClusterOptions opts_;
  std::unique_ptr<::ics::testing::TempDir> tmp_;
  std::string dir_;
  std::shared_ptr<const TlsContext> client_tls_;
  // --ssl_* flags for a role (empty without TLS).
  std::vector<std::string> TlsFlags(const std::string& role) const;
  bool keep_dir_ = false;
  struct StatestoredProc {
    std::unique_ptr<ExternalProcess> proc;
    int port = 0;
    int ha_port = 0;  // statestored_ha: chosen before the first start
    std::string port_line;
    int starts = 0;
  };
  StatestoredProc statestoreds_[2];  // the second only with statestored_ha
  struct CatalogdProc {
    std::unique_ptr<ExternalProcess> proc;
    int port = 0;
    int subscriber_port = 0;
    std::string port_line;
    int starts = 0;
  };
  CatalogdProc catalogds_[2];  // the second only with catalogd_ha
  std::vector<CoordProc> coord_procs_;
  std::vector<CoordinatorInfo> coordinators_;
};

}  // namespace ics::external
