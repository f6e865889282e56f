// COMPUTE STATS scans of generated text files and the merge of partition
// stats into column stats.
#include "coordinator-sim/exec/stats_scanner.h"

#include <cmath>
#include <filesystem>
#include <functional>
#include <map>
#include <set>

#include "common/codec/partition_stats.h"
#include "common/types/column_type.h"
#include "coordinator-sim/exec/hll.h"
#include "coordinator-sim/exec/text_data.h"
#include "tests/exec_scan/exec_scan_test_util.h"

namespace ics::coord {
namespace {

using testing::TempDir;

constexpr int kRows = 1000;

// One generated column: the raw field text of row i (nullopt = \N) and, as
// the test's own expectation, its canonical value (nullopt = reads as NULL).
struct GenColumn {
  std::string name;
  std::string type;
  std::function<std::optional<std::string>(int)> raw;
  std::function<std::optional<std::string>(int)> value;
};

std::string Pad2(int v) { return (v < 10 ? "0" : "") + std::to_string(v); }

std::vector<GenColumn> Columns() {
  auto same = [](std::function<std::optional<std::string>(int)> f) { return f; };
  std::vector<GenColumn> cols;
  auto id = [](int i) -> std::optional<std::string> { return std::to_string(i); };
  cols.push_back({"id", "int", id, id});
  auto name = [](int i) -> std::optional<std::string> {
    if (i % 3 == 0) return std::nullopt;
    return "n" + std::to_string(i % 50);
  };
  cols.push_back({"name", "string", name, name});
  cols.push_back({"score", "double",
                  [](int i) -> std::optional<std::string> {
                    return i % 7 == 0 ? "abc" : std::to_string(i % 20) + ".50";
                  },
                  [](int i) -> std::optional<std::string> {
                    if (i % 7 == 0) return std::nullopt;
                    return std::to_string(i % 20) + ".5";
                  }});
  cols.push_back({"flag", "boolean",
                  [](int i) -> std::optional<std::string> {
                    return i % 11 == 0 ? "yes" : (i % 2 == 0 ? "true" : "FALSE");
                  },
                  [](int i) -> std::optional<std::string> {
                    if (i % 11 == 0) return std::nullopt;
                    return i % 2 == 0 ? "true" : "false";
                  }});
  cols.push_back({"d", "date",
                  [](int i) -> std::optional<std::string> {
                    return i % 100 == 0 ? "2024-02-30" : "2024-01-" + std::to_string(i % 28 + 1);
                  },
                  [](int i) -> std::optional<std::string> {
                    if (i % 100 == 0) return std::nullopt;
                    return "2024-01-" + Pad2(i % 28 + 1);
                  }});
  cols.push_back({"amount", "decimal(10,2)",
                  [](int i) -> std::optional<std::string> {
                    return std::to_string(i % 10) + ".005";
                  },
                  [](int i) -> std::optional<std::string> {
                    return std::to_string(i % 10) + ".01";
                  }});
  cols.push_back({"code", "varchar(3)",
                  [](int i) -> std::optional<std::string> { return i % 2 ? "ab" : "abcdef"; },
                  [](int i) -> std::optional<std::string> { return i % 2 ? "ab" : "abc"; }});
  auto c = same([](int) -> std::optional<std::string> { return "x"; });
  cols.push_back({"c", "char(5)", c, c});
  cols.push_back({"ts", "timestamp",
                  [](int i) -> std::optional<std::string> {
                    return "2024-01-01 00:00:" + Pad2(i % 60);
                  },
                  [](int i) -> std::optional<std::string> {
                    return "2024-01-01 00:00:" + Pad2(i % 60) + ".000000000";
                  }});
  auto arr = same([](int) -> std::optional<std::string> { return "1,2"; });
  cols.push_back({"arr", "array<int>", arr, arr});
  auto note = [](int i) -> std::optional<std::string> {
    if (i % 5 == 0) return std::string();
    return std::string(static_cast<size_t>(i % 17), 'z') + "\xC3\xA9";  // 2-byte char
  };
  cols.push_back({"note", "string", note, note});
  return cols;
}

// Rows i % 13 == 0 are short: only id and name, the rest missing (NULL).
bool Short(int i) { return i % 13 == 0; }
constexpr size_t kShortFields = 2;

std::vector<ScanColumn> ScanColumns(const std::vector<GenColumn>& cols) {
  std::vector<ScanColumn> out;
  for (const auto& c : cols) out.push_back({c.name, *ParseHiveType(c.type)});
  return out;
}

// Writes rows [begin, end) as one file; returns its path.
std::string WriteRows(const TempDir& dir, const std::vector<GenColumn>& cols, int begin, int end,
                      char delim = kDefaultFieldDelim) {
  std::vector<TextRow> rows;
  for (int i = begin; i < end; ++i) {
    TextRow row;
    for (size_t c = 0; c < cols.size(); ++c) {
      if (Short(i) && c >= kShortFields) break;
      row.push_back(cols[c].raw(i));
    }
    rows.push_back(std::move(row));
  }
  auto name = WriteTextDataFile(dir.path(), "gen", rows, delim);
  EXPECT_TRUE(name.ok()) << name.status().ToString();
  return dir.File(*name);
}

struct Expected {
  int64_t nulls = 0;
  int64_t ndv = 0;
  int32_t max_width = 0;
  double avg_width = 0;
  int64_t trues = 0, falses = 0;
};

Expected Expect(const std::vector<GenColumn>& cols, size_t c, int begin, int end) {
  Expected e;
  std::set<std::string> distinct;
  int64_t total = 0, non_null = 0;
  for (int i = begin; i < end; ++i) {
    std::optional<std::string> v = (Short(i) && c >= kShortFields) ? std::nullopt
                                                                     : cols[c].value(i);
    if (!v) {
      ++e.nulls;
      continue;
    }
    ++non_null;
    distinct.insert(*v);
    total += static_cast<int64_t>(v->size());
    e.max_width = std::max(e.max_width, static_cast<int32_t>(v->size()));
    if (*v == "true") ++e.trues;
    if (*v == "false") ++e.falses;
  }
  e.ndv = static_cast<int64_t>(distinct.size());
  e.avg_width = non_null ? static_cast<double>(total) / static_cast<double>(non_null) : 0;
  return e;
}

// Fixed slot sizes of the generated columns (nullopt = variable width).
std::optional<int32_t> Fixed(const std::string& name) {
  static const std::map<std::string, int32_t> kFixed = {
      {"id", 4}, {"score", 8}, {"flag", 1}, {"d", 4}, {"amount", 8}, {"c", 5}, {"ts", 16}};
  auto it = kFixed.find(name);
  if (it == kFixed.end()) return std::nullopt;
  return it->second;
}

void ExpectNdvNear(int64_t got, int64_t want, const std::string& what) {
  // Small counts are linear counting (near exact); large ones within 5%.
  const double tol = std::max(2.0, 0.05 * static_cast<double>(want));
  EXPECT_LE(std::fabs(static_cast<double>(got - want)), tol) << what << " got " << got
                                                              << " want " << want;
}

TEST(ExecScanStats, PartitionScanFigures) {
  TempDir dir;
  const auto cols = Columns();
  const std::vector<std::string> files = {WriteRows(dir, cols, 0, 600),
                                          WriteRows(dir, cols, 600, kRows)};
  auto stats = ComputePartitionScan(files, ScanColumns(cols), kDefaultFieldDelim);
  ASSERT_RESULT_OK(stats);
  EXPECT_EQ(stats->stats.num_rows, kRows);
  ASSERT_TRUE(stats->stats.__isset.total_file_bytes);
  EXPECT_EQ(stats->stats.total_file_bytes,
            static_cast<int64_t>(std::filesystem::file_size(files[0]) +
                                 std::filesystem::file_size(files[1])));
  const auto& got = stats->intermediate_col_stats;
  EXPECT_EQ(got.count("arr"), 0u) << "complex columns get no stats";
  EXPECT_EQ(got.size(), cols.size() - 1);
  for (size_t c = 0; c < cols.size(); ++c) {
    if (cols[c].name == "arr") continue;
    SCOPED_TRACE(cols[c].name);
    ASSERT_EQ(got.count(cols[c].name), 1u);
    const impala::TIntermediateColumnStats& s = got.at(cols[c].name);
    const Expected e = Expect(cols, c, 0, kRows);
    EXPECT_EQ(s.num_rows, kRows);
    EXPECT_EQ(s.num_nulls, e.nulls);
    EXPECT_FALSE(s.is_ndv_encoded);
    ASSERT_EQ(s.intermediate_ndv.size(), Hll::kNumRegisters);
    ExpectNdvNear(Hll::Deserialize(s.intermediate_ndv)->Estimate(), e.ndv, cols[c].name);
    if (auto fixed = Fixed(cols[c].name)) {
      EXPECT_EQ(s.max_width, *fixed);
      EXPECT_DOUBLE_EQ(s.avg_width, *fixed);
    } else {
      EXPECT_EQ(s.max_width, e.max_width);
      EXPECT_NEAR(s.avg_width, e.avg_width, 1e-9);
    }
    if (cols[c].type == "boolean") {
      EXPECT_EQ(s.num_trues, e.trues);
      EXPECT_EQ(s.num_falses, e.falses);
    } else {
      EXPECT_FALSE(s.__isset.num_trues);
    }
  }
  // Spot checks of the expectation itself.
  EXPECT_EQ(got.at("name").num_nulls, 334);  // i % 3 == 0 for i in [0, 1000)
  EXPECT_EQ(got.at("code").max_width, 3);    // VARCHAR(3) truncates
  EXPECT_GT(got.at("note").num_nulls, 0);    // only the short rows
  // The stats survive the wire encoding (compact + deflate).
  auto encoded = EncodePartitionStats(*stats);
  ASSERT_RESULT_OK(encoded);
  auto decoded = DecodePartitionStats(*encoded);
  ASSERT_RESULT_OK(decoded);
  EXPECT_EQ(*decoded, *stats);
}

TEST(ExecScanStats, CustomDelimiterAndNoFiles) {
  TempDir dir;
  const auto cols = Columns();
  const std::string file = WriteRows(dir, cols, 0, 100, ',');
  auto stats = ComputePartitionScan({file}, ScanColumns(cols), ',');
  ASSERT_RESULT_OK(stats);
  EXPECT_EQ(stats->stats.num_rows, 100);
  // "1,2" of the array column holds the delimiter, escaped: still one field.
  EXPECT_EQ(stats->intermediate_col_stats.at("note").num_nulls, Expect(cols, 10, 0, 100).nulls);

  auto empty = ComputePartitionScan({}, ScanColumns(cols), kDefaultFieldDelim);
  ASSERT_RESULT_OK(empty);
  EXPECT_EQ(empty->stats.num_rows, 0);
  const auto& name = empty->intermediate_col_stats.at("name");
  EXPECT_EQ(name.num_nulls, 0);
  EXPECT_EQ(name.max_width, 0);
  EXPECT_EQ(name.avg_width, 0);
  EXPECT_EQ(Hll::Deserialize(name.intermediate_ndv)->Estimate(), 0);
  EXPECT_EQ(empty->intermediate_col_stats.at("id").max_width, 4);
}

TEST(ExecScanStats, MissingFileIsAnError) {
  TempDir dir;
  auto r = ComputePartitionScan({dir.File("nope.txt")}, ScanColumns(Columns()), ',');
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.status().Is(ErrorCode::kIoError)) << r.status().ToString();
}

TEST(ExecScanStats, FixedWidths) {
  auto w = [](const char* t) { return FixedWidthOf(*ParseHiveType(t)); };
  EXPECT_EQ(w("boolean"), 1);
  EXPECT_EQ(w("tinyint"), 1);
  EXPECT_EQ(w("smallint"), 2);
  EXPECT_EQ(w("int"), 4);
  EXPECT_EQ(w("float"), 4);
  EXPECT_EQ(w("date"), 4);
  EXPECT_EQ(w("bigint"), 8);
  EXPECT_EQ(w("double"), 8);
  EXPECT_EQ(w("timestamp"), 16);
  EXPECT_EQ(w("decimal(9,2)"), 4);
  EXPECT_EQ(w("decimal(18,2)"), 8);
  EXPECT_EQ(w("decimal(38,2)"), 16);
  EXPECT_EQ(w("char(7)"), 7);
  EXPECT_EQ(w("string"), std::nullopt);
  EXPECT_EQ(w("varchar(10)"), std::nullopt);
  EXPECT_EQ(w("binary"), std::nullopt);
  EXPECT_EQ(w("map<string,int>"), std::nullopt);
}

TEST(ExecScanStats, MergeEqualsWholeScan) {
  TempDir dir;
  const auto cols = Columns();
  const auto scan_cols = ScanColumns(cols);
  // Three partitions with different NULL ratios and sizes.
  const std::vector<std::pair<int, int>> ranges = {{0, 150}, {150, 700}, {700, kRows}};
  std::vector<std::string> files;
  std::vector<impala::TPartitionStats> parts;
  for (auto [b, e] : ranges) {
    files.push_back(WriteRows(dir, cols, b, e));
    auto p = ComputePartitionScan({files.back()}, scan_cols, kDefaultFieldDelim);
    ASSERT_RESULT_OK(p);
    parts.push_back(*p);
  }
  auto whole = ComputePartitionScan(files, scan_cols, kDefaultFieldDelim);
  ASSERT_RESULT_OK(whole);
  const auto merged = MergeColumnStats(parts, scan_cols);
  const auto single = MergeColumnStats({*whole}, scan_cols);
  EXPECT_EQ(merged.size(), cols.size() - 1);
  EXPECT_EQ(merged.count("arr"), 0u);
  for (size_t c = 0; c < cols.size(); ++c) {
    if (cols[c].name == "arr") continue;
    SCOPED_TRACE(cols[c].name);
    const impala::TColumnStats& m = merged.at(cols[c].name);
    const impala::TColumnStats& s = single.at(cols[c].name);
    const Expected e = Expect(cols, c, 0, kRows);
    EXPECT_EQ(m.num_distinct_values, s.num_distinct_values);  // the HLL union is exact
    ExpectNdvNear(m.num_distinct_values, e.ndv, cols[c].name);
    EXPECT_EQ(m.num_nulls, e.nulls);
    if (auto fixed = Fixed(cols[c].name)) {
      EXPECT_EQ(m.max_size, *fixed);
      EXPECT_DOUBLE_EQ(m.avg_size, *fixed);
    } else {
      EXPECT_EQ(m.max_size, e.max_width);
      EXPECT_NEAR(m.avg_size, e.avg_width, 1e-9);  // weighted by non-NULL rows
    }
    if (cols[c].type == "boolean") {
      EXPECT_EQ(m.num_trues, e.trues);
      EXPECT_EQ(m.num_falses, e.falses);
      EXPECT_EQ(m.num_distinct_values, 2);
    } else {
      EXPECT_EQ(m.num_trues, -1);
      EXPECT_EQ(m.num_falses, -1);
    }
  }
  EXPECT_EQ(merged.at("id").num_distinct_values,
            std::min<int64_t>(Hll::Deserialize(whole->intermediate_col_stats.at("id")
                                                   .intermediate_ndv)
                                  ->Estimate(),
                              kRows));
}

TEST(ExecScanStats, MergeEdgeCases) {
  const std::vector<ScanColumn> cols = {{"s", *ParseHiveType("string")},
                                        {"b", *ParseHiveType("boolean")},
                                        {"n", *ParseHiveType("bigint")}};
  // No partitions: zeros.
  auto none = MergeColumnStats({}, cols);
  ASSERT_EQ(none.size(), 3u);
  EXPECT_EQ(none.at("s").num_distinct_values, 0);
  EXPECT_EQ(none.at("s").num_nulls, 0);
  EXPECT_EQ(none.at("s").max_size, 0);
  EXPECT_EQ(none.at("s").avg_size, 0);
  EXPECT_EQ(none.at("b").num_distinct_values, 0);
  EXPECT_EQ(none.at("n").max_size, 8);

  // A partition with Impala-style RLE registers and one lacking column "s"
  // (say it was added later), and an NDV the HLL overestimates for few rows.
  Hll h;
  for (int i = 0; i < 3; ++i) h.Update("v" + std::to_string(i));
  std::string regs = h.Serialize(), rle;
  for (size_t i = 0; i < regs.size();) {
    size_t run = 1;
    while (i + run < regs.size() && regs[i + run] == regs[i] && run < 255) ++run;
    rle.push_back(static_cast<char>(run));
    rle.push_back(regs[i]);
    i += run;
  }
  impala::TPartitionStats p1;
  p1.stats.num_rows = 4;
  impala::TIntermediateColumnStats s1;
  s1.__set_intermediate_ndv(rle);
  s1.__set_is_ndv_encoded(true);
  s1.__set_num_nulls(1);
  s1.__set_max_width(5);
  s1.__set_avg_width(2.0);
  s1.__set_num_rows(4);
  p1.intermediate_col_stats["s"] = s1;
  impala::TIntermediateColumnStats b1;
  b1.__set_intermediate_ndv(Hll().Serialize());
  b1.__set_num_nulls(0);
  b1.__set_num_rows(4);
  b1.__set_num_trues(4);
  b1.__set_num_falses(0);
  p1.intermediate_col_stats["b"] = b1;
  impala::TPartitionStats p2;
  p2.stats.num_rows = 10;
  impala::TIntermediateColumnStats bad;  // unreadable registers: ignored
  bad.__set_intermediate_ndv("garbage");
  bad.__set_num_nulls(2);
  bad.__set_num_rows(10);
  p2.intermediate_col_stats["b"] = bad;
  auto merged = MergeColumnStats({p1, p2}, cols);
  EXPECT_EQ(merged.at("s").num_distinct_values, 3);
  EXPECT_EQ(merged.at("s").num_nulls, 1);
  EXPECT_EQ(merged.at("s").max_size, 5);
  EXPECT_DOUBLE_EQ(merged.at("s").avg_size, 2.0);
  EXPECT_EQ(merged.at("b").num_distinct_values, 1);  // only trues seen
  EXPECT_EQ(merged.at("b").num_trues, 4);
  EXPECT_EQ(merged.at("b").num_falses, 0);
  EXPECT_EQ(merged.at("b").num_nulls, 2);
  EXPECT_EQ(merged.at("n").num_distinct_values, 0);  // no partition has stats for it
}

}  // namespace
}  // namespace ics::coord
