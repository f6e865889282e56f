// The two CatalogService RPCs backed by the HMS event processor, as
// functions of the request, so the Thrift handler stays a thin adapter.
//
// SetEventProcessorStatus: params.action (case-insensitive) is "pause",
// "start" (resume; with params.event_id: continue after that event id, -1
// meaning the latest one) or "status". Every answer carries the processor's
// status line in `info`. Unknown actions are INVALID_ARGUMENT.
//
// WaitForHmsEvent: waits up to timeout_s (> 0) until the processor has
// applied every event committed before the call, then returns the catalog
// version and, for each object in object_descs (databases and tables), its
// current minimal object in updated_catalog_objects (type, names, version)
// or, if it does not exist, a minimal object in removed_catalog_objects, so
// a coordinator can drop stale cache entries. want_db_list/want_table_list
// need nothing extra: after the wait, lists fetched from catalogd are
// current. Errors: the processor is disabled/paused (INVALID_ARGUMENT), did
// not catch up in time (TIMED_OUT) or the metastore failed.
//
// Thread-safety: stateless; called concurrently by RPC threads.
#pragma once

#include "CatalogService_types.h"

namespace ics::catalog {

class Catalog;
class EventProcessor;

impala::TSetEventProcessorStatusResponse SetEventProcessorStatusRpc(
    EventProcessor* processor, const impala::TSetEventProcessorStatusRequest& req);

impala::TWaitForHmsEventResponse WaitForHmsEventRpc(EventProcessor* processor, Catalog* catalog,
                                                    const impala::TWaitForHmsEventRequest& req);

}  // namespace ics::catalog
