#include "common/hive/file_format.h"

#include <algorithm>
#include <cctype>

namespace ics {

namespace {

using FF = impala::THdfsFileFormat;

struct FormatRow {
  FF::type format;
  const char* name;
  HmsFormat hms;
};

const FormatRow kFormats[] = {
    {FF::TEXT,
     "TEXTFILE",
     {"org.apache.hadoop.mapred.TextInputFormat",
      "org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat",
      "org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe"}},
    {FF::PARQUET,
     "PARQUET",
     {"org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat",
      "org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat",
      "org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe"}},
    {FF::ORC,
     "ORC",
     {"org.apache.hadoop.hive.ql.io.orc.OrcInputFormat",
      "org.apache.hadoop.hive.ql.io.orc.OrcOutputFormat",
      "org.apache.hadoop.hive.ql.io.orc.OrcSerde"}},
    {FF::AVRO,
     "AVRO",
     {"org.apache.hadoop.hive.ql.io.avro.AvroContainerInputFormat",
      "org.apache.hadoop.hive.ql.io.avro.AvroContainerOutputFormat",
      "org.apache.hadoop.hive.serde2.avro.AvroSerDe"}},
    {FF::SEQUENCE_FILE,
     "SEQUENCEFILE",
     {"org.apache.hadoop.mapred.SequenceFileInputFormat",
      "org.apache.hadoop.hive.ql.io.HiveSequenceFileOutputFormat",
      "org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe"}},
    {FF::RC_FILE,
     "RCFILE",
     {"org.apache.hadoop.hive.ql.io.RCFileInputFormat",
      "org.apache.hadoop.hive.ql.io.RCFileOutputFormat",
      "org.apache.hadoop.hive.serde2.columnar.LazyBinaryColumnarSerDe"}},
    {FF::JSON,
     "JSONFILE",
     {"org.apache.hadoop.mapred.TextInputFormat",
      "org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat",
      "org.apache.hadoop.hive.serde2.JsonSerDe"}},
};

}  // namespace

HmsFormat HmsFormatOf(FF::type format) {
  for (const auto& row : kFormats) {
    if (row.format == format) return row.hms;
  }
  return kFormats[0].hms;
}

FF::type FileFormatOf(const hive::StorageDescriptor& sd) {
  // JSON shares TEXT's input format; the SerDe tells them apart.
  if (sd.serdeInfo.serializationLib == "org.apache.hadoop.hive.serde2.JsonSerDe") return FF::JSON;
  for (const auto& row : kFormats) {
    if (row.hms.input_format == sd.inputFormat && row.format != FF::JSON) return row.format;
  }
  return FF::TEXT;
}

std::string FileFormatName(FF::type format) {
  for (const auto& row : kFormats) {
    if (row.format == format) return row.name;
  }
  return "TEXTFILE";
}

Result<FF::type> ParseFileFormat(const std::string& name) {
  std::string upper = name;
  std::transform(upper.begin(), upper.end(), upper.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  if (upper == "TEXT") upper = "TEXTFILE";
  if (upper == "JSON") upper = "JSONFILE";
  for (const auto& row : kFormats) {
    if (upper == row.name) return row.format;
  }
  return Status::InvalidArgument("unknown file format '" + name +
                                 "' (expected TEXTFILE, PARQUET, ORC, AVRO, SEQUENCEFILE, "
                                 "RCFILE or JSONFILE)");
}

}  // namespace ics
