#include "catalogd/service/catalog_server_pages.h"

#include "catalogd/events/event_processor.h"
#include "catalogd/web/event_status.h"

namespace ics::catalog {

CatalogPagesDeps CatalogPagesDepsOf(CatalogServer* server) {
  CatalogPagesDeps deps;
  deps.catalog = server->catalog();
  deps.publisher = server->publisher();
  deps.operations = server->operations();
  deps.metrics = server->metrics();
  if (const EventProcessor* events = server->event_processor()) {
    deps.event_processor_status = [events] { return EventProcessorStatusJson(*events); };
    // Idempotent: registering again replaces the callbacks.
    AddEventProcessorGauges(server->metrics(), events);
  }
  return deps;
}

}  // namespace ics::catalog
