// Throughput of the topic-value and partition-stats codecs on realistic
// catalog objects, with the raw serializer as the baseline in the same run.
// The raw LZ4 and zlib rows (BM_RawLz4*, BM_RawZlib*) compress the serialized
// topic value with the libraries alone: the physical limit the publishing
// path is compared to.
// Run: build/bin/codec_bench  (Google Benchmark flags apply, e.g.
// --benchmark_format=json --benchmark_min_time=0.1).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <lz4.h>
#include <thrift/protocol/TBinaryProtocol.h>
#include <thrift/transport/TBufferTransports.h>
#include <zlib.h>

#include "CatalogObjects_types.h"
#include "common/codec/deflate.h"
#include "common/codec/file_desc.h"
#include "common/codec/partition_stats.h"
#include "common/codec/thrift_serde.h"
#include "common/codec/topic_value.h"

namespace ics {
namespace {

// A table object with `n` partitions of 4 files each, like a v1 topic entry.
impala::TCatalogObject MakeTable(int n) {
  impala::TCatalogObject obj;
  obj.type = impala::TCatalogObjectType::TABLE;
  obj.catalog_version = 1000;
  obj.__isset.table = true;
  obj.table.db_name = "tpcds";
  obj.table.tbl_name = "store_sales";
  obj.table.__isset.hdfs_table = true;
  auto& hdfs = obj.table.hdfs_table;
  hdfs.hdfsBaseDir = "/warehouse/tpcds.db/store_sales";
  for (int p = 0; p < n; ++p) {
    impala::THdfsPartition part;
    part.__set_id(p);
    part.__set_partition_name("ss_sold_date_sk=" + std::to_string(2450000 + p));
    std::vector<impala::THdfsFileDesc> fds;
    for (int f = 0; f < 4; ++f) {
      FileDescInfo info;
      info.relative_path = "0000" + std::to_string(f) + "_0";
      info.length = 64 << 20;
      info.mtime_ms = 1700000000000 + p;
      info.blocks = SplitIntoBlocks(info.length, 128 << 20, 0);
      impala::THdfsFileDesc fd;
      fd.file_desc_data = BuildFileDesc(info);
      fds.push_back(std::move(fd));
    }
    part.__set_file_desc(std::move(fds));
    hdfs.partitions[p] = std::move(part);
  }
  return obj;
}

void BM_SerializeOnly(benchmark::State& state) {
  const auto obj = MakeTable(static_cast<int>(state.range(0)));
  size_t bytes = 0;
  for (auto _ : state) {
    auto s = SerializeThrift(obj);
    bytes = s->size();
    benchmark::DoNotOptimize(s);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes));
  state.counters["value_bytes"] = static_cast<double>(bytes);
}
BENCHMARK(BM_SerializeOnly)->Arg(10)->Arg(1000);

void BM_EncodeTopicValueLz4(benchmark::State& state) {
  const auto obj = MakeTable(static_cast<int>(state.range(0)));
  const size_t raw = SerializeThrift(obj)->size();
  size_t bytes = 0;
  for (auto _ : state) {
    auto s = EncodeTopicValue(obj, /*compact=*/true);
    bytes = s->size();
    benchmark::DoNotOptimize(s);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * raw));
  state.counters["value_bytes"] = static_cast<double>(bytes);
  state.counters["lz4_ratio"] = static_cast<double>(raw) / static_cast<double>(bytes);
}
BENCHMARK(BM_EncodeTopicValueLz4)->Arg(10)->Arg(1000);

void BM_DecodeTopicValueLz4(benchmark::State& state) {
  const auto obj = MakeTable(static_cast<int>(state.range(0)));
  const std::string value = *EncodeTopicValue(obj, true);
  const size_t raw = SerializeThrift(obj)->size();
  for (auto _ : state) {
    impala::TCatalogObject out;
    benchmark::DoNotOptimize(DecodeTopicValue(value, true, &out).ok());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * raw));
}
BENCHMARK(BM_DecodeTopicValueLz4)->Arg(10)->Arg(1000);

// Decoding a serialized table object: DeserializeThrift (every decode under
// a DecodeBudget through BoundedProtocol) against the baseline of plain
// Thrift, TBinaryProtocol on a memory buffer with no budget.
void BM_DeserializeBounded(benchmark::State& state) {
  const std::string bytes = *SerializeThrift(MakeTable(static_cast<int>(state.range(0))));
  for (auto _ : state) {
    impala::TCatalogObject out;
    benchmark::DoNotOptimize(DeserializeThrift(bytes, &out).ok());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes.size()));
}
BENCHMARK(BM_DeserializeBounded)->Arg(10)->Arg(1000);

void BM_DeserializePlainThrift(benchmark::State& state) {
  std::string bytes = *SerializeThrift(MakeTable(static_cast<int>(state.range(0))));
  for (auto _ : state) {
    auto buffer = std::make_shared<apache::thrift::transport::TMemoryBuffer>(
        reinterpret_cast<uint8_t*>(bytes.data()), static_cast<uint32_t>(bytes.size()),
        apache::thrift::transport::TMemoryBuffer::OBSERVE);
    apache::thrift::protocol::TBinaryProtocolT<apache::thrift::transport::TMemoryBuffer> proto(
        buffer);
    impala::TCatalogObject out;
    out.read(&proto);
    benchmark::DoNotOptimize(out);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes.size()));
}
BENCHMARK(BM_DeserializePlainThrift)->Arg(10)->Arg(1000);

// Raw library limits on the same bytes: the serialized TCatalogObject.
void BM_RawLz4Compress(benchmark::State& state) {
  const std::string raw = *SerializeThrift(MakeTable(static_cast<int>(state.range(0))));
  std::string out(static_cast<size_t>(LZ4_compressBound(static_cast<int>(raw.size()))), '\0');
  int n = 0;
  for (auto _ : state) {
    n = LZ4_compress_default(raw.data(), out.data(), static_cast<int>(raw.size()),
                             static_cast<int>(out.size()));
    benchmark::DoNotOptimize(n);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * raw.size()));
  state.counters["ratio"] = static_cast<double>(raw.size()) / std::max(1, n);
}
BENCHMARK(BM_RawLz4Compress)->Arg(10)->Arg(1000);

void BM_RawLz4Decompress(benchmark::State& state) {
  const std::string raw = *SerializeThrift(MakeTable(static_cast<int>(state.range(0))));
  std::string comp(static_cast<size_t>(LZ4_compressBound(static_cast<int>(raw.size()))), '\0');
  comp.resize(static_cast<size_t>(LZ4_compress_default(
      raw.data(), comp.data(), static_cast<int>(raw.size()), static_cast<int>(comp.size()))));
  std::string out(raw.size(), '\0');
  for (auto _ : state) {
    benchmark::DoNotOptimize(LZ4_decompress_safe(comp.data(), out.data(),
                                                 static_cast<int>(comp.size()),
                                                 static_cast<int>(out.size())));
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * raw.size()));
}
BENCHMARK(BM_RawLz4Decompress)->Arg(10)->Arg(1000);

// zlib at its default level (6) and at level 1.
void BM_RawZlibCompress(benchmark::State& state) {
  const std::string raw = *SerializeThrift(MakeTable(static_cast<int>(state.range(0))));
  const int level = static_cast<int>(state.range(1));
  std::string out(compressBound(raw.size()), '\0');
  uLongf len = 0;
  for (auto _ : state) {
    len = out.size();
    benchmark::DoNotOptimize(compress2(reinterpret_cast<Bytef*>(out.data()), &len,
                                       reinterpret_cast<const Bytef*>(raw.data()), raw.size(),
                                       level));
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * raw.size()));
  state.counters["ratio"] = static_cast<double>(raw.size()) / static_cast<double>(std::max<uLongf>(1, len));
}
BENCHMARK(BM_RawZlibCompress)->Args({10, 6})->Args({1000, 6})->Args({1000, 1});

void BM_RawZlibDecompress(benchmark::State& state) {
  const std::string raw = *SerializeThrift(MakeTable(static_cast<int>(state.range(0))));
  std::string comp(compressBound(raw.size()), '\0');
  uLongf clen = comp.size();
  compress2(reinterpret_cast<Bytef*>(comp.data()), &clen,
            reinterpret_cast<const Bytef*>(raw.data()), raw.size(), 6);
  std::string out(raw.size(), '\0');
  for (auto _ : state) {
    uLongf len = out.size();
    benchmark::DoNotOptimize(uncompress(reinterpret_cast<Bytef*>(out.data()), &len,
                                        reinterpret_cast<const Bytef*>(comp.data()), clen));
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * raw.size()));
}
BENCHMARK(BM_RawZlibDecompress)->Arg(10)->Arg(1000);

impala::TPartitionStats MakeStats(int columns) {
  impala::TPartitionStats stats;
  stats.stats.num_rows = 1000000;
  stats.__isset.intermediate_col_stats = true;
  for (int c = 0; c < columns; ++c) {
    impala::TIntermediateColumnStats col;
    col.__set_num_nulls(c);
    col.__set_max_width(16);
    col.__set_avg_width(8.5);
    col.__set_num_rows(1000000);
    col.__set_intermediate_ndv(std::string(1024, static_cast<char>(c % 7)));
    stats.intermediate_col_stats["column_" + std::to_string(c)] = col;
  }
  return stats;
}

void BM_EncodePartitionStats(benchmark::State& state) {
  const auto stats = MakeStats(static_cast<int>(state.range(0)));
  const size_t raw = SerializeThrift(stats, ThriftProtocol::kCompact)->size();
  size_t bytes = 0;
  for (auto _ : state) {
    auto s = EncodePartitionStats(stats);
    bytes = s->size();
    benchmark::DoNotOptimize(s);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * raw));
  state.counters["deflate_ratio"] = static_cast<double>(raw) / static_cast<double>(bytes);
}
BENCHMARK(BM_EncodePartitionStats)->Arg(50);

void BM_DecodePartitionStats(benchmark::State& state) {
  const auto stats = MakeStats(static_cast<int>(state.range(0)));
  const std::string enc = *EncodePartitionStats(stats);
  const size_t raw = SerializeThrift(stats, ThriftProtocol::kCompact)->size();
  for (auto _ : state) {
    benchmark::DoNotOptimize(DecodePartitionStats(enc));
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * raw));
}
BENCHMARK(BM_DecodePartitionStats)->Arg(50);

void BM_BuildFileDesc(benchmark::State& state) {
  FileDescInfo info;
  info.relative_path = "000123_0.gz";
  info.length = 300 << 20;
  info.mtime_ms = 1700000000000;
  info.compression = CompressionFromFileName(info.relative_path);
  info.blocks = SplitIntoBlocks(info.length, 128 << 20, 0);
  size_t bytes = 0;
  for (auto _ : state) {
    auto s = BuildFileDesc(info);
    bytes = s.size();
    benchmark::DoNotOptimize(s);
  }
  state.counters["desc_bytes"] = static_cast<double>(bytes);
}
BENCHMARK(BM_BuildFileDesc);

}  // namespace
}  // namespace ics

BENCHMARK_MAIN();
