// Entries of the catalog-update topic ("catalog-update"), both directions:
// what catalogd publishes and what a coordinator's local catalog reads.
//
// Key:   <mode prefix><object key>. The prefix is "1:" for full objects
//        (legacy coordinators, the full replica) and "2:" for invalidations
//        (minimal objects, on-demand coordinators); the object key is
//        "CATALOG_SERVICE_ID", "DATABASE:db", "TABLE:db.t" / "VIEW:db.t",
//        "HDFS_PARTITION:db.t:k=v", "FUNCTION:db.sig", "DATA_SOURCE:name",
//        "HDFS_CACHE_POOL:name", as Impala names them.
// Value: a TCatalogObject in the topic value format (topic_value.h);
//        whether it is LZ4-compacted is configuration that both sides must
//        share (--compact_catalog_topic, true by default), not guessed.
//
// Thread-safety: stateless functions.
#pragma once

#include <string>
#include <string_view>

#include "CatalogObjects_types.h"
#include "common/codec/topic_value.h"
#include "common/util/result.h"

namespace ics {

inline constexpr char kCatalogTopic[] = "catalog-update";
inline constexpr char kFullObjectPrefix[] = "1:";
inline constexpr char kInvalidationPrefix[] = "2:";
inline constexpr char kCatalogServiceKey[] = "CATALOG_SERVICE_ID";

struct CatalogTopicFormat {
  bool compact = true;  // --compact_catalog_topic
};

// The object key of `obj` (without the mode prefix).
std::string CatalogTopicKey(const impala::TCatalogObject& obj);

// Whether `key` (with its prefix) is the CATALOG object's entry.
bool IsCatalogServiceEntry(std::string_view key);

Result<std::string> EncodeCatalogTopicValue(const impala::TCatalogObject& obj,
                                            CatalogTopicFormat format);

// Decodes into `*out`, which must be in default-constructed state (members
// absent from the value keep what they hold); CORRUPTION (or the decoder's
// error) with the value's size when the bytes are not a TCatalogObject in
// `format`, and then `*out` is default-constructed again.
[[nodiscard]] Status DecodeCatalogTopicValue(std::string_view value, CatalogTopicFormat format,
                                             impala::TCatalogObject* out);

}  // namespace ics
