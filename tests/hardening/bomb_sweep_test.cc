// Every method of every Thrift service the project serves, fed hostile
// requests in-process through the same bounded protocol stack and exception
// barrier as the RPC server (ProcessRequestBytes): container and string bombs
// at every argument field and two struct levels below, nesting past the
// recursion limit, truncated calls and garbage. The method names are read
// from the generated processors, so a new method is covered without editing
// this test. Handlers are the generated no-op ("Null") ones: what is tested
// is that decoding never allocates what a size prefix declares, never lets
// an exception out, and never grows the process by more than its budget.
#include <fstream>
#include <memory>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "CatalogService.h"
#include "CoordinatorService.h"
#include "PartitionService.h"
#include "StatestoreService.h"
#include "StatestoreSubscriber.h"
#include "TableService.h"
#include "ThriftHiveMetastore.h"
#include "common/rpc/request_barrier.h"
#include "tests/hardening/hostile_messages.h"

namespace ics {
namespace {

struct Service {
  std::string name;    // the generated header's base name
  std::shared_ptr<apache::thrift::TProcessor> processor;
};

std::vector<Service> AllServices() {
  return {
      {"CatalogService",
       std::make_shared<impala::CatalogServiceProcessor>(std::make_shared<impala::CatalogServiceNull>())},
      {"ThriftHiveMetastore", std::make_shared<hive::ThriftHiveMetastoreProcessor>(
                                  std::make_shared<hive::ThriftHiveMetastoreNull>())},
      {"StatestoreService", std::make_shared<impala::StatestoreServiceProcessor>(
                                std::make_shared<impala::StatestoreServiceNull>())},
      {"StatestoreSubscriber", std::make_shared<impala::StatestoreSubscriberProcessor>(
                                   std::make_shared<impala::StatestoreSubscriberNull>())},
      {"CoordinatorService", std::make_shared<ics::thrift::CoordinatorServiceProcessor>(
                                 std::make_shared<ics::thrift::CoordinatorServiceNull>())},
      {"PartitionService", std::make_shared<ics::thrift::PartitionServiceProcessor>(
                               std::make_shared<ics::thrift::PartitionServiceNull>())},
      {"TableService", std::make_shared<ics::thrift::TableServiceProcessor>(
                           std::make_shared<ics::thrift::TableServiceNull>())},
  };
}

// The methods a generated processor dispatches, read from its header.
std::vector<std::string> MethodsOf(const std::string& service) {
  std::ifstream in(std::string(ICS_GEN_CPP_DIR) + "/" + service + ".h");
  std::stringstream text;
  text << in.rdbuf();
  const std::string s = text.str();
  std::vector<std::string> out;
  const std::regex re("processMap_\\[\"([A-Za-z0-9_]+)\"\\]");
  for (auto it = std::sregex_iterator(s.begin(), s.end(), re); it != std::sregex_iterator(); ++it) {
    out.push_back((*it)[1]);
  }
  return out;
}

int64_t PeakRssBytes() {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("VmHWM:", 0) == 0) return std::stoll(line.substr(6)) * 1024;
  }
  return 0;
}

// A server's limits, with a smaller memory budget than the 1 GiB default so
// that lists which fit the message but not the budget are rejected without
// the sweep itself allocating a budget's worth per message.
constexpr DecodeBudget::Limits kServerLimits{256ll << 20, 256ll << 20};

// A rejection must come from a check, not from an allocation that failed.
void ExpectCleanRejection(const RequestResult& r, const std::string& what) {
  if (r.outcome != RequestOutcome::kRejected) return;
  EXPECT_EQ(r.error.find("bad_alloc"), std::string::npos) << what << ": " << r.error;
  EXPECT_EQ(r.error.find("length_error"), std::string::npos) << what << ": " << r.error;
  EXPECT_EQ(r.error.find("max_size"), std::string::npos) << what << ": " << r.error;
}

TEST(BombSweepTest, EveryMethodOfEveryServiceSurvivesContainerAndStringBombs) {
  const int64_t rss_before = PeakRssBytes();
  int64_t total = 0, rejected = 0, by_memory = 0;
  for (const Service& svc : AllServices()) {
    const std::vector<std::string> methods = MethodsOf(svc.name);
    ASSERT_FALSE(methods.empty()) << svc.name;
    int64_t svc_rejected = 0;
    for (const std::string& m : methods) {
      for (const std::string& bomb : hostile::BombSweep(m, /*max_field=*/32)) {
        const RequestResult r = ProcessRequestBytes(*svc.processor, bomb, kServerLimits);
        ++total;
        EXPECT_NE(r.outcome, RequestOutcome::kServed) << svc.name << "." << m;
        ExpectCleanRejection(r, svc.name + "." + m);
        if (r.outcome == RequestOutcome::kRejected) ++svc_rejected;
        if (r.error.find("decode memory budget") != std::string::npos) ++by_memory;
      }
    }
    // Every service has list or string arguments: the sweep must reach them.
    EXPECT_GT(svc_rejected, 0) << svc.name;

    rejected += svc_rejected;
    EXPECT_EQ(ProcessDecodeMemoryInUse(), 0) << svc.name;
  }
  // Lists that fit the message but not memory are caught by the charge of
  // the rewritten list resize (bound_lists.cmake), not by the wire check.
  EXPECT_GT(by_memory, 0);
  const int64_t growth = PeakRssBytes() - rss_before;
  std::cout << "bomb sweep: " << total << " messages, " << rejected << " rejected by a check ("
            << by_memory << " by the memory budget), peak RSS growth "
            << (growth >> 20) << " MiB\n";
  EXPECT_LT(growth, 512ll << 20);
}

TEST(BombSweepTest, NestingPastTheRecursionLimitIsRejected) {
  for (const Service& svc : AllServices()) {
    for (const std::string& m : MethodsOf(svc.name)) {
      const RequestResult r =
          ProcessRequestBytes(*svc.processor, hostile::DeepStruct(m, 100000), kServerLimits);
      EXPECT_EQ(r.outcome, RequestOutcome::kRejected) << svc.name << "." << m;
      EXPECT_NE(r.error.find("depth limit"), std::string::npos) << svc.name << "." << m << ": " << r.error;
    }
  }
}

TEST(BombSweepTest, TruncatedCallsAndGarbageNeverEscape) {
  int64_t cases = 0;
  for (const Service& svc : AllServices()) {
    for (const std::string& m : MethodsOf(svc.name)) {
      const std::string full = hostile::TruncatedCall(m, SIZE_MAX);
      for (size_t keep = 0; keep < full.size(); ++keep) {
        const RequestResult r =
            ProcessRequestBytes(*svc.processor, hostile::TruncatedCall(m, keep), kServerLimits);
        EXPECT_NE(r.outcome, RequestOutcome::kServed) << svc.name << "." << m << " cut at " << keep;
        ++cases;
      }
    }
    for (uint32_t seed = 0; seed < 2000; ++seed) {
      const std::string g = hostile::Garbage(1 + seed % 512, seed);
      const RequestResult r = ProcessRequestBytes(*svc.processor, g, kServerLimits);
      ExpectCleanRejection(r, svc.name + " garbage");
      ++cases;
    }
  }
  std::cout << "truncated and garbage: " << cases << " messages\n";
}

TEST(BombSweepTest, AWellFormedCallIsStillServed) {
  // The same stack answers a normal request (the sweep rejects by checks,
  // not by refusing everything).
  impala::StatestoreServiceProcessor p(std::make_shared<impala::StatestoreServiceNull>());
  hostile::RawWriter w;
  w.CallHeader("GetProtocolVersion")
      .Field(hostile::kTStruct, 1)
      .Field(hostile::kTI32, 1)
      .I32(1)  // protocol_version V2 (required)
      .Stop()
      .Stop();
  std::string reply;
  const RequestResult r = ProcessRequestBytes(p, w.bytes(), kServerLimits, &reply);
  EXPECT_EQ(r.outcome, RequestOutcome::kServed);
  EXPECT_FALSE(reply.empty());
  EXPECT_EQ(static_cast<uint8_t>(reply[3]), 2);  // T_REPLY
}

}  // namespace
}  // namespace ics
