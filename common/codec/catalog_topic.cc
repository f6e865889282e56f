#include "common/codec/catalog_topic.h"

namespace ics {

using impala::TCatalogObjectType;

std::string CatalogTopicKey(const impala::TCatalogObject& obj) {
  switch (obj.type) {
    case TCatalogObjectType::CATALOG:
      return kCatalogServiceKey;
    case TCatalogObjectType::DATABASE:
      return "DATABASE:" + obj.db.db_name;
    case TCatalogObjectType::TABLE:
    case TCatalogObjectType::VIEW:
      return std::string(obj.type == TCatalogObjectType::VIEW ? "VIEW:" : "TABLE:") +
             obj.table.db_name + "." + obj.table.tbl_name;
    case TCatalogObjectType::HDFS_PARTITION:
      return "HDFS_PARTITION:" + obj.hdfs_partition.db_name + "." + obj.hdfs_partition.tbl_name +
             ":" + obj.hdfs_partition.partition_name;
    case TCatalogObjectType::FUNCTION:
      return "FUNCTION:" + obj.fn.name.db_name + "." + obj.fn.signature;
    case TCatalogObjectType::DATA_SOURCE:
      return "DATA_SOURCE:" + obj.data_source.name;
    case TCatalogObjectType::HDFS_CACHE_POOL:
      return "HDFS_CACHE_POOL:" + obj.cache_pool.pool_name;
    default:
      return "UNKNOWN:";
  }
}

bool IsCatalogServiceEntry(std::string_view key) {
  const std::string_view k = kCatalogServiceKey;
  return key.size() >= k.size() && key.substr(key.size() - k.size()) == k;
}

Result<std::string> EncodeCatalogTopicValue(const impala::TCatalogObject& obj,
                                            CatalogTopicFormat format) {
  return EncodeTopicValue(obj, format.compact);
}

Status DecodeCatalogTopicValue(std::string_view value, CatalogTopicFormat format,
                               impala::TCatalogObject* out) {
  // No reset first: `*out` is default-constructed by contract, and
  // assigning a default TCatalogObject (kilobytes of nested members) cost
  // more than decoding a typical entry.
  Status s = DecodeTopicValue(value, format.compact, out);
  if (s.ok()) return s;
  *out = impala::TCatalogObject();
  return s.WithContext(std::string("undecodable catalog topic value (") +
                       std::to_string(value.size()) + " bytes, " +
                       (format.compact ? "compact" : "not compact") + ")");
}

}  // namespace ics
