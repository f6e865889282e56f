// The answer writer (partial_response_writer.h) is the one place that
// renders a partition. Two checks keep it right:
//  * each partition it renders has exactly the fields the selector rules of
//    table_fetch.h ask for (ExpectedPartitionInfo, written here from those
//    rules, is the reference);
//  * its bytes are canonical: the generated processor over the plain handler
//    (whose answer is the writer's output decoded) writes the same bytes,
//    for many selectors and non-table requests, on the binary and the
//    compact protocol (the same request is fed to both processors through
//    memory transports).
#include "catalogd/fetch/partial_response_writer.h"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <thrift/protocol/TBinaryProtocol.h>
#include <thrift/protocol/TCompactProtocol.h>
#include <thrift/transport/TBufferTransports.h>

#include "catalogd/catalog/catalog_objects.h"
#include "catalogd/fetch/table_fetch.h"
#include "common/codec/thrift_serde.h"
#include "catalogd/service/catalog_service_handler.h"
#include "tests/fetch/fetcher_fixture.h"

namespace ics::catalog::testing {
namespace {

using apache::thrift::TProcessor;
using apache::thrift::protocol::TBinaryProtocol;
using apache::thrift::protocol::TCompactProtocol;
using apache::thrift::protocol::TProtocol;
using apache::thrift::transport::TMemoryBuffer;
using impala::TPartialPartitionInfo;

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

// The per-partition rules of table_fetch.h, applied to one partition.
TPartialPartitionInfo ExpectedPartitionInfo(const PartitionState& p, const TTableInfoSelector& sel) {
  TPartialPartitionInfo info;
  info.id = p.id;
  if (sel.want_partition_names) info.__set_name(std::string(p.name()));
  if (sel.want_hms_partition) info.__set_hms_partition(std::make_shared<hive::Partition>(p.Hms()));
  if (sel.want_partition_metadata) {
    std::map<std::string, std::string> params;
    p.hms_parameters().ForEach(
        [&](std::string_view k, std::string_view v) { params.emplace(k, v); });
    info.__set_hms_parameters(params);
    info.__set_has_incremental_stats(p.has_incremental_stats());
    info.__set_hdfs_storage_descriptor(StorageDescriptorOf(p.sd()));
    impala::THdfsPartitionLocation location;
    location.prefix_index = -1;
    location.suffix = p.location();
    info.__set_location(location);
  }
  if (sel.want_partition_files) {
    std::vector<impala::THdfsFileDesc> descs;
    for (std::string_view fd : p.file_descs) {
      impala::THdfsFileDesc d;
      d.file_desc_data.assign(fd.data(), fd.size());
      descs.push_back(std::move(d));
    }
    info.__set_file_descriptors(descs);
  }
  if (sel.want_partition_stats) {
    if (!p.partition_stats().empty()) info.__set_partition_stats(std::string(p.partition_stats()));
    info.__set_has_incremental_stats(p.has_incremental_stats());
  }
  return info;
}

// Compared by their encoding: hms_partition is held by pointer, which the
// generated operator== compares as a pointer.
std::string Encoded(const TPartialPartitionInfo& info) {
  Result<std::string> bytes = SerializeThrift(info);
  EXPECT_TRUE(bytes.ok());
  return bytes.ok() ? bytes.value() : std::string();
}

TEST_F(PartialResponseWriterTest, RenderedPartitionsFollowTheSelectorRules) {
  TableSpec spec;
  spec.num_partitions = 4;  // stats on even ones only
  auto t = MakeTable(spec);
  const std::vector<std::pair<std::string, std::function<void(TTableInfoSelector*)>>> sels = {
      {"id only", [](TTableInfoSelector*) {}},
      {"names", [](TTableInfoSelector* s) { s->want_partition_names = true; }},
      {"metadata", [](TTableInfoSelector* s) { s->want_partition_metadata = true; }},
      {"files", [](TTableInfoSelector* s) { s->want_partition_files = true; }},
      {"stats", [](TTableInfoSelector* s) { s->want_partition_stats = true; }},
      {"hms partition", [](TTableInfoSelector* s) { s->want_hms_partition = true; }},
      {"everything",
       [](TTableInfoSelector* s) {
         s->want_partition_names = s->want_partition_metadata = s->want_partition_files = true;
         s->want_partition_stats = s->want_hms_partition = true;
       }},
  };
  for (const auto& [what, set] : sels) {
    TTableInfoSelector sel;
    set(&sel);
    for (const auto& [id, p] : t->partitions) {
      const TPartialPartitionInfo got = RenderPartitionInfo(*p, sel);
      EXPECT_EQ(Encoded(got), Encoded(ExpectedPartitionInfo(*p, sel)))
          << what << ", partition " << id;
      if (sel.want_hms_partition) {
        ASSERT_NE(got.hms_partition, nullptr);
        EXPECT_EQ(got.hms_partition->sd.location, p->location());
      }
    }
  }
}

// An answer built in memory holds the selection the cap kept, in order.
TEST_F(PartialResponseWriterTest, MaterializedAnswerHoldsTheCappedSelection) {
  TableSpec spec;
  spec.num_partitions = 5;
  spec.files_per_partition = 4;
  auto t = MakeTable(spec);
  TTableInfoSelector sel;
  sel.want_partition_files = true;
  const TableFetchResult r = BuildPartialTableInfo(*t, sel, 9);
  EXPECT_TRUE(r.truncated);
  EXPECT_TRUE(r.has_partitions);
  EXPECT_FALSE(r.info.__isset.partitions);
  ASSERT_EQ(r.selected.size(), 2u);
  impala::TGetPartialCatalogObjectResponse resp;
  resp.__set_table_info(r.info);
  const impala::TGetPartialCatalogObjectResponse whole =
      MaterializeAnswer(resp, DeferredPartitions{&r.selected, &sel});
  ASSERT_TRUE(whole.table_info.__isset.partitions);
  ASSERT_EQ(whole.table_info.partitions.size(), r.selected.size());
  for (size_t i = 0; i < r.selected.size(); ++i) {
    EXPECT_EQ(Encoded(whole.table_info.partitions[i]),
              Encoded(ExpectedPartitionInfo(*r.selected[i], sel)));
  }
  EXPECT_EQ(whole.table_info.network_addresses, r.info.network_addresses);
}

}  // namespace
}  // namespace ics::catalog::testing
