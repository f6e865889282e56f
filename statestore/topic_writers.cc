#include "statestore/topic_writers.h"

#include "common/util/split.h"

namespace ics::statestore {

bool TopicWriterPolicy::MayWrite(const std::string& topic,
                                 impala::TStatestoreSubscriberType::type type,
                                 const std::string& identity) const {
  if (topic == kCatalogTopicName) {
    return type == impala::TStatestoreSubscriberType::CATALOGD &&
           (catalogd_identity.empty() || identity == catalogd_identity);
  }
  auto it = writers.find(topic);
  return it == writers.end() || it->second == identity;
}

Status TopicWriterPolicy::CheckRegistration(const std::string& subscriber_id,
                                            impala::TStatestoreSubscriberType::type type,
                                            const std::string& identity) const {
  if (type == impala::TStatestoreSubscriberType::CATALOGD && !catalogd_identity.empty() &&
      identity != catalogd_identity) {
    return Status::InvalidArgument(
        "subscriber '" + subscriber_id + "' registers as catalogd, but its identity '" + identity +
        "' is not the configured catalogd identity (--statestore_catalogd_identity)");
  }
  return Status::OK();
}

Result<std::map<std::string, std::string>> ParseTopicWriters(std::string_view text) {
  std::map<std::string, std::string> out;
  for (const std::string& rule : SplitNonEmpty(text, ';')) {
    const size_t eq = rule.find('=');
    if (eq == 0 || eq == std::string_view::npos || eq + 1 == rule.size()) {
      return Status::InvalidArgument("topic writer rule '" + rule +
                                     "' is not topic=identity");
    }
    const std::string topic(rule.substr(0, eq));
    if (topic == kCatalogTopicName) {
      return Status::InvalidArgument(
          "catalog-update's writer is catalogd; set --statestore_catalogd_identity instead");
    }
    if (!out.emplace(topic, std::string(rule.substr(eq + 1))).second) {
      return Status::InvalidArgument("topic '" + topic + "' has two writer rules");
    }
  }
  return out;
}

}  // namespace ics::statestore
