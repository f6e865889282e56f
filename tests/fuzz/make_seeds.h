// Shared by the seed generator's files (make_seeds.cc: RPC seeds, the
// method dictionaries and main; make_seeds_codec.cc: codec seeds;
// make_seeds_text.cc: the text targets' seeds; make_seeds_statestore.cc: the
// statestore, statestore HA and subscriber seeds).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <thrift/protocol/TBinaryProtocol.h>
#include <thrift/protocol/TMultiplexedProtocol.h>
#include <thrift/transport/TBufferTransports.h>

#include "CatalogObjects_types.h"
#include "StatestoreService_types.h"
#include "catalogd/topic/catalog_topic_publisher.h"
#include "common/codec/thrift_serde.h"

namespace ics::fuzz {

class CatalogdStack;

// The bytes a client of `Client` sends for the calls `calls` makes with its
// send_* methods; `service` wraps them for a TMultiplexedProcessor.
template <typename Client>
std::string Calls(const std::function<void(Client&)>& calls, const std::string& service = "") {
  auto buffer = std::make_shared<apache::thrift::transport::TMemoryBuffer>();
  std::shared_ptr<apache::thrift::protocol::TProtocol> proto =
      std::make_shared<apache::thrift::protocol::TBinaryProtocol>(buffer);
  if (!service.empty()) {
    proto = std::make_shared<apache::thrift::protocol::TMultiplexedProtocol>(proto, service);
  }
  Client client(proto);
  calls(client);
  return buffer->getBufferAsString();
}

// Writes `bytes` as <out>/corpus/<target>/<name> (and counts the file).
void Write(const std::string& target, const std::string& name, const std::string& bytes);

// Writes `text` as <out>/dict/<target>.dict (and counts the file).
void WriteDict(const std::string& target, const std::string& text);

// Writes the dictionary of `target`: the call header and every method name
// (with its multiplexing prefix) of the generated services in `gen_dir`,
// as text and as wire bytes. Exits the generator when a service has none.
void WriteMethodDict(const std::string& target, const std::string& gen_dir,
                     const std::vector<std::pair<std::string, std::string>>& services);

// `obj` encoded with `p`; exits the generator when that fails.
std::string MustSerialize(const apache::thrift::TBase& obj, ThriftProtocol p);

// The object descriptor of table `table` of the fuzz stacks' database.
impala::TCatalogObject TableDesc(const std::string& table);

// The full catalog topic of the seeded catalog in publisher mode `mode`.
impala::TTopicDelta SeedTopic(CatalogdStack& stack, catalog::TopicMode mode);

// The first entry of `topic` whose key starts with `prefix`, or null.
const impala::TTopicItem* FindEntry(const impala::TTopicDelta& topic, const std::string& prefix);

// Seeds of the codec targets: topic_value, partition_stats, file_desc,
// thrift_struct, and column_type's binary one.
void CodecSeeds(CatalogdStack& stack);

// Seeds of the text targets: sql, column_type, hms_filter, partition_filter.
void TextSeeds();

// Seeds of the statestore targets (make_seeds_statestore.cc):
// statestore_service, statestore_ha and subscriber.
void StatestoreSeeds();
void StatestoreHaSeeds();
void SubscriberSeeds(CatalogdStack& stack);

}  // namespace ics::fuzz
