// Every Thrift port of a real mutual-TLS cluster (statestored, catalogd's
// CatalogService, HMS endpoint, metastore services and subscriber callback,
// a coordinator's CoordinatorService and subscriber callback), probed by
// raw clients: plaintext, TLS without a client certificate, a client
// certificate from another CA, and a client that trusts another CA are all
// refused; the right certificate is answered. Then the cluster serves DDL
// end to end (coordinator, shell, SYNC_DDL through the statestore).
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <thrift/protocol/TProtocol.h>

#include "common/rpc/thrift_client.h"
#include "common/rpc/tls.h"
#include "tests/external/external_cluster.h"
#include "tests/security/test_certs.h"

namespace ics::external {
namespace {

using apache::thrift::protocol::TMessageType;
using testing::TestCerts;

struct Port {
  std::string name;
  int port = 0;
  std::string service;  // multiplexed service name, "" for plain
};

// A client that trusts `ca` and presents `cert` ("" = none).
std::shared_ptr<const TlsContext> Client(const std::string& ca, const std::string& cert) {
  return TestCerts::Get().Context(ca, cert);
}

// Sends one call of a method no service has and reads the reply: a served
// connection answers with an application exception (or a reply); a refused
// one fails at the handshake or closes.
Status Probe(const Port& p, std::shared_ptr<const TlsContext> tls) {
  ThriftClientOptions o;
  o.tls = std::move(tls);
  o.connect_timeout_ms = 3000;
  o.recv_timeout_ms = o.send_timeout_ms = 3000;
  ThriftConnection conn("127.0.0.1", p.port, o);
  ICS_RETURN_IF_ERROR(conn.Open());
  try {
    auto& proto = *conn.protocol();
    const std::string method = (p.service.empty() ? "" : p.service + ":") + "ics_port_probe";
    proto.writeMessageBegin(method, TMessageType::T_CALL, 1);
    proto.writeStructBegin("args");
    proto.writeFieldStop();
    proto.writeStructEnd();
    proto.writeMessageEnd();
    proto.getTransport()->flush();
    std::string name;
    TMessageType type;
    int32_t seq = 0;
    proto.readMessageBegin(name, type, seq);
    if (type != TMessageType::T_EXCEPTION && type != TMessageType::T_REPLY) {
      return Status::Corruption("unexpected message type " + std::to_string(type));
    }
    return Status::OK();
  } catch (const std::exception& e) {
    return conn.MapException(e, "probe");
  }
}

class ExternalTlsTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(TestCerts::Get().ok()) << "openssl failed"; }
};

TEST_F(ExternalTlsTest, EveryPortRefusesWhatMutualTlsForbids) {
  ExternalClusterOptions o;
  o.name = "ics-external-tls";
  o.coordinator_processes = {CoordinatorProcessSpec{1, {}, {}}};
  o.tls_certs_dir = TestCerts::Get().dir();
  o.mutual_tls = true;
  o.catalogd_flags = {"--hms_port=0", "--metastore_service_port=0"};
  ExternalCluster cluster(o);
  Status started = cluster.Start();
  if (!started.ok()) cluster.DumpLogs(std::cerr);
  ASSERT_TRUE(started.ok()) << started.ToString();

  const std::vector<Port> ports = {
      {"statestore", cluster.statestore_port(), ""},
      {"catalog service", cluster.catalogd_port(), ""},
      {"catalogd subscriber", cluster.catalogd_subscriber_port(), ""},
      {"HMS endpoint", cluster.catalogd_named_port("hms"), ""},
      {"metastore services", cluster.catalogd_named_port("metastore_service"),
       "PartitionService"},
      {"coordinator service", cluster.coordinator_port(0), ""},
      {"coordinator subscriber", cluster.coordinator_subscriber_port(0), ""},
  };
  for (const Port& p : ports) {
    SCOPED_TRACE(p.name + " on port " + std::to_string(p.port));
    ASSERT_GT(p.port, 0);
    EXPECT_FALSE(Probe(p, nullptr).ok()) << "plaintext client was served";
    EXPECT_FALSE(Probe(p, Client("ca.pem", "")).ok()) << "client without certificate was served";
    EXPECT_FALSE(Probe(p, Client("ca.pem", "other")).ok())
        << "client certificate of another CA was accepted";
    EXPECT_FALSE(Probe(p, Client("other-ca.pem", "client")).ok())
        << "client that trusts another CA accepted the server";
    Status ok = Probe(p, Client("ca.pem", "client"));
    EXPECT_TRUE(ok.ok()) << ok.ToString();
  }

  // The whole cluster works over TLS: DDL through a coordinator and the
  // shell, SYNC_DDL (the statestore round trip).
  ExecResult r = cluster.Exec(0, "CREATE DATABASE tls_matrix", /*sync_ddl=*/true);
  EXPECT_TRUE(r.ok()) << r.ToString();
  r = cluster.Exec(0, "CREATE TABLE tls_matrix.t (a INT) PARTITIONED BY (k INT)", true);
  EXPECT_TRUE(r.ok()) << r.ToString();
  CommandResult shell = cluster.Shell(0, "ALTER TABLE tls_matrix.t ADD PARTITION (k=1); "
                                         "SHOW PARTITIONS tls_matrix.t");
  EXPECT_TRUE(shell.ok()) << shell.output;
  EXPECT_NE(shell.output.find("k=1"), std::string::npos) << shell.output;
  if (HasFailure()) cluster.set_keep_dir(true);
}

}  // namespace
}  // namespace ics::external
