// CatalogPagesDepsOf: the page dependencies of a running CatalogServer.
#include "catalogd/service/catalog_server.h"
#include "catalogd/web/catalog_pages.h"

namespace ics::catalog {

CatalogPagesDeps CatalogPagesDepsOf(CatalogServer* server) {
  CatalogPagesDeps deps;
  deps.catalog = server->catalog();
  deps.publisher = server->publisher();
  deps.operations = server->operations();
  return deps;
}

}  // namespace ics::catalog
