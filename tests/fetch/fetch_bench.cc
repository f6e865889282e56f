// In-process throughput of GetPartialCatalogObject on a large table, as the
// RPC handler would run it: build the response from the catalog snapshot,
// then serialize it with TBinaryProtocol. Baseline in the same run: the
// same threads returning a pre-serialized response (a copy of its bytes),
// i.e. the cost floor of handing the bytes to the transport.
//
// Run: build/bin/fetch_bench [partitions=10000] [files=10] [threads=8]
//        [ids=100] [seconds=3] [max_concurrent=16]
// (The over-the-wire variant comes later.)
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "catalogd/fetch/partial_fetcher.h"
#include "common/codec/file_desc.h"
#include "common/codec/thrift_serde.h"

namespace ics::catalog {
namespace {

using Clock = std::chrono::steady_clock;

struct Config {
  int partitions = 10000;
  int files = 10;
  int threads = 8;
  int ids = 100;
  double seconds = 3;
  int max_concurrent = 16;
};

Config ParseArgs(int argc, char** argv) {
  Config c;
  std::map<std::string, std::string> kv;
  for (int i = 1; i < argc; ++i) {
    const char* eq = std::strchr(argv[i], '=');
    if (eq == nullptr) {
      std::fprintf(stderr, "ignoring argument %s (want key=value)\n", argv[i]);
      continue;
    }
    kv[std::string(argv[i], static_cast<size_t>(eq - argv[i]))] = eq + 1;
  }
  auto num = [&](const char* key, double dflt) {
    auto it = kv.find(key);
    return it == kv.end() ? dflt : std::atof(it->second.c_str());
  };
  c.partitions = static_cast<int>(num("partitions", c.partitions));
  c.files = static_cast<int>(num("files", c.files));
  c.threads = std::max(1, static_cast<int>(num("threads", c.threads)));
  c.ids = static_cast<int>(num("ids", c.ids));
  c.seconds = num("seconds", c.seconds);
  c.max_concurrent = static_cast<int>(num("max_concurrent", c.max_concurrent));
  return c;
}

// A loaded table db.t with `partitions` partitions of `files` files each,
// laid out as the loader would (one host, 128 MB blocks).
std::shared_ptr<TableState> BuildTable(const Config& c, std::atomic<int64_t>* ids) {
  auto t = std::make_shared<TableState>();
  t->db = "bench";
  t->name = "t";
  t->loaded = true;
  t->hms.dbName = "bench";
  t->hms.tableName = "t";
  t->hms.tableType = "MANAGED_TABLE";
  t->hms.sd.location = "/warehouse/bench.db/t";
  t->table_stats.num_rows = -1;
  t->network_addresses.resize(1);
  t->network_addresses[0].hostname = "localhost";
  t->partition_prefixes.push_back(t->hms.sd.location);
  for (int i = 0; i < c.partitions; ++i) {
    auto p = NewPartition();
    p->id = ids->fetch_add(1);
    p->set_name("ss_sold_date_sk=" + std::to_string(2450000 + i));
    p->set_values({std::to_string(2450000 + i)});
    const std::string dir = t->hms.sd.location + "/" + std::string(p->name());
    hive::Partition hms;
    hms.sd.location = dir;
    p->SetHms(std::move(hms), dir, t->hms.sd.location);
    FileDescList::Builder descs;
    for (int f = 0; f < c.files; ++f) {
      FileDescInfo info;
      char name[64];
      std::snprintf(name, sizeof(name), "part-%05d-%016llx.parq", f,
                    static_cast<unsigned long long>(p->id * 1000003ULL + f));
      info.relative_path = name;
      info.length = (64LL << 20) + f * 4096;
      info.mtime_ms = 1'700'000'000'000 + i;
      info.compression = CompressionFromFileName(info.relative_path);
      info.blocks = SplitIntoBlocks(info.length, 128LL << 20, 0);
      descs.Add(BuildFileDesc(info), info.length, static_cast<int64_t>(info.blocks.size()));
    }
    p->file_descs = descs.Finish();
    t->partitions_by_name.Put(p);
    t->partitions[p->id] = std::move(p);
  }
  return t;
}

struct PhaseResult {
  int64_t requests = 0;
  double seconds = 0;
  double p50_us = 0;
  double p99_us = 0;
  int64_t bytes = 0;  // total response bytes produced
  int64_t errors = 0;
};

// Runs `op` on `threads` threads for `seconds`; op returns the response
// size in bytes (negative on error).
template <typename Op>
PhaseResult RunPhase(const Config& c, Op op) {
  std::atomic<bool> stop{false};
  std::vector<std::vector<double>> lat(c.threads);
  std::vector<int64_t> bytes(c.threads, 0);
  std::vector<int64_t> errors(c.threads, 0);
  std::vector<std::thread> threads;
  const auto start = Clock::now();
  for (int i = 0; i < c.threads; ++i) {
    threads.emplace_back([&, i] {
      std::mt19937_64 rng(0x5eed + i);
      lat[i].reserve(1 << 16);
      while (!stop.load(std::memory_order_relaxed)) {
        const auto t0 = Clock::now();
        const int64_t n = op(rng);
        const auto t1 = Clock::now();
        lat[i].push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
        if (n < 0) {
          ++errors[i];
        } else {
          bytes[i] += n;
        }
      }
    });
  }
  std::this_thread::sleep_for(std::chrono::duration<double>(c.seconds));
  stop = true;
  for (auto& t : threads) t.join();
  PhaseResult r;
  r.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  std::vector<double> all;
  for (int i = 0; i < c.threads; ++i) {
    all.insert(all.end(), lat[i].begin(), lat[i].end());
    r.bytes += bytes[i];
    r.errors += errors[i];
  }
  r.requests = static_cast<int64_t>(all.size());
  if (!all.empty()) {
    std::sort(all.begin(), all.end());
    r.p50_us = all[all.size() / 2];
    r.p99_us = all[std::min(all.size() - 1, all.size() * 99 / 100)];
  }
  return r;
}

void Print(const char* name, const PhaseResult& r) {
  const double rps = r.requests / r.seconds;
  std::printf(
      "%-28s %10.0f req/s  p50 %9.1f us  p99 %9.1f us  %8.1f MB/s  (%lld requests, "
      "%lld errors)\n",
      name, rps, r.p50_us, r.p99_us, r.bytes / r.seconds / 1e6, static_cast<long long>(r.requests),
      static_cast<long long>(r.errors));
}

int Main(int argc, char** argv) {
  const Config c = ParseArgs(argc, argv);
  std::printf(
      "fetch_bench: %d partitions x %d files, %d threads, %d random partitions per "
      "request with files, %.1f s per phase, max_concurrent_fetches %d\n",
      c.partitions, c.files, c.threads, c.ids, c.seconds, c.max_concurrent);

  Catalog catalog;
  const auto build_start = Clock::now();
  ChangeSet cs;
  auto db = std::make_shared<DatabaseState>();
  db->name = "bench";
  db->hms.name = "bench";
  cs.put_databases.push_back(db);
  cs.put_tables.push_back(BuildTable(c, catalog.partition_id_allocator()));
  catalog.Install(std::move(cs));
  TablePtr table = catalog.GetTable("bench", "t");
  std::vector<int64_t> all_ids;
  for (const auto& [id, p] : table->partitions) all_ids.push_back(id);
  std::printf("built table in %.2f s (%lld file descriptors)\n",
              std::chrono::duration<double>(Clock::now() - build_start).count(),
              static_cast<long long>(all_ids.size()) * c.files);

  CatalogContext ctx;
  ctx.catalog = &catalog;
  PartialFetchOptions opts;
  opts.max_concurrent_fetches = c.max_concurrent;
  PartialFetcher fetcher(&ctx, opts);

  auto make_request = [&](std::mt19937_64& rng) {
    impala::TGetPartialCatalogObjectRequest req;
    req.object_desc.type = impala::TCatalogObjectType::TABLE;
    req.object_desc.__isset.table = true;
    req.object_desc.table.db_name = "bench";
    req.object_desc.table.tbl_name = "t";
    impala::TTableInfoSelector sel;
    sel.want_partition_files = true;
    sel.want_partition_names = true;
    sel.want_partition_metadata = true;
    std::vector<int64_t> ids(static_cast<size_t>(c.ids));
    std::uniform_int_distribution<size_t> pick(0, all_ids.size() - 1);
    for (auto& id : ids) id = all_ids[pick(rng)];
    sel.__set_partition_ids(std::move(ids));
    req.__set_table_info_selector(std::move(sel));
    return req;
  };

  // The baseline's bytes: one typical response, serialized once.
  std::mt19937_64 rng0(42);
  auto sample = fetcher.GetPartialCatalogObject(make_request(rng0));
  auto sample_bytes = SerializeThrift(sample);
  if (!sample_bytes.ok() || sample.status.status_code != impala::TErrorCode::OK) {
    std::fprintf(stderr, "sample fetch failed\n");
    return 1;
  }
  const std::string pre = std::move(sample_bytes).value();
  std::printf("response: %zu bytes for %d partitions (%zu bytes per file descriptor)\n", pre.size(),
              c.ids, pre.size() / std::max(1, c.ids * c.files));

  // Where a fetch's time goes: building the response vs serializing it.
  std::atomic<int64_t> build_ns{0};
  std::atomic<int64_t> serialize_ns{0};
  PhaseResult fetch = RunPhase(c, [&](std::mt19937_64& rng) -> int64_t {
    auto req = make_request(rng);
    const auto t0 = Clock::now();
    auto resp = fetcher.GetPartialCatalogObject(req);
    const auto t1 = Clock::now();
    if (resp.status.status_code != impala::TErrorCode::OK ||
        resp.table_info.partitions.size() != static_cast<size_t>(c.ids)) {
      return -1;
    }
    auto bytes = SerializeThrift(resp);
    const auto t2 = Clock::now();
    build_ns.fetch_add(std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count(),
                       std::memory_order_relaxed);
    serialize_ns.fetch_add(std::chrono::duration_cast<std::chrono::nanoseconds>(t2 - t1).count(),
                           std::memory_order_relaxed);
    return bytes.ok() ? static_cast<int64_t>(bytes->size()) : -1;
  });
  PhaseResult baseline = RunPhase(c, [&](std::mt19937_64&) -> int64_t {
    std::string out(pre);  // allocate + memcpy, as handing a cached response over
    return static_cast<int64_t>(out.size());
  });

  Print("fetch + serialize", fetch);
  Print("baseline (copy of bytes)", baseline);
  const double fetch_rps = fetch.requests / fetch.seconds;
  const double base_rps = baseline.requests / baseline.seconds;
  std::printf(
      "ratio: fetch+serialize runs at %.4f of the baseline throughput (%.1fx slower); "
      "p50 %.1fx, p99 %.1fx\n",
      fetch_rps / base_rps, base_rps / std::max(fetch_rps, 1e-9),
      fetch.p50_us / std::max(baseline.p50_us, 1e-9),
      fetch.p99_us / std::max(baseline.p99_us, 1e-9));
  if (fetch.requests > 0) {
    std::printf(
        "fetch breakdown (mean per request, includes waiting for a CPU): build %.1f us, "
        "serialize %.1f us\n",
        build_ns.load() / 1e3 / fetch.requests, serialize_ns.load() / 1e3 / fetch.requests);
  }
  std::printf("peak in-flight fetches: %d\n", fetcher.peak_in_flight());
  return fetch.errors == 0 ? 0 : 1;
}

}  // namespace
}  // namespace ics::catalog

int main(int argc, char** argv) { return ics::catalog::Main(argc, argv); }
