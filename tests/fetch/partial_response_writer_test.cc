// The streaming GetPartialCatalogObject path answers with exactly the bytes
// of the generated processor over the plain handler: the same request is
// fed to both processors through memory transports, for many selectors and
// non-table requests, on the binary and the compact protocol.
#include "catalogd/fetch/partial_response_writer.h"

#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <thrift/protocol/TBinaryProtocol.h>
#include <thrift/protocol/TCompactProtocol.h>
#include <thrift/transport/TBufferTransports.h>

#include "catalogd/fetch/table_fetch.h"
#include "catalogd/service/catalog_service_handler.h"
#include "tests/fetch/fetcher_fixture.h"

namespace ics::catalog::testing {
namespace {

using apache::thrift::TProcessor;
using apache::thrift::protocol::TBinaryProtocol;
using apache::thrift::protocol::TCompactProtocol;
using apache::thrift::protocol::TProtocol;
using apache::thrift::transport::TMemoryBuffer;

enum class Proto { kBinary, kCompact };

std::shared_ptr<TProtocol> MakeProtocol(Proto p, std::shared_ptr<TMemoryBuffer> buf) {
  if (p == Proto::kBinary) return std::make_shared<TBinaryProtocol>(buf);
  return std::make_shared<TCompactProtocol>(buf);
}

// One GetPartialCatalogObject call through `processor`: the reply's bytes.
std::string Call(TProcessor* processor, Proto proto, const TGetPartialCatalogObjectRequest& req) {
  auto in_buf = std::make_shared<TMemoryBuffer>();
  auto in = MakeProtocol(proto, in_buf);
  in->writeMessageBegin("GetPartialCatalogObject", apache::thrift::protocol::T_CALL, 7);
  impala::CatalogService_GetPartialCatalogObject_pargs args;
  args.req = &req;
  args.write(in.get());
  in->writeMessageEnd();
  auto out_buf = std::make_shared<TMemoryBuffer>();
  auto out = MakeProtocol(proto, out_buf);
  EXPECT_TRUE(processor->process(in, out, nullptr));
  return out_buf->getBufferAsString();
}

class PartialResponseWriterTest : public FetcherTestBase {
 protected:
  void SetUp() override {
    FetcherTestBase::SetUp();
    fetcher_ = NewFetcher();
    const HandlerDeps deps{&ctx_, nullptr, fetcher_.get(), 0};
    streaming_ = MakeCatalogServiceProcessor(deps);
    generated_ = std::make_shared<impala::CatalogServiceProcessor>(MakeCatalogServiceHandler(deps));
  }

  void ExpectSameBytes(const TGetPartialCatalogObjectRequest& req, const std::string& what) {
    for (Proto proto : {Proto::kBinary, Proto::kCompact}) {
      const std::string want = Call(generated_.get(), proto, req);
      const std::string got = Call(streaming_.get(), proto, req);
      EXPECT_FALSE(want.empty());
      EXPECT_EQ(got, want) << what << (proto == Proto::kBinary ? " (binary)" : " (compact)");
    }
  }

  std::unique_ptr<PartialFetcher> fetcher_;
  std::shared_ptr<TProcessor> streaming_;
  std::shared_ptr<TProcessor> generated_;
};

TEST_F(PartialResponseWriterTest, TableAnswersMatchTheGeneratedWriterByteForByte) {
  struct Case {
    std::string what;
    TTableInfoSelector sel;
  };
  std::vector<Case> cases;
  auto add = [&](const std::string& what, auto set) {
    TTableInfoSelector sel;
    set(&sel);
    cases.push_back({what, sel});
  };
  add("nothing", [](TTableInfoSelector*) {});
  add("hms table", [](TTableInfoSelector* s) { s->want_hms_table = true; });
  add("names", [](TTableInfoSelector* s) { s->want_partition_names = true; });
  add("metadata", [](TTableInfoSelector* s) { s->want_partition_metadata = true; });
  add("files", [](TTableInfoSelector* s) { s->want_partition_files = true; });
  add("stats", [](TTableInfoSelector* s) { s->want_partition_stats = true; });
  add("hms partitions", [](TTableInfoSelector* s) { s->want_hms_partition = true; });
  add("everything", [](TTableInfoSelector* s) {
    s->want_hms_table = s->want_partition_names = s->want_partition_metadata = true;
    s->want_partition_files = s->want_partition_stats = s->want_hms_partition = true;
    s->__set_want_stats_for_all_columns(true);
  });
  add("some ids, files and stats", [](TTableInfoSelector* s) {
    s->__set_partition_ids({103, 101, 103});
    s->want_partition_files = s->want_partition_stats = true;
  });
  add("empty id list", [](TTableInfoSelector* s) { s->__set_partition_ids({}); });
  add("unknown id", [](TTableInfoSelector* s) {
    s->__set_partition_ids({100, 999});
    s->want_partition_files = true;
  });
  add("column stats by name", [](TTableInfoSelector* s) {
    s->__set_want_stats_for_column_names({"ID", "nope", "day"});
  });
  for (const Case& c : cases) {
    ExpectSameBytes(TableReq("sales", "orders", c.sel), c.what);
    ExpectSameBytes(TableReq("sales", "v", c.sel), "view, " + c.what);
  }
}

TEST_F(PartialResponseWriterTest, OtherAnswersMatchToo) {
  TTableInfoSelector files;
  files.want_partition_files = true;
  ExpectSameBytes(TableReq("sales", "missing", files), "unknown table");
  ExpectSameBytes(TableReq("nodb", "orders", files), "unknown database");
  impala::TDbInfoSelector db;
  db.want_hms_database = db.want_brief_meta_of_tables = db.want_function_names = true;
  ExpectSameBytes(DbReq("sales", db), "database");
  ExpectSameBytes(FnReq("sales", "g"), "function");
  TGetPartialCatalogObjectRequest old = TableReq("sales", "orders", files);
  old.protocol_version = impala::CatalogServiceVersion::V1;
  ExpectSameBytes(old, "refused protocol version");
}

// The cap keeps its meaning on the deferred path: the same prefix of the
// selection, the same bookkeeping.
TEST_F(PartialResponseWriterTest, DeferredRenderingKeepsTheCap) {
  TableSpec spec;
  spec.num_partitions = 5;
  spec.files_per_partition = 4;
  auto t = MakeTable(spec);
  TTableInfoSelector sel;
  sel.want_partition_files = true;
  const TableFetchResult now = BuildPartialTableInfo(*t, sel, 9);
  const TableFetchResult later = BuildPartialTableInfo(*t, sel, 9, PartitionRendering::kDeferred);
  EXPECT_TRUE(later.truncated);
  EXPECT_TRUE(later.has_partitions);
  EXPECT_FALSE(later.info.__isset.partitions);
  EXPECT_EQ(later.num_file_descs, now.num_file_descs);
  ASSERT_EQ(later.selected.size(), now.info.partitions.size());
  for (size_t i = 0; i < later.selected.size(); ++i) {
    EXPECT_EQ(later.selected[i]->id, now.info.partitions[i].id);
  }
}

}  // namespace
}  // namespace ics::catalog::testing
