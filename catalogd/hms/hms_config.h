// HmsConfig: the metastore configuration a Hive client may ask for
// (getMetaConf, get_config_value), answered from the endpoint's options.
//
// Thread-safety: thread-safe (the core it uses is).
#pragma once

#include <string>

#include "catalogd/hms/hms_part.h"
#include "common/util/result.h"
#include "hive_metastore_types.h"

namespace ics::catalog::hms {

class HmsConfig : public HmsPart {
 public:
  using HmsPart::HmsPart;

  // getMetaConf: the supported keys (see kSupportedConfKeys in the .cc);
  // INVALID_ARGUMENT for any other key.
  Result<std::string> GetMetaConf(const std::string& key) const;
  // get_config_value: a supported key's value, else `default_value`;
  // INVALID_ARGUMENT (security) for keys not starting with hive., metastore.,
  // mapred., hdfs.
  Result<std::string> GetConfigValue(const std::string& name,
                                     const std::string& default_value) const;
  // The one catalog served (get_catalogs) and get_catalog of it, located at
  // the warehouse; another name is NOT_FOUND.
  const std::string& CatalogName() const { return opts_.catalog_name; }
  Result<hive::Catalog> GetCatalog(const std::string& name) const;
};

}  // namespace ics::catalog::hms
