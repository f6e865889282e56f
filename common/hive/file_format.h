// Mapping between Impala file formats and the HMS storage descriptor fields
// (input/output format classes, SerDe library) Hive uses for them.
//
// Thread-safety: stateless functions.
#pragma once

#include <string>

#include "CatalogObjects_types.h"
#include "common/util/result.h"
#include "hive_metastore_types.h"

namespace ics {

struct HmsFormat {
  std::string input_format;
  std::string output_format;
  std::string serde_lib;
};

HmsFormat HmsFormatOf(impala::THdfsFileFormat::type format);
// TEXT when the input format is unknown.
impala::THdfsFileFormat::type FileFormatOf(const hive::StorageDescriptor& sd);
// "TEXTFILE", "PARQUET", ... as SQL writes them.
std::string FileFormatName(impala::THdfsFileFormat::type format);
// Parses a STORED AS name (case-insensitive); INVALID_ARGUMENT otherwise.
Result<impala::THdfsFileFormat::type> ParseFileFormat(const std::string& name);

}  // namespace ics
