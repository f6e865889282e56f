// The web pages' view of a running CatalogServer.
//
// Thread-safety: call after CatalogServer::Start, from the thread that
// registers the pages.
#pragma once

#include "catalogd/service/catalog_server.h"
#include "catalogd/web/catalog_pages.h"

namespace ics::catalog {

// The dependencies of a started CatalogServer. With an HMS event processor
// it also registers the processor's gauges on the server's registry
// (event_status.h; idempotent).
CatalogPagesDeps CatalogPagesDepsOf(CatalogServer* server);

}  // namespace ics::catalog
