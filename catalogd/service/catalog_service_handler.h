// The CatalogService Thrift handler, Impala's door: thin adapters that
// validate the protocol version, hand changes to the command core
// (catalogd/ops/command_core.h) with the caller the request header names
// (impala_caller.h), call the readers (PartialFetcher, TableLoadManager)
// and map Status to the response's TStatus. Errors are
// always returned in the response, never as Thrift exceptions, as the peer
// does. Services that have no meaning here answer NOT_IMPLEMENTED. Under
// catalogd HA a standby answers every call with CATALOG_IN_STANDBY_MODE.
//
// Thread-safety: stateless beyond the pointers it is given; called
// concurrently by the RPC server's threads.
#pragma once

#include <memory>

#include "CatalogService.h"

namespace ics::catalog {

class CatalogdRole;
namespace ops {
class CommandCore;
}
class EventProcessor;
class PartialFetcher;
struct CatalogContext;

struct HandlerDeps {
  CatalogContext* ctx;
  ops::CommandCore* core;  // every change goes through it (null: reads only, in tests)
  PartialFetcher* fetcher;
  int sync_ddl_timeout_ms;
  EventProcessor* events = nullptr;  // SetEventProcessorStatus, WaitForHmsEvent
  // catalogd HA: requests are served only while this catalogd is active
  // (CATALOG_IN_STANDBY_MODE otherwise; for changes the core's admission
  // says so). Null without HA.
  const CatalogdRole* role = nullptr;
};

std::shared_ptr<impala::CatalogServiceIf> MakeCatalogServiceHandler(HandlerDeps deps);

// The processor to serve: the handler above behind
// StreamingCatalogServiceProcessor (catalog_service_processor.h), which
// writes GetPartialCatalogObject's table partitions straight from the state.
std::shared_ptr<impala::CatalogServiceProcessor> MakeCatalogServiceProcessor(HandlerDeps deps);

}  // namespace ics::catalog
