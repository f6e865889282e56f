// event_lag_bench: how long an external metastore change takes to become
// visible, with the HMS event processor polling every --poll_ms.
//
// One process runs a statestore, a CatalogServer (embedded SQLite
// metastore) and two coordinators, one per local-catalog mode. An external
// writer (a second handle on catalogd's SQLite file) commits --changes
// changes one at a time: CREATE TABLE ext.t<i>, or with --kind=partition an
// ADD PARTITION to a table both coordinators have loaded. For each change
// it records the time from the commit until catalogd's catalog has it, and
// until each coordinator shows it (SHOW TABLES / SHOW PARTITIONS polled
// every --probe_us). Each commit waits a random part of a poll interval
// first, so commits do not fall into step with the poller (which would make
// every lag close to one full interval). Prints median, p99 and max per
// observer. Not a test.
//
//   event_lag_bench [--changes=100] [--poll_ms=100] [--kind=table|partition]
#include <gflags/gflags.h>
#include <glog/logging.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <thread>

#include "catalogd/events/event_processor.h"
#include "catalogd/service/catalog_server.h"
#include "coordinator-sim/coordinator.h"
#include "coordinator-sim/exec/statement_executor.h"
#include "statestore/statestore_server.h"
#include "tests/perf/perf_util.h"
#include "tests/util/mini_cluster.h"

DEFINE_int32(changes, 100, "External changes to time.");
DEFINE_int32(poll_ms, 100, "catalogd's HMS event polling interval (ms).");
DEFINE_string(kind, "table", "What each change is: table (CREATE TABLE) or partition.");
DEFINE_int32(probe_us, 1000, "How often the observers look for the change (us).");

namespace ics::perf {
namespace {

constexpr const char* kBench = "event_lag";

using catalog::MetastoreOp;
using Kind = MetastoreOp::Kind;

class Bench {
 public:
  Status Start() {
    ::ics::testing::MiniClusterOptions mo;
    mo.num_coordinators = 2;
    mo.heartbeat_ms = 1000;  // the statestore's defaults
    mo.update_frequency_ms = 2000;
    mo.tune_catalogd = [](catalog::CatalogServerOptions* co) {
      co->hms_event_polling_interval_ms = FLAGS_poll_ms;
    };
    mo.tune_coordinator = [](int i, coord::CoordinatorOptions* co) {
      co->id = i == 0 ? "on-demand" : "full-replica";
      co->use_local_catalog = i == 0;
    };
    cluster_ = std::make_unique<::ics::testing::MiniCluster>(mo);
    ICS_RETURN_IF_ERROR(cluster_->Start());
    catalogd_ = cluster_->catalogd();
    for (int i = 0; i < cluster_->num_coordinators(); ++i)
      coords_.push_back(cluster_->coordinator(i));
    dir_ = cluster_->dir();
    ICS_ASSIGN_OR_RETURN(external_,
                         catalog::OpenSqliteMetastore(dir_ + "/catalogd/metastore.db"));
    warehouse_ = dir_ + "/catalogd/warehouse";
    return Status::OK();
  }

  ~Bench() {
    external_.reset();
    cluster_.reset();
  }

  Status Commit(std::vector<MetastoreOp> ops) {
    catalog::MetastoreTxn txn;
    txn.ops = std::move(ops);
    return external_->Commit(txn).status();
  }

  hive::Table Table(const std::string& name) {
    hive::Table t;
    t.dbName = "ext";
    t.tableName = name;
    t.tableType = "MANAGED_TABLE";
    hive::FieldSchema a;
    a.name = "a";
    a.type = "int";
    t.sd.cols = {a};
    hive::FieldSchema p;
    p.name = "p";
    p.type = "string";
    t.partitionKeys = {p};
    t.sd.location = warehouse_ + "/ext.db/" + name;
    return t;
  }

  MetastoreOp AddPartition(const std::string& table, const std::string& v) {
    MetastoreOp op;
    op.kind = Kind::kAddPartition;
    op.partition.dbName = "ext";
    op.partition.tableName = table;
    op.partition.values = {v};
    op.partition.sd = Table(table).sd;
    op.partition.sd.location = warehouse_ + "/ext.db/" + table + "/p=" + v;
    std::filesystem::create_directories(op.partition.sd.location);
    std::ofstream(op.partition.sd.location + "/data.txt") << "1\n";
    return op;
  }

  Result<coord::StatementResult> Exec(size_t c, const std::string& sql) {
    return cluster_->Exec(static_cast<int>(c), sql);
  }

  bool ShowsTable(size_t c, const std::string& t) {
    auto r = Exec(c, "SHOW TABLES IN ext");
    if (!r.ok()) return false;
    for (const auto& row : r->rows) {
      if (!row.empty() && row[0] == t) return true;
    }
    return false;
  }

  int PartitionRows(size_t c) {
    auto r = Exec(c, "SHOW PARTITIONS ext.big");
    return r.ok() ? static_cast<int>(r->rows.size()) : -1;
  }

  // Waits (bounded) until every observer sees the change; records latencies.
  Status Observe(Clock::time_point t0, const std::function<bool()>& in_catalogd,
                 const std::function<bool(size_t)>& in_coord) {
    const auto deadline = t0 + std::chrono::seconds(60);
    std::vector<bool> seen(coords_.size() + 1, false);
    size_t remaining = seen.size();
    while (remaining > 0) {
      if (Clock::now() > deadline) return Status::TimedOut("a change was not seen in 60 s");
      if (!seen[0] && in_catalogd()) {
        seen[0] = true;
        --remaining;
        lat_[0].Add(t0);
      }
      for (size_t c = 0; c < coords_.size(); ++c) {
        if (!seen[c + 1] && in_coord(c)) {
          seen[c + 1] = true;
          --remaining;
          lat_[c + 1].Add(t0);
        }
      }
      if (remaining > 0) std::this_thread::sleep_for(std::chrono::microseconds(FLAGS_probe_us));
    }
    return Status::OK();
  }

  Status Run() {
    MetastoreOp db;
    db.kind = Kind::kCreateDatabase;
    db.database.name = "ext";
    db.database.locationUri = warehouse_ + "/ext.db";
    ICS_RETURN_IF_ERROR(Commit({db}));
    catalog::Catalog* cat = catalogd_->catalog();
    lat_.resize(coords_.size() + 1);
    if (FLAGS_kind == "partition") {
      MetastoreOp create;
      create.kind = Kind::kCreateTable;
      create.table = Table("big");
      ICS_RETURN_IF_ERROR(Commit({create, AddPartition("big", "0")}));
      // Both coordinators load the table first (their normal first use).
      const auto t0 = Clock::now();
      while (PartitionRows(0) != 2 || PartitionRows(1) != 2) {
        if (SecondsSince(t0) > 60) return Status::TimedOut("table ext.big never loaded");
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
      }
      lat_.assign(coords_.size() + 1, Latencies());
    }
    std::mt19937 rng(42);
    std::uniform_int_distribution<int> offset_us(0, std::max(1, FLAGS_poll_ms) * 1000);
    for (int i = 1; i <= FLAGS_changes; ++i) {
      const std::string name = "t" + std::to_string(i);
      std::this_thread::sleep_for(std::chrono::microseconds(offset_us(rng)));
      if (FLAGS_kind == "partition") {
        MetastoreOp add = AddPartition("big", std::to_string(i));
        const auto t0 = Clock::now();
        ICS_RETURN_IF_ERROR(Commit({add}));
        const std::string part = "p=" + std::to_string(i);
        ICS_RETURN_IF_ERROR(Observe(
            t0,
            [&] {
              auto t = cat->GetTable("ext", "big");
              return t != nullptr && t->FindPartition(part) != nullptr;
            },
            [&](size_t c) { return PartitionRows(c) == i + 2; }));
      } else {
        MetastoreOp create;
        create.kind = Kind::kCreateTable;
        create.table = Table(name);
        const auto t0 = Clock::now();
        ICS_RETURN_IF_ERROR(Commit({create}));
        ICS_RETURN_IF_ERROR(Observe(
            t0, [&] { return cat->GetTable("ext", name) != nullptr; },
            [&](size_t c) { return ShowsTable(c, name); }));
      }
    }
    const char* names[] = {"catalogd", "on_demand_coordinator", "full_replica_coordinator"};
    const std::string note = FLAGS_kind + ", poll " + std::to_string(FLAGS_poll_ms) + " ms, " +
                             std::to_string(FLAGS_changes) + " changes";
    for (size_t k = 0; k < lat_.size(); ++k) {
      Figure(kBench, std::string(names[k]) + " median", lat_[k].Percentile(0.5) / 1000, "ms",
             note);
      Figure(kBench, std::string(names[k]) + " p99", lat_[k].Percentile(0.99) / 1000, "ms", note);
      Figure(kBench, std::string(names[k]) + " max", lat_[k].Percentile(1.0) / 1000, "ms", note);
    }
    const auto st = catalogd_->event_processor()->GetStatus();
    Note(kBench, "processor: " + st.ToString());
    return Status::OK();
  }

 private:
  std::unique_ptr<::ics::testing::MiniCluster> cluster_;
  std::string dir_;
  std::string warehouse_;
  catalog::CatalogServer* catalogd_ = nullptr;
  std::vector<coord::Coordinator*> coords_;
  std::unique_ptr<catalog::Metastore> external_;
  std::vector<Latencies> lat_;
};

}  // namespace
}  // namespace ics::perf

int main(int argc, char** argv) {
  gflags::ParseCommandLineFlags(&argc, &argv, true);
  google::InitGoogleLogging(argv[0]);
  FLAGS_minloglevel = 1;
  if (FLAGS_kind != "table" && FLAGS_kind != "partition") {
    std::fprintf(stderr, "--kind must be table or partition\n");
    return 2;
  }
  ics::perf::Bench bench;
  ics::Status s = bench.Start();
  if (s.ok()) s = bench.Run();
  if (!s.ok()) {
    std::fprintf(stderr, "event_lag_bench: %s\n", s.ToString().c_str());
    return 1;
  }
  return 0;
}
