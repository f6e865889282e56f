// fuzz_make_seeds: the codec targets' seeds (topic values, partition
// statistics, file descriptors, Thrift structs), encoded from the catalog of
// the seeded in-process catalogd.
#include <cstdint>
#include <memory>
#include <string>

#include <thrift/protocol/TBinaryProtocol.h>
#include <thrift/transport/TBufferTransports.h>

#include "CatalogService.h"
#include "StatestoreService.h"
#include "catalogd/topic/catalog_topic_publisher.h"
#include "common/codec/file_desc.h"
#include "common/codec/partition_stats.h"
#include "common/codec/thrift_serde.h"
#include "common/codec/topic_value.h"
#include "common/types/column_type.h"
#include "tests/fuzz/fuzz_stacks.h"
#include "tests/fuzz/make_seeds.h"

namespace ics::fuzz {

void CodecSeeds(CatalogdStack& stack) {
  const impala::TTopicDelta topic = SeedTopic(stack, catalog::TopicMode::kFull);
  int n = 0;
  for (const std::string prefix : {"1:DATABASE:", "1:TABLE:", "1:HDFS_PARTITION:", "1:FUNCTION:",
                                   "1:CATALOG:"}) {
    const impala::TTopicItem* item = FindEntry(topic, prefix);
    if (item == nullptr) continue;
    Write("topic_value_fuzz", "value_" + std::to_string(n++), item->value);
  }
  if (const impala::TTopicItem* db = FindEntry(topic, "1:DATABASE:")) {
    auto raw = DecompressTopicValue(db->value);
    if (raw.ok()) Write("topic_value_fuzz", "plain_database", *raw);
  }

  // Partition statistics: what the seeded partitions carry, and a richer one.
  auto sales = stack.loads()->GetLoaded(kDb, kPartTable);
  if (sales.ok()) {
    for (const auto& [id, part] : (*sales)->partitions) {
      if (!part->partition_stats().empty()) {
        Write("partition_stats_fuzz", "seeded_" + std::to_string(n++),
              std::string(part->partition_stats()));
        break;
      }
    }
  }
  impala::TPartitionStats ps;
  ps.stats.num_rows = 1000;
  ps.stats.__set_total_file_bytes(1 << 20);
  impala::TIntermediateColumnStats cs;
  cs.__set_intermediate_ndv(std::string(128, '\x05'));
  cs.__set_is_ndv_encoded(true);
  cs.__set_num_nulls(3);
  cs.__set_max_width(12);
  cs.__set_avg_width(7.25);
  cs.__set_num_rows(1000);
  cs.__set_num_trues(10);
  cs.__set_num_falses(20);
  ps.__set_intermediate_col_stats({{"id", cs}, {"name", cs}});
  Write("partition_stats_fuzz", "two_columns", *EncodePartitionStats(ps));
  Write("partition_stats_fuzz", "empty", *EncodePartitionStats(impala::TPartitionStats()));

  // File descriptors.
  FileDescInfo plain;
  plain.relative_path = "data_0.txt";
  plain.length = 42;
  plain.mtime_ms = 1700000000000;
  Write("file_desc_fuzz", "plain", BuildFileDesc(plain));
  FileDescInfo blocks = plain;
  blocks.relative_path = "part-0001.gz";
  blocks.compression = CompressionFromFileName(blocks.relative_path);
  blocks.length = 300ll << 20;
  blocks.blocks = SplitIntoBlocks(blocks.length, 128ll << 20, 0);
  blocks.blocks[0].replica_host_idxs.push_back(3 | kCachedReplicaBit);
  blocks.blocks[0].disk_ids = {0, -1};
  Write("file_desc_fuzz", "blocks", BuildFileDesc(blocks));
  FileDescInfo outside = plain;
  outside.absolute_path = "/elsewhere/file.zst";
  outside.compression = fb::FbCompression::ZSTD;
  outside.is_ec = true;
  outside.is_encrypted = true;
  Write("file_desc_fuzz", "absolute_ec", BuildFileDesc(outside));

  // Thrift structs: selector byte (struct % 8, bit 7 = compact) + encoding.
  auto put = [&](uint8_t selector, const std::string& name, const apache::thrift::TBase& obj) {
    const auto p = (selector & 0x80) ? ThriftProtocol::kCompact : ThriftProtocol::kBinary;
    Write("thrift_struct_fuzz", name, std::string(1, static_cast<char>(selector)) +
                                          MustSerialize(obj, p));
  };
  if (const impala::TTopicItem* t = FindEntry(topic, "1:TABLE:")) {
    impala::TCatalogObject obj;
    if (DecodeTopicValue(t->value, true, &obj).ok()) put(0, "catalog_object_table", obj);
  }
  impala::TUpdateStateRequest usr;
  impala::TTopicDelta small = topic;
  if (small.topic_entries.size() > 2) small.topic_entries.resize(2);
  usr.topic_deltas = {{ics::kCatalogTopic, small}};
  put(1, "update_state_request", usr);
  put(2, "ddl_create_table", SeedDdl()[1]);
  impala::TGetPartialCatalogObjectRequest preq;
  preq.object_desc = TableDesc(kPartTable);
  impala::TTableInfoSelector sel;
  sel.want_partition_names = true;
  sel.want_partition_files = true;
  sel.want_partition_stats = true;
  preq.__set_table_info_selector(sel);
  put(0x83, "partial_response_compact", stack.fetcher()->GetPartialCatalogObject(preq));
  put(0x84, "partition_stats_compact", ps);
  auto hms_table = stack.metastore()->GetTable(kDb, kFlatTable);
  if (hms_table.ok()) put(5, "hive_table", *hms_table);
  put(7, "partial_request", preq);

  // A coordinator's table fetch: catalogd's reply message with the partition
  // names (and one with metadata too), as it arrives on the connection.
  auto reply = [&](const std::string& name, const impala::TTableInfoSelector& selector) {
    impala::TGetPartialCatalogObjectRequest r;
    r.object_desc = TableDesc(kPartTable);
    r.__set_table_info_selector(selector);
    impala::CatalogService_GetPartialCatalogObject_result result;
    result.success = stack.fetcher()->GetPartialCatalogObject(r);
    result.__isset.success = true;
    auto buf = std::make_shared<apache::thrift::transport::TMemoryBuffer>();
    apache::thrift::protocol::TBinaryProtocol out(buf);
    out.writeMessageBegin("GetPartialCatalogObject", apache::thrift::protocol::T_REPLY, 0);
    result.write(&out);
    out.writeMessageEnd();
    Write("catalogd_reply_fuzz", name, buf->getBufferAsString());
  };
  impala::TTableInfoSelector names_only;
  names_only.want_hms_table = true;
  names_only.want_partition_names = true;
  names_only.__set_want_stats_for_all_columns(true);
  reply("partition_names", names_only);
  reply("partition_files", sel);

  impala::TColumnType nested = *ParseHiveType("struct<a:map<string,array<decimal(12,3)>>,b:char(3)>");
  Write("column_type_fuzz", "tree_compact", MustSerialize(nested, ThriftProtocol::kCompact));
}

}  // namespace ics::fuzz
