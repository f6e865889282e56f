// HmsConfig: getMetaConf and get_config_value.
#include "catalogd/hms/hms_config.h"

#include "catalogd/hms/hms_part_internal.h"

namespace ics::catalog::hms {

namespace {

// The keys getMetaConf / get_config_value answer.
constexpr const char* kSupportedConfKeys[] = {
    "hive.metastore.warehouse.dir",
    "hive.exec.default.partition.name",
    "hive.metastore.limit.partition.request",
    "hive.metastore.batch.retrieve.max",
    "metastore.catalog.default",
};

bool StartsWith(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

}  // namespace

Result<std::string> HmsConfig::GetMetaConf(const std::string& key) const {
  if (key == "hive.metastore.warehouse.dir") return opts_.warehouse_dir;
  if (key == "hive.exec.default.partition.name") return std::string(kDefaultPartitionName);
  if (key == "hive.metastore.limit.partition.request") {
    return std::to_string(opts_.max_partitions_per_request);
  }
  if (key == "hive.metastore.batch.retrieve.max") {
    return std::to_string(opts_.max_objects_per_request);
  }
  if (key == "metastore.catalog.default") return opts_.catalog_name;
  std::string all;
  for (const char* k : kSupportedConfKeys) all += (all.empty() ? "" : ", ") + std::string(k);
  return Status::InvalidArgument("Invalid configuration key '" + key + "' (supported: " + all +
                                 ")");
}

Result<hive::Catalog> HmsConfig::GetCatalog(const std::string& name) const {
  ICS_RETURN_IF_ERROR(CheckCatalog(name.empty() ? "?" : name));
  hive::Catalog c;
  c.name = opts_.catalog_name;
  c.__set_description("the catalog of this metastore");
  c.locationUri = opts_.warehouse_dir;
  return c;
}

Result<std::string> HmsConfig::GetConfigValue(const std::string& name,
                                              const std::string& default_value) const {
  if (!StartsWith(name, "hive.") && !StartsWith(name, "mapred.") && !StartsWith(name, "hdfs.") &&
      !StartsWith(name, "metastore.")) {
    return Status::InvalidArgument(
        "For security reasons, the configuration key '" + name +
        "' cannot be read (only hive.*, metastore.*, mapred.* and hdfs.* keys)");
  }
  Result<std::string> v = GetMetaConf(name);
  if (v.ok()) return v;
  return default_value;
}

}  // namespace ics::catalog::hms
