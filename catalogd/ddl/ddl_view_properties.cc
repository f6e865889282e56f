// ALTER VIEW SET / UNSET TBLPROPERTIES (alter::SetViewProperties and
// alter::UnsetViewProperties): edits a view's parameter map; its definition
// stays.
#include <string>
#include <vector>

#include "catalogd/ddl/ddl_operations_internal.h"
#include "catalogd/loader/partition_stats_params.h"

namespace ics::catalog::ddl {

namespace {

// Hive's storage handler key: changing it on a view would corrupt its metadata.
constexpr char kStorageHandlerKey[] = "storage_handler";

Status CheckKey(const std::string& key) {
  if (key.empty()) return Status::InvalidArgument("A view property key must not be empty");
  if (key == kStorageHandlerKey) {
    return Status::InvalidArgument("Changing the '" + std::string(kStorageHandlerKey) +
                                   "' view property is not supported: it protects the "
                                   "view's metadata");
  }
  if (key.rfind(kStatsChunkParamPrefix, 0) == 0 || key == kStatsNumChunksParam) {
    return Status::InvalidArgument("Property '" + key + "' is reserved for statistics");
  }
  return Status::OK();
}

}  // namespace

Status SetViewProperties(const alter::SetViewProperties& p, const TableRef& t,
                         const hive::Table& view, std::map<std::string, std::string>* params) {
  if (!IsView(view)) return Status::InvalidArgument("ALTER VIEW not allowed on a table: " + t.full());
  if (p.properties.empty()) return Status::InvalidArgument("SET TBLPROPERTIES without properties");
  for (const auto& kv : p.properties) ICS_RETURN_IF_ERROR(CheckKey(kv.first));
  for (const auto& [k, v] : p.properties) (*params)[k] = v;
  return Status::OK();
}

Status UnsetViewProperties(const alter::UnsetViewProperties& p, const TableRef& t,
                           const hive::Table& view, std::map<std::string, std::string>* params) {
  if (!IsView(view))
    return Status::InvalidArgument("ALTER VIEW not allowed on a table: " + t.full());
  if (p.keys.empty()) return Status::InvalidArgument("UNSET TBLPROPERTIES without keys");
  // Without IF EXISTS every key must be there, or nothing is removed.
  std::string missing;
  for (const std::string& k : p.keys) {
    ICS_RETURN_IF_ERROR(CheckKey(k));
    if (params->count(k) == 0) missing += (missing.empty() ? "" : ",") + k;
  }
  if (!missing.empty() && !p.if_exists) {
    return Status::NotFound("These properties do not exist for view " + t.full() + ": " +
                            missing + ". Use ALTER VIEW " + t.full() +
                            " UNSET TBLPROPERTIES IF EXISTS (...) when unsure.");
  }
  for (const std::string& k : p.keys) params->erase(k);
  return Status::OK();
}

}  // namespace ics::catalog::ddl
