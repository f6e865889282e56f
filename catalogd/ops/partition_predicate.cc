#include "catalogd/ops/partition_predicate.h"

#include <utility>

namespace ics::catalog::ops {

Result<PartitionPredicate> PartitionPredicate::Bind(const FilterNode* filter,
                                                    const std::vector<PartitionKeyInfo>& keys) {
  ICS_ASSIGN_OR_RETURN(sql::Predicate p,
                       sql::BindFilter(filter, sql::ListPartitionsFilterDialect(), keys));
  return PartitionPredicate(std::move(p));
}

Result<PartitionPredicate> PartitionPredicate::Compile(std::string_view filter,
                                                       const std::vector<PartitionKeyInfo>& keys) {
  ICS_ASSIGN_OR_RETURN(sql::Predicate p,
                       sql::CompileFilter(filter, sql::ListPartitionsFilterDialect(), keys));
  return PartitionPredicate(std::move(p));
}

Result<std::vector<HiveValue>> TypedValues(const std::vector<PartitionKeyInfo>& keys,
                                           const std::vector<std::string>& stored,
                                           const std::vector<size_t>& which) {
  std::vector<HiveValue> out(keys.size());
  for (size_t k : which) {
    if (k >= stored.size()) return Status::InvalidArgument("partition has too few values");
    ICS_ASSIGN_OR_RETURN(out[k], ParseStoredValue(keys[k].kind, stored[k]));
  }
  return out;
}

}  // namespace ics::catalog::ops
