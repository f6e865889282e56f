// A simulated coordinator's debug web pages, registered on its own
// WebServer (each coordinator of a coordinator-sim process has one, on
// --webserver_port + i):
//
//   /catalog      the coordinator's catalog and statestore position (local
//                 catalog version and service id, highest catalog version
//                 and topic version received, min subscriber topic version,
//                 registration), local catalog counters (hits, misses,
//                 evictions, invalidations, fetches, cached bytes) and its
//                 contents: databases and tables, loaded/cached or names
//                 only, with versions and partition counts (?db=: one
//                 database; ?limit=: rows, default 1000). Listing never
//                 fetches from catalogd.
//   /statements   running and recent statements (bounded) with session
//                 database, duration, outcome (?limit=)
//   plus the common pages (/, /varz, /metrics with the coordinator's
//   metrics, /healthz: 503 "Catalog not ready" until the first catalog
//   topic update has been applied).
//
// Ownership: borrows the coordinator, which must outlive the web server.
// Thread-safety: handlers are thread-safe.
#pragma once

#include "common/web/web_server.h"
#include "coordinator-sim/coordinator.h"

namespace ics::coord {

void RegisterCoordinatorPages(web::WebServer* server, Coordinator* coordinator);

}  // namespace ics::coord
