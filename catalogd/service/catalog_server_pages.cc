#include "catalogd/service/catalog_server_pages.h"

#include "catalogd/events/event_processor.h"
#include "catalogd/service/catalogd_role.h"
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
  if (const CatalogdRole* role = server->role()) {
    deps.ha_status = [role] {
      const CatalogdRoleInfo i = role->Info();
      nlohmann::ordered_json j;
      j["role"] = i.active ? "active" : i.taking_over ? "taking over" : "standby";
      j["designation_version"] = i.designation_version;
      j["active_address"] = i.active_address;
      j["writer_epoch"] = i.epoch;
      j["takeovers"] = i.takeovers;
      j["last_takeover_ms"] = i.last_takeover_ms;
      return j;
    };
  }
  return deps;
}

}  // namespace ics::catalog
