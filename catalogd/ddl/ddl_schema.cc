// Storage formats, columns and column statistics checks (ddl_schema_internal.h).
#include "catalogd/ddl/ddl_schema_internal.h"

#include <set>

#include "common/hive/file_format.h"
#include "common/hive/names.h"
#include "common/types/column_type.h"

namespace ics::catalog::ddl {

using FF = impala::THdfsFileFormat;

Status CheckSupportedFormat(FF::type format) {
  switch (format) {
    case FF::TEXT:
    case FF::RC_FILE:
    case FF::SEQUENCE_FILE:
    case FF::AVRO:
    case FF::PARQUET:
    case FF::ORC:
    case FF::JSON:
      return Status::OK();
    default:
      return Status::NotImplemented("Tables stored as " + impala::to_string(format) +
                                    " are not supported by this catalog service");
  }
}

void SetFileFormat(FF::type format, hive::StorageDescriptor* sd) {
  const HmsFormat f = HmsFormatOf(format);
  sd->inputFormat = f.input_format;
  sd->outputFormat = f.output_format;
  sd->serdeInfo.serializationLib = f.serde_lib;
}

void SetDelimiters(const RowFormat& rf, std::map<std::string, std::string>* serde) {
  if (rf.field_terminator) {
    (*serde)["field.delim"] = *rf.field_terminator;
    (*serde)["serialization.format"] = *rf.field_terminator;
  }
  if (rf.line_terminator) (*serde)["line.delim"] = *rf.line_terminator;
  if (rf.escaped_by) (*serde)["escape.delim"] = *rf.escaped_by;
}

Status ValidateColumn(hive::FieldSchema* f, bool partition_key) {
  ICS_ASSIGN_OR_RETURN(f->name, NormalizeColumnName(f->name));
  Result<impala::TColumnType> type = ParseHiveType(f->type);
  if (!type.ok()) {
    return Status::InvalidArgument("Invalid type of column '" + f->name +
                                   "': " + type.status().message());
  }
  if (partition_key && !IsScalar(*type)) {
    return Status::InvalidArgument("Partition column '" + f->name +
                                   "' must have a scalar type, not " + f->type);
  }
  return Status::OK();
}

Status ValidateColumns(std::vector<hive::FieldSchema>* cols,
                       std::vector<hive::FieldSchema>* partition_keys) {
  std::set<std::string> seen;
  for (std::vector<hive::FieldSchema>* list : {cols, partition_keys}) {
    const bool keys = list == partition_keys;
    for (hive::FieldSchema& f : *list) {
      ICS_RETURN_IF_ERROR(ValidateColumn(&f, keys));
      if (!seen.insert(f.name).second) {
        return Status::InvalidArgument("Duplicate column name: " + f.name);
      }
    }
  }
  return Status::OK();
}

Status CheckColumnStatsEdits(const hive::Table& table, std::vector<ColumnStatsEdit>* edits) {
  for (ColumnStatsEdit& edit : *edits) {
    for (hive::ColumnStatisticsObj& c : edit.columns) {
      ICS_ASSIGN_OR_RETURN(c, CheckColumnStats(table, !edit.partition.empty(), std::move(c)));
    }
  }
  return Status::OK();
}

}  // namespace ics::catalog::ddl
