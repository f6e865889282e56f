// Hive text data files: write/read round trips, escaping, the hidden
// temporary file, and typed reading of field text.
#include "coordinator-sim/exec/text_data.h"
#include "common/hive/scalar_text.h"

#include <sys/inotify.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>

#include "common/types/column_type.h"
#include "tests/exec_scan/exec_scan_test_util.h"

namespace ics::coord {
namespace {

using impala::TPrimitiveType;
using testing::TempDir;

std::vector<std::string> ListDir(const std::string& dir) {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    out.push_back(e.path().filename().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string ReadRaw(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(ExecScanTextData, RoundTripNullsDelimitersUnicode) {
  TempDir dir;
  const std::vector<TextRow> rows = {
      {"plain", std::nullopt, ""},
      {"with\x01" "delim", "back\\slash", "trailing\\"},
      {"new\nline", "carriage\rreturn", "crlf\r\n"},
      {"\\N", "N", "\\"},  // the text \N is not NULL
      {"h\xC3\xA9llo \xE4\xB8\x96\xE7\x95\x8C \xF0\x9F\x8E\x89", "tab\tand space ", "\\n"},
      {std::nullopt, std::nullopt, std::nullopt},
      {"", "", ""},
  };
  auto name = WriteTextDataFile(dir.path(), "q1", rows);
  ASSERT_RESULT_OK(name);
  auto back = ReadTextDataFile(dir.File(*name), kDefaultFieldDelim, 3);
  ASSERT_RESULT_OK(back);
  EXPECT_EQ(*back, rows);
  // Exactly one line per row: no raw newline inside a value.
  const std::string raw = ReadRaw(dir.File(*name));
  EXPECT_EQ(std::count(raw.begin(), raw.end(), '\n'), static_cast<long>(rows.size()));
}

TEST(ExecScanTextData, CustomDelimiterRoundTrip) {
  TempDir dir;
  const std::vector<TextRow> rows = {{"a,b", "c"}, {",", ",,"}, {std::nullopt, "x,\\,y"}};
  auto name = WriteTextDataFile(dir.path(), "q", rows, ',');
  ASSERT_RESULT_OK(name);
  EXPECT_EQ(ReadRaw(dir.File(*name)), "a\\,b,c\n\\,,\\,\\,\n\\N,x\\,\\\\\\,y\n");
  auto back = ReadTextDataFile(dir.File(*name), ',', 2);
  ASSERT_RESULT_OK(back);
  EXPECT_EQ(*back, rows);
}

TEST(ExecScanTextData, EncodeExactBytes) {
  EXPECT_EQ(EncodeTextRow({"a\x01" "b", std::nullopt, "c\\d\ne\rf"}),
            "a\\\x01" "b\x01\\N\x01" "c\\\\d\\ne\\rf\n");
  EXPECT_EQ(EncodeTextRow({}), "\n");
  EXPECT_EQ(EncodeTextRow({""}), "\n");
  EXPECT_EQ(EncodeTextRow({"\\N"}), "\\\\N\n");
}

TEST(ExecScanTextData, EmptyRowsAndFiles) {
  TempDir dir;
  auto empty = WriteTextDataFile(dir.path(), "e", {});
  ASSERT_RESULT_OK(empty);
  EXPECT_EQ(std::filesystem::file_size(dir.File(*empty)), 0u);
  auto none = ReadTextDataFile(dir.File(*empty), kDefaultFieldDelim, 2);
  ASSERT_RESULT_OK(none);
  EXPECT_TRUE(none->empty());

  // A zero-field row is an empty line: one empty string, then NULLs (Hive).
  auto blank = WriteTextDataFile(dir.path(), "b", {{}, {}, {""}});
  ASSERT_RESULT_OK(blank);
  auto rows = ReadTextDataFile(dir.File(*blank), kDefaultFieldDelim, 2);
  ASSERT_RESULT_OK(rows);
  const std::vector<TextRow> want = {{"", std::nullopt}, {"", std::nullopt}, {"", std::nullopt}};
  EXPECT_EQ(*rows, want);
}

TEST(ExecScanTextData, MissingAndExtraFields) {
  auto rows = ParseTextData("a\x01" "b\n" "1\x01" "2\x01" "3\x01" "4\n" "only", '\x01', 3);
  ASSERT_RESULT_OK(rows);
  const std::vector<TextRow> want = {
      {"a", "b", std::nullopt}, {"1", "2", "3"}, {"only", std::nullopt, std::nullopt}};
  EXPECT_EQ(*rows, want);
  // A trailing delimiter makes an empty last field, with or without '\n'.
  auto trailing = ParseTextData("a,\nb,", ',', 3);
  ASSERT_RESULT_OK(trailing);
  const std::vector<TextRow> want2 = {{"a", "", std::nullopt}, {"b", "", std::nullopt}};
  EXPECT_EQ(*trailing, want2);
  // Zero columns: rows are still counted.
  auto zero = ParseTextData("x\ny\n", ',', 0);
  ASSERT_RESULT_OK(zero);
  EXPECT_EQ(zero->size(), 2u);
}

TEST(ExecScanTextData, ForeignLineEndingsAndEscapes) {
  // CRLF files: the '\r' before '\n' is not data; an escaped one is.
  auto rows = ParseTextData("a,b\r\nc,d\\r\r\n\\N,\\x\n", ',', 2);
  ASSERT_RESULT_OK(rows);
  const std::vector<TextRow> want = {{"a", "b"}, {"c", "d\r"}, {std::nullopt, "x"}};
  EXPECT_EQ(*rows, want);
  // A backslash before a raw newline keeps the newline in the value; a lone
  // backslash at the very end is itself.
  auto odd = ParseTextData("a\\\nb\nc\\", ',', 1);
  ASSERT_RESULT_OK(odd);
  const std::vector<TextRow> want2 = {{"a\nb"}, {"c\\"}};
  EXPECT_EQ(*odd, want2);
}

TEST(ExecScanTextData, FileNamesAreUniqueAndDirectoryIsCreated) {
  TempDir dir;
  const std::string nested = dir.path() + "/db/t/year=2024/month=1";
  const std::regex pattern("coord-7_[0-9a-f]{32}_data\\.0\\.txt");
  std::set<std::string> names;
  for (int i = 0; i < 50; ++i) {
    auto name = WriteTextDataFile(nested, "coord-7", {{"v" + std::to_string(i)}});
    ASSERT_RESULT_OK(name);
    EXPECT_TRUE(std::regex_match(*name, pattern)) << *name;
    names.insert(*name);
  }
  EXPECT_EQ(names.size(), 50u);
  // Nothing but the final files: no temporaries left behind.
  const auto listed = ListDir(nested);
  EXPECT_EQ(std::set<std::string>(listed.begin(), listed.end()), names);
  // A trailing '/' on the directory is fine.
  ASSERT_RESULT_OK(WriteTextDataFile(nested + "/", "p", {{"x"}}));
}

TEST(ExecScanTextData, WritesHiddenTempThenRenames) {
  TempDir dir;
  const int fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  ASSERT_GE(fd, 0);
  ASSERT_GE(inotify_add_watch(fd, dir.path().c_str(), IN_CREATE | IN_MOVED_FROM | IN_MOVED_TO),
            0);
  auto name = WriteTextDataFile(dir.path(), "q", {{"a"}, {"b"}});
  ASSERT_RESULT_OK(name);

  std::vector<std::pair<uint32_t, std::string>> events;
  alignas(inotify_event) char buf[4096];
  ssize_t n;
  while ((n = read(fd, buf, sizeof(buf))) > 0) {
    for (char* p = buf; p < buf + n;) {
      auto* ev = reinterpret_cast<inotify_event*>(p);
      events.emplace_back(ev->mask & (IN_CREATE | IN_MOVED_FROM | IN_MOVED_TO),
                          ev->len ? std::string(ev->name) : "");
      p += sizeof(inotify_event) + ev->len;
    }
  }
  close(fd);
  const std::string tmp = "." + *name + ".tmp";
  const std::vector<std::pair<uint32_t, std::string>> want = {
      {IN_CREATE, tmp}, {IN_MOVED_FROM, tmp}, {IN_MOVED_TO, *name}};
  EXPECT_EQ(events, want);
}

TEST(ExecScanTextData, Errors) {
  TempDir dir;
  for (const std::string bad : {"", ".hidden", "_hidden", "a/b"}) {
    auto r = WriteTextDataFile(dir.path(), bad, {{"x"}});
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_TRUE(r.status().Is(ErrorCode::kInvalidArgument)) << r.status().ToString();
  }
  for (char delim : {'\\', '\n', '\r', 'n', 'r', 'N'}) {
    EXPECT_TRUE(WriteTextDataFile(dir.path(), "q", {{"x"}}, delim)
                    .status()
                    .Is(ErrorCode::kInvalidArgument));
    EXPECT_TRUE(ParseTextData("x", delim, 1).status().Is(ErrorCode::kInvalidArgument));
  }
  EXPECT_TRUE(ReadTextDataFile(dir.File("missing.txt"), ',', 1).status().Is(ErrorCode::kIoError));
  // The directory path is a regular file.
  std::ofstream(dir.File("file")) << "x";
  auto r = WriteTextDataFile(dir.File("file"), "q", {{"x"}});
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.status().Is(ErrorCode::kIoError)) << r.status().ToString();
}

// ---- typed reading ----

impala::TColumnType T(const char* hive) { return *ParseHiveType(hive); }

TEST(ExecScanTextData, ExactNumbers) {
  auto n = [](const char* s) { return ParseExactNumber(s); };
  EXPECT_EQ(n("0042.500")->ToString(), "42.5");
  EXPECT_EQ(n("-0.0")->ToString(), "0");
  EXPECT_EQ(n(" +7 ")->ToString(), "7");
  EXPECT_EQ(n("1.5e3")->ToString(), "1500");
  EXPECT_EQ(n("2E-3")->ToString(), "0.002");
  EXPECT_EQ(n(".5")->ToString(), "0.5");
  EXPECT_EQ(n("5.")->ToString(), "5");
  EXPECT_EQ(n("0e999999999")->ToString(), "0");
  for (const char* bad : {"", "-", ".", "1e", "1x", "0x10", "1.2.3", "e5", "1e99999", "inf"}) {
    EXPECT_FALSE(n(bad)) << bad;
  }
  auto cmp = [&](const char* a, const char* b) { return CompareExactNumbers(*n(a), *n(b)); };
  EXPECT_EQ(cmp("10.25", "2"), 1);
  EXPECT_EQ(cmp("-10", "-2"), -1);
  EXPECT_EQ(cmp("1.50", "1.5"), 0);
  EXPECT_EQ(cmp("0.5", "0.51"), -1);
  EXPECT_EQ(cmp("-0", "0"), 0);
  EXPECT_EQ(cmp("-0.1", "0"), -1);
  EXPECT_EQ(cmp("123456789012345678901234567890", "123456789012345678901234567891"), -1);
}

TEST(ExecScanTextData, DatesAndTimestamps) {
  EXPECT_EQ(ParseDateText("2024-02-29"), "2024-02-29");
  EXPECT_EQ(ParseDateText(" 2024-1-5 "), "2024-01-05");
  EXPECT_FALSE(ParseDateText("2023-02-29"));
  EXPECT_FALSE(ParseDateText("1900-02-29"));
  EXPECT_EQ(ParseDateText("2000-02-29"), "2000-02-29");
  EXPECT_FALSE(ParseDateText("0000-01-01"));
  EXPECT_FALSE(ParseDateText("2024-13-01"));
  EXPECT_FALSE(ParseDateText("24-01-01"));
  EXPECT_FALSE(ParseDateText("2024-01-01x"));
  EXPECT_EQ(ParseTimestampText("2024-01-02"), "2024-01-02 00:00:00.000000000");
  EXPECT_EQ(ParseTimestampText("2024-01-02 3:04:05.5"), "2024-01-02 03:04:05.500000000");
  EXPECT_EQ(ParseTimestampText("2024-01-02T03:04"), "2024-01-02 03:04:00.000000000");
  EXPECT_FALSE(ParseTimestampText("2024-01-02 24:00:00"));
  EXPECT_FALSE(ParseTimestampText("2024-01-02 10:00:00.1234567890"));
  EXPECT_FALSE(ParseTimestampText("10:00:00"));
}

TEST(ExecScanTextData, CanonicalValues) {
  auto c = [](const char* text, const char* type) { return CanonicalTextValue(text, T(type)); };
  EXPECT_EQ(c("TRUE", "boolean"), "true");
  EXPECT_EQ(c("False", "boolean"), "false");
  EXPECT_FALSE(c("1", "boolean"));
  EXPECT_EQ(c("-128", "tinyint"), "-128");
  EXPECT_FALSE(c("128", "tinyint"));
  EXPECT_EQ(c("32767", "smallint"), "32767");
  EXPECT_FALSE(c("32768", "smallint"));
  EXPECT_EQ(c(" 007 ", "int"), "7");
  EXPECT_FALSE(c("2147483648", "int"));
  EXPECT_FALSE(c("1.5", "int"));
  EXPECT_FALSE(c("", "int"));
  EXPECT_EQ(c("-9223372036854775808", "bigint"), "-9223372036854775808");
  EXPECT_EQ(c("9223372036854775807", "bigint"), "9223372036854775807");
  EXPECT_FALSE(c("9223372036854775808", "bigint"));
  EXPECT_EQ(c("1.50", "double"), "1.5");
  EXPECT_EQ(c("-0", "double"), "0");
  EXPECT_EQ(c("Infinity", "double"), "inf");
  EXPECT_EQ(c("NaN", "float"), "nan");
  EXPECT_FALSE(c("0x10", "double"));
  EXPECT_FALSE(c("abc", "float"));
  EXPECT_EQ(c("12.345", "decimal(10,2)"), "12.35");
  EXPECT_EQ(c("-12.344", "decimal(10,2)"), "-12.34");
  EXPECT_EQ(c("-0.001", "decimal(10,2)"), "0.00");
  EXPECT_EQ(c("99.995", "decimal(4,2)"), std::nullopt);  // rounds to 100.00: overflow
  EXPECT_EQ(c("99.994", "decimal(4,2)"), "99.99");
  EXPECT_EQ(c("5", "decimal(3,0)"), "5");
  EXPECT_EQ(c("1e2", "decimal(5,1)"), "100.0");
  EXPECT_EQ(c("2024-1-2", "date"), "2024-01-02");
  EXPECT_FALSE(c("2024-02-30", "date"));
  EXPECT_EQ(c("2024-01-02 03:04:05", "timestamp"), "2024-01-02 03:04:05.000000000");
  EXPECT_EQ(c("any text", "string"), "any text");
  EXPECT_EQ(c("abcdef", "varchar(3)"), "abc");
  EXPECT_EQ(c("ab", "char(4)"), "ab  ");
  EXPECT_EQ(c("abcdef", "char(4)"), "abcd");
  EXPECT_FALSE(c("[1]", "array<int>"));
}

}  // namespace
}  // namespace ics::coord
