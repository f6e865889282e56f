// The real daemons against hostile peers: every Thrift port of statestored,
// catalogd (CatalogService, HMS endpoint, metastore services, its subscriber
// callback) and a coordinator (CoordinatorService, subscriber callback) gets
// container and string bombs, nesting past any limit, truncated calls,
// garbage and an idle-connection flood; the coordinator gets statements
// nested far past the parser's limit. After each class of input every port
// must still answer a normal request and every daemon must still run.
#include <unistd.h>

#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "CatalogService.h"
#include "PartitionService.h"
#include "StatestoreService.h"
#include "StatestoreSubscriber.h"
#include "ThriftHiveMetastore.h"
#include "common/rpc/thrift_client.h"
#include "tests/external/external_test_util.h"
#include "tests/hardening/hostile_messages.h"
#include "tests/hardening/raw_socket.h"

namespace ics::external {
namespace {

struct Target {
  std::string name;
  int port = 0;
  std::string method;  // bombs are calls of this method
  std::function<Status()> probe;  // one normal request
};

template <typename Client, typename Fn>
Status Probe(int port, const std::string& service, const char* rpc, Fn&& fn) {
  ThriftClientOptions o;
  o.service_name = service;
  o.recv_timeout_ms = 20000;
  ThriftClient<Client> client("127.0.0.1", port, o);
  return client.Call(rpc, std::forward<Fn>(fn));
}

class ExternalHostileTest : public ExternalTest {
 protected:
  void SetUp() override {
    ExternalClusterOptions o;
    o.coordinator_processes = {CoordinatorProcessSpec{1, {}, {}}};
    ASSERT_NE(StartCluster(o), nullptr);
    const int mds = c().catalogd_named_port("metastore_service");
    const int hms = c().catalogd_named_port("hms");
    ASSERT_GT(mds, 0);
    ASSERT_GT(hms, 0);
    targets_ = {
        {"statestore", c().statestore_port(), "RegisterSubscriber",
         [this] {
           return Probe<impala::StatestoreServiceClient>(
               c().statestore_port(), "", "GetProtocolVersion", [](auto& cl) {
                 impala::TGetProtocolVersionResponse r;
                 cl.GetProtocolVersion(r, impala::TGetProtocolVersionRequest());
               });
         }},
        {"catalog-service", c().catalogd_port(), "GetPartialCatalogObject",
         [this] {
           return Probe<impala::CatalogServiceClient>(
               c().catalogd_port(), "", "GetNullPartitionName", [](auto& cl) {
                 impala::TGetNullPartitionNameResponse r;
                 cl.GetNullPartitionName(r, impala::TGetNullPartitionNameRequest());
               });
         }},
        {"hms-endpoint", hms, "add_partitions",
         [hms] {
           return Probe<hive::ThriftHiveMetastoreClient>(hms, "", "get_all_databases",
                                                         [](auto& cl) {
                                                           std::vector<std::string> dbs;
                                                           cl.get_all_databases(dbs);
                                                         });
         }},
        {"metastore-service", mds, "PartitionService:BatchCreatePartitions",
         [mds] {
           return Probe<ics::thrift::PartitionServiceClient>(
               mds, "PartitionService", "ListPartitions", [](auto& cl) {
                 ics::thrift::TListPartitionsResponse r;
                 ics::thrift::TListPartitionsRequest q;
                 q.table.db_name = "default";
                 q.table.table_name = "no_such_table";
                 cl.ListPartitions(r, q);
               });
         }},
        {"catalogd-subscriber", c().catalogd_subscriber_port(), "UpdateState",
         [this] { return Heartbeat(c().catalogd_subscriber_port()); }},
        {"coordinator-service", c().coordinator_port(0), "ExecuteStatement",
         [this] { return c().Exec(0, "SHOW DATABASES").status; }},
        {"coordinator-subscriber", c().coordinator_subscriber_port(0), "UpdateState",
         [this] { return Heartbeat(c().coordinator_subscriber_port(0)); }},
    };
  }

  static Status Heartbeat(int port) {
    return Probe<impala::StatestoreSubscriberClient>(port, "", "Heartbeat", [](auto& cl) {
      impala::THeartbeatResponse r;
      cl.Heartbeat(r, impala::THeartbeatRequest());
    });
  }

  // Every daemon runs and every port answers a normal request.
  void ExpectAllServing(const std::string& after) {
    for (const char* role : {ExternalCluster::kStatestored, ExternalCluster::kCatalogd}) {
      EXPECT_TRUE(c().IsRunning(role)) << role << " died after " << after;
    }
    EXPECT_TRUE(c().IsRunning(ExternalCluster::CoordinatorProcess(0))) << "after " << after;
    for (const Target& t : targets_) {
      Status s = t.probe();
      EXPECT_TRUE(s.ok()) << t.name << " does not serve after " << after << ": " << s.ToString();
    }
  }

  // Sends each message on its own connection to every target; returns the count.
  int64_t SendToAll(const std::function<std::vector<std::string>(const Target&)>& messages) {
    int64_t n = 0;
    for (const Target& t : targets_) {
      for (const std::string& m : messages(t)) {
        EXPECT_TRUE(hostile::SendAndDrain(t.port, m)) << t.name << " stopped accepting";
        ++n;
      }
    }
    return n;
  }

  std::vector<Target> targets_;
};

TEST_F(ExternalHostileTest, EveryPortSurvivesEveryClassOfHostileInput) {
  ExpectAllServing("start");
  const int64_t bombs = SendToAll([](const Target& t) { return hostile::BombSweep(t.method, 12); });
  ExpectAllServing("container and string bombs");

  const int64_t deep = SendToAll([](const Target& t) {
    return std::vector<std::string>{hostile::DeepStruct(t.method, 100000)};
  });
  ExpectAllServing("deep nesting");

  const int64_t truncated = SendToAll([](const Target& t) {
    std::vector<std::string> out;
    const size_t full = hostile::TruncatedCall(t.method, SIZE_MAX).size();
    for (size_t keep = 1; keep < full; ++keep) out.push_back(hostile::TruncatedCall(t.method, keep));
    return out;
  });
  ExpectAllServing("truncated calls");

  const int64_t garbage = SendToAll([](const Target&) {
    std::vector<std::string> out;
    for (uint32_t seed = 0; seed < 100; ++seed) out.push_back(hostile::Garbage(1 + seed * 7, seed));
    out.push_back("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
    return out;
  });
  ExpectAllServing("garbage");

  // An idle-connection flood larger than any port's connection cap.
  int64_t idle = 0;
  for (const Target& t : targets_) {
    std::vector<int> fds;
    for (int i = 0; i < 300; ++i) {
      const int fd = hostile::ConnectLoopback(t.port);
      if (fd >= 0) fds.push_back(fd);
    }
    idle += static_cast<int64_t>(fds.size());
    std::this_thread::sleep_for(std::chrono::milliseconds(1300));  // past the eviction age
    Status s = t.probe();
    EXPECT_TRUE(s.ok()) << t.name << " starved by idle connections: " << s.ToString();
    for (int fd : fds) close(fd);
  }
  ExpectAllServing("idle-connection flood");

  std::cout << "hostile inputs per class over " << targets_.size() << " ports: bombs " << bombs
            << ", deep " << deep << ", truncated " << truncated << ", garbage " << garbage
            << ", idle connections " << idle << "\n";
}

TEST_F(ExternalHostileTest, DeepStatementsAreErrorsNotCrashes) {
  std::string chain = "SELECT 1";
  for (int i = 0; i < 200000; ++i) chain += "+1";
  std::string parens = "SELECT " + std::string(100000, '(') + "1" + std::string(100000, ')');
  std::string nots = "SELECT ";
  for (int i = 0; i < 100000; ++i) nots += "NOT ";
  nots += "true";
  std::string cases = "SELECT ";
  for (int i = 0; i < 20000; ++i) cases += "CASE WHEN true THEN ";
  cases += "1";
  for (int i = 0; i < 20000; ++i) cases += " END";
  for (const std::string& sql : {chain, parens, nots, cases}) {
    ExecResult r = c().Exec(0, sql);
    EXPECT_FALSE(r.ok()) << sql.substr(0, 40);
    EXPECT_TRUE(c().IsRunning(ExternalCluster::CoordinatorProcess(0))) << sql.substr(0, 40);
  }
  ExpectAllServing("deep statements");
}

}  // namespace
}  // namespace ics::external
