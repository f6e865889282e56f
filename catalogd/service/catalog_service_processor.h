// The CatalogService processor catalogd serves: the generated one, except
// that GetPartialCatalogObject answers with table partitions are serialized
// straight from the catalog state (partial_response_writer.h), one partition
// at a time, instead of from a rendered copy of them all. The bytes on the
// wire are the generated processor's. Every other call, and a failed or
// non-table fetch, goes through the generated code unchanged. No processor
// event handler is called for GetPartialCatalogObject (none is installed).
//
// Thread-safety: as the generated processor (one per connection or shared;
// the fetch function must be thread-safe).
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "CatalogService.h"
#include "catalogd/fetch/partial_fetcher.h"

namespace ics::catalog {

class StreamingCatalogServiceProcessor : public impala::CatalogServiceProcessor {
 public:
  using PartialFetch =
      std::function<PartialFetchAnswer(const impala::TGetPartialCatalogObjectRequest&)>;

  // `handler` serves every call but GetPartialCatalogObject, which `fetch`
  // answers (admission included).
  StreamingCatalogServiceProcessor(std::shared_ptr<impala::CatalogServiceIf> handler,
                                   PartialFetch fetch)
      : impala::CatalogServiceProcessor(std::move(handler)), fetch_(std::move(fetch)) {}

 protected:
  bool dispatchCall(apache::thrift::protocol::TProtocol* in,
                    apache::thrift::protocol::TProtocol* out, const std::string& fname,
                    int32_t seqid, void* call_context) override;

 private:
  void GetPartialCatalogObject(apache::thrift::protocol::TProtocol* in,
                               apache::thrift::protocol::TProtocol* out, int32_t seqid);

  const PartialFetch fetch_;
};

}  // namespace ics::catalog
