#include "tests/external/netns.h"

#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <sstream>
#include <thread>
#include <vector>

#include "tests/external/external_process.h"

namespace ics::external {

Status RunInNetns(const std::string& ns, const std::function<void()>& fn) {
  Status s;
  std::thread t([&] {
    const std::string path = "/var/run/netns/" + ns;
    const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0 || setns(fd, CLONE_NEWNET) != 0) {
      s = Status::IoError("cannot enter network namespace " + ns + ": " + strerror(errno));
      if (fd >= 0) close(fd);
      return;
    }
    close(fd);
    fn();
  });
  t.join();
  return s;
}

namespace {

constexpr const char* kPrefix = "icsext";

Status Run(std::vector<std::string> args) {
  args.insert(args.begin(), IpTool());
  CommandResult r = RunCommand(args);
  if (r.ok()) return Status::OK();
  std::string cmd;
  for (const auto& a : args) cmd += a + " ";
  return Status::General(cmd + "failed (exit " + std::to_string(r.exit_code) + "): " + r.output);
}

// Deletes namespaces left behind by earlier runs that died (their pid is in
// the name and no longer alive). Namespaces of live runs are left alone.
void DeleteStaleNamespaces() {
  CommandResult r = RunCommand({IpTool(), "netns", "list"});
  std::istringstream in(r.output);
  std::string name;
  while (in >> name) {
    if (name.rfind(kPrefix, 0) != 0) continue;
    const std::string digits = name.substr(std::string(kPrefix).size());
    const size_t end = digits.find_first_not_of("0123456789");
    if (end == 0) continue;
    const pid_t pid = static_cast<pid_t>(std::stol(digits.substr(0, end)));
    if (kill(pid, 0) == 0 || errno != ESRCH) continue;
    (void)Run({"netns", "del", name});
  }
}

}  // namespace

NetnsPair::NetnsPair() {
  const std::string id = std::to_string(getpid());
  ns_a_ = kPrefix + id + "a";
  ns_b_ = kPrefix + id + "b";
  veth_a_ = "icsa" + id;  // interface names: at most 15 bytes
  veth_b_ = "icsb" + id;
  const std::string subnet = "10.231." + std::to_string(getpid() % 250) + ".";
  addr_a_ = subnet + "1";
  addr_b_ = subnet + "2";
}

NetnsPair::~NetnsPair() { Destroy(); }

std::string NetnsPair::Unavailable() {
  if (geteuid() != 0) return "needs root (creates network namespaces and a veth pair)";
  if (IpTool().empty()) return "the ip tool (iproute2) is not installed";
  const std::string probe = std::string(kPrefix) + std::to_string(getpid()) + "probe";
  Status s = Run({"netns", "add", probe});
  if (!s.ok()) return "ip netns does not work here: " + s.message();
  (void)Run({"netns", "del", probe});
  return "";
}

Status NetnsPair::Create() {
  DeleteStaleNamespaces();
  created_ = true;  // Destroy() cleans up whatever part got created
  ICS_RETURN_IF_ERROR(Run({"netns", "add", ns_a_}));
  ICS_RETURN_IF_ERROR(Run({"netns", "add", ns_b_}));
  ICS_RETURN_IF_ERROR(Run({"link", "add", veth_a_, "netns", ns_a_, "type", "veth", "peer", "name",
                           veth_b_, "netns", ns_b_}));
  ICS_RETURN_IF_ERROR(Run({"-n", ns_a_, "addr", "add", addr_a_ + "/24", "dev", veth_a_}));
  ICS_RETURN_IF_ERROR(Run({"-n", ns_b_, "addr", "add", addr_b_ + "/24", "dev", veth_b_}));
  for (const auto& [ns, dev] : {std::pair{ns_a_, veth_a_}, std::pair{ns_b_, veth_b_}}) {
    ICS_RETURN_IF_ERROR(Run({"-n", ns, "link", "set", "lo", "up"}));
    ICS_RETURN_IF_ERROR(Run({"-n", ns, "link", "set", dev, "up"}));
  }
  return Status::OK();
}

void NetnsPair::Destroy() {
  if (!created_) return;
  created_ = false;
  (void)Run({"netns", "del", ns_a_});
  (void)Run({"netns", "del", ns_b_});
}

Status NetnsPair::Cut(Side side) {
  return side == Side::kA ? Run({"-n", ns_a_, "link", "set", veth_a_, "down"})
                          : Run({"-n", ns_b_, "link", "set", veth_b_, "down"});
}

Status NetnsPair::Heal(Side side) {
  return side == Side::kA ? Run({"-n", ns_a_, "link", "set", veth_a_, "up"})
                          : Run({"-n", ns_b_, "link", "set", veth_b_, "up"});
}

}  // namespace ics::external
