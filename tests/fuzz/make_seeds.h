// Shared by the seed generator's files (make_seeds.cc: RPC and codec seeds
// and main; make_seeds_text.cc: the text targets' seeds).
#pragma once

#include <string>

namespace ics::fuzz {

// Writes `bytes` as <out>/corpus/<target>/<name> (and counts the file).
void Write(const std::string& target, const std::string& name, const std::string& bytes);

// Seeds of the text targets: sql, column_type, hms_filter, partition_filter.
void TextSeeds();

}  // namespace ics::fuzz
