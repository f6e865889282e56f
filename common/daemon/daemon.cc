#include "common/daemon/daemon.h"

#include <signal.h>

#include <cstdio>
#include <fstream>

#include <gflags/gflags.h>
#include <glog/logging.h>
#include <thrift/TOutput.h>

#include "common/rpc/decode_budget.h"

DEFINE_int64(rpc_max_decode_memory_bytes, 4ll << 30,
             "Memory that all Thrift requests being decoded (and served) at once may hold, "
             "process-wide; a request that would exceed it is rejected with an error.");

namespace ics {

namespace {

sigset_t ShutdownSignals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  return set;
}

}  // namespace

void InitDaemon(int* argc, char*** argv, const char* usage) {
  gflags::SetUsageMessage(usage);
  gflags::ParseCommandLineFlags(argc, argv, /*remove_flags=*/true);
  if (FLAGS_log_dir.empty()) FLAGS_logtostderr = true;
  google::InitGoogleLogging((*argv)[0]);
  sigset_t set = ShutdownSignals();
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  signal(SIGPIPE, SIG_IGN);  // a peer closing a socket must not kill the daemon
  // Thrift prints a line to stderr for every refused connection ("TSocket::
  // open() error ... Connection refused": hundreds per second while an HA
  // peer is down); every such failure also comes back as a Status to the
  // caller, which logs what matters. Thrift's own lines are log detail.
  apache::thrift::GlobalOutput.setOutputFunction(
      [](const char* message) { VLOG(1) << "thrift: " << message; });
  SetProcessDecodeMemoryLimit(FLAGS_rpc_max_decode_memory_bytes);
}

int WaitForShutdownSignal() {
  sigset_t set = ShutdownSignals();
  int sig = 0;
  while (sigwait(&set, &sig) != 0) {
  }
  LOG(INFO) << "received signal " << sig << ", shutting down";
  return sig;
}

Status WriteFileAtomically(const std::string& path, const std::string& content) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::trunc);
    if (!out) return Status::IoError("cannot write " + tmp);
    out << content;
    if (!out.flush()) return Status::IoError("cannot write " + tmp);
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    return Status::IoError("cannot rename " + tmp + " to " + path);
  }
  return Status::OK();
}

}  // namespace ics
