#include "tests/external/chaos_monitor.h"

#include <cstdlib>
#include <sstream>

#include "tests/external/external_cluster.h"
#include "tests/web/http_client.h"

namespace ics::external {

void HaMonitor::SetPort(Role role, int web_port) { ports_[role] = web_port; }

void HaMonitor::Start() {
  thread_ = std::thread([this] { Run(); });
}

void HaMonitor::Finish() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
}

std::vector<HaMonitor::Sample> HaMonitor::samples() const {
  MutexLock l(&mu_);
  return samples_;
}

HaMonitor::State HaMonitor::Latest(Role role) const {
  MutexLock l(&mu_);
  return samples_.empty() ? kUnpolled : samples_.back().state[role];
}

HaMonitor::Role HaMonitor::RoleOf(const std::string& name) {
  if (name == ExternalCluster::kStatestored) return kStatestored;
  if (name == ExternalCluster::kStatestored2) return kStatestored2;
  if (name == ExternalCluster::kCatalogd) return kCatalogd;
  return kCatalogd2;
}

const char* HaMonitor::Name(Role role) {
  switch (role) {
    case kStatestored: return ExternalCluster::kStatestored;
    case kStatestored2: return ExternalCluster::kStatestored2;
    case kCatalogd: return ExternalCluster::kCatalogd;
    default: return ExternalCluster::kCatalogd2;
  }
}

HaMonitor::State HaMonitor::Poll(Role role, int port) const {
  webtest::HttpRequestOptions o;
  o.timeout = Millis(300);
  auto r = webtest::HttpGet(port, "/metrics", o);
  if (!r.ok() || r->status != 200) return kUnreachable;
  const std::string metric =
      role == kCatalogd || role == kCatalogd2 ? "catalogd_ha_active" : "statestore_is_active";
  std::istringstream in(r->body);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(metric + " ", 0) != 0) continue;
    return std::atof(line.c_str() + metric.size() + 1) > 0.5 ? kActive : kStandby;
  }
  return kUnreachable;
}

void HaMonitor::Run() {
  while (!stop_) {
    const auto next = Clock::now() + interval_;
    Sample s;
    for (int r = 0; r < kNumRoles; ++r) {
      const int port = ports_[r];
      s.state[r] = port == 0 ? kUnpolled : Poll(static_cast<Role>(r), port);
    }
    s.at = Clock::now();
    {
      MutexLock l(&mu_);
      samples_.push_back(s);
    }
    std::this_thread::sleep_until(next);
  }
}

}  // namespace ics::external
