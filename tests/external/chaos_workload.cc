#include "tests/external/chaos_workload.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <cstdlib>
#include <iterator>

namespace ics::external {
namespace {

constexpr int kExecTimeoutMs = 90000;
// Reads of a SYNC_DDL result that fail (a fault in the way) are retried
// this often before the check gives up on that statement.
constexpr int kReadAttempts = 20;

std::string PartitionsText(const std::set<int>& s) {
  std::string out;
  for (int p : s) out += (out.empty() ? "" : ",") + std::to_string(p);
  return "{" + out + "}";
}

}  // namespace

// Wall-clock time of day with milliseconds, as the daemons' logs print it.
std::string TimeOfDay(Clock::time_point t) {
  // The steady clock has no epoch; the system clock's now, less the age.
  const auto at = std::chrono::system_clock::now() -
                  std::chrono::duration_cast<std::chrono::system_clock::duration>(Clock::now() - t);
  const std::time_t secs = std::chrono::system_clock::to_time_t(at);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[32];
  const int ms = static_cast<int>(
      std::chrono::duration_cast<std::chrono::milliseconds>(at.time_since_epoch()).count() % 1000);
  std::snprintf(buf, sizeof buf, "%02d:%02d:%02d.%03d", tm.tm_hour, tm.tm_min, tm.tm_sec, ms);
  return buf;
}

std::string WallClock() { return TimeOfDay(Clock::now()); }

std::map<std::string, std::string> TableParameters(const ExecResult& describe) {
  std::map<std::string, std::string> out;
  bool in = false;
  for (const auto& row : describe.rows) {
    if (row.empty()) continue;
    if (row[0] == "Table Parameters:") {
      in = true;
      continue;
    }
    if (!in) continue;
    if (!row[0].empty() || row.size() < 3 || row[1].empty()) break;  // the section ended
    out[row[1]] = row[2];
  }
  return out;
}

std::set<int> PartitionValues(const ExecResult& show_partitions) {
  std::set<int> out;
  for (const std::string& v : show_partitions.Column(0)) {
    if (v == "Total") continue;
    const size_t eq = v.find('=');
    out.insert(std::atoi(v.c_str() + (eq == std::string::npos ? 0 : eq + 1)));
  }
  return out;
}

ChaosClient::ChaosClient(ExternalCluster* cluster, int client, int coordinator,
                         int check_coordinator, uint64_t seed, int sync_ddl_percent)
    : cluster_(cluster),
      client_(client),
      coordinator_(coordinator),
      check_coordinator_(check_coordinator),
      sync_ddl_percent_(sync_ddl_percent),
      rng_(seed) {}

ChaosClient::~ChaosClient() { Finish(); }

void ChaosClient::Start() {
  thread_ = std::thread([this] { Run(); });
}

void ChaosClient::Finish() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
}

std::vector<ChaosStatement> ChaosClient::statements() const {
  MutexLock l(&mu_);
  return log_;
}

std::vector<std::string> ChaosClient::stale_read_log() const {
  MutexLock l(&mu_);
  return stale_log_;
}

std::string ChaosClient::TableName(int n) const {
  return std::string(kDb) + ".c" + std::to_string(client_) + "_t" + std::to_string(n);
}

void ChaosClient::Record(ChaosStatement s) {
  (s.ok ? acked_ : failed_)++;
  MutexLock l(&mu_);
  log_.push_back(std::move(s));
}

ExecResult ChaosClient::Send(const std::string& sql, bool sync_ddl) {
  ExecOptions o;
  o.sync_ddl = sync_ddl;
  o.timeout_ms = kExecTimeoutMs;
  return cluster_->Exec(coordinator_, sql, o);
}

void ChaosClient::Run() {
  while (!stop_) Step();
}

void ChaosClient::Step() {
  std::uniform_int_distribution<int> percent(0, 99);
  const bool sync_ddl = percent(rng_) < sync_ddl_percent_;
  const int roll = percent(rng_);

  // The tables this client may write: acknowledged ones.
  std::vector<std::string> names;
  for (const auto& [name, t] : tables_) names.push_back(name);

  ChaosStatement s;
  s.client = client_;
  s.sync_ddl = sync_ddl;
  const auto exec = [&](const std::string& sql) {
    s.sql = sql;
    s.start = Clock::now();
    ExecResult r = Send(sql, sync_ddl);
    s.end = Clock::now();
    s.ok = r.ok();
    if (!s.ok) s.error = r.status.ToString();
    for (const std::string& m : r.messages) {
      if (m.rfind("WARNING", 0) == 0) s.warning = m;
    }
    return s.ok;
  };
  // Read back only what SYNC_DDL confirmed.
  const auto confirmed = [&] { return s.ok && sync_ddl && s.warning.empty(); };

  if (names.empty() || roll < 10) {
    const std::string name = TableName(next_table_++);
    const bool ok = exec("CREATE TABLE " + name + " (id INT) PARTITIONED BY (p INT)");
    if (ok) {
      tables_[name];
    } else {
      absent_tables_.insert(name);
    }
    Record(s);
    if (confirmed()) {
      const std::string short_name = name.substr(std::string(kDb).size() + 1);
      CheckRead(std::string("SHOW TABLES IN ") + kDb, "table " + name, [&](const ExecResult& r) {
        const auto col = r.Column(0);
        return std::find(col.begin(), col.end(), short_name) != col.end();
      });
    }
    return;
  }
  const std::string name = names[std::uniform_int_distribution<size_t>(0, names.size() - 1)(rng_)];
  TableModel& t = tables_[name];
  std::vector<int> droppable;
  for (int p : t.partitions) {
    if (t.pinned.count(p) == 0) droppable.push_back(p);
  }

  if (roll < 50 || (roll < 75 && droppable.empty())) {
    const int p = next_value_++;
    const bool ok = exec("ALTER TABLE " + name + " ADD PARTITION (p=" + std::to_string(p) + ")");
    (ok ? t.partitions : t.absent).insert(p);
    Record(s);
    if (confirmed()) {
      CheckRead("SHOW PARTITIONS " + name, name + " partition p=" + std::to_string(p),
                [&](const ExecResult& r) { return PartitionValues(r).count(p) == 1; });
    }
  } else if (roll < 75) {
    const int p = droppable[std::uniform_int_distribution<size_t>(0, droppable.size() - 1)(rng_)];
    const bool ok = exec("ALTER TABLE " + name + " DROP PARTITION (p=" + std::to_string(p) + ")");
    if (ok) {
      t.partitions.erase(p);
      t.absent.insert(p);
    } else {
      t.pinned.insert(p);
    }
    Record(s);
    if (confirmed()) {
      CheckRead("SHOW PARTITIONS " + name, name + " without partition p=" + std::to_string(p),
                [&](const ExecResult& r) { return PartitionValues(r).count(p) == 0; });
    }
  } else {
    const int n = next_value_++;
    const std::string key = "ck" + std::to_string(n);
    const std::string value = "v" + std::to_string(n);
    const bool ok =
        exec("ALTER TABLE " + name + " SET TBLPROPERTIES ('" + key + "'='" + value + "')");
    if (ok) {
      t.properties[key] = value;
    } else {
      t.absent_properties.insert(key);
    }
    Record(s);
    if (confirmed()) {
      CheckRead("DESCRIBE FORMATTED " + name, name + " property " + key,
                [&](const ExecResult& r) {
                  const auto params = TableParameters(r);
                  const auto it = params.find(key);
                  return it != params.end() && it->second == value;
                });
    }
  }
}

void ChaosClient::CheckRead(const std::string& sql, const std::string& what,
                            const std::function<bool(const ExecResult&)>& holds) {
  ExecOptions o;
  o.timeout_ms = kExecTimeoutMs;
  for (int attempt = 0; attempt < kReadAttempts && !stop_; ++attempt) {
    ExecResult r = cluster_->Exec(check_coordinator_, sql, o);
    if (!r.ok()) {
      std::this_thread::sleep_for(Millis(250));
      continue;
    }
    if (!holds(r)) {
      stale_reads_++;
      MutexLock l(&mu_);
      stale_log_.push_back(WallClock() + " coordinator " + std::to_string(check_coordinator_) +
                           " after SYNC_DDL on coordinator " + std::to_string(coordinator_) +
                           ": " + sql + " does not show " + what);
    }
    return;
  }
}

void ChaosClient::Verify(int coordinator, std::vector<std::string>* problems) {
  ExecOptions o;
  o.timeout_ms = kExecTimeoutMs;
  const std::string who = "coordinator " + std::to_string(coordinator) + ": ";
  const auto must = [&](const std::string& sql, ExecResult* out) {
    *out = cluster_->Exec(coordinator, sql, o);
    if (!out->ok()) problems->push_back(who + sql + " failed: " + out->status.ToString());
    return out->ok();
  };
  ExecResult r;
  if (!must(std::string("SHOW TABLES IN ") + kDb, &r)) return;
  const std::vector<std::string> listed = r.Column(0);
  const std::set<std::string> present(listed.begin(), listed.end());
  const std::string prefix = "c" + std::to_string(client_) + "_t";
  for (const std::string& name : absent_tables_) {
    if (present.count(name.substr(std::string(kDb).size() + 1)) != 0) {
      problems->push_back(who + "table " + name + " exists, but its CREATE TABLE failed");
    }
  }
  for (const std::string& shown : present) {
    if (shown.rfind(prefix, 0) != 0) continue;
    const std::string name = std::string(kDb) + "." + shown;
    if (tables_.count(name) == 0 && absent_tables_.count(name) == 0) {
      problems->push_back(who + "table " + name + " exists, but no statement created it");
    }
  }
  for (const auto& [name, t] : tables_) {
    if (present.count(name.substr(std::string(kDb).size() + 1)) == 0) {
      problems->push_back(who + "acknowledged table " + name + " is missing");
      continue;
    }
    if (!must("SHOW PARTITIONS " + name, &r)) continue;
    const std::set<int> parts = PartitionValues(r);
    std::set<int> missing, unexpected;
    for (int p : t.partitions) {
      if (parts.count(p) == 0) missing.insert(p);
    }
    for (int p : t.absent) {
      if (parts.count(p) != 0) unexpected.insert(p);
    }
    if (!missing.empty()) {
      problems->push_back(who + name + " lacks acknowledged partitions " + PartitionsText(missing));
    }
    if (!unexpected.empty()) {
      problems->push_back(who + name + " has partitions that were dropped or whose ADD failed " +
                          PartitionsText(unexpected));
    }
    if (!must("DESCRIBE FORMATTED " + name, &r)) continue;
    const auto params = TableParameters(r);
    for (const auto& [k, v] : t.properties) {
      const auto it = params.find(k);
      if (it == params.end() || it->second != v) {
        problems->push_back(who + name + " lacks acknowledged property " + k + "=" + v);
      }
    }
    for (const std::string& k : t.absent_properties) {
      if (params.count(k) != 0) {
        problems->push_back(who + name + " has property " + k + ", but its SET TBLPROPERTIES failed");
      }
    }
  }
}

}  // namespace ics::external
